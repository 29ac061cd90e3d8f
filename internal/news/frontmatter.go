package news

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrFrontMatter means an article file's front matter is missing or broken.
var ErrFrontMatter = errors.New("bad front matter")

const fence = "---"

// ParseFile reads an article file: a front matter block between two "---"
// lines with "title:" and "date:" (RFC 3339), then the markdown content. The
// title may be written bare or as a JSON string. id names the article.
func ParseFile(id string, data []byte) (Article, error) {
	src := normalizeNewlines(string(data))
	src = strings.TrimPrefix(src, "\ufeff")
	if !strings.HasPrefix(src, fence+"\n") {
		return Article{}, fmt.Errorf("%w: the file must start with a %q line", ErrFrontMatter, fence)
	}
	head, body, ok := strings.Cut(src[len(fence)+1:], "\n"+fence+"\n")
	if !ok {
		if !strings.HasSuffix(src, "\n"+fence) {
			return Article{}, fmt.Errorf("%w: no closing %q line", ErrFrontMatter, fence)
		}
		head, body = strings.TrimSuffix(src[len(fence)+1:], "\n"+fence), ""
	}
	a := Article{ID: id, Content: strings.TrimPrefix(body, "\n")}
	sc := bufio.NewScanner(strings.NewReader(head))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, value, ok := strings.Cut(text, ":")
		if !ok {
			return Article{}, fmt.Errorf("%w: line %d: want key: value, got %q", ErrFrontMatter, line+1, text)
		}
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "title":
			title, err := unquote(value)
			if err != nil {
				return Article{}, fmt.Errorf("%w: line %d: title: %v", ErrFrontMatter, line+1, err)
			}
			a.Title = title
		case "date":
			d, err := time.Parse(time.RFC3339, value)
			if err != nil {
				return Article{}, fmt.Errorf("%w: line %d: date %q is not RFC 3339 (like 2026-01-10T12:00:00-06:00)", ErrFrontMatter, line+1, value)
			}
			a.Date = d
		default:
			return Article{}, fmt.Errorf("%w: line %d: unknown key %q (want title or date)", ErrFrontMatter, line+1, key)
		}
	}
	if a.Title == "" {
		return Article{}, fmt.Errorf("%w: no title", ErrFrontMatter)
	}
	if a.Date.IsZero() {
		return Article{}, fmt.Errorf("%w: no date", ErrFrontMatter)
	}
	return a, nil
}

func unquote(v string) (string, error) {
	if !strings.HasPrefix(v, `"`) {
		return v, nil
	}
	var s string
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return "", fmt.Errorf("bad quoted string %s", v)
	}
	return s, nil
}

// FormatFile writes a as an article file that ParseFile reads back unchanged.
func FormatFile(a Article) []byte {
	title, _ := json.Marshal(a.Title) // a string always marshals
	var b strings.Builder
	fmt.Fprintf(&b, "%s\ntitle: %s\ndate: %s\n%s\n", fence, title, a.Date.Format(time.RFC3339Nano), fence)
	b.WriteString(a.Content)
	return []byte(b.String())
}

// normalizeNewlines turns Windows line ends into "\n". It repeats until none
// is left, so "\r\r\n" reads the same as a file saved again would.
func normalizeNewlines(s string) string {
	for strings.Contains(s, "\r\n") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}

package news

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string // substrings the HTML must contain
		notWant []string // substrings it must not contain
	}{
		{"heading and emphasis", "# Kickoff\n\nWe **won**.", []string{"<h1>Kickoff</h1>", "<strong>won</strong>"}, nil},
		{"raw inline HTML is shown escaped", "Hi <script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script>"}},
		{"raw HTML block is shown escaped", "<div onclick=\"x()\">box</div>\n", []string{"&lt;div onclick=&quot;x()&quot;&gt;"}, []string{"<div"}},
		{"javascript link dropped", "[click](javascript:alert(1))", []string{`<a href="">click</a>`}, []string{"javascript:"}},
		{"vbscript link dropped", "[click](vbscript:msgbox)", nil, []string{"vbscript:"}},
		{"data URL link dropped", "[x](data:text/html;base64,PHNjcmlwdD4=)", nil, []string{"data:text/html"}},
		{"data image allowed", "![dot](data:image/png;base64,iVBORw0KGgo=)", []string{`src="data:image/png;base64,iVBORw0KGgo="`}, nil},
		{"external link gets rel", "[FIRST](https://www.firstinspires.org)", []string{`href="https://www.firstinspires.org" rel="noopener noreferrer"`}, nil},
		{"internal link has no rel", "[About](/about)", []string{`<a href="/about">About</a>`}, []string{"rel="}},
		{"autolink gets rel", "See https://example.org now", []string{`<a href="https://example.org" rel="noopener noreferrer">`}, nil},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}, nil},
		{"strikethrough", "~~old~~", []string{"<del>old</del>"}, nil},
		{"task list", "- [x] done\n- [ ] todo", []string{`<input checked="" disabled="" type="checkbox" aria-label="done">`, `aria-label="to do"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Render(%q) = %q, want it to contain %q", tt.src, got, w)
				}
			}
			for _, nw := range tt.notWant {
				if strings.Contains(got, nw) {
					t.Errorf("Render(%q) = %q, must not contain %q", tt.src, got, nw)
				}
			}
		})
	}
}

func TestPreview(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		wantEllipsis bool
		want, absent string
	}{
		{"short article is whole", "one\n\ntwo", false, "<p>two</p>", ""},
		{"exactly three lines", "one\n\ntwo\n\nthree\n", false, "<p>three</p>", ""},
		{"fourth line is cut", "one\n\ntwo\n\nthree\n\nfour", true, "<p>three</p>", "four"},
		{"blank lines do not count", "\n\n\none\n\n\n\ntwo", false, "<p>two</p>", ""},
		{"list items count as lines", "- a\n- b\n- c\n- d", true, "<li>c</li>", "<li>d</li>"},
		{"windows line ends", "one\r\ntwo\r\nthree\r\nfour", true, "three", "four"},
		{"headings become bold text", "## Week 1\n\nWe built.", false, "<p><strong>Week 1</strong></p>", "<h2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Preview(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(got, "…"); has != tt.wantEllipsis {
				t.Errorf("Preview(%q) = %q; ellipsis %v, want %v", tt.src, got, has, tt.wantEllipsis)
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("Preview(%q) = %q, want it to contain %q", tt.src, got, tt.want)
			}
			if tt.absent != "" && strings.Contains(got, tt.absent) {
				t.Errorf("Preview(%q) = %q, must not contain %q", tt.src, got, tt.absent)
			}
		})
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{"# t", "<script>x</script>", "[a](javascript:b)", "| a |\n|---|\n| <b> |", "```\n<img onerror=x>\n```", "- [ ] x\n<iframe>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, render := range []func(string) (string, error){Render, Preview} {
			got, err := render(src)
			if err != nil {
				t.Fatalf("render(%q): %v", src, err)
			}
			lower := strings.ToLower(got)
			for _, bad := range []string{"<script", "<iframe", "<img onerror", "href=\"javascript:", "<div", "<style"} {
				if strings.Contains(lower, bad) {
					t.Fatalf("render(%q) = %q contains %q", src, got, bad)
				}
			}
		}
	})
}

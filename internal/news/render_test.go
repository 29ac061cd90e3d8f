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
		{"javascript link becomes its text", "[click](javascript:alert(1))", []string{`<p>click</p>`}, []string{"javascript:", "<a"}},
		{"ms-msdt link becomes its text", "[help](ms-msdt:/id%20PCWDiagnostic)", []string{`<p>help</p>`}, []string{"ms-msdt", "<a"}},
		{"intent link becomes its text", "[app](intent://scan/#Intent;scheme=zxing;end)", []string{`<p>app</p>`}, []string{"intent:", "<a"}},
		{"mixed-case scheme with a tab becomes its text", "[x](<JaVa\tScRiPt:alert(1)>)", []string{`<p>x</p>`}, []string{"<a"}},
		{"entity-encoded scheme becomes its text", "[x](&#106;avascript:alert(1))", []string{`<p>x</p>`}, []string{"<a"}},
		{"autolink with another scheme becomes its text", "<ms-msdt:x>", []string{`<p>ms-msdt:x</p>`}, []string{"<a"}},
		{"image with another scheme becomes its alt text", "![alt text](ms-appx:x.png)", []string{`<p>alt text</p>`}, []string{"<img"}},
		{"emphasis inside a forbidden link is kept", "[**bold**](vbscript:x)", []string{`<p><strong>bold</strong></p>`}, []string{"<a"}},
		{"mailto allowed", "[mail](mailto:team@example.org)", []string{`<a href="mailto:team@example.org">mail</a>`}, nil},
		{"relative path with a colon later is a link", "[r](/news/a:b)", []string{`<a href="/news/a:b">r</a>`}, nil},
		{"table alignment as classes", "| l | c | r |\n|:--|:-:|--:|\n| 1 | 2 | 3 |", []string{`<td class="align-left">1</td>`, `<td class="align-center">2</td>`, `<td class="align-right">3</td>`}, []string{"style="}},
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

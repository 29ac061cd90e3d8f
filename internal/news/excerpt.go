package news

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

var markdownNoise = regexp.MustCompile("[#*_`>|~\\[\\]]+|\\((?:https?:)?/[^)]*\\)|-{3,}")

// Excerpt returns about the first max characters of markdown as plain text,
// cut at a word boundary with an ellipsis.
func Excerpt(md string, max int) string {
	text := strings.Join(strings.Fields(markdownNoise.ReplaceAllString(md, " ")), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	runes := []rune(text)[:max]
	cut := string(runes)
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

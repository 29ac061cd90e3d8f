package console

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineFault is what keeps a text from being one short line (checkLine).
type lineFault int

const (
	lineOK lineFault = iota
	// lineNotUTF8: the text is not valid UTF-8.
	lineNotUTF8
	// lineTooLong: the text has more characters than allowed.
	lineTooLong
	// lineBreaks: the text has a control character, such as a line break
	// or a tab.
	lineBreaks
)

// checkLine reports what keeps s from being one short line of text: valid
// UTF-8, at most maxRunes characters, no control characters. The empty
// text is one; callers that need a text say so themselves.
func checkLine(s string, maxRunes int) lineFault {
	switch {
	case !utf8.ValidString(s):
		return lineNotUTF8
	case utf8.RuneCountInString(s) > maxRunes:
		return lineTooLong
	case strings.ContainsFunc(s, unicode.IsControl):
		return lineBreaks
	}
	return lineOK
}

// sentence capitalises the first letter of msg.
func sentence(msg string) string {
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}

// brokenRule is the sentence an editor reads for err, which wraps rule
// with the words of what is wrong: those words, capitalised.
func brokenRule(err, rule error) string {
	return sentence(strings.TrimPrefix(err.Error(), rule.Error()+": "))
}

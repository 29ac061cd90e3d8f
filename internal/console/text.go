package console

import (
	"fmt"
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
	// lineHidden: the text has a character that breaks the line or is not
	// shown as itself (hiddenRune).
	lineHidden
)

// checkLine reports what keeps s from being one short line of plain text:
// valid UTF-8, at most maxRunes characters, no hidden character
// (hiddenRune); for lineHidden, the first such character too. The empty
// text is one; callers that need a text say so themselves.
func checkLine(s string, maxRunes int) (lineFault, rune) {
	switch {
	case !utf8.ValidString(s):
		return lineNotUTF8, 0
	case utf8.RuneCountInString(s) > maxRunes:
		return lineTooLong, 0
	}
	prev := rune(-1)
	for i, r := range s {
		if hiddenRune(r) && !(r == zeroWidthJoiner && emojiJoin(prev, s[i+len(string(r)):])) {
			return lineHidden, r
		}
		prev = r
	}
	return lineOK, 0
}

// zeroWidthJoiner (Cf) joins emoji into one picture: 🧑 + ZWJ + 🔧 is a
// mechanic, which a team writes in a title or a name.
const zeroWidthJoiner = '\u200D'

// emojiJoin reports whether a zero-width joiner after prev and before rest
// joins two emoji (a symbol, a skin tone modifier or the emoji variation
// selector before it, a symbol after it): there it shows as one picture,
// and hides nothing. Anywhere else it is an invisible character.
func emojiJoin(prev rune, rest string) bool {
	// At the end of the text, next is utf8.RuneError, itself a symbol (So).
	next, _ := utf8.DecodeRuneInString(rest)
	before := prev == '\uFE0F' || unicode.In(prev, unicode.So, unicode.Sk)
	return before && next != utf8.RuneError && unicode.Is(unicode.So, next)
}

// hiddenRune reports whether r has no place in one line that others read:
// a control (Cc: line breaks, tabs), a format character (Cf: the bidi
// overrides and isolates that make text read in another order, zero-width
// characters that hide in a name), or a line or paragraph separator (Zl,
// Zp). A name or a notice with one can show other people something else
// than it says.
func hiddenRune(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// runeNames are the Unicode names of the hidden characters (hiddenRune)
// met most: pasted from another app, or put there to mislead.
var runeNames = map[rune]string{
	0x0009: "CHARACTER TABULATION",
	0x000A: "LINE FEED",
	0x000D: "CARRIAGE RETURN",
	0x0085: "NEXT LINE",
	0x00AD: "SOFT HYPHEN",
	0x061C: "ARABIC LETTER MARK",
	0x180E: "MONGOLIAN VOWEL SEPARATOR",
	0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER",
	0x200D: "ZERO WIDTH JOINER",
	0x200E: "LEFT-TO-RIGHT MARK",
	0x200F: "RIGHT-TO-LEFT MARK",
	0x2028: "LINE SEPARATOR",
	0x2029: "PARAGRAPH SEPARATOR",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}

// describeRune names r as the Unicode standard writes it, "U+202E
// RIGHT-TO-LEFT OVERRIDE", or by its code point alone when runeNames has
// no name for it.
func describeRune(r rune) string {
	if name, ok := runeNames[r]; ok {
		return fmt.Sprintf("U+%04X %s", r, name)
	}
	return fmt.Sprintf("U+%04X", r)
}

// lineError says what keeps s from being one line of at most maxRunes
// characters of plain text, naming s as what ("the name") and such texts
// as kind ("a name"); nil when it is one.
func lineError(s string, maxRunes int, what, kind string) error {
	switch fault, r := checkLine(s, maxRunes); fault {
	case lineNotUTF8:
		return fmt.Errorf("%s is not valid UTF-8", what)
	case lineTooLong:
		return fmt.Errorf("%s has %d characters; %s is at most %d characters", what, utf8.RuneCountInString(s), kind, maxRunes)
	case lineHidden:
		return fmt.Errorf("%s contains %s; remove it: %s is one line of plain text", what, describeRune(r), kind)
	}
	return nil
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

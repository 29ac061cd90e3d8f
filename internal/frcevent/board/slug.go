package board

import "strings"

// Slug keeps the letters and digits of s, lower case, with a hyphen for
// every run of anything else: "Qualification 14" is "qualification-14".
// A match's label made so names it in the calendar's event ids and in the
// ids of the followers' notifications.
func Slug(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			hyphen = false
		} else if !hyphen && b.Len() > 0 {
			b.WriteByte('-')
			hyphen = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

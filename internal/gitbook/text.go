package gitbook

import "strings"

// Titles are written as markdown text (a heading, a link's text) and read
// back by resolving backslash escapes, as a markdown reader would. Escaping
// every backslash makes the two exact inverses.

// unescapeText resolves the backslash escapes of markdown text: a backslash
// before ASCII punctuation stands for the punctuation.
func unescapeText(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// oneLine keeps a title on one line, where a heading or a link's text is.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}

// escapeHeading is a title as the text of an ATX heading: a run of "#" at
// its end would otherwise be read as the heading's closing sequence.
func escapeHeading(s string) string {
	s = strings.ReplaceAll(oneLine(s), `\`, `\\`)
	if trimmed := strings.TrimRight(s, "#"); trimmed != s && (trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t")) {
		s = trimmed + `\` + s[len(trimmed):]
	}
	return s
}

// escapeLinkText is a title as the text of a SUMMARY.md link.
func escapeLinkText(s string) string {
	return linkTextEscaper.Replace(oneLine(s))
}

var linkTextEscaper = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`)

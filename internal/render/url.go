package render

import (
	"strings"
	"unicode"
)

// safeHref returns href as a link may use it: http, https, mailto and tel
// URLs, relative references and fragments. Anything else (javascript:,
// data:, vbscript:, file:, …) could run script or reach the visitor's own
// machine, so it is refused whoever supplied it, the document or Options.
func safeHref(href string) (string, bool) {
	href, ok := cleanURL(href)
	if !ok {
		return "", false
	}
	switch scheme(href) {
	case "", "http", "https", "mailto", "tel":
		return href, true
	}
	return "", false
}

// safeSrc returns src as an image may load it: http, https and relative
// references. data: is refused too, since an SVG there is a document of its
// own.
func safeSrc(src string) (string, bool) {
	src, ok := cleanURL(src)
	if !ok {
		return "", false
	}
	switch scheme(src) {
	case "", "http", "https":
		return src, true
	}
	return "", false
}

// external reports whether a checked href leaves the site.
func external(href string) bool {
	s := scheme(href)
	return s == "http" || s == "https" || strings.HasPrefix(href, "//")
}

// cleanURL removes what a browser ignores in a URL before it reads the
// scheme (C0 controls and spaces at either end, tabs and line breaks
// anywhere), so that the scheme checked is the scheme followed; Unicode
// spaces at either end go too, to be safe from parsers laxer than the
// standard. Any other control character, or nothing left, makes the URL
// unusable.
func cleanURL(s string) (string, bool) {
	s = strings.TrimFunc(s, func(c rune) bool { return c <= ' ' || unicode.IsSpace(c) })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(func(c rune) rune {
			if c == '\t' || c == '\n' || c == '\r' {
				return -1
			}
			return c
		}, s)
	}
	if s == "" {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			return "", false
		}
	}
	return s, true
}

// scheme returns a URL's scheme in lower case, or "" for a relative
// reference: as the URL standard reads it, a letter, then letters, digits,
// "+", "-" or ".", up to the first ":".
func scheme(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			if i == 0 {
				return ""
			}
			return strings.ToLower(s[:i])
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return ""
		}
	}
	return ""
}

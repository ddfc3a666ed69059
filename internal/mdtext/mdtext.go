// Package mdtext reads and rewrites markdown as text, outside fenced code:
// the first level-1 heading, and the destinations of links and images.
// Importers use it where the text must stay as written, byte for byte,
// except what they change; turning markdown into a document is package
// document's.
package mdtext

import (
	"html"
	"regexp"
	"strings"
)

var (
	fenceLine   = regexp.MustCompile("^ {0,3}(```|~~~)")
	headingLine = regexp.MustCompile(`^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	// inlineRef is an inline link or image: ![alt](dest "title").
	inlineRef = regexp.MustCompile(`(!?)(\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]\(\s*)(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)((?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\))`)
	// htmlImage is the src of an <img> tag.
	htmlImage = regexp.MustCompile(`(<img\b[^>]*?\ssrc\s*=\s*)(?:"([^"]*)"|'([^']*)')`)
)

// outside calls fn with each line that is not in fenced code, fence lines
// left out, until fn returns false.
func outside(lines []string, fn func(i int, line string) bool) {
	fence := ""
	for i, line := range lines {
		if m := fenceLine.FindStringSubmatch(line); m != nil {
			switch fence {
			case "":
				fence = m[1]
			case m[1]:
				fence = ""
			}
			continue
		}
		if fence == "" && !fn(i, line) {
			return
		}
	}
}

// FirstHeading finds the first ATX level-1 heading ("# Title") of lines
// outside fenced code: its index and its text as written, without the
// closing #s; -1 when there is none.
func FirstHeading(lines []string) (index int, text string) {
	index = -1
	outside(lines, func(i int, line string) bool {
		if m := headingLine.FindStringSubmatch(line); m != nil {
			index, text = i, m[1]
			return false
		}
		return true
	})
	return index, text
}

// Rewrite replaces the destinations of the inline links and images of a
// markdown body, and the src of its <img> tags, outside fenced code, with
// what fn returns for each (image tells images from links). fn sees a
// destination as written, without its <...>, and an src with its HTML
// entities resolved. What fn leaves as it was stays byte for byte, so that
// a body rewritten one way and back is the same text; a new destination
// keeps its <...> (and gets them when it holds a space or a parenthesis),
// a new src its quotes.
func Rewrite(body string, fn func(ref string, image bool) string) string {
	// Most bodies and lines hold neither a link nor an <img>: the literal
	// text each pattern needs rules them out far faster than the patterns.
	links, images := strings.Contains(body, "]("), strings.Contains(body, "<img")
	if !links && !images {
		return body
	}
	lines := strings.Split(body, "\n")
	outside(lines, func(i int, line string) bool {
		if links && strings.Contains(line, "](") {
			line = rewriteLinks(line, fn)
		}
		if images && strings.Contains(line, "<img") {
			line = rewriteImages(line, fn)
		}
		lines[i] = line
		return true
	})
	return strings.Join(lines, "\n")
}

// rewriteLinks is Rewrite of the inline links and images of a line.
func rewriteLinks(line string, fn func(ref string, image bool) string) string {
	return inlineRef.ReplaceAllStringFunc(line, func(s string) string {
		m := inlineRef.FindStringSubmatch(s)
		ref, angled := strings.CutPrefix(m[3], "<")
		if angled {
			ref = strings.TrimSuffix(ref, ">")
		}
		if ref == "" {
			return s
		}
		out := fn(ref, m[1] == "!")
		if out == ref {
			return s
		}
		if angled || strings.ContainsAny(out, " ()") {
			out = "<" + out + ">"
		}
		return m[1] + m[2] + out + m[4]
	})
}

// rewriteImages is Rewrite of the src of a line's <img> tags.
func rewriteImages(line string, fn func(ref string, image bool) string) string {
	return htmlImage.ReplaceAllStringFunc(line, func(s string) string {
		m := htmlImage.FindStringSubmatch(s)
		raw, quote := m[2], `"`
		if strings.HasPrefix(s[len(m[1]):], "'") {
			raw, quote = m[3], "'"
		}
		ref := html.UnescapeString(raw)
		if ref == "" {
			return s
		}
		out := fn(ref, true)
		if out == ref {
			return s
		}
		return m[1] + quote + html.EscapeString(out) + quote
	})
}

package gitbook

import (
	"regexp"
	"strings"
)

// The regexps below are copied from package importer (markdown.go), which
// does not export them: they find the destinations of a markdown body's
// links and images and the src of its <img> tags, outside fenced code.
var (
	fenceLine   = regexp.MustCompile("^ {0,3}(```|~~~)")
	headingLine = regexp.MustCompile(`^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	// inlineRef is an inline link or image: ![alt](dest "title").
	inlineRef = regexp.MustCompile(`(!?)(\[(?:[^\[\]\\]|\\.|\[[^\[\]]*\])*\]\(\s*)(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)((?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\))`)
	// htmlImage is the src of an <img> tag in markdown.
	htmlImage = regexp.MustCompile(`(<img\b[^>]*?\ssrc\s*=\s*)(?:"([^"]*)"|'([^']*)')`)
)

func toggleFence(open, marker string) string {
	switch open {
	case "":
		return marker
	case marker:
		return ""
	}
	return open
}

// rewriteRefs replaces the destinations of the links and images of a
// markdown body and the src of its <img> tags, outside fenced code, with
// what fn returns for each, as written (escapes and entities unresolved).
// Fence lines are never changed, so that a body rewritten one way and back
// is split into the same code and text.
func rewriteRefs(body string, fn func(ref string) string) string {
	lines := strings.Split(body, "\n")
	fence := ""
	for i, line := range lines {
		if m := fenceLine.FindStringSubmatch(line); m != nil {
			fence = toggleFence(fence, m[1])
			continue
		}
		if fence != "" {
			continue
		}
		line = inlineRef.ReplaceAllStringFunc(line, func(s string) string {
			m := inlineRef.FindStringSubmatch(s)
			ref, angled := strings.CutPrefix(m[3], "<")
			if angled {
				ref = strings.TrimSuffix(ref, ">")
			}
			out := fn(ref)
			if out == ref {
				return s
			}
			if angled {
				out = "<" + out + ">"
			}
			return m[1] + m[2] + out + m[4]
		})
		lines[i] = htmlImage.ReplaceAllStringFunc(line, func(s string) string {
			m := htmlImage.FindStringSubmatch(s)
			ref, quote := m[2], `"`
			if strings.HasPrefix(s[len(m[1]):], "'") {
				ref, quote = m[3], "'"
			}
			out := fn(ref)
			if out == ref {
				return s
			}
			return m[1] + quote + out + quote
		})
	}
	return strings.Join(lines, "\n")
}

// assetRef splits a reference to a file of the space, "<dots>.gitbook/assets/<name>"
// where dots are "./", "../" or "/" segments, at the start of its
// ".gitbook/assets/" part.
func assetRef(ref string) (rest string, ok bool) {
	i := strings.Index(ref, assetDir)
	if i < 0 || strings.Trim(ref[:i], "./") != "" {
		return "", false
	}
	return ref[i:], true
}

// relativeAssets rewrites the references to the space's files in the
// markdown of a page whose file is depth directories below the root, to be
// relative to that file, so that a Git host's renderer shows them.
func relativeAssets(markdown string, depth int) string {
	up := strings.Repeat("../", depth)
	return rewriteRefs(markdown, func(ref string) string {
		if rest, ok := assetRef(ref); ok {
			return up + rest
		}
		return ref
	})
}

// rootAssets undoes relativeAssets: a reference that climbs from the page's
// file exactly to the root's .gitbook/assets is written from the root, as
// Bindery's editor writes it. Other forms are kept as the repository has
// them (document.Assets resolves them too); undoing exactly what Export
// does keeps a page that made the round trip unchanged.
func rootAssets(markdown string, depth int) string {
	if depth == 0 {
		return markdown
	}
	up := strings.Repeat("../", depth)
	return rewriteRefs(markdown, func(ref string) string {
		if rest, ok := strings.CutPrefix(ref, up); ok && strings.HasPrefix(rest, assetDir) {
			return rest
		}
		return ref
	})
}

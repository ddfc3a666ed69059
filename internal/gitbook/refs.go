package gitbook

import (
	"strings"

	"github.com/bindery/bindery/internal/mdtext"
)

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
	return mdtext.Rewrite(markdown, func(ref string, _ bool) string {
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
	return mdtext.Rewrite(markdown, func(ref string, _ bool) string {
		if rest, ok := strings.CutPrefix(ref, up); ok && strings.HasPrefix(rest, assetDir) {
			return rest
		}
		return ref
	})
}

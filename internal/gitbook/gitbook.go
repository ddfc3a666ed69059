// Package gitbook converts between a space's content and the files of a
// project directory in the layout GitBook's Git Sync reads and writes:
// SUMMARY.md for the table of contents, one markdown file per document page
// (YAML front matter, then "# Title", then the page's markdown), and the
// space's files under .gitbook/assets. A repository GitBook wrote imports
// into Bindery, and what Bindery exports imports back into the same pages.
//
// It knows nothing of Git, HTTP or the database: package gitsync moves the
// files, the caller stores the pages.
package gitbook

import "github.com/bindery/bindery/internal/content"

const (
	// readmeName is the file of a page with children, and of the space's
	// first page.
	readmeName = "README.md"
	// summaryName is the table of contents' default file.
	summaryName = "SUMMARY.md"
	// configName is GitBook's optional configuration of the layout.
	configName = ".gitbook.yaml"
	// assetDir holds the space's files, under the root; markdown refers to
	// them by it (document.AssetPrefix).
	assetDir = ".gitbook/assets/"
)

// Asset is an imported file with its bytes. File.Blob is left empty for the
// caller to fill when it stores Data.
type Asset struct {
	File content.File
	Data []byte
}

// Result is what Import read.
type Result struct {
	// Pages is the page tree, slugs unique among siblings.
	Pages []*content.Node
	// Files are the files of .gitbook/assets, ordered by name. Markdown
	// refers to each as ".gitbook/assets/<File.Name>".
	Files []Asset
	// Warnings name what was skipped or read differently than written,
	// for the person who syncs; none of them fails the import.
	Warnings []string
	// Sources are the paths, as Import was given them, of the files it
	// read as the space's: the table of contents, the pages' files and
	// the files of .gitbook/assets, sorted. An export over the same
	// directory replaces exactly these and leaves the rest (.gitbook.yaml,
	// code, a CHANGELOG.md the table of contents does not list) alone.
	Sources []string
}

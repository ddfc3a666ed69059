package document

import (
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// AssetPrefix is where a revision's markdown finds the revision's files, as
// in a Git export of it: ".gitbook/assets/<name>" is the file named name.
const AssetPrefix = ".gitbook/assets/"

// AssetPath is the path a Git export gives a file named name, the one
// markdown refers to it by.
func AssetPath(name string) string { return AssetPrefix + name }

// FromPage returns the JSON document of a page of c: its markdown, in which
// images and links to ".gitbook/assets/<name>" refer to c's file of that
// name (see Assets). Groups and links have no document: nil.
//
// Both APIs present a page's document through it, so they give the same.
func FromPage(c *content.Content, p *content.Page) (*Document, error) {
	if p.Type != enum.PageTypeDocument {
		return nil, nil
	}
	return FromMarkdown(p.Markdown, Options{File: Assets(c.Files)})
}

// Assets resolves an image or link source of markdown to one of files (an
// Options.File): ".gitbook/assets/<name>", possibly after "/" or relative
// "./" and "../" segments (a page's markdown may sit anywhere in a Git
// export's tree), is the file named name. When names repeat, the first file
// of the list wins.
func Assets(files []*content.File) func(src string) (fileID string, ok bool) {
	byName := make(map[string]string, len(files))
	for _, f := range files {
		if _, dup := byName[f.Name]; !dup {
			byName[f.Name] = f.ID
		}
	}
	return func(src string) (string, bool) {
		name, ok := AssetName(src)
		if !ok {
			return "", false
		}
		id, ok := byName[name]
		return id, ok
	}
}

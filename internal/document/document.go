// Package document converts a page's markdown into the official GitBook JSON
// document: the tree of blocks, inlines and texts that the API returns as a
// page's document (schema JSONDocument of the GitBook OpenAPI spec).
//
// The conversion is deterministic: the same markdown and resolvers always
// give the same JSON. Nodes carry no "key": the spec makes keys optional, and
// random keys would make every conversion differ.
package document

// Document is a GitBook JSON document. It marshals to the spec's shape:
// {"object":"document","data":{},"nodes":[...]}.
type Document struct {
	Object string         `json:"object"`
	Data   map[string]any `json:"data"`
	Nodes  []*Node        `json:"nodes"`
}

// Node is a block ("block"), an inline ("inline"), a text ("text") or a
// fragment ("fragment") of a document. Which fields are set depends on
// Object and Type, as the spec's Document* schemas require; empty fields the
// schema does not require are left out of the JSON.
type Node struct {
	Object string `json:"object"`
	Type   string `json:"type,omitempty"`
	// Fragment names a fragment, which a block's data refers to.
	Fragment string `json:"fragment,omitempty"`
	// IsVoid is set on blocks and inlines, never on texts.
	IsVoid    *bool          `json:"isVoid,omitempty"`
	Data      map[string]any `json:"data,omitzero"`
	Nodes     []*Node        `json:"nodes,omitzero"`
	Leaves    []*Leaf        `json:"leaves,omitzero"`
	Fragments []*Node        `json:"fragments,omitzero"`
}

// Leaf is a run of text with the same marks.
type Leaf struct {
	Object string  `json:"object"`
	Text   string  `json:"text"`
	Marks  []*Mark `json:"marks"`
}

// Mark is a text format: "bold", "italic", "code" or "strikethrough".
type Mark struct {
	Object string `json:"object"`
	Type   string `json:"type"`
}

// Options are the revision-specific parts of a conversion.
type Options struct {
	// File resolves an image or link source to a revision file ID; sources
	// like ".gitbook/assets/<name>" refer to files of the revision by name.
	// A percent-encoded source that does not resolve is tried again decoded.
	// nil means no files.
	File func(src string) (fileID string, ok bool)
	// Page resolves a link destination without its "#anchor" (such as
	// "../guide/setup.md") to a page ID of the revision. nil means links
	// never point to pages.
	Page func(href string) (pageID string, ok bool)
}

// FromMarkdown parses markdown (CommonMark with GFM tables, strikethrough and
// task lists) and returns it as a JSON document. Empty markdown gives a
// document without nodes.
//
// Every markdown input is accepted; the error is part of the signature so
// that limits can be added without changing callers.
func FromMarkdown(markdown string, opt Options) (*Document, error) {
	source := []byte(markdown)
	root := parse(source)
	c := &converter{source: source, opt: opt}
	nodes := c.blocks(root, scopeTop)
	if nodes == nil {
		nodes = []*Node{}
	}
	return &Document{Object: "document", Data: map[string]any{}, Nodes: nodes}, nil
}

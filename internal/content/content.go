// Package content is the content model of a revision: a tree of pages, a set
// of files and a set of reusable contents, held in memory as plain values.
//
// A revision is immutable. Editing means loading its Content, changing the
// copy, and saving it as a new revision (see store.go): objects are addressed
// by the hash of their bytes, so only the pages that changed and the tree
// nodes above them are written.
//
// The package knows nothing about HTTP or the database.
package content

import (
	"time"

	"github.com/bindery/bindery/internal/enum"
)

// Content is everything a revision holds.
type Content struct {
	// Pages are the top-level pages, in order.
	Pages []*Node
	// Files are the revision's files, ordered by ID.
	Files []*File
	// Reusable are the revision's reusable contents, ordered by ID.
	Reusable []*Reusable
	// index finds pages in a content that no longer changes: set when it
	// is loaded, never on a Clone, and dropped by any change through a
	// method, for safety.
	index *index
	// own is what a fork owns (see fork.go); nil for a content that owns
	// all it holds, frozen for a loaded one.
	own *owner
}

// Node is a page in the tree with its child pages, in order.
type Node struct {
	Page     *Page
	Children []*Node
}

// Page is a page without its children. Every field is part of the page's
// content hash.
type Page struct {
	ID    string        `json:"id"`
	Type  enum.PageType `json:"type"`
	Title string        `json:"title"`
	// Slug names the page inside its parent; Path joins the slugs from the
	// root and is derived, never stored.
	Slug          string `json:"slug"`
	Emoji         string `json:"emoji,omitempty"`
	Icon          string `json:"icon,omitempty"`
	Description   string `json:"description,omitempty"`
	Markdown      string `json:"markdown,omitempty"`
	Hidden        bool   `json:"hidden,omitempty"`
	NoIndex       bool   `json:"noIndex,omitempty"`
	NoRobotsIndex bool   `json:"noRobotsIndex,omitempty"`
	// Layout is nil for the default layout.
	Layout *Layout `json:"layout,omitempty"`
	Cover  *Cover  `json:"cover,omitempty"`
	// Target is where a link page points: Ref.Kind "url" or "page".
	Target    *Ref      `json:"target,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Layout is the display options of a document page.
type Layout struct {
	Width           enum.LayoutWidth `json:"width"`
	Cover           bool             `json:"cover"`
	CoverSize       enum.CoverSize   `json:"coverSize"`
	Title           bool             `json:"title"`
	Description     bool             `json:"description"`
	TableOfContents bool             `json:"tableOfContents"`
	Outline         bool             `json:"outline"`
	Pagination      bool             `json:"pagination"`
	Metadata        bool             `json:"metadata"`
}

// DefaultLayout is the layout of a page that has none set.
func DefaultLayout() Layout {
	return Layout{
		Width: enum.LayoutWidthDefault, Cover: true, CoverSize: enum.CoverSizeHero, Title: true,
		Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true,
	}
}

// Cover is a page's cover image.
type Cover struct {
	Ref  Ref     `json:"ref"`
	YPos float64 `json:"yPos"`
}

// Ref is a reference to content, as the official API's ContentRef: Kind is
// "url" (URL set), "page" (Page set) or "file" (File set).
type Ref struct {
	Kind string `json:"kind"`
	URL  string `json:"url,omitempty"`
	Page string `json:"page,omitempty"`
	File string `json:"file,omitempty"`
}

// File is a file of a revision. Its bytes are the object Blob.
type File struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	// Width and Height are set for images whose size could be read.
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Blob   string `json:"blob"`
}

// Reusable is a reusable content: a block of markdown shared by pages.
type Reusable struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Markdown string `json:"markdown,omitempty"`
}

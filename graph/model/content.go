package model

import (
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// RevisionPage is a page of a revision as GraphQL shows it: the page, its
// derived path, and its nested pages.
type RevisionPage struct {
	Node *content.Node
	// Revision is the revision whose content the page is part of.
	Revision *ent.Revision
	path     string
	// in is the content the page is part of, whose files its document
	// refers to.
	in *content.Content
}

// NewRevisionPage wraps a page of c, the content of rev, found at path.
func NewRevisionPage(rev *ent.Revision, c *content.Content, n *content.Node, path string) *RevisionPage {
	return &RevisionPage{Node: n, Revision: rev, path: path, in: c}
}

// RevisionPages wraps the pages of a tree level of c, the content of rev,
// under the parent path.
func RevisionPages(rev *ent.Revision, c *content.Content, nodes []*content.Node, parentPath string) []*RevisionPage {
	out := make([]*RevisionPage, len(nodes))
	for i, n := range nodes {
		p := n.Page.Slug
		if parentPath != "" {
			p = parentPath + "/" + p
		}
		out[i] = NewRevisionPage(rev, c, n, p)
	}
	return out
}

// In is the content the page is part of.
func (p *RevisionPage) In() *content.Content { return p.in }

func (p *RevisionPage) ID() string           { return p.Node.Page.ID }
func (p *RevisionPage) Type() enum.PageType  { return p.Node.Page.Type }
func (p *RevisionPage) Title() string        { return p.Node.Page.Title }
func (p *RevisionPage) Emoji() *string       { return nonEmpty(p.Node.Page.Emoji) }
func (p *RevisionPage) Icon() *string        { return nonEmpty(p.Node.Page.Icon) }
func (p *RevisionPage) Slug() string         { return p.Node.Page.Slug }
func (p *RevisionPage) Path() string         { return p.path }
func (p *RevisionPage) Description() *string { return nonEmpty(p.Node.Page.Description) }
func (p *RevisionPage) Hidden() bool         { return p.Node.Page.Hidden }
func (p *RevisionPage) NoIndex() bool        { return p.Node.Page.NoIndex }
func (p *RevisionPage) NoRobotsIndex() bool  { return p.Node.Page.NoRobotsIndex }
func (p *RevisionPage) CreatedAt() time.Time { return p.Node.Page.CreatedAt }
func (p *RevisionPage) UpdatedAt() time.Time { return p.Node.Page.UpdatedAt }

// Pages are the nested pages, in order.
func (p *RevisionPage) Pages() []*RevisionPage {
	return RevisionPages(p.Revision, p.in, p.Node.Children, p.path)
}

// Markdown is the content of a document page; null for groups and links.
func (p *RevisionPage) Markdown() *string {
	if p.Node.Page.Type != enum.PageTypeDocument {
		return nil
	}
	md := p.Node.Page.Markdown
	return &md
}

// Layout is the display options of a document page, the default ones when
// none are set; null for groups and links.
func (p *RevisionPage) Layout() *content.Layout {
	if p.Node.Page.Type != enum.PageTypeDocument {
		return nil
	}
	if p.Node.Page.Layout != nil {
		return p.Node.Page.Layout
	}
	l := content.DefaultLayout()
	return &l
}

// Cover is the page's cover image.
func (p *RevisionPage) Cover() *PageCover {
	c := p.Node.Page.Cover
	if c == nil {
		return nil
	}
	return &PageCover{FileID: nonEmpty(c.Ref.File), URL: nonEmpty(c.Ref.URL), YPos: c.YPos}
}

// Href is the URL a link page points at.
func (p *RevisionPage) Href() *string {
	if t := p.Node.Page.Target; t != nil {
		return nonEmpty(t.URL)
	}
	return nil
}

// TargetPageID is the page a link page points at.
func (p *RevisionPage) TargetPageID() *string {
	if t := p.Node.Page.Target; t != nil {
		return nonEmpty(t.Page)
	}
	return nil
}

// RevisionFile is a file of a revision with its signed download URL.
type RevisionFile struct {
	ID          string
	Name        string
	ContentType string
	Size        int64
	Width       *int
	Height      *int
	DownloadURL string
	// Blob is the hash of the file's bytes, which /v1 shows as its git oid.
	Blob string
	// Revision is the revision whose content the file is part of.
	Revision *ent.Revision
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

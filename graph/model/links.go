package model

import (
	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/links"
)

// ContentReferenceUsage is a link target of a revision and the pages that
// use it.
type ContentReferenceUsage struct {
	Usage *links.Usage
	// Revision is the revision whose content the usage is of.
	Revision *ent.Revision
}

func (u *ContentReferenceUsage) Status() enum.ContentReferenceStatus     { return u.Usage.Status }
func (u *ContentReferenceUsage) Relation() enum.ContentReferenceRelation { return u.Usage.Relation }
func (u *ContentReferenceUsage) Kind() enum.ContentReferenceKind         { return u.Usage.Target.Kind }
func (u *ContentReferenceUsage) Anchor() *string                         { return nonEmpty(u.Usage.Target.Anchor) }
func (u *ContentReferenceUsage) URL() *string                            { return nonEmpty(u.Usage.Target.URL) }
func (u *ContentReferenceUsage) Href() *string                           { return nonEmpty(u.Usage.Target.Href) }

// LinkScope is what a list of link usages is of: a revision, or one page
// of it.
type LinkScope struct {
	Revision *ent.Revision
	// PageID is the page, or "" for the whole revision.
	PageID string
}

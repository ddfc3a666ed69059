package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/gitbook"
	"github.com/bindery/bindery/internal/page"
)

// The /v1 shapes of content: revisions, their pages and their files.

// gitBlob is the official GitSyncBlob: where an object sits in a Git
// export (package gitbook). oid is the hash of the stored object, which
// names its content as a Git blob ID does, not the Git blob's own ID.
type gitBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

type dimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

type fileJSON struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	ContentType string      `json:"contentType"`
	DownloadURL string      `json:"downloadURL"`
	Size        int64       `json:"size"`
	Dimensions  *dimensions `json:"dimensions,omitempty"`
	Git         *gitBlob    `json:"git,omitempty"`
}

// filesByID is the order of a revision's file list.
var filesByID = page.SliceOrder[*model.RevisionFile]{
	Name: "files", KeyType: page.KeyString,
	Key: func(f *model.RevisionFile) any { return f.ID }, ID: func(f *model.RevisionFile) string { return f.ID },
}

// presentFile presents a file as the resolver GraphQL uses returned it, with
// its signed download URL.
func (a *API) presentFile(f *model.RevisionFile, o contentOptions) fileJSON {
	j := fileJSON{
		ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: f.Size,
		DownloadURL: f.DownloadURL,
	}
	if f.Width != nil && f.Height != nil {
		j.Dimensions = &dimensions{Width: *f.Width, Height: *f.Height}
	}
	if o.metadata {
		j.Git = &gitBlob{OID: f.Blob, Path: document.AssetPath(f.Name)}
	}
	return j
}

type pageURLs struct {
	App string `json:"app"`
}

// pageJSON is a page of any type; the members of each type are those of the
// official RevisionPageDocument, RevisionPageGroup and RevisionPageLink.
type pageJSON struct {
	ID    string        `json:"id"`
	Title string        `json:"title"`
	Type  enum.PageType `json:"type"`
	// Kind is the deprecated name of the type, which the spec still
	// requires: "sheet" for a document.
	Kind          string             `json:"kind"`
	Emoji         *string            `json:"emoji,omitempty"`
	Icon          *string            `json:"icon,omitempty"`
	CreatedAt     string             `json:"createdAt,omitempty"`
	UpdatedAt     string             `json:"updatedAt,omitempty"`
	URLs          *pageURLs          `json:"urls,omitempty"`
	Slug          string             `json:"slug"`
	Path          string             `json:"path"`
	Description   *string            `json:"description,omitempty"`
	Markdown      *string            `json:"markdown,omitempty"`
	Document      *document.Document `json:"document,omitempty"`
	Layout        *content.Layout    `json:"layout,omitempty"`
	Cover         *content.Cover     `json:"cover,omitempty"`
	Target        *content.Ref       `json:"target,omitempty"`
	Href          *string            `json:"href,omitempty"`
	Hidden        bool               `json:"hidden"`
	NoIndex       bool               `json:"noIndex"`
	NoRobotsIndex bool               `json:"noRobotsIndex"`
	// Pages is absent from links, which have no nested pages.
	Pages *[]pageJSON `json:"pages,omitempty"`
	Git   *gitBlob    `json:"git,omitempty"`
}

var pageKinds = map[enum.PageType]string{
	enum.PageTypeDocument: "sheet", enum.PageTypeGroup: "group", enum.PageTypeLink: "link",
}

// pagePresenter presents the pages of one space's revision.
type pagePresenter struct {
	// app is the space's app URL, which a page's path extends.
	app      string
	metadata bool
}

func (a *API) pagePresenter(ctx context.Context, rev *ent.Revision, o contentOptions) (pagePresenter, error) {
	s, err := a.r.Revision().Space(ctx, rev)
	if err != nil {
		return pagePresenter{}, err
	}
	urls, err := a.r.Space().Urls(ctx, s)
	if err != nil {
		return pagePresenter{}, err
	}
	return pagePresenter{app: urls.App, metadata: o.metadata}, nil
}

// tree presents pages with their nested pages. A document carries its
// markdown: the spec's Document is one of markdown or a JSON document, and
// markdown is what a tree can afford.
func (pp pagePresenter) tree(pages []*model.RevisionPage) []pageJSON {
	out := make([]pageJSON, len(pages))
	for i, p := range pages {
		out[i] = pp.page(p)
	}
	return out
}

func (pp pagePresenter) page(p *model.RevisionPage) pageJSON {
	n := p.Node.Page
	j := pageJSON{
		ID: p.ID(), Title: p.Title(), Type: p.Type(), Kind: pageKinds[p.Type()], Emoji: p.Emoji(), Icon: p.Icon(),
		Slug: p.Slug(), Path: p.Path(), Description: p.Description(), Markdown: p.Markdown(), Layout: p.Layout(),
		Hidden: p.Hidden(), NoIndex: p.NoIndex(), NoRobotsIndex: p.NoRobotsIndex(),
	}
	if !n.CreatedAt.IsZero() {
		j.CreatedAt = model.FormatTime(n.CreatedAt)
	}
	if !n.UpdatedAt.IsZero() {
		j.UpdatedAt = model.FormatTime(n.UpdatedAt)
	}
	switch n.Type {
	case enum.PageTypeDocument:
		j.URLs = &pageURLs{App: pp.app + "/" + p.Path()}
		j.Cover = n.Cover
		if pp.metadata {
			j.Git = &gitBlob{OID: content.PageHash(n), Path: gitbook.PagePath(p.In(), p.Node, p.Path())}
		}
	case enum.PageTypeLink:
		j.Target = n.Target
		j.Href = p.Href()
	}
	if n.Type != enum.PageTypeLink {
		children := pp.tree(p.Pages())
		j.Pages = &children
	}
	return j
}

// single presents a page requested alone: a document carries its JSON
// document, or its markdown when asked for.
func (pp pagePresenter) single(p *model.RevisionPage, c *content.Content, markdown bool) (pageJSON, error) {
	j := pp.page(p)
	if markdown {
		return j, nil
	}
	doc, err := document.FromPage(c, p.Node.Page)
	if err != nil || doc == nil {
		return j, err
	}
	j.Markdown, j.Document = nil, doc
	return j, nil
}

// reusableJSON is the official RevisionReusableContent. Bindery stores a
// reusable content's markdown, not a document with an ID, so document is
// absent, as the spec allows for an empty one.
type reusableJSON struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// revisionJSON is the official Revision.
type revisionJSON struct {
	Object           string             `json:"object"`
	ID               string             `json:"id"`
	Parents          []string           `json:"parents"`
	Pages            []pageJSON         `json:"pages"`
	Files            []fileJSON         `json:"files"`
	ReusableContents []reusableJSON     `json:"reusableContents"`
	CreatedAt        string             `json:"createdAt"`
	Type             enum.RevisionType  `json:"type"`
	MergedFrom       *changeRequestJSON `json:"mergedFrom,omitempty"`
	// Git is the commit the revision was imported from, absent for one
	// made in Bindery.
	Git *revisionGitJSON `json:"git,omitempty"`
	// URLs has app, as the spec says, and location, the revision's /v1
	// address (the Location of an import), which the spec does not list
	// but allows.
	URLs *model.RevisionURLs `json:"urls"`
}

// revisionGitJSON is the official GitSyncCommit. The contract names the
// flag createdByService and the spec createdByGitBook (required): both
// are given, so that a client of either reads it. A revision is imported
// from a commit someone pushed, so both are false.
type revisionGitJSON struct {
	Oid              string `json:"oid"`
	Message          string `json:"message"`
	Ref              string `json:"ref"`
	CreatedByGitBook bool   `json:"createdByGitBook"`
	CreatedByService bool   `json:"createdByService"`
}

func (a *API) presentRevision(ctx context.Context, rev *ent.Revision, o contentOptions) (revisionJSON, error) {
	res := a.r.Revision()
	j := revisionJSON{
		Object: "revision", ID: rev.ID, Parents: []string{}, CreatedAt: model.FormatTime(rev.CreatedAt), Type: rev.Type,
	}
	git, err := res.Git(ctx, rev)
	if err != nil {
		return j, err
	}
	if git != nil {
		j.Git = &revisionGitJSON{Oid: git.Oid, Message: git.Message, Ref: git.Ref}
	}
	parents, err := res.Parents(ctx, rev)
	if err != nil {
		return j, err
	}
	for _, p := range parents {
		j.Parents = append(j.Parents, p.ID)
	}
	pp, err := a.pagePresenter(ctx, rev, o)
	if err != nil {
		return j, err
	}
	pages, err := res.Pages(ctx, rev)
	if err != nil {
		return j, err
	}
	j.Pages = pp.tree(pages)
	files, err := res.Files(ctx, rev)
	if err != nil {
		return j, err
	}
	j.Files = make([]fileJSON, len(files))
	for i, f := range files {
		j.Files[i] = a.presentFile(f, o)
	}
	reusables, err := res.ReusableContents(ctx, rev)
	if err != nil {
		return j, err
	}
	j.ReusableContents = make([]reusableJSON, len(reusables))
	for i, rc := range reusables {
		j.ReusableContents[i] = reusableJSON{ID: rc.ID, Title: rc.Title}
	}
	if j.URLs, err = res.Urls(ctx, rev); err != nil {
		return j, err
	}
	// The spec requires mergedFrom of a merge.
	cr, err := res.MergedFrom(ctx, rev)
	if err != nil || cr == nil {
		return j, err
	}
	crj, err := a.presentChangeRequest(ctx, cr)
	j.MergedFrom = &crj
	return j, err
}

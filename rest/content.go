package rest

import (
	"context"
	"net/http"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
)

// Content routes read a revision: its whole content, its pages, its files, a
// page by ID or by path. Three sources of a revision share them: the space's
// main content (/spaces/{spaceId}/content), a change request's content
// (/spaces/{spaceId}/change-requests/{changeRequestId}/content) and any
// revision of the space (/spaces/{spaceId}/revisions/{revisionId}).

// revisionSource resolves the revision a content route reads, one the viewer
// can see.
type revisionSource func(p params) (*ent.Revision, error)

// spaceContent is the current revision of the space's main content.
func (p params) spaceContent() (*ent.Revision, error) {
	return p.a.r.SpaceRevision(p.ctx(), p.path("spaceId"))
}

// changeRequestContent is the current revision of a change request.
func (p params) changeRequestContent() (*ent.Revision, error) {
	cr, err := p.changeRequest()
	if err != nil {
		return nil, err
	}
	return p.a.r.ChangeRequest().Revision(p.ctx(), cr)
}

// givenRevision is the revision the path names, of the path's space.
func (p params) givenRevision() (*ent.Revision, error) {
	return p.a.r.RevisionInSpace(p.ctx(), p.path("spaceId"), p.path("revisionId"))
}

// contentOps are the official names of one source's content reads, which
// the spec names differently for each source. The link analysis of a page
// and the backlinks of a file, which the spec has for some sources only,
// are left out where their names are "".
type contentOps struct {
	revision, pages, files, file, pageByID, pageByPath string
	pageLinks, fileBacklinks                           string
}

// contentRoutes are the rows of the reads of a source's content under
// prefix.
func contentRoutes(prefix string, src revisionSource, ops contentOps) []route {
	rows := []route{
		{"GET", prefix, http.StatusOK, ops.revision, read(src, getRevision)},
		{"GET", prefix + "/pages", http.StatusOK, ops.pages, read(src, listPages)},
		{"GET", prefix + "/files", http.StatusOK, ops.files, read(src, listFiles)},
		{"GET", prefix + "/files/{fileId}", http.StatusOK, ops.file, read(src, getFile)},
		{"GET", prefix + "/page/{pageId}", http.StatusOK, ops.pageByID, read(src, getPage(pageByID))},
		{"GET", prefix + "/path/{" + pathRest + "}", http.StatusOK, ops.pageByPath, read(src, getPage(pageByPath))},
	}
	if ops.pageLinks != "" {
		rows = append(rows, route{"GET", prefix + "/page/{pageId}/links", http.StatusOK, ops.pageLinks, read(src, linkList(true))})
	}
	if ops.fileBacklinks != "" {
		rows = append(rows, route{"GET", prefix + "/files/{fileId}/backlinks", http.StatusOK, ops.fileBacklinks, read(src, fileBacklinks)})
	}
	return rows
}

// contentOptions are the query parameters every content read takes.
type contentOptions struct {
	// metadata includes the git members, which change with the content.
	metadata bool
}

// contentRead reads from the revision that src resolves. It reads its own
// query parameters before resolving the revision.
type contentRead func(p params, src revisionSource, o contentOptions) (any, error)

// read is the adapter of content reads: it reads the parameters shared by
// all. computed is accepted and has no effect: Bindery has no computed
// content.
func read(src revisionSource, fn contentRead) adapter {
	return adapter{handler: func(a *API, status int) handlerFunc {
		return func(r *http.Request) (response, error) {
			p := params{a: a, r: r}
			var o contentOptions
			var err error
			if o.metadata, err = p.bool("metadata", true); err != nil {
				return response{}, err
			}
			if _, err := p.bool("computed", true); err != nil {
				return response{}, err
			}
			body, err := fn(p, src, o)
			if err != nil {
				return response{}, err
			}
			return response{status: status, body: body}, nil
		}
	}}
}

func getRevision(p params, src revisionSource, o contentOptions) (any, error) {
	rev, err := src(p)
	if err != nil {
		return nil, err
	}
	return p.a.presentRevision(p.ctx(), rev, o)
}

type pagesJSON struct {
	Pages []pageJSON `json:"pages"`
}

func listPages(p params, src revisionSource, o contentOptions) (any, error) {
	rev, err := src(p)
	if err != nil {
		return nil, err
	}
	pp, err := p.a.pagePresenter(p.ctx(), rev, o)
	if err != nil {
		return nil, err
	}
	pages, err := p.a.r.Revision().Pages(p.ctx(), rev)
	if err != nil {
		return nil, err
	}
	return pagesJSON{Pages: pp.tree(pages)}, nil
}

// listed reads the page and limit of a list of a revision's content, then
// resolves the revision, so that bad parameters are refused first.
func (p params) listed(src revisionSource) (page.Args, *ent.Revision, error) {
	args, err := p.page()
	if err != nil {
		return args, nil, err
	}
	rev, err := src(p)
	return args, rev, err
}

func listFiles(p params, src revisionSource, o contentOptions) (any, error) {
	args, rev, err := p.listed(src)
	if err != nil {
		return nil, err
	}
	files, err := p.a.r.Revision().Files(p.ctx(), rev)
	if err != nil {
		return nil, err
	}
	conn, err := page.PaginateSlice(files, filesByID, args)
	if err != nil {
		return nil, err
	}
	return presentList(p.ctx(), conn.Nodes(), conn.PageInfo, conn.TotalCount,
		func(_ context.Context, f *model.RevisionFile) (fileJSON, error) {
			return p.a.presentFile(f, o), nil
		})
}

func getFile(p params, src revisionSource, o contentOptions) (any, error) {
	rev, err := src(p)
	if err != nil {
		return nil, err
	}
	f, err := found(fileByID(p, rev))("File")
	if err != nil {
		return nil, err
	}
	return p.a.presentFile(f, o), nil
}

// fileByID finds the file the path names in a revision; nil when there is
// none.
func fileByID(p params, rev *ent.Revision) (*model.RevisionFile, error) {
	return p.a.r.Revision().File(p.ctx(), rev, p.path("fileId"))
}

// found turns a lookup that finds nothing into a not-found error about
// what: found(find(...))("Page").
func found[T any](v *T, err error) func(what string) (*T, error) {
	return func(what string) (*T, error) {
		if err == nil && v == nil {
			err = apperr.NotFoundf("%s not found", what)
		}
		return v, err
	}
}

// pageFinder finds the page a route names in a revision; nil when there is
// none.
type pageFinder func(p params, rev *ent.Revision) (*model.RevisionPage, error)

func pageByID(p params, rev *ent.Revision) (*model.RevisionPage, error) {
	return p.a.r.Revision().Page(p.ctx(), rev, p.path("pageId"))
}

// pageByPath finds a page by the rest of the route's path, which may hold
// slashes.
func pageByPath(p params, rev *ent.Revision) (*model.RevisionPage, error) {
	path := p.path(pathRest)
	if path == "" {
		return nil, nil
	}
	return p.a.r.Revision().PageByPath(p.ctx(), rev, path)
}

// getPage reads one page. format is document (the default) or markdown.
func getPage(find pageFinder) contentRead {
	return func(p params, src revisionSource, o contentOptions) (any, error) {
		markdown, err := markdownFormat(p.r)
		if err != nil {
			return nil, err
		}
		rev, err := src(p)
		if err != nil {
			return nil, err
		}
		pg, err := found(find(p, rev))("Page")
		if err != nil {
			return nil, err
		}
		pp, err := p.a.pagePresenter(p.ctx(), rev, o)
		if err != nil {
			return nil, err
		}
		c, err := p.a.r.RevisionContent(p.ctx(), rev)
		if err != nil {
			return nil, err
		}
		return pp.single(pg, c, markdown)
	}
}

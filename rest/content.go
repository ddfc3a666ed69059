package rest

import (
	"context"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Content routes read a revision: its whole content, its pages, its files, a
// page by ID or by path. Three sources of a revision share them: the space's
// main content (/spaces/{spaceId}/content), a change request's content
// (/spaces/{spaceId}/change-requests/{changeRequestId}/content) and any
// revision of the space (/spaces/{spaceId}/revisions/{revisionId}).

// revisionSource resolves the revision a content route reads, one the viewer
// can see.
type revisionSource func(r *http.Request) (*ent.Revision, error)

// spaceContent is the current revision of the space's main content.
func (a *API) spaceContent(r *http.Request) (*ent.Revision, error) {
	return a.r.SpaceRevision(r.Context(), chi.URLParam(r, "spaceId"))
}

// changeRequestContent is the current revision of a change request.
func (a *API) changeRequestContent(r *http.Request) (*ent.Revision, error) {
	cr, err := a.changeRequestOf(r)
	if err != nil {
		return nil, err
	}
	return a.r.ChangeRequest().Revision(r.Context(), cr)
}

// givenRevision is the revision the path names, of the path's space.
func (a *API) givenRevision(r *http.Request) (*ent.Revision, error) {
	return a.r.RevisionInSpace(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"))
}

// contentRoutes registers the reads of a source's content under prefix.
func (a *API) contentRoutes(m chi.Router, prefix string, src revisionSource) {
	m.Get(prefix, a.readContent(src, a.getRevision))
	m.Get(prefix+"/pages", a.readContent(src, a.listPages))
	m.Get(prefix+"/files", a.readContent(src, a.listFiles))
	m.Get(prefix+"/files/{fileId}", a.readContent(src, a.getFile))
	m.Get(prefix+"/page/{pageId}", a.readContent(src, a.getPage(a.pageByID)))
	m.Get(prefix+"/path/*", a.readContent(src, a.getPage(a.pageByPath)))
}

// contentOptions are the query parameters every content read takes.
type contentOptions struct {
	// metadata includes the git members, which change with the content.
	metadata bool
}

// contentRead reads from the revision that src resolves. It reads its own
// query parameters before resolving the revision.
type contentRead func(r *http.Request, src revisionSource, o contentOptions) (any, error)

// readContent adapts a content read: it reads the parameters shared by all.
// computed is accepted and has no effect: Bindery has no computed content.
func (a *API) readContent(src revisionSource, read contentRead) http.HandlerFunc {
	return a.handle(func(_ http.ResponseWriter, r *http.Request) (response, error) {
		var o contentOptions
		var err error
		if o.metadata, err = boolParam(r, "metadata", true); err != nil {
			return response{}, err
		}
		if _, err := boolParam(r, "computed", true); err != nil {
			return response{}, err
		}
		body, err := read(r, src, o)
		if err != nil {
			return response{}, err
		}
		return ok(body), nil
	})
}

func (a *API) getRevision(r *http.Request, src revisionSource, o contentOptions) (any, error) {
	rev, err := src(r)
	if err != nil {
		return nil, err
	}
	return a.presentRevision(r.Context(), rev, o)
}

type pagesJSON struct {
	Pages []pageJSON `json:"pages"`
}

func (a *API) listPages(r *http.Request, src revisionSource, o contentOptions) (any, error) {
	ctx := r.Context()
	rev, err := src(r)
	if err != nil {
		return nil, err
	}
	pp, err := a.pagePresenter(ctx, rev, o)
	if err != nil {
		return nil, err
	}
	pages, err := a.r.Revision().Pages(ctx, rev)
	if err != nil {
		return nil, err
	}
	return pagesJSON{Pages: pp.tree(pages)}, nil
}

func (a *API) listFiles(r *http.Request, src revisionSource, o contentOptions) (any, error) {
	ctx := r.Context()
	args, err := listArgs(r)
	if err != nil {
		return nil, err
	}
	rev, err := src(r)
	if err != nil {
		return nil, err
	}
	c, err := a.r.RevisionContent(ctx, rev)
	if err != nil {
		return nil, err
	}
	conn, err := page.PaginateSlice(c.Files, filesByID, args)
	if err != nil {
		return nil, err
	}
	return presentList(ctx, conn.Nodes(), conn.PageInfo, conn.TotalCount,
		func(_ context.Context, f *content.File) (fileJSON, error) {
			return a.presentFile(rev.SpaceID, f, o), nil
		})
}

func (a *API) getFile(r *http.Request, src revisionSource, o contentOptions) (any, error) {
	rev, err := src(r)
	if err != nil {
		return nil, err
	}
	c, err := a.r.RevisionContent(r.Context(), rev)
	if err != nil {
		return nil, err
	}
	f, err := c.File(chi.URLParam(r, "fileId"))
	if err != nil {
		return nil, apperr.NotFoundf("File not found")
	}
	return a.presentFile(rev.SpaceID, f, o), nil
}

// pageFinder finds the page a route names in a revision; nil when there is
// none.
type pageFinder func(r *http.Request, rev *ent.Revision) (*model.RevisionPage, error)

func (a *API) pageByID(r *http.Request, rev *ent.Revision) (*model.RevisionPage, error) {
	return a.r.Revision().Page(r.Context(), rev, chi.URLParam(r, "pageId"))
}

// pageByPath finds a page by the rest of the route's path, which may hold
// slashes.
func (a *API) pageByPath(r *http.Request, rev *ent.Revision) (*model.RevisionPage, error) {
	path, err := url.PathUnescape(chi.URLParam(r, "*"))
	if err != nil || path == "" {
		return nil, nil
	}
	return a.r.Revision().PageByPath(r.Context(), rev, path)
}

// getPage reads one page. format is document (the default) or markdown.
func (a *API) getPage(find pageFinder) contentRead {
	return func(r *http.Request, src revisionSource, o contentOptions) (any, error) {
		ctx := r.Context()
		markdown := false
		switch format := r.URL.Query().Get("format"); format {
		case "", "document":
		case "markdown":
			markdown = true
		default:
			return nil, apperr.Invalid("format", "must be document or markdown, not %q", format)
		}
		rev, err := src(r)
		if err != nil {
			return nil, err
		}
		p, err := find(r, rev)
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, apperr.NotFoundf("Page not found")
		}
		pp, err := a.pagePresenter(ctx, rev, o)
		if err != nil {
			return nil, err
		}
		c, err := a.r.RevisionContent(ctx, rev)
		if err != nil {
			return nil, err
		}
		return pp.single(p, c, markdown)
	}
}

// importTarget names the content an import adds a revision to.
type importTarget func(r *http.Request) (model.ImportContentInput, error)

// spaceImport imports into the space's main content.
func (a *API) spaceImport(r *http.Request) (model.ImportContentInput, error) {
	id := chi.URLParam(r, "spaceId")
	return model.ImportContentInput{SpaceID: &id}, nil
}

// changeRequestImport imports into a change request.
func (a *API) changeRequestImport(r *http.Request) (model.ImportContentInput, error) {
	cr, err := a.changeRequestOf(r)
	if err != nil {
		return model.ImportContentInput{}, err
	}
	return model.ImportContentInput{ChangeRequestID: &cr.ID}, nil
}

type importJSON struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
}

// importContent imports content from a URL. It answers 201 with the new
// revision's /v1 address as its Location.
func (a *API) importContent(target importTarget) handlerFunc {
	return func(_ http.ResponseWriter, r *http.Request) (response, error) {
		ctx := r.Context()
		var body struct {
			URL    string            `json:"url" rest:"required"`
			Source enum.ImportSource `json:"source" rest:"required"`
		}
		if err := decodeBody(r, &body); err != nil {
			return response{}, err
		}
		in, err := target(r)
		if err != nil {
			return response{}, err
		}
		in.URL, in.Source = body.URL, body.Source
		p, err := a.r.Mutation().ImportContent(ctx, in)
		if err != nil {
			return response{}, err
		}
		urls, err := a.r.Revision().Urls(ctx, p.Revision)
		if err != nil {
			return response{}, err
		}
		return created(importJSON{
			Revision: p.Revision.ID, ImportedResources: p.ImportedResources, TotalResources: p.TotalResources,
		}, urls.Location), nil
	}
}

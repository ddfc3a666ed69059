package rest

import (
	"context"

	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/search"
)

// queryText is the required query parameter "query"; absent or empty, the
// resolver refuses it.
func (p params) queryText() string { return p.r.URL.Query().Get("query") }

// spaceSearch searches the current content of the path's space.
func (p params) spaceSearch(args page.Args) (*model.SearchPageResultConnection, error) {
	s, err := p.space()
	if err != nil {
		return nil, err
	}
	return p.a.r.Space().Search(p.ctx(), s, p.queryText(), args.First, args.After, nil, nil)
}

// organizationSearch searches the spaces of the path's organization.
func (p params) organizationSearch(args page.Args) (*model.SearchSpaceResultConnection, error) {
	return p.a.r.SearchOrganization(p.ctx(), p.path("organizationId"), p.queryText(), args)
}

// searchPageJSON is the official SearchPageResult.
type searchPageJSON struct {
	ID       string              `json:"id"`
	Title    string              `json:"title"`
	Path     string              `json:"path"`
	Sections []searchSectionJSON `json:"sections"`
	URLs     appURLs             `json:"urls"`
}

// searchSectionJSON is the official SearchSectionResult.
type searchSectionJSON struct {
	ID    string  `json:"id"`
	Title string  `json:"title"`
	Path  string  `json:"path"`
	Body  string  `json:"body"`
	URLs  appURLs `json:"urls"`
}

type appURLs struct {
	App string `json:"app"`
}

// searchSpaceJSON is the official SearchSpaceResult.
type searchSpaceJSON struct {
	ID    string           `json:"id"`
	Title string           `json:"title"`
	Pages []searchPageJSON `json:"pages"`
}

func (a *API) presentSearchPage(ctx context.Context, h *search.PageHit) (searchPageJSON, error) {
	res := a.r.SearchPageResult()
	app, err := res.AppURL(ctx, h)
	if err != nil {
		return searchPageJSON{}, err
	}
	sections, err := res.Sections(ctx, h)
	if err != nil {
		return searchPageJSON{}, err
	}
	j := searchPageJSON{ID: h.PageID, Title: h.Title, Path: h.Path, URLs: appURLs{App: app},
		Sections: make([]searchSectionJSON, len(sections))}
	for i, s := range sections {
		j.Sections[i] = searchSectionJSON{ID: s.ID, Title: s.Title, Path: s.Path, Body: s.Body, URLs: appURLs{App: s.AppURL}}
	}
	return j, nil
}

func (a *API) presentSearchSpace(ctx context.Context, h *search.SpaceHit) (searchSpaceJSON, error) {
	s, err := a.r.SearchSpaceResult().Space(ctx, h)
	if err != nil {
		return searchSpaceJSON{}, err
	}
	j := searchSpaceJSON{ID: s.ID, Title: s.Title, Pages: make([]searchPageJSON, len(h.Pages))}
	for i := range h.Pages {
		if j.Pages[i], err = a.presentSearchPage(ctx, &h.Pages[i]); err != nil {
			return searchSpaceJSON{}, err
		}
	}
	return j, nil
}

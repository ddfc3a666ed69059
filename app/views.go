package app

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
)

// start is the start page: the ways in for a visitor, the organizations of
// a signed-in person.
func (a *App) start(w http.ResponseWriter, r *http.Request) error {
	if !isSignedIn(r) {
		a.render(w, r, http.StatusOK, "start", view{Title: "Bindery", Heading: "Bindery"})
		return nil
	}
	ctx := r.Context()
	u, err := a.res.Query().Viewer(ctx)
	if err != nil {
		return err
	}
	args, err := window(r, "after")
	if err != nil {
		return err
	}
	orgs, err := a.res.User().Organizations(ctx, u, args.First, args.After, nil, nil)
	if err != nil {
		return err
	}
	l := list{Heading: "Your organizations", ID: "organizations", Empty: "You are not a member of any organization yet.",
		More: more(r, "after", orgs.PageInfo)}
	for _, o := range orgs.Nodes() {
		l.Items = append(l.Items, link{Title: o.Title, URL: "/o/" + o.ID})
	}
	name := u.DisplayName
	if name == "" {
		name = "Bindery"
	}
	a.render(w, r, http.StatusOK, "start", view{Title: "Bindery", Heading: "Welcome, " + name, Data: []list{l}})
	return nil
}

// listsView is a view of an object that is lists of what it holds.
type listsView struct {
	// Facts are short lines about the object, before its lists.
	Facts []fact
	Lists []list
}

// fact is a labelled value; URL makes the value a link.
type fact struct{ Label, Value, URL string }

// organization shows an organization's collections, spaces and sites.
func (a *App) organization(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	o, err := a.res.Query().Organization(ctx, chi.URLParam(r, "orgId"))
	if err != nil {
		return err
	}
	res := a.res.Organization()
	var out listsView
	args, err := window(r, "spaces")
	if err != nil {
		return err
	}
	spaces, err := res.Spaces(ctx, o, args.First, args.After, nil, nil, nil)
	if err != nil {
		return err
	}
	out.Lists = append(out.Lists, spaceList(r, "Spaces", "spaces", spaces))
	if args, err = window(r, "collections"); err != nil {
		return err
	}
	cols, err := res.Collections(ctx, o, args.First, args.After, nil, nil, nil)
	if err != nil {
		return err
	}
	out.Lists = append(out.Lists, collectionList(r, "Collections", "collections", cols))
	if args, err = window(r, "sites"); err != nil {
		return err
	}
	sites, err := res.Sites(ctx, o, args.First, args.After, nil, nil, nil, nil, nil, nil)
	if err != nil {
		return err
	}
	l := list{Heading: "Sites", ID: "sites", Empty: "No sites.", More: more(r, "sites", sites.PageInfo)}
	for _, s := range sites.Nodes() {
		l.Items = append(l.Items, link{Title: s.Title, URL: "/o/" + o.ID + "/sites/" + s.ID})
	}
	out.Lists = append(out.Lists, l)
	a.render(w, r, http.StatusOK, "organization", view{Heading: o.Title, Crumbs: []link{{Title: "Organizations", URL: "/"}},
		Data: out})
	return nil
}

// spaceList is a window of spaces, each a link to its view.
func spaceList(r *http.Request, heading, param string, c *model.SpaceConnection) list {
	l := list{Heading: heading, ID: param, Empty: "No spaces.", More: more(r, param, c.PageInfo)}
	for _, s := range c.Nodes() {
		l.Items = append(l.Items, spaceLink(s))
	}
	return l
}

func spaceLink(s *ent.Space) link { return link{Title: s.Title, URL: "/s/" + s.ID, Emoji: s.Emoji} }

// collectionList is a window of collections, each a link to its view.
func collectionList(r *http.Request, heading, param string, c *model.CollectionConnection) list {
	l := list{Heading: heading, ID: param, Empty: "No collections.", More: more(r, param, c.PageInfo)}
	for _, x := range c.Nodes() {
		l.Items = append(l.Items, link{Title: x.Title, URL: "/c/" + x.ID})
	}
	return l
}

// collection shows a collection's spaces and the collections in it.
func (a *App) collection(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c, err := a.res.Query().Collection(ctx, chi.URLParam(r, "collectionId"))
	if err != nil {
		return err
	}
	res := a.res.Collection()
	o, err := res.Organization(ctx, c)
	if err != nil {
		return err
	}
	var out listsView
	if c.Description != nil && *c.Description != "" {
		out.Facts = append(out.Facts, fact{Label: "Description", Value: *c.Description})
	}
	args, err := window(r, "spaces")
	if err != nil {
		return err
	}
	spaces, err := res.Spaces(ctx, c, args.First, args.After, nil, nil)
	if err != nil {
		return err
	}
	out.Lists = append(out.Lists, spaceList(r, "Spaces", "spaces", spaces))
	if args, err = window(r, "collections"); err != nil {
		return err
	}
	cols, err := res.Collections(ctx, c, args.First, args.After, nil, nil)
	if err != nil {
		return err
	}
	if len(cols.Nodes()) > 0 {
		out.Lists = append(out.Lists, collectionList(r, "Collections", "collections", cols))
	}
	crumbs := []link{{Title: o.Title, URL: "/o/" + o.ID}}
	if p, err := res.Parent(ctx, c); err != nil {
		return err
	} else if p != nil {
		crumbs = append(crumbs, link{Title: p.Title, URL: "/c/" + p.ID})
	}
	a.render(w, r, http.StatusOK, "collection", view{Heading: c.Title, Crumbs: crumbs, Data: out})
	return nil
}

// site shows a site: its published address and its sections with their
// spaces.
func (a *App) site(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	o, err := a.res.Query().Organization(ctx, chi.URLParam(r, "orgId"))
	if err != nil {
		return err
	}
	s, err := a.res.Organization().Site(ctx, o, chi.URLParam(r, "siteId"))
	if err != nil {
		return err
	}
	res := a.res.Site()
	urls, err := res.Urls(ctx, s)
	if err != nil {
		return err
	}
	var out listsView
	if urls.Published != nil {
		out.Facts = append(out.Facts, fact{Label: "Published at", Value: *urls.Published, URL: *urls.Published})
	} else {
		out.Facts = append(out.Facts, fact{Label: "Published", Value: "Not published"})
	}
	out.Facts = append(out.Facts, fact{Label: "Visibility", Value: string(s.Visibility)})
	args, err := window(r, "sections")
	if err != nil {
		return err
	}
	sections, err := res.Sections(ctx, s, args.First, args.After, nil, nil)
	if err != nil {
		return err
	}
	sec := a.res.SiteSection()
	for _, x := range sections.Nodes() {
		l := list{Heading: x.Title, ID: "section-" + x.ID, Empty: "No spaces."}
		sss, err := sec.SiteSpaces(ctx, x)
		if err != nil {
			return err
		}
		if l.Items, err = a.siteSpaceLinks(r, sss); err != nil {
			return err
		}
		out.Lists = append(out.Lists, l)
	}
	if len(sections.Nodes()) == 0 {
		// A site of one section or none lists its spaces alone.
		args.After = nil
		sss, err := res.SiteSpaces(ctx, s, args.First, nil, nil, nil, nil)
		if err != nil {
			return err
		}
		l := list{Heading: "Spaces", ID: "spaces", Empty: "No spaces."}
		if l.Items, err = a.siteSpaceLinks(r, sss.Nodes()); err != nil {
			return err
		}
		out.Lists = append(out.Lists, l)
	} else if m := more(r, "sections", sections.PageInfo); m != "" {
		out.Lists[len(out.Lists)-1].More = m
	}
	a.render(w, r, http.StatusOK, "site", view{Heading: s.Title, Crumbs: []link{{Title: o.Title, URL: "/o/" + o.ID}}, Data: out})
	return nil
}

// siteSpaceLinks links the spaces of site-spaces, under the site-spaces'
// titles.
func (a *App) siteSpaceLinks(r *http.Request, sss []*ent.SiteSpace) ([]link, error) {
	ctx := r.Context()
	res := a.res.SiteSpace()
	var out []link
	for _, ss := range sss {
		title, err := res.Title(ctx, ss)
		if err != nil {
			return nil, err
		}
		sp, err := res.Space(ctx, ss)
		if err != nil {
			return nil, err
		}
		l := link{Title: title}
		if sp != nil {
			l.URL, l.Emoji = "/s/"+sp.ID, sp.Emoji
		}
		out = append(out, l)
	}
	return out, nil
}

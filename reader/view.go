package reader

import (
	"html/template"
	"time"
)

// view is everything a reader page shows; the templates (templates/*.html)
// read nothing else. Every string is plain text, escaped by html/template,
// but for the fields of type template.HTML, which come from package render.
type view struct {
	// Lang is the <html lang> of the page, "en" unless the site-space says
	// otherwise.
	Lang string
	// Title is the document's <title>: "Page · Site", or the site's title
	// alone on its home page.
	Title       string
	Description string
	// Canonical is the page's absolute URL without a query.
	Canonical string
	// NoIndex asks search engines not to index the page (a meta tag; the
	// response also carries X-Robots-Tag).
	NoIndex bool
	// Site is the site and where its fixed addresses are.
	Site siteView
	// Nav is the navigation around the content.
	Nav nav
	// Exactly one of Page, Search and NotFound is set.
	Page     *pageView
	Search   *searchView
	NotFound bool
	// Stylesheet and Script are the URLs of the reader's assets, named by
	// the hash of their content.
	Stylesheet string
	Script     string
	// Icon is the URL of the pages' icon.
	Icon string
}

// siteView is the site a page belongs to.
type siteView struct {
	Title string
	// Home is the URL of the site's root, ending in "/".
	Home string
	// SearchURL is where the search form goes (GET, parameter "q").
	SearchURL string
}

// link is a titled URL; Current marks the one the reader is at.
type link struct {
	Title   string
	URL     string
	Current bool
}

// nav is the navigation of the site as the visitor may see it.
type nav struct {
	// Tabs are the site's sections along the top bar, in order; a group of
	// sections is one tab with Group set. Empty when the site has one
	// section or none.
	Tabs []tab
	// Variants are the site-spaces of the current section (versions,
	// languages), for a switcher; empty when there is only one.
	Variants []link
	// Tree is the sidebar: the current site-space's pages.
	Tree []treePage
}

// tab is a section, or a group of sections (Group set, URL empty).
type tab struct {
	link
	Group []link
}

// treePage is a page in the sidebar. A group page has no URL of its own
// (it is a heading over its pages); Open marks the pages on the way to the
// current one, which a sidebar shows unfolded; Folded, a page with pages
// under it that the sidebar leaves to the page itself.
type treePage struct {
	link
	Emoji    string
	IsGroup  bool
	Open     bool
	Folded   bool
	Children []treePage
}

// pageView is a document page.
type pageView struct {
	Title       string
	Description string
	Emoji       string
	// Breadcrumbs lead from the site-space's root to the page's parent.
	Breadcrumbs []link
	// Body is the page's content, rendered by package render.
	Body template.HTML
	// Outline is the page's headings, for an "On this page" list; empty
	// when the page's layout hides it.
	Outline []heading
	// Prev and Next are the pages before and after in reading order.
	Prev, Next *link
	// Updated is when the page last changed.
	Updated time.Time
	// MarkdownURL is the page's markdown.
	MarkdownURL string
	// summary is the text of the page's first paragraph, the description
	// of a page that has none.
	summary string
}

// heading is an entry of a page's outline; Level 1 is the page's top level
// of headings.
type heading struct {
	ID    string
	Text  string
	Level int
}

// searchView is a search and its results.
type searchView struct {
	Query   string
	Results []searchResult
}

// searchResult is a page or a section of a page that matches.
type searchResult struct {
	Title string
	URL   string
	// Where names where the page lives: its section, site-space and
	// parent pages, joined by " › ".
	Where string
	// Snippet is text around the match, with matched words in <mark>.
	Snippet template.HTML
}

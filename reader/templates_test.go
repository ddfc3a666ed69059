package reader

import (
	"bytes"
	"flag"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

var writeDir = flag.String("write", "", "write the sample pages and their assets to this directory, to open them in a browser")

// contentCSS stands in for render.CSS().
func contentCSS(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/content.css")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sampleBody(t testing.TB) template.HTML {
	t.Helper()
	b, err := os.ReadFile("testdata/body.html")
	if err != nil {
		t.Fatal(err)
	}
	return template.HTML(b)
}

func sampleSite() siteView {
	return siteView{Title: "Acme Docs", Home: "/", SearchURL: "/search"}
}

// sampleNav has tabs with a group, variants, and a tree three levels deep
// with group pages.
func sampleNav() nav {
	return nav{
		Tabs: []tab{
			{link: link{Title: "Guides", URL: "/guides", Current: true}},
			{link: link{Title: "API reference", URL: "/api"}},
			{link: link{Title: "Integrations"}, Group: []link{
				{Title: "GitHub", URL: "/integrations/github"},
				{Title: "Slack", URL: "/integrations/slack"},
				{Title: "Jira", URL: "/integrations/jira"},
			}},
			{link: link{Title: "Changelog", URL: "/changelog"}},
		},
		Variants: []link{
			{Title: "Version 2", URL: "/guides", Current: true},
			{Title: "Version 1", URL: "/guides/v1"},
		},
		Tree: []treePage{
			{link: link{Title: "Introduction", URL: "/guides"}, Emoji: "👋"},
			{link: link{Title: "Getting started"}, IsGroup: true, Open: true, Children: []treePage{
				{link: link{Title: "Installation", URL: "/guides/getting-started/installation"}},
				{link: link{Title: "Quickstart", URL: "/guides/getting-started/quickstart", Current: true}, Emoji: "🚀", Open: true, Children: []treePage{
					{link: link{Title: "Import Markdown", URL: "/guides/getting-started/quickstart/import"}},
					{link: link{Title: "Custom domains", URL: "/guides/getting-started/quickstart/domains"}, Folded: true},
				}},
				{link: link{Title: "Concepts", URL: "/guides/getting-started/concepts"}, Folded: true},
			}},
			{link: link{Title: "Writing"}, IsGroup: true, Children: []treePage{
				{link: link{Title: "The editor", URL: "/guides/writing/editor"}},
				{link: link{Title: "Blocks", URL: "/guides/writing/blocks"}, Emoji: "🧱"},
				{link: link{Title: "Change requests", URL: "/guides/writing/change-requests"}},
			}},
		},
	}
}

// samplePage is a page with all there is around it: sampleNav,
// breadcrumbs, an outline and neighbours.
func samplePage(t testing.TB) *view {
	return &view{
		Lang:        "en",
		Title:       "Quickstart · Acme Docs",
		Description: "From an empty space to a published site in ten minutes.",
		Canonical:   "https://docs.acme.example/guides/getting-started/quickstart",
		Site:        sampleSite(),
		Nav:         sampleNav(),
		Page: &pageView{
			Title:       "Quickstart",
			Description: "From an empty space to a published site in ten minutes.",
			Emoji:       "🚀",
			Breadcrumbs: []link{{Title: "Guides", URL: "/guides"}, {Title: "Getting started"}},
			Body:        sampleBody(t),
			Outline: []heading{
				{ID: "before-you-start", Text: "Before you start", Level: 1},
				{ID: "create-a-space", Text: "Create a space", Level: 1},
				{ID: "import-markdown", Text: "Import Markdown", Level: 2},
				{ID: "publish", Text: "Publish the site", Level: 1},
				{ID: "custom-domain", Text: "Use your own domain", Level: 2},
				{ID: "troubleshooting", Text: "Troubleshooting", Level: 3},
			},
			Prev:        &link{Title: "Installation", URL: "/guides/getting-started/installation"},
			Next:        &link{Title: "Import Markdown", URL: "/guides/getting-started/quickstart/import"},
			Updated:     time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC),
			MarkdownURL: "/guides/getting-started/quickstart.md",
		},
		Stylesheet: "reader.css",
	}
}

// minimalPage is a site of one section and one page.
func minimalPage() *view {
	return &view{
		Lang:      "en",
		Title:     "Acme Docs",
		Canonical: "https://docs.acme.example/",
		Site:      sampleSite(),
		Page:      &pageView{Title: "Welcome", Body: "<p>Nothing here yet.</p>"},
	}
}

func sampleSearch() *view {
	v := &view{
		Lang:      "en",
		Title:     "Search · Acme Docs",
		Canonical: "https://docs.acme.example/search",
		NoIndex:   true,
		Site:      sampleSite(),
		Nav:       sampleNav(),
		Search: &searchView{Query: "custom domain", Results: []searchResult{
			{Title: "Use your own domain", URL: "/guides/getting-started/quickstart#custom-domain",
				Where:   "Guides › Version 2 › Getting started › Quickstart",
				Snippet: "Point a CNAME record at sites.bindery.example, then enter the <mark>domain</mark> in the site's settings."},
			{Title: "DNS records", URL: "/guides/getting-started/quickstart/domains/dns",
				Where:   "Guides › Version 2 › Getting started › Quickstart › Custom domains",
				Snippet: "Each <mark>custom</mark> <mark>domain</mark> needs one CNAME record; apex domains need an ALIAS."},
			{Title: "Sites", URL: "/guides/getting-started/concepts/sites",
				Where:   "Guides › Version 2 › Getting started › Concepts",
				Snippet: "A site serves one or more spaces under one <mark>domain</mark>."},
		}},
		Stylesheet: "reader.css",
	}
	return v
}

func emptySearch() *view {
	return &view{
		Lang:      "en",
		Title:     "Search · Acme Docs",
		Canonical: "https://docs.acme.example/search",
		NoIndex:   true,
		Site:      sampleSite(),
		Search:    &searchView{Query: "kubernetes"},
	}
}

func notFound() *view {
	return &view{
		Lang:      "en",
		Title:     "Page not found · Acme Docs",
		Canonical: "https://docs.acme.example/nope",
		NoIndex:   true,
		Site:      sampleSite(),
		NotFound:  true,
	}
}

func execute(t *testing.T, v *view) string {
	t.Helper()
	tmpl, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tmpl.execute(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// all returns the elements under n that match.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && match(d) {
			out = append(out, d)
		}
	}
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

func parse(t *testing.T, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkDocument asserts what every reader page has.
func checkDocument(t *testing.T, v *view, doc *html.Node) {
	t.Helper()
	if h := all(doc, tag("html")); len(h) != 1 {
		t.Fatalf("%d html elements", len(h))
	} else if lang, _ := attr(h[0], "lang"); lang != v.Lang {
		t.Errorf("lang = %q, want %q", lang, v.Lang)
	}
	if h1 := all(doc, tag("h1")); len(h1) != 1 {
		t.Errorf("%d h1 elements, want 1", len(h1))
	}
	mains := all(doc, tag("main"))
	if len(mains) != 1 {
		t.Fatalf("%d main elements, want 1", len(mains))
	}
	if id, _ := attr(mains[0], "id"); id != "main" {
		t.Errorf("main has id %q", id)
	}
	// The skip link is the first thing to focus.
	links := all(doc, tag("a"))
	if len(links) == 0 {
		t.Fatal("no links")
	}
	if href, _ := attr(links[0], "href"); href != "#main" {
		t.Errorf("first link goes to %q, want the skip link to #main", href)
	}
	canon := all(doc, func(n *html.Node) bool { rel, _ := attr(n, "rel"); return n.Data == "link" && rel == "canonical" })
	if len(canon) != 1 {
		t.Errorf("%d canonical links", len(canon))
	} else if href, _ := attr(canon[0], "href"); href != v.Canonical {
		t.Errorf("canonical = %q, want %q", href, v.Canonical)
	}
	robots := all(doc, func(n *html.Node) bool { name, _ := attr(n, "name"); return name == "robots" })
	if (len(robots) == 1) != v.NoIndex {
		t.Errorf("NoIndex %v but %d robots meta tags", v.NoIndex, len(robots))
	}
	// The content security policy allows no inline script or style.
	for _, n := range all(doc, func(*html.Node) bool { return true }) {
		if _, ok := attr(n, "style"); ok {
			t.Errorf("<%s> has a style attribute", n.Data)
		}
		if n.Data == "style" {
			t.Error("a <style> element")
		}
		if n.Data == "script" {
			if src, _ := attr(n, "src"); src == "" || n.FirstChild != nil {
				t.Error("an inline script")
			}
		}
	}
	ids := map[string]bool{}
	for _, n := range all(doc, func(n *html.Node) bool { _, ok := attr(n, "id"); return ok }) {
		id, _ := attr(n, "id")
		if ids[id] {
			t.Errorf("id %q twice", id)
		}
		ids[id] = true
	}
	for _, l := range all(doc, tag("label")) {
		if f, ok := attr(l, "for"); ok && !ids[f] {
			t.Errorf("label for %q, which is not there", f)
		}
	}
}

func TestLayouts(t *testing.T) {
	t.Parallel()
	withScript := samplePage(t)
	withScript.Script = "reader.js"
	for _, tc := range []struct {
		name  string
		view  *view
		check func(t *testing.T, doc *html.Node)
	}{
		{"page", withScript, checkSamplePage},
		{"minimal page", minimalPage(), func(t *testing.T, doc *html.Node) {
			for _, n := range all(doc, tag("nav")) {
				if label, _ := attr(n, "aria-label"); label == "Pages" || label == "Sections" || label == "Breadcrumb" {
					t.Errorf("a %s navigation with nothing to show", label)
				}
			}
			if len(all(doc, tag("aside"))) != 0 || len(all(doc, tag("input"))) != 1 {
				t.Error("an outline or a menu button on a page without them")
			}
			if len(all(doc, tag("script"))) != 0 {
				t.Error("a script element though there is no script")
			}
			if h1 := text(all(doc, tag("h1"))[0]); h1 != "Welcome" {
				t.Errorf("h1 = %q", h1)
			}
		}},
		{"search", sampleSearch(), func(t *testing.T, doc *html.Node) {
			results := all(doc, func(n *html.Node) bool { c, _ := attr(n, "class"); return c == "results" })
			if len(results) != 1 || len(all(results[0], tag("li"))) != 3 {
				t.Fatal("want a list of 3 results")
			}
			if len(all(results[0], tag("mark"))) != 4 {
				t.Error("the snippets' <mark> did not come out as markup")
			}
			if !strings.Contains(text(doc), "3 results for “custom domain”") {
				t.Error("no count")
			}
			q := all(doc, func(n *html.Node) bool { id, _ := attr(n, "id"); return id == "search-query" })
			if v, _ := attr(q[0], "value"); len(q) != 1 || v != "custom domain" {
				t.Error("the search form does not hold the query")
			}
		}},
		{"search without results", emptySearch(), func(t *testing.T, doc *html.Node) {
			if !strings.Contains(text(doc), "No results for “kubernetes”") {
				t.Error(`no "No results"`)
			}
		}},
		{"not found", notFound(), func(t *testing.T, doc *html.Node) {
			main := all(doc, tag("main"))[0]
			if !strings.Contains(text(main), "Page not found") || len(all(main, tag("form"))) != 1 {
				t.Error("no message or no search form")
			}
			home := all(main, func(n *html.Node) bool { h, _ := attr(n, "href"); return n.Data == "a" && h == "/" })
			if len(home) != 1 {
				t.Error("no link home")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parse(t, execute(t, tc.view))
			checkDocument(t, tc.view, doc)
			tc.check(t, doc)
		})
	}
}

func checkSamplePage(t *testing.T, doc *html.Node) {
	current := all(doc, func(n *html.Node) bool { c, _ := attr(n, "aria-current"); return c == "page" })
	if len(current) != 1 || text(current[0]) != "🚀 Quickstart" {
		t.Errorf("the current page in the tree: %d marked", len(current))
	}
	open := map[string]bool{}
	for _, d := range all(doc, tag("details")) {
		_, isOpen := attr(d, "open")
		if summary := strings.TrimSpace(text(d.FirstChild)); strings.HasPrefix(summary, "Pages under") {
			open[summary] = isOpen
		}
	}
	if len(open) != 1 || !open["Pages under Quickstart"] {
		t.Errorf("branches: %v; want Quickstart's, open", open)
	}
	folded := all(doc, func(n *html.Node) bool { c, _ := attr(n, "class"); return n.Data == "li" && c == "folded" })
	if len(folded) != 2 || text(folded[0]) != "Custom domains" || text(folded[1]) != "Concepts" {
		t.Errorf("folded pages: %d; want Custom domains and Concepts", len(folded))
	}
	if len(all(doc, tag("h2"))) < 3 { // the groups and "On this page"
		t.Error("group pages are not headings")
	}
	script := all(doc, tag("script"))
	if _, deferred := attr(script[0], "defer"); len(script) != 1 || !deferred {
		t.Error("the script is not deferred")
	}
	times := all(doc, tag("time"))
	if dt, _ := attr(times[0], "datetime"); len(times) != 1 || dt != "2025-03-14T09:30:00Z" {
		t.Error("no Last updated time")
	}
	for _, label := range []string{"Sections", "Pages", "Breadcrumb", "Previous and next pages"} {
		if len(all(doc, func(n *html.Node) bool { l, _ := attr(n, "aria-label"); return n.Data == "nav" && l == label })) != 1 {
			t.Errorf("no %s navigation", label)
		}
	}
	aside := all(doc, tag("aside"))
	if len(aside) != 1 || len(all(aside[0], tag("a"))) != 6 {
		t.Error("want an outline of 6 headings")
	}
	tabs := all(doc, func(n *html.Node) bool { c, _ := attr(n, "aria-current"); return n.Data == "a" && c == "true" })
	if len(tabs) != 2 { // the section and the variant
		t.Errorf("%d current tabs and variants", len(tabs))
	}
}

// TestEscaping puts markup and script URLs in every field a site's authors
// control: they come out as text, and the URLs as html/template's
// "#ZgotmplZ".
func TestEscaping(t *testing.T) {
	t.Parallel()
	const evil = `"><script>alert(1)</script>`
	const js = "javascript:alert(1)"
	l := link{Title: evil, URL: js, Current: true}
	v := &view{
		Lang:        `en"><script>alert(1)</script>`,
		Title:       evil,
		Description: evil,
		Canonical:   js,
		Site:        siteView{Title: evil, Home: js, SearchURL: js},
		Nav: nav{
			Tabs:     []tab{{link: l}, {link: link{Title: evil}, Group: []link{l}}},
			Variants: []link{l, l},
			Tree:     []treePage{{link: link{Title: evil}, Emoji: evil, IsGroup: true, Children: []treePage{{link: l, Emoji: evil, Children: []treePage{{link: l}}}}}},
		},
		Page: &pageView{
			Title: evil, Description: evil, Emoji: evil,
			Breadcrumbs: []link{l},
			Body:        "<p>body</p>",
			Outline:     []heading{{ID: `x"><script>alert(1)</script>`, Text: evil, Level: 1}},
			Prev:        &l, Next: &l,
			MarkdownURL: js,
		},
		Stylesheet: js,
		Script:     js,
	}
	search := *v
	search.Page = nil
	search.Search = &searchView{Query: evil, Results: []searchResult{{Title: evil, URL: js, Where: evil, Snippet: "<mark>x</mark>"}}}
	empty := search
	empty.Search = &searchView{Query: evil}
	missing := *v
	missing.Page, missing.NotFound = nil, true

	for name, v := range map[string]*view{"page": v, "search": &search, "no results": &empty, "not found": &missing} {
		t.Run(name, func(t *testing.T) {
			out := execute(t, v)
			if strings.Contains(out, "<script>alert") {
				t.Error("markup came out as markup")
			}
			if strings.Contains(strings.ToLower(out), "javascript:") {
				t.Error("a javascript: URL came out")
			}
			doc := parse(t, out)
			for _, n := range all(doc, func(*html.Node) bool { return true }) {
				for _, a := range n.Attr {
					if a.Key == "href" || a.Key == "src" || a.Key == "action" {
						if !strings.HasPrefix(a.Val, "#") { // "#ZgotmplZ", or a link in the page
							t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
						}
					}
					if strings.HasPrefix(a.Key, "on") {
						t.Errorf("<%s> has an event handler %s", n.Data, a.Key)
					}
				}
			}
			if n := len(all(doc, tag("script"))); n != 1 {
				t.Errorf("%d script elements, want only the page's own", n)
			}
			// The hostile text is there, as text.
			if name == "page" && text(all(doc, tag("h1"))[0]) != evil+" "+evil {
				t.Errorf("h1 %q, want the emoji and the title as text", text(all(doc, tag("h1"))[0]))
			}
		})
	}
	if n := strings.Count(execute(t, v), `href="#ZgotmplZ"`); n < 10 {
		t.Errorf("%d neutralised links, want one for each link field", n)
	}
}

func TestExecuteWantsOneLayout(t *testing.T) {
	t.Parallel()
	tmpl, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	both := minimalPage()
	both.NotFound = true
	for _, v := range []*view{{Lang: "en"}, both} {
		var b bytes.Buffer
		if err := tmpl.execute(&b, v); err == nil || b.Len() != 0 {
			t.Errorf("no error, or output, for a view of Page %v, Search %v, NotFound %v", v.Page != nil, v.Search != nil, v.NotFound)
		}
	}
}

// TestWeight keeps a typical page and the whole stylesheet, with a 12 KB
// stand-in for the content's rules, under 60 KB: one round trip's worth.
func TestWeight(t *testing.T) {
	t.Parallel()
	const contentSize = 12 * 1024
	a, err := newAssets(strings.Repeat("/* content rules */\n", contentSize/20+1)[:contentSize])
	if err != nil {
		t.Fatal(err)
	}
	page := execute(t, samplePage(t))
	css := len(a.files[a.stylesheet()].body)
	js := len(a.files[a.script()].body)
	t.Logf("HTML %d bytes, stylesheet %d bytes (reader.css %d), script %d bytes", len(page), css, css-contentSize-1, js)
	if total := len(page) + css; total > 60*1024 {
		t.Errorf("HTML and CSS weigh %d bytes, over 60 KB", total)
	}
	if js > 10*1024 {
		t.Errorf("the script weighs %d bytes, over 10 KB", js)
	}
}

// TestWriteSamples writes the sample pages, with the stand-in content CSS,
// to the directory of -write: go test ./reader/ -run WriteSamples -write DIR.
func TestWriteSamples(t *testing.T) {
	if *writeDir == "" {
		t.Skip("no -write DIR")
	}
	a, err := newAssets(contentCSS(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(*writeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{a.stylesheet(), a.script()} {
		if err := os.WriteFile(filepath.Join(*writeDir, name), a.files[name].body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for file, v := range map[string]*view{
		"page.html":         samplePage(t),
		"minimal.html":      minimalPage(),
		"search.html":       sampleSearch(),
		"search-empty.html": emptySearch(),
		"not-found.html":    notFound(),
	} {
		v.Stylesheet, v.Script = a.stylesheet(), a.script()
		if err := os.WriteFile(filepath.Join(*writeDir, file), []byte(execute(t, v)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

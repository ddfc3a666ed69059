package reader

import (
	"bytes"
	"embed"
	"errors"
	"html/template"
	"io"
	"strings"
	"time"
)

//go:embed templates/*.html
var templateFiles embed.FS

// templates are the reader's three layouts. Each is the shared layout
// (layout.html, nav.html) with its own "main" and "aside" blocks.
type templates struct {
	page, search, notFound *template.Template
}

// searchForm is what the "search-form" template needs. A page may hold two
// forms, the header's and its own, so each has its own input ID, and a
// Label that tells the two search landmarks apart.
type searchForm struct {
	ID, Label, Action, Query string
}

var templateFuncs = template.FuncMap{
	"searchForm": func(id, label, action, query string) searchForm {
		return searchForm{ID: id, Label: label, Action: action, Query: query}
	},
	// current is the title of the link the reader is at, for a switcher's
	// label.
	"current": func(links []link) string {
		for _, l := range links {
			if l.Current {
				return l.Title
			}
		}
		return ""
	},
	"datetime": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"date":     func(t time.Time) string { return t.UTC().Format("January 2, 2006") },
	// httpURL keeps an http(s) URL and drops any other: a <meta content>
	// is plain text to html/template, which would not neutralise a
	// javascript: URL there as it does in href.
	"httpURL": func(s string) string {
		l := strings.ToLower(s)
		if strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
			return s
		}
		return ""
	},
}

// parseTemplates parses the embedded templates; they are fixed at build
// time, so an error is a broken build, which the package's tests catch.
func parseTemplates() (*templates, error) {
	base, err := template.New("").Funcs(templateFuncs).ParseFS(templateFiles, "templates/layout.html", "templates/nav.html")
	if err != nil {
		return nil, err
	}
	layout := func(file string) (*template.Template, error) {
		t, err := base.Clone()
		if err != nil {
			return nil, err
		}
		return t.ParseFS(templateFiles, "templates/"+file)
	}
	var t templates
	if t.page, err = layout("page.html"); err != nil {
		return nil, err
	}
	if t.search, err = layout("search.html"); err != nil {
		return nil, err
	}
	if t.notFound, err = layout("notfound.html"); err != nil {
		return nil, err
	}
	return &t, nil
}

// execute writes the page, search or not-found layout, whichever v holds.
// The page is rendered into a buffer first, so that a failing template
// leaves w untouched and the caller can still answer with an error.
func (t *templates) execute(w io.Writer, v *view) error {
	var tmpl *template.Template
	n := 0
	if v.Page != nil {
		tmpl, n = t.page, n+1
	}
	if v.Search != nil {
		tmpl, n = t.search, n+1
	}
	if v.NotFound {
		tmpl, n = t.notFound, n+1
	}
	if n != 1 {
		return errors.New("reader: a view needs exactly one of Page, Search and NotFound")
	}
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, "layout", v); err != nil {
		return err
	}
	_, err := buf.WriteTo(w)
	return err
}

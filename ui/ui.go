// Package ui holds what the server's own HTML pages share, the sign-in
// pages' and the app's views': the document around a page (layout.html),
// its rendering, and the headers of a page meant for one person. The pages
// look like the published sites': they use the reader's stylesheet.
package ui

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

//go:embed layout.html
var layoutFile embed.FS

// Parse returns the layout with the templates of files in fsys, which
// define what the layout leaves to a page set ("bar", "body") and the
// page's own parts.
func Parse(funcs template.FuncMap, fsys fs.FS, files ...string) (*template.Template, error) {
	t, err := template.New("").Funcs(funcs).ParseFS(layoutFile, "layout.html")
	if err != nil {
		return nil, err
	}
	return t.ParseFS(fsys, files...)
}

// Render writes t's layout with data v as the answer, with status; a HEAD
// request gets the headers alone. Nothing is written when the template
// fails: the caller answers the error.
func Render(w http.ResponseWriter, r *http.Request, status int, t *template.Template, v any) error {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", v); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b.Bytes())
	}
	return nil
}

// Page routes GET and HEAD of pattern to h, a page that Render answers
// (HEAD gets the headers alone). Only for pages: a GET that starts
// something, such as a sign-in flow, is no page.
func Page(m chi.Router, pattern string, h http.HandlerFunc) {
	m.Get(pattern, h)
	m.Head(pattern, h)
}

// Headers returns middleware that sets the headers of pages meant for one
// person: nothing is cached or framed, no address (which may hold a
// secret) goes out in a Referer, and the pages run no script. imgSrc are
// the sources images may come from besides the server itself.
func Headers(imgSrc ...string) func(http.Handler) http.Handler {
	csp := "default-src 'none'; style-src 'self'; img-src " + strings.Join(append([]string{"'self'", "data:"}, imgSrc...), " ") +
		"; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hd := w.Header()
			hd.Set("Cache-Control", "no-store")
			hd.Set("Referrer-Policy", "no-referrer")
			hd.Set("X-Frame-Options", "DENY")
			hd.Set("Content-Security-Policy", csp)
			next.ServeHTTP(w, r)
		})
	}
}

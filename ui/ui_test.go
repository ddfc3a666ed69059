package ui

import (
	htmltemplate "html/template"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var pageFiles = fstest.MapFS{
	"frame.html": {Data: []byte(`{{define "bar"}}<nav>{{.Who}}</nav>{{end}}{{define "body"}}<main id="main">{{block "main" .}}{{end}}</main>{{end}}`)},
	"page.html":  {Data: []byte(`{{define "main"}}<p>{{shout .Who}}</p>{{end}}`)},
	"bad.html":   {Data: []byte(`{{define "main"}}{{.Missing}}{{end}}`)},
}

type data struct{ Title, Stylesheet, Icon, Who string }

func parse(t *testing.T, page string) *htmltemplate.Template {
	t.Helper()
	tpl, err := Parse(map[string]any{"shout": func(s string) string { return s + "!" }}, pageFiles, "frame.html", page)
	require.NoError(t, err)
	return tpl
}

// The layout holds the page set's bar and body and the page's main, with
// what it is given escaped.
func TestRender(t *testing.T) {
	tpl := parse(t, "page.html")
	w := httptest.NewRecorder()
	require.NoError(t, Render(w, httptest.NewRequest(http.MethodGet, "/", nil), http.StatusTeapot, tpl,
		data{Title: "Start", Stylesheet: "/s.css", Icon: "/i.svg", Who: "<b>"}))
	assert.Equal(t, http.StatusTeapot, w.Code)
	assert.Equal(t, "text/html; charset=utf-8", w.Header().Get("Content-Type"))
	body := w.Body.String()
	assert.Contains(t, body, "<title>Start · Bindery</title>")
	assert.Contains(t, body, `<link rel="stylesheet" href="/s.css">`)
	assert.Contains(t, body, `<a class="site-title" href="/">Bindery</a><nav>&lt;b&gt;</nav>`)
	assert.Contains(t, body, `<main id="main"><p>&lt;b&gt;!</p></main>`)

	w = httptest.NewRecorder()
	require.NoError(t, Render(w, httptest.NewRequest(http.MethodHead, "/", nil), http.StatusOK, tpl, data{Title: "Bindery"}))
	assert.Empty(t, w.Body.String(), "HEAD has no body")
}

// A template that fails writes nothing, so that the caller can answer.
func TestRenderFailureWritesNothing(t *testing.T) {
	w := httptest.NewRecorder()
	err := Render(w, httptest.NewRequest(http.MethodGet, "/", nil), http.StatusOK, parse(t, "bad.html"), data{})
	require.Error(t, err)
	assert.Empty(t, w.Header())
	assert.Empty(t, w.Body.String())
}

func TestHeaders(t *testing.T) {
	for _, c := range []struct {
		img  []string
		want string
	}{
		{nil, "img-src 'self' data:;"},
		{[]string{"https:"}, "img-src 'self' data: https:;"},
	} {
		w := httptest.NewRecorder()
		Headers(c.img...)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
		assert.Contains(t, w.Header().Get("Content-Security-Policy"), c.want)
		assert.Contains(t, w.Header().Get("Content-Security-Policy"), "default-src 'none';")
		assert.NotContains(t, w.Header().Get("Content-Security-Policy"), "script-src")
		assert.Equal(t, "no-store", w.Header().Get("Cache-Control"))
		assert.Equal(t, "no-referrer", w.Header().Get("Referrer-Policy"))
		assert.Equal(t, "DENY", w.Header().Get("X-Frame-Options"))
	}
}

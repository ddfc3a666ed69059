package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSitemapPaths(t *testing.T) {
	sitemap := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://127.0.0.1:4000/sites/site_1/</loc><lastmod>2026-11-28</lastmod></url>
  <url><loc>https://docs.example.com/sites/site_1/part-1</loc><lastmod>2026-11-28</lastmod></url>
  <url><loc> http://127.0.0.1:4000/sites/site_1/part-1/chapter-1-1 </loc></url>
  <url><loc>http://127.0.0.1:4000/sites/site_1/caf%C3%A9</loc></url>
</urlset>`)
	paths, err := sitemapPaths(sitemap)
	require.NoError(t, err)
	assert.Equal(t, []string{"/sites/site_1/", "/sites/site_1/part-1", "/sites/site_1/part-1/chapter-1-1", "/sites/site_1/caf%C3%A9"}, paths,
		"the paths, whatever the host, so that any server is sent the same")

	for name, c := range map[string]struct{ sitemap, want string }{
		"not XML":       {`{"urls":[]}`, "reading the sitemap"},
		"no page":       {`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`, "lists no page"},
		"a relative":    {`<urlset><url><loc>/sites/site_1/</loc></url></urlset>`, "not an absolute URL"},
		"another index": {`<sitemapindex><sitemap><loc>http://x/a.xml</loc></sitemap></sitemapindex>`, "reading the sitemap"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := sitemapPaths([]byte(c.sitemap))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestSiteTitles(t *testing.T) {
	pages := []treePage{{Title: "Introduction", Path: "introduction"}, {Title: "Part 1", Path: "part-1"},
		{Title: "Chapter 1.1", Path: "part-1/chapter-1-1"}}
	got, err := siteTitles("site_1", []string{"/sites/site_1/", "/sites/site_1/part-1", "/sites/site_1/part-1/chapter-1-1"}, pages)
	require.NoError(t, err)
	assert.Equal(t, []sitePage{
		{Path: "/sites/site_1/", Title: siteTitle},
		{Path: "/sites/site_1/part-1", Title: "Part 1 · " + siteTitle},
		{Path: "/sites/site_1/part-1/chapter-1-1", Title: "Chapter 1.1 · " + siteTitle},
	}, got, "the root shows the first page under the site's title")

	for name, c := range map[string]struct {
		paths []string
		want  string
	}{
		"a page missing":   {[]string{"/sites/site_1/", "/sites/site_1/part-1"}, "lists 2 pages, the space has 3"},
		"no root":          {[]string{"/sites/site_1/introduction", "/sites/site_1/part-1", "/sites/site_1/part-1/chapter-1-1"}, "does not list the site's root"},
		"an unknown page":  {[]string{"/sites/site_1/", "/sites/site_1/part-1", "/sites/site_1/part-2"}, "no page of the space"},
		"a page twice":     {[]string{"/sites/site_1/", "/sites/site_1/part-1", "/sites/site_1/part-1"}, "twice"},
		"another site":     {[]string{"/sites/site_2/", "/sites/site_1/part-1", "/sites/site_1/part-1/chapter-1-1"}, "outside the site's root"},
		"outside any site": {[]string{"/v1/spaces", "/sites/site_1/part-1", "/sites/site_1/part-1/chapter-1-1"}, "outside the site's root"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := siteTitles("site_1", c.paths, pages)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestCheckSitePage(t *testing.T) {
	page := []byte("<!doctype html>\n<html><head>\n<title>Q&amp;A · Bench Docs</title>\n</head><body><h1>Q&amp;A</h1></body></html>")
	require.NoError(t, checkSitePage(page, "Q&A · Bench Docs"))
	assert.ErrorContains(t, checkSitePage(page, "Part 1 · Bench Docs"), `want "Part 1 · Bench Docs"`)
	assert.ErrorContains(t, checkSitePage([]byte(`{"error":{"code":404}}`), "Bench Docs"), "no <title>")
}

func TestPageAssets(t *testing.T) {
	page := []byte(`<head><link rel="canonical" href="http://h/sites/s/">
<link rel="stylesheet" href="/sites/s/~bindery/static/reader.0a1b2c3d4e.css">
<script src="/sites/s/~bindery/static/reader.5f6a7b8c9d.js" defer></script></head>
<body><a href="/sites/s/part-1">Part 1</a><img src="/sites/s/~bindery/files/ss/f/a.png"></body>`)
	assert.Equal(t, []string{"/sites/s/~bindery/static/reader.0a1b2c3d4e.css", "/sites/s/~bindery/static/reader.5f6a7b8c9d.js"},
		pageAssets(page))
}

// The pages written for the file server answer at the addresses Bindery
// serves them at, the site's root and pages that hold others included,
// without a redirect; and so do the assets.
func TestSiteFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"/sites/s/":                                 "<title>Bench Docs</title>",
		"/sites/s/part-1":                           "<title>Part 1 · Bench Docs</title>",
		"/sites/s/part-1/chapter-1-1":               "<title>Chapter 1.1 · Bench Docs</title>",
		"/sites/s/part-1/chapter-1-1/section-1-1-1": "<title>Section 1.1.1 · Bench Docs</title>",
	}
	for p, body := range files {
		require.NoError(t, writeFile(pageFile(dir, p), []byte(body)))
	}
	const css = "/sites/s/~bindery/static/reader.0a1b2c3d4e.css"
	require.NoError(t, writeFile(assetFile(dir, css), []byte("body{}")))
	assert.FileExists(t, filepath.Join(dir, "sites", "s", "index.html"))
	assert.FileExists(t, filepath.Join(dir, "sites", "s", "part-1", "index.html"))
	assert.FileExists(t, filepath.Join(dir, "sites", "s", "part-1", "chapter-1-1", "index.html"))
	assert.FileExists(t, filepath.Join(dir, "sites", "s", "~bindery", "static", "reader.0a1b2c3d4e.css"))
	assert.Equal(t, filepath.Join(dir, "etc", "passwd", "index.html"), pageFile(dir, "/../../etc/passwd"), "never outside dir")

	srv := httptest.NewServer(siteFiles(dir))
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(p string) (*http.Response, string) {
		res, err := client.Get(srv.URL + p)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(b)
	}
	for p, body := range files {
		res, got := get(p)
		assert.Equal(t, http.StatusOK, res.StatusCode, p)
		assert.Equal(t, body, got, p)
		assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"), p)
	}
	res, got := get(css)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "body{}", got)
	assert.Equal(t, "text/css; charset=utf-8", res.Header.Get("Content-Type"))

	res, _ = get("/sites/s/part-2")
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
}

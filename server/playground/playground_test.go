package playground

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

func sri384(b []byte) string {
	sum := sha512.Sum384(b)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}

// The vendored files are exactly the ones assets.mjs took from the pinned npm
// packages: each matches the sha384 and size it recorded, and vendor/ holds
// nothing else. (e2e's TestPlaygroundAssetsMatchNPM fetches the packages
// again and compares byte for byte.)
func TestVendoredFilesMatchManifest(t *testing.T) {
	m, err := ReadManifest()
	require.NoError(t, err)
	want := map[string]string{"graphiql": "3.9.0", "react": "18.3.1", "react-dom": "18.3.1"}
	listed := map[string]bool{"vendor/manifest.json": true}
	for _, pkg := range m.Packages {
		assert.Equal(t, want[pkg.Name], pkg.Version, pkg.Name)
		delete(want, pkg.Name)
		assert.Regexp(t, `^sha512-[A-Za-z0-9+/]{86}==$`, pkg.Integrity, pkg.Name)
		assert.Equal(t, "https://registry.npmjs.org/"+pkg.Name+"/-/"+pkg.Name+"-"+pkg.Version+".tgz", pkg.Tarball)
		for _, f := range pkg.Files {
			body, err := files.ReadFile("vendor/" + f.File)
			require.NoError(t, err, f.File)
			assert.Equal(t, f.SHA384, sri384(body), "vendor/%s does not match the manifest: run make playground-assets", f.File)
			assert.Equal(t, f.Size, len(body), f.File)
			assert.Equal(t, path.Base(f.Path), path.Base(f.File))
			listed["vendor/"+f.File] = true
		}
	}
	assert.Empty(t, want, "packages missing from the manifest")

	var present []string
	require.NoError(t, fs.WalkDir(files, "vendor", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			present = append(present, p)
			assert.True(t, listed[p], "%s is not from a pinned package", p)
		}
		return err
	}))
	assert.Len(t, present, len(listed))
}

// The page loads every asset, in order, with the Subresource Integrity of the
// bytes served at its URL, and nothing from elsewhere.
func TestPageIntegrity(t *testing.T) {
	p := New("graphql")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /playground", p.ServePage)
	mux.HandleFunc("GET "+AssetRoute, p.ServeAsset)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	res, err := http.Get(srv.URL + "/playground")
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	assert.Equal(t, CSP, res.Header.Get("Content-Security-Policy"))
	assert.Equal(t, "no-cache", res.Header.Get("Cache-Control"))
	doc, err := html.Parse(res.Body)
	require.NoError(t, err)

	type ref struct{ tag, url, integrity string }
	var refs []ref
	var inline []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attr := map[string]string{}
			for _, a := range n.Attr {
				attr[a.Key] = a.Val
				if strings.HasPrefix(a.Key, "on") || a.Key == "style" {
					inline = append(inline, n.Data+" "+a.Key)
				}
			}
			switch {
			case n.Data == "script":
				refs = append(refs, ref{"script", attr["src"], attr["integrity"]})
				if n.FirstChild != nil {
					inline = append(inline, "script body")
				}
			case n.Data == "link" && attr["rel"] == "stylesheet":
				refs = append(refs, ref{"style", attr["href"], attr["integrity"]})
			case n.Data == "style":
				inline = append(inline, "style element")
			case n.Data == "main" && attr["id"] == "graphiql":
				assert.Equal(t, "graphql", attr["data-endpoint"])
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	assert.Empty(t, inline, "the CSP allows no inline script or style")

	var names []string
	for _, r := range refs {
		require.True(t, strings.HasPrefix(r.url, "playground/assets/"), r.url)
		names = append(names, r.tag+" "+path.Base(r.url))
		a, err := http.Get(srv.URL + "/" + r.url)
		require.NoError(t, err)
		var body bytes.Buffer
		_, err = body.ReadFrom(a.Body)
		a.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, a.StatusCode, r.url)
		assert.Equal(t, sri384(body.Bytes()), r.integrity, r.url)
		assert.Equal(t, "public, max-age=31536000, immutable", a.Header.Get("Cache-Control"), r.url)
		wantType := map[string]string{"script": "text/javascript; charset=utf-8", "style": "text/css; charset=utf-8"}[r.tag]
		assert.Equal(t, wantType, a.Header.Get("Content-Type"), r.url)
	}
	assert.Equal(t, []string{
		"style graphiql.min.css", "style playground.css",
		"script react.production.min.js", "script react-dom.production.min.js", "script graphiql.min.js",
		"script playground.js",
	}, names)

	// The vendored files are served as npm published them.
	m, err := ReadManifest()
	require.NoError(t, err)
	byName := map[string]string{}
	for _, a := range p.Assets() {
		byName[a.Name] = a.Integrity
	}
	var served []string
	for _, pkg := range m.Packages {
		for _, f := range pkg.Files {
			if ext := path.Ext(f.File); ext == ".js" || ext == ".css" {
				assert.Equal(t, f.SHA384, byName[path.Base(f.File)], f.File)
				served = append(served, f.File)
			}
		}
	}
	sort.Strings(served)
	assert.Equal(t, []string{"graphiql/graphiql.min.css", "graphiql/graphiql.min.js", "react-dom/react-dom.production.min.js",
		"react/react.production.min.js"}, served)
}

func TestAssetCaching(t *testing.T) {
	p := New("graphql")
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+AssetRoute, p.ServeAsset)
	a := p.Assets()[0]
	url := "/" + a.URL()

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
	require.Equal(t, http.StatusOK, rec.Code)
	etag := rec.Header().Get("ETag")
	assert.Equal(t, `"`+a.Version+`"`, etag)

	req := httptest.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusNotModified, rec.Code)

	// Another version of the file is not served: its URL would be cached
	// for a year with the wrong content.
	for _, bad := range []string{
		"/playground/assets/0000000000000000/" + a.Name,
		"/playground/assets/" + a.Version + "/nope.js",
		"/playground/assets/" + a.Version + "/LICENSE",
		"/playground/assets/" + a.Version + "/..%2fmanifest.json",
	} {
		rec = httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, bad, nil))
		assert.Equal(t, http.StatusNotFound, rec.Code, bad)
	}
}

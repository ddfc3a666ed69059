// Package playground serves GraphiQL for Bindery's GraphQL API from files
// embedded in the binary: no CDN, no network beyond the server itself.
//
// GraphiQL, React and ReactDOM come from pinned npm packages, copied into
// vendor/ by assets.mjs (make playground-assets), which records in
// vendor/manifest.json the registry's integrity of each package and the
// sha384 of each file. The page loads every script and style sheet with a
// Subresource Integrity attribute, under a content security policy that
// allows only this origin. Asset URLs carry a digest of their content, so
// they are cached for a year and a new build never meets a stale file.
package playground

import (
	"bytes"
	"crypto/sha512"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"path"
	"sync"
	"time"
)

//go:embed page.html playground.js playground.css vendor
var files embed.FS

// CSP is the page's content security policy. Scripts, style sheets and
// requests go to this origin only; GraphiQL's style sheet inlines its fonts
// and icons as data: URLs. No inline script or style is allowed: the page's
// own code is playground.js.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// AssetRoute is the route pattern of the assets, for the router; the page
// is served at /playground.
const AssetRoute = "/playground/assets/{version}/{name}"

// Manifest is vendor/manifest.json: where each vendored file came from.
type Manifest struct {
	Packages []Package `json:"packages"`
}

// Package is one npm package at a pinned version, with the registry's
// integrity of its tarball and the files taken from it.
type Package struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Tarball   string `json:"tarball"`
	Integrity string `json:"integrity"`
	Files     []File `json:"files"`
}

// File is one file of a package: Path inside the package, File under
// vendor/, and its sha384 in Subresource Integrity form.
type File struct {
	Path   string `json:"path"`
	File   string `json:"file"`
	Size   int    `json:"size"`
	SHA384 string `json:"sha384"`
}

// Asset is a file the page loads.
type Asset struct {
	// Name is the file name, the last segment of its URL.
	Name string
	// Version is a digest of the content, the URL's other segment.
	Version     string
	ContentType string
	// Integrity is the sha384 of Body in Subresource Integrity form.
	Integrity string
	Body      []byte
}

// URL is the asset's URL relative to the page, so that the playground also
// works behind a reverse proxy that adds a path prefix.
func (a *Asset) URL() string { return "playground/assets/" + a.Version + "/" + a.Name }

// Playground serves the page and its assets.
type Playground struct {
	page    []byte
	assets  map[string]*Asset // by version + "/" + name
	scripts []*Asset
	styles  []*Asset
}

// ReadManifest returns the embedded vendor/manifest.json.
func ReadManifest() (Manifest, error) {
	var m Manifest
	b, err := files.ReadFile("vendor/manifest.json")
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

// Link is a way to sign in that the page offers a person whose browser is
// not signed in: its label and where it starts.
type Link struct{ Label, URL string }

// New builds the playground for the GraphQL endpoint at endpoint, a URL
// relative to the page, offering signIn to a browser without a session.
// The embedded files are fixed at build time, so a failure here is a
// broken build and panics; the package's tests build it.
func New(endpoint string, signIn ...Link) *Playground {
	p, err := build(endpoint, signIn)
	if err != nil {
		panic("playground: " + err.Error())
	}
	return p
}

// embedded reads the embedded assets and hashes them, once per process:
// about 15 ms of hashing that every server of a test run would repeat. The
// result never changes, and nothing writes to it.
var embedded = sync.OnceValues(func() (*Playground, error) {
	m, err := ReadManifest()
	if err != nil {
		return nil, fmt.Errorf("reading the manifest: %w", err)
	}
	p := &Playground{assets: map[string]*Asset{}}
	add := func(file string) error {
		body, err := files.ReadFile(file)
		if err != nil {
			return err
		}
		types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
		ct, ok := types[path.Ext(file)]
		if !ok {
			return nil // a license
		}
		sum := sha512.Sum384(body)
		a := &Asset{Name: path.Base(file), Version: hex.EncodeToString(sum[:8]), ContentType: ct,
			Integrity: "sha384-" + base64.StdEncoding.EncodeToString(sum[:]), Body: body}
		if _, dup := p.assets[a.Version+"/"+a.Name]; dup {
			return fmt.Errorf("%s is listed twice", file)
		}
		p.assets[a.Version+"/"+a.Name] = a
		if path.Ext(file) == ".js" {
			p.scripts = append(p.scripts, a)
		} else {
			p.styles = append(p.styles, a)
		}
		return nil
	}
	// The manifest lists React, ReactDOM and GraphiQL in the order the page
	// must load them; the page's own files come last.
	for _, pkg := range m.Packages {
		for _, f := range pkg.Files {
			if err := add("vendor/" + f.File); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range []string{"playground.css", "playground.js"} {
		if err := add(f); err != nil {
			return nil, err
		}
	}
	return p, nil
})

func build(endpoint string, signIn []Link) (*Playground, error) {
	assets, err := embedded()
	if err != nil {
		return nil, err
	}
	tmpl, err := template.ParseFS(files, "page.html")
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := tmpl.Execute(&page, map[string]any{"Endpoint": endpoint, "Scripts": assets.scripts, "Styles": assets.styles,
		"SignIn": signIn}); err != nil {
		return nil, err
	}
	p := *assets
	p.page = page.Bytes()
	return &p, nil
}

// Assets returns the files the page loads, style sheets first, each list in
// the page's order.
func (p *Playground) Assets() []*Asset {
	return append(append([]*Asset{}, p.styles...), p.scripts...)
}

// ServePage serves the HTML page. It is small and names its assets by
// digest, so it is revalidated on every load.
func (p *Playground) ServePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", CSP)
	h.Set("Cache-Control", "no-cache")
	h.Set("Referrer-Policy", "no-referrer")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(p.page))
}

// ServeAsset serves the asset named by the path values {version} and {name}
// of AssetRoute, cached for a year: changed content gets a new URL. An unknown
// or outdated version is a 404.
func (p *Playground) ServeAsset(w http.ResponseWriter, r *http.Request) {
	a := p.assets[r.PathValue("version")+"/"+r.PathValue("name")]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", `"`+a.Version+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.Body))
}

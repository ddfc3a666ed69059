package reader

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"time"
)

//go:embed static/reader.css static/reader.js static/icon.svg
var staticFiles embed.FS

// assets are the reader's stylesheet and script, each named by a digest of
// its content: a new build gets new names, so browsers may keep a file for
// a year without ever meeting a stale one.
type assets struct {
	css, js, icon string            // file names
	files         map[string]*asset // by file name
}

// asset is one file as served.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// newAssets builds the stylesheet (reader.css then contentCSS, which the
// caller gets from render.CSS()) and the script, each named by the hash of
// its content. One stylesheet saves pages a second request for the
// content's rules, which every page needs.
func newAssets(contentCSS string) (*assets, error) {
	css, err := staticFiles.ReadFile("static/reader.css")
	if err != nil {
		return nil, err
	}
	js, err := staticFiles.ReadFile("static/reader.js")
	if err != nil {
		return nil, err
	}
	a := &assets{files: map[string]*asset{}}
	stylesheet := make([]byte, 0, len(css)+1+len(contentCSS))
	stylesheet = append(append(append(stylesheet, css...), '\n'), contentCSS...)
	a.css = a.add("reader", ".css", "text/css; charset=utf-8", stylesheet)
	a.js = a.add("reader", ".js", "text/javascript; charset=utf-8", js)
	// A page names its icon, so that a browser does not ask for
	// /favicon.ico, which is no page of the site.
	icon, err := staticFiles.ReadFile("static/icon.svg")
	if err != nil {
		return nil, err
	}
	a.icon = a.add("icon", ".svg", "image/svg+xml", icon)
	return a, nil
}

// add keeps body under a name made of base, the first 40 bits of its
// SHA-256 in hex and ext, and returns that name. 40 bits tell builds apart;
// they do not have to resist forgery.
func (a *assets) add(base, ext, contentType string, body []byte) string {
	sum := sha256.Sum256(body)
	digest := hex.EncodeToString(sum[:5])
	name := base + "." + digest + ext
	a.files[name] = &asset{body: body, contentType: contentType, etag: `"` + digest + `"`}
	return name
}

// stylesheet is the file name of the stylesheet, e.g. "reader.3f9a0c1d2e.css".
func (a *assets) stylesheet() string { return a.css }

// favicon is the file name of the pages' icon.
func (a *assets) favicon() string { return a.icon }

// script is the file name of the script, or "" if there is none.
func (a *assets) script() string { return a.js }

// serve answers GET and HEAD for the asset called name: 404 for a name it
// does not know, which includes the names of other builds.
func (a *assets) serve(w http.ResponseWriter, r *http.Request, name string) {
	f := a.files[name]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	// ServeContent answers If-None-Match with 304, HEAD without a body, and
	// ranges.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}

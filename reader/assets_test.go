package reader

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestAssetNames(t *testing.T) {
	t.Parallel()
	a, err := newAssets("p{color:red}")
	if err != nil {
		t.Fatal(err)
	}
	same, err := newAssets("p{color:red}")
	if err != nil {
		t.Fatal(err)
	}
	changed, err := newAssets("p{color:blue}")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^reader\.[0-9a-f]{10}\.css$`).MatchString(a.stylesheet()) {
		t.Errorf("stylesheet %q", a.stylesheet())
	}
	if !regexp.MustCompile(`^reader\.[0-9a-f]{10}\.js$`).MatchString(a.script()) {
		t.Errorf("script %q", a.script())
	}
	if same.stylesheet() != a.stylesheet() {
		t.Error("the same content got another name")
	}
	if changed.stylesheet() == a.stylesheet() {
		t.Error("changed content kept its name")
	}
	if changed.script() != a.script() {
		t.Error("the script's name changed with the content CSS")
	}
}

func TestServeAssets(t *testing.T) {
	t.Parallel()
	a, err := newAssets("p{color:red}")
	if err != nil {
		t.Fatal(err)
	}
	other, err := newAssets("p{color:blue}")
	if err != nil {
		t.Fatal(err)
	}
	own, err := staticFiles.ReadFile("static/reader.css")
	if err != nil {
		t.Fatal(err)
	}
	css := string(a.files[a.stylesheet()].body)
	if css != string(own)+"\np{color:red}" {
		t.Fatal("the stylesheet is not reader.css then the content's rules")
	}
	etag := a.files[a.stylesheet()].etag
	for _, tc := range []struct {
		name, method, file, ifNoneMatch string
		wantStatus                      int
		wantType, wantBody              string
	}{
		{"stylesheet", "GET", a.stylesheet(), "", 200, "text/css; charset=utf-8", css},
		{"script", "GET", a.script(), "", 200, "text/javascript; charset=utf-8", "(() =>"},
		{"head", "HEAD", a.stylesheet(), "", 200, "text/css; charset=utf-8", ""},
		{"revalidation", "GET", a.stylesheet(), etag, 304, "", ""},
		{"another version's etag", "GET", a.stylesheet(), other.files[other.stylesheet()].etag, 200, "text/css; charset=utf-8", css},
		{"unknown name", "GET", "reader.css", "", 404, "", ""},
		{"another build's name", "GET", other.stylesheet(), "", 404, "", ""},
		{"post", "POST", a.stylesheet(), "", 405, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "/_assets/"+tc.file, nil)
			if tc.ifNoneMatch != "" {
				r.Header.Set("If-None-Match", tc.ifNoneMatch)
			}
			w := httptest.NewRecorder()
			a.serve(w, r, tc.file)
			res := w.Result()
			if res.StatusCode != tc.wantStatus {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.wantStatus)
			}
			body := w.Body.String()
			if !strings.Contains(body, tc.wantBody) || tc.method == "HEAD" && body != "" {
				t.Errorf("body %.40q…, want %.40q…", body, tc.wantBody)
			}
			if tc.wantStatus >= 400 {
				return
			}
			h := res.Header
			if tc.wantType != "" && h.Get("Content-Type") != tc.wantType {
				t.Errorf("Content-Type %q", h.Get("Content-Type"))
			}
			for key, want := range map[string]string{
				"Cache-Control": "public, max-age=31536000, immutable",
				"ETag":          a.files[tc.file].etag,
			} {
				if h.Get(key) != want {
					t.Errorf("%s %q, want %q", key, h.Get(key), want)
				}
			}
			if tc.wantStatus == http.StatusOK && h.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no nosniff")
			}
		})
	}
}

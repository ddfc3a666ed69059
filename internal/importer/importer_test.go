package importer

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/bindery/bindery/internal/enum"
)

func TestSources(t *testing.T) {
	for _, tc := range []struct {
		source enum.ImportSource
		code   Code
		msg    string
	}{
		{enum.ImportSourceDocx, CodeUnsupported,
			`import source "docx" is not supported; supported sources are website, html, markdown and zip`},
		{enum.ImportSourceConfluence, CodeUnsupported,
			`import source "confluence" is not supported; supported sources are website, html, markdown and zip`},
		{enum.ImportSourceGithubWiki, CodeUnsupported, `import source "github-wiki" is not supported`},
		{enum.ImportSourceNotion, CodeUnsupported, `import source "notion" is not supported`},
		{enum.ImportSourceGoogleDocs, CodeUnsupported, `import source "google-docs" is not supported`},
		{"pdf", CodeInvalid, `unknown import source "pdf"`},
		{"", CodeInvalid, `unknown import source ""`},
	} {
		t.Run(string(tc.source), func(t *testing.T) {
			// Nothing is fetched: the URL would be refused otherwise.
			e := importErr(t, tc.source, "http://127.0.0.1/", Options{})
			assert.Equal(t, tc.code, e.Code)
			assert.Contains(t, e.Msg, tc.msg)
		})
	}
}

func TestDefaults(t *testing.T) {
	o := Options{}.withDefaults()
	assert.Equal(t, int64(10<<20), o.MaxBytes)
	assert.Equal(t, int64(50<<20), o.MaxTotalBytes)
	assert.Equal(t, 50, o.MaxPages)
	assert.Equal(t, 3, o.MaxDepth)
	assert.Equal(t, 5, o.MaxRedirects)
	assert.Equal(t, DefaultTimeout, o.Timeout)
	assert.NotNil(t, o.Now)
}

func TestUniqueName(t *testing.T) {
	im := &importer{names: map[string]bool{}}
	for _, tc := range []struct{ base, ext, want string }{
		{"logo.png", ".png", "logo.png"},
		{"logo.png", ".png", "logo-2.png"},
		{"Logo%20Final.JPEG", ".jpg", "Logo-Final.JPEG"},
		{"photo.php", ".png", "photo.php.png"},
		{"", ".gif", "image.gif"},
		{"..", ".png", "image.png"},
		{".env.png", ".png", "env.png"},
		{"résumé.png", ".png", "r-sum.png"},
		{"pic.jpg", ".png", "pic.jpg.png"},
	} {
		assert.Equal(t, tc.want, im.uniqueName(tc.base, tc.ext), tc.base)
	}
}

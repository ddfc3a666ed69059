package document

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

func TestAssets(t *testing.T) {
	resolve := Assets([]*content.File{
		{ID: "file-logo", Name: "logo.png"},
		{ID: "file-spaced", Name: "my logo.png"},
		{ID: "file-twin", Name: "logo.png"},
	})
	for _, tc := range []struct {
		src, want string
	}{
		{".gitbook/assets/logo.png", "file-logo"},
		{"/.gitbook/assets/logo.png", "file-logo"},
		{"./.gitbook/assets/logo.png", "file-logo"},
		{"../../.gitbook/assets/logo.png", "file-logo"},
		{".gitbook/assets/my logo.png", "file-spaced"},
		{".gitbook/assets/missing.png", ""},
		{"docs/.gitbook/assets/logo.png", ""},
		{"https://example.com/.gitbook/assets/logo.png", ""},
		{"logo.png", ""},
		{".gitbook/assets/", ""},
		{"", ""},
	} {
		id, ok := resolve(tc.src)
		assert.Equal(t, tc.want, id, tc.src)
		assert.Equal(t, tc.want != "", ok, tc.src)
	}
}

func TestFromPage(t *testing.T) {
	c := &content.Content{Files: []*content.File{{ID: "file-diagram", Name: "my diagram.png"}}}
	page := &content.Page{Type: enum.PageTypeDocument,
		Markdown: "![A diagram](.gitbook/assets/my%20diagram.png) [elsewhere](https://example.com/x.png)"}
	d, err := FromPage(c, page)
	require.NoError(t, err)
	got, err := json.Marshal(d)
	require.NoError(t, err)
	assert.JSONEq(t, doc(para(plain(""),
		inlineImage(`{"ref":{"kind":"file","file":"file-diagram"},"alt":"A diagram"}`),
		plain(" "),
		inline("link", `{"ref":{"kind":"url","url":"https://example.com/x.png"}}`, plain("elsewhere")),
		plain(""))), string(got))

	empty, err := FromPage(c, &content.Page{Type: enum.PageTypeDocument})
	require.NoError(t, err)
	assert.Empty(t, empty.Nodes, "an empty document has no nodes")

	for _, typ := range []enum.PageType{enum.PageTypeGroup, enum.PageTypeLink} {
		d, err := FromPage(c, &content.Page{Type: typ, Markdown: "ignored"})
		require.NoError(t, err)
		assert.Nil(t, d, "a %s has no document", typ)
	}
}

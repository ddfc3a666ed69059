package render

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/document"
)

var headingID = regexp.MustCompile(`<h[234] id="([^"]*)"`)

// TestHeadingIDsMatchSections checks that a heading's id is the anchor
// that search and link analysis use: the anchors of document.Sections, in
// order, for the same markdown.
func TestHeadingIDsMatchSections(t *testing.T) {
	sample, err := os.ReadFile("testdata/headings.md")
	require.NoError(t, err)
	for name, md := range map[string]string{
		"headings.md": string(sample),
		"formatted": "# Use `go test` **now**\n\n## Links [in](https://x.test) ![img alt](a.png) titles\n\n" +
			"### Setup\n\nSetext\n======\n\n#### Setup\n\n- # Not a section\n\n# Setup-1\n\n# Escaped \\*stars\\* &amp; entities\n",
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := document.FromMarkdown(md, document.Options{})
			require.NoError(t, err)
			res := Document(doc, Options{})
			var want []string
			var headings []Heading
			for _, s := range document.Sections(md) {
				if s.Level > 0 && s.Anchor != "" {
					want = append(want, s.Anchor)
					headings = append(headings, Heading{ID: s.Anchor, Text: s.Title, Level: min(s.Level, 3)})
				}
			}
			var got []string
			for _, m := range headingID.FindAllStringSubmatch(string(res.HTML), -1) {
				got = append(got, m[1])
			}
			assert.Equal(t, want, got)
			assert.Equal(t, headings, res.Headings)
		})
	}
}

func TestHeadingsOutline(t *testing.T) {
	doc, err := document.FromMarkdown("# One\n\n## Two  words\n\n### Three\n\n# One\n\n# !!!\n", document.Options{})
	require.NoError(t, err)
	assert.Equal(t, []Heading{
		{ID: "one", Text: "One", Level: 1},
		{ID: "two--words", Text: "Two words", Level: 2},
		{ID: "three", Text: "Three", Level: 3},
		{ID: "one-1", Text: "One", Level: 1},
	}, Document(doc, Options{}).Headings, "a heading without an anchor has no place in the outline")
}

package search

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/apperr"
)

func TestWords(t *testing.T) {
	for in, want := range map[string]string{
		"Café crème, s'il vous plaît!": "cafe creme s il vous plait",
		"  GO-1.26 \t naïve_ﬁle ":      "go 1 26 naive file",
		"Ελληνικά Ünïcödé":             "ελληνικα unicode",
		"?!":                           "",
	} {
		assert.Equal(t, want, Words(in), in)
	}
}

func TestParseQuery(t *testing.T) {
	q, err := ParseQuery("query", "Install the Go CLI go inst")
	require.NoError(t, err)
	assert.Equal(t, []Term{
		// "the" says nothing; "go" appears twice: short, so whole words only.
		{Word: "install", Prefix: true}, {Word: "go"}, {Word: "cli", Prefix: true},
		{Word: "inst", Prefix: true},
	}, q.Terms)

	q, err = ParseQuery("query", "Go to the")
	require.NoError(t, err)
	assert.Equal(t, []Term{{Word: "go"}, {Word: "the", Prefix: true}}, q.Terms,
		"the last word is kept, and matches as a prefix: it may be \"theme\" being typed")

	q, err = ParseQuery("query", "to be or not to be")
	require.NoError(t, err)
	assert.Equal(t, []Term{{Word: "to"}, {Word: "be", Prefix: true}, {Word: "or"}, {Word: "not", Prefix: true}}, q.Terms,
		"a query of common words only keeps them")

	q, err = ParseQuery("query", strings.Repeat("w ", 10)+"a b c d e f g h i j k l m n o p q r")
	require.NoError(t, err)
	assert.Len(t, q.Terms, MaxTerms)

	for _, bad := range []string{"", "   ", "?!", strings.Repeat("é", MaxQueryLength+1)} {
		_, err := ParseQuery("query", bad)
		assert.Equal(t, apperr.InvalidArgument, apperr.KindOf(err), "%q", bad)
	}
	_, err = ParseQuery("query", strings.Repeat("é", MaxQueryLength))
	assert.NoError(t, err)
}

func TestExcerpt(t *testing.T) {
	text := strings.Repeat("lorem ipsum ", 20) + "the needle is here " + strings.Repeat("dolor sit ", 30)
	at := strings.Index(text, "needle")
	got := excerpt(text, at)
	assert.True(t, strings.HasPrefix(got, "…"), got)
	assert.True(t, strings.HasSuffix(got, "…"), got)
	assert.Contains(t, got, "the needle is here")
	assert.LessOrEqual(t, len([]rune(got)), excerptLength+2)
	assert.Equal(t, "short text", excerpt("short\ntext", 0))
}

func TestHitSections(t *testing.T) {
	q, err := ParseQuery("query", "deploy cluster")
	require.NoError(t, err)
	d := Doc{PageID: "pg1", Title: "Guide", Path: "guide",
		Markdown: "Intro text.\n\n# Deploying\n\nDeploy it.\n\n# Clusters\n\nA cluster to deploy on.\n\n# Other\n\nNothing.\n"}
	data, err := d.stored(sectionsOf(d))
	require.NoError(t, err)
	h, err := q.hit("spc1", "pg1", 1, data)
	require.NoError(t, err)
	require.Len(t, h.Sections, 2)
	assert.Equal(t, SectionHit{Anchor: "clusters", Title: "Clusters", Excerpt: "A cluster to deploy on."}, h.Sections[0],
		"the section with both words first")
	assert.Equal(t, SectionHit{Anchor: "deploying", Title: "Deploying", Excerpt: "Deploy it."}, h.Sections[1])
}

func TestColumns(t *testing.T) {
	d := Doc{Title: "Café", Description: "About Coffee", Markdown: "Intro.\n\n## Brewing\n\nHot water."}
	title, headings, body := d.columns(sectionsOf(d))
	assert.Equal(t, "cafe", title)
	assert.Equal(t, "about coffee brewing", headings)
	assert.Equal(t, "intro hot water", body)
}

// TestCountWord: a term counts at the start of a word, and as a whole word
// unless it is a prefix; never inside a word.
func TestCountWord(t *testing.T) {
	for _, c := range []struct {
		text, word string
		prefix     bool
		want       int
	}{
		{"install installation reinstall install", "install", true, 3},
		{"install installation reinstall install", "install", false, 2},
		{"aa aaa aa", "aa", false, 2},
		{"aa aaa aa", "aa", true, 3},
		{"aaaa", "aa", true, 1},
		{"", "aa", true, 0},
		{"go", "go", false, 1},
		{"ago go", "go", true, 1},
		{"x", "", true, 0},
	} {
		assert.Equal(t, c.want, countWord(c.text, c.word, c.prefix), "%q in %q, prefix %t", c.word, c.text, c.prefix)
	}
}

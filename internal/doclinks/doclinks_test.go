package doclinks

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelativeLinksResolve checks every relative link of README.md and
// docs/**/*.md: its file exists (a folder counts), and its #fragment, if
// any, is the anchor of a heading in the file it names.
func TestRelativeLinksResolve(t *testing.T) {
	root := repositoryRoot(t)
	docs := documents(t, root)
	require.Contains(t, docs, "README.md")
	anchors := map[string]map[string]bool{}
	anchorsOf := func(rel string) map[string]bool {
		if a, ok := anchors[rel]; ok {
			return a
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		anchors[rel] = headingAnchors(string(b))
		return anchors[rel]
	}
	checked := 0
	for _, doc := range docs {
		b, err := os.ReadFile(filepath.Join(root, doc))
		require.NoError(t, err)
		for _, l := range links(string(b)) {
			target, fragment, ok := relative(l.dest)
			if !ok {
				continue
			}
			checked++
			where := fmt.Sprintf("%s:%d: link %q", doc, l.line, l.dest)
			file := doc
			if target != "" {
				file = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(doc), target)))
				if file == ".." || strings.HasPrefix(file, "../") {
					t.Errorf("%s leaves the repository", where)
					continue
				}
				info, err := os.Stat(filepath.Join(root, file))
				if err != nil {
					t.Errorf("%s: no such file %s", where, file)
					continue
				}
				if info.IsDir() {
					if fragment != "" {
						t.Errorf("%s: a folder has no headings", where)
					}
					continue
				}
			}
			if fragment == "" {
				continue
			}
			if !strings.HasSuffix(file, ".md") {
				t.Errorf("%s: a fragment of a file that is not Markdown", where)
				continue
			}
			if !anchorsOf(file)[fragment] {
				t.Errorf("%s: %s has no heading with the anchor #%s", where, file, fragment)
			}
		}
	}
	assert.Positive(t, checked, "no relative link was found: the scan is broken")
}

// repositoryRoot walks up from the test's folder to the one holding go.mod.
func repositoryRoot(t *testing.T) string {
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test's folder")
		dir = parent
	}
}

// documents returns README.md and every .md file under docs/, relative to
// root, with forward slashes.
func documents(t *testing.T, root string) []string {
	docs := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			docs = append(docs, filepath.ToSlash(rel))
		}
		return nil
	})
	require.NoError(t, err)
	return docs
}

type link struct {
	dest string
	line int
}

var (
	// inlineLink is [text](destination) or ![alt](destination), with an
	// optional title after the destination.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// referenceDef is a reference definition: [label]: destination.
	referenceDef = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	codeSpan     = regexp.MustCompile("`+[^`]*`+")
)

// links finds the links of a Markdown document outside fenced code blocks
// and code spans.
func links(doc string) []link {
	var out []link
	for _, l := range prose(doc) {
		i, line := l.index, codeSpan.ReplaceAllString(l.text, "")
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			out = append(out, link{m[1], i + 1})
		}
		if m := referenceDef.FindStringSubmatch(line); m != nil {
			out = append(out, link{m[1], i + 1})
		}
	}
	return out
}

// line is a line of a document with its index.
type line struct {
	index int
	text  string
}

// prose returns the lines of a Markdown document, in order, without those
// of fenced code blocks.
func prose(doc string) []line {
	var out []line
	fence := ""
	for i, text := range strings.Split(doc, "\n") {
		trimmed := strings.TrimLeft(text, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		default:
			out = append(out, line{i, text})
		}
	}
	return out
}

// relative splits a link's destination into a path and a fragment, both
// unescaped, and says whether the link is relative (neither a URL with a
// scheme nor one starting with // or /).
func relative(dest string) (path, fragment string, ok bool) {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(dest, "/") {
		return "", "", false
	}
	return u.Path, u.Fragment, true
}

var (
	atxHeading = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	linkText   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown document: the heading's text, lower-cased, without punctuation
// but for hyphens and underscores, spaces made hyphens, and -1, -2, ...
// after a repeated one.
func headingAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(doc) {
		m := atxHeading.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		a := anchor(m[2])
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// anchor is GitHub's anchor of a heading's text.
func anchor(heading string) string {
	text := linkText.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// The anchor rule on headings whose anchors GitHub is known to make.
func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Set up":                                "set-up",
		"`/v1` and the official GitBook API":    "v1-and-the-official-gitbook-api",
		"An installation's spaces and sites":    "an-installations-spaces-and-sites",
		"Errors, limits and the rate limit":     "errors-limits-and-the-rate-limit",
		"Statement-count bounds":                "statement-count-bounds",
		"Integrations' endpoints":               "integrations-endpoints",
		"[Sites](sites.md) and their redirects": "sites-and-their-redirects",
		"BINDERY_SECRET_KEY":                    "bindery_secret_key",
	} {
		assert.Equal(t, want, anchor(heading), heading)
	}
	got := headingAnchors("# A\n\n```\n# Not a heading\n```\n\n## A\n### B ##\n")
	assert.Equal(t, map[string]bool{"a": true, "a-1": true, "b": true}, got)
}

// The link scanner: relative links are found outside code, with their
// fragments; URLs and code are left alone.
func TestLinks(t *testing.T) {
	doc := "See [a](docs/a.md#x) and ![i](img.png \"t\").\n" +
		"`[not](code.md)` and [web](https://example.com/x.md).\n" +
		"```\n[fenced](f.md)\n```\n" +
		"[ref]: docs/b.md\n" +
		"[here](#local)\n"
	var dests []string
	for _, l := range links(doc) {
		dests = append(dests, l.dest)
	}
	assert.Equal(t, []string{"docs/a.md#x", "img.png", "https://example.com/x.md", "docs/b.md", "#local"}, dests)
	for dest, want := range map[string][3]any{
		"docs/a.md#x":          {"docs/a.md", "x", true},
		"#local":               {"", "local", true},
		"https://example.com/": {"", "", false},
		"//example.com/a":      {"", "", false},
		"/abs.md":              {"", "", false},
		"a%20b.md":             {"a b.md", "", true},
	} {
		p, f, ok := relative(dest)
		assert.Equal(t, want, [3]any{p, f, ok}, dest)
	}
}

package gitbook

import (
	"maps"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
)

// imported is what Import reads from files, as a content.
func imported(t *testing.T, files map[string][]byte, prev *content.Content, now time.Time) *content.Content {
	t.Helper()
	res, err := Import(files, prev, ids(), now)
	require.NoError(t, err)
	c := &content.Content{}
	if prev != nil {
		c = prev.Clone()
	}
	c.ReplacePages(res.Pages)
	return c
}

// edited applies the commit from the files of was to those of now with
// ApplyEdits, to a copy of c.
func edited(t *testing.T, was, now map[string][]byte, c *content.Content, at time.Time) (*content.Content, bool) {
	t.Helper()
	var changed []string
	before := map[string][]byte{}
	for p, b := range was {
		if a, ok := now[p]; !ok || string(a) != string(b) {
			changed = append(changed, p)
			before[p] = b
		}
	}
	for p := range now {
		if _, ok := was[p]; !ok {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	out := c.Clone()
	ok, err := ApplyEdits(now, before, changed, out, at)
	require.NoError(t, err)
	return out, ok
}

var heading = regexp.MustCompile(`(?m)^# .*$`)

// TestApplyEditsIsImport edits each page file of the test repositories in
// the ways a commit does, and checks that ApplyEdits gives what importing
// the whole commit gives.
func TestApplyEditsIsImport(t *testing.T) {
	later := testNow.Add(time.Hour)
	edits := map[string]func(string) string{
		"a paragraph added":   func(s string) string { return s + "\n\nOne more paragraph.\n" },
		"the heading changed": func(s string) string { return heading.ReplaceAllString(s, "# A new title") },
		"a trailing newline":  func(s string) string { return s + "\n" },
		"an asset referred to": func(s string) string {
			return s + "\n\n![Logo](../.gitbook/assets/logo.png)\n"
		},
		"front matter": func(s string) string {
			if strings.HasPrefix(s, "---") {
				return strings.Replace(s, "---\n", "---\nhidden: true\n", 1)
			}
			return "---\ndescription: Said anew\nicon: book\n---\n\n" + s
		},
	}
	// The test repository again, under the root .gitbook.yaml names,
	// beside a file of code.
	rooted := map[string][]byte{".gitbook.yaml": []byte("root: ./docs/\n"), "main.go": []byte("package main\n")}
	for p, b := range readDir(t, "testdata/repo") {
		rooted["docs/"+p] = b
	}
	read := 0
	for dir, files := range map[string]map[string][]byte{"testdata/repo": readDir(t, "testdata/repo"),
		"testdata/golden": readDir(t, "testdata/golden"), "rooted": rooted} {
		c0 := imported(t, files, nil, testNow)
		for file := range files {
			if !strings.HasSuffix(file, ".md") || path.Base(file) == "SUMMARY.md" {
				continue
			}
			for name, edit := range edits {
				after := maps.Clone(files)
				after[file] = []byte(edit(string(files[file])))
				if string(after[file]) == string(files[file]) {
					continue
				}
				got, ok := edited(t, files, after, c0, later)
				if !ok {
					continue
				}
				read++
				want := imported(t, after, c0, later)
				assert.Equal(t, want.Pages, got.Pages, "%s %s: %s", dir, file, name)
			}
		}
	}
	// 17 page files, 5 edits each: all but the first pages' changed titles
	// (which can make their slugs), and a heading where there is none.
	assert.Equal(t, 80, read, "edits read without importing the whole")
}

// TestApplyEditsOfPageFiles checks which commits ApplyEdits reads, and that
// it reads the common ones: a page's file edited, several at once.
func TestApplyEditsOfPageFiles(t *testing.T) {
	later := testNow.Add(time.Hour)
	files := readDir(t, "testdata/repo")
	c0 := imported(t, files, nil, testNow)
	with := func(changes map[string]string) map[string][]byte {
		out := maps.Clone(files)
		for p, s := range changes {
			if s == "" {
				delete(out, p)
			} else {
				out[p] = []byte(s)
			}
		}
		return out
	}
	// Two pages edited, one of them nested.
	after := with(map[string]string{"faq.md": "# FAQ\n\nAsk, and be answered.\n",
		"getting-started/install.md": "# Install\n\nRun the binary.\n"})
	got, ok := edited(t, files, after, c0, later)
	require.True(t, ok)
	assert.Equal(t, imported(t, after, c0, later).Pages, got.Pages)
	faq, _ := got.ByPath("faq")
	assert.Equal(t, "Ask, and be answered.", faq.Page.Markdown)
	assert.Equal(t, later, faq.Page.UpdatedAt)
	intro, _ := got.ByPath("acme-docs")
	assert.Equal(t, testNow, intro.Page.UpdatedAt, "a page whose file did not change is as it was")

	// A file the table of contents does not list changes nothing.
	_, ok = edited(t, files, with(map[string]string{"unlisted.md": "# Unlisted\n\nStill.\n"}), c0, later)
	assert.False(t, ok, "a file no page is read from: the import says so")

	for name, changes := range map[string]map[string]string{
		"the table of contents":  {"SUMMARY.md": string(files["SUMMARY.md"]) + "\n* [More](more.md)\n"},
		"a page added":           {"new.md": "# New\n"},
		"a page removed":         {"faq.md": ""},
		"an asset":               {".gitbook/assets/logo.png": "png"},
		"the configuration":      {".gitbook.yaml": "root: ./\n"},
		"the first page's title": {"README.md": heading.ReplaceAllString(string(files["README.md"]), "# Renamed")},
	} {
		_, ok := edited(t, files, with(changes), c0, later)
		assert.False(t, ok, name)
	}

	// Beside the root: not the space's, so it changes nothing.
	rooted := map[string][]byte{".gitbook.yaml": []byte("root: ./docs/\n"), "main.go": []byte("package main\n")}
	for p, b := range files {
		rooted["docs/"+p] = b
	}
	c2 := imported(t, rooted, nil, testNow)
	after = maps.Clone(rooted)
	after["main.go"] = []byte("package main // changed\n")
	after["docs/faq.md"] = []byte("# FAQ\n\nRooted.\n")
	got, ok = edited(t, rooted, after, c2, later)
	require.True(t, ok)
	assert.Equal(t, imported(t, after, c2, later).Pages, got.Pages)

	// Two pages alike: which one a file is cannot be told from content.
	twins := maps.Clone(files)
	twins["getting-started/configure app.md"] = files["getting-started/install.md"]
	c1 := imported(t, twins, nil, testNow)
	after = maps.Clone(twins)
	after["getting-started/configure app.md"] = []byte("# Install\n\nNot any more.\n")
	_, ok = edited(t, twins, after, c1, later)
	assert.False(t, ok)
}

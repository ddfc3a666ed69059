package gitbook

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
)

// files makes a project directory of text files.
func files(kv ...string) map[string][]byte {
	out := map[string][]byte{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = []byte(kv[i+1])
	}
	return out
}

func TestImportLayouts(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string][]byte
		want     []string
		warnings []string
	}{
		{
			name: "missing file: skipped, its pages take its place",
			files: files("SUMMARY.md", "* [A](a.md)\n* [Gone](gone.md)\n  * [B](b.md)\n",
				"a.md", "# A\n", "b.md", "# B\n"),
			want:     []string{"document A [a]", "document B [b]"},
			warnings: []string{`SUMMARY.md line 2: "gone.md" is not a markdown file of the repository, so the entry is skipped`},
		},
		{
			name: "paths that leave the directory are skipped",
			files: files("SUMMARY.md", "* [A](a.md)\n* [Up](../up.md)\n", "a.md", "# A\n",
				"../up.md", "# Up\n", "x/../../y.md", "# Y\n"),
			want: []string{"document A [a]"},
			warnings: []string{
				`"../up.md" is not a path inside the project directory, so it is skipped`,
				`"x/../../y.md" is not a path inside the project directory, so it is skipped`,
				`SUMMARY.md line 2: "../up.md" is not a markdown file of the repository, so the entry is skipped`,
			},
		},
		{
			name: "title from the link, then the file name",
			files: files("SUMMARY.md", "* [From link](a.md)\n* [](sub/b.md)\n",
				"a.md", "No heading.", "sub/b.md", "Neither."),
			want: []string{"document From link [a]", "document b [b]"},
		},
		{
			name:  "a file listed twice is a page and a link to it",
			files: files("SUMMARY.md", "* [Again](./a.md)\n* [A](a.md)\n", "a.md", "# A\n"),
			want:  []string{"link Again [again]", "document A [a]"},
		},
		{
			name: "no SUMMARY.md: folders give the order",
			files: files("README.md", "# Home\n", "b.md", "# Bee\n", "a.md", "# Ay\n",
				"guide/README.md", "# Guide\n", "guide/setup.md", "# Setup\n",
				"guide/deep/one.md", "# One\n", "ref/api.md", "# API\n",
				".github/x.md", "# Hidden\n", ".gitbook/assets/x.png", "png", "notes.txt", "text"),
			want: []string{
				"document Home [home]", "document Ay [a]", "document Bee [b]",
				"document Guide [guide]", "  document deep [deep]", "    document One [one]", "  document Setup [setup]",
				"group ref [ref]", "  document API [api]",
			},
		},
		{
			name: ".gitbook.yaml: root and a custom summary",
			files: files(".gitbook.yaml", "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc/CONTENTS.md\nredirects:\n  old: new.md\n",
				"README.md", "# Repository readme\n",
				"docs/toc/CONTENTS.md", "* [Intro](../intro.md)\n* [Page](../page.md)\n",
				"docs/intro.md", "# Intro\n", "docs/page.md", "# Page\n", "docs/SUMMARY.md", "* [Wrong](page.md)\n"),
			want: []string{"document Intro [intro]", "document Page [page]"},
			warnings: []string{
				".gitbook.yaml: redirects are not supported, so they are ignored",
				"1 markdown files are not in toc/CONTENTS.md, so they are not imported",
			},
		},
		{
			name:     ".gitbook.yaml: invalid, defaults apply",
			files:    files(".gitbook.yaml", "root: [\n", "SUMMARY.md", "* [A](a.md)\n", "a.md", "# A\n"),
			want:     []string{"document A [a]"},
			warnings: []string{".gitbook.yaml is not valid YAML, so its defaults apply: yaml: line 1: did not find expected node content"},
		},
		{
			name: "a slug Bindery would refuse is made one",
			files: files("SUMMARY.md", "* [A](Getting%20Started.md)\n* [B](b.md)\n* [B2](dup/b.md)\n",
				"Getting Started.md", "# A\n", "b.md", "# B\n", "dup/b.md", "# B2\n"),
			want: []string{"document A [getting-started]", "document B [b]", "document B2 [b-2]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Import(tt.files, nil, ids(), testNow)
			require.NoError(t, err)
			require.Equal(t, tt.want, tree(res.Pages))
			require.Equal(t, tt.warnings, res.Warnings)
		})
	}
}

func TestImportNothing(t *testing.T) {
	_, err := Import(files("docs/a.md", "# A\n", ".gitbook.yaml", "root: ./other/"), nil, ids(), testNow)
	require.ErrorIs(t, err, ErrNoPages)
}

func TestImportFiles(t *testing.T) {
	png := pngOf(4, 5)
	res, err := Import(map[string][]byte{
		"README.md":                []byte("# A\n"),
		".gitbook/assets/pic.png":  png,
		".gitbook/assets/noext":    png,
		".gitbook/assets/doc.pdf":  []byte("%PDF-1.4"),
		".gitbook/assets/sub/x.md": []byte("nested"),
	}, &content.Content{Files: []*content.File{{ID: "fil_old", Name: "pic.png"}}}, ids(), testNow)
	require.NoError(t, err)
	var got []content.File
	for _, a := range res.Files {
		got = append(got, a.File)
	}
	require.Equal(t, []content.File{
		{ID: "fil_new1", Name: "doc.pdf", ContentType: "application/pdf", Size: 8},
		{ID: "fil_new2", Name: "noext", ContentType: "image/png", Size: int64(len(png)), Width: 4, Height: 5},
		{ID: "fil_old", Name: "pic.png", ContentType: "image/png", Size: int64(len(png)), Width: 4, Height: 5},
	}, got)
	require.Equal(t, []string{"1 files are in folders under .gitbook/assets/, which markdown cannot refer to, so they are not imported"}, res.Warnings)
}

// TestSourcesAndPlace: an export over a directory with .gitbook.yaml goes
// where the configuration says, and replaces only what the import read.
func TestSourcesAndPlace(t *testing.T) {
	repo := files(".gitbook.yaml", "root: ./docs/\nstructure:\n  summary: CONTENTS.md\n",
		"README.md", "# Repository readme\n", "docs/CONTENTS.md", "* [Intro](README.md)\n* [Page](page.md)\n",
		"docs/README.md", "# Intro\n", "docs/page.md", "# Page\n", "docs/notes.md", "# Not listed\n",
		"docs/.gitbook/assets/a.png", "png", "src/main.go", "package main\n")
	res, err := Import(repo, nil, ids(), testNow)
	require.NoError(t, err)
	require.Equal(t, []string{"docs/.gitbook/assets/a.png", "docs/CONTENTS.md", "docs/README.md", "docs/page.md"}, res.Sources)

	cfg, _ := ReadConfig(repo)
	placed, err := cfg.Place(map[string][]byte{"SUMMARY.md": nil, "README.md": nil, "guide/x.md": nil})
	require.NoError(t, err)
	require.Equal(t, []string{"docs/CONTENTS.md", "docs/README.md", "docs/guide/x.md"}, sortedKeys(placed))

	_, err = Config{Summary: "toc/CONTENTS.md", Readme: "README.md"}.Place(map[string][]byte{"SUMMARY.md": nil})
	require.ErrorContains(t, err, "cannot write it")
}

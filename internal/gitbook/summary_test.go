package gitbook

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// outline shows parsed entries as "title -> target" lines, groups as
// "## title", indented by depth.
func outline(entries []*entry) []string {
	var out []string
	var walk func(es []*entry, indent string)
	walk = func(es []*entry, indent string) {
		for _, e := range es {
			if e.group {
				out = append(out, indent+"## "+e.title)
			} else {
				out = append(out, fmt.Sprintf("%s%s -> %s", indent, e.title, e.target))
			}
			walk(e.children, indent+"  ")
		}
	}
	walk(entries, "")
	return out
}

func TestParseSummary(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     []string
		warnings int
	}{
		{"two spaces", "# Summary\n\n* [A](a.md)\n  * [B](a/b.md)\n    * [C](a/b/c.md)\n* [D](d.md)",
			[]string{"A -> a.md", "  B -> a/b.md", "    C -> a/b/c.md", "D -> d.md"}, 0},
		{"four spaces and dashes", "- [A](a.md)\n    - [B](b.md)\n- [C](c.md)",
			[]string{"A -> a.md", "  B -> b.md", "C -> c.md"}, 0},
		{"tabs", "* [A](a.md)\n\t* [B](b.md)\n\t\t* [C](c.md)\n\t* [D](d.md)",
			[]string{"A -> a.md", "  B -> b.md", "    C -> c.md", "  D -> d.md"}, 0},
		{"groups", "* [A](README.md)\n\n## Guides\n\n* [B](b.md)\n  * [C](c.md)\n* [D](d.md)\n\n## Ref\n* [E](e.md)",
			[]string{"A -> README.md", "## Guides", "  B -> b.md", "    C -> c.md", "  D -> d.md", "## Ref", "  E -> e.md"}, 0},
		{"a break ends a group", "## G\n\n* [A](a.md)\n\n---\n\n* [B](b.md)",
			[]string{"## G", "  A -> a.md", "B -> b.md"}, 0},
		{"escaped text, angle target, sidebar title", `* [\[x\] a\\b](<my page.md> "Side")` + "\n* [Ü](p%C3%BC.md#part 'x')",
			[]string{`[x] a\b -> my page.md`, "Ü -> p%C3%BC.md#part"}, 0},
		{"a bullet without a link", "* [A](a.md)\n* Just text\n* [B](b.md)",
			[]string{"A -> a.md", "B -> b.md"}, 1},
		{"urls and empty targets", "* [Site](https://example.com/a?b=1)\n* [Nothing]()",
			[]string{"Site -> https://example.com/a?b=1", "Nothing -> "}, 0},
		{"group title escapes", "## C\\# \\#\n* [A](a.md)", []string{"## C# #", "  A -> a.md"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := parseSummary(tt.src)
			require.Equal(t, tt.want, outline(got))
			require.Len(t, warnings, tt.warnings)
		})
	}
}

// TestSummaryEscapes: what the writer escapes, the parser reads back.
func TestSummaryEscapes(t *testing.T) {
	for _, title := range []string{`[draft] a\b`, `x]`, `C# ##`, "#", `trailing \`, `a\*b`, `\\`} {
		w := newSummaryWriter()
		w.group(title)
		w.item(0, title, "a b.md")
		got, warnings := parseSummary(string(w.bytes()))
		require.Empty(t, warnings)
		require.Equal(t, []string{"## " + title, "  " + title + " -> a b.md"}, outline(got), strings.ReplaceAll(string(w.bytes()), "\n", "⏎"))
	}
}

// A table of contents read again is the one parsed before, and imports
// that share it read the same pages.
func TestParsedSummaryIsKept(t *testing.T) {
	files := readDir(t, "testdata/repo")
	src := normalize(files["SUMMARY.md"])
	first, _ := parsedSummary(src)
	again, _ := parsedSummary(src)
	require.NotEmpty(t, first)
	require.Same(t, first[0], again[0])

	one, err := Import(files, nil, ids(), testNow)
	require.NoError(t, err)
	two, err := Import(files, nil, ids(), testNow)
	require.NoError(t, err)
	require.Equal(t, one, two)
}

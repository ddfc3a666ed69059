package merge

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestText(t *testing.T) {
	para := lines("# Title", "", "First paragraph.", "", "Second paragraph.", "", "Third paragraph.")
	tests := []struct {
		name               string
		base, ours, theirs string
		want               string
		// wantHunks are the conflicting hunks; none means a clean merge.
		wantHunks []TextConflict
	}{
		{
			name:   "edits to paragraphs separated by a blank line merge",
			base:   para,
			ours:   lines("# Title", "", "First paragraph, edited.", "", "Second paragraph.", "", "Third paragraph."),
			theirs: lines("# Title", "", "First paragraph.", "", "Second paragraph.", "", "Third paragraph, edited."),
			want:   lines("# Title", "", "First paragraph, edited.", "", "Second paragraph.", "", "Third paragraph, edited."),
		},
		{
			name:      "edits to directly adjacent lines conflict",
			base:      lines("a", "b", "c"),
			ours:      lines("a", "B", "c"),
			theirs:    lines("a", "b", "C"),
			want:      lines("a", "<<<<<<< ours", "B", "c", "||||||| base", "b", "c", "=======", "b", "C", ">>>>>>> theirs"),
			wantHunks: []TextConflict{{Line: 2, Base: lines("b", "c"), Ours: lines("B", "c"), Theirs: lines("b", "C")}},
		},
		{
			name:   "edits separated by one unchanged line merge",
			base:   lines("a", "b", "c"),
			ours:   lines("A", "b", "c"),
			theirs: lines("a", "b", "C"),
			want:   lines("A", "b", "C"),
		},
		{
			name:      "the same line edited differently conflicts",
			base:      lines("a", "b", "c"),
			ours:      lines("a", "ours", "c"),
			theirs:    lines("a", "theirs", "c"),
			want:      lines("a", "<<<<<<< ours", "ours", "||||||| base", "b", "=======", "theirs", ">>>>>>> theirs", "c"),
			wantHunks: []TextConflict{{Line: 2, Base: lines("b"), Ours: lines("ours"), Theirs: lines("theirs")}},
		},
		{
			name:   "the same edit on both sides is not a conflict",
			base:   lines("a", "b", "c"),
			ours:   lines("a", "B", "c"),
			theirs: lines("a", "B", "c"),
			want:   lines("a", "B", "c"),
		},
		{
			name:      "different insertions at the same place conflict",
			base:      lines("a", "b"),
			ours:      lines("a", "x", "b"),
			theirs:    lines("a", "y", "b"),
			want:      lines("a", "<<<<<<< ours", "x", "||||||| base", "=======", "y", ">>>>>>> theirs", "b"),
			wantHunks: []TextConflict{{Line: 2, Ours: lines("x"), Theirs: lines("y")}},
		},
		{
			name:   "the same insertion at the same place is not a conflict",
			base:   lines("a", "b"),
			ours:   lines("a", "x", "b"),
			theirs: lines("a", "x", "b"),
			want:   lines("a", "x", "b"),
		},
		{
			name:   "insertions at different places merge",
			base:   lines("a", "b", "c"),
			ours:   lines("x", "a", "b", "c"),
			theirs: lines("a", "b", "c", "y"),
			want:   lines("x", "a", "b", "c", "y"),
		},
		{
			name:   "a deletion and an edit elsewhere merge",
			base:   para,
			ours:   lines("# Title", "", "Second paragraph.", "", "Third paragraph."),
			theirs: lines("# Title", "", "First paragraph.", "", "Second paragraph.", "", "Third, edited."),
			want:   lines("# Title", "", "Second paragraph.", "", "Third, edited."),
		},
		{
			name:   "the same deletion on both sides merges",
			base:   lines("a", "b", "c"),
			ours:   lines("a", "c"),
			theirs: lines("a", "c"),
			want:   lines("a", "c"),
		},
		{
			name:      "a deletion against an edit of the same line conflicts",
			base:      lines("a", "b", "c"),
			ours:      lines("a", "c"),
			theirs:    lines("a", "B", "c"),
			want:      lines("a", "<<<<<<< ours", "||||||| base", "b", "=======", "B", ">>>>>>> theirs", "c"),
			wantHunks: []TextConflict{{Line: 2, Base: lines("b"), Theirs: lines("B")}},
		},
		{
			name:   "text without a final newline keeps none",
			base:   "a\n\nb",
			ours:   "A\n\nb",
			theirs: "a\n\nB",
			want:   "A\n\nB",
		},
		{
			name:   "appending to a text without a final newline does not touch its last line",
			base:   "a\nb",
			ours:   "a\nb\nc",
			theirs: "A\nb",
			want:   "A\nb\nc",
		},
		{
			name:   "adding the final newline on one side merges with edits on the other",
			base:   "a\n\nb",
			ours:   "a\n\nb\n",
			theirs: "A\n\nb",
			want:   "A\n\nb\n",
		},
		{
			name:   "removing the final newline on one side merges with edits on the other",
			base:   "a\n\nb\n",
			ours:   "a\n\nb",
			theirs: "A\n\nb\n",
			want:   "A\n\nb",
		},
		{
			name:   "CRLF line endings are kept as they are",
			base:   "a\r\n\r\nb\r\n",
			ours:   "A\r\n\r\nb\r\n",
			theirs: "a\r\n\r\nB\r\n",
			want:   "A\r\n\r\nB\r\n",
		},
		{
			name:      "a line whose ending changed is a changed line",
			base:      "a\r\nb\r\n",
			ours:      "a\nb\r\n",
			theirs:    "a\r\nB\r\n",
			want:      "<<<<<<< ours\na\nb\r\n||||||| base\na\r\nb\r\n=======\na\r\nB\r\n>>>>>>> theirs\n",
			wantHunks: []TextConflict{{Line: 1, Base: "a\r\nb\r\n", Ours: "a\nb\r\n", Theirs: "a\r\nB\r\n"}},
		},
		{
			name:   "empty base with one side writing takes it",
			base:   "",
			ours:   "hello",
			theirs: "",
			want:   "hello",
		},
		{
			name:   "empty base with the same text on both sides takes it",
			base:   "",
			ours:   lines("hello"),
			theirs: lines("hello"),
			want:   lines("hello"),
		},
		{
			name:      "empty base with different texts conflicts",
			base:      "",
			ours:      lines("x"),
			theirs:    lines("y"),
			want:      lines("<<<<<<< ours", "x", "||||||| base", "=======", "y", ">>>>>>> theirs"),
			wantHunks: []TextConflict{{Line: 1, Ours: lines("x"), Theirs: lines("y")}},
		},
		{
			name:   "one side emptying the text wins over no change",
			base:   lines("a", "b"),
			ours:   "",
			theirs: lines("a", "b"),
			want:   "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, hunks, clean := Text(tt.base, tt.ours, tt.theirs)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantHunks, hunks)
			assert.Equal(t, len(tt.wantHunks) == 0, clean)

			swapped, swappedHunks, _ := Text(tt.base, tt.theirs, tt.ours)
			if clean {
				assert.Equal(t, got, swapped, "a clean merge does not depend on the order of the sides")
			} else {
				assert.Len(t, swappedHunks, len(hunks))
			}
		})
	}
}

func TestTextResolvedWithSide(t *testing.T) {
	base := lines("a", "", "b", "", "c")
	ours := lines("a", "", "ours", "", "c")
	theirs := lines("A", "", "theirs", "", "c")
	got, hunks := mergeText(base, ours, theirs, Ours)
	assert.Equal(t, lines("A", "", "ours", "", "c"), got, "the clean change from theirs stays")
	assert.Len(t, hunks, 1)
	got, _ = mergeText(base, ours, theirs, Theirs)
	assert.Equal(t, lines("A", "", "theirs", "", "c"), got)
}

// TestTextProperties checks, on random line edits, that merging with an
// unchanged side returns the other side, that merging a text with itself
// returns it, and that clean merges do not depend on the order of the sides.
func TestTextProperties(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 2000; i++ {
		base := randomText(r)
		a, b := mutateText(r, base), mutateText(r, base)

		got, _, clean := Text(base, base, a)
		require.True(t, clean)
		require.Equal(t, a, got)
		got, _, clean = Text(base, a, base)
		require.True(t, clean)
		require.Equal(t, a, got)
		got, _, clean = Text(base, a, a)
		require.True(t, clean)
		require.Equal(t, a, got)

		ab, abHunks, abClean := Text(base, a, b)
		ba, baHunks, baClean := Text(base, b, a)
		require.Equal(t, abClean, baClean, "base %q a %q b %q", base, a, b)
		require.Equal(t, len(abHunks), len(baHunks))
		if abClean {
			require.Equal(t, ab, ba, "base %q a %q b %q", base, a, b)
		}
	}
}

var words = []string{"alpha", "beta", "gamma", "delta", "", "epsilon", "zeta", ""}

func randomText(r *rand.Rand) string {
	n := r.Intn(12)
	ls := make([]string, n)
	for i := range ls {
		ls[i] = words[r.Intn(len(words))]
	}
	s := strings.Join(ls, "\n")
	if r.Intn(3) > 0 && s != "" {
		s += "\n"
	}
	return s
}

// mutateText changes a few lines of s: replaces, inserts or deletes them,
// or toggles the final newline.
func mutateText(r *rand.Rand, s string) string {
	ls := strings.Split(s, "\n")
	for k := r.Intn(3); k >= 0; k-- {
		i := r.Intn(len(ls) + 1)
		switch op := r.Intn(4); {
		case op == 0 && i < len(ls):
			ls[i] = words[r.Intn(len(words))] + "!"
		case op == 1:
			ls = append(ls[:i], append([]string{"new " + words[r.Intn(len(words))]}, ls[i:]...)...)
		case op == 2 && i < len(ls):
			ls = append(ls[:i], ls[i+1:]...)
		case op == 3:
			if len(ls) > 0 && ls[len(ls)-1] == "" {
				ls = ls[:len(ls)-1]
			} else {
				ls = append(ls, "")
			}
		}
	}
	return strings.Join(ls, "\n")
}

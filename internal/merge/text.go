package merge

import (
	"slices"
	"strings"
)

// Conflict markers written around a hunk that both sides changed
// differently, in the diff3 style of git.
const (
	markerOurs   = "<<<<<<< ours\n"
	markerBase   = "||||||| base\n"
	markerSplit  = "=======\n"
	markerTheirs = ">>>>>>> theirs\n"
)

// TextConflict is one hunk of a text that both sides changed differently.
// Its texts keep their line endings.
type TextConflict struct {
	// Line is the first line of the hunk in base, counting from 1. When both
	// sides only inserted lines, it is the base line they go before
	// (len(base lines)+1 at the end).
	Line               int
	Base, Ours, Theirs string
}

// Text merges markdown line by line (diff3). A line keeps its terminator, so
// "\r\n" and "\n" are compared and written back as they are.
//
// A change is a run of base lines that one side replaced, deleted or
// inserted lines into. Changes from the two sides merge cleanly when at
// least one unchanged line separates them (paragraphs separated by a blank
// line); changes that overlap or touch directly (adjacent lines, or
// insertions at the same place) conflict unless both sides made the same
// change. Whether the text ends with a newline is merged as a value of its
// own, so appending to a text without a final newline does not touch its
// last line.
//
// merged holds the conflicting hunks between git-style markers
// (<<<<<<< ours, ||||||| base, =======, >>>>>>> theirs); clean says whether
// there were none.
func Text(base, ours, theirs string) (merged string, hunks []TextConflict, clean bool) {
	merged, hunks = mergeText(base, ours, theirs, "")
	return merged, hunks, len(hunks) == 0
}

// mergeText is Text where take, when set, resolves each conflicting hunk with
// that side's lines instead of markers. The hunks are returned either way.
func mergeText(base, ours, theirs string, take Side) (string, []TextConflict) {
	o, a, b := splitLines(base), splitLines(ours), splitLines(theirs)
	in := interner{}
	regions := diff3(in.ints(o.lines), in.ints(a.lines), in.ints(b.lines))
	var out strings.Builder
	var hunks []TextConflict
	for _, r := range regions {
		ol, al, bl := o.lines[r.o0:r.o1], a.lines[r.a0:r.a1], b.lines[r.b0:r.b1]
		switch {
		case r.stable, slices.Equal(al, bl), slices.Equal(bl, ol):
			writeLines(&out, al)
		case slices.Equal(al, ol):
			writeLines(&out, bl)
		default:
			hunks = append(hunks, TextConflict{
				Line: r.o0 + 1, Base: strings.Join(ol, ""), Ours: strings.Join(al, ""), Theirs: strings.Join(bl, ""),
			})
			writeHunk(&out, ol, al, bl, take)
		}
	}
	text := out.String()
	if mergeFlag(o.noEOL, a.noEOL, b.noEOL) {
		text = strings.TrimSuffix(text, "\n")
	}
	return text, hunks
}

// writeHunk writes a conflicting hunk: the lines of take, or all three
// versions between markers when take is empty.
func writeHunk(out *strings.Builder, ol, al, bl []string, take Side) {
	switch take {
	case Ours:
		writeLines(out, al)
	case Theirs:
		writeLines(out, bl)
	default:
		out.WriteString(markerOurs)
		writeLines(out, al)
		out.WriteString(markerBase)
		writeLines(out, ol)
		out.WriteString(markerSplit)
		writeLines(out, bl)
		out.WriteString(markerTheirs)
	}
}

func writeLines(out *strings.Builder, lines []string) {
	for _, l := range lines {
		out.WriteString(l)
	}
}

// mergeFlag is the three-way merge of a boolean: a side that changed it
// wins; when both changed it they agree.
func mergeFlag(base, ours, theirs bool) bool {
	if ours != base {
		return ours
	}
	return theirs
}

// textLines is a text cut into lines, each with its terminator.
type textLines struct {
	lines []string
	// noEOL says the text does not end with "\n". Its last line then gets
	// one in lines, so that it compares equal to the same line followed by
	// more text.
	noEOL bool
}

func splitLines(s string) textLines {
	if s == "" {
		return textLines{}
	}
	t := textLines{lines: strings.SplitAfter(s, "\n")}
	if last := len(t.lines) - 1; t.lines[last] == "" {
		t.lines = t.lines[:last]
	} else {
		t.lines[last] += "\n"
		t.noEOL = true
	}
	return t
}

package merge

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/bindery/bindery/internal/content"
)

// Side names one side of a merge.
type Side string

// The two sides of a merge: ours is the first content changed from base,
// theirs the second.
const (
	Ours   Side = "ours"
	Theirs Side = "theirs"
)

// Kind is what a conflict is about.
type Kind string

// Conflict kinds.
const (
	// KindText is markdown (of a page or a reusable content) whose lines both
	// sides changed differently.
	KindText Kind = "text"
	// KindField is a metadata field both sides changed to different values.
	KindField Kind = "field"
	// KindDelete is a page, file or reusable content one side deleted while
	// the other changed it or something beneath it.
	KindDelete Kind = "delete"
	// KindMove is a page both sides moved to different parents, or whose
	// merged place would break the tree's rules (a group below the top
	// level, a child of a link page, a page inside itself).
	KindMove Kind = "move"
	// KindFile is a file both sides changed differently.
	KindFile Kind = "file"
)

// Conflict is a difference between the sides that the merge cannot settle
// alone.
type Conflict struct {
	Kind Kind
	// PageID, FileID or ReusableID names what the conflict is about; only
	// one is set.
	PageID     string
	FileID     string
	ReusableID string
	// Field is the conflicting field: "markdown", "title", "slug", "emoji",
	// ... (the JSON names of content.Page), "parent" for moves, "file" for
	// files and "" for deletions.
	Field string
	// Title is the page's (or file's name, or reusable content's) title for
	// display: ours if ours has it, else theirs, else base.
	Title string
	// Base, Ours and Theirs are each side's text: the whole markdown for text
	// conflicts and deletions ("" on the side that deleted), the value as
	// text for fields (see Resolution), the parent's path ("/" for the top
	// level, "" when the side lacks the page) for moves, and the file entry
	// as JSON for files.
	Base, Ours, Theirs string
	// Hunks are the conflicting hunks of a text conflict.
	Hunks []TextConflict
}

// Key identifies the conflict across merges of the same contents:
// "page:<id>" for a deleted page, "page:<id>:<field>" for the other page
// conflicts, "file:<id>", "reusable:<id>" and "reusable:<id>:<field>".
// Options.Resolutions is keyed by it.
func (c Conflict) Key() string {
	switch {
	case c.FileID != "":
		return "file:" + c.FileID
	case c.ReusableID != "" && c.Kind == KindDelete:
		return "reusable:" + c.ReusableID
	case c.ReusableID != "":
		return "reusable:" + c.ReusableID + ":" + c.Field
	case c.Kind == KindDelete:
		return "page:" + c.PageID
	default:
		return "page:" + c.PageID + ":" + c.Field
	}
}

// Resolution settles one conflict.
type Resolution struct {
	// Take picks a side. For a text conflict it resolves every conflicting
	// hunk with that side's lines and keeps the changes that merged cleanly;
	// for the other kinds it takes that side's value, place, or deletion.
	Take Side
	// Text, for text and field conflicts, is the resolved value and wins
	// over Take: the whole markdown, or the field's value written as in
	// Conflict (a string as is, "true"/"false", a page type, JSON for
	// layout, cover and target with "" for none). A value that cannot be
	// read leaves the conflict unresolved.
	Text *string
}

// Options tunes a merge.
type Options struct {
	// Resolutions settle conflicts found by an earlier merge of the same
	// contents, keyed by Conflict.Key. A resolution whose conflict does not
	// occur is ignored; one that does not settle its conflict leaves it
	// reported.
	Resolutions map[string]Resolution
	// SameBeneath, when set, reports whether the pages beneath a page (not
	// the page itself) are the same, in the same places, in base, ours and
	// theirs, as equal tree hashes show. The merge then leaves those
	// subtrees alone: it costs the pages either side changed and the
	// levels above them, not the size of the contents, and the result
	// shares those subtrees with base (see content.Content.Sharing).
	SameBeneath func(pageID string) bool
}

// Merge merges the changes from base to ours and from base to theirs. The
// result is only meaningful when there are no conflicts; while conflicts
// remain it is nil. Conflicts come in a fixed order: page conflicts in tree
// order (base, then pages new in ours, then in theirs), then files and
// reusable contents by ID. A nil content is empty. Merge does not modify
// its arguments, and the result shares no memory with them but the
// subtrees Options.SameBeneath names.
func Merge(base, ours, theirs *content.Content, opt Options) (*content.Content, []Conflict) {
	cs := [3]*content.Content{base, ours, theirs}
	var beneath map[string]*content.Node
	if opt.SameBeneath != nil {
		cs, beneath = trim(cs, opt.SameBeneath)
	}
	m := newMerger(cs, opt)
	m.decidePages()
	m.settle()
	files := m.mergeFiles()
	reusable := m.mergeReusable()
	conflicts := m.sortedConflicts()
	if len(conflicts) > 0 {
		return nil, conflicts
	}
	out := &content.Content{Pages: m.build(), Files: files, Reusable: reusable}
	if beneath == nil {
		return out, nil
	}
	return out.Sharing(graft(out.Pages, beneath)), nil
}

// trim returns the contents without the pages beneath the pages same names,
// and base's nodes of those pages. The pages kept are the contents' own,
// shared: a merge never changes them.
func trim(cs [3]*content.Content, same func(string) bool) ([3]*content.Content, map[string]*content.Node) {
	kept := map[string]*content.Node{}
	var out [3]*content.Content
	for w, c := range cs {
		if c == nil {
			continue
		}
		var cut func(nodes []*content.Node) []*content.Node
		cut = func(nodes []*content.Node) []*content.Node {
			if len(nodes) == 0 {
				return nil
			}
			trimmed := make([]*content.Node, len(nodes))
			for i, n := range nodes {
				trimmed[i] = &content.Node{Page: n.Page}
				switch {
				case !same(n.Page.ID):
					trimmed[i].Children = cut(n.Children)
				case which(w) == vBase:
					kept[n.Page.ID] = n
				}
			}
			return trimmed
		}
		out[w] = &content.Content{Pages: cut(c.Pages), Files: c.Files, Reusable: c.Reusable}
	}
	return out, kept
}

// graft puts back beneath the merged pages the subtrees trim took away, and
// returns the nodes it put back, which the result shares with base: base's
// node itself when the merged page is base's too, or else its children.
func graft(nodes []*content.Node, kept map[string]*content.Node) map[*content.Node]bool {
	shared := map[*content.Node]bool{}
	var walk func(nodes []*content.Node)
	walk = func(nodes []*content.Node) {
		for i, n := range nodes {
			b, ok := kept[n.Page.ID]
			switch {
			case !ok:
				walk(n.Children)
			case reflect.DeepEqual(*n.Page, *b.Page):
				// No side changed anything beneath, so the merge put nothing
				// there; and the page is as it was.
				nodes[i] = b
				shared[b] = true
			default:
				n.Children = slices.Clone(b.Children)
				for _, k := range b.Children {
					shared[k] = true
				}
			}
		}
	}
	walk(nodes)
	return shared
}

// record adds a conflict unless one with the same key is already known.
func (m *merger) record(c Conflict) {
	key := c.Key()
	if _, ok := m.conflicts[key]; !ok {
		m.conflicts[key] = c
	}
}

// resolution returns the resolution given for key, if it takes a side or
// gives a text.
func (m *merger) resolution(key string) (Resolution, bool) {
	r, ok := m.opt.Resolutions[key]
	if !ok || (r.Take != Ours && r.Take != Theirs && r.Text == nil) {
		return Resolution{}, false
	}
	return r, true
}

// sortedConflicts returns the conflicts in their documented order.
func (m *merger) sortedConflicts() []Conflict {
	out := make([]Conflict, 0, len(m.conflicts))
	for _, c := range m.conflicts {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Conflict) int {
		return cmp.Or(
			cmp.Compare(m.conflictGroup(a), m.conflictGroup(b)),
			cmp.Compare(m.rank[a.PageID], m.rank[b.PageID]),
			cmp.Compare(a.FileID+a.ReusableID, b.FileID+b.ReusableID),
			cmp.Compare(fieldRank(a.Field), fieldRank(b.Field)),
			cmp.Compare(a.Key(), b.Key()),
		)
	})
	return out
}

// conflictGroup orders pages before files before reusable contents.
func (m *merger) conflictGroup(c Conflict) int {
	switch {
	case c.FileID != "":
		return 1
	case c.ReusableID != "":
		return 2
	default:
		return 0
	}
}

// fieldRank orders the conflicts of one page: deletion, place, then fields
// as they appear in content.Page.
func fieldRank(field string) int {
	switch field {
	case "":
		return 0
	case "parent":
		return 1
	}
	for i, f := range pageFields {
		if f.name == field {
			return 2 + i
		}
	}
	return 3 + len(pageFields)
}

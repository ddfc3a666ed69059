package merge

import (
	"slices"

	"github.com/bindery/bindery/internal/content"
)

// mergeFiles merges the files by ID, each as a whole entry: a file changed
// on one side takes that side; both changed differently is a "file"
// conflict; deleted on one side and changed on the other is a "delete"
// conflict.
func (m *merger) mergeFiles() []*content.File {
	var idx [3]map[string]*content.File
	for w := range idx {
		idx[w] = map[string]*content.File{}
		for _, f := range m.v[w].content.Files {
			idx[w][f.ID] = f
		}
	}
	var out []*content.File
	for _, id := range unionKeys(idx) {
		if f := m.mergeFile(id, idx[vBase][id], idx[vOurs][id], idx[vTheirs][id]); f != nil {
			cp := *f
			out = append(out, &cp)
		}
	}
	return out
}

// mergeFile returns the merged entry, nil when the file is deleted.
func (m *merger) mergeFile(id string, b, o, t *content.File) *content.File {
	switch {
	case equalPtr(o, t), equalPtr(t, b):
		return o
	case equalPtr(o, b):
		return t
	}
	c := Conflict{Kind: KindFile, FileID: id, Field: "file", Base: renderJSON(b), Ours: renderJSON(o), Theirs: renderJSON(t)}
	if o == nil || t == nil {
		c.Kind, c.Field = KindDelete, ""
	}
	for _, f := range []*content.File{o, t, b} {
		if f != nil {
			c.Title = f.Name
			break
		}
	}
	if w, ok := m.take(c.Key()); ok {
		return pick(w, o, t)
	}
	m.record(c)
	return o
}

// mergeReusable merges the reusable contents by ID, like pages: the title as
// a value, the markdown line by line.
func (m *merger) mergeReusable() []*content.Reusable {
	var idx [3]map[string]*content.Reusable
	for w := range idx {
		idx[w] = map[string]*content.Reusable{}
		for _, r := range m.v[w].content.Reusable {
			idx[w][r.ID] = r
		}
	}
	var out []*content.Reusable
	for _, id := range unionKeys(idx) {
		if r := m.mergeOneReusable(id, idx[vBase][id], idx[vOurs][id], idx[vTheirs][id]); r != nil {
			out = append(out, r)
		}
	}
	return out
}

// mergeOneReusable returns a copy of the merged reusable content, nil when
// it is deleted.
func (m *merger) mergeOneReusable(id string, b, o, t *content.Reusable) *content.Reusable {
	switch {
	case o == nil && t == nil:
		return nil
	case b != nil && (o == nil || t == nil):
		return clonePtr(m.deletedReusable(id, b, o, t))
	case o == nil:
		return clonePtr(t)
	case t == nil:
		return clonePtr(o)
	}
	if b == nil {
		b = &content.Reusable{ID: id}
	}
	out := clonePtr(o)
	base := Conflict{ReusableID: id, Title: o.Title}
	if title, ok := merge3(b.Title, o.Title, t.Title); ok {
		out.Title = title
	} else {
		out.Title = m.resolveString(base, "title", b.Title, o.Title, t.Title)
	}
	if md, ok := merge3(b.Markdown, o.Markdown, t.Markdown); ok {
		out.Markdown = md
	} else {
		c := base
		c.Kind, c.Field = KindText, "markdown"
		out.Markdown = m.mergeTextValue(c, b.Markdown, o.Markdown, t.Markdown)
	}
	return out
}

// deletedReusable settles a reusable content one side deleted: removed when
// the other side left it unchanged, else a "delete" conflict.
func (m *merger) deletedReusable(id string, b, o, t *content.Reusable) *content.Reusable {
	kept := o
	if kept == nil {
		kept = t
	}
	if *kept == *b {
		return nil
	}
	c := Conflict{
		Kind: KindDelete, ReusableID: id, Title: kept.Title,
		Base: reusableMarkdown(b), Ours: reusableMarkdown(o), Theirs: reusableMarkdown(t),
	}
	if w, ok := m.take(c.Key()); ok {
		return pick(w, o, t)
	}
	m.record(c)
	return kept
}

func reusableMarkdown(r *content.Reusable) string {
	if r == nil {
		return ""
	}
	return r.Markdown
}

// resolveString settles a string field both sides changed differently, or
// reports it and keeps ours.
func (m *merger) resolveString(c Conflict, field, base, ours, theirs string) string {
	c.Kind, c.Field, c.Base, c.Ours, c.Theirs = KindField, field, base, ours, theirs
	r, ok := m.resolution(c.Key())
	switch {
	case ok && r.Text != nil:
		return *r.Text
	case ok:
		return pick(sideWhich(r.Take), ours, theirs)
	}
	m.record(c)
	return ours
}

// merge3 is the three-way merge of a value; ok is false when both sides
// changed it differently.
func merge3[T comparable](base, ours, theirs T) (T, bool) {
	switch {
	case ours == theirs, theirs == base:
		return ours, true
	case ours == base:
		return theirs, true
	}
	return ours, false
}

// pick returns ours or theirs as w says.
func pick[T any](w which, ours, theirs T) T {
	if w == vTheirs {
		return theirs
	}
	return ours
}

// unionKeys returns the keys of the maps, sorted.
func unionKeys[T any](maps [3]map[string]T) []string {
	seen := map[string]bool{}
	var out []string
	for _, mp := range maps {
		for k := range mp {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

package merge

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// fieldSpec is one mergeable field of a page: how to compare, copy, show
// and read it back.
type fieldSpec struct {
	// name is the field's JSON name, used as Conflict.Field.
	name string
	// text fields merge line by line; the others as whole values.
	text   bool
	equal  func(a, b *content.Page) bool
	set    func(dst, src *content.Page)
	render func(p *content.Page) string
	parse  func(dst *content.Page, s string) error
}

// pageFields are the fields of content.Page that a merge compares, in the
// struct's order. ID is the page's identity; CreatedAt and UpdatedAt have
// rules of their own (see mergeTimes).
var pageFields = []fieldSpec{
	typeField(),
	stringField("title", func(p *content.Page) *string { return &p.Title }),
	stringField("slug", func(p *content.Page) *string { return &p.Slug }),
	stringField("emoji", func(p *content.Page) *string { return &p.Emoji }),
	stringField("icon", func(p *content.Page) *string { return &p.Icon }),
	stringField("description", func(p *content.Page) *string { return &p.Description }),
	markdownField(),
	boolField("hidden", func(p *content.Page) *bool { return &p.Hidden }),
	boolField("noIndex", func(p *content.Page) *bool { return &p.NoIndex }),
	boolField("noRobotsIndex", func(p *content.Page) *bool { return &p.NoRobotsIndex }),
	pointerField("layout", func(p *content.Page) **content.Layout { return &p.Layout }),
	pointerField("cover", func(p *content.Page) **content.Cover { return &p.Cover }),
	pointerField("target", func(p *content.Page) **content.Ref { return &p.Target }),
}

func stringField(name string, get func(*content.Page) *string) fieldSpec {
	return fieldSpec{
		name:   name,
		equal:  func(a, b *content.Page) bool { return *get(a) == *get(b) },
		set:    func(dst, src *content.Page) { *get(dst) = *get(src) },
		render: func(p *content.Page) string { return *get(p) },
		parse:  func(dst *content.Page, s string) error { *get(dst) = s; return nil },
	}
}

func markdownField() fieldSpec {
	f := stringField("markdown", func(p *content.Page) *string { return &p.Markdown })
	f.text = true
	return f
}

func boolField(name string, get func(*content.Page) *bool) fieldSpec {
	return fieldSpec{
		name:   name,
		equal:  func(a, b *content.Page) bool { return *get(a) == *get(b) },
		set:    func(dst, src *content.Page) { *get(dst) = *get(src) },
		render: func(p *content.Page) string { return strconv.FormatBool(*get(p)) },
		parse: func(dst *content.Page, s string) error {
			v, err := strconv.ParseBool(s)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			*get(dst) = v
			return nil
		},
	}
}

func typeField() fieldSpec {
	return fieldSpec{
		name:   "type",
		equal:  func(a, b *content.Page) bool { return a.Type == b.Type },
		set:    func(dst, src *content.Page) { dst.Type = src.Type },
		render: func(p *content.Page) string { return string(p.Type) },
		parse: func(dst *content.Page, s string) error {
			t, err := enum.ParsePageType(s)
			if err != nil {
				return fmt.Errorf("type: %w", err)
			}
			dst.Type = t
			return nil
		},
	}
}

// pointerField is a field holding an optional struct, written as JSON
// ("" when unset).
func pointerField[T comparable](name string, get func(*content.Page) **T) fieldSpec {
	return fieldSpec{
		name:   name,
		equal:  func(a, b *content.Page) bool { return equalPtr(*get(a), *get(b)) },
		set:    func(dst, src *content.Page) { *get(dst) = clonePtr(*get(src)) },
		render: func(p *content.Page) string { return renderJSON(*get(p)) },
		parse: func(dst *content.Page, s string) error {
			if s == "" {
				*get(dst) = nil
				return nil
			}
			v := new(T)
			if err := json.Unmarshal([]byte(s), v); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			*get(dst) = v
			return nil
		},
	}
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// renderJSON writes v as JSON, or "" when it is a nil pointer.
func renderJSON[T any](v *T) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		// The content types are plain structs of strings, numbers and
		// booleans, which always encode.
		return fmt.Sprintf("%+v", *v)
	}
	return string(b)
}

// clonePage returns a deep copy of p.
func clonePage(p *content.Page) *content.Page {
	c := *p
	c.Layout = clonePtr(p.Layout)
	c.Cover = clonePtr(p.Cover)
	c.Target = clonePtr(p.Target)
	return &c
}

// samePage says whether a and b have the same content: every field but the
// timestamps.
func samePage(a, b *content.Page) bool {
	for _, f := range pageFields {
		if !f.equal(a, b) {
			return false
		}
	}
	return true
}

package render

import (
	"slices"
	"strings"

	"github.com/bindery/bindery/internal/document"
)

// column is a column of a table, as its view lists it.
type column struct {
	id, title, typ, align string
	def                   map[string]any
}

// record is a row of a table.
type record struct {
	id, order string
	values    map[string]any
}

// table writes a table block (grid or cards view alike) as a table: a head
// of the columns' titles unless the view hides it, then the records in
// their orderIndex order. A text cell is the fragment its value names.
func (r *renderer) table(n *document.Node) {
	view := obj(n.Data, "view")
	defs := obj(n.Data, "definition")
	var cols []column
	ids := strs(view["columns"])
	if len(ids) == 0 {
		// No view to order them: the definitions in a stable order.
		for id := range defs {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	for _, id := range ids {
		def, ok := defs[id].(map[string]any)
		if !ok {
			continue
		}
		c := column{id: id, title: str(def, "title"), typ: str(def, "type"), def: def}
		switch str(def, "textAlignment") {
		case "center":
			c.align = "align-center"
		case "right":
			c.align = "align-right"
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		return
	}
	var recs []record
	for id, v := range obj(n.Data, "records") {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		recs = append(recs, record{id: id, order: str(m, "orderIndex"), values: obj(m, "values")})
	}
	slices.SortFunc(recs, func(a, b record) int {
		if c := strings.Compare(a.order, b.order); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})

	// A wide table scrolls in its box, which must then be reachable by
	// keyboard.
	r.b.WriteString("<div class=\"table\" tabindex=\"0\"><table>\n")
	if !boolean(view, "hideHeader") && !boolean(view, "hideColumnTitle") {
		r.b.WriteString("<thead>\n<tr>")
		for _, c := range cols {
			r.cellOpen("th", c.align)
			r.text(c.title)
			r.b.WriteString("</th>")
		}
		r.b.WriteString("</tr>\n</thead>\n")
	}
	r.b.WriteString("<tbody>\n")
	for _, rec := range recs {
		r.b.WriteString("<tr>")
		for _, c := range cols {
			r.cellOpen("td", c.align)
			r.cell(n, c, rec.values[c.id])
			r.b.WriteString("</td>")
		}
		r.b.WriteString("</tr>\n")
	}
	r.b.WriteString("</tbody>\n</table></div>\n")
}

func (r *renderer) cellOpen(tag, align string) {
	r.b.WriteByte('<')
	r.b.WriteString(tag)
	if align != "" {
		r.b.WriteString(` class="`)
		r.b.WriteString(align)
		r.b.WriteByte('"')
	}
	r.b.WriteByte('>')
}

// cell writes a record's value v of column c, as the column's type reads
// it.
func (r *renderer) cell(table *document.Node, c column, v any) {
	switch c.typ {
	case "number":
		if f, ok := number(v); ok {
			r.text(formatNumber(f))
		}
	case "checkbox":
		if b, _ := v.(bool); b {
			r.b.WriteString(`<span aria-hidden="true">✓</span><span class="visually-hidden">Yes</span>`)
		} else {
			r.b.WriteString(`<span class="visually-hidden">No</span>`)
		}
	case "select":
		r.selectLabels(c.def, v)
	case "rating":
		r.rating(c.def, v)
	case "content-ref":
		if ref, ok := refOf(v); ok {
			if href, ok := r.link(ref); ok {
				r.anchorTo(href, "", func() { r.text(refText(ref, href)) })
			}
		}
	case "files":
		written := 0
		for _, id := range strs(v) {
			ref := Ref{Kind: "file", File: id}
			if href, ok := r.link(ref); ok {
				if written > 0 {
					r.b.WriteString(", ")
				}
				written++
				r.anchorTo(href, "", func() { r.text(refText(ref, href)) })
			}
		}
	case "image":
		ref, ok := refOf(v)
		if !ok {
			if m, isMap := v.(map[string]any); isMap {
				ref, ok = refOf(m["ref"])
			}
		}
		if ok {
			if img, ok := r.image(ref); ok {
				r.img(img, "")
			}
		}
	case "users":
		// User IDs: nothing a reader can read without their names.
	default:
		s, isString := v.(string)
		if !isString {
			if f, ok := number(v); ok {
				r.text(formatNumber(f))
			}
			return
		}
		if f := namedFragment(table, s); f != nil {
			r.item(f.Nodes, nil, nil)
			return
		}
		r.text(s)
	}
}

// namedFragment returns the fragment of n named name, nil for none.
func namedFragment(n *document.Node, name string) *document.Node {
	if name == "" {
		return nil
	}
	for _, f := range n.Fragments {
		if f != nil && f.Fragment == name {
			return f
		}
	}
	return nil
}

// selectLabels writes the labels of a select cell's options.
func (r *renderer) selectLabels(def map[string]any, v any) {
	values := strs(v)
	if s, ok := v.(string); ok {
		values = []string{s}
	}
	labels := map[string]string{}
	if opts, ok := def["options"].([]any); ok {
		for _, o := range opts {
			if m, ok := o.(map[string]any); ok {
				labels[str(m, "value")] = str(m, "label")
			}
		}
	}
	for i, val := range values {
		if i > 0 {
			r.b.WriteString(", ")
		}
		if l, ok := labels[val]; ok && l != "" {
			r.text(l)
		} else {
			r.text(val)
		}
	}
}

// rating writes a rating as stars for the eye and "n out of max" for a
// screen reader.
func (r *renderer) rating(def map[string]any, v any) {
	n, ok := integer(v)
	if !ok {
		return
	}
	most, ok := integer(def["max"])
	if !ok || most <= 0 || most > 10 {
		most = 5
	}
	n = min(max(n, 0), most)
	r.b.WriteString(`<span class="rating" aria-hidden="true">`)
	r.b.WriteString(strings.Repeat("★", n))
	r.b.WriteString(strings.Repeat("☆", most-n))
	r.b.WriteString(`</span><span class="visually-hidden">`)
	r.text(formatNumber(float64(n)) + " out of " + formatNumber(float64(most)))
	r.b.WriteString(`</span>`)
}

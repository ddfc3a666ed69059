package document

import (
	"strconv"

	east "github.com/yuin/goldmark/extension/ast"
)

// table converts a GFM table into a table block with a grid view. Each
// header cell is a text column whose title is the cell's plain text; each
// body cell is a fragment of one paragraph that its record's value names,
// as GitBook stores rich text cells. IDs are derived from positions
// (column "c1", record "r1", fragment "r1c1") so the output is stable.
func (c *converter) table(t *east.Table) *Node {
	var columns []any
	definition := map[string]any{}
	records := map[string]any{}
	fragments := []*Node{}
	row := 0
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		if _, ok := r.(*east.TableHeader); ok {
			col := 0
			for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
				col++
				id := "c" + strconv.Itoa(col)
				columns = append(columns, id)
				definition[id] = map[string]any{
					"id": id, "title": c.plain(cell), "type": "text",
					"textAlignment": alignment(cell.(*east.TableCell).Alignment),
				}
			}
			continue
		}
		row++
		rid := "r" + strconv.Itoa(row)
		values := map[string]any{}
		col := 0
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			col++
			name := rid + "c" + strconv.Itoa(col)
			values["c"+strconv.Itoa(col)] = name
			fragments = append(fragments, &Node{
				Object: "fragment", Fragment: name, Nodes: []*Node{paragraph(c.inlines(cell))},
			})
		}
		records[rid] = map[string]any{"orderIndex": orderIndex(row - 1), "values": values}
	}
	if columns == nil {
		columns = []any{}
	}
	n := voidBlock("table", map[string]any{
		"view":       map[string]any{"type": "grid", "columns": columns, "hideHeader": false},
		"records":    records,
		"definition": definition,
	})
	n.Fragments = fragments
	return n
}

// tableParagraphs renders a table as one paragraph per row, cells separated
// by " | ", where the spec allows no table block (in a quote).
func (c *converter) tableParagraphs(t *east.Table) []*Node {
	var out []*Node
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var ps []piece
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			if cell != r.FirstChild() {
				ps = append(ps, piece{leaf: newLeaf(" | ", nil)})
			}
			c.collect(cell, &ps)
		}
		out = append(out, paragraph(assemble(ps)))
	}
	return out
}

func alignment(a east.Alignment) string {
	switch a {
	case east.AlignCenter:
		return "center"
	case east.AlignRight:
		return "right"
	default:
		return "left"
	}
}

// orderIndex returns the i-th of an increasing sequence of fractional
// indexes, the sort keys GitBook gives table records: "a0" … "az", then
// "b00" … "bzz" and so on, the letter giving the number of base-62 digits so
// that keys sort as strings.
func orderIndex(i int) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	n, size := 1, len(digits)
	for i >= size {
		i -= size
		n++
		size *= len(digits)
	}
	b := make([]byte, n)
	for k := n - 1; k >= 0; k-- {
		b[k] = digits[i%len(digits)]
		i /= len(digits)
	}
	return string(rune('a'+n-1)) + string(b)
}

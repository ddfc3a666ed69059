package render

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/document"
)

// A node's data is a map of JSON values: Go values when the document comes
// from document.FromMarkdown (int, bool, map[string]any, []any), decoded
// JSON when it was read from JSON (float64, json.Number). The accessors below
// accept both and give the zero value for anything else.

func str(data map[string]any, key string) string {
	s, _ := data[key].(string)
	return s
}

func obj(data map[string]any, key string) map[string]any {
	m, _ := data[key].(map[string]any)
	return m
}

func boolean(data map[string]any, key string) bool {
	v, _ := data[key].(bool)
	return v
}

// number returns a JSON number as a float64.
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	}
	return 0, false
}

// integer returns a JSON number that is a whole number within int's range.
func integer(v any) (int, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// formatNumber writes a number as a reader expects it: 3, 2.5, -0.125.
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// strs returns a JSON array of strings, skipping what is not a string.
func strs(v any) []string {
	switch v := v.(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// refOf reads a content reference ({kind, url, page, anchor, file}).
func refOf(v any) (Ref, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Ref{}, false
	}
	ref := Ref{Kind: str(m, "kind"), URL: str(m, "url"), Page: str(m, "page"), Anchor: str(m, "anchor"), File: str(m, "file")}
	return ref, ref.Kind != ""
}

// fragment returns the fragment of n named name (by its name or, as some
// documents write it, its type).
func fragment(n *document.Node, name string) *document.Node {
	for _, f := range n.Fragments {
		if f != nil && (f.Fragment == name || f.Type == name) {
			return f
		}
	}
	return nil
}

// plainText returns the text of nodes as a reader sees it, without markup:
// leaves, the content of inlines, an image's alt text; then, for nodes
// whose type it does not know, their fragments.
func plainText(nodes []*document.Node) string {
	var b strings.Builder
	writePlain(&b, nodes)
	return b.String()
}

func writePlain(b *strings.Builder, nodes []*document.Node) {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		for _, l := range n.Leaves {
			if l != nil {
				b.WriteString(l.Text)
			}
		}
		switch n.Type {
		case "inline-image":
			b.WriteString(str(n.Data, "alt"))
		case "emoji":
			b.WriteString(emoji(str(n.Data, "code")))
		}
		writePlain(b, n.Nodes)
	}
}

// textOf is the text of a node of a kind the renderer does not know: its
// nodes' text and then its fragments', each fragment after a space.
func textOf(n *document.Node) string {
	var b strings.Builder
	writePlain(&b, n.Nodes)
	for _, f := range n.Fragments {
		if f == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		writePlain(&b, f.Nodes)
	}
	return strings.TrimSpace(b.String())
}

// emoji returns the character(s) of an emoji's code: hexadecimal code
// points joined by "-", as "1f44b" or "1f468-200d-1f4bb". A malformed code
// gives "": it is not text a reader should see.
func emoji(code string) string {
	if code == "" || len(code) > 64 {
		return ""
	}
	var b strings.Builder
	for part := range strings.SplitSeq(code, "-") {
		v, err := strconv.ParseUint(part, 16, 32)
		if err != nil || v < 0x20 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (v >= 0x7F && v < 0xA0) {
			return ""
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}

// collapseSpace returns s with runs of white space as one space, trimmed.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

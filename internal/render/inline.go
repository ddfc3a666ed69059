package render

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/document"
)

// markTag is the element of a text mark, "" for none. A colour mark has
// none: document.Mark keeps no data, so which colour is not known, and the
// page's own colours keep their contrast.
func markTag(m *document.Mark) string {
	switch m.Type {
	case "bold":
		return "strong"
	case "italic":
		return "em"
	case "strikethrough":
		return "s"
	case "code":
		return "code"
	case "keyboard":
		return "kbd"
	case "superscript":
		return "sup"
	case "subscript":
		return "sub"
	}
	return ""
}

// inlines writes inline content: texts and inlines.
func (r *renderer) inlines(nodes []*document.Node) { r.inlinesIn(nodes, nil) }

// inlinesIn writes inline content inside the mark elements base, which are
// open already and stay open. Consecutive leaves share the elements of the
// marks they have in common, and a link keeps open those its whole text
// has, as a hand would write "<strong>bold <em>both</em></strong>" and
// "<strong>see <a>this</a> now</strong>".
func (r *renderer) inlinesIn(nodes []*document.Node, base []string) {
	open := base
	for _, n := range nodes {
		if n == nil {
			continue
		}
		switch n.Object {
		case "text":
			for _, l := range n.Leaves {
				if l == nil || l.Text == "" {
					continue
				}
				open = r.setMarks(open, within(base, leafTags(l)))
				r.leafText(l.Text)
			}
		case "inline":
			keep := commonPrefix(open, within(base, contentTags(n)))
			open = r.setMarks(open, keep)
			r.inline(n, keep)
		default:
			// A block where inlines belong: its text.
			open = r.setMarks(open, base)
			r.text(textOf(n))
		}
	}
	r.setMarks(open, base)
}

// contentTags returns the mark elements that every leaf of an inline's
// text has, outermost first; none for an inline without text.
func contentTags(n *document.Node) []string {
	var tags []string
	first := true
	for _, c := range n.Nodes {
		if c == nil || c.Object != "text" {
			continue
		}
		for _, l := range c.Leaves {
			if l == nil || l.Text == "" {
				continue
			}
			if first {
				tags, first = leafTags(l), false
				continue
			}
			tags = commonPrefix(tags, leafTags(l))
		}
	}
	return tags
}

// within returns tags as they can be written inside base: tags if it
// starts with base, else base and the rest of tags.
func within(base, tags []string) []string {
	if len(base) == 0 || len(commonPrefix(base, tags)) == len(base) {
		return tags
	}
	out := append([]string(nil), base...)
	for _, t := range tags {
		if !contains(base, t) {
			out = append(out, t)
		}
	}
	return out
}

func commonPrefix(a, b []string) []string {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	return a[:k:k]
}

// leafTags returns the elements of a leaf's marks, outermost first, each
// once.
func leafTags(l *document.Leaf) []string {
	var tags []string
	for _, m := range l.Marks {
		if m == nil {
			continue
		}
		if tag := markTag(m); tag != "" && !contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	return tags
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// setMarks closes the open elements that want does not start with and
// opens the rest of want; it returns the elements now open.
func (r *renderer) setMarks(open, want []string) []string {
	k := 0
	for k < len(open) && k < len(want) && open[k] == want[k] {
		k++
	}
	for i := len(open) - 1; i >= k; i-- {
		r.b.WriteString("</")
		r.b.WriteString(open[i])
		r.b.WriteByte('>')
	}
	open = open[:k]
	for _, tag := range want[k:] {
		r.b.WriteByte('<')
		r.b.WriteString(tag)
		r.b.WriteByte('>')
		open = append(open, tag)
	}
	return open
}

// leafText writes a leaf's text; its line breaks are hard breaks.
func (r *renderer) leafText(s string) {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			r.text(s)
			return
		}
		r.text(s[:i])
		r.b.WriteString("<br>\n")
		s = s[i+1:]
	}
}

// inline writes an inline node inside the mark elements base.
func (r *renderer) inline(n *document.Node, base []string) {
	switch n.Type {
	case "link":
		ref, _ := refOf(n.Data["ref"])
		r.anchor(ref, "", func() { r.inlinesIn(n.Nodes, base) })
	case "inline-image":
		r.inlineImage(n)
	case "emoji":
		r.text(emoji(str(n.Data, "code")))
	case "inline-math":
		r.b.WriteString(`<code class="math">`)
		r.text(str(n.Data, "formula"))
		r.b.WriteString(`</code>`)
	case "mention":
		r.mention(n)
	case "button":
		r.button(n)
	case "annotation":
		r.annotation(n, base)
	case "icon", "expression":
		// An icon by name and an expression over the site's variables
		// have nothing a reader could use without their resolution.
	default:
		r.inlinesIn(n.Nodes, base)
		if len(n.Fragments) > 0 {
			var b strings.Builder
			for _, f := range n.Fragments {
				if f != nil {
					writePlain(&b, f.Nodes)
				}
			}
			if t := strings.TrimSpace(b.String()); t != "" {
				r.b.WriteByte(' ')
				r.text(t)
			}
		}
	}
}

// anchor writes an <a> to ref around content, with class cls if not "";
// without a usable href, or inside another link, content alone.
func (r *renderer) anchor(ref Ref, cls string, content func()) {
	href, ok := "", false
	if r.inLink == 0 {
		href, ok = r.link(ref)
	}
	if !ok {
		content()
		return
	}
	r.anchorTo(href, cls, content)
}

// anchorTo writes an <a> to a checked href around content.
func (r *renderer) anchorTo(href, cls string, content func()) {
	r.b.WriteString(`<a`)
	if cls != "" {
		r.b.WriteString(` class="`)
		r.b.WriteString(cls)
		r.b.WriteByte('"')
	}
	r.b.WriteString(` href="`)
	r.attr(href)
	r.b.WriteByte('"')
	if external(href) {
		r.b.WriteString(` rel="noopener"`)
	}
	r.b.WriteByte('>')
	r.inLink++
	content()
	r.inLink--
	r.b.WriteString(`</a>`)
}

func (r *renderer) inlineImage(n *document.Node) {
	ref, _ := refOf(n.Data["ref"])
	alt := str(n.Data, "alt")
	img, ok := r.image(ref)
	if !ok {
		r.text(alt)
		return
	}
	r.img(img, alt)
}

// img writes an image element; its width and height, when known, let the
// browser keep its place before it loads.
func (r *renderer) img(img Image, alt string) {
	r.b.WriteString(`<img src="`)
	r.attr(img.Src)
	r.b.WriteString(`" alt="`)
	r.attr(alt)
	r.b.WriteByte('"')
	if img.Width > 0 && img.Height > 0 {
		r.b.WriteString(` width="`)
		r.b.WriteString(strconv.Itoa(img.Width))
		r.b.WriteString(`" height="`)
		r.b.WriteString(strconv.Itoa(img.Height))
		r.b.WriteByte('"')
	}
	r.b.WriteString(` loading="lazy" decoding="async">`)
}

// refText is what a reference shows when the document gives it no text: a
// URL itself, else the last segment of the href it resolves to (a file's
// or a page's name), percent-decoded.
func refText(ref Ref, href string) string {
	if ref.Kind == "url" && ref.URL != "" {
		return ref.URL
	}
	p := href
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if base := path.Base(strings.TrimSuffix(p, "/")); base != "." && base != "/" && base != "" {
		if dec, err := url.PathUnescape(base); err == nil {
			return dec
		}
		return base
	}
	return href
}

// mention writes a mention of a page, a file or a URL as a link. A mention
// of a person, a space or anything else Options cannot resolve shows
// nothing: the document holds no name to show.
func (r *renderer) mention(n *document.Node) {
	ref, ok := refOf(n.Data["ref"])
	if !ok {
		return
	}
	href, ok := "", false
	if r.inLink == 0 {
		href, ok = r.link(ref)
	}
	if !ok {
		if ref.Kind == "url" {
			r.text(ref.URL)
		}
		return
	}
	r.anchorTo(href, "mention", func() { r.text(refText(ref, href)) })
}

// button writes a button as the link it is.
func (r *renderer) button(n *document.Node) {
	label := str(n.Data, "label")
	ref, _ := refOf(n.Data["ref"])
	cls := "button"
	if str(n.Data, "kind") == "primary" {
		cls = "button button-primary"
	}
	r.anchor(ref, cls, func() { r.text(label) })
}

// annotation writes an annotated text followed by a numbered reference to
// its body, which the notes after the document hold: a footnote, readable
// without script.
func (r *renderer) annotation(n *document.Node, base []string) {
	r.inlinesIn(n.Nodes, base)
	body := fragment(n, "annotation-body")
	if body == nil && len(n.Fragments) > 0 {
		body = n.Fragments[0]
	}
	if body == nil || len(body.Nodes) == 0 || r.inLink > 0 {
		return
	}
	r.notes = append(r.notes, body)
	num := strconv.Itoa(len(r.notes))
	r.b.WriteString(`<sup class="note-ref"><a id="note-ref:`)
	r.b.WriteString(num)
	r.b.WriteString(`" href="#note:`)
	r.b.WriteString(num)
	r.b.WriteString(`">`)
	r.b.WriteString(num)
	r.b.WriteString(`</a></sup>`)
}

// noteList writes the bodies of the document's annotations, in order; a
// body may add notes of its own, which follow.
func (r *renderer) noteList() {
	if len(r.notes) == 0 {
		return
	}
	r.b.WriteString("<ol class=\"notes\">\n")
	for i := 0; i < len(r.notes); i++ {
		num := strconv.Itoa(i + 1)
		r.b.WriteString(`<li id="note:`)
		r.b.WriteString(num)
		r.b.WriteString(`">`)
		back := func() {
			r.b.WriteString(` <a class="note-back" href="#note-ref:`)
			r.b.WriteString(num)
			r.b.WriteString(`"><span aria-hidden="true">↩</span><span class="visually-hidden">Back to the text</span></a>`)
		}
		r.item(r.notes[i].Nodes, nil, back)
		r.b.WriteString("</li>\n")
	}
	r.b.WriteString("</ol>\n")
}

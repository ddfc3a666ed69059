package render

import (
	"strconv"
	"strings"

	"github.com/bindery/bindery/internal/document"
)

// blocks writes a sequence of blocks; top is set for the document's own.
func (r *renderer) blocks(nodes []*document.Node, top bool) {
	for _, n := range nodes {
		if n != nil {
			r.block(n, top)
		}
	}
}

// block writes one block. Each case is a type of the GitBook spec; anything
// else is written as its child blocks or its text (see unknown).
func (r *renderer) block(n *document.Node, top bool) {
	if n.Object == "text" || n.Object == "inline" {
		// Inline content where a block belongs: a paragraph of it.
		r.b.WriteString("<p>")
		r.inlines([]*document.Node{n})
		r.b.WriteString("</p>\n")
		return
	}
	switch n.Type {
	case "paragraph":
		r.paragraph(n, nil, nil)
	case "heading-1", "heading-2", "heading-3":
		r.heading(n, top)
	case "divider":
		r.b.WriteString("<hr>\n")
	case "code":
		r.code(n)
	case "blockquote":
		r.wrap("<blockquote>\n", n.Nodes, "</blockquote>\n")
	case "list-ordered", "list-unordered", "list-tasks":
		r.list(n)
	case "table":
		r.table(n)
	case "images":
		r.images(n.Nodes)
	case "image":
		r.images([]*document.Node{n})
	case "hint":
		r.hint(n)
	case "tabs":
		r.tabs(n)
	case "expandable":
		r.expandable(n)
	case "embed":
		r.card(Ref{Kind: "url", URL: str(n.Data, "url")}, "embed")
	case "integration":
		// An integration's block needs the integration to run; its URL,
		// when it was made from one, is what a reader can follow.
		if u := str(n.Data, "url"); u != "" {
			r.card(Ref{Kind: "url", URL: u}, "embed")
		}
	case "content-ref":
		if ref, ok := refOf(n.Data["ref"]); ok {
			r.card(ref, "content-ref")
		}
	case "file":
		r.file(n)
	case "drawing":
		r.drawing(n)
	case "math":
		r.b.WriteString(`<p class="math"><code>`)
		r.text(str(n.Data, "formula"))
		r.b.WriteString("</code></p>\n")
	case "swagger", "openapi-operation", "openapi-schemas", "openapi-webhook":
		r.openAPI(n)
	case "stepper":
		r.stepper(n)
	case "columns":
		r.columns(n)
	case "reusable-content":
		// Its content lives in another document, which Options cannot
		// give: nothing rather than a broken block.
	default:
		// "if" (adaptive content, whose condition needs a visitor's
		// claims), parts found out of place (list-item, tabs-item, …) and
		// types this renderer does not know.
		r.unknown(n)
	}
}

// unknown writes a block of a type the renderer does not render as such:
// its child blocks, else its inline content in a paragraph; then its
// fragments' blocks.
func (r *renderer) unknown(n *document.Node) {
	switch {
	case hasBlocks(n.Nodes):
		r.blocks(n.Nodes, false)
	case !isEmpty(n.Nodes) || len(n.Leaves) > 0:
		// Leaves belong to texts; a block that has them is read as one.
		nodes := n.Nodes
		if len(n.Leaves) > 0 {
			nodes = append([]*document.Node{{Object: "text", Leaves: n.Leaves}}, nodes...)
		}
		if !isEmpty(nodes) {
			r.b.WriteString("<p>")
			r.inlines(nodes)
			r.b.WriteString("</p>\n")
		}
	}
	for _, f := range n.Fragments {
		if f != nil {
			r.blocks(f.Nodes, false)
		}
	}
}

func hasBlocks(nodes []*document.Node) bool {
	for _, n := range nodes {
		if n != nil && n.Object == "block" {
			return true
		}
	}
	return false
}

// wrap writes blocks between open and close.
func (r *renderer) wrap(open string, nodes []*document.Node, close string) {
	r.b.WriteString(open)
	r.blocks(nodes, false)
	r.b.WriteString(close)
}

// alignClass is the class of a paragraph's or heading's data.align.
func alignClass(data map[string]any) string {
	switch str(data, "align") {
	case "center":
		return "align-center"
	case "end":
		return "align-end"
	}
	return ""
}

// paragraph writes a paragraph; before and after, when not nil, write
// content at its start and end (a task's state, a note's way back). An
// empty paragraph, which editors leave as spacing, is left out.
func (r *renderer) paragraph(n *document.Node, before, after func()) {
	if before == nil && after == nil && isEmpty(n.Nodes) {
		return
	}
	r.b.WriteString("<p")
	if c := alignClass(n.Data); c != "" {
		r.b.WriteString(` class="`)
		r.b.WriteString(c)
		r.b.WriteByte('"')
	}
	r.b.WriteByte('>')
	call(before)
	r.inlines(n.Nodes)
	call(after)
	r.b.WriteString("</p>\n")
}

func call(f func()) {
	if f != nil {
		f()
	}
}

// isEmpty reports whether inline content shows nothing: texts without
// text, and no inline.
func isEmpty(nodes []*document.Node) bool {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		if n.Object != "text" {
			return false
		}
		for _, l := range n.Leaves {
			if l != nil && l.Text != "" {
				return false
			}
		}
	}
	return true
}

// heading writes heading-1 to heading-3 as <h2> to <h4>, moved up so that
// the document's highest heading is an <h2> and never deeper than one
// level below the heading before it: the page's title is its <h1>. A top-level heading has its anchor as id and a link to
// itself; one whose title gives no anchor (no letter or digit) has neither
// but still takes its turn, as in Sections.
func (r *renderer) heading(n *document.Node, top bool) {
	level := int(n.Type[len(n.Type)-1]-'0') - r.shift
	html := min(level+1, r.prev+1)
	r.prev = html
	tag := "h" + strconv.Itoa(html)
	r.b.WriteByte('<')
	r.b.WriteString(tag)
	if c := alignClass(n.Data); c != "" {
		r.b.WriteString(` class="`)
		r.b.WriteString(c)
		r.b.WriteByte('"')
	}
	id := ""
	if top {
		title := plainText(n.Nodes)
		id = r.anchors.Next(title)
		if id != "" {
			r.headings = append(r.headings, Heading{ID: id, Text: collapseSpace(title), Level: level})
			r.b.WriteString(` id="`)
			r.attr(id)
			r.b.WriteByte('"')
		}
	}
	r.b.WriteByte('>')
	r.inlines(n.Nodes)
	if id != "" {
		r.b.WriteString(`<a class="anchor" href="#`)
		r.attr(id)
		r.b.WriteString(`" aria-label="Link to this section">#</a>`)
	}
	r.b.WriteString("</")
	r.b.WriteString(tag)
	r.b.WriteString(">\n")
}

// list writes an ordered, unordered or task list. A task's state is a
// checkmark for the eye and a word for a screen reader, not a form
// control: the reader cannot change it.
func (r *renderer) list(n *document.Node) {
	tag := "ul"
	switch n.Type {
	case "list-ordered":
		tag = "ol"
		r.b.WriteString("<ol")
		if start, ok := integer(n.Data["start"]); ok && start != 1 {
			r.b.WriteString(` start="`)
			r.b.WriteString(strconv.Itoa(start))
			r.b.WriteByte('"')
		}
		r.b.WriteString(">\n")
	case "list-tasks":
		r.b.WriteString("<ul class=\"tasks\">\n")
	default:
		r.b.WriteString("<ul>\n")
	}
	for _, it := range n.Nodes {
		if it == nil {
			continue
		}
		if it.Type != "list-item" {
			// Not an item: an item of it, so the list stays a list.
			r.b.WriteString("<li>")
			r.item([]*document.Node{it}, nil, nil)
			r.b.WriteString("</li>\n")
			continue
		}
		var before func()
		if n.Type == "list-tasks" {
			if boolean(it.Data, "checked") {
				r.b.WriteString(`<li class="done">`)
				before = func() {
					r.b.WriteString(`<span class="check" aria-hidden="true">✓</span><span class="visually-hidden">Done:</span> `)
				}
			} else {
				r.b.WriteString(`<li>`)
				before = func() {
					r.b.WriteString(`<span class="check" aria-hidden="true"></span><span class="visually-hidden">To do:</span> `)
				}
			}
		} else {
			r.b.WriteString("<li>")
		}
		r.item(it.Nodes, before, nil)
		r.b.WriteString("</li>\n")
	}
	r.b.WriteString("</")
	r.b.WriteString(tag)
	r.b.WriteString(">\n")
}

// item writes the content of a list item, a table cell or a note: a lone
// paragraph as its inline content, as in a tight list; else its blocks,
// each on its own line. before and after write content at its start and
// end, inside the first and last paragraph when there is one.
func (r *renderer) item(nodes []*document.Node, before, after func()) {
	var ns []*document.Node
	for _, n := range nodes {
		if n != nil && !(n.Type == "paragraph" && isEmpty(n.Nodes) && len(nodes) > 1) {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		call(before)
		call(after)
		return
	}
	if ns[0].Type == "paragraph" && onlyLists(ns[1:]) {
		// A tight item: its text, then any nested lists.
		call(before)
		r.inlines(ns[0].Nodes)
		if len(ns) == 1 {
			call(after)
			return
		}
		ns = ns[1:]
		before = nil
	}
	r.b.WriteByte('\n')
	for i, n := range ns {
		var b, a func()
		if i == 0 {
			b = before
		}
		if i == len(ns)-1 {
			a = after
		}
		if n.Type == "paragraph" {
			r.paragraph(n, b, a)
			continue
		}
		call(b)
		r.block(n, false)
		call(a)
	}
}

func onlyLists(nodes []*document.Node) bool {
	for _, n := range nodes {
		switch n.Type {
		case "list-ordered", "list-unordered", "list-tasks":
		default:
			return false
		}
	}
	return true
}

// hintLabel names a hint's style for a screen reader (the eye sees its
// colour); "" for a style the spec does not have.
func hintLabel(style string) string {
	switch style {
	case "info":
		return "Info"
	case "success":
		return "Success"
	case "warning":
		return "Warning"
	case "danger":
		return "Danger"
	}
	return ""
}

// hint writes a hint in its style, info when it has none.
func (r *renderer) hint(n *document.Node) {
	style := str(n.Data, "style")
	label := hintLabel(style)
	if label == "" {
		style, label = "info", "Info"
	}
	r.b.WriteString(`<div class="hint hint-`)
	r.b.WriteString(style)
	r.b.WriteString(`" role="note" aria-label="`)
	r.b.WriteString(label)
	r.b.WriteString("\">\n")
	r.blocks(n.Nodes, false)
	r.b.WriteString("</div>\n")
}

// tabs writes each tab as a disclosure, the first open: all of them work
// without script, and each can be read on its own.
func (r *renderer) tabs(n *document.Node) {
	r.b.WriteString("<div class=\"tabs\">\n")
	i := 0
	for _, tab := range n.Nodes {
		if tab == nil {
			continue
		}
		if tab.Type != "tabs-item" {
			r.block(tab, false)
			continue
		}
		i++
		r.b.WriteString(`<details class="tab"`)
		if i == 1 {
			r.b.WriteString(" open")
		}
		r.b.WriteString("><summary>")
		if t := str(tab.Data, "title"); t != "" {
			r.text(t)
		} else {
			r.b.WriteString("Tab ")
			r.b.WriteString(strconv.Itoa(i))
		}
		r.b.WriteString("</summary>\n")
		r.blocks(tab.Nodes, false)
		r.b.WriteString("</details>\n")
	}
	r.b.WriteString("</div>\n")
}

// expandable writes a disclosure of its title and body fragments. Links in
// the title are text: the summary is itself the control.
func (r *renderer) expandable(n *document.Node) {
	r.b.WriteString(`<details class="expandable"><summary>`)
	title := fragment(n, "expandable-title")
	if title != nil && !isEmpty(inlineContent(title.Nodes)) {
		r.inLink++
		r.inlines(inlineContent(title.Nodes))
		r.inLink--
	} else {
		r.b.WriteString("Details")
	}
	r.b.WriteString("</summary>\n")
	if body := fragment(n, "expandable-body"); body != nil {
		r.blocks(body.Nodes, false)
	} else {
		r.blocks(n.Nodes, false)
	}
	r.b.WriteString("</details>\n")
}

// inlineContent returns the inline content of a fragment that holds a
// paragraph (a title), or the fragment's nodes if they are inline already.
func inlineContent(nodes []*document.Node) []*document.Node {
	var out []*document.Node
	for _, n := range nodes {
		if n == nil {
			continue
		}
		if n.Object == "block" {
			out = append(out, n.Nodes...)
			continue
		}
		out = append(out, n)
	}
	return out
}

// card writes a block that is a link to ref, showing where it leads: an
// embed or a content reference. Without a usable href it is that text in
// a paragraph.
func (r *renderer) card(ref Ref, cls string) {
	href, ok := r.link(ref)
	if !ok {
		if ref.Kind == "url" && ref.URL != "" {
			r.b.WriteString("<p>")
			r.text(ref.URL)
			r.b.WriteString("</p>\n")
		}
		return
	}
	r.anchorTo(href, cls, func() { r.text(refText(ref, href)) })
	r.b.WriteByte('\n')
}

// file writes a file block as a link to the file.
func (r *renderer) file(n *document.Node) {
	ref, ok := refOf(n.Data["ref"])
	if !ok {
		return
	}
	href, ok := r.link(ref)
	if !ok {
		return
	}
	r.b.WriteString(`<p class="file">`)
	r.anchorTo(href, "", func() { r.text(refText(ref, href)) })
	r.b.WriteString("</p>\n")
}

// drawing writes a drawing as the image it is stored as.
func (r *renderer) drawing(n *document.Node) {
	ref, ok := refOf(n.Data["ref"])
	if !ok {
		return
	}
	img, ok := r.image(ref)
	if !ok {
		return
	}
	r.b.WriteString(`<figure class="images">`)
	r.img(img, "Drawing")
	r.b.WriteString("</figure>\n")
}

// openAPI writes an OpenAPI block as what it points to (an operation, a
// webhook, schemas) and, for a specification file or URL, a link to it.
// Rendering the operation itself needs the specification, which the
// document does not hold.
func (r *renderer) openAPI(n *document.Node) {
	var what string
	switch n.Type {
	case "openapi-schemas":
		for i, s := range strs(n.Data["schemas"]) {
			if i > 0 {
				what += ", "
			}
			what += s
		}
	case "openapi-webhook":
		what = strings.ToUpper(str(n.Data, "method")) + " " + str(n.Data, "name")
	default:
		what = strings.ToUpper(str(n.Data, "method")) + " " + str(n.Data, "path")
	}
	ref, _ := refOf(n.Data["ref"])
	href, linked := "", false
	if ref.Kind == "url" || ref.Kind == "file" {
		href, linked = r.link(ref)
	}
	what = collapseSpace(what)
	if what == "" && !linked {
		return
	}
	r.b.WriteString(`<p class="openapi">`)
	if what != "" {
		r.b.WriteString("<code>")
		r.text(what)
		r.b.WriteString("</code>")
	}
	if linked {
		if what != "" {
			r.b.WriteByte(' ')
		}
		r.anchorTo(href, "", func() { r.text(refText(ref, href)) })
	}
	r.b.WriteString("</p>\n")
}

// stepper writes the steps as an ordered list.
func (r *renderer) stepper(n *document.Node) {
	r.b.WriteString("<ol class=\"stepper\">\n")
	for _, step := range n.Nodes {
		if step == nil {
			continue
		}
		r.b.WriteString(`<li class="step">`)
		if step.Type == "stepper-step" {
			r.item(step.Nodes, nil, nil)
		} else {
			r.item([]*document.Node{step}, nil, nil)
		}
		r.b.WriteString("</li>\n")
	}
	r.b.WriteString("</ol>\n")
}

// columns writes columns side by side (CSS wraps them on a narrow screen).
func (r *renderer) columns(n *document.Node) {
	r.b.WriteString("<div class=\"columns\">\n")
	for _, col := range n.Nodes {
		if col == nil {
			continue
		}
		r.b.WriteString("<div class=\"column\">\n")
		if col.Type == "column" {
			r.blocks(col.Nodes, false)
		} else {
			r.block(col, false)
		}
		r.b.WriteString("</div>\n")
	}
	r.b.WriteString("</div>\n")
}

package pdf

import (
	"strconv"
	"strings"

	"github.com/go-pdf/fpdf"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/bindery/bindery/internal/document"
)

// renderer draws markdown onto the PDF. Every block starts at the left
// margin of a fresh line and ends on a fresh line below its own spacing;
// lists and quotes indent their content by moving the left margin.
type renderer struct {
	pdf    *fpdf.Fpdf
	encode func(string) string
	source []byte
	// color is the text color of the current block (gray in quotes).
	color int
}

// style is the format of a run of text.
type style struct {
	size                       float64
	bold, italic, code, strike bool
	// href is the link target; link text is underlined in blue.
	href string
}

func (r *renderer) documentTitle(title string) {
	r.pdf.SetFont("Helvetica", "B", 24)
	r.pdf.SetTextColor(0, 0, 0)
	r.pdf.MultiCell(0, 24*lineFactor, r.encode(title), "", "L", false)
	y := r.pdf.GetY() + 2
	w, _ := r.pdf.GetPageSize()
	r.pdf.SetDrawColor(200, 200, 200)
	r.pdf.Line(marginLeft, y, w-marginRight, y)
	r.pdf.SetY(y + 6)
}

func (r *renderer) pageTitle(title string) {
	r.pdf.SetFont("Helvetica", "B", 20)
	r.pdf.SetTextColor(0, 0, 0)
	r.pdf.MultiCell(0, 20*lineFactor, r.encode(title), "", "L", false)
	r.pdf.Ln(4)
}

func (r *renderer) markdown(markdown string) {
	r.source = []byte(markdown)
	md := goldmark.New(goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, extension.TaskList,
	))
	root := md.Parser().Parse(text.NewReader(r.source))
	r.color = 0
	r.blocks(root)
}

func (r *renderer) blocks(parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		r.block(n)
	}
}

func (r *renderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		r.paragraph(n, style{size: bodySize})
		r.pdf.Ln(2)
	case *ast.Heading:
		size := map[int]float64{1: 17, 2: 15, 3: 13}[n.Level]
		if size == 0 {
			size = 12
		}
		r.pdf.Ln(2)
		r.paragraph(n, style{size: size, bold: true})
		r.pdf.Ln(2)
	case *ast.ThematicBreak:
		left, _, right, _ := r.pdf.GetMargins()
		w, _ := r.pdf.GetPageSize()
		y := r.pdf.GetY() + 3
		r.pdf.SetDrawColor(180, 180, 180)
		r.pdf.SetLineWidth(0.3)
		r.pdf.Line(left, y, w-right, y)
		r.pdf.SetY(y + 4)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.code(n)
	case *ast.HTMLBlock:
		// Raw HTML is shown as written rather than interpreted.
		r.code(n)
	case *ast.Blockquote:
		r.quote(n)
	case *ast.List:
		r.list(n)
	case *east.Table:
		r.table(n)
	default:
		r.blocks(n)
	}
}

// paragraph writes the inline content of n as flowing text.
func (r *renderer) paragraph(n ast.Node, st style) {
	r.pdf.SetX(r.left())
	r.inlines(n, st)
	r.pdf.Ln(st.size * lineFactor)
}

func (r *renderer) code(n ast.Node) {
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(r.source))
	}
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		b.Write(h.ClosureLine.Value(r.source))
	}
	src := strings.TrimSuffix(b.String(), "\n")
	r.pdf.SetFont("Courier", "", codeSize)
	r.pdf.SetTextColor(30, 30, 30)
	r.pdf.SetFillColor(243, 244, 246)
	r.pdf.SetX(r.left())
	// Blank filled strips above and below pad the box.
	r.pdf.CellFormat(0, 1.5, "", "", 1, "", true, 0, "")
	r.pdf.MultiCell(0, codeSize*lineFactor, r.encode(src), "", "L", true)
	r.pdf.CellFormat(0, 1.5, "", "", 1, "", true, 0, "")
	r.pdf.Ln(3)
}

func (r *renderer) list(n *ast.List) {
	number := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "\u2022"
		if n.IsOrdered() {
			marker = strconv.Itoa(number) + "."
			number++
		}
		r.pdf.SetFont("Helvetica", "", bodySize)
		r.pdf.SetTextColor(r.color, r.color, r.color)
		r.pdf.SetX(r.left())
		r.pdf.CellFormat(indent, bodySize*lineFactor, r.encode(marker), "", 0, "L", false, 0, "")
		r.indented(func() {
			if item.FirstChild() == nil {
				r.pdf.Ln(bodySize * lineFactor)
			}
			r.blocks(item)
		})
	}
	r.pdf.Ln(1)
}

// quote draws a block quote indented and gray, with a bar on its left
// while it stays on one sheet.
func (r *renderer) quote(n *ast.Blockquote) {
	x := r.left() + 1.5
	page, top := r.pdf.PageNo(), r.pdf.GetY()
	r.indented(func() {
		saved := r.color
		r.color = grayText
		r.blocks(n)
		r.color = saved
	})
	if r.pdf.PageNo() == page {
		r.pdf.SetDrawColor(200, 200, 200)
		r.pdf.SetLineWidth(0.8)
		r.pdf.Line(x, top, x, r.pdf.GetY()-2)
	}
}

// indented runs draw with the left margin moved right by one indent. Past
// the middle of the sheet deeper levels stop moving, so that text always
// has room.
func (r *renderer) indented(draw func()) {
	left := r.left()
	w, _ := r.pdf.GetPageSize()
	r.pdf.SetLeftMargin(min(left+indent, w/2))
	draw()
	r.pdf.SetLeftMargin(left)
	r.pdf.SetX(left)
}

// table draws a grid of equal-width columns with the header row shaded.
// Cells hold their plain text, wrapped; a row that does not fit on the
// sheet starts the next one.
func (r *renderer) table(t *east.Table) {
	cols := len(t.Alignments)
	if cols == 0 {
		return
	}
	left, _, right, _ := r.pdf.GetMargins()
	pageW, pageH := r.pdf.GetPageSize()
	cw := (pageW - right - left) / float64(cols)
	const size = bodySize - 1
	lh := size * lineFactor
	r.pdf.SetDrawColor(200, 200, 200)
	r.pdf.SetLineWidth(0.2)
	r.pdf.SetFillColor(243, 244, 246)
	r.pdf.SetTextColor(r.color, r.color, r.color)
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		_, header := row.(*east.TableHeader)
		fontStyle := ""
		if header {
			fontStyle = "B"
		}
		r.pdf.SetFont("Helvetica", fontStyle, size)
		var texts []string
		var aligns []string
		lines := 1
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			s := r.encode(document.PlainText(r.source, cell))
			texts = append(texts, s)
			aligns = append(aligns, alignment(cell.(*east.TableCell).Alignment))
			lines = max(lines, len(r.pdf.SplitLines([]byte(s), cw)))
		}
		h := float64(lines)*lh + 2
		if r.pdf.GetY()+h > pageH-marginBottom {
			r.pdf.AddPage()
		}
		y := r.pdf.GetY()
		for i := range cols {
			x := left + float64(i)*cw
			fill := "D"
			if header {
				fill = "FD"
			}
			r.pdf.Rect(x, y, cw, h, fill)
			if i < len(texts) {
				r.pdf.SetXY(x, y+1)
				r.pdf.MultiCell(cw, lh, texts[i], "", aligns[i], false)
			}
		}
		r.pdf.SetXY(left, y+h)
	}
	r.pdf.Ln(3)
}

func alignment(a east.Alignment) string {
	switch a {
	case east.AlignCenter:
		return "C"
	case east.AlignRight:
		return "R"
	default:
		return "L"
	}
}

func (r *renderer) left() float64 {
	left, _, _, _ := r.pdf.GetMargins()
	return left
}

// inlines writes the inline content of parent in flowing mode, in st as
// its inline formatting changes it.
func (r *renderer) inlines(parent ast.Node, st style) {
	href := ""
	styled := func(f document.Format) style {
		s := st
		s.bold = s.bold || f.Has("bold")
		s.italic = s.italic || f.Has("italic")
		s.strike = s.strike || f.Has("strikethrough")
		s.code = s.code || f.Has("code")
		s.href = href
		return s
	}
	document.WalkInlines(r.source, parent, document.Inlines{
		Text: func(s string, f document.Format) { r.write(s, styled(f)) },
		Link: func(dest string, _ document.Format, content func()) {
			href = dest
			content()
			href = ""
		},
		Image: func(img *ast.Image, f document.Format) {
			s := styled(f)
			s.italic, s.href = true, ""
			r.write("[image: "+document.PlainText(r.source, img)+"]", s)
		},
	})
}

// write writes text in flowing mode in the given style.
func (r *renderer) write(s string, st style) {
	if s == "" {
		return
	}
	family, size := "Helvetica", st.size
	if st.code {
		family, size = "Courier", st.size*0.95
	}
	var fs strings.Builder
	if st.bold {
		fs.WriteByte('B')
	}
	if st.italic {
		fs.WriteByte('I')
	}
	if st.strike {
		fs.WriteByte('S')
	}
	if st.href != "" {
		fs.WriteByte('U')
	}
	r.pdf.SetFont(family, fs.String(), size)
	h := st.size * lineFactor
	switch {
	case st.href != "":
		r.pdf.SetTextColor(20, 80, 200)
		if external(st.href) {
			r.pdf.WriteLinkString(h, r.encode(s), st.href)
		} else {
			r.pdf.Write(h, r.encode(s))
		}
	case st.code:
		r.pdf.SetTextColor(150, 30, 60)
		r.pdf.Write(h, r.encode(s))
	default:
		r.pdf.SetTextColor(r.color, r.color, r.color)
		r.pdf.Write(h, r.encode(s))
	}
}

// external reports whether a link can be followed from a PDF: relative links
// between pages of the space have no target outside the site.
func external(href string) bool {
	h := strings.ToLower(href)
	return strings.HasPrefix(h, "http://") || strings.HasPrefix(h, "https://") || strings.HasPrefix(h, "mailto:")
}

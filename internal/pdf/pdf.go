// Package pdf renders pages of markdown into one PDF document, for a space's
// or a page's PDF export.
//
// It uses fpdf's core fonts (Helvetica and Courier), which encode text as
// Windows-1252: characters outside it (CJK, Cyrillic, emoji…) are printed as
// '?' rather than failing the export. Images are not fetched; they appear as
// "[image: alt]".
package pdf

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-pdf/fpdf"
)

// Page is a page to render: its title, its depth in the table of contents
// (0 for a top-level page) and its markdown.
type Page struct {
	Title    string
	Depth    int
	Markdown string
}

// Render writes a PDF of the pages in order: the document title, then each
// page with its title as a heading and its markdown below, the first page
// under the document title and each other page on a new sheet. The PDF's outline lists the pages, nested by depth. With no pages
// the PDF is one sheet holding the title.
func Render(w io.Writer, title string, pages []Page) error {
	_, err := render(w, title, pages, true)
	return err
}

// render is Render with the choice of compressing page content (tests read
// the text of uncompressed PDFs); it also returns the number of sheets.
func render(w io.Writer, title string, pages []Page, compress bool) (int, error) {
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCompression(compress)
	f.SetTitle(title, true)
	f.SetCreator("Bindery", false)
	f.SetMargins(marginLeft, marginTop, marginRight)
	f.SetAutoPageBreak(true, marginBottom)
	f.AliasNbPages("{nb}")

	r := &renderer{pdf: f, encode: cp1252(f)}
	f.SetHeaderFunc(func() {
		if f.PageNo() == 1 {
			return
		}
		f.SetFont("Helvetica", "", 8)
		f.SetTextColor(grayText, grayText, grayText)
		f.SetY(10)
		f.CellFormat(0, 5, r.encode(title), "", 0, "L", false, 0, "")
		f.SetY(marginTop)
	})
	f.SetFooterFunc(func() {
		f.SetFont("Helvetica", "", 8)
		f.SetTextColor(grayText, grayText, grayText)
		f.SetY(-12)
		f.CellFormat(0, 5, fmt.Sprintf("%d / {nb}", f.PageNo()), "", 0, "C", false, 0, "")
	})

	f.AddPage()
	r.documentTitle(title)
	level := -1
	for i, p := range pages {
		if i > 0 {
			f.AddPage()
		}
		// An outline level may go at most one deeper than the one before.
		level = max(0, min(p.Depth, level+1))
		f.Bookmark(r.encode(p.Title), level, -1)
		r.pageTitle(p.Title)
		r.markdown(p.Markdown)
	}
	if err := f.Output(w); err != nil {
		return 0, fmt.Errorf("rendering the PDF: %w", err)
	}
	return f.PageCount(), nil
}

// Layout, in millimetres and points.
const (
	marginLeft   = 20
	marginRight  = 20
	marginTop    = 20
	marginBottom = 20

	bodySize = 11
	codeSize = 9
	indent   = 7
	// lineFactor turns a font size in points into a line height in mm.
	lineFactor = 0.3528 * 1.45

	grayText = 110
)

// cp1252 returns a function that encodes UTF-8 text for the core fonts,
// printing '?' for what Windows-1252 cannot encode (fpdf's translator
// prints '.'), spaces for tabs and nothing for other control characters.
func cp1252(f *fpdf.Fpdf) func(string) string {
	translate := f.UnicodeTranslatorFromDescriptor("")
	cache := map[rune]string{}
	return func(s string) string {
		var b strings.Builder
		for _, c := range s {
			switch {
			case c == '\t':
				b.WriteString("    ")
			case c == '\n' || (c >= 0x20 && c < 0x7f):
				b.WriteRune(c)
			case c < 0xa0:
				// Other C0 controls, DEL and C1 controls have no glyph.
			default:
				enc, ok := cache[c]
				if !ok {
					enc = translate(string(c))
					if enc == "." {
						enc = "?"
					}
					cache[c] = enc
				}
				b.WriteString(enc)
			}
		}
		return b.String()
	}
}

package render

import (
	_ "embed"
	"math"
	"slices"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// contentCSS styles what Document writes, with the page's custom
// properties (see CSS).
//
//go:embed content.css
var contentCSS string

// CSS is the stylesheet of what Document renders (content styles and the
// syntax highlighting's light and dark colours), written against the CSS
// custom properties listed below.
//
// The page defines --fg, --bg, --muted (secondary text), --border,
// --accent (links), --code-bg, --mark-bg and --hint-info, --hint-success,
// --hint-warning, --hint-danger (the accents of hints) for its light and
// dark schemes. The only colours of its own are those of chroma's "github"
// (light) and "github-dark" (dark, under prefers-color-scheme) styles, less
// any that would fall short of WCAG AA contrast on the style's background.
func CSS() string { return contentCSS + theHighlighter().css }

// minContrast is WCAG AA's contrast ratio for normal text.
const minContrast = 4.5

// themes returns the style the formatter is given (with classes it only
// names them), the token types written (see highlighter.types), and the
// CSS of both styles: the light one, then the dark one in a media query,
// which overrides every declaration of the light one it does not share.
func themes() (*chroma.Style, map[chroma.TokenType]chroma.TokenType, string) {
	light, dark := styles.Get("github"), styles.Get("github-dark")
	lbg, dbg := light.Get(chroma.Background), dark.Get(chroma.Background)

	var tokenTypes []chroma.TokenType
	for t := range chroma.StandardTypes {
		// Error is a meta type that lexers emit; the other meta types
		// are the formatter's own.
		if t > 0 && t != chroma.Text && t != chroma.Whitespace || t == chroma.Error {
			tokenTypes = append(tokenTypes, t)
		}
	}
	slices.Sort(tokenTypes)

	types := map[chroma.TokenType]chroma.TokenType{chroma.Text: chroma.Text, chroma.Whitespace: chroma.Text}
	var lightRules, darkRules rules
	for _, t := range tokenTypes {
		l := readable(light.Get(t).Sub(lbg), lbg)
		d := readable(dark.Get(t).Sub(dbg), dbg)
		lc, dc := entryCSS(l, chroma.StyleEntry{}, lbg), entryCSS(d, l, dbg)
		if lc == "" && dc == "" {
			types[t] = chroma.Text
			continue
		}
		types[t] = t
		sel := ".chroma ." + chroma.StandardTypes[t]
		lightRules.add(sel, lc)
		darkRules.add(sel, dc)
	}
	var b strings.Builder
	b.WriteString(".chroma{" + entryCSS(lbg, chroma.StyleEntry{}, lbg) + "}\n")
	lightRules.write(&b)
	b.WriteString("@media (prefers-color-scheme:dark){\n.chroma{" + entryCSS(dbg, chroma.StyleEntry{}, dbg) + "}\n")
	darkRules.write(&b)
	b.WriteString("}\n")
	return light, types, b.String()
}

// rules are CSS rules, one per set of declarations, with the selectors
// that share it in the order they came: every element has one class, so
// grouping them changes nothing but the size.
type rules struct {
	decls     []string
	selectors map[string][]string
}

func (rs *rules) add(sel, decl string) {
	if decl == "" {
		return
	}
	if rs.selectors == nil {
		rs.selectors = map[string][]string{}
	}
	if _, ok := rs.selectors[decl]; !ok {
		rs.decls = append(rs.decls, decl)
	}
	rs.selectors[decl] = append(rs.selectors[decl], sel)
}

func (rs *rules) write(b *strings.Builder) {
	for _, decl := range rs.decls {
		b.WriteString(strings.Join(rs.selectors[decl], ","))
		b.WriteString("{" + decl + "}\n")
	}
}

// readable drops e's colours that fall short of AA contrast against its
// background (its own, or the style's bg): the token then has the code's
// text colour, which is readable.
func readable(e, bg chroma.StyleEntry) chroma.StyleEntry {
	back := bg.Background
	if e.Background.IsSet() {
		back = e.Background
	}
	if e.Colour.IsSet() && back.IsSet() && contrast(e.Colour, back) < minContrast {
		e.Colour = 0
	}
	return e
}

// entryCSS returns the declarations of style entry e, and those that undo
// what base (the light style's entry for the same class) sets and e does
// not; bg is e's style's background entry.
func entryCSS(e, base, bg chroma.StyleEntry) string {
	var d []string
	switch {
	case e.Colour.IsSet():
		d = append(d, "color:"+e.Colour.String())
	case base.Colour.IsSet():
		d = append(d, "color:inherit")
	}
	switch {
	case e.Background.IsSet():
		d = append(d, "background-color:"+e.Background.String())
	case base.Background.IsSet():
		d = append(d, "background-color:transparent")
	}
	switch {
	case e.Bold == chroma.Yes:
		d = append(d, "font-weight:bold")
	case base.Bold == chroma.Yes:
		d = append(d, "font-weight:normal")
	}
	switch {
	case e.Italic == chroma.Yes:
		d = append(d, "font-style:italic")
	case base.Italic == chroma.Yes:
		d = append(d, "font-style:normal")
	}
	switch {
	case e.Underline == chroma.Yes:
		d = append(d, "text-decoration:underline")
	case base.Underline == chroma.Yes:
		d = append(d, "text-decoration:none")
	}
	return strings.Join(d, ";")
}

// contrast is the WCAG 2 contrast ratio of two colours.
func contrast(a, b chroma.Colour) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is a colour's WCAG 2 relative luminance.
func luminance(c chroma.Colour) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.Red()) + 0.7152*lin(c.Green()) + 0.0722*lin(c.Blue())
}

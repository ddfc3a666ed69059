package render

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/bindery/bindery/internal/document"
)

// code writes a code block, highlighted on the server when chroma knows its
// language. The <pre> is focusable: a long line scrolls it, and a keyboard
// must be able to scroll it too.
func (r *renderer) code(n *document.Node) {
	lang := str(n.Data, "syntax")
	r.b.WriteString(`<div class="code"`)
	if isLangName(lang) {
		r.b.WriteString(` data-lang="`)
		r.b.WriteString(strings.ToLower(lang))
		r.b.WriteByte('"')
	}
	r.b.WriteByte('>')
	if title := str(n.Data, "title"); title != "" {
		r.b.WriteString(`<div class="code-title">`)
		r.text(title)
		r.b.WriteString(`</div>`)
	}
	r.b.WriteString(`<pre class="chroma" tabindex="0"><code>`)
	src := codeText(n)
	if !highlight(&r.b, lang, src) {
		r.text(src)
	}
	r.b.WriteString("</code></pre></div>\n")
}

// codeText returns a code block's text: its lines' text, joined by line
// breaks. Inlines in a line (annotations, expressions) are their text.
func codeText(n *document.Node) string {
	var b strings.Builder
	first := true
	for _, line := range n.Nodes {
		if line == nil {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		writePlain(&b, []*document.Node{line})
	}
	return b.String()
}

// isLangName reports whether a code block's language is a plain name, fit
// for its data-lang attribute; anything else is left out of the HTML.
func isLangName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("+#._-", c) >= 0) {
			return false
		}
	}
	return true
}

// highlighter is what highlighting needs, built once: chroma's lexers by
// name, alias and file extension; its HTML formatter (classes, never
// style attributes, and no <pre> of its own); the token types that
// CSS styles.
type highlighter struct {
	lexers    map[string]chroma.Lexer
	formatter *chromahtml.Formatter
	style     *chroma.Style
	// types maps a token type to the type it is written as: itself if CSS
	// styles it, else chroma.Text, which has no element.
	types map[chroma.TokenType]chroma.TokenType
	css   string
}

var theHighlighter = sync.OnceValue(newHighlighter)

func newHighlighter() *highlighter {
	h := &highlighter{
		lexers:    map[string]chroma.Lexer{},
		formatter: chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true)),
	}
	// Names and aliases first, then extensions, so that "go" is Go
	// rather than whichever lexer claims "*.go" first.
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			if k := strings.ToLower(name); h.lexers[k] == nil {
				h.lexers[k] = l
			}
		}
	}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		for _, glob := range l.Config().Filenames {
			if ext, ok := strings.CutPrefix(glob, "*."); ok && !strings.ContainsAny(ext, "*?[") {
				if k := strings.ToLower(ext); h.lexers[k] == nil {
					h.lexers[k] = l
				}
			}
		}
	}
	h.style, h.types, h.css = themes()
	return h
}

// maxHighlighted is the longest code that is highlighted. Lexing costs
// about 40 µs a line, and a regular expression may backtrack for up to
// 250 ms on a hostile line: a page's code must not hold its rendering for
// longer than a page's worth. Longer code is plain text.
const maxHighlighted = 64 << 10

// highlight writes src highlighted as language lang and reports whether it
// did; an unknown language, code too long, or a lexer that fails writes
// nothing.
func highlight(b *strings.Builder, lang, src string) bool {
	if lang == "" || src == "" || len(src) > maxHighlighted {
		return false
	}
	h := theHighlighter()
	lexer := h.lexers[strings.ToLower(lang)]
	if lexer == nil {
		return false
	}
	it, err := lexer.Tokenise(nil, src)
	if err != nil {
		return false
	}
	tokens := h.simplify(it.Tokens())
	if !strings.HasSuffix(src, "\n") && len(tokens) > 0 {
		// Lexers end the text with a line break of their own.
		last := &tokens[len(tokens)-1]
		last.Value = strings.TrimSuffix(last.Value, "\n")
	}
	return h.formatter.Format(b, h.style, chroma.Literator(tokens...)) == nil
}

// simplify writes each token as the type CSS styles it by, merging
// neighbours of the same type: a span per styled run, none for white space
// and unstyled text, keeps the HTML small.
func (h *highlighter) simplify(tokens []chroma.Token) []chroma.Token {
	out := tokens[:0]
	for _, t := range tokens {
		if t.Value == "" {
			continue
		}
		typ, ok := h.types[t.Type]
		if !ok {
			typ = h.typeOf(t.Type)
		}
		if n := len(out); n > 0 && out[n-1].Type == typ {
			out[n-1].Value += t.Value
			continue
		}
		out = append(out, chroma.Token{Type: typ, Value: t.Value})
	}
	return out
}

// typeOf is the type of a token whose type has no class of its own: that
// of its nearest ancestor that has one, as chroma's formatter reads it.
func (h *highlighter) typeOf(t chroma.TokenType) chroma.TokenType {
	for t != 0 {
		if typ, ok := h.types[t]; ok {
			return typ
		}
		t = t.Parent()
	}
	return chroma.Text
}

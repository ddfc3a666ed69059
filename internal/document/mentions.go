package document

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// mentionEmail is an @email mention in text: "@" and an address, after the
// start of the text or a character that cannot end an address.
var mentionEmail = regexp.MustCompile(`(?:^|[^\w.+@-])@([\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,})`)

// Mentions returns the people markdown mentions, as a reader sees them:
// the addresses written as @email in its text (not in code or raw HTML),
// lowercased, and the destinations of its links (see Links), each once, in
// document order. Which of them name users is for the caller to decide.
func Mentions(markdown string) (emails, links []string) {
	source := []byte(markdown)
	var text strings.Builder
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				text.Write(c.Segment.Value(source))
				if c.SoftLineBreak() || c.HardLineBreak() {
					text.WriteByte('\n')
				}
			case *ast.String:
				text.Write(c.Value)
			case *ast.CodeSpan, *ast.RawHTML, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
				text.WriteByte(' ')
			default:
				walk(c)
				if c.Type() == ast.TypeBlock {
					text.WriteByte('\n')
				}
			}
		}
	}
	walk(parse(source))
	seen := map[string]bool{}
	for _, m := range mentionEmail.FindAllStringSubmatch(text.String(), -1) {
		e := strings.ToLower(m[1])
		if !seen[e] {
			seen[e] = true
			emails = append(emails, e)
		}
	}
	for _, l := range Links(markdown) {
		if !l.Image && !seen[l.Destination] {
			seen[l.Destination] = true
			links = append(links, l.Destination)
		}
	}
	return emails, links
}

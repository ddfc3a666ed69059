package gitbook

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/mdtext"
)

// frontMatter is the YAML block a page file starts with. GitBook reads
// description, icon and hidden; emoji is Bindery's own, which GitBook
// ignores as it does any key it does not know.
type frontMatter struct {
	Description string `yaml:"description,omitempty"`
	Icon        string `yaml:"icon,omitempty"`
	Emoji       string `yaml:"emoji,omitempty"`
	Hidden      bool   `yaml:"hidden,omitempty"`
}

// pageFile is a page file's parts.
type pageFile struct {
	frontMatter
	// title is the first "# " heading's text, "" when there is none.
	title string
	body  string
}

// writePage is the file of a document page whose markdown, with references
// to files already made relative to the file, is body.
func writePage(p *content.Page, body string) []byte {
	var b strings.Builder
	fm := frontMatter{Description: p.Description, Icon: p.Icon, Emoji: p.Emoji, Hidden: p.Hidden}
	if fm != (frontMatter{}) {
		out, err := yaml.Marshal(fm)
		if err != nil {
			// Strings and a bool always marshal.
			panic("gitbook: front matter: " + err.Error())
		}
		b.WriteString("---\n")
		b.Write(out)
		b.WriteString("---\n\n")
	}
	b.WriteString("# " + escapeHeading(p.Title) + "\n")
	if body != "" {
		b.WriteString("\n" + body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// readPage splits a page file into front matter, title and markdown. The
// markdown is what follows the title and one blank line, without the
// trailing newlines a file ends with: what writePage wrote, exactly. A file
// whose front matter is not valid YAML is all markdown, with a warning.
func readPage(src string) (pageFile, []string) {
	src = strings.TrimPrefix(strings.ReplaceAll(src, "\r\n", "\n"), "\ufeff")
	var pf pageFile
	var warnings []string
	rest, yamlSrc, ok := splitFrontMatter(src)
	if ok {
		if w := pf.read(yamlSrc); w != "" {
			warnings = append(warnings, w)
			rest = src
		}
	}
	lines := strings.Split(rest, "\n")
	if i, text := mdtext.FirstHeading(lines); i >= 0 {
		pf.title = unescapeText(strings.TrimSpace(text))
		before, after := lines[:i], lines[i+1:]
		if len(after) > 0 && strings.TrimSpace(after[0]) == "" {
			after = after[1:]
		}
		if strings.TrimSpace(strings.Join(before, "")) == "" {
			before = nil
		}
		lines = append(before[:len(before):len(before)], after...)
	}
	body := strings.Join(lines, "\n")
	if pf.title == "" {
		body = strings.TrimLeft(body, "\n")
	}
	pf.body = strings.TrimRight(body, "\n")
	return pf, warnings
}

// splitFrontMatter returns the YAML between a first line "---" and the next
// "---" (or "..."), and what follows it.
func splitFrontMatter(src string) (rest, yamlSrc string, ok bool) {
	if !strings.HasPrefix(src, "---\n") {
		return src, "", false
	}
	lines := strings.Split(src, "\n")
	for i := 1; i < len(lines); i++ {
		if line := strings.TrimRight(lines[i], " \t"); line == "---" || line == "..." {
			return strings.Join(lines[i+1:], "\n"), strings.Join(lines[1:i], "\n"), true
		}
	}
	return src, "", false
}

// read takes the keys it knows from front matter, ignoring the others, and
// returns a warning when the YAML is not valid.
func (pf *pageFile) read(src string) string {
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		return fmt.Sprintf("its front matter is not valid YAML, so it is read as markdown: %v", err)
	}
	text := func(key string) string {
		switch v := m[key].(type) {
		case string:
			return v
		case nil:
			return ""
		default:
			return fmt.Sprint(v)
		}
	}
	pf.Description, pf.Icon, pf.Emoji = text("description"), text("icon"), text("emoji")
	pf.Hidden, _ = m["hidden"].(bool)
	return ""
}

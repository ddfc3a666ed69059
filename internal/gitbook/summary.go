package gitbook

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/bindery/bindery/internal/lru"
)

// entry is an item of the table of contents: a "## heading" (a group), a
// linked bullet, or, in a tree read without SUMMARY.md, a folder.
type entry struct {
	title string
	// target is the link's destination as written, without "<>"; for a
	// tree read without SUMMARY.md, the file's path.
	target string
	group  bool
	// folder is set for a folder without README.md read without
	// SUMMARY.md: a page without a file, slugged after the folder.
	folder   string
	line     int
	children []*entry
}

var (
	summaryHeading = regexp.MustCompile(`^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	summaryBreak   = regexp.MustCompile(`^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	summaryBullet  = regexp.MustCompile(`^([ \t]*)[*+-][ \t]+(.*)$`)
)

// parseSummary reads SUMMARY.md: bullets nest by indentation (any
// consistent width, a tab counting four), "## Title" starts a group whose
// entries are the top-level bullets that follow, and a thematic break
// ("---") ends the group, so that top-level pages can follow one (GitBook
// reads a break as the end of a part). The "# " title is not an entry.
// summaries keeps tables of contents parsed, by their text: a sync of page
// edits reads the same SUMMARY.md every time, and parsing it is work that
// grows with the pages. Entries are not changed once parsed, so imports
// share them.
var summaries = lru.New[summary](16<<20, 8<<20)

type summary struct {
	entries  []*entry
	warnings []string
}

// parsedSummary is parseSummary, kept in summaries.
func parsedSummary(src string) ([]*entry, []string) {
	if s, ok := summaries.Get(src); ok {
		return s.entries, s.warnings
	}
	entries, warnings := parseSummary(src)
	// Counted as the text and the entries, a few times as large.
	summaries.Put(src, summary{entries, warnings}, 4*len(src))
	return entries, warnings
}

func parseSummary(src string) ([]*entry, []string) {
	type open struct {
		indent int
		e      *entry
	}
	var (
		top      []*entry
		group    *entry
		stack    []open
		warnings []string
	)
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if summaryBreak.MatchString(strings.TrimSpace(line)) {
			group, stack = nil, nil
			continue
		}
		if m := summaryHeading.FindStringSubmatch(line); m != nil {
			if len(m[1]) > 1 {
				group = &entry{title: unescapeText(m[2]), group: true, line: i + 1}
				top, stack = append(top, group), nil
			}
			continue
		}
		m := summaryBullet.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text, target, ok := parseLink(m[2])
		if !ok {
			warnings = append(warnings, fmt.Sprintf("line %d of the table of contents is not a link, so it is skipped", i+1))
			continue
		}
		e := &entry{title: unescapeText(text), target: target, line: i + 1}
		indent := width(m[1])
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		switch {
		case len(stack) > 0:
			parent := stack[len(stack)-1].e
			parent.children = append(parent.children, e)
		case group != nil:
			group.children = append(group.children, e)
		default:
			top = append(top, e)
		}
		stack = append(stack, open{indent, e})
	}
	return top, warnings
}

func width(indent string) int {
	n := 0
	for _, r := range indent {
		if r == '\t' {
			n += 4
		} else {
			n++
		}
	}
	return n
}

// parseLink reads "[text](target "title")": the text as written and the
// target without "<>". The quoted title, GitBook's sidebar title, has no
// place in Bindery's pages.
func parseLink(s string) (text, target string, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	depth, end := 0, -1
	for i := 1; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			depth++
		case ']':
			if depth == 0 {
				end = i
			}
			depth--
		}
	}
	if end < 0 || !strings.HasPrefix(s[end+1:], "(") {
		return "", "", false
	}
	rest := s[end+2:]
	closing := strings.LastIndex(rest, ")")
	if closing < 0 {
		return "", "", false
	}
	dest := strings.TrimSpace(rest[:closing])
	if inner, ok := strings.CutPrefix(dest, "<"); ok {
		if j := strings.Index(inner, ">"); j >= 0 {
			return s[1:end], inner[:j], true
		}
	}
	if j := strings.IndexAny(dest, " \t"); j >= 0 {
		dest = dest[:j]
	}
	return s[1:end], dest, true
}

// summaryWriter writes SUMMARY.md.
type summaryWriter struct {
	b       strings.Builder
	inGroup bool
}

func newSummaryWriter() *summaryWriter {
	w := &summaryWriter{}
	w.b.WriteString("# Table of contents\n\n")
	return w
}

func (w *summaryWriter) group(title string) {
	w.b.WriteString("\n## " + escapeHeading(title) + "\n\n")
	w.inGroup = true
}

// ungrouped ends the group being written, if any, before a top-level
// page that is in no group.
func (w *summaryWriter) ungrouped() {
	if w.inGroup {
		w.b.WriteString("\n---\n\n")
		w.inGroup = false
	}
}

// item writes a bullet.
func (w *summaryWriter) item(depth int, title, target string) {
	if strings.ContainsAny(target, " ()<>") {
		target = "<" + target + ">"
	}
	w.b.WriteString(strings.Repeat("  ", depth) + "* [" + escapeLinkText(title) + "](" + target + ")\n")
}

func (w *summaryWriter) bytes() []byte { return []byte(w.b.String()) }

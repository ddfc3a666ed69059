package gitbook

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
)

func TestReadPage(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		want     pageFile
		warnings int
	}{
		{"title and body", "# Title\n\nBody\n", pageFile{title: "Title", body: "Body"}, 0},
		{"front matter, unknown keys ignored",
			"---\ndescription: \"Short: text\"\nicon: rocket\nhidden: true\nemoji: \"🚀\"\nlayout:\n  width: wide\n---\n\n# T\n\nB",
			pageFile{frontMatter: frontMatter{Description: "Short: text", Icon: "rocket", Hidden: true, Emoji: "🚀"}, title: "T", body: "B"}, 0},
		{"invalid front matter is markdown",
			"---\ndescription: [oops\n---\n\n# T\n\nB",
			pageFile{title: "T", body: "---\ndescription: [oops\n---\n\nB"}, 1},
		{"unclosed front matter is markdown", "---\nfoo\n# T\nB", pageFile{title: "T", body: "---\nfoo\nB"}, 0},
		{"CRLF", "# T\r\n\r\nLine one\r\nLine two\r\n", pageFile{title: "T", body: "Line one\nLine two"}, 0},
		{"heading in a fence is no title", "```\n# not a title\n```\n\n# Real\n\nB",
			pageFile{title: "Real", body: "```\n# not a title\n```\n\nB"}, 0},
		{"no title", "\n\nJust text.\n\n## Sub", pageFile{body: "Just text.\n\n## Sub"}, 0},
		{"only the first H1 is the title", "# One\n# Two\n\nB", pageFile{title: "One", body: "# Two\n\nB"}, 0},
		{"escapes and closing hashes", "# C\\# and \\[x\\] ##\n", pageFile{title: "C# and [x]"}, 0},
		{"hidden must be a boolean", "---\nhidden: \"yes\"\n---\n# T", pageFile{title: "T"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := readPage(tt.src)
			require.Equal(t, tt.want, got)
			require.Len(t, warnings, tt.warnings)
		})
	}
}

// TestWritePageReadsBack: what writePage writes, readPage reads as it was.
func TestWritePageReadsBack(t *testing.T) {
	for _, p := range []content.Page{
		{Title: "Plain", Markdown: "Body"},
		{Title: "Ends in #", Markdown: "\nStarts with a blank line"},
		{Title: `a\b`, Description: "two\nlines: and # more", Icon: "rocket", Emoji: "🚀", Hidden: true},
		{Title: "T", Description: "yes", Markdown: "# H1 in the body\n\n```\n# code\n```"},
		{Title: "---", Description: "---", Markdown: "---\n\ntext"},
	} {
		got, warnings := readPage(string(writePage(&p, p.Markdown)))
		require.Empty(t, warnings)
		require.Equal(t, pageFile{
			frontMatter: frontMatter{Description: p.Description, Icon: p.Icon, Emoji: p.Emoji, Hidden: p.Hidden},
			title:       p.Title, body: p.Markdown,
		}, got, p.Title)
	}
}

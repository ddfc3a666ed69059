package document

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnchorsNext(t *testing.T) {
	var a Anchors
	var got []string
	for _, title := range []string{"Setup", "Setup", "Setup-1", "Setup", "", "", "Café & crème!"} {
		got = append(got, a.Next(title))
	}
	assert.Equal(t, []string{"setup", "setup-1", "setup-1-1", "setup-2", "", "-1", "café--crème"}, got)
}

// TestAnchorsMatchSections checks that Anchors, given a page's heading
// titles in order, repeats the anchors Sections gives them.
func TestAnchorsMatchSections(t *testing.T) {
	md := "# Setup\n\ntext\n\n## Setup\n\n### Setup-1\n\n# API v2 — Tokens\n\n## Setup\n\n# *Emphasis* and `code`\n"
	var a Anchors
	for _, s := range Sections(md) {
		if s.Level == 0 {
			continue
		}
		assert.Equal(t, s.Anchor, a.Next(s.Title), s.Title)
	}
}

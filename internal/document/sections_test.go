package document

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSections(t *testing.T) {
	md := "Intro with **bold** and [a link](https://x.test).\n\n" +
		"# Getting started\n\nInstall it:\n\n```sh\ngo install x\n```\n\n" +
		"## Café & crème!\n\n- one\n- two ![logo](a.png)\n\n" +
		"## Getting started\n\n| a | b |\n|---|---|\n| c | d |\n\n" +
		"### Getting started-1\n"
	got := Sections(md)
	assert.Equal(t, []Section{
		{Text: "Intro with bold and a link."},
		{Anchor: "getting-started", Title: "Getting started", Level: 1, Text: "Install it:\ngo install x"},
		{Anchor: "café--crème", Title: "Café & crème!", Level: 2, Text: "one\ntwo logo"},
		{Anchor: "getting-started-1", Title: "Getting started", Level: 2, Text: "a\nb\nc\nd"},
		{Anchor: "getting-started-1-1", Title: "Getting started-1", Level: 3},
	}, got)
	assert.Empty(t, Sections(""))
	assert.Equal(t, []Section{{Anchor: "only", Title: "Only", Level: 1}}, Sections("# Only"))
}

func TestAnchor(t *testing.T) {
	for title, want := range map[string]string{
		"Hello, World":        "hello-world",
		"  API v2 — Tokens ":  "api-v2--tokens",
		"snake_case and-dash": "snake_case-and-dash",
		"Ünïcödé":             "ünïcödé",
	} {
		assert.Equal(t, want, Anchor(title), title)
	}
}

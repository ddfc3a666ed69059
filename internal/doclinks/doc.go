// Package doclinks holds the test that keeps the repository's Markdown
// documentation navigable: every relative link in README.md and under
// docs/ must name a file that exists and, when it has a #fragment, a
// heading of that file whose GitHub anchor matches. It has no code of its
// own; the documents are its subject.
package doclinks

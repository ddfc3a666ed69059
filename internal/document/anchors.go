package document

// Anchors gives the headings of one page their anchors in document order,
// made unique in the page exactly as Sections makes them. The HTML renderer
// takes a heading's id from it, so that the id is the anchor that search
// and link analysis know. The zero value is ready to use.
type Anchors struct {
	seen map[string]int
}

// Next returns the anchor of the page's next heading, titled title (its
// plain text): Anchor(title), with "-1", "-2", … after it when an earlier
// heading of the page took it.
func (a *Anchors) Next(title string) string {
	if a.seen == nil {
		a.seen = map[string]int{}
	}
	return unique(Anchor(title), a.seen)
}

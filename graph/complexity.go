package graph

import (
	"github.com/bindery/bindery/graph/generated"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// connectionCost weighs a connection field by the number of items it can
// return, so that the complexity limit bounds the rows a query may load.
func connectionCost(child int, first, last *int) int {
	n := page.DefaultLimit
	switch {
	case first != nil:
		n = *first
	case last != nil:
		n = *last
	}
	if n < 1 {
		n = 1
	}
	return 1 + child*n
}

// setComplexity sets the cost of every connection field.
func setComplexity(c *generated.ComplexityRoot) {
	c.Organization.Collections = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor, _ *bool) int {
		return connectionCost(child, first, last)
	}
	c.Organization.Spaces = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor, _ *bool) int {
		return connectionCost(child, first, last)
	}
	c.Collection.Spaces = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor) int {
		return connectionCost(child, first, last)
	}
	c.Collection.Collections = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor) int {
		return connectionCost(child, first, last)
	}
	c.Space.ChangeRequests = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor, _ *enum.ChangeRequestStatus, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.User.Organizations = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor) int {
		return connectionCost(child, first, last)
	}
	c.User.APITokens = func(child int, first *int, _ *page.Cursor, last *int, _ *page.Cursor) int {
		return connectionCost(child, first, last)
	}
}

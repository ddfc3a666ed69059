package ent

import "entgo.io/ent/dialect"

// Driver returns the driver c runs its statements on; for the client of a
// transaction, the transaction's. Statements that ent's builders cannot
// express (full-text search, see internal/search) run on it, so that they
// join the request's transaction and its statement count like any other.
func (c *Client) Driver() dialect.Driver { return c.driver }

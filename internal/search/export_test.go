package search

// SetOrgMatches sets the estimate of matches past which a PostgreSQL
// organization search looks its words up in each space, and returns what
// restores it.
func SetOrgMatches(n int) (restore func()) {
	old := orgMatches
	orgMatches = n
	return func() { orgMatches = old }
}

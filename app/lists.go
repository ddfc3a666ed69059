package app

import (
	"net/http"
	"net/url"

	"github.com/bindery/bindery/internal/page"
)

// listLimit is how many items a list of a view shows at once; a "More"
// link shows the next ones. It bounds a view's cost whatever the size of
// the list.
const listLimit = 100

// list is a titled list of links, one window of it.
type list struct {
	Heading string
	// ID is the heading's element ID, which names the list's landmark.
	ID    string
	Items []link
	// Empty is said when there are no items.
	Empty string
	// More is the address of the next window; "" on the last.
	More string
}

// window reads the window of the list whose cursor the query parameter
// param holds.
func window(r *http.Request, param string) (page.Args, error) {
	n := listLimit
	a := page.Args{First: &n}
	if s := r.URL.Query().Get(param); s != "" {
		c, err := page.Parse(param, s)
		if err != nil {
			return a, err
		}
		a.After = &c
	}
	return a, nil
}

// more is the address of the window after info's, in the list of param.
func more(r *http.Request, param string, info page.Info) string {
	if !info.HasNextPage || info.EndCursor == nil {
		return ""
	}
	q := url.Values{param: {info.EndCursor.String()}}
	return r.URL.Path + "?" + q.Encode()
}

package servertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Scenario is one HTTP exchange and what it must produce.
type Scenario struct {
	Name   string
	Method string
	Path   string
	Token  string
	// Body is sent as JSON; a string is sent as is.
	Body       any
	WantStatus int
	// WantJSON must be contained in the response body: every member given
	// must be present with an equal value; others are ignored.
	WantJSON map[string]any
	// WantError, when set, must be contained in the error message.
	WantError string
	// Check runs further assertions.
	Check func(t *testing.T, res *Response)
	// BinderySpec validates the answer against Bindery's own document
	// rather than the official spec (see Env.DoBindery).
	BinderySpec bool
}

// Run runs scenarios in order, each as a subtest.
func (e *Env) Run(t *testing.T, scenarios []Scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			do := e.Do
			if sc.BinderySpec {
				do = e.DoBindery
			}
			res := do(sc.Method, sc.Path, sc.Token, sc.Body)
			require.Equal(t, sc.WantStatus, res.Status, "body: %s", res.Body)
			if sc.WantJSON != nil {
				var got any
				require.NoError(t, json.Unmarshal(res.Body, &got), string(res.Body))
				AssertContains(t, sc.WantJSON, got)
			}
			if sc.WantError != "" {
				var env struct {
					Error struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				require.NoError(t, json.Unmarshal(res.Body, &env), string(res.Body))
				assert.Equal(t, sc.WantStatus, env.Error.Code)
				assert.Contains(t, env.Error.Message, sc.WantError)
			}
			if sc.Check != nil {
				sc.Check(t, res)
			}
		})
	}
}

// AssertContains checks that got contains want: maps member by member,
// everything else by equality (numbers compare as float64).
func AssertContains(t testing.TB, want, got any) {
	t.Helper()
	if msg := contains("$", normalize(want), got); msg != "" {
		raw, _ := json.Marshal(got)
		t.Errorf("%s\ngot: %s", msg, raw)
	}
}

func normalize(v any) any {
	raw, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

func contains(path string, want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s: missing", path, k)
			}
			if msg := contains(path+"."+k, wv, gv); msg != "" {
				return msg
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %v, got %v", path, w, got)
		}
		for i := range w {
			if msg := contains(fmt.Sprintf("%s[%d]", path, i), w[i], g[i]); msg != "" {
				return msg
			}
		}
		return ""
	default:
		if !assert.ObjectsAreEqual(want, got) {
			return fmt.Sprintf("%s: want %v, got %v", path, want, got)
		}
		return ""
	}
}

// MustDo sends a request and requires the status; it returns the decoded
// body.
func (e *Env) MustDo(method, path, token string, body any, status int) map[string]any {
	e.T.Helper()
	res := e.Do(method, path, token, body)
	require.Equal(e.T, status, res.Status, "%s %s: %s", method, path, res.Body)
	return res.JSON()
}

// Walk follows a /v1 list from its first page with the given limit, checks
// the envelope of every page, and returns the IDs of all items in order (the
// names of items without an ID, such as integrations). It fails on an item
// seen twice or a count that changes.
func (e *Env) Walk(t testing.TB, path, token string, limit int) []string {
	t.Helper()
	var ids []string
	seen := map[string]bool{}
	count := -1
	next := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 10000, "the walk does not end")
		u, err := url.Parse(path)
		require.NoError(t, err)
		q := u.Query()
		q.Set("limit", fmt.Sprint(limit))
		if next != "" {
			q.Set("page", next)
		}
		u.RawQuery = q.Encode()
		res := e.Do(http.MethodGet, u.String(), token, nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var l struct {
			Items []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"items"`
			Count int `json:"count"`
			Next  *struct {
				Page string `json:"page"`
			} `json:"next"`
		}
		res.Decode(t, &l)
		require.LessOrEqual(t, len(l.Items), limit)
		if count >= 0 {
			require.Equal(t, count, l.Count, "count changed during the walk")
		}
		count = l.Count
		for _, it := range l.Items {
			if it.ID == "" {
				it.ID = it.Name
			}
			require.False(t, seen[it.ID], "%s seen twice", it.ID)
			seen[it.ID] = true
			ids = append(ids, it.ID)
		}
		if l.Next == nil {
			break
		}
		require.NotEmpty(t, l.Next.Page)
		require.NotEmpty(t, l.Items, "a page with a next page must not be empty")
		next = l.Next.Page
	}
	require.Equal(t, count, len(ids), "count differs from the items walked")
	return ids
}

// ErrorMessage returns the message of a /v1 error response.
func (r *Response) ErrorMessage() string {
	var env struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &env)
	return env.Error.Message
}

// Path joins path segments.
func Path(parts ...string) string { return "/" + strings.Join(parts, "/") }

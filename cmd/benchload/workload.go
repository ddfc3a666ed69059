package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
)

// request is one prepared request of a workload.
type request struct {
	method, url string
	body        []byte
	// graphql marks a GraphQL request: a 200 answer with errors counts as
	// an error too.
	graphql bool
	// kind names the request's part of a mixed workload; empty in a
	// workload of one kind.
	kind string
}

// workload is a request mix run against one server. Its requests are sent
// in turn, so a point read rotates over many rows.
type workload struct {
	// key selects the workload on the command line (--workloads).
	key string
	// target names the server: Bindery, baseline or PostGraphile.
	target string
	// name says what is read.
	name string
	// token is sent as a bearer token when not empty.
	token    string
	requests []request
	// check validates the answer to the first request before the run, so
	// that a workload measures what its name says; in a mixed workload,
	// checks does so for the first request of each kind instead.
	check  func(body []byte) error
	checks map[string]func(body []byte) error
	// rotation, when set, carries the turn over requests from one run to
	// the next (the warm-up, the timed run, the next variant's), so that a
	// request that writes (an import) goes on to the next target instead
	// of starting again from the first; nil starts each run at the first
	// request.
	rotation *atomic.Uint64
}

// header sets the headers of a request of the workload.
func (w *workload) header(h http.Header, r request) {
	if w.token != "" {
		h.Set("Authorization", "Bearer "+w.token)
	}
	if r.body != nil {
		h.Set("Content-Type", "application/json")
	}
}

// nodeQuery is a point read through the Relay node field.
const nodeQuery = `query($id: ID!) { node(id: $id) { ... on Space { id title } } }`

// nestedQuery reads an organization's spaces, their open change requests
// (the default filter), and who opened each.
const nestedQuery = `query($id: ID!, $spaces: Int!, $changeRequests: Int!) {
  organization(id: $id) { id title
    spaces(first: $spaces) { nodes { id title
      changeRequests(first: $changeRequests) { nodes { id number subject createdBy { id displayName } } } } } } }`

// binderyWorkloads are the workloads run against Bindery.
func binderyWorkloads(base, token string, d dataset, s shape) []workload {
	pageSize := min(maxPage, len(d.SpacesA))
	ws := []workload{
		{key: "get", target: "Bindery", name: "REST `GET /v1/spaces/{id}`", token: token,
			requests: gets(base+"/v1/spaces/", d.SpacesA), check: checkRESTSpace},
		{key: "node", target: "Bindery", name: "GraphQL `node(id:)` of a space", token: token,
			requests: graphqlPosts(base+"/graphql", nodeQuery, d.SpacesA, nil),
			check:    checkGraphQL(func(b []byte) error { return checkSpace(b, "node", "id") })},
		{key: "nested", target: "Bindery", name: fmt.Sprintf("GraphQL organization → %d spaces → %d change requests → createdBy", s.SpacesB, s.ChangeRequests),
			token: token,
			requests: graphqlPosts(base+"/graphql", nestedQuery, []string{d.OrgB},
				map[string]any{"spaces": s.SpacesB, "changeRequests": s.ChangeRequests}),
			check: checkGraphQL(func(b []byte) error { return checkBinderyNested(b, s) })},
		{key: "list", target: "Bindery", name: fmt.Sprintf("REST `GET /v1/orgs/{id}/spaces?limit=%d`", pageSize), token: token,
			requests: []request{{method: http.MethodGet, url: base + "/v1/orgs/" + d.OrgA + "/spaces?limit=" + strconv.Itoa(pageSize)}},
			check:    func(b []byte) error { return checkRESTList(b, pageSize) }},
	}
	if d.Heavy != nil {
		ws = append(ws, heavyWorkload(base, token, d.Heavy))
	}
	return ws
}

// baselineWorkload is Bindery's first workload against the baseline.
func baselineWorkload(base, token string, d dataset) workload {
	return workload{key: "get", target: "baseline", name: "REST `GET /v1/spaces/{id}`", token: token,
		requests: gets(base+"/v1/spaces/", d.SpacesA), check: checkRESTSpace}
}

func gets(prefix string, ids []string) []request {
	rs := make([]request, len(ids))
	for i, id := range ids {
		rs[i] = request{method: http.MethodGet, url: prefix + id}
	}
	return rs
}

// graphqlPosts prepares one POST per id, with the id as $id beside vars.
func graphqlPosts(url, query string, ids []string, vars map[string]any) []request {
	rs := make([]request, len(ids))
	for i, id := range ids {
		v := map[string]any{"id": id}
		for k, x := range vars {
			v[k] = x
		}
		rs[i] = graphqlPost(url, query, v)
	}
	return rs
}

// graphqlPost prepares a POST of a GraphQL operation.
func graphqlPost(url, query string, vars map[string]any) request {
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		panic(err) // strings and ints always marshal
	}
	return request{method: http.MethodPost, url: url, body: b, graphql: true}
}

func checkRESTSpace(b []byte) error {
	var sp struct {
		Object string `json:"object"`
		ID     string `json:"id"`
		Title  string `json:"title"`
	}
	if err := json.Unmarshal(b, &sp); err != nil {
		return err
	}
	if sp.ID == "" || sp.Title == "" {
		return fmt.Errorf("no space in %s", snippet(b))
	}
	return nil
}

func checkRESTList(b []byte, n int) error {
	var l struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	if len(l.Items) != n {
		return fmt.Errorf("%d spaces listed, want %d", len(l.Items), n)
	}
	return nil
}

// checkGraphQL checks that an answer has no errors, then checks its data.
func checkGraphQL(data func([]byte) error) func([]byte) error {
	return func(b []byte) error {
		var res struct {
			Data   json.RawMessage   `json:"data"`
			Errors []json.RawMessage `json:"errors"`
		}
		if err := json.Unmarshal(b, &res); err != nil {
			return err
		}
		if len(res.Errors) > 0 {
			return fmt.Errorf("GraphQL errors: %s", snippet(b))
		}
		return data(res.Data)
	}
}

// checkSpace checks that data has a space with an id (under idField) and a
// title under field.
func checkSpace(data []byte, field, idField string) error {
	var d map[string]map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	sp := d[field]
	if id, _ := sp[idField].(string); id == "" {
		return fmt.Errorf("no space in %s", snippet(data))
	}
	if title, _ := sp["title"].(string); title == "" {
		return fmt.Errorf("no space in %s", snippet(data))
	}
	return nil
}

// author is who opened a change request.
type author struct{ ID, DisplayName string }

// tree is the nested read's answer, whatever the server's field names:
// the authors of the change requests of each space.
type tree [][]*author

// check checks that the tree has every space and change request of the
// shape, each with its author.
func (t tree) check(s shape) error {
	if len(t) != s.SpacesB {
		return fmt.Errorf("%d spaces, want %d", len(t), s.SpacesB)
	}
	for i, crs := range t {
		if len(crs) != s.ChangeRequests {
			return fmt.Errorf("space %d has %d change requests, want %d", i+1, len(crs), s.ChangeRequests)
		}
		for _, u := range crs {
			if u == nil || u.ID == "" || u.DisplayName == "" {
				return fmt.Errorf("a change request of space %d has no author", i+1)
			}
		}
	}
	return nil
}

func checkBinderyNested(data []byte, s shape) error {
	return checkNested(data, s, nestedNames{"organization", "spaces", "changeRequests", "createdBy", "id"})
}

// nestedNames are a server's names of the nested read's fields, and of
// the primary key's.
type nestedNames struct{ organization, spaces, changeRequests, createdBy, id string }

// checkNested reads the nested read's answer by the server's names into a
// tree, and checks it against the shape.
func checkNested(data []byte, s shape, n nestedNames) error {
	type node = map[string]json.RawMessage
	var d node
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	var o node
	if err := json.Unmarshal(d[n.organization], &o); err != nil || o == nil {
		return fmt.Errorf("no organization in %s", snippet(data))
	}
	nodes := func(raw json.RawMessage) ([]node, error) {
		var c struct {
			Nodes []node `json:"nodes"`
		}
		err := json.Unmarshal(raw, &c)
		return c.Nodes, err
	}
	spaces, err := nodes(o[n.spaces])
	if err != nil {
		return err
	}
	var t tree
	for _, sp := range spaces {
		crs, err := nodes(sp[n.changeRequests])
		if err != nil {
			return err
		}
		var users []*author
		for _, cr := range crs {
			var u map[string]any
			if err := json.Unmarshal(cr[n.createdBy], &u); err != nil {
				return err
			}
			var a *author
			if u != nil {
				a = &author{}
				a.ID, _ = u[n.id].(string)
				a.DisplayName, _ = u["displayName"].(string)
			}
			users = append(users, a)
		}
		t = append(t, users)
	}
	return t.check(s)
}

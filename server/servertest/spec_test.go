package servertest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.failed = append(r.failed, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = append(r.failed, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatal(a ...any) { r.failed = append(r.failed, fmt.Sprint(a...)) }

// The spec check must be able to fail: a space without its required members,
// a wrong error envelope and an unknown route are all caught.
func TestCheckSpecCatchesViolations(t *testing.T) {
	get, _ := http.NewRequest(http.MethodGet, "/v1/spaces/spc_x", nil)
	for name, tc := range map[string]struct {
		req  *http.Request
		res  *Response
		fail bool
	}{
		"space missing members": {get, &Response{Status: 200, Header: jsonHeader(), Body: []byte(`{"object":"space","id":"spc_x"}`)}, true},
		"bad error envelope":    {get, &Response{Status: 404, Header: jsonHeader(), Body: []byte(`{"message":"nope"}`)}, true},
		"good error envelope":   {get, &Response{Status: 404, Header: jsonHeader(), Body: []byte(`{"error":{"code":404,"message":"Space not found"}}`)}, false},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckSpec(r, tc.req, tc.res)
			if got := len(r.failed) > 0; got != tc.fail {
				t.Fatalf("failed=%v, want %v: %v", got, tc.fail, r.failed)
			}
		})
	}
	unknown, _ := http.NewRequest(http.MethodGet, "/v1/nowhere", nil)
	r := &recorder{TB: t}
	CheckSpec(r, unknown, &Response{Status: 200, Header: jsonHeader(), Body: []byte(`{}`)})
	if len(r.failed) == 0 {
		t.Fatal("an unknown route passed the spec check")
	}
}

func jsonHeader() http.Header {
	return http.Header{"Content-Type": []string{"application/json"}}
}

// Translation settings are held to the contract's shape, and the check can
// fail: the spec's Translation does not pass, nor a repeated language.
func TestCheckContractShapes(t *testing.T) {
	get, _ := http.NewRequest(http.MethodGet, "/v1/orgs/org_x/translations/trs_x", nil)
	list, _ := http.NewRequest(http.MethodGet, "/v1/orgs/org_x/translations", nil)
	good := `{"object":"translation-settings","id":"trs_x","title":"Docs","languages":["fr","pt-br"],
	  "createdAt":"2024-05-01T12:00:00.000Z","updatedAt":"2024-05-01T12:00:00.000Z","permissions":{"view":true,"edit":false},
	  "urls":{"location":"http://bindery.test/v1/orgs/org_x/translations/trs_x"}}`
	for name, tc := range map[string]struct {
		req  *http.Request
		body string
		fail bool
	}{
		"the contract's shape":   {get, good, false},
		"a list of them":         {list, `{"items":[` + good + `],"count":1}`, false},
		"the spec's Translation": {get, `{"object":"translation","id":"trs_x","status":"pending","language":"fr"}`, true},
		"an unknown language":    {get, `{"object":"translation-settings","id":"trs_x","title":"Docs","languages":["xx"],"createdAt":"2024-05-01T12:00:00.000Z","updatedAt":"2024-05-01T12:00:00.000Z","permissions":{"edit":false},"urls":{"location":"http://x/y"}}`, true},
		"a repeated language":    {get, `{"object":"translation-settings","id":"trs_x","title":"Docs","languages":["fr","fr"],"createdAt":"2024-05-01T12:00:00.000Z","updatedAt":"2024-05-01T12:00:00.000Z","permissions":{"edit":false},"urls":{"location":"http://x/y"}}`, true},
		"a list without a count": {list, `{"items":[]}`, true},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckSpec(r, tc.req, &Response{Status: 200, Header: jsonHeader(), Body: []byte(tc.body)})
			if got := len(r.failed) > 0; got != tc.fail {
				t.Fatalf("failed=%v, want %v: %v", got, tc.fail, r.failed)
			}
		})
	}
}

// Bindery's own operations are held to their shapes in Bindery's OpenAPI
// document, and the check can fail: a wrong object, a missing member, an
// unknown member, an event type by its GraphQL name, a secret where the
// answer has none, a bad error envelope.
func TestCheckExtensionShapes(t *testing.T) {
	get, _ := http.NewRequest(http.MethodGet, "/v1/orgs/org_x/webhooks/whk_x", nil)
	create, _ := http.NewRequest(http.MethodPost, "/v1/orgs/org_x/webhooks", nil)
	del, _ := http.NewRequest(http.MethodDelete, "/v1/orgs/org_x/webhooks/whk_x", nil)
	endpoint := func(extra string) []byte {
		return []byte(`{"object":"webhook-endpoint","id":"whk_x","url":"https://hooks.example.com/x","eventTypes":["space.created"],` +
			`"active":true,"description":"","createdAt":"2026-11-26T16:00:00.000Z","updatedAt":"2026-11-26T16:00:00.000Z",` +
			`"urls":{"location":"http://bindery.test/v1/orgs/org_x/webhooks/whk_x"}` + extra + `}`)
	}
	for name, tc := range map[string]struct {
		req  *http.Request
		res  *Response
		fail bool
	}{
		"an endpoint": {get, &Response{Status: 200, Header: jsonHeader(), Body: endpoint("")}, false},
		"a created endpoint with its secret": {create, &Response{Status: 201, Header: jsonHeader(),
			Body: endpoint(`,"secret":"whsec_x"`)}, false},
		"a created endpoint without its secret": {create, &Response{Status: 201, Header: jsonHeader(), Body: endpoint("")}, true},
		"a read that shows the secret":          {get, &Response{Status: 200, Header: jsonHeader(), Body: endpoint(`,"secret":"whsec_x"`)}, true},
		"the wrong object": {get, &Response{Status: 200, Header: jsonHeader(),
			Body: []byte(`{"object":"webhook-delivery","id":"whk_x"}`)}, true},
		"a GraphQL event type": {get, &Response{Status: 200, Header: jsonHeader(),
			Body: []byte(strings.Replace(string(endpoint("")), "space.created", "SPACE_CREATED", 1))}, true},
		"bad error envelope":  {get, &Response{Status: 404, Header: jsonHeader(), Body: []byte(`{"message":"nope"}`)}, true},
		"good error envelope": {get, &Response{Status: 403, Header: jsonHeader(), Body: []byte(`{"error":{"code":403,"message":"no"}}`)}, false},
		"a 204":               {del, &Response{Status: 204, Header: http.Header{}}, false},
		"a 204 with a body":   {del, &Response{Status: 204, Header: jsonHeader(), Body: []byte(`{}`)}, true},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckSpec(r, tc.req, tc.res)
			if got := len(r.failed) > 0; got != tc.fail {
				t.Fatalf("failed=%v, want %v: %v", got, tc.fail, r.failed)
			}
		})
	}
}

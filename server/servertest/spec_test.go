package servertest

import (
	"fmt"
	"net/http"
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

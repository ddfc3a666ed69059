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

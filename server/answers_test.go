package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/server/servertest"
)

// Answers written into pooled buffers (gqlexec.WithResponseBuffers) are
// each whole and each their own under concurrent requests: a buffer
// returned to the pool before its answer was written, or lent twice,
// would mix one request's answer into another's.
func TestPooledAnswersUnderConcurrency(t *testing.T) {
	e := servertest.New(t)
	want := map[string]string{}
	var ids []string
	for i := range 8 {
		// Of lengths from 6 to 48, so that a short answer follows a long
		// one in a buffer.
		title := fmt.Sprintf("%d %s", i, strings.Repeat("x", 4+i*6))
		sp := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/spaces", e.OwnerToken, map[string]any{"title": title}, http.StatusCreated)
		id := sp["id"].(string)
		b, err := json.Marshal(map[string]any{"data": map[string]any{"node": map[string]any{"id": id, "title": strings.TrimSpace(title)}}})
		require.NoError(t, err)
		want[id], ids = string(b), append(ids, id)
	}
	errs := make(chan error, len(ids))
	var wg sync.WaitGroup
	for k := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 30 {
				id := ids[(k+n)%len(ids)]
				body := fmt.Sprintf(`{"query":"query($id: ID!) { node(id: $id) { ... on Space { id title } } }","variables":{"id":%q}}`, id)
				req, _ := http.NewRequest(http.MethodPost, e.HTTP.URL+"/graphql", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+e.OwnerToken)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					errs <- err
					return
				}
				got, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err != nil || string(got) != want[id] {
					errs <- fmt.Errorf("answer for %s: %.200s (%v)", id, got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

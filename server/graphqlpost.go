package server

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/bindery/bindery/graph/gqlexec"
)

// graphqlPOST is gqlgen's transport.POST (which it embeds for Supports)
// but for how it writes an answer: gqlgen encodes the whole response with
// encoding/json, which checks and copies the data again, already JSON
// from the generated marshallers, to compact it. For a nested read of 500
// change requests that was a tenth of the request's CPU. Everything else
// is as gqlgen does it: the media type (graphqlResponseType, the same
// rule), the statuses, the errors. It also lends the executor pooled
// buffers for the answer (gqlexec.WithResponseBuffers).
type graphqlPOST struct{ transport.POST }

func (graphqlPOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	mt := graphqlResponseType(r)
	w.Header().Set("Content-Type", mt)
	start := graphql.Now()
	var params graphql.RawParams
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		writeGraphQLResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("json request body could not be decoded: %v", err)}))
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	rc, opErr := exec.CreateOperationContext(ctx, &params)
	if opErr != nil {
		status := http.StatusOK
		if errcode.GetErrorKind(opErr) == errcode.KindProtocol {
			status = http.StatusUnprocessableEntity
			if mt == mediaGraphQLResponse {
				status = http.StatusBadRequest
			}
		}
		w.WriteHeader(status)
		writeGraphQLResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	// The answer is written out before the handler returns and not kept:
	// its buffer can go back to the pool then.
	ctx, release := gqlexec.WithResponseBuffers(ctx)
	defer release()
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeGraphQLResponse(w, responses(ctx))
}

// writeGraphQLResponse writes resp as encoding/json would, with its data
// as the executor wrote it. A part of an incremental delivery, which this
// transport never makes, goes through encoding/json whole.
func writeGraphQLResponse(w io.Writer, resp *graphql.Response) {
	if resp.Label != "" || resp.Path != nil || resp.HasNext != nil {
		b, err := json.Marshal(resp)
		if err != nil {
			panic(err)
		}
		_, _ = w.Write(b)
		return
	}
	// The data, often most of the answer, is written as it is, not
	// copied: the writer buffers.
	head := []byte{'{'}
	if len(resp.Errors) > 0 {
		errs, err := json.Marshal(resp.Errors)
		if err != nil {
			panic(err)
		}
		head = append(append(append(head, `"errors":`...), errs...), ',')
	}
	head = append(head, `"data":`...)
	data := []byte(resp.Data)
	if len(data) == 0 {
		data = []byte("null")
	}
	tail := []byte{}
	if len(resp.Extensions) > 0 {
		ext, err := json.Marshal(resp.Extensions)
		if err != nil {
			panic(err)
		}
		tail = append(append(tail, `,"extensions":`...), ext...)
	}
	tail = append(tail, '}')
	for _, part := range [][]byte{head, data, tail} {
		if _, err := w.Write(part); err != nil {
			return // the client is gone
		}
	}
}

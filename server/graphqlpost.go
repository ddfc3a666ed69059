//go:build !bindery_norewrite

package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// postTransport is gqlgen's transport.POST (v0.17.95) with one change: the
// response is written without encoding/json compacting its data again.
//
// gqlgen writes a response with json.Marshal, which validates and compacts
// a json.RawMessage it meets, so the data of every answer, which the
// executor has just written as compact JSON, was scanned and copied once
// more: 9% of the CPU of a nested read of 500 change requests. writeResponse
// writes the same members in the same order. The one difference in bytes is
// that <, > and & in strings are no longer escaped as \u003c, \u003e and
// \u0026, which are the same JSON text to any decoder.
//
// Everything else is POST.Do's: the media type of the answer follows Accept
// (graphqlResponseType is gqlgen's rule), a request error is answered with
// its status, and the body is read whole. The body reaching here has passed
// checkGraphQLBody, which limits its size and checks that it decodes.
type postTransport struct{ transport.POST }

var _ graphql.Transport = postTransport{}

// newPostTransport returns the transport of POST requests: postTransport,
// or gqlgen's own in a build with the bindery_norewrite tag
// (graphqlpost_norewrite.go).
func newPostTransport() graphql.Transport { return postTransport{} }

// Do runs the operation of a POST request, as POST.Do does.
func (postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	contentType := graphqlResponseType(r)
	w.Header().Set("Content-Type", contentType)
	start := graphql.Now()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("The request body could not be read")}))
		return
	}
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(params); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		writeResponse(w, exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("The request body is not a GraphQL request")}))
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	rc, opErr := exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		status := http.StatusOK
		if errcode.GetErrorKind(opErr) == errcode.KindProtocol {
			// 422 in application/json, 400 in application/graphql-response+json
			// (see requestErrorWriter, which then settles the status).
			status = http.StatusUnprocessableEntity
			if contentType == mediaGraphQLResponse {
				status = http.StatusBadRequest
			}
		}
		w.WriteHeader(status)
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeResponse(w, responses(ctx))
}

// writeResponse writes a response as json.Marshal would, its members in
// the order of graphql.Response and with its omitempty rules, but with the
// data as the executor wrote it.
func writeResponse(w io.Writer, resp *graphql.Response) {
	b, err := appendResponse(make([]byte, 0, len(dataOf(resp))+256), resp)
	if err != nil {
		// A value in errors or extensions that encoding/json cannot
		// encode: gqlgen panics there too, and the recoverer answers 500.
		panic(err)
	}
	_, _ = w.Write(b)
}

func dataOf(resp *graphql.Response) json.RawMessage {
	if resp == nil {
		return nil
	}
	return resp.Data
}

func appendResponse(b []byte, resp *graphql.Response) ([]byte, error) {
	if resp == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '{')
	member := func(name string, v any) error {
		enc, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = append(b, enc...)
		b = append(b, ',')
		return nil
	}
	if len(resp.Errors) > 0 {
		if err := member("errors", resp.Errors); err != nil {
			return nil, err
		}
	}
	b = append(b, `"data":`...)
	if len(resp.Data) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, resp.Data...)
	}
	b = append(b, ',')
	if resp.Label != "" {
		if err := member("label", resp.Label); err != nil {
			return nil, err
		}
	}
	if len(resp.Path) > 0 {
		if err := member("path", resp.Path); err != nil {
			return nil, err
		}
	}
	if resp.HasNext != nil {
		if err := member("hasNext", *resp.HasNext); err != nil {
			return nil, err
		}
	}
	if len(resp.Extensions) > 0 {
		if err := member("extensions", resp.Extensions); err != nil {
			return nil, err
		}
	}
	b[len(b)-1] = '}'
	return b, nil
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// newHTTPClient returns a keep-alive client that holds an idle connection
// for every request in flight, so that a run measures requests, not
// connection set-up.
func newHTTPClient(concurrency int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 2 * concurrency
	t.MaxIdleConnsPerHost = 2 * concurrency
	t.DisableCompression = true
	return &http.Client{Transport: t, Timeout: time.Minute}
}

// apiClient calls Bindery's APIs as one user, as any client would.
type apiClient struct {
	base  string
	token string
	http  *http.Client
}

// rest sends a /v1 request with a JSON body (when body is not nil) and
// decodes a 2xx answer into out (when not nil).
func (c *apiClient) rest(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.do(req, out)
}

// graphql runs an operation and decodes its data into out. An answer with
// errors is an error.
func (c *apiClient) graphql(ctx context.Context, query string, vars map[string]any, out any) error {
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/graphql", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	var res struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := c.do(req, &res); err != nil {
		return err
	}
	if len(res.Errors) > 0 {
		return fmt.Errorf("GraphQL error: %s", res.Errors[0].Message)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(res.Data, out)
}

func (c *apiClient) do(req *http.Request, out any) error {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: HTTP %d: %s", req.Method, req.URL.Path, res.StatusCode, snippet(b))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", req.Method, req.URL.Path, err)
	}
	return nil
}

// snippet shortens a response body for a message.
func snippet(b []byte) string {
	const max = 300
	b = bytes.TrimSpace(b)
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

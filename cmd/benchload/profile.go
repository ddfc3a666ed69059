package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// profile starts fetching a CPU profile of the server whose profiler is at
// debug, for the duration of a run of w, into the profile folder. The
// channel yields the outcome once the profile is written; at once when
// there is nothing to profile. With rounds, each round has a file of its
// own, named after it.
func (r *runner) profile(ctx context.Context, debug string, w *workload, round int) <-chan error {
	done := make(chan error, 1)
	if debug == "" || r.o.profile == "" {
		done <- nil
		return done
	}
	seconds := max(1, int(r.o.duration.Seconds()))
	path := filepath.Join(r.o.profile, slug(w.target+" "+w.name+inRound(round, r.o.rounds))+".pprof")
	go func() {
		done <- fetchProfile(ctx, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", debug, seconds), path)
	}()
	return done
}

func fetchProfile(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("profiling: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("profiling: HTTP %d", res.StatusCode)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, res.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// slug names a file after a workload: its letters and digits, lowercased,
// runs of anything else as one dash.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// ServeDebug serves Go's profiler (/debug/pprof/) on its own listener until
// ctx ends: BINDERY_DEBUG_ADDR, for an operator or `make bench-load
// PROFILE=dir` to see where a server's time goes under load. It has no
// authentication, so it listens apart from the APIs, on an address that
// should stay private (loopback by default in the examples).
func ServeDebug(ctx context.Context, ln net.Listener, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	log.Info("serving the profiler", "addr", ln.Addr().String())
	return serveUntilDone(ctx, ln, mux)
}

// serveUntilDone serves handler on ln, a side listener of the server's own
// (the profiler, the metrics), until ctx ends.
func serveUntilDone(ctx context.Context, ln net.Listener, handler http.Handler) error {
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

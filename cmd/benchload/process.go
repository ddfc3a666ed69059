package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// child is a server process the benchmark started, in a process group of
// its own: Ctrl-C reaches the benchmark alone, which stops its children in
// order, and stopping a child stops what it started (npx starts a shell,
// which starts node, which forks PostGraphile's workers).
type child struct {
	name string
	cmd  *exec.Cmd
	// exited is closed when the process has exited; err is then its
	// result.
	exited chan struct{}
	err    error
}

// start starts a server process. Its standard error goes to log, each line
// prefixed with name, and so does its standard output unless quiet.
func start(name, dir string, env []string, log io.Writer, quiet bool, argv ...string) (*child, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out := &prefixWriter{prefix: name + ": ", w: log}
	cmd.Stdout, cmd.Stderr = out, out
	if quiet {
		cmd.Stdout = io.Discard
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, exited: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// pid is the process's ID.
func (c *child) pid() int { return c.cmd.Process.Pid }

// stop asks the process group to terminate, and kills it after a grace
// period.
func (c *child) stop() {
	select {
	case <-c.exited:
		// The leader is gone; its group may not be.
		_ = syscall.Kill(-c.pid(), syscall.SIGKILL)
		return
	default:
	}
	_ = syscall.Kill(-c.pid(), syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(10 * time.Second):
	}
	_ = syscall.Kill(-c.pid(), syscall.SIGKILL)
	<-c.exited
}

// waitReady calls probe until it succeeds, the process exits, or timeout
// passes.
func (c *child) waitReady(ctx context.Context, timeout time.Duration, probe func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		err := probe(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-c.exited:
			return fmt.Errorf("%s exited before it was ready: %v", c.name, c.err)
		case <-ctx.Done():
			return fmt.Errorf("%s was not ready after %s: %w", c.name, timeout, errors.Join(err, ctx.Err()))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// freeAddr returns a loopback address with a port nobody listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// portOf returns the port of a host:port address.
func portOf(addr string) int {
	_, p, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(p)
	return n
}

// prefixWriter writes whole lines to w, each after prefix.
type prefixWriter struct {
	prefix string
	w      io.Writer
	mu     sync.Mutex
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			break
		}
		if _, err := fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.buf[:i]); err != nil {
			return 0, err
		}
		p.buf = p.buf[i+1:]
	}
	return len(b), nil
}

package gitsynctest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// SSHServer serves the bare repositories of a Server over SSH, as a Git
// host does: public-key auth for one key, and the exec requests
// `git-upload-pack '<path>'` and `git-receive-pack '<path>'` run by the
// git command on the repository at path (under the Server's root), its
// stdin, stdout and stderr those of the session, its exit status sent
// back. Nothing else is served: no shell, no other command.
type SSHServer struct {
	// Addr is where it listens: 127.0.0.1 and a port of its own.
	Addr string
	// HostKey is its host key, made for it; KnownHosts is the
	// known_hosts line of Addr with it, as `ssh-keyscan -p PORT
	// 127.0.0.1` prints it.
	HostKey    ssh.PublicKey
	KnownHosts string

	s     *Server
	wg    sync.WaitGroup // the goroutines of connections and commands
	mu    sync.Mutex
	conns []net.Conn
}

// NewSSHKey makes an Ed25519 key pair: the private key in OpenSSH's PEM,
// and the public key as an authorized_keys line.
func NewSSHKey(t testing.TB) (private []byte, authorized string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	block, err := ssh.MarshalPrivateKey(priv, "test")
	require.NoError(t, err)
	sshPub, err := ssh.NewPublicKey(pub)
	require.NoError(t, err)
	return pem.EncodeToMemory(block), strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub)))
}

// ServeSSH starts an SSH server for the repositories of s that lets in the
// holder of the key authorized (an authorized_keys line) alone, on an
// IPv4 loopback port; the test's end stops it.
func (s *Server) ServeSSH(authorized string) *SSHServer {
	s.t.Helper()
	return s.ServeSSHAt("127.0.0.1:0", authorized)
}

// ServeSSHAt is ServeSSH listening on addr ("[::1]:0" for IPv6).
func (s *Server) ServeSSHAt(addr, authorized string) *SSHServer {
	s.t.Helper()
	allowed, _, _, _, err := ssh.ParseAuthorizedKey([]byte(authorized))
	require.NoError(s.t, err)
	_, hostPriv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(s.t, err)
	signer, err := ssh.NewSignerFromKey(hostPriv)
	require.NoError(s.t, err)
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
		if bytes.Equal(key.Marshal(), allowed.Marshal()) {
			return nil, nil
		}
		return nil, errors.New("not the authorized key")
	}}
	cfg.AddHostKey(signer)

	ln, err := net.Listen("tcp", addr)
	require.NoError(s.t, err)
	x := &SSHServer{Addr: ln.Addr().String(), HostKey: signer.PublicKey(), s: s}
	x.KnownHosts = knownhosts.Line([]string{x.Addr}, x.HostKey)
	x.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			x.mu.Lock()
			x.conns = append(x.conns, conn)
			x.mu.Unlock()
			x.wg.Go(func() { x.serve(conn, cfg) })
		}
	})
	s.t.Cleanup(func() {
		ln.Close()
		x.mu.Lock()
		for _, c := range x.conns {
			c.Close()
		}
		x.mu.Unlock()
		x.wg.Wait()
	})
	return x
}

// URL is the ssh:// URL of a repository of the server.
func (x *SSHServer) URL(name string) string { return "ssh://git@" + x.Addr + "/" + name }

func (x *SSHServer) serve(conn net.Conn, cfg *ssh.ServerConfig) {
	defer conn.Close()
	sc, chans, reqs, err := ssh.NewServerConn(conn, cfg)
	if err != nil {
		return // a key it does not let in, or a client that went away
	}
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "sessions only")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			continue
		}
		x.wg.Go(func() { x.session(ch, chReqs) })
	}
}

// session runs the one exec request of a session.
func (x *SSHServer) session(ch ssh.Channel, reqs <-chan *ssh.Request) {
	ran := false
	for req := range reqs {
		if req.Type != "exec" || ran {
			_ = req.Reply(false, nil) // env, pty-req, shell, a second exec
			continue
		}
		var payload struct{ Command string }
		service, dir, err := "", "", ssh.Unmarshal(req.Payload, &payload)
		if err == nil {
			service, dir, err = x.command(payload.Command)
		}
		if err != nil {
			x.s.t.Logf("ssh: refused %q: %v", payload.Command, err)
			_ = req.Reply(false, nil)
			_ = ch.Close()
			continue
		}
		ran = true
		_ = req.Reply(true, nil)
		x.wg.Go(func() {
			status := x.run(ch, service, dir)
			_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{status}))
			_ = ch.Close()
		})
	}
}

// command reads `git-upload-pack '<path>'` or `git-receive-pack
// '<path>'`, the path quoted as Git quotes it (sq_quote_buf), and returns
// the git command's service and the repository's directory.
func (x *SSHServer) command(line string) (service, dir string, err error) {
	name, arg, _ := strings.Cut(line, " ")
	if name != "git-upload-pack" && name != "git-receive-pack" {
		return "", "", errors.New("not a Git service")
	}
	if len(arg) < 2 || arg[0] != '\'' || arg[len(arg)-1] != '\'' {
		return "", "", errors.New("the path is not quoted")
	}
	path := strings.NewReplacer(`'\''`, `'`, `'\!'`, `!`).Replace(arg[1 : len(arg)-1])
	clean := filepath.Clean("/" + path)
	if strings.ContainsRune(path, '\'') || clean != "/"+strings.TrimPrefix(path, "/") {
		return "", "", errors.New("not a plain path")
	}
	return strings.TrimPrefix(name, "git-"), filepath.Join(x.s.root, clean), nil
}

// run runs the service on the repository with the session's streams, and
// returns its exit status.
func (x *SSHServer) run(ch ssh.Channel, service, dir string) uint32 {
	cmd := exec.Command(x.s.git, service, dir)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+x.s.root)
	cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 1
	}
	if err := cmd.Start(); err != nil {
		x.s.t.Logf("ssh: starting git %s: %v", service, err)
		return 1
	}
	// Not cmd.Stdin: Wait would wait for the copy, which ends only when
	// the client closes its side.
	go func() {
		_, _ = io.Copy(stdin, ch)
		stdin.Close()
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return uint32(exit.ExitCode())
	}
	return 1
}

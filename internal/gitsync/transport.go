package gitsync

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/net/proxy"

	"github.com/bindery/bindery/internal/importer"
)

// go-git v5 picks the transport of a URL's scheme from a table of the
// process, not per call, so the package installs its HTTP client there
// once. The client's dialer is the one of Bindery's other outgoing
// requests: private, loopback, link-local and other special-purpose
// addresses are refused at connect time, after DNS, so neither a host
// name that resolves inward nor a redirect reaches them, unless the call's
// context allows them (WithPrivateAddresses).
//
// go-git's SSH transport has no dialer to set: it dials with
// golang.org/x/net/proxy, through the proxy of the call's ProxyOptions
// (or, without one, of ALL_PROXY), with a context of its own. So the same
// dialer is installed there as a dialer type of x/net/proxy's registry,
// and each SSH call names it, with a key that finds the call's context
// (sshCall): the dial then sees whether the call allows private addresses,
// no proxy of the environment takes part, and the connection ends when
// the call's context does, the SSH handshake included (go-git's own
// context does not reach it).
func init() {
	safe := importer.SafeDialer(false)
	dialer := &net.Dialer{Timeout: safe.Timeout, KeepAlive: safe.KeepAlive,
		ControlContext: func(ctx context.Context, network, address string, c syscall.RawConn) error {
			if allowsPrivate(ctx) {
				return nil
			}
			return safe.Control(network, address, c)
		}}
	c := githttp.NewClient(&http.Client{Transport: &http.Transport{
		// No proxy: a proxy would make the connection the dialer checks.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: time.Minute,
		IdleConnTimeout:       30 * time.Second,
	}})
	client.InstallProtocol("http", c)
	client.InstallProtocol("https", c)

	proxy.RegisterDialerType(sshDialScheme, func(u *url.URL, _ proxy.Dialer) (proxy.Dialer, error) {
		ctx, ok := sshCalls.Load(u.Host)
		if !ok {
			return nil, errors.New("gitsync: the SSH call is over")
		}
		return sshDialer{ctx: ctx.(context.Context), dialer: dialer}, nil
	})
	// The server's ~/.ssh/config must not send a remote's host elsewhere:
	// the host dialed is the URL's, the one its known hosts name.
	gitssh.DefaultSSHConfig = nil
}

// sshDialScheme is the scheme of the proxy URL an SSH call gives go-git:
// no proxy, but the way to the call's dialer.
const sshDialScheme = "bindery-gitsync-dial"

// sshCalls holds the contexts of the SSH calls under way, by their key.
var sshCalls sync.Map

// sshCall registers ctx for the connections of one SSH call, and returns
// the ProxyOptions that make go-git dial them with it and the function
// that ends the registration and closes what the call left open.
func sshCall(ctx context.Context) (transport.ProxyOptions, func()) {
	ctx, cancel := context.WithCancel(ctx)
	key := rand.Text()
	sshCalls.Store(key, ctx)
	return transport.ProxyOptions{URL: sshDialScheme + "://" + key}, func() {
		sshCalls.Delete(key)
		cancel()
	}
}

// sshDialer dials an SSH call's connections with the call's context.
type sshDialer struct {
	ctx    context.Context
	dialer *net.Dialer
}

func (d sshDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(d.ctx, network, address)
}

// DialContext dials with the call's context, not go-git's: that is the one
// that says whether private addresses are allowed, and the connection is
// closed when it ends.
func (d sshDialer) DialContext(_ context.Context, network, address string) (net.Conn, error) {
	conn, err := d.dialer.DialContext(d.ctx, network, dialedAddress(address))
	if err != nil {
		return nil, err
	}
	context.AfterFunc(d.ctx, func() { conn.Close() })
	return conn, nil
}

// dialedAddress is the address go-git means to dial. It joins an IPv6
// host with its port as the URL spells it, brackets and all
// ("[[2001:db8::1]]:22"), which no dialer reads: one pair of brackets is
// dropped. Any other address is returned as it is.
func dialedAddress(address string) string {
	i := strings.LastIndex(address, "]:")
	if strings.HasPrefix(address, "[[") && i > 2 && address[i-1] == ']' {
		return address[1:i-1] + address[i:]
	}
	return address
}

type privateKey struct{}

// WithPrivateAddresses lets the Fetch and Push calls made with the
// returned context reach loopback and private addresses: for a server
// whose repositories are on its own network, and for tests.
func WithPrivateAddresses(ctx context.Context) context.Context {
	return context.WithValue(ctx, privateKey{}, true)
}

func allowsPrivate(ctx context.Context) bool {
	ok, _ := ctx.Value(privateKey{}).(bool)
	return ok
}

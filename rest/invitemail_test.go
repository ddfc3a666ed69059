package rest_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/config"
	"github.com/bindery/bindery/server/servertest"
)

// smtpServer is an SMTP server in the test: enough of RFC 5321 for net/smtp
// (EHLO, AUTH PLAIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT). It refuses the
// first refuse MAIL commands with a transient error, as a busy relay does.
type smtpServer struct {
	ln     net.Listener
	mu     sync.Mutex
	refuse int
	auth   []string
	mails  []smtpMail
}

type smtpMail struct {
	from string
	to   []string
	data string
}

func startSMTP(t *testing.T, refuse int) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &smtpServer{ln: ln, refuse: refuse}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.session(c)
		}
	}()
	return s
}

func (s *smtpServer) url() string { return "smtp://bot:s3cret@" + s.ln.Addr().String() }

func (s *smtpServer) session(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func(lines ...string) {
		for _, l := range lines {
			_, _ = c.Write([]byte(l + "\r\n"))
		}
	}
	reply("220 test.example ESMTP")
	var m smtpMail
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch verb {
		case "EHLO":
			reply("250-test.example", "250 AUTH PLAIN")
		case "HELO", "NOOP", "RSET":
			m = smtpMail{}
			reply("250 ok")
		case "AUTH":
			f := strings.Fields(line)
			raw, _ := base64.StdEncoding.DecodeString(f[len(f)-1])
			s.mu.Lock()
			s.auth = append(s.auth, string(raw))
			s.mu.Unlock()
			reply("235 authenticated")
		case "MAIL":
			s.mu.Lock()
			busy := s.refuse > 0
			if busy {
				s.refuse--
			}
			s.mu.Unlock()
			if busy {
				reply("451 try again later")
				continue
			}
			m.from = line
			reply("250 ok")
		case "RCPT":
			m.to = append(m.to, line)
			reply("250 ok")
		case "DATA":
			reply("354 end with .")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			m.data = b.String()
			s.mu.Lock()
			s.mails = append(s.mails, m)
			s.mu.Unlock()
			m = smtpMail{}
			reply("250 queued")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("500 unknown command")
		}
	}
}

func (s *smtpServer) received() []smtpMail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]smtpMail(nil), s.mails...)
}

// waitForMail waits for a server's deliveries to end.
func waitForMail(t *testing.T, e *servertest.Env) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	require.True(t, e.Server.Resolver().WaitForMail(ctx), "deliveries still under way")
}

// relayEnv starts a server that sends invitations through relay, logging
// to log.
func relayEnv(t *testing.T, relay *smtpServer, from string, log *servertest.Log) *servertest.Env {
	return servertest.New(t, func(c *config.Config) { c.SMTPURL, c.SMTPFrom = relay.url(), from },
		servertest.WithLog(log.Logger()))
}

// Invitations go out through the relay once they are made, one per
// address that is not a member's, after a relay that is busy at first.
func TestInvitationEmail(t *testing.T) {
	t.Parallel()
	relay := startSMTP(t, 1)
	var logs servertest.Log
	e := relayEnv(t, relay, "Bindery <docs@bindery.test>", &logs)
	reader := e.User("reader@example.com")
	_, err := e.Client.Member.Create().SetOrganizationID(e.Org.ID).SetUserID(reader.ID).Save(context.Background())
	require.NoError(t, err)
	res := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken,
		map[string]any{"emails": []string{"ann@example.com", "reader@example.com", "Bob <bob@example.com>"}, "role": "edit"}, http.StatusOK)
	assert.EqualValues(t, 2, res["invited"])
	waitForMail(t, e)

	mails := relay.received()
	require.Len(t, mails, 2, "one per invitation: the reader was a member")
	assert.Equal(t, []string{"RCPT TO:<ann@example.com>"}, mails[0].to)
	assert.Equal(t, []string{"RCPT TO:<bob@example.com>"}, mails[1].to)
	assert.Equal(t, "MAIL FROM:<docs@bindery.test>", mails[0].from)
	assert.Contains(t, mails[0].data, "Subject: owner invited you to Acme Docs on Bindery\r\n")
	assert.Contains(t, mails[0].data, "To: ann@example.com\r\n")
	assert.Contains(t, mails[0].data, `invited you to join the organization "Acme Docs" on Bindery, with the edit role.`)
	assert.Contains(t, mails[0].data, "You are not a member until you accept")
	assert.Regexp(t, `POST http://bindery.test/v1/orgs/`+e.Org.ID+`/invites/inv_\w+ with its API token`, mails[0].data)
	assert.Contains(t, mails[0].data, "http://bindery.test/o/"+e.Org.ID)
	assert.Contains(t, relay.auth, "\x00bot\x00s3cret", "PLAIN authentication with the URL's user")
	assert.Contains(t, logs.String(), "email not sent, retrying", "the busy relay's refusal")
	assert.Contains(t, logs.String(), "email sent")
}

// A relay that never takes the message: the invitation stays, the failure
// is logged after the last attempt.
func TestInvitationEmailFails(t *testing.T) {
	t.Parallel()
	relay := startSMTP(t, 100)
	var logs servertest.Log
	e := relayEnv(t, relay, "docs@bindery.test", &logs)
	res := e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken,
		map[string]any{"emails": []string{"ann@example.com"}}, http.StatusOK)
	waitForMail(t, e)
	assert.Empty(t, relay.received())
	assert.Contains(t, logs.String(), "email not delivered")
	assert.Equal(t, 3, strings.Count(logs.String(), "email not sent, retrying"), "four attempts")
	assert.EqualValues(t, 1, res["invited"])
	items := e.MustDo(http.MethodGet, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken, nil, http.StatusOK)["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "ann@example.com", items[0].(map[string]any)["email"])
}

// Without a relay, invitations are logged; a refused invitation sends
// nothing.
func TestInvitationLogged(t *testing.T) {
	t.Parallel()
	var logs servertest.Log
	e := servertest.New(t, servertest.WithLog(logs.Logger()))
	e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken,
		map[string]any{"emails": []string{"ann@example.com", "bad address"}}, http.StatusBadRequest)
	e.MustDo(http.MethodPost, "/v1/orgs/"+e.Org.ID+"/invites", e.OwnerToken,
		map[string]any{"emails": []string{"ann@example.com"}}, http.StatusOK)
	waitForMail(t, e)
	assert.Equal(t, 1, strings.Count(logs.String(), "email not sent: BINDERY_SMTP_URL is not set"))
	assert.Contains(t, logs.String(), "to=ann@example.com")
}

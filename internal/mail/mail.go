// Package mail sends Bindery's email: invitations. A Sender delivers one
// message; SMTP speaks to a relay with net/smtp, Log only records what
// would have been sent, for servers without a relay.
package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"mime"
	"net"
	netmail "net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Message is one email to one recipient.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// ParseURL checks an SMTP relay's URL: smtp:// (STARTTLS when the server
// offers it) or smtps:// (TLS from the start), a host, an optional port and
// optional user:password, and nothing else.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("not a URL")
	}
	if u.Scheme != "smtp" && u.Scheme != "smtps" {
		return nil, fmt.Errorf("the scheme must be smtp or smtps")
	}
	if u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("must be smtp[s]://[user:password@]host[:port]")
	}
	return u, nil
}

// SMTP sends through an SMTP relay.
type SMTP struct {
	addr, host  string
	implicitTLS bool
	user        *url.Userinfo
	// from is the sender as the From header shows it; envelope is its
	// bare address, which MAIL FROM takes.
	from, envelope string
	// tls is the TLS configuration of the connection; tests trust their
	// own server with it.
	tls *tls.Config
}

// NewSMTP returns a sender through the relay at rawURL (see ParseURL),
// from the address from ("docs@example.com" or "Docs <docs@example.com>").
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := ParseURL(rawURL)
	if err != nil {
		return nil, err
	}
	sender, err := netmail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("the sender %q is not an email address", from)
	}
	s := &SMTP{host: u.Hostname(), implicitTLS: u.Scheme == "smtps", user: u.User, from: sender.String(), envelope: sender.Address}
	port := u.Port()
	if port == "" {
		port = "25"
		if s.implicitTLS {
			port = "465"
		}
	}
	s.addr = net.JoinHostPort(s.host, port)
	s.tls = &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
	return s, nil
}

// sendTimeout bounds one delivery attempt, connection included.
const sendTimeout = 30 * time.Second

// Send delivers one message: one connection, one transaction.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return err
	}
	deadline, _ := ctx.Deadline()
	if err := conn.SetDeadline(deadline); err != nil {
		conn.Close()
		return err
	}
	if s.implicitTLS {
		conn = tls.Client(conn, s.tls)
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Close()
	if !s.implicitTLS {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tls); err != nil {
				return err
			}
		}
	}
	if s.user != nil {
		pass, _ := s.user.Password()
		if err := c.Auth(smtp.PlainAuth("", s.user.Username(), pass, s.host)); err != nil {
			return err
		}
	}
	if err := c.Mail(s.envelope); err != nil {
		return err
	}
	if err := c.Rcpt(m.To); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(Compose(s.from, m, time.Now())); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// Compose writes a message in Internet Message Format: headers (the subject
// encoded, so that no value can add a header) and the text body with CRLF
// line ends.
func Compose(from string, m Message, now time.Time) []byte {
	var b strings.Builder
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", from)
	header("To", m.To)
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "8bit")
	b.WriteString("\r\n")
	body := strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n")
	b.WriteString(body)
	if !strings.HasSuffix(body, "\r\n") {
		b.WriteString("\r\n")
	}
	return []byte(b.String())
}

// Log records messages instead of sending them: a server without a relay
// still shows who was invited.
type Log struct{ Logger *slog.Logger }

// Send logs the message.
func (l Log) Send(ctx context.Context, m Message) error {
	l.Logger.InfoContext(ctx, "email not sent: BINDERY_SMTP_URL is not set", "to", m.To, "subject", m.Subject, "body", m.Body)
	return nil
}

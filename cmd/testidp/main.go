// Command testidp is a SAML identity provider for trying Bindery's SAML
// sign-in on one machine, and for the end-to-end check that does: crewjam's
// samlidp (the library Bindery's SAML checks come from), with one person
// who signs in on its login form. It is a development tool: its
// administrative endpoints take anyone's changes, so it listens on
// loopback only. See docs/sign-in.md.
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crewjam/saml/samlidp"
	"golang.org/x/crypto/bcrypt"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7000", "where to listen: a loopback address")
	public := flag.String("url", "", "the address browsers reach the provider at, when it is not http://<addr>")
	dir := flag.String("dir", "testidp", "where the provider's key and certificate are kept (made at the first start)")
	email := flag.String("email", "saml.jackson@example.com", "the address of the one person who signs in")
	password := flag.String("password", "bindery", "that person's password")
	flag.Parse()
	if err := run(*addr, *public, *dir, *email, *password); err != nil {
		log.Fatal("testidp: ", err)
	}
}

func run(addr, public, dir, email, password string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not a loopback address: the provider's administrative endpoints are open to anyone who reaches it", addr)
	}
	key, cert, certFile, err := keyPair(dir)
	if err != nil {
		return err
	}
	base := url.URL{Scheme: "http", Host: addr}
	if public != "" {
		u, err := url.Parse(public)
		if err != nil || u.Host == "" {
			return fmt.Errorf("--url %q is not an absolute URL", public)
		}
		base = *u
	}
	idp, err := samlidp.New(samlidp.Options{URL: base, Key: key, Certificate: cert, Store: &samlidp.MemoryStore{}})
	if err != nil {
		return err
	}
	// The user is stored as samlidp's PUT /users/:id stores one: the
	// password's bcrypt hash, never the password.
	name, _, _ := strings.Cut(email, "@")
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	if err := idp.Store.Put("/users/"+name, samlidp.User{Name: name, Email: email, HashedPassword: hash,
		CommonName: name}); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Printf(`testidp: a SAML identity provider at %[1]s
  entity ID:    %[1]s/metadata
  SSO URL:      %[1]s/sso
  certificate:  %[2]s
  signs in:     %[3]s (user %[4]s, password %[5]s)
Register Bindery's provider once it exists (its service.entityID is its metadata's URL):
  curl -s <service.entityID> | curl -s -X PUT --data-binary @- http://%[6]s/services/bindery
`, base.String(), certFile, email, name, password, addr)
	srv := &http.Server{Handler: idp, ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}

// keyPair reads the provider's key and certificate from dir, making them
// at the first start, so that a Bindery provider set up with the
// certificate keeps working across restarts.
func keyPair(dir string) (*rsa.PrivateKey, *x509.Certificate, string, error) {
	keyFile, certFile := filepath.Join(dir, "idp-key.pem"), filepath.Join(dir, "idp-cert.pem")
	keyPEM, err := os.ReadFile(keyFile)
	if errors.Is(err, fs.ErrNotExist) {
		if err := makeKeyPair(dir, keyFile, certFile); err != nil {
			return nil, nil, "", err
		}
		keyPEM, err = os.ReadFile(keyFile)
	}
	if err != nil {
		return nil, nil, "", err
	}
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return nil, nil, "", err
	}
	kb, _ := pem.Decode(keyPEM)
	cb, _ := pem.Decode(certPEM)
	if kb == nil || cb == nil {
		return nil, nil, "", fmt.Errorf("%s or %s is not PEM: remove both to make new ones", keyFile, certFile)
	}
	key, err := x509.ParsePKCS1PrivateKey(kb.Bytes)
	if err != nil {
		return nil, nil, "", err
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, "", err
	}
	return key, cert, certFile, nil
}

func makeKeyPair(dir, keyFile, certFile string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: "testidp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(1, 0, 0)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY",
		Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

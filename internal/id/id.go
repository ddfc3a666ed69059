// Package id generates and inspects Bindery's resource identifiers.
//
// An ID is a short type prefix, an underscore and a random base62 body, for
// example "spc_4Fq0ZrT8nVb2Lk9WmXe1". The prefix makes IDs unique across all
// types and lets node(id:) and internal routing find the table in one step; the
// body carries 119 bits of randomness, so IDs cannot be guessed or enumerated.
package id

import (
	"crypto/rand"
	"strings"
)

// Type prefixes. Each resource type owns exactly one.
const (
	User                    = "usr"
	APIToken                = "tok"
	Organization            = "org"
	Member                  = "mbr"
	Team                    = "team"
	TeamMember              = "tmm"
	Invite                  = "inv"
	SAMLProvider            = "saml"
	Collection              = "col"
	Space                   = "spc"
	ContentGrant            = "grt"
	Revision                = "rev"
	ChangeRequest           = "cr"
	Comment                 = "cmt"
	CommentReply            = "rpl"
	Reaction                = "rct"
	Site                    = "site"
	SiteSection             = "sec"
	SiteSectionGroup        = "sgr"
	SiteSpace               = "ssp"
	SiteRedirect            = "rdr"
	ShareLink               = "shl"
	OpenAPISpec             = "oas"
	OpenAPISpecVersion      = "oav"
	TranslationSettings     = "trs"
	Integration             = "itg"
	IntegrationInstallation = "ins"
	Page                    = "pg"
	File                    = "fil"
	ReusableContent         = "rc"
	WebhookEndpoint         = "whk"
	WebhookDelivery         = "whd"
	WebhookAttempt          = "wha"
)

// BodyLength is the number of base62 characters after the prefix.
const BodyLength = 20

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// New returns a fresh random ID with the given type prefix.
func New(prefix string) string {
	return prefix + "_" + Random(BodyLength)
}

// SecretBodyLength is the number of base62 characters of a secret ID's
// body: 256 bits of randomness.
const SecretBodyLength = 43

// NewSecret returns a fresh random ID that is a bearer secret, such as an
// invite link's: its body is long enough that holding the ID proves it was
// given.
func NewSecret(prefix string) string {
	return prefix + "_" + Random(SecretBodyLength)
}

// Random returns n random base62 characters from a cryptographic source.
func Random(n int) string {
	// Rejection sampling keeps every character uniformly likely:
	// 248 is the largest multiple of 62 below 256.
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+8)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("id: crypto/rand failed: " + err.Error())
		}
		for _, b := range buf {
			if b < 248 {
				out = append(out, alphabet[b%62])
				if len(out) == n {
					break
				}
			}
		}
	}
	return string(out)
}

// PrefixOf returns the type prefix of an ID, or "" when the ID has none.
func PrefixOf(s string) string {
	i := strings.IndexByte(s, '_')
	if i <= 0 {
		return ""
	}
	return s[:i]
}

// Is reports whether s is a well-formed ID of the given prefix.
func Is(s, prefix string) bool {
	if !strings.HasPrefix(s, prefix+"_") {
		return false
	}
	body := s[len(prefix)+1:]
	if len(body) != BodyLength {
		return false
	}
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(alphabet, body[i]) < 0 {
			return false
		}
	}
	return true
}

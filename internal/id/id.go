// Package id generates and inspects Bindery's resource identifiers.
//
// An ID is a short type prefix, an underscore and a random base62 body, for
// example "spc_4Fq0ZrT8nVb2Lk9WmXe1". The prefix makes IDs unique across all
// types and lets node(id:) and internal routing find the table in one step.
// The body is the time it was made (10 characters, see New) then 10 random
// characters: about 59.5 bits of randomness, which makes the IDs of one
// millisecond infeasible to enumerate. An ordinary ID is no secret, though:
// authorization decides who reads what, whoever knows the ID. An ID that is
// a bearer secret (an invite link's) is made by NewSecret, with 256 bits.
package id

import (
	"crypto/rand"
	"strings"
	"sync"
	"time"
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
	SignInFlow              = "sif"
	UserIdentity            = "uid"
	SignInReplay            = "srp"
	GitSync                 = "gsy"
	GitSyncOperation        = "gso"
	GitDeployKey            = "gdk"
)

// BodyLength is the number of base62 characters after the prefix.
const BodyLength = 20

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// New returns a fresh ID with the given type prefix. Its body starts with
// when it was made (orderedLength characters: the millisecond, then a
// sequence within it) and ends with random characters, so that the IDs one
// server makes sort, as bytes, in the order it made them. Lists ordered by
// creation time break ties by ID: without this, resources made in the same
// millisecond (a script creating spaces one after another) were listed in
// the order of random IDs, not in the order they were made. IDs of
// different servers in the same millisecond still sort at random.
func New(prefix string) string {
	return prefix + "_" + ordered() + Random(BodyLength-orderedLength)
}

// The time part of an ID: base62 milliseconds since the Unix epoch (8
// characters last for millions of years), then a base62 sequence within
// the millisecond (2 characters: 3,844 IDs; the next ones borrow the next
// millisecond, so the part only ever grows).
const (
	timeLength    = 8
	seqLength     = 2
	orderedLength = timeLength + seqLength
)

// clock is the last time part New made.
var clock struct {
	sync.Mutex
	ms, seq int64
}

// ordered returns the next time part, greater than every earlier one.
func ordered() string {
	now := time.Now().UnixMilli()
	clock.Lock()
	if now > clock.ms {
		clock.ms, clock.seq = now, 0
	} else if clock.seq++; clock.seq == 62*62 {
		clock.ms, clock.seq = clock.ms+1, 0
	}
	ms, seq := clock.ms, clock.seq
	clock.Unlock()
	b := make([]byte, orderedLength)
	base62(b[:timeLength], ms)
	base62(b[timeLength:], seq)
	return string(b)
}

// base62 writes v into b, most significant character first.
func base62(b []byte, v int64) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = alphabet[v%62]
		v /= 62
	}
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

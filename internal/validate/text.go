package validate

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Every string a request carries, in either API, is text: valid UTF-8
// without a NUL character. The checks below run at the edge of both
// transports, before anything is decoded or stored, because past it the
// two faults are either fatal or invisible: PostgreSQL refuses both in a
// text column (`invalid byte sequence for encoding "UTF8": 0x00`), which
// would be a 500, while Go's encoding/json and the GraphQL lexer quietly
// turn invalid UTF-8 and lone surrogates into U+FFFD, which would store
// something the client did not send. So they are refused, with the field
// named, the same way on both databases.

// Problems of text. Each reads as the end of a sentence about a field.
var (
	ErrInvalidUTF8 = errors.New("must be valid UTF-8")
	ErrNUL         = errors.New("must not contain a NUL character (U+0000)")
	ErrSurrogate   = errors.New(`must not contain a \u escape of a UTF-16 surrogate: send the character itself`)
)

// Text reports what keeps s from being text, or nil.
func Text(s string) error {
	if !utf8.ValidString(s) {
		return ErrInvalidUTF8
	}
	if strings.IndexByte(s, 0) >= 0 {
		return ErrNUL
	}
	return nil
}

// Values checks the names and values of a query string: it returns the
// problem, and the name of the parameter whose value has it ("" when a
// name itself is at fault). Names are checked in order, so the answer does
// not depend on map order.
func Values(v url.Values) (name string, err error) {
	names := slices.Sorted(maps.Keys(v))
	for _, n := range names {
		if err := Text(n); err != nil {
			return "", err
		}
	}
	for _, n := range names {
		for _, s := range v[n] {
			if err := Text(s); err != nil {
				return n, err
			}
		}
	}
	return "", nil
}

// TextError is a text problem at a place in a JSON document.
type TextError struct {
	// Path names the member whose value is wrong, as "input.tags[2]", or
	// the object whose member name is wrong when InName is set; "" is the
	// document itself.
	Path   string
	InName bool
	Err    error
}

func (e *TextError) Error() string {
	if e.Path == "" {
		return e.Problem()
	}
	return e.Path + ": " + e.Problem()
}

// Problem says what is wrong, without the path: "must be valid UTF-8", or
// "a member name must be valid UTF-8".
func (e *TextError) Problem() string {
	if e.InName {
		return "a member name " + e.Err.Error()
	}
	return e.Err.Error()
}

func (e *TextError) Unwrap() error { return e.Err }

// JSON checks every string of the JSON document b, member names included:
// their bytes must be valid UTF-8, their escapes must not encode a lone
// surrogate, and their decoded value must not hold NUL ("\u0000" is valid
// JSON). The error is a *TextError. A document malformed in another way is
// left to the decoder that follows, which reports it in its own words: JSON
// returns nil for it.
func JSON(b []byte) error {
	d := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	for {
		tok, err := d.ReadToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return syntaxProblem(d, b, err)
		}
		if tok.Kind() == '"' && strings.IndexByte(tok.String(), 0) >= 0 {
			depth := d.StackDepth()
			kind, n := d.StackIndex(depth)
			inName := kind == '{' && n%2 == 1
			return &TextError{Path: jsonPath(d, d.StackPointer(), inName), InName: inName, Err: ErrNUL}
		}
	}
}

// syntaxProblem returns the text problem a decoding error is about, or nil
// when it is about something else. The decoder stops at the first invalid
// byte of a string, and at the backslash of an escape of a lone surrogate.
func syntaxProblem(d *jsontext.Decoder, b []byte, err error) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || se.ByteOffset < 0 || se.ByteOffset >= int64(len(b)) {
		return nil
	}
	off := int(se.ByteOffset)
	var problem error
	switch {
	case firstInvalidUTF8(b) == off:
		problem = ErrInvalidUTF8
	case surrogateEscape(b[off:]):
		problem = ErrSurrogate
	default:
		return nil
	}
	// The pointer names the value being read; when the fault is in a
	// member name, it stops at the object, one level short of the decoder.
	inName := pointerLen(se.JSONPointer) < d.StackDepth()
	return &TextError{Path: jsonPath(d, se.JSONPointer, false), InName: inName, Err: problem}
}

// firstInvalidUTF8 returns the offset of the first byte of b that is not
// valid UTF-8, or -1.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w == 1 {
			return i
		}
		i += w
	}
	return -1
}

// EscapesSurrogate reports whether a string literal, as written in JSON or
// GraphQL source, holds a \u escape of a UTF-16 surrogate. An escaped
// backslash does not start an escape.
func EscapesSurrogate(literal string) bool {
	for i := 0; i < len(literal)-1; i++ {
		if literal[i] != '\\' {
			continue
		}
		if surrogateEscape([]byte(literal[i:min(i+6, len(literal))])) {
			return true
		}
		i++
	}
	return false
}

// surrogateEscape reports whether b starts with an escape from \uD800 to
// \uDFFF, the UTF-16 surrogates.
func surrogateEscape(b []byte) bool {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' || (b[2] != 'd' && b[2] != 'D') {
		return false
	}
	return strings.ContainsRune("89abcdefABCDEF", rune(b[3])) && isHex(b[4]) && isHex(b[5])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func pointerLen(p jsontext.Pointer) int {
	n := 0
	for range p.Tokens() {
		n++
	}
	return n
}

// jsonPath spells a JSON pointer as the API's field names are spelled:
// members joined by dots, array elements as [i]. The decoder says which
// levels are arrays. dropLast leaves out the last token, a member name.
func jsonPath(d *jsontext.Decoder, p jsontext.Pointer, dropLast bool) string {
	n := pointerLen(p)
	if dropLast {
		n--
	}
	var sb strings.Builder
	level := 0
	for tok := range p.Tokens() {
		if level == n {
			break
		}
		level++
		if kind, _ := d.StackIndex(level); kind == '[' {
			sb.WriteString("[" + tok + "]")
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(tok)
	}
	return sb.String()
}

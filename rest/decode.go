package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/validate"
)

// maxBodyBytes bounds a request body: 413 over it. /v1 bodies are small
// (titles, settings, a URL to import from); 1 MiB leaves room for any.
const maxBodyBytes = 1 << 20

// Opt is a body member that may be absent, null or set, which /v1 tells
// apart: absent leaves a value unchanged, null removes it. A member that
// may be absent but not null is a pointer tagged rest:"nonnull" instead.
type Opt[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// UnmarshalJSON records that the member was present.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return strictUnmarshal(b, &o.Value)
}

// nullable marks Opt as the one kind of member that may be null.
func (Opt[T]) nullable() {}

// Ptr returns the value, or nil when absent or null.
func (o Opt[T]) Ptr() *T {
	if !o.Set || o.Null {
		return nil
	}
	v := o.Value
	return &v
}

// Omittable returns the member as a GraphQL omittable: unset when absent,
// set to nil when null.
func (o Opt[T]) Omittable() graphql.Omittable[*T] {
	if !o.Set {
		return graphql.Omittable[*T]{}
	}
	return graphql.OmittableOf(o.Ptr())
}

// A body struct declares the members it accepts with json tags, and what
// /v1 requires of them with rest tags, which the decoder applies so that no
// handler repeats them:
//
//	rest:"required"     the member must be present and not null;
//	rest:"nonnull"      the member may be absent but not null (a pointer),
//	                    which every member but an Opt is: the tag says so
//	                    where a reader might wonder;
//	rest:"unsupported"  the member is in the official API but Bindery does
//	                    not implement it, and says so rather than ignore it.
//
// Checks run in this order, so that a client learns of the most basic fault
// first: malformed JSON, a missing required member or one of the wrong
// type (in the order of the struct); an unknown member; an unsupported one;
// a null one.
type rule int

const (
	optional rule = iota
	required
	nonNull
	unsupported
)

var rules = map[string]rule{"": optional, "required": required, "nonnull": nonNull, "unsupported": unsupported}

// member is a field of a body struct and its /v1 name.
type member struct {
	index int
	name  string
	rule  rule
	// nullable is set for an Opt, whose null removes a value: null is
	// refused for every other member, as the official spec marks them
	// (a null there would read as absent and change nothing, silently).
	nullable bool
}

// bodyDecoder decodes the body of one operation into its body struct.
type bodyDecoder struct {
	members []member
}

// decoderFor reads the tags of the body struct B. It panics on a tag it does
// not know, which the route table meets when it is built, so that a typo
// fails every test rather than one request.
func decoderFor[B any]() bodyDecoder {
	t := reflect.TypeFor[B]()
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("rest: body %s is not a struct", t))
	}
	var d bodyDecoder
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		r, ok := rules[f.Tag.Get("rest")]
		if !ok {
			panic(fmt.Sprintf("rest: body %s.%s has an unknown rest tag %q", t, f.Name, f.Tag.Get("rest")))
		}
		if r == nonNull && f.Type.Kind() != reflect.Pointer {
			panic(fmt.Sprintf("rest: body %s.%s is nonnull but not a pointer: absent would read as a zero value", t, f.Name))
		}
		_, nullable := reflect.Zero(f.Type).Interface().(interface{ nullable() })
		d.members = append(d.members, member{index: i, name: name, rule: r, nullable: nullable})
	}
	return d
}

// nullable returns the names of the members that take null.
func (d bodyDecoder) nullable() []string {
	var out []string
	for _, m := range d.members {
		if m.nullable {
			out = append(out, m.name)
		}
	}
	return out
}

// unsupported returns the names of the members refused whatever their
// value.
func (d bodyDecoder) unsupported() []string {
	var out []string
	for _, m := range d.members {
		if m.rule == unsupported {
			out = append(out, m.name)
		}
	}
	return out
}

// decode reads a JSON object into dst, a pointer to the body struct.
// Unknown members, malformed JSON and values of the wrong type are
// InvalidArgument errors naming the member.
func (d bodyDecoder) decode(r *http.Request, dst any) error {
	members, err := readObject(r)
	if err != nil {
		return err
	}
	v := reflect.ValueOf(dst).Elem()
	var refused []member
	var nulls []member
	for _, m := range d.members {
		raw, present := members[m.name]
		delete(members, m.name)
		null := present && string(raw) == "null"
		switch {
		case m.rule == required && (!present || null):
			return apperr.Invalid(m.name, "is required")
		case !present:
			continue
		case m.rule == unsupported:
			refused = append(refused, m)
			continue
		case null && !m.nullable:
			nulls = append(nulls, m)
			continue
		}
		if err := strictUnmarshal(raw, v.Field(m.index).Addr().Interface()); err != nil {
			return memberError(m.name, err)
		}
	}
	if len(members) > 0 {
		names := make([]string, 0, len(members))
		for n := range members {
			names = append(names, n)
		}
		sort.Strings(names)
		return apperr.Invalid(names[0], "is not a known member of this request body")
	}
	if len(refused) > 0 {
		return apperr.Invalid(refused[0].name, "is not supported by this server")
	}
	if len(nulls) > 0 {
		return apperr.Invalid(nulls[0].name, "must not be null")
	}
	return nil
}

// readObject reads the request body as a JSON object, its members left
// undecoded. An empty body is an empty object (an operation that needs a
// member then says which is required); null is no object, a 400.
func readObject(r *http.Request) (map[string]json.RawMessage, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, apperr.Invalid("", "the request body must be JSON (Content-Type: application/json)")
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, apperr.TooLargef("The request body is larger than %d bytes", maxBodyBytes)
		}
		return nil, apperr.Invalid("", "the request body could not be read")
	}
	// Before decoding, which would turn invalid UTF-8 into U+FFFD: every
	// string of the body, at any depth, must be text.
	if err := validate.JSON(body); err != nil {
		return nil, textError(err)
	}
	members := map[string]json.RawMessage{}
	switch trimmed := bytes.TrimSpace(body); {
	case len(trimmed) == 0:
	case string(trimmed) == "null":
		return nil, apperr.Invalid("", "the request body must be a JSON object, not null")
	default:
		if err := json.Unmarshal(body, &members); err != nil {
			var syntax *json.SyntaxError
			if errors.As(err, &syntax) {
				return nil, apperr.Invalid("", "malformed JSON at byte %d: %s", syntax.Offset, syntax.Error())
			}
			return nil, apperr.Invalid("", "the request body must be a JSON object")
		}
	}
	return members, nil
}

// textError names the member a text problem of the body is in.
func textError(err error) error {
	var te *validate.TextError
	if !errors.As(err, &te) {
		return err
	}
	if te.Path == "" {
		return apperr.Invalid("", "the request body: %s", te.Problem())
	}
	return apperr.Invalid(te.Path, "%s", te.Problem())
}

// strictUnmarshal decodes one value, refusing unknown members of objects.
func strictUnmarshal(b []byte, dst any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(dst)
}

// memberError turns a decoding error into a message about the member.
func memberError(name string, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return apperr.Invalid(strings.TrimSuffix(name+"."+ae.Field, "."), "%s", strings.TrimPrefix(ae.Message, ae.Field+": "))
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		path := name
		if typ.Field != "" {
			path += "." + typ.Field
		}
		return apperr.Invalid(path, "must be %s, not %s", jsonKind(typ.Type), typ.Value)
	}
	msg := err.Error()
	if after, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return apperr.Invalid(name, "has an unknown member %s", after)
	}
	return apperr.Invalid(name, "%s", strings.TrimPrefix(msg, "json: "))
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "of another type"
}

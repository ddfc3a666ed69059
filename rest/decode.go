package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// maxBodyBytes bounds a request body.
const maxBodyBytes = 1 << 20

// Opt is a body member that may be absent, null or set, which /v1 tells
// apart: absent leaves a value unchanged, null removes it.
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

// nonNull returns the value of a member that may be absent but not null.
func nonNull[T any](name string, o Opt[T]) (*T, error) {
	if o.Set && o.Null {
		return nil, apperr.Invalid(name, "must not be null")
	}
	return o.Ptr(), nil
}

// unsupported refuses a member of the official API that Bindery does not
// implement, rather than ignoring it silently.
func unsupported[T any](name string, o Opt[T]) error {
	if o.Set {
		return apperr.Invalid(name, "is not supported by this server")
	}
	return nil
}

// decodeBody reads a JSON object into dst, a pointer to a struct whose json
// tags name the accepted members. A tag rest:"required" makes a member
// required. Unknown members, malformed JSON and values of the wrong type are
// InvalidArgument errors naming the member.
func decodeBody(r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return apperr.Invalid("", "the request body must be JSON (Content-Type: application/json)")
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return apperr.Invalid("", "the request body exceeds %d bytes", maxBodyBytes)
		}
		return apperr.Invalid("", "the request body could not be read")
	}
	members := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, &members); err != nil {
			var syntax *json.SyntaxError
			if errors.As(err, &syntax) {
				return apperr.Invalid("", "malformed JSON at byte %d: %s", syntax.Offset, syntax.Error())
			}
			return apperr.Invalid("", "the request body must be a JSON object")
		}
	}
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		required := t.Field(i).Tag.Get("rest") == "required"
		if name == "" || name == "-" {
			continue
		}
		raw, present := members[name]
		delete(members, name)
		if !present || string(raw) == "null" {
			if required {
				return apperr.Invalid(name, "is required")
			}
			if !present {
				continue
			}
		}
		if err := strictUnmarshal(raw, v.Field(i).Addr().Interface()); err != nil {
			return memberError(name, err)
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
	return nil
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

// Query parameters.

// listArgs reads the page and limit parameters of a list.
func listArgs(r *http.Request) (page.Args, error) {
	q := r.URL.Query()
	a := page.Args{}
	limit := page.DefaultLimit
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > validate.MaxListLimit {
			return a, apperr.Invalid("limit", "must be an integer from 0 to %d", validate.MaxListLimit)
		}
		limit = n
	}
	a.First = &limit
	if s := q.Get("page"); s != "" {
		c, err := page.Parse("page", s)
		if err != nil {
			return a, err
		}
		a.After = &c
	}
	return a, nil
}

// boolParam reads an optional boolean query parameter.
func boolParam(r *http.Request, name string, def bool) (bool, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, apperr.Invalid(name, "must be true or false")
	}
	return b, nil
}

// stringParam reads an optional string query parameter.
func stringParam(r *http.Request, name string) *string {
	if s := r.URL.Query().Get(name); s != "" {
		return &s
	}
	return nil
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

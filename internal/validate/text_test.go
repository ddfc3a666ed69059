package validate

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestText(t *testing.T) {
	assert.NoError(t, Text(""))
	assert.NoError(t, Text("héllo 👍\t\n"))
	assert.ErrorIs(t, Text("a\x00b"), ErrNUL)
	assert.ErrorIs(t, Text("a\xffb"), ErrInvalidUTF8)
	assert.ErrorIs(t, Text("\xed\xa0\x80"), ErrInvalidUTF8, "a surrogate encoded in UTF-8 is not UTF-8")
}

func TestValues(t *testing.T) {
	name, err := Values(url.Values{"limit": {"1"}, "page": {"ok", "a\x00"}})
	assert.Equal(t, "page", name)
	assert.ErrorIs(t, err, ErrNUL)
	name, err = Values(url.Values{"a\xff": {"x"}, "page": {"\xff"}})
	assert.Equal(t, "", name, "a bad name is reported first, as no name")
	assert.ErrorIs(t, err, ErrInvalidUTF8)
	_, err = Values(url.Values{"q": {"héllo"}})
	assert.NoError(t, err)
}

func TestEscapesSurrogate(t *testing.T) {
	assert.True(t, EscapesSurrogate(`"\ud83d\udc4d"`))
	assert.True(t, EscapesSurrogate(`"a\uDFFF"`))
	assert.False(t, EscapesSurrogate(`"\u00e9 \uE000 \uD7FF"`))
	assert.False(t, EscapesSurrogate(`"\\ud800"`), "an escaped backslash, then text")
	assert.True(t, EscapesSurrogate(`"\\\ud800"`), "an escaped backslash, then an escape")
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		path      string
		inName    bool
		err       error
	}{
		{"plain text", `{"title":"héllo 👍","n":1,"tags":["a",null,true]}`, "", false, nil},
		{"an escaped surrogate pair is a character", `{"emoji":"\ud83d\udc4d"}`, "", false, nil},
		{"malformed JSON is the decoder's to report", `{"a":`, "", false, nil},
		{"a syntax error before a bad byte is not a text problem", "{\"a\" 1, \"b\":\"\xff\"}", "", false, nil},

		{"NUL in a value", `{"title":"a\u0000b"}`, "title", false, ErrNUL},
		{"NUL deep in arrays and objects", `{"a":[1,{"b":["x","\u0000"]}]}`, "a[1].b[1]", false, ErrNUL},
		{"NUL in a member name", `{"input":{"ti\u0000tle":"x"}}`, "input", true, ErrNUL},
		{"NUL at the top", `"\u0000"`, "", false, ErrNUL},
		{"invalid UTF-8 in a value", "{\"input\":{\"title\":\"a\xffb\"}}", "input.title", false, ErrInvalidUTF8},
		{"invalid UTF-8 in an array", "[1,\"\xff\"]", "[1]", false, ErrInvalidUTF8},
		{"invalid UTF-8 in a member name", "{\"a\":{\"b\xff\":1}}", "a", true, ErrInvalidUTF8},
		{"a UTF-8 encoded surrogate", "{\"a\":\"\xed\xa0\x80\"}", "a", false, ErrInvalidUTF8},
		{"an escaped lone surrogate", `{"a":[{"b":"\ud800"}]}`, "a[0].b", false, ErrSurrogate},
		{"an escaped low surrogate alone", `{"a":"x\uDC00"}`, "a", false, ErrSurrogate},
		{"a high surrogate before another escape", `{"a":"\ud800\u0041"}`, "a", false, ErrSurrogate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := JSON([]byte(tc.doc))
			if tc.err == nil {
				assert.NoError(t, err)
				return
			}
			var te *TextError
			require.True(t, errors.As(err, &te), "%v", err)
			assert.ErrorIs(t, err, tc.err)
			assert.Equal(t, tc.path, te.Path)
			assert.Equal(t, tc.inName, te.InName)
			if tc.path != "" {
				assert.True(t, strings.HasPrefix(err.Error(), tc.path+": "), err.Error())
			}
		})
	}
}

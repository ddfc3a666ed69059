package document

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMentions(t *testing.T) {
	for name, tc := range map[string]struct {
		markdown      string
		emails, links []string
	}{
		"none":             {"Looks good.", nil, nil},
		"an email":         {"Thanks @Ada@Example.com!", []string{"ada@example.com"}, nil},
		"at the start":     {"@bob@example.org please check", []string{"bob@example.org"}, nil},
		"twice, once kept": {"@a@x.io and @A@X.io", []string{"a@x.io"}, nil},
		"across emphasis":  {"**@carol_b@example.com** and _@dan@example.com_", []string{"carol_b@example.com", "dan@example.com"}, nil},
		"a plain address":  {"write to ada@example.com", nil, nil},
		"in code":          {"`@ada@example.com` and\n\n```\n@bob@example.com\n```", nil, nil},
		"a link":           {"[Ada](https://api.example.com/v1/users/usr_1)", nil, []string{"https://api.example.com/v1/users/usr_1"}},
		"an image":         {"![x](https://example.com/usr_1.png)", nil, nil},
	} {
		t.Run(name, func(t *testing.T) {
			emails, links := Mentions(tc.markdown)
			assert.Equal(t, tc.emails, emails)
			assert.Equal(t, tc.links, links)
		})
	}
}

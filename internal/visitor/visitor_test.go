package visitor

import (
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestClaims(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { return now }
	key := NewKey()
	if len(key) != 43 || key == NewKey() {
		t.Fatalf("a key is 43 random characters: %q", key)
	}
	sign := func(m jwt.SigningMethod, k string, c jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(m, c).SignedString([]byte(k))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	exp := func(d time.Duration) jwt.MapClaims { return jwt.MapClaims{"exp": now.Add(d).Unix(), "plan": "free"} }
	for _, c := range []struct {
		name  string
		token string
		key   *string
		ok    bool
	}{
		{"valid", sign(jwt.SigningMethodHS256, key, exp(time.Hour)), &key, true},
		{"expired", sign(jwt.SigningMethodHS256, key, exp(-time.Minute)), &key, false},
		{"without exp", sign(jwt.SigningMethodHS256, key, jwt.MapClaims{"plan": "free"}), &key, false},
		{"another key", sign(jwt.SigningMethodHS256, "other", exp(time.Hour)), &key, false},
		{"another algorithm", sign(jwt.SigningMethodHS512, key, exp(time.Hour)), &key, false},
		{"not a JWT", "nope", &key, false},
		{"no key", sign(jwt.SigningMethodHS256, key, exp(time.Hour)), nil, false},
	} {
		claims, err := Claims(c.token, c.key, clock)
		if c.ok != (err == nil) {
			t.Errorf("%s: error %v", c.name, err)
		}
		if c.ok && claims["plan"] != "free" {
			t.Errorf("%s: claims %v", c.name, claims)
		}
		if c.key == nil && !errors.Is(err, ErrNoKey) {
			t.Errorf("%s: %v, want ErrNoKey", c.name, err)
		}
	}
}

package position

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/apperr"
)

func sibs(pos ...float64) []Sibling {
	out := make([]Sibling, len(pos))
	for i, p := range pos {
		out[i] = Sibling{ID: string(rune('a' + i)), Pos: p}
	}
	return out
}

// record is a setter that remembers what it wrote.
func record(written *map[string]float64) func(context.Context, Sibling) error {
	*written = map[string]float64{}
	return func(_ context.Context, s Sibling) error {
		(*written)[s.ID] = s.Pos
		return nil
	}
}

func ptr(s string) *string { return &s }

func TestSort(t *testing.T) {
	s := []Sibling{{"c", 2}, {"b", 1}, {"a", 2}, {"d", -1}}
	Sort(s)
	assert.Equal(t, []Sibling{{"d", -1}, {"b", 1}, {"a", 2}, {"c", 2}}, s, "by position, ties by ID")
}

func TestIndex(t *testing.T) {
	s := sibs(1, 2, 3) // a, b, c
	for _, tc := range []struct {
		name          string
		before, after *string
		want          int
	}{
		{"no position goes last", nil, nil, 3},
		{"before the first", ptr("a"), nil, 0},
		{"before one", ptr("c"), nil, 2},
		{"after one", nil, ptr("a"), 1},
		{"after the last", nil, ptr("c"), 3},
		{"between adjacent ones", ptr("c"), ptr("b"), 2},
	} {
		k, err := Index(s, tc.before, tc.after)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, k, tc.name)
	}
	k, err := Index(nil, nil, nil)
	assert.NoError(t, err)
	assert.Equal(t, 0, k, "the first of none")

	for _, tc := range []struct {
		name, field   string
		before, after *string
	}{
		{"an unknown before", "position.before", ptr("x"), nil},
		{"an unknown after", "position.after", nil, ptr("x")},
		{"an unknown after with a before", "position.after", ptr("a"), ptr("x")},
		{"not adjacent", "position", ptr("c"), ptr("a")},
		{"the wrong way round", "position", ptr("a"), ptr("b")},
		{"before of nothing after the last", "position", ptr("a"), ptr("c")},
	} {
		_, err := Index(s, tc.before, tc.after)
		var e *apperr.Error
		require.True(t, errors.As(err, &e), "%s: %v", tc.name, err)
		assert.Equal(t, apperr.InvalidArgument, e.Kind, tc.name)
		assert.Equal(t, tc.field, e.Field, tc.name)
	}
}

func TestPlace(t *testing.T) {
	ctx := context.Background()
	var written map[string]float64
	for _, tc := range []struct {
		name string
		sibs []Sibling
		k    int
		want float64
	}{
		{"the first of none", nil, 0, Step},
		{"last", sibs(1, 2), 2, 2 + Step},
		{"first", sibs(1, 2), 0, 1 - Step/2},
		{"between", sibs(1, 2), 1, 1.5},
	} {
		p, err := Place(ctx, tc.sibs, tc.k, record(&written))
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, p, tc.name)
		assert.Empty(t, written, "%s: no renumbering", tc.name)
	}
}

func TestPlaceRenumbersWithoutRoom(t *testing.T) {
	ctx := context.Background()
	var written map[string]float64
	// No float lies between a and b: a and the one before it move down.
	hi := 5000.0
	s := []Sibling{{"z", 10}, {"a", math.Nextafter(hi, 0)}, {"b", hi}, {"c", hi + 1}}
	p, err := Place(ctx, s, 2, record(&written))
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"z": hi - 2*Step, "a": hi - Step}, written, "those before the place, a step apart below b")
	assert.Equal(t, hi-Step/2, p)
	assert.True(t, s[1].Pos < p && p < s[2].Pos, "between its neighbours")
	assert.Equal(t, hi, s[2].Pos, "nothing after the place moves")

	// Far from zero, a step below is no room either: all start over.
	big := 1e300
	s = []Sibling{{"a", big}, {"b", math.Nextafter(big, math.Inf(1))}}
	p, err = Place(ctx, s, 1, record(&written))
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"a": Step, "b": 2 * Step}, written)
	assert.Equal(t, 1.5*Step, p)

	// A setter's failure is the placement's.
	boom := errors.New("boom")
	_, err = Place(ctx, []Sibling{{"a", 1}, {"b", math.Nextafter(1, 2)}}, 1, func(context.Context, Sibling) error { return boom })
	assert.ErrorIs(t, err, boom)
}

func TestNeighboursAndCurrent(t *testing.T) {
	s := sibs(1, 2, 3) // a, b, c
	prev, next := Neighbours(s, 0)
	assert.Equal(t, [2]string{"", "a"}, [2]string{prev, next})
	prev, next = Neighbours(s, 3)
	assert.Equal(t, [2]string{"c", ""}, [2]string{prev, next})
	prev, next = Neighbours(s, 1)
	assert.Equal(t, [2]string{"a", "b"}, [2]string{prev, next})

	assert.Equal(t, 0, Current(s, "x", 0.5))
	assert.Equal(t, 1, Current(s, "x", 1.5))
	assert.Equal(t, 3, Current(s, "x", 9))
	assert.Equal(t, 1, Current(s, "0", 2), "a tie goes by ID: before b")
	assert.Equal(t, 2, Current(s, "bb", 2), "a tie goes by ID: after b")
}

// Package position orders siblings by a float position, ties broken by ID.
// An item moved between two siblings takes the midpoint of their positions,
// so a move writes one row. When repeated moves exhaust the precision
// between two neighbours, the siblings are renumbered once, through the
// caller's setter, in the caller's transaction. Spaces and collections,
// site sections and groups, and site-spaces are ordered this way.
package position

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/bindery/bindery/internal/apperr"
)

// Step is the distance between positions given afresh: after the last
// sibling, before the first, and when siblings are renumbered.
const Step = 1024.0

// Sibling is an item among those ordered together.
type Sibling struct {
	ID  string
	Pos float64
}

// Sort orders siblings by position, then by ID.
func Sort(sibs []Sibling) {
	slices.SortFunc(sibs, func(a, b Sibling) int {
		switch {
		case a.Pos < b.Pos:
			return -1
		case a.Pos > b.Pos:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Index returns where, among sibs (in order), an item goes to be just
// before the sibling named before and just after the one named after;
// without either it goes last. An unknown sibling is an invalid
// position.before or position.after; both must name adjacent siblings.
func Index(sibs []Sibling, before, after *string) (int, error) {
	if before == nil && after == nil {
		return len(sibs), nil
	}
	find := func(field, id string) (int, error) {
		if i := slices.IndexFunc(sibs, func(s Sibling) bool { return s.ID == id }); i >= 0 {
			return i, nil
		}
		return 0, apperr.Invalid(field, "%q is not an item of the destination", id)
	}
	if after != nil {
		i, err := find("position.after", *after)
		if err != nil {
			return 0, err
		}
		if before != nil && (i+1 >= len(sibs) || sibs[i+1].ID != *before) {
			return 0, apperr.Invalid("position", "before and after must name adjacent items")
		}
		return i + 1, nil
	}
	return find("position.before", *before)
}

// Place returns the position for an item inserted at index k of sibs (in
// order), renumbering siblings first when there is no room left between
// them: set writes a renumbered sibling, and sibs holds the new positions.
//
// A renumbering lowers positions and never raises one: it moves the
// siblings before index k down, one step apart, below the sibling at k, and
// leaves the others alone. So the highest position among siblings never
// drops, and an item placed above it by a writer that reads no siblings
// stays last whatever a concurrent move renumbers.
func Place(ctx context.Context, sibs []Sibling, k int, set func(context.Context, Sibling) error) (float64, error) {
	lo, hi := 0.0, 0.0
	switch {
	case len(sibs) == 0:
		return Step, nil
	case k == len(sibs):
		return sibs[k-1].Pos + Step, nil
	case k == 0:
		lo, hi = sibs[0].Pos-Step, sibs[0].Pos
	default:
		lo, hi = sibs[k-1].Pos, sibs[k].Pos
	}
	if mid := lo + (hi-lo)/2; lo < mid && mid < hi {
		return mid, nil
	}
	if k > 0 {
		head := make([]float64, k)
		for i := range head {
			head[i] = hi - float64(k-i)*Step
		}
		if lo, mid := head[k-1], hi-Step/2; lo < mid && mid < hi {
			for i := range head {
				sibs[i].Pos = head[i]
				if err := set(ctx, sibs[i]); err != nil {
					return 0, err
				}
			}
			return mid, nil
		}
	}
	// Only positions this far from zero leave no room a step below them,
	// and reaching them takes billions of moves: start over from small ones.
	for i := range sibs {
		sibs[i].Pos = float64(i+1) * Step
		if err := set(ctx, sibs[i]); err != nil {
			return 0, err
		}
	}
	return Place(ctx, sibs, k, set)
}

// Neighbours returns the IDs around index k of sibs, "" where there is
// none: two indexes with the same neighbours are the same place.
func Neighbours(sibs []Sibling, k int) (prev, next string) {
	if k > 0 {
		prev = sibs[k-1].ID
	}
	if k < len(sibs) {
		next = sibs[k].ID
	}
	return prev, next
}

// Current returns the index of an item among its siblings (in order,
// without it) from its ID and position.
func Current(sibs []Sibling, id string, pos float64) int {
	return sort.Search(len(sibs), func(i int) bool {
		return sibs[i].Pos > pos || (sibs[i].Pos == pos && sibs[i].ID > id)
	})
}

package merge

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLCS checks on random sequences that lcs returns a common subsequence
// as long as the one dynamic programming finds.
func TestLCS(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		a := randomInts(r, r.Intn(30), 1+r.Intn(6))
		b := randomInts(r, r.Intn(30), 1+r.Intn(6))
		pairs := lcs(a, b)
		for k, p := range pairs {
			require.Equal(t, a[p.i], b[p.j], "a %v b %v", a, b)
			if k > 0 {
				require.Greater(t, p.i, pairs[k-1].i)
				require.Greater(t, p.j, pairs[k-1].j)
			}
		}
		require.Equal(t, lcsLength(a, b), len(pairs), "a %v b %v", a, b)
	}
}

func TestLCSLarge(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	a := randomInts(r, 5000, 50)
	b := append([]int(nil), a...)
	for i := 0; i < 100; i++ {
		b[r.Intn(len(b))] = 1000 + i
	}
	require.GreaterOrEqual(t, len(lcs(a, b)), 4900)
	require.Empty(t, lcs(randomInts(r, 3000, 1), randomInts(r, 3000, 1)[:0]))
}

func randomInts(r *rand.Rand, n, alphabet int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.Intn(alphabet)
	}
	return out
}

func lcsLength(a, b []int) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

func TestOrderSiblings(t *testing.T) {
	tests := []struct {
		name                     string
		members                  []string
		base, ours, theirs, want []string
	}{
		{
			name:    "unchanged",
			members: []string{"a", "b", "c"},
			base:    []string{"a", "b", "c"}, ours: []string{"a", "b", "c"}, theirs: []string{"a", "b", "c"},
			want: []string{"a", "b", "c"},
		},
		{
			name:    "one side reorders",
			members: []string{"a", "b", "c"},
			base:    []string{"a", "b", "c"}, ours: []string{"c", "a", "b"}, theirs: []string{"a", "b", "c"},
			want: []string{"c", "a", "b"},
		},
		{
			name:    "each side moves a different page",
			members: []string{"x", "a", "b", "y"},
			base:    []string{"x", "a", "b", "y"}, ours: []string{"a", "b", "y", "x"}, theirs: []string{"y", "x", "a", "b"},
			want: []string{"y", "a", "b", "x"},
		},
		{
			name:    "insertions at the same place come in ID order",
			members: []string{"a", "b", "n2", "n1"},
			base:    []string{"a", "b"}, ours: []string{"a", "n2", "b"}, theirs: []string{"a", "n1", "b"},
			want: []string{"a", "n1", "n2", "b"},
		},
		{
			name:    "runs inserted at the same place stay together",
			members: []string{"a", "z1", "z2", "m1"},
			base:    []string{"a"}, ours: []string{"a", "z2", "z1"}, theirs: []string{"a", "m1"},
			want: []string{"a", "m1", "z2", "z1"},
		},
		{
			name:    "one side reorders while the other inserts",
			members: []string{"a", "b", "c", "n"},
			base:    []string{"a", "b", "c"}, ours: []string{"c", "b", "a"}, theirs: []string{"a", "n", "b", "c"},
			want: []string{"c", "b", "a", "n"},
		},
		{
			name:    "a page moved in from another parent goes where its side put it",
			members: []string{"a", "b", "m"},
			base:    []string{"a", "b"}, ours: []string{"a", "m", "b"}, theirs: []string{"a", "b"},
			want: []string{"a", "m", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, orderSiblings(tt.members, tt.base, tt.ours, tt.theirs))
			require.Equal(t, tt.want, orderSiblings(tt.members, tt.base, tt.theirs, tt.ours))
		})
	}
}

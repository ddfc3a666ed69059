package merge

// pair is one match of a common subsequence: a[i] == b[j].
type pair struct{ i, j int }

// lcs returns the matches of a longest common subsequence of a and b, in
// increasing order. It is Myers' linear-space algorithm as diff-match-patch
// writes it: take off the common prefix and suffix, split what is left at the
// point where the forward and the backward searches meet, and recurse on both
// halves. Matches only ever come from a common prefix or suffix, so the
// result is a common subsequence whatever the split.
func lcs(a, b []int) []pair {
	var out []pair
	lcsInto(&out, a, b, 0, 0)
	return out
}

// lcsInto appends to out the matches of a and b, which start at a0 and b0 in
// the sequences lcs was called with.
func lcsInto(out *[]pair, a, b []int, a0, b0 int) {
	p := commonPrefix(a, b)
	for k := 0; k < p; k++ {
		*out = append(*out, pair{a0 + k, b0 + k})
	}
	a, b, a0, b0 = a[p:], b[p:], a0+p, b0+p
	s := commonSuffix(a, b)
	midA, midB := a[:len(a)-s], b[:len(b)-s]
	if len(midA) > 0 && len(midB) > 0 {
		x, y := bisect(midA, midB)
		if progresses(x, y, len(midA), len(midB)) {
			lcsInto(out, midA[:x], midB[:y], a0, b0)
			lcsInto(out, midA[x:], midB[y:], a0+x, b0+y)
		}
	}
	for k := 0; k < s; k++ {
		*out = append(*out, pair{a0 + len(midA) + k, b0 + len(midB) + k})
	}
}

// progresses says whether splitting at (x, y) makes both halves smaller.
// bisect returns -1 when the sequences have nothing in common.
func progresses(x, y, n, m int) bool {
	return x >= 0 && y >= 0 && x+y > 0 && x+y < n+m
}

func commonPrefix(a, b []int) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []int) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// bisect finds where a shortest edit script from a to b can be split: the
// point where a forward D-path and a backward D-path first overlap (Myers
// 1986, section 4b). It returns -1, -1 when no split is found, which only
// happens when a and b share no element.
func bisect(a, b []int) (int, int) {
	n, m := len(a), len(b)
	maxD := (n + m + 1) / 2
	off := maxD
	size := 2*maxD + 2
	fwd := make([]int, size)
	bwd := make([]int, size)
	for i := range fwd {
		fwd[i], bwd[i] = -1, -1
	}
	fwd[off+1], bwd[off+1] = 0, 0
	delta := n - m
	// With an odd delta the paths meet on a forward step, otherwise on a
	// backward one.
	odd := delta%2 != 0
	var fStart, fEnd, bStart, bEnd int
	for d := 0; d < maxD; d++ {
		for k := -d + fStart; k <= d-fEnd; k += 2 {
			i := off + k
			x := furthest(fwd, i, k, d)
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			fwd[i] = x
			switch {
			case x > n:
				fEnd += 2
			case y > m:
				fStart += 2
			case odd:
				j := off + delta - k
				if j >= 0 && j < size && bwd[j] != -1 && x >= n-bwd[j] {
					return x, y
				}
			}
		}
		for k := -d + bStart; k <= d-bEnd; k += 2 {
			i := off + k
			x := furthest(bwd, i, k, d)
			y := x - k
			for x < n && y < m && a[n-x-1] == b[m-y-1] {
				x, y = x+1, y+1
			}
			bwd[i] = x
			switch {
			case x > n:
				bEnd += 2
			case y > m:
				bStart += 2
			case !odd:
				j := off + delta - k
				if j >= 0 && j < size && fwd[j] != -1 {
					fx := fwd[j]
					if fx >= n-x {
						return fx, fx - (delta - k)
					}
				}
			}
		}
	}
	return -1, -1
}

// furthest is where a D-path on diagonal k starts: one step down from
// diagonal k+1 or one step right from diagonal k-1, whichever reached
// further.
func furthest(v []int, i, k, d int) int {
	if k == -d || (k != d && v[i-1] < v[i+1]) {
		return v[i+1]
	}
	return v[i-1] + 1
}

// region is a run of the three sequences of a diff3: base[o0:o1],
// ours[a0:a1] and theirs[b0:b1]. A stable region is one element that both
// sides kept in place; between two stable regions lies an unstable one.
type region struct {
	stable                 bool
	o0, o1, a0, a1, b0, b1 int
}

// diff3 cuts o (base), a and b into regions. Elements of o matched in both
// a longest common subsequence of (o, a) and one of (o, b) are stable; the
// runs between them are what one side or both changed.
func diff3(o, a, b []int) []region {
	ma := matchIndex(len(o), lcs(o, a))
	mb := matchIndex(len(o), lcs(o, b))
	var out []region
	oi, ai, bi := 0, 0, 0
	for i := range o {
		if ma[i] < 0 || mb[i] < 0 {
			continue
		}
		if i > oi || ma[i] > ai || mb[i] > bi {
			out = append(out, region{o0: oi, o1: i, a0: ai, a1: ma[i], b0: bi, b1: mb[i]})
		}
		out = append(out, region{stable: true, o0: i, o1: i + 1, a0: ma[i], a1: ma[i] + 1, b0: mb[i], b1: mb[i] + 1})
		oi, ai, bi = i+1, ma[i]+1, mb[i]+1
	}
	if oi < len(o) || ai < len(a) || bi < len(b) {
		out = append(out, region{o0: oi, o1: len(o), a0: ai, a1: len(a), b0: bi, b1: len(b)})
	}
	return out
}

// matchIndex turns matches into, for each of the n base elements, the index
// it is matched to, or -1.
func matchIndex(n int, pairs []pair) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = -1
	}
	for _, p := range pairs {
		idx[p.i] = p.j
	}
	return idx
}

// interner gives equal strings equal numbers, so that sequences of lines or
// IDs can be diffed as ints.
type interner map[string]int

func (in interner) ints(ss []string) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		n, ok := in[s]
		if !ok {
			n = len(in)
			in[s] = n
		}
		out[i] = n
	}
	return out
}

package enum

// rank orders roles from least to most powerful. It is the only place the
// order is written down.
var rank = map[Role]int{
	RoleRead:    1,
	RoleComment: 2,
	RoleEdit:    3,
	RoleReview:  4,
	RoleCreate:  5,
	RoleAdmin:   6,
}

// Rank returns the role's position in the order; 0 for no role.
func (v Role) Rank() int { return rank[v] }

// AtLeast reports whether v grants everything min grants. The empty role
// grants nothing.
func (v Role) AtLeast(min Role) bool { return v != "" && rank[v] >= rank[min] }

// MaxRole returns the more powerful of two roles; the empty role is the least.
func MaxRole(a, b Role) Role {
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// MinRole returns the less powerful of two roles; the empty role is the least.
func MinRole(a, b Role) Role {
	if rank[b] < rank[a] {
		return b
	}
	return a
}

// Role returns the role a default level names, and false for inherit.
func (v DefaultLevel) Role() (Role, bool) {
	if v == DefaultLevelInherit || v == "" {
		return "", false
	}
	return Role(v), true
}

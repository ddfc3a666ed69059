package model

import (
	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
)

// MemberSpace is a space a member can access, with the role authorization
// gives them on it.
type MemberSpace struct {
	Space      *ent.Space
	Permission enum.Role
}

// TeamMembership is a member's membership of a team.
type TeamMembership struct {
	Team *ent.Team
	Role enum.TeamMemberRole
}

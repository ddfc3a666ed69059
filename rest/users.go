package rest

import (
	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/apperr"
)

// viewer is the user the request's token belongs to.
func (p params) viewer() (*ent.User, error) { return p.a.r.Query().Viewer(p.ctx()) }

// user is the user the path names, when the viewer may see them.
func (p params) user() (*ent.User, error) {
	n, err := p.a.r.Query().Node(p.ctx(), p.path("userId"))
	if err != nil {
		return nil, err
	}
	u, isUser := n.(*ent.User)
	if !isUser || u == nil {
		return nil, apperr.NotFoundf("User not found")
	}
	return u, nil
}

package rest

import (
	"context"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
)

// PresentWebhookObject renders the object of a webhook event as /v1
// presents it, through the same resolver calls and presenters as its GET
// route (see graph.WebhookPresenter). It runs inside the transaction of
// the change, as the viewer who made it, who sees the object. An object
// that is gone (a member removed) or that the viewer no longer sees is
// rendered as {"id": subject}; so is the revision of space.content.
func (a *API) PresentWebhookObject(ctx context.Context, org string, t enum.WebhookEventType, subject string) (any, error) {
	var out any
	var err error
	switch t {
	case enum.WebhookEventTypeMemberAdded, enum.WebhookEventTypeMemberRemoved:
		var o *ent.Organization
		if o, err = a.r.Query().Organization(ctx, org); err == nil {
			var m *ent.Member
			if m, err = a.r.Organization().Member(ctx, o, subject); err == nil {
				out, err = a.presentMember(ctx, m)
			}
		}
	case enum.WebhookEventTypeSpaceContent:
		return map[string]any{"object": "revision", "id": subject}, nil
	default:
		var n ent.Noder
		if n, err = a.r.Query().Node(ctx, subject); err == nil {
			switch x := n.(type) {
			case *ent.Space:
				out, err = a.presentSpace(ctx, x)
			case *ent.ChangeRequest:
				out, err = a.presentChangeRequest(ctx, x)
			case *ent.Comment:
				out, err = a.presentComment(ctx, x)
			case *ent.Site:
				out, err = a.presentSite(ctx, x)
			case nil:
				err = apperr.NotFoundf("not found")
			default:
				return map[string]any{"id": subject}, nil
			}
		}
	}
	switch apperr.KindOf(err) {
	case apperr.NotFound, apperr.PermissionDenied:
		return map[string]any{"id": subject}, nil
	}
	return out, err
}

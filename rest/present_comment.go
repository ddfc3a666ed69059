package rest

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
)

// commentJSON is the official Comment. status is open or resolved; a
// resolved comment carries resolvedAt and resolvedBy.
type commentJSON struct {
	Object string `json:"object"`
	ID     string `json:"id"`
	// PostedBy is required by the spec, but absent when the author's
	// account is gone, as a change request's createdBy is.
	PostedBy    *userJSON                 `json:"postedBy,omitempty"`
	PostedAt    string                    `json:"postedAt"`
	EditedAt    string                    `json:"editedAt,omitempty"`
	Reactions   []emojiReactionJSON       `json:"reactions"`
	Replies     int                       `json:"replies"`
	Body        documentJSON              `json:"body"`
	Target      commentTargetJSON         `json:"target"`
	URLs        *model.CommentURLs        `json:"urls"`
	Permissions *authz.CommentPermissions `json:"permissions"`
	Status      enum.CommentStatus        `json:"status"`
	ResolvedAt  string                    `json:"resolvedAt,omitempty"`
	ResolvedBy  *userJSON                 `json:"resolvedBy,omitempty"`
}

// replyJSON is the official CommentReply.
type replyJSON struct {
	Object      string                    `json:"object"`
	ID          string                    `json:"id"`
	PostedBy    *userJSON                 `json:"postedBy,omitempty"`
	PostedAt    string                    `json:"postedAt"`
	EditedAt    string                    `json:"editedAt,omitempty"`
	Reactions   []emojiReactionJSON       `json:"reactions"`
	Body        documentJSON              `json:"body"`
	URLs        *model.CommentURLs        `json:"urls"`
	Permissions *authz.CommentPermissions `json:"permissions"`
}

// documentJSON is the official Document as Bindery answers it: markdown,
// or a JSON document (format=document, the default).
type documentJSON struct {
	Markdown *string         `json:"markdown,omitempty"`
	Document json.RawMessage `json:"document,omitempty"`
}

type commentTargetJSON struct {
	Node          *commentNodeJSON       `json:"node,omitempty"`
	ChangeRequest string                 `json:"changeRequest,omitempty"`
	Page          *commentTargetPageJSON `json:"page,omitempty"`
	Space         string                 `json:"space"`
	Revision      string                 `json:"revision,omitempty"`
}

type commentNodeJSON struct {
	ID string `json:"id"`
}

type commentTargetPageJSON struct {
	*model.CommentTargetPage
	CreatedAt string `json:"createdAt,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

type emojiReactionJSON struct {
	Emoji string             `json:"emoji"`
	Count int                `json:"count"`
	Users []reactionUserJSON `json:"users"`
}

type reactionUserJSON struct {
	User      userJSON `json:"user"`
	ReactedAt string   `json:"reactedAt"`
}

func (a *API) presentComment(ctx context.Context, c *ent.Comment) (commentJSON, error) {
	res := a.r.Comment()
	j := commentJSON{Object: "comment", ID: c.ID, PostedAt: model.FormatTime(c.PostedAt), Status: c.Status}
	if c.EditedAt != nil {
		j.EditedAt = model.FormatTime(*c.EditedAt)
	}
	if c.ResolvedAt != nil {
		j.ResolvedAt = model.FormatTime(*c.ResolvedAt)
	}
	var err error
	if j.PostedBy, err = a.presentOptionalUser(ctx)(res.PostedBy(ctx, c)); err != nil {
		return j, err
	}
	if j.ResolvedBy, err = a.presentOptionalUser(ctx)(res.ResolvedBy(ctx, c)); err != nil {
		return j, err
	}
	if j.Reactions, err = a.presentReactions(ctx)(res.Reactions(ctx, c)); err != nil {
		return j, err
	}
	if j.Replies, err = res.ReplyCount(ctx, c); err != nil {
		return j, err
	}
	body, err := res.Body(ctx, c)
	if err != nil {
		return j, err
	}
	if j.Body, err = a.presentDocument(ctx, body); err != nil {
		return j, err
	}
	if j.Target, err = a.presentTarget(ctx, c); err != nil {
		return j, err
	}
	if j.URLs, err = res.Urls(ctx, c); err != nil {
		return j, err
	}
	j.Permissions, err = res.Permissions(ctx, c)
	return j, err
}

func (a *API) presentReply(ctx context.Context, rp *ent.CommentReply) (replyJSON, error) {
	res := a.r.CommentReply()
	j := replyJSON{Object: "comment-reply", ID: rp.ID, PostedAt: model.FormatTime(rp.PostedAt)}
	if rp.EditedAt != nil {
		j.EditedAt = model.FormatTime(*rp.EditedAt)
	}
	var err error
	if j.PostedBy, err = a.presentOptionalUser(ctx)(res.PostedBy(ctx, rp)); err != nil {
		return j, err
	}
	if j.Reactions, err = a.presentReactions(ctx)(res.Reactions(ctx, rp)); err != nil {
		return j, err
	}
	body, err := res.Body(ctx, rp)
	if err != nil {
		return j, err
	}
	if j.Body, err = a.presentDocument(ctx, body); err != nil {
		return j, err
	}
	if j.URLs, err = res.Urls(ctx, rp); err != nil {
		return j, err
	}
	j.Permissions, err = res.Permissions(ctx, rp)
	return j, err
}

// presentOptionalUser presents a related user, absent when there is none.
func (a *API) presentOptionalUser(ctx context.Context) func(*ent.User, error) (*userJSON, error) {
	return func(u *ent.User, err error) (*userJSON, error) {
		if err != nil || u == nil {
			return nil, err
		}
		j, err := a.presentUser(ctx, u)
		return &j, err
	}
}

// presentDocument presents a body as the request's format asks.
func (a *API) presentDocument(ctx context.Context, b *model.CommentBody) (documentJSON, error) {
	if asMarkdown(ctx) {
		return documentJSON{Markdown: &b.Markdown}, nil
	}
	d, err := a.r.CommentBody().Document(ctx, b)
	return documentJSON{Document: json.RawMessage(d)}, err
}

func (a *API) presentReactions(ctx context.Context) func([]*model.EmojiReaction, error) ([]emojiReactionJSON, error) {
	return func(rs []*model.EmojiReaction, err error) ([]emojiReactionJSON, error) {
		if err != nil {
			return nil, err
		}
		out := make([]emojiReactionJSON, 0, len(rs))
		for _, r := range rs {
			e := emojiReactionJSON{Emoji: r.Emoji, Count: r.Count, Users: []reactionUserJSON{}}
			for _, ru := range r.Users {
				u, err := a.r.EmojiReactionUser().User(ctx, ru)
				if err != nil {
					return nil, err
				}
				if u == nil {
					// The account is gone: the reaction counts, but has
					// no one to present.
					continue
				}
				uj, err := a.presentUser(ctx, u)
				if err != nil {
					return nil, err
				}
				e.Users = append(e.Users, reactionUserJSON{User: uj, ReactedAt: model.FormatTime(ru.ReactedAt)})
			}
			out = append(out, e)
		}
		return out, nil
	}
}

func (a *API) presentTarget(ctx context.Context, c *ent.Comment) (commentTargetJSON, error) {
	t, err := a.r.Comment().Target(ctx, c)
	if err != nil {
		return commentTargetJSON{}, err
	}
	res := a.r.CommentTarget()
	var j commentTargetJSON
	s, err := res.Space(ctx, t)
	if err != nil {
		return j, err
	}
	j.Space = idOf(s)
	cr, err := res.ChangeRequest(ctx, t)
	if err != nil {
		return j, err
	}
	if cr != nil {
		j.ChangeRequest = cr.ID
	}
	// Whoever sees the comment sees its revision: it is presented by ID
	// without loading it.
	if j.Revision, err = a.r.VisibleRevisionID(ctx, c.SpaceID, c.RevisionID); err != nil {
		return j, err
	}
	if t.Page != nil {
		p := &commentTargetPageJSON{CommentTargetPage: t.Page}
		if t.Page.CreatedAt != nil {
			p.CreatedAt = model.FormatTime(*t.Page.CreatedAt)
		}
		if t.Page.UpdatedAt != nil {
			p.UpdatedAt = model.FormatTime(*t.Page.UpdatedAt)
		}
		j.Page = p
	}
	if n := t.Node(); n != nil {
		j.Node = &commentNodeJSON{ID: n.ID}
	}
	return j, nil
}

package graph

import (
	"context"
	"fmt"
	"slices"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/reaction"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/validate"
)

// commentPlace is what a new comment is on: a space's main content, or one
// of its change requests; the viewer may comment on it.
type commentPlace struct {
	space *ent.Space
	cr    *ent.ChangeRequest
}

func (r *Resolver) placeToComment(ctx context.Context, spaceID, crID *string) (commentPlace, error) {
	var p commentPlace
	var err error
	switch {
	case (spaceID == nil) == (crID == nil):
		return p, apperr.Invalid("spaceId", "give either spaceId, to comment on a space's main content, or changeRequestId")
	case crID != nil:
		var d authz.Decision
		if p.cr, p.space, d, err = r.changeRequest(ctx, *crID); err != nil {
			return p, err
		}
		if err := r.changeRequests.require(ctx, p.cr, d, authz.Comment); err != nil {
			return p, err
		}
	default:
		if p.space, _, err = r.spaces.authorize(ctx, *spaceID, authz.Comment); err != nil {
			return p, err
		}
	}
	return p, liveForComments(p.space)
}

// liveForComments refuses discussion changes in a deleted space.
func liveForComments(s *ent.Space) error {
	if s.DeletedAt != nil {
		return apperr.Preconditionf("The space is deleted; restore it first")
	}
	return nil
}

// discussedSpace returns the space of a comment whose discussion changes:
// one that is not deleted.
func (r *Resolver) discussedSpace(ctx context.Context, c *ent.Comment) (*ent.Space, error) {
	s, _, err := r.spaces.get(ctx, c.SpaceID)
	if err != nil {
		return nil, err
	}
	return s, liveForComments(s)
}

// postComment posts a comment, on a page and a node when given: the page
// must be in the content the comment is on, whose object is recorded to
// tell later whether the page changed.
func (r *Resolver) postComment(ctx context.Context, in model.PostCommentInput) (*ent.Comment, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkMarkdown(in.Markdown); err != nil {
		return nil, err
	}
	if in.NodeID != nil && in.PageID == nil {
		return nil, apperr.Invalid("node", "a node is in a page: give the page too")
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Comment, error) {
		p, err := r.placeToComment(ctx, in.SpaceID, in.ChangeRequestID)
		if err != nil {
			return nil, err
		}
		revID := p.space.RevisionID
		b := r.db(ctx).Comment.Create().SetSpaceID(p.space.ID).SetBody(in.Markdown).SetPostedByID(v.User.ID).
			SetPostedAt(r.clock())
		if p.cr != nil {
			b.SetChangeRequestID(p.cr.ID)
			revID = &p.cr.RevisionID
		}
		b.SetNillableRevisionID(revID)
		if in.PageID != nil {
			rev, err := r.revisionByID(ctx, deref(revID))
			if err != nil {
				return nil, err
			}
			c, err := r.contentOf(ctx, rev)
			if err != nil {
				return nil, err
			}
			if _, _, _, err := c.Find(*in.PageID); err != nil {
				return nil, apperr.Invalid("page", "page %q is not in the content the comment is on", *in.PageID)
			}
			hash := c.PageHash(*in.PageID)
			b.SetPageID(*in.PageID).SetNillablePageHash(nonEmptyPtr(hash)).SetNillableNodeID(in.NodeID)
		}
		mentions, err := r.mentioned(ctx, p.space.OrganizationID, in.Markdown)
		if err != nil {
			return nil, err
		}
		out, err := b.AddMentionIDs(mentions...).Save(ctx)
		if err != nil {
			return nil, err
		}
		r.emit(ctx, events.New(commentsTopic(out), events.CommentPosted, out.ID).
			For(p.space.OrganizationID, p.space.ID, enum.WebhookEventTypeCommentPosted))
		r.comments.wrote(ctx, out)
		primeAfter(ctx, (*loaders).replyCounts, out.ID, 0)
		primeAfter(ctx, (*loaders).reactions, out.ID, []*ent.Reaction{})
		r.users.wrote(ctx, v.User)
		return out, nil
	})
}

// updateComment changes a comment. Each part needs its own permission:
// editing the body its author or an admin, resolving the comment role,
// reacting the comment role too.
func (r *Resolver) updateComment(ctx context.Context, in model.UpdateCommentInput) (*ent.Comment, error) {
	if err := checkChange(in.Markdown, in.AddedReactions, in.RemovedReactions); err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.Comment, error) {
		c, d, err := r.comments.get(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		s, err := r.discussedSpace(ctx, c)
		if err != nil {
			return nil, err
		}
		u := r.db(ctx).Comment.UpdateOne(c)
		changed := false
		if in.Markdown != nil {
			if err := r.comments.require(ctx, c, d, authz.Update); err != nil {
				return nil, err
			}
			mentions, err := r.mentioned(ctx, s.OrganizationID, *in.Markdown)
			if err != nil {
				return nil, err
			}
			u.SetBody(*in.Markdown).SetEditedAt(r.clock()).ClearMentions().AddMentionIDs(mentions...)
			changed = true
			r.emit(ctx, events.New(commentsTopic(c), events.CommentEdited, c.ID))
		}
		if in.Resolved != nil {
			if err := r.comments.require(ctx, c, d, authz.Resolve); err != nil {
				return nil, err
			}
			resolved, err := r.resolve(ctx, u, c, s, *in.Resolved)
			if err != nil {
				return nil, err
			}
			changed = changed || resolved
		}
		if len(in.AddedReactions)+len(in.RemovedReactions) > 0 {
			if err := r.comments.require(ctx, c, d, authz.Comment); err != nil {
				return nil, err
			}
			reacted, err := r.react(ctx, reactionSubject{comment: c.ID}, in.AddedReactions, in.RemovedReactions)
			if err != nil {
				return nil, err
			}
			if reacted {
				r.emit(ctx, events.New(commentsTopic(c), events.CommentReactions, c.ID))
			}
		}
		if changed {
			if c, err = u.Save(ctx); err != nil {
				return nil, err
			}
		}
		r.comments.wrote(ctx, c)
		r.spaces.wrote(ctx, s) // as it was but for its counters, read again (see primeCounts)
		return c, nil
	})
}

// resolve sets the status of a comment's thread in u, and emits the event
// that reports it; it reports whether the status changes.
func (r *Resolver) resolve(ctx context.Context, u *ent.CommentUpdateOne, c *ent.Comment, s *ent.Space, resolved bool) (bool, error) {
	var kind events.Kind
	switch {
	case resolved && c.Status != enum.CommentStatusResolved:
		v, err := auth.RequireViewer(ctx)
		if err != nil {
			return false, err
		}
		u.SetStatus(enum.CommentStatusResolved).SetResolvedAt(r.clock()).SetResolvedByID(v.User.ID)
		r.users.wrote(ctx, v.User) // the comment's resolvedBy
		kind = events.CommentResolved
	case !resolved && c.Status == enum.CommentStatusResolved:
		u.SetStatus(enum.CommentStatusOpen).ClearResolvedAt().ClearResolvedByID()
		kind = events.CommentReopened
	default:
		return false, nil
	}
	e := events.New(commentsTopic(c), kind, c.ID)
	if kind == events.CommentResolved {
		e = e.For(s.OrganizationID, s.ID, enum.WebhookEventTypeCommentResolved)
	}
	r.emit(ctx, e)
	return true, nil
}

// checkChange checks the values of a change before anything is read.
func checkChange(markdown *string, added, removed []string) error {
	if markdown != nil {
		if err := checkMarkdown(*markdown); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		field  string
		emojis []string
	}{{"addedReactions", added}, {"removedReactions", removed}} {
		for i, e := range l.emojis {
			if err := validate.Reaction(e); err != nil {
				return apperr.Invalid(fmt.Sprintf("%s[%d]", l.field, i), "%s", err.Error())
			}
		}
	}
	for _, e := range added {
		if slices.Contains(removed, e) {
			return apperr.Invalid("removedReactions", "%q is also in addedReactions: add or remove it, not both", e)
		}
	}
	return nil
}

// reactionSubject is what a reaction is to: a comment or a reply.
type reactionSubject struct{ comment, reply string }

// react adds and removes the viewer's reactions to a subject, and reports
// whether any changed. A user reacts with an emoji once: adding it again,
// or removing one never added, changes nothing.
func (r *Resolver) react(ctx context.Context, to reactionSubject, added, removed []string) (bool, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return false, err
	}
	db := r.db(ctx)
	on := reaction.CommentID(to.comment)
	if to.reply != "" {
		on = reaction.ReplyID(to.reply)
	}
	mine, err := db.Reaction.Query().Where(on, reaction.UserID(v.User.ID),
		reaction.EmojiIn(slices.Concat(added, removed)...)).All(ctx)
	if err != nil {
		return false, fmt.Errorf("reading reactions: %w", err)
	}
	had := map[string]string{}
	for _, x := range mine {
		had[x.Emoji] = x.ID
	}
	var creates []*ent.ReactionCreate
	for _, e := range added {
		if _, ok := had[e]; !ok {
			had[e] = ""
			b := db.Reaction.Create().SetUserID(v.User.ID).SetEmoji(e).SetCreatedAt(r.clock())
			if to.reply != "" {
				b.SetReplyID(to.reply)
			} else {
				b.SetCommentID(to.comment)
			}
			creates = append(creates, b)
		}
	}
	var gone []string
	for _, e := range removed {
		if rid := had[e]; rid != "" {
			gone = append(gone, rid)
		}
	}
	if len(creates) > 0 {
		// The viewer's reactions are read above; a concurrent request of
		// theirs may have added one since, which then stays as it is.
		target, where := []string{reaction.FieldCommentID, reaction.FieldUserID, reaction.FieldEmoji}, sql.IsNull(reaction.FieldReplyID)
		if to.reply != "" {
			target, where = []string{reaction.FieldReplyID, reaction.FieldUserID, reaction.FieldEmoji}, sql.IsNull(reaction.FieldCommentID)
		}
		err := db.Reaction.CreateBulk(creates...).
			OnConflict(sql.ConflictColumns(target...), sql.ConflictWhere(where)).DoNothing().Exec(ctx)
		if err != nil {
			return false, fmt.Errorf("adding reactions: %w", err)
		}
	}
	if len(gone) > 0 {
		if _, err := db.Reaction.Delete().Where(reaction.IDIn(gone...)).Exec(ctx); err != nil {
			return false, fmt.Errorf("removing reactions: %w", err)
		}
	}
	return len(creates)+len(gone) > 0, nil
}

// resolveComment resolves or reopens a comment: updateComment with
// resolved alone.
func (r *Resolver) resolveComment(ctx context.Context, in model.ResolveCommentInput) (*ent.Comment, error) {
	return r.updateComment(ctx, model.UpdateCommentInput{ID: in.ID, Resolved: &in.Resolved})
}

// deleteComment deletes a comment; its replies, reactions and mentions go
// with it (ON DELETE CASCADE).
func (r *Resolver) deleteComment(ctx context.Context, in model.DeleteCommentInput) error {
	return act(ctx, r, r.comments, in.ID, authz.Delete, func(ctx context.Context, c *ent.Comment, _ authz.Decision) error {
		if _, err := r.discussedSpace(ctx, c); err != nil {
			return err
		}
		if err := r.db(ctx).Comment.DeleteOne(c).Exec(ctx); err != nil {
			return err
		}
		r.emit(ctx, events.New(commentsTopic(c), events.CommentDeleted, c.ID))
		return nil
	})
}

// postCommentReply replies to a comment.
func (r *Resolver) postCommentReply(ctx context.Context, in model.PostCommentReplyInput) (*ent.CommentReply, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkMarkdown(in.Markdown); err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.comments, in.CommentID, authz.Comment, func(ctx context.Context, c *ent.Comment, _ authz.Decision) (*ent.CommentReply, error) {
		s, err := r.discussedSpace(ctx, c)
		if err != nil {
			return nil, err
		}
		mentions, err := r.mentioned(ctx, s.OrganizationID, in.Markdown)
		if err != nil {
			return nil, err
		}
		out, err := r.db(ctx).CommentReply.Create().SetCommentID(c.ID).SetBody(in.Markdown).SetPostedByID(v.User.ID).
			SetPostedAt(r.clock()).AddMentionIDs(mentions...).Save(ctx)
		if err != nil {
			return nil, err
		}
		e := events.New(commentsTopic(c), events.ReplyPosted, c.ID)
		e.Reply = out.ID
		r.emit(ctx, e)
		r.commentReplies.wrote(ctx, out)
		primeAfter(ctx, (*loaders).reactions, out.ID, []*ent.Reaction{})
		r.users.wrote(ctx, v.User)
		return out, nil
	})
}

// updateCommentReply changes a reply, as updateComment changes a comment.
// resolved resolves or reopens the thread of a change request's comment;
// a space comment is resolved only as itself.
func (r *Resolver) updateCommentReply(ctx context.Context, in model.UpdateCommentReplyInput) (*ent.CommentReply, error) {
	if err := checkChange(in.Markdown, in.AddedReactions, in.RemovedReactions); err != nil {
		return nil, err
	}
	return transact(ctx, r, func(ctx context.Context) (*ent.CommentReply, error) {
		rp, d, err := r.commentReplies.get(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		c, cd, err := r.comments.get(ctx, rp.CommentID)
		if err != nil {
			return nil, err
		}
		s, err := r.discussedSpace(ctx, c)
		if err != nil {
			return nil, err
		}
		reply := func(kind events.Kind) {
			e := events.New(commentsTopic(c), kind, c.ID)
			e.Reply = rp.ID
			r.emit(ctx, e)
		}
		if in.Markdown != nil {
			if err := r.commentReplies.require(ctx, rp, d, authz.Update); err != nil {
				return nil, err
			}
			mentions, err := r.mentioned(ctx, s.OrganizationID, *in.Markdown)
			if err != nil {
				return nil, err
			}
			if rp, err = r.db(ctx).CommentReply.UpdateOne(rp).SetBody(*in.Markdown).SetEditedAt(r.clock()).
				ClearMentions().AddMentionIDs(mentions...).Save(ctx); err != nil {
				return nil, err
			}
			reply(events.ReplyEdited)
		}
		if in.Resolved != nil {
			if c.ChangeRequestID == nil {
				return nil, apperr.Invalid("resolved", "a reply to a space's comment does not resolve it: resolve the comment")
			}
			if err := r.comments.require(ctx, c, cd, authz.Resolve); err != nil {
				return nil, err
			}
			u := r.db(ctx).Comment.UpdateOne(c)
			resolved, err := r.resolve(ctx, u, c, s, *in.Resolved)
			if err != nil {
				return nil, err
			}
			if resolved {
				if c, err = u.Save(ctx); err != nil {
					return nil, err
				}
			}
		}
		if len(in.AddedReactions)+len(in.RemovedReactions) > 0 {
			if err := r.commentReplies.require(ctx, rp, d, authz.Comment); err != nil {
				return nil, err
			}
			reacted, err := r.react(ctx, reactionSubject{reply: rp.ID}, in.AddedReactions, in.RemovedReactions)
			if err != nil {
				return nil, err
			}
			if reacted {
				reply(events.ReplyReactions)
			}
		}
		r.commentReplies.wrote(ctx, rp)
		r.comments.wrote(ctx, c)
		r.spaces.wrote(ctx, s) // as it was but for its counters, read again (see primeCounts)
		return rp, nil
	})
}

// deleteCommentReply deletes a reply with its reactions.
func (r *Resolver) deleteCommentReply(ctx context.Context, in model.DeleteCommentReplyInput) error {
	return act(ctx, r, r.commentReplies, in.ID, authz.Delete, func(ctx context.Context, rp *ent.CommentReply, _ authz.Decision) error {
		c, _, err := r.comments.get(ctx, rp.CommentID)
		if err != nil {
			return err
		}
		if _, err := r.discussedSpace(ctx, c); err != nil {
			return err
		}
		if err := r.db(ctx).CommentReply.DeleteOne(rp).Exec(ctx); err != nil {
			return err
		}
		e := events.New(commentsTopic(c), events.ReplyDeleted, c.ID)
		e.Reply = rp.ID
		r.emit(ctx, e)
		return nil
	})
}

// reactTo adds (or, when remove, takes back) the viewer's reaction to a
// comment or a reply: updateComment or updateCommentReply with the one
// emoji. It returns the comment, and the reply when the subject is one.
func (r *Resolver) reactTo(ctx context.Context, subjectID, emoji string, remove bool) (*ent.Comment, *ent.CommentReply, error) {
	var added, removed []string
	if remove {
		removed = []string{emoji}
	} else {
		added = []string{emoji}
	}
	switch id.PrefixOf(subjectID) {
	case id.Comment:
		c, err := r.updateComment(ctx, model.UpdateCommentInput{ID: subjectID, AddedReactions: added, RemovedReactions: removed})
		return c, nil, err
	case id.CommentReply:
		rp, err := r.updateCommentReply(ctx, model.UpdateCommentReplyInput{ID: subjectID, AddedReactions: added, RemovedReactions: removed})
		if err != nil {
			return nil, nil, err
		}
		c, _, err := r.comments.get(ctx, rp.CommentID)
		return c, rp, err
	}
	return nil, nil, apperr.NotFoundf("Comment not found")
}

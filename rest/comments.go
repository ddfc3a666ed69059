package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/page"
)

// Comments and replies have the same operations on a space's main content
// (/spaces/{spaceId}/comments) and on a change request
// (/spaces/{spaceId}/change-requests/{changeRequestId}/comments): the rows
// differ in their path and operationId, and a path's change request, when
// it names one, is where its comments must be.

// commentOps are the operationIds of the comment operations of one place.
type commentOps struct {
	list, post, get, update, remove                            string
	listReplies, postReply, getReply, updateReply, removeReply string
}

// commentRoutes are the rows of the comments under base.
func commentRoutes(base string, ops commentOps) []route {
	c, rp := base+"/{commentId}", base+"/{commentId}/replies/{commentReplyId}"
	return []route{
		{"GET", base, http.StatusOK, ops.list, formatted(list(params.comments, (*API).presentComment))},
		{"POST", base, http.StatusOK, ops.post, formatted(mutate((*postCommentBody).input, mutation.PostComment, (*API).presentComment))},
		{"GET", c, http.StatusOK, ops.get, formatted(get(params.comment, (*API).presentComment))},
		{"PUT", c, http.StatusOK, ops.update,
			formatted(mutate((*updateCommentBody).input, mutation.UpdateComment, (*API).presentComment))},
		{"DELETE", c, http.StatusNoContent, ops.remove, remove(params.deleteComment, mutation.DeleteComment)},
		{"GET", c + "/replies", http.StatusOK, ops.listReplies, formatted(list(params.replies, (*API).presentReply))},
		{"POST", c + "/replies", http.StatusOK, ops.postReply,
			formatted(mutate((*postReplyBody).input, mutation.PostCommentReply, (*API).presentReply))},
		{"GET", rp, http.StatusOK, ops.getReply, formatted(get(params.reply, (*API).presentReply))},
		{"PUT", rp, http.StatusOK, ops.updateReply,
			formatted(mutate((*updateReplyBody).input, mutation.UpdateCommentReply, (*API).presentReply))},
		{"DELETE", rp, http.StatusNoContent, ops.removeReply, remove(params.deleteReply, mutation.DeleteCommentReply)},
	}
}

// changeRequestRef is the change request the path names, by ID or number;
// nil on a space's main content.
func (p params) changeRequestRef() *string {
	if ref := p.path("changeRequestId"); ref != "" {
		return &ref
	}
	return nil
}

// comment is the comment the path names, in the path's space and change
// request.
func (p params) comment() (*ent.Comment, error) {
	return p.a.r.CommentIn(p.ctx(), p.path("spaceId"), p.changeRequestRef(), p.path("commentId"))
}

// reply is the reply the path names, in the path's comment.
func (p params) reply() (*ent.CommentReply, error) {
	return p.a.r.CommentReplyIn(p.ctx(), p.path("spaceId"), p.changeRequestRef(), p.path("commentId"), p.path("commentReplyId"))
}

// comments lists the comments of the path's space or change request.
// order is desc (the default) or asc, status all (the default), open or
// resolved, and targetPage a page's ID.
func (p params) comments(args page.Args) (*model.CommentConnection, error) {
	order := model.CommentOrderDesc
	switch o := p.r.URL.Query().Get("order"); o {
	case "", "desc":
	case "asc":
		order = model.CommentOrderAsc
	default:
		return nil, apperr.Invalid("order", "must be asc or desc, not %q", o)
	}
	var status *enum.CommentStatus
	if s := p.query("status"); s != nil && *s != "all" {
		st, err := enum.ParseCommentStatus(*s)
		if err != nil {
			return nil, apperr.Invalid("status", "must be all, open or resolved, not %q", *s)
		}
		status = &st
	}
	// The official API also filters by authors; Bindery does not, and
	// says so rather than list the comments of every author.
	if p.query("authors") != nil {
		return nil, apperr.Invalid("authors", "is not supported by this server")
	}
	if ref := p.changeRequestRef(); ref != nil {
		cr, err := p.changeRequest()
		if err != nil {
			return nil, err
		}
		return p.a.r.ChangeRequest().Comments(p.ctx(), cr, args.First, args.After, nil, nil, &order, status, p.query("targetPage"))
	}
	s, err := p.a.r.Query().Space(p.ctx(), p.path("spaceId"), nil, nil)
	if err != nil {
		return nil, err
	}
	return p.a.r.Space().Comments(p.ctx(), s, args.First, args.After, nil, nil, &order, status, p.query("targetPage"))
}

// replies lists the replies of the path's comment, oldest first.
func (p params) replies(args page.Args) (*model.CommentReplyConnection, error) {
	c, err := p.comment()
	if err != nil {
		return nil, err
	}
	return p.a.r.Comment().Replies(p.ctx(), c, args.First, args.After, nil, nil)
}

// commentBody is the official Document a comment's body is posted as. Of
// its forms, Bindery takes markdown; a JSON document is refused, since the
// comment is stored as markdown and a document would not come back as it
// was sent.
type commentBody struct {
	Markdown *string `json:"markdown"`
}

// UnmarshalJSON reads the body's one member.
func (b *commentBody) UnmarshalJSON(raw []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return apperr.Invalid("", "must be an object with markdown")
	}
	if _, ok := members["document"]; ok {
		return apperr.Invalid("document", "is not supported by this server: post the body as markdown")
	}
	md, ok := members["markdown"]
	if !ok {
		return apperr.Invalid("markdown", "is required")
	}
	delete(members, "markdown")
	for name := range members {
		return apperr.Invalid(name, "is not a known member of a body")
	}
	if err := json.Unmarshal(md, &b.Markdown); err != nil || b.Markdown == nil {
		return apperr.Invalid("markdown", "must be a string")
	}
	return nil
}

type postCommentBody struct {
	Body      commentBody     `json:"body" rest:"required"`
	Page      *string         `json:"page" rest:"nonnull"`
	Node      *string         `json:"node" rest:"nonnull"`
	TableCell json.RawMessage `json:"tableCell" rest:"unsupported"`
}

func (b *postCommentBody) input(p params) (model.PostCommentInput, error) {
	in := model.PostCommentInput{PageID: b.Page, NodeID: b.Node, Markdown: *b.Body.Markdown}
	if p.changeRequestRef() == nil {
		in.SpaceID = ptr(p.path("spaceId"))
		return in, nil
	}
	cr, err := p.changeRequest()
	if err != nil {
		return in, err
	}
	in.ChangeRequestID = &cr.ID
	return in, nil
}

type updateCommentBody struct {
	Resolved         *bool        `json:"resolved" rest:"nonnull"`
	Body             *commentBody `json:"body" rest:"nonnull"`
	AddedReactions   []string     `json:"addedReactions"`
	RemovedReactions []string     `json:"removedReactions"`
}

func (b *updateCommentBody) input(p params) (model.UpdateCommentInput, error) {
	c, err := p.comment()
	if err != nil {
		return model.UpdateCommentInput{}, err
	}
	return model.UpdateCommentInput{ID: c.ID, Markdown: b.Body.markdown(), Resolved: b.Resolved,
		AddedReactions: b.AddedReactions, RemovedReactions: b.RemovedReactions}, nil
}

// markdown is the body's markdown, nil without a body.
func (b *commentBody) markdown() *string {
	if b == nil {
		return nil
	}
	return b.Markdown
}

func (p params) deleteComment() (model.DeleteCommentInput, error) {
	c, err := p.comment()
	if err != nil {
		return model.DeleteCommentInput{}, err
	}
	return model.DeleteCommentInput{ID: c.ID}, nil
}

type postReplyBody struct {
	Body commentBody `json:"body" rest:"required"`
}

func (b *postReplyBody) input(p params) (model.PostCommentReplyInput, error) {
	c, err := p.comment()
	if err != nil {
		return model.PostCommentReplyInput{}, err
	}
	return model.PostCommentReplyInput{CommentID: c.ID, Markdown: *b.Body.Markdown}, nil
}

// updateReplyBody takes resolved as the API contract's change request
// replies do; the application refuses it for a space comment's reply.
type updateReplyBody struct {
	Resolved         *bool        `json:"resolved" rest:"nonnull"`
	Body             *commentBody `json:"body" rest:"nonnull"`
	AddedReactions   []string     `json:"addedReactions"`
	RemovedReactions []string     `json:"removedReactions"`
}

func (b *updateReplyBody) input(p params) (model.UpdateCommentReplyInput, error) {
	rp, err := p.reply()
	if err != nil {
		return model.UpdateCommentReplyInput{}, err
	}
	return model.UpdateCommentReplyInput{ID: rp.ID, Markdown: b.Body.markdown(), Resolved: b.Resolved,
		AddedReactions: b.AddedReactions, RemovedReactions: b.RemovedReactions}, nil
}

func (p params) deleteReply() (model.DeleteCommentReplyInput, error) {
	rp, err := p.reply()
	if err != nil {
		return model.DeleteCommentReplyInput{}, err
	}
	return model.DeleteCommentReplyInput{ID: rp.ID}, nil
}

func ptr[T any](v T) *T { return &v }

// formatKey holds in a request's context whether its documents are asked
// as markdown.
type formatKey struct{}

// formatted reads the format query parameter of a row whose presenter
// shows documents: document (the default) or markdown. The presenter finds
// it in the context (asMarkdown).
func formatted(inner adapter) adapter {
	return adapter{body: inner.body, handler: func(a *API, status int) handlerFunc {
		h := inner.handler(a, status)
		return func(r *http.Request) (response, error) {
			markdown, err := markdownFormat(r)
			if err != nil {
				return response{}, err
			}
			return h(r.WithContext(context.WithValue(r.Context(), formatKey{}, markdown)))
		}
	}}
}

// markdownFormat reads the format query parameter of a read that gives
// documents: document (the default) or markdown, which it reports.
func markdownFormat(r *http.Request) (bool, error) {
	switch f := r.URL.Query().Get("format"); f {
	case "", "document":
		return false, nil
	case "markdown":
		return true, nil
	default:
		return false, apperr.Invalid("format", "must be document or markdown, not %q", f)
	}
}

// asMarkdown reports whether the request asked for markdown (see
// formatted).
func asMarkdown(ctx context.Context) bool {
	md, _ := ctx.Value(formatKey{}).(bool)
	return md
}

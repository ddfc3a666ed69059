package graph

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/commentreply"
	"github.com/bindery/bindery/ent/member"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/reaction"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/validate"
)

// Orders of the lists of comments and replies. Each name is part of its
// cursors.
var (
	commentsNewestFirst = page.Order[*ent.Comment, predicate.Comment, comment.OrderOption]{
		Name: "comments", Column: comment.FieldPostedAt, KeyType: page.KeyTime, Desc: true,
		Key: func(c *ent.Comment) any { return c.PostedAt }, ID: func(c *ent.Comment) string { return c.ID },
	}
	commentsOldestFirst = page.Order[*ent.Comment, predicate.Comment, comment.OrderOption]{
		Name: "comments-asc", Column: comment.FieldPostedAt, KeyType: page.KeyTime,
		Key: func(c *ent.Comment) any { return c.PostedAt }, ID: func(c *ent.Comment) string { return c.ID },
	}
	repliesOldestFirst = page.Order[*ent.CommentReply, predicate.CommentReply, commentreply.OrderOption]{
		Name: "comment-replies", Column: commentreply.FieldPostedAt, KeyType: page.KeyTime,
		Key: func(c *ent.CommentReply) any { return c.PostedAt }, ID: func(c *ent.CommentReply) string { return c.ID },
	}
)

// CommentFilter selects and orders a list of comments.
type CommentFilter struct {
	// Order is by posting time, newest first unless ASC.
	Order *model.CommentOrder
	// Status keeps the comments of one status; nil keeps all.
	Status *enum.CommentStatus
	// TargetPage keeps the comments on one page.
	TargetPage *string
}

// commentsOf lists the comments of a space's main content (crID nil) or of
// one of its change requests. The caller has authorized the space or the
// change request, whose viewers see all its comments.
func (r *Resolver) commentsOf(ctx context.Context, spaceID string, crID *string, f CommentFilter,
	a page.Args) (*model.CommentConnection, error) {
	hidden, err := r.changesHidden(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	q := r.db(ctx).Comment.Query().Where(comment.SpaceID(spaceID))
	if hidden {
		q.Where(comment.IDIn()) // none
	}
	if crID == nil {
		q.Where(comment.ChangeRequestIDIsNil())
	} else {
		q.Where(comment.ChangeRequestID(*crID))
	}
	if f.Status != nil {
		q.Where(comment.StatusEQ(*f.Status))
	}
	if f.TargetPage != nil {
		q.Where(comment.PageID(*f.TargetPage))
	}
	o := commentsNewestFirst
	if f.Order != nil && *f.Order == model.CommentOrderAsc {
		o = commentsOldestFirst
	}
	a.Columns = withReplyCount
	conn, err := page.Paginate(within(ctx), q, o, a)
	if err != nil {
		return nil, err
	}
	l := r.comments.loader(ctx)
	for _, c := range conn.Nodes() {
		l.Prime(ctx, c.ID, c)
	}
	if err := r.primeComments(ctx, conn.Nodes()); err != nil {
		return nil, err
	}
	return model.NewCommentConnection(conn), nil
}

// repliesOf lists a comment's replies, oldest first.
func (r *Resolver) repliesOf(ctx context.Context, c *ent.Comment, a page.Args) (*model.CommentReplyConnection, error) {
	q := r.db(ctx).CommentReply.Query().Where(commentreply.CommentID(c.ID))
	conn, err := page.Paginate(within(ctx), q, repliesOldestFirst, a)
	if err != nil {
		return nil, err
	}
	l := r.commentReplies.loader(ctx)
	for _, rp := range conn.Nodes() {
		l.Prime(ctx, rp.ID, rp)
	}
	if err := r.primeReplies(ctx, conn.Nodes()); err != nil {
		return nil, err
	}
	return model.NewCommentReplyConnection(conn), nil
}

// replyCountColumn is a column of comments read withReplyCount.
const replyCountColumn = "count_replies"

// withReplyCount adds the count of a comment's replies to a query of
// comments: a correlated count over an index.
func withReplyCount(s *sql.Selector) {
	t := sql.Table(commentreply.Table).As("n")
	s.AppendSelectExprAs(sql.Select(sql.Count("*")).From(t).
		Where(sql.ColumnsEQ(t.C(commentreply.FieldCommentID), s.C(comment.FieldID))), replyCountColumn)
}

// primeComments loads, for a page of comments, what its items show, each in
// one batch (see primeChangeRequests): their reply counts (read with the
// page), reactions, the people they name, their mentions, and the content
// their pages are in.
func (r *Resolver) primeComments(ctx context.Context, cs []*ent.Comment) error {
	if len(cs) == 0 {
		return nil
	}
	sel, inGraphQL := itemSelection(ctx, "CommentConnection", "CommentEdge", "Comment")
	want := func(field string) bool { return !inGraphQL || sel[field] }
	l := loadersFrom(ctx)
	ids := make([]string, len(cs))
	var people []string
	for i, c := range cs {
		ids[i] = c.ID
		if n, ok := intColumn(c.Value(replyCountColumn)); ok {
			l.replyCounts().Prime(ctx, c.ID, n)
		}
		if c.PostedByID != nil && want("postedBy") {
			people = append(people, *c.PostedByID)
		}
		if c.ResolvedByID != nil && want("resolvedBy") {
			people = append(people, *c.ResolvedByID)
		}
	}
	if want("target") {
		for _, c := range cs {
			if c.PageID != nil {
				// A list's comments are all on one content.
				if _, err := r.commentContent(ctx, c); err != nil {
					return err
				}
				break
			}
		}
	}
	return r.primeDiscussion(ctx, ids, people, want("reactions"), inGraphQL && sel["mentions"])
}

// primeReplies is primeComments for a page of replies.
func (r *Resolver) primeReplies(ctx context.Context, rs []*ent.CommentReply) error {
	if len(rs) == 0 {
		return nil
	}
	sel, inGraphQL := itemSelection(ctx, "CommentReplyConnection", "CommentReplyEdge", "CommentReply")
	want := func(field string) bool { return !inGraphQL || sel[field] }
	ids := make([]string, len(rs))
	var people []string
	for i, rp := range rs {
		ids[i] = rp.ID
		if rp.PostedByID != nil && want("postedBy") {
			people = append(people, *rp.PostedByID)
		}
	}
	return r.primeDiscussion(ctx, ids, people, want("reactions"), inGraphQL && sel["mentions"])
}

// primeDiscussion loads the reactions and mentions of comments or replies,
// and the people they name with the reactions' users, each in one batch.
func (r *Resolver) primeDiscussion(ctx context.Context, ids, people []string, reactions, mentions bool) error {
	l := loadersFrom(ctx)
	if reactions {
		byID, err := r.loadReactions(ctx, ids)
		if err != nil {
			return err
		}
		for _, id := range ids {
			l.reactions().Prime(ctx, id, byID[id])
			for _, x := range byID[id] {
				people = append(people, x.UserID)
			}
		}
	}
	if mentions {
		byID, err := r.loadMentions(ctx, ids)
		if err != nil {
			return err
		}
		for _, id := range ids {
			l.mentions().Prime(ctx, id, byID[id])
		}
	}
	if len(people) == 0 {
		return nil
	}
	// Read with whether each shares an organization with the viewer (see
	// fetchUsers).
	_, errs := loadMany(ctx, r.users.loader(ctx), people)
	return firstFound(errs)
}

// intColumn reads a counted column.
func intColumn(v ent.Value, err error) (int, bool) {
	n, ok := v.(int64)
	return int(n), err == nil && ok
}

// loadReplyCounts counts the replies of comments.
func (r *Resolver) loadReplyCounts(ctx context.Context, ids []string) (map[string]int, error) {
	ctx = internal(ctx, "counts of comments the viewer sees")
	var rows []struct {
		CommentID string `json:"comment_id"`
		Count     int    `json:"count"`
	}
	err := r.db(ctx).CommentReply.Query().Where(commentreply.CommentIDIn(ids...)).
		GroupBy(commentreply.FieldCommentID).Aggregate(ent.Count()).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("counting replies: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, row := range rows {
		out[row.CommentID] = row.Count
	}
	return out, nil
}

// loadReactions lists the reactions to comments and replies, by the ID of
// what they react to, first reaction first: one statement.
func (r *Resolver) loadReactions(ctx context.Context, ids []string) (map[string][]*ent.Reaction, error) {
	var comments, replies []string
	for _, x := range ids {
		if id.PrefixOf(x) == id.CommentReply {
			replies = append(replies, x)
		} else {
			comments = append(comments, x)
		}
	}
	rows, err := r.db(ctx).Reaction.Query().
		Where(reaction.Or(reaction.CommentIDIn(comments...), reaction.ReplyIDIn(replies...))).
		Order(reaction.ByCreatedAt(), reaction.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("loading reactions: %w", err)
	}
	out := make(map[string][]*ent.Reaction, len(ids))
	for _, x := range ids {
		out[x] = []*ent.Reaction{}
	}
	for _, x := range rows {
		on := deref(x.CommentID)
		if x.ReplyID != nil {
			on = *x.ReplyID
		}
		out[on] = append(out[on], x)
	}
	return out, nil
}

// loadMentions lists the users comments and replies mention, by their ID,
// each read with whether they share an organization with the viewer (see
// fetchUsers), which their email needs.
func (r *Resolver) loadMentions(ctx context.Context, ids []string) (map[string][]*ent.User, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	ctx = internal(ctx, "mentions of comments the viewer sees")
	out := make(map[string][]*ent.User, len(ids))
	var comments, replies []string
	for _, x := range ids {
		out[x] = []*ent.User{}
		if id.PrefixOf(x) == id.CommentReply {
			replies = append(replies, x)
		} else {
			comments = append(comments, x)
		}
	}
	byID := func(q *ent.UserQuery) { q.Order(user.ByID()).Modify(withShared(v.User.ID)) }
	if len(comments) > 0 {
		cs, err := r.db(ctx).Comment.Query().Where(comment.IDIn(comments...)).WithMentions(byID).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("loading mentions: %w", err)
		}
		for _, c := range cs {
			out[c.ID] = append(out[c.ID], c.Edges.Mentions...)
		}
	}
	if len(replies) > 0 {
		rs, err := r.db(ctx).CommentReply.Query().Where(commentreply.IDIn(replies...)).WithMentions(byID).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("loading mentions: %w", err)
		}
		for _, rp := range rs {
			out[rp.ID] = append(out[rp.ID], rp.Edges.Mentions...)
		}
	}
	l := loadersFrom(ctx)
	for _, users := range out {
		for _, u := range users {
			if shared, ok := boolValue(u.Value(sharedColumn)); ok {
				l.sharedUsers().Prime(ctx, u.ID, shared)
			}
		}
	}
	return out, nil
}

// commentReactions groups the reactions to a comment or a reply by emoji,
// in the order each emoji was first used.
func (r *Resolver) commentReactions(ctx context.Context, subjectID string) ([]*model.EmojiReaction, error) {
	rows, err := load(ctx, loadersFrom(ctx).reactions(), subjectID)
	if err != nil {
		return nil, err
	}
	out := []*model.EmojiReaction{}
	byEmoji := map[string]*model.EmojiReaction{}
	var users []string
	for _, x := range rows {
		e := byEmoji[x.Emoji]
		if e == nil {
			e = &model.EmojiReaction{Emoji: x.Emoji, Users: []*model.EmojiReactionUser{}}
			byEmoji[x.Emoji] = e
			out = append(out, e)
		}
		e.Count++
		e.Users = append(e.Users, &model.EmojiReactionUser{UserID: x.UserID, ReactedAt: x.CreatedAt})
		users = append(users, x.UserID)
	}
	// The users who reacted, in one batch rather than as each asks (a
	// listed page has them already, see primeDiscussion).
	if len(users) > 0 {
		if _, errs := loadMany(ctx, r.users.loader(ctx), users); firstFound(errs) != nil {
			return nil, firstFound(errs)
		}
	}
	return out, nil
}

// commentMentions lists the users a comment or a reply mentions. Whoever
// sees it sees them, as they see its author (see userEmail).
func (r *Resolver) commentMentions(ctx context.Context, subjectID string) ([]*ent.User, error) {
	return load(ctx, loadersFrom(ctx).mentions(), subjectID)
}

// commentDocument converts the markdown of a comment or a reply into a
// JSON document: a comment has no files or pages of its own to refer to.
func commentDocument(markdown string) (model.JSON, error) {
	d, err := document.FromMarkdown(markdown, document.Options{})
	if err != nil {
		return nil, err
	}
	return model.NewJSON(d)
}

// commentContent returns the current content of what a comment is on: its
// change request's or its space's main content.
func (r *Resolver) commentContent(ctx context.Context, c *ent.Comment) (*content.Loaded, error) {
	revID := ""
	if c.ChangeRequestID != nil {
		cr, _, err := r.changeRequests.get(ctx, *c.ChangeRequestID)
		if err != nil {
			return nil, err
		}
		revID = cr.RevisionID
	} else {
		s, _, err := r.spaces.get(ctx, c.SpaceID)
		if err != nil {
			return nil, err
		}
		revID = deref(s.RevisionID)
	}
	rev, err := r.revisionByID(ctx, revID)
	if err != nil {
		return nil, err
	}
	return r.contentOf(ctx, rev)
}

// commentTarget is what a comment is about. Its page is read from the
// content the comment is on now; it is outdated when its object differs
// from the one the comment was posted on. A page gone from that content is
// shown as the comment's revision had it, outdated.
func (r *Resolver) commentTarget(ctx context.Context, c *ent.Comment) (*model.CommentTarget, error) {
	t := &model.CommentTarget{Comment: c}
	if c.PageID == nil {
		return t, nil
	}
	now, err := r.commentContent(ctx, c)
	if err != nil {
		return nil, err
	}
	if p := targetPage(now, *c.PageID); p != nil {
		p.Outdated = c.PageHash == nil || now.PageHash(*c.PageID) != *c.PageHash
		t.Page = p
		return t, nil
	}
	if c.RevisionID == nil {
		return t, nil
	}
	rev, err := r.revisionByID(ctx, *c.RevisionID)
	if apperr.KindOf(err) == apperr.NotFound {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	then, err := r.contentOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	if t.Page = targetPage(then, *c.PageID); t.Page != nil {
		t.Page.Outdated = true
	}
	return t, nil
}

// targetPage presents a page of c, or returns nil when c has none.
func targetPage(c *content.Loaded, pageID string) *model.CommentTargetPage {
	n, _, _, err := c.Find(pageID)
	if err != nil {
		return nil
	}
	path, _ := c.Path(pageID)
	p := n.Page
	out := &model.CommentTargetPage{ID: p.ID, Title: p.Title, Path: path}
	if p.Emoji != "" {
		out.Emoji = &p.Emoji
	}
	if p.Icon != "" {
		out.Icon = &p.Icon
	}
	if !p.CreatedAt.IsZero() {
		out.CreatedAt = &p.CreatedAt
	}
	if !p.UpdatedAt.IsZero() {
		out.UpdatedAt = &p.UpdatedAt
	}
	return out
}

// commentURLs are the /v1 addresses of a comment and of a reply in it.
func (r *Resolver) commentURLs(c *ent.Comment, replyID string) *model.CommentURLs {
	loc := r.cfg.PublicURL + "/v1/spaces/" + c.SpaceID
	if c.ChangeRequestID != nil {
		loc += "/change-requests/" + *c.ChangeRequestID
	}
	loc += "/comments/" + c.ID
	if replyID != "" {
		loc += "/replies/" + replyID
	}
	return &model.CommentURLs{Location: loc}
}

// commentPermissions is what the viewer may do with a comment.
func (r *Resolver) commentPermissions(ctx context.Context, c *ent.Comment) (*authz.CommentPermissions, error) {
	_, d, err := r.comments.get(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	author, err := isViewer(ctx, c.PostedByID)
	p := authz.ForComment(authz.Comments, d, author)
	return &p, err
}

// replyPermissions is what the viewer may do with a reply.
func (r *Resolver) replyPermissions(ctx context.Context, rp *ent.CommentReply) (*authz.CommentPermissions, error) {
	_, d, err := r.commentReplies.get(ctx, rp.ID)
	if err != nil {
		return nil, err
	}
	author, err := isViewer(ctx, rp.PostedByID)
	p := authz.ForComment(authz.CommentReplies, d, author)
	return &p, err
}

// isViewer reports whether a user is the viewer.
func isViewer(ctx context.Context, userID *string) (bool, error) {
	if userID == nil {
		return false, nil
	}
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return false, err
	}
	return v.User.ID == *userID, nil
}

// CommentIn resolves a /v1 comment path: the comment, which must be in the
// space and, when crRef (an ID or a number) is given, in that change
// request, or else on the space's main content. Anything else is not found,
// as an unknown ID is.
func (r *Resolver) CommentIn(ctx context.Context, spaceID string, crRef *string, commentID string) (*ent.Comment, error) {
	s, _, err := r.spaces.get(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	var crID *string
	if crRef != nil {
		cr, err := r.ChangeRequestInSpace(ctx, spaceID, *crRef)
		if err != nil {
			return nil, err
		}
		crID = &cr.ID
	}
	c, _, err := r.comments.get(ctx, commentID)
	if err != nil {
		return nil, err
	}
	if c.SpaceID != s.ID || deref(c.ChangeRequestID) != deref(crID) {
		return nil, r.comments.notFound()
	}
	return c, nil
}

// CommentReplyIn resolves a /v1 reply path: the reply, which must be in the
// comment CommentIn resolves.
func (r *Resolver) CommentReplyIn(ctx context.Context, spaceID string, crRef *string, commentID, replyID string) (*ent.CommentReply, error) {
	c, err := r.CommentIn(ctx, spaceID, crRef, commentID)
	if err != nil {
		return nil, err
	}
	rp, _, err := r.commentReplies.get(ctx, replyID)
	if err != nil {
		return nil, err
	}
	if rp.CommentID != c.ID {
		return nil, r.commentReplies.notFound()
	}
	return rp, nil
}

// commentsTopic is the topic of a comment's events.
func commentsTopic(c *ent.Comment) string {
	return events.CommentsTopic(c.SpaceID, deref(c.ChangeRequestID))
}

// checkMarkdown checks the body of a comment or a reply, as its ent
// validator does, naming the input that carries it.
func checkMarkdown(md string) error {
	if err := validate.CommentMarkdown(md); err != nil {
		return apperr.Invalid("markdown", "%s", err.Error())
	}
	return nil
}

// mentioned returns the users markdown mentions (see document.Mentions)
// among the members of the organization: an @email of a member, or a link
// to a member's /v1 address. Nobody else can be found by mentioning them.
func (r *Resolver) mentioned(ctx context.Context, orgID, markdown string) ([]string, error) {
	emails, links := document.Mentions(markdown)
	var ids []string
	for _, l := range links {
		if i := strings.LastIndex(l, "/users/"); i >= 0 {
			if uid := l[i+len("/users/"):]; id.PrefixOf(uid) == id.User && !strings.ContainsAny(uid, "/?#") {
				ids = append(ids, uid)
			}
		}
	}
	if len(emails) == 0 && len(ids) == 0 {
		return nil, nil
	}
	return r.db(ctx).User.Query().
		Where(user.Or(user.EmailIn(emails...), user.IDIn(ids...)), user.HasMembershipsWith(member.OrganizationID(orgID))).
		Order(user.ByID()).IDs(internal(ctx, "the members a comment mentions"))
}

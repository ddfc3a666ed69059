package model

import (
	"time"

	"github.com/bindery/bindery/ent"
)

// CommentBody is the text of a comment or a reply: its markdown, which
// GraphQL also converts into a document on request.
type CommentBody struct {
	Markdown string
}

// CommentTarget is what a comment is about. Its space, change request and
// revision are resolved from the comment, as the viewer may see them.
type CommentTarget struct {
	Comment *ent.Comment
	// Page is the page the comment is on, nil when none.
	Page *CommentTargetPage
}

// Node is the node of the page the comment is on, nil when none.
func (t *CommentTarget) Node() *CommentTargetNode {
	if t.Comment.NodeID == nil {
		return nil
	}
	return &CommentTargetNode{ID: *t.Comment.NodeID}
}

// CommentTargetPage is the page a comment is on, as its content has it now,
// or as it was when the comment was posted when the page is gone.
type CommentTargetPage struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Emoji     *string    `json:"emoji,omitempty"`
	Icon      *string    `json:"icon,omitempty"`
	CreatedAt *time.Time `json:"-"`
	UpdatedAt *time.Time `json:"-"`
	Path      string     `json:"path"`
	Outdated  bool       `json:"outdated"`
}

// EmojiReaction is the users who reacted to a comment or a reply with one
// emoji, first to react first.
type EmojiReaction struct {
	Emoji string
	Count int
	Users []*EmojiReactionUser
}

// EmojiReactionUser is one user's reaction. UserID is nil when the account
// is gone.
type EmojiReactionUser struct {
	UserID    string
	ReactedAt time.Time
}

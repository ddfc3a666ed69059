package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/bindery/bindery/ent/schema/internal/entgql"
	"github.com/bindery/bindery/internal/clock"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
	"github.com/bindery/bindery/internal/validate"
)

// Comment opens a discussion thread on a space or a change request,
// optionally on one page or node of the content.
type Comment struct{ ent.Schema }

// Mixin of the Comment.
func (Comment) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Comment}}
}

// Fields of the Comment.
func (Comment) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().Annotations(internal()),
		field.String("change_request_id").Optional().Nillable().Immutable().Annotations(internal()),
		// revision_id is the revision in which the target was found: the
		// space's or the change request's revision when it was posted.
		field.String("revision_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("page_id").Optional().Nillable().Immutable().Annotations(internal()),
		// page_hash is the hash of the target page's object when the comment
		// was posted: the page is outdated when its object differs now.
		field.String("page_hash").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("node_id").Optional().Nillable().Immutable().Validate(validate.CommentNode).
			Annotations(columnSize(255)).Annotations(internal()),
		// body is the comment's markdown; GraphQL shows it as a CommentBody.
		field.Text("body").Validate(validate.CommentMarkdown).Annotations(internal()),
		field.Enum("status").GoType(enum.CommentStatus("")).Default(string(enum.CommentStatusOpen)).
			Comment("OPEN, or RESOLVED once someone resolved the thread.").
			Annotations(gqlEnum("CommentStatus")...),
		field.String("posted_by_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.Time("posted_at").Annotations(dateTime).Immutable().Default(clock.Now).Comment("When it was posted."),
		field.Time("edited_at").Annotations(dateTime).Optional().Nillable().
			Comment("When its body was last edited; null when never."),
		field.Time("resolved_at").Annotations(dateTime).Optional().Nillable().
			Comment("When it was resolved; null while it is open."),
		field.String("resolved_by_id").Optional().Nillable().Annotations(internal()),
	}
}

// Edges of the Comment.
func (Comment) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("comments").Field("space_id").Unique().Required().Immutable().Annotations(skip),
		edge.From("change_request", ChangeRequest.Type).Ref("comments").Field("change_request_id").Unique().Immutable().
			Annotations(skip),
		edge.To("revision", Revision.Type).Field("revision_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
		edge.To("posted_by", User.Type).Field("posted_by_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
		edge.To("resolved_by", User.Type).Field("resolved_by_id").Unique().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
		edge.To("replies", CommentReply.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("reactions", Reaction.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		// mentions are the users its markdown mentions, stored so that
		// notifications can come later.
		edge.To("mentions", User.Type).Annotations(skip),
	}
}

// Indexes of the Comment.
func (Comment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "change_request_id", "posted_at"),
		index.Fields("change_request_id", "posted_at"),
	}
}

// Annotations of the Comment.
func (Comment) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A comment opens a discussion thread on a space's main content or on a change request, " +
		"optionally on a page of it and a node inside the page.")}
}

// CommentReply is a reply in a comment thread.
type CommentReply struct{ ent.Schema }

// Mixin of the CommentReply.
func (CommentReply) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.CommentReply}}
}

// Fields of the CommentReply.
func (CommentReply) Fields() []ent.Field {
	return []ent.Field{
		field.String("comment_id").Immutable().Annotations(internal()),
		// body is the reply's markdown; GraphQL shows it as a CommentBody.
		field.Text("body").Validate(validate.CommentMarkdown).Annotations(internal()),
		field.String("posted_by_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.Time("posted_at").Annotations(dateTime).Immutable().Default(clock.Now).Comment("When it was posted."),
		field.Time("edited_at").Annotations(dateTime).Optional().Nillable().
			Comment("When its body was last edited; null when never."),
	}
}

// Edges of the CommentReply.
func (CommentReply) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("comment", Comment.Type).Ref("replies").Field("comment_id").Unique().Required().Immutable().Annotations(skip),
		edge.To("posted_by", User.Type).Field("posted_by_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
		edge.To("reactions", Reaction.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("mentions", User.Type).Annotations(skip),
	}
}

// Indexes of the CommentReply.
func (CommentReply) Indexes() []ent.Index {
	return []ent.Index{index.Fields("comment_id", "posted_at")}
}

// Annotations of the CommentReply.
func (CommentReply) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A reply in a comment's thread.")}
}

// Reaction is one user's emoji reaction to a comment or to a reply. Exactly
// one of comment and reply is set.
type Reaction struct{ ent.Schema }

// Mixin of the Reaction.
func (Reaction) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Reaction}, CreatedMixin{}}
}

// Fields of the Reaction.
func (Reaction) Fields() []ent.Field {
	return []ent.Field{
		field.String("comment_id").Optional().Nillable().Immutable(),
		field.String("reply_id").Optional().Nillable().Immutable(),
		field.String("user_id").Immutable(),
		field.String("emoji").Validate(validate.Reaction).Immutable().Annotations(columnSize(64)),
	}
}

// Edges of the Reaction.
func (Reaction) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("comment", Comment.Type).Ref("reactions").Field("comment_id").Unique().Immutable(),
		edge.From("reply", CommentReply.Type).Ref("reactions").Field("reply_id").Unique().Immutable(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Reaction. A user reacts with an emoji at most once per
// target; the partial indexes say so because NULLs are distinct in a plain
// unique index.
func (Reaction) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("comment_id", "user_id", "emoji").Unique().
			Annotations(entsql.IndexWhere("reply_id IS NULL")).StorageKey("reaction_comment_user_emoji"),
		index.Fields("reply_id", "user_id", "emoji").Unique().
			Annotations(entsql.IndexWhere("comment_id IS NULL")).StorageKey("reaction_reply_user_emoji"),
	}
}

// Annotations of the Reaction.
func (Reaction) Annotations() []schema.Annotation { return hidden() }

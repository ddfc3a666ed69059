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

// Collection groups spaces and other collections inside an organization.
type Collection struct{ ent.Schema }

// Mixin of the Collection.
func (Collection) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Collection}, TimeMixin{}}
}

// Fields of the Collection.
func (Collection) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Annotations(internal()),
		field.String("parent_id").Optional().Nillable().Annotations(internal()),
		field.String("title").Default("").Validate(validate.CollectionTitle).
			Comment("The collection's title, up to 50 characters; empty when it has none."),
		field.String("description").Optional().Nillable().Validate(validate.CollectionDescription).
			Comment("The collection's description, up to 100 characters; null when it has none."),
		// default_level NULL means guest: members get no access by default.
		field.Enum("default_level").GoType(enum.DefaultLevel("")).Optional().Nillable().
			Default(string(enum.DefaultLevelInherit)).Annotations(gqlEnum("DefaultLevel")...).
			Comment("The role members get on it by default: a role; INHERIT (the default) for its parent's level, or their organization role at the top; or null for none (guest level)."),
		// position orders the collection among its siblings (spaces and
		// collections with the same parent).
		field.Float("position").Default(0).Annotations(internal()),
	}
}

// Edges of the Collection.
func (Collection) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("collections").Field("organization_id").Unique().Required().
			Annotations(entgql.Skip()),
		edge.To("children", Collection.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)).
			From("parent").Field("parent_id").Unique().Annotations(entgql.Skip()),
		edge.To("spaces", Space.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.SetNull)),
		edge.To("grants", ContentGrant.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the Collection.
func (Collection) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "created_at"),
		index.Fields("parent_id", "position"),
		// The highest position at the top level, where a new item goes
		// (graph afterLast); (parent_id, position) serves the nested ones.
		// PostgreSQL orders by an index only after equalities, so the top
		// level (parent_id IS NULL) needs an index of its own.
		index.Fields("organization_id", "position").Annotations(entsql.IndexWhere("parent_id IS NULL")),
	}
}

// Annotations of the Collection.
func (Collection) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A collection of an organization: it groups spaces and other collections, and its default level and grants pass down to them.")}
}

// Space is a container of documentation content. Its content is an immutable
// revision; the space points at the current one.
type Space struct{ ent.Schema }

// Mixin of the Space.
func (Space) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Space}, TimeMixin{}}
}

// Fields of the Space.
func (Space) Fields() []ent.Field {
	return []ent.Field{
		field.String("organization_id").Annotations(internal()),
		field.String("parent_id").Optional().Nillable().Annotations(internal()),
		field.String("title").Default("").Validate(validate.SpaceTitle).
			Comment("The space's title, up to 50 characters; empty when it has none."),
		field.String("emoji").Default("").Validate(validate.Emoji).
			Comment("The space's emoji, up to 50 characters; empty when it has none."),
		field.String("icon").StorageKey("icon_url").Optional().Nillable().Validate(validate.LogoURL).Annotations(internal()),
		field.Enum("visibility").GoType(enum.Visibility("")).Default(string(enum.VisibilityPrivate)).
			Annotations(gqlEnum("Visibility")...).
			Comment("Who can read the space beyond its members; PRIVATE by default."),
		// edit_mode NULL means the main content changes only through change
		// requests.
		field.Enum("edit_mode").GoType(enum.EditMode("")).Optional().Nillable().
			Annotations(gqlEnum("EditMode")...).
			Comment("LIVE when edits change the main content directly, LOCKED when it cannot be edited; null when changes go through change requests."),
		field.Enum("default_level").GoType(enum.DefaultLevel("")).Optional().Nillable().
			Default(string(enum.DefaultLevelInherit)).Annotations(gqlEnum("DefaultLevel")...).
			Comment("The role members get on it by default: a role; INHERIT (the default) for its collection's level, or their organization role at the top; or null for none (guest level)."),
		field.Enum("language").GoType(enum.Language("")).Optional().Nillable().
			Annotations(gqlEnum("Language")...).
			Comment("The language of the space's content; null when not set."),
		field.Float("position").Default(0).Annotations(internal()),
		// revision_id is the current revision. It is NULL only inside the
		// transaction that creates the space and its first revision.
		field.String("revision_id").Optional().Nillable().Annotations(internal()),
		// cr_seq allocates change request numbers: the creating transaction
		// increments it, and UNIQUE(space, number) backs it up.
		field.Int("cr_seq").Default(0).Annotations(internal()),
		// The counters: change requests (all, open, draft) and open comments
		// on the space itself (not on a change request). Triggers keep them
		// in the transaction of every change to a change request or comment
		// (migration 20261127020000_space_counter_triggers), so a space's row
		// holds them and reading them costs nothing more.
		field.Int("cr_count").Default(0).Annotations(internal()),
		field.Int("cr_open_count").Default(0).Annotations(internal()),
		field.Int("cr_draft_count").Default(0).Annotations(internal()),
		field.Int("comment_open_count").Default(0).Annotations(internal()),
		field.Time("deleted_at").Annotations(dateTime).Optional().Nillable().
			Comment("When the space was deleted; null while it is live. A deleted space can be restored for 7 days."),
		visitorAuthKey(),
		// git_connected says that the space is connected to a Git branch
		// (its GitSync holds the connection), so that a new revision of a
		// space that is not costs no statement to find out.
		field.Bool("git_connected").Default(false).Annotations(internal()),
	}
}

// Edges of the Space.
func (Space) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("organization", Organization.Type).Ref("spaces").Field("organization_id").Unique().Required().
			Annotations(skip),
		edge.From("parent", Collection.Type).Ref("spaces").Field("parent_id").Unique().Annotations(skip),
		edge.To("revision", Revision.Type).Field("revision_id").Unique().Annotations(skip),
		edge.To("revisions", Revision.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("change_requests", ChangeRequest.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("comments", Comment.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("share_links", ShareLink.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("grants", ContentGrant.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("site_spaces", SiteSpace.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("moved_pages", MovedPage.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("git_sync", GitSync.Type).Unique().Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("git_sync_operations", GitSyncOperation.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("git_deploy_key", GitDeployKey.Type).Unique().Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.From("installations", IntegrationInstallation.Type).Ref("spaces").Annotations(skip),
	}
}

// Indexes of the Space.
func (Space) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "created_at"),
		index.Fields("parent_id", "position"),
		// The highest position at the top level, where a new item goes
		// (graph afterLast); (parent_id, position) serves the nested ones.
		// PostgreSQL orders by an index only after equalities, so the top
		// level (parent_id IS NULL) needs an index of its own.
		index.Fields("organization_id", "position").Annotations(entsql.IndexWhere("parent_id IS NULL")),
		index.Fields("deleted_at"),
		// Whether a stranger sees an organization: does it have a live
		// public or unlisted space (graph.accessStatement). Without it the
		// check read every space of the organization: 1,000 rows, a
		// millisecond, for each request that decided about content. (A
		// partial index of the open spaces would be smaller, but ent's
		// migration cannot compare its predicate with the one PostgreSQL
		// stores, and would rebuild it at every start.)
		index.Fields("organization_id", "visibility"),
	}
}

// Annotations of the Space.
func (Space) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A space of documentation content. Its main content is its current revision, changed by edits, imports and merged change requests.")}
}

// Revision is an immutable snapshot of a space's content: its page tree,
// files and reusable contents, each the hash of a content-addressed object,
// and the revisions it was made from.
type Revision struct{ ent.Schema }

// Mixin of the Revision.
func (Revision) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.Revision}, CreatedMixin{}}
}

// Fields of the Revision.
func (Revision) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().Annotations(internal()),
		// change_request_id is set on revisions made inside a change request.
		field.String("change_request_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.Enum("type").GoType(enum.RevisionType("")).Immutable().Annotations(gqlEnum("RevisionType")...).
			Comment("How the revision was made: EDITS by an edit or an import, UPDATE by syncing a change request with the main content, MERGE by merging one."),
		// parents lists parent revision IDs in order; the first is the
		// mainline parent, a merge has two.
		field.Strings("parents").Default([]string{}).Immutable().Annotations(internal()).SchemaType(jsonColumn),
		// Roots of the content, as hashes into ContentObject. NULL is empty.
		field.String("pages_root").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("files_root").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("reusable_contents_root").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("created_by_id").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("message").Optional().Nillable().Immutable().
			Comment("What made the revision, such as \"Create page Intro\" or \"Update from the main content\"; null when nothing says, as for a space's first revision."),
		// git_oid, git_message and git_ref name the Git commit a revision
		// was imported from (the official GitSyncCommit); null for one
		// made in Bindery.
		field.String("git_oid").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("git_message").Optional().Nillable().Immutable().Annotations(internal()),
		field.String("git_ref").Optional().Nillable().Immutable().Annotations(internal()),
	}
}

// Edges of the Revision.
func (Revision) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("revisions").Field("space_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.From("change_request", ChangeRequest.Type).Ref("revisions").Field("change_request_id").Unique().Immutable().
			Annotations(skip),
		edge.To("created_by", User.Type).Field("created_by_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of the Revision.
func (Revision) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id", "created_at"), index.Fields("change_request_id")}
}

// Annotations of the Revision.
func (Revision) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("An immutable snapshot of the content of a space or a change request: its pages, files and reusable contents.")}
}

// MovedPage is a path that a page of a space's main content had before an
// edit or a merge moved or renamed it: the published site's reader sends an
// old address to the page's new one, as GitBook does. A later page at the
// path wins over it.
type MovedPage struct{ ent.Schema }

// Fields of the MovedPage.
func (MovedPage) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable(),
		field.String("path").NotEmpty(),
		field.String("page_id").NotEmpty(),
		field.Time("moved_at"),
	}
}

// Edges of the MovedPage.
func (MovedPage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("moved_pages").Field("space_id").Unique().Required().Immutable(),
	}
}

// Indexes of the MovedPage.
func (MovedPage) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id", "path").Unique()}
}

// Annotations of the MovedPage.
func (MovedPage) Annotations() []schema.Annotation { return hidden() }

// ContentObject is a content-addressed object of the revision store, like a
// git object: a page document, a tree node of pages, a file, or a list. Its
// ID is the hash of its kind and data, so equal content is stored once and
// shared by every revision that contains it.
type ContentObject struct{ ent.Schema }

// Fields of the ContentObject.
func (ContentObject) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").Immutable().NotEmpty().MaxLen(80),
		field.Enum("kind").GoType(enum.ObjectKind("")).Immutable(),
		field.Bytes("data").Immutable(),
		field.Int64("size").Immutable(),
		field.Time("created_at").Annotations(dateTime).Immutable().Default(clock.Now),
	}
}

// Annotations of the ContentObject.
func (ContentObject) Annotations() []schema.Annotation { return hidden() }

// ChangeRequest proposes changes to a space. It forks the space's revision
// and is later updated from the main content and merged.
type ChangeRequest struct{ ent.Schema }

// Mixin of the ChangeRequest.
func (ChangeRequest) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.ChangeRequest}, TimeMixin{}}
}

// Fields of the ChangeRequest.
func (ChangeRequest) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().Annotations(internal()),
		field.Int("number").Immutable().Positive().
			Comment("The change request's number in its space: 1 for the first, then one more for each."),
		field.Enum("status").GoType(enum.ChangeRequestStatus("")).Default(string(enum.ChangeRequestStatusOpen)).
			Annotations(gqlEnum("ChangeRequestStatus")...).
			Comment("DRAFT, OPEN (when opened) or ARCHIVED; MERGED once merged, which is final."),
		field.String("subject").Default("").Validate(validate.ChangeRequestSubject).
			Comment("What the change request is about, up to 100 characters; empty when it has none."),
		field.String("created_by_id").Optional().Nillable().Immutable().Annotations(internal()),
		// revision_id is the change request's current revision.
		field.String("revision_id").Annotations(internal()),
		// revision_initial_id is the space's revision it was forked from.
		field.String("revision_initial_id").Immutable().Annotations(internal()),
		// revision_merged_ancestor_id is the space's revision it was last
		// updated from; NULL until the first update.
		field.String("revision_merged_ancestor_id").Optional().Nillable().Annotations(internal()),
		// revision_merged_id is the space's revision the merge made.
		field.String("revision_merged_id").Optional().Nillable().Annotations(internal()),
		field.Time("merged_at").Annotations(dateTime).Optional().Nillable().Comment("When it was merged; null until then."),
	}
}

// Edges of the ChangeRequest.
func (ChangeRequest) Edges() []ent.Edge {
	skip := entgql.Skip()
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("change_requests").Field("space_id").Unique().Required().Immutable().
			Annotations(skip),
		edge.To("created_by", User.Type).Field("created_by_id").Unique().Immutable().
			Annotations(skip, entsql.OnDelete(entsql.SetNull)),
		edge.To("revision", Revision.Type).Field("revision_id").Unique().Required().Annotations(skip),
		edge.To("revision_initial", Revision.Type).Field("revision_initial_id").Unique().Required().Immutable().Annotations(skip),
		edge.To("revision_merged_ancestor", Revision.Type).Field("revision_merged_ancestor_id").Unique().Annotations(skip),
		edge.To("revision_merged", Revision.Type).Field("revision_merged_id").Unique().Annotations(skip),
		edge.To("revisions", Revision.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
		edge.To("contributors", User.Type).Annotations(skip),
		edge.To("comments", Comment.Type).Annotations(skip, entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the ChangeRequest.
func (ChangeRequest) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "number").Unique(), index.Fields("space_id", "status"),
		// A merge revision names the change request it merged through
		// this column: one merge makes one revision.
		index.Fields("revision_merged_id").Unique(),
	}
}

// Annotations of the ChangeRequest.
func (ChangeRequest) Annotations() []schema.Annotation {
	return []schema.Annotation{schema.Comment("A proposed change to a space: it forks the space's content, is updated from the main content, and is merged into it.")}
}

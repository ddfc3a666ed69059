package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/bindery/bindery/internal/clock"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/id"
)

// GitSync is the Git repository a space was last imported from or exported
// to, and the last pair of revision and commit known to hold the same
// content: what the space's Git info shows, and what the next operation
// starts from.
type GitSync struct{ ent.Schema }

// Mixin of the GitSync.
func (GitSync) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.GitSync}, TimeMixin{}}
}

// Fields of the GitSync.
func (GitSync) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable(),
		// url is the repository's, without credentials: they are kept only
		// for the operations that need them, sealed.
		field.String("url"),
		field.String("ref"),
		field.String("project_directory").Default(""),
		// tree_url is what the official GitSyncState calls url: the
		// repository's tree, for readers; provider is its host.
		field.String("tree_url").Optional().Nillable(),
		field.Enum("provider").GoType(enum.GitProvider("")).Optional().Nillable(),
		// synced_revision_id and synced_commit hold the same content: the
		// revision an export pushed or an import made, and the commit.
		field.String("synced_revision_id").Optional().Nillable(),
		field.String("synced_commit").Optional().Nillable(),
		// connected_by_id is who connected the space to the repository for
		// continuous sync, whose rights the sync runs with; null when the
		// space is not connected.
		field.String("connected_by_id").Optional().Nillable(),
		// credentials are the connection's "user:password", and
		// push_secret the key of the Git host's push events, both sealed
		// with BINDERY_SECRET_KEY (internal/secrets).
		field.String("credentials").Optional().Nillable().Sensitive(),
		field.String("push_secret").Optional().Nillable().Sensitive(),
		// next_poll_at is when a worker next reads the branch's head.
		field.Time("next_poll_at").Optional().Nillable(),
		// change_request_id is the change request holding the repository's
		// side of a conflict: sync waits until it is merged or closed.
		field.String("change_request_id").Optional().Nillable(),
		// ssh_known_hosts are the host keys an SSH connection trusts, as
		// the known_hosts lines connectGitSync was given (no secret); null
		// for the keys built in for the host, and over HTTP(S).
		field.Text("ssh_known_hosts").Optional().Nillable(),
	}
}

// Edges of the GitSync.
func (GitSync) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("git_sync").Field("space_id").Unique().Required().Immutable(),
	}
}

// Indexes of the GitSync.
func (GitSync) Indexes() []ent.Index {
	return []ent.Index{index.Fields("next_poll_at")}
}

// Annotations of the GitSync.
func (GitSync) Annotations() []schema.Annotation { return hidden() }

// GitDeployKey is a space's SSH deploy key: the key pair Bindery signs in
// with to the space's repository over SSH. A space has one at most, and
// creating another replaces it: that is how a key is rotated.
//
// It is an entity of its own rather than columns of GitSync: a GitSync row
// is the repository a space last synced with (its url and ref are
// required, and Space.gitSync shows it once it exists), while a key comes
// first, so that its public half can be added to the repository before
// the space is connected.
type GitDeployKey struct{ ent.Schema }

// Mixin of the GitDeployKey.
func (GitDeployKey) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.GitDeployKey}}
}

// Fields of the GitDeployKey.
func (GitDeployKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable(),
		// public_key is the authorized_keys line, commented
		// "bindery <space id>".
		field.Text("public_key").Immutable(),
		// private_key is the private key in OpenSSH's PEM, sealed with
		// BINDERY_SECRET_KEY (internal/secrets). Only a new server key
		// changes it (bindery secrets rotate): a new key pair is a new row.
		field.Text("private_key").Sensitive(),
		field.Time("created_at").Immutable().Default(clock.Now),
		// created_by_id is who created it; null once their account is
		// gone.
		field.String("created_by_id").Optional().Nillable().Immutable(),
	}
}

// Edges of the GitDeployKey.
func (GitDeployKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("git_deploy_key").Field("space_id").Unique().Required().Immutable(),
		edge.To("created_by", User.Type).Field("created_by_id").Unique().Immutable().
			Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Annotations of the GitDeployKey.
func (GitDeployKey) Annotations() []schema.Annotation { return hidden() }

// GitSyncOperation is one import from, or export to, a Git repository: a
// job that a worker claims under a lease (see graph/gitsync.go), with the
// official GitSyncOperation's state and stage.
type GitSyncOperation struct{ ent.Schema }

// Mixin of the GitSyncOperation.
func (GitSyncOperation) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: id.GitSyncOperation}}
}

// Fields of the GitSyncOperation.
func (GitSyncOperation) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable(),
		// created_by_id is who asked: the job runs with their rights, and
		// an export's commit is theirs.
		field.String("created_by_id").Optional().Nillable().Immutable(),
		field.Enum("direction").GoType(enum.GitSyncOperationDirection("")).Immutable(),
		field.Enum("state").GoType(enum.GitSyncOperationState("")).Default(string(enum.GitSyncOperationStateRunning)),
		field.Enum("stage").GoType(enum.GitSyncOperationStage("")).Default(string(enum.GitSyncOperationStageRepoFetch)),
		field.Int("dispatched_tasks").Default(0),
		field.Int("completed_tasks").Default(0),
		field.Time("started_at").Immutable().Default(clock.Now),
		field.Time("updated_at").Default(clock.Now).UpdateDefault(clock.Now),
		field.Time("completed_at").Optional().Nillable(),
		// error is what a failure tells the user: never a credential, never
		// a server fault's detail (that goes to the log).
		field.String("error").Optional().Nillable(),
		// The request, as the official ImportGitRepository and
		// ExportToGitRepository give it; url without credentials.
		field.String("url").Immutable(),
		field.String("ref").Immutable(),
		field.String("project_directory").Default("").Immutable(),
		field.String("commit_message").Optional().Nillable().Immutable(),
		field.Bool("force").Default(false).Immutable(),
		// standalone marks an import that makes a revision of the space
		// without making it the space's content (the official
		// ImportGitRepository's standalone), such as a preview of a branch.
		field.Bool("standalone").Default(false).Immutable(),
		// credentials are "user:password", sealed with BINDERY_SECRET_KEY
		// (internal/secrets), and cleared when the operation ends.
		field.String("credentials").Optional().Nillable().Sensitive(),
		// ssh_known_hosts are the host keys a one-shot operation over SSH
		// trusts, as its request gave them (no secret); null for the keys
		// built in for the host, over HTTP(S), and for continuous sync,
		// which trusts its connection's.
		field.Text("ssh_known_hosts").Optional().Nillable().Immutable(),
		// commit and revision_id are the result: the commit read or made,
		// and the revision made or exported.
		field.String("commit").Optional().Nillable(),
		field.String("revision_id").Optional().Nillable(),
		// attempts counts the runs that ended in a network error, which
		// are tried again after next_attempt_at.
		field.Int("attempts").Default(0),
		field.Time("next_attempt_at").Optional().Nillable(),
		// claimed_by and claimed_until are a worker's lease (see
		// internal/lease).
		field.String("claimed_by").Optional().Nillable(),
		field.Time("claimed_until").Optional().Nillable(),
		// automatic marks an operation of continuous sync: it brings the
		// branch's new commits in and pushes the space's new revisions,
		// with the connection's credentials.
		field.Bool("automatic").Default(false).Immutable(),
	}
}

// Edges of the GitSyncOperation.
func (GitSyncOperation) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("space", Space.Type).Ref("git_sync_operations").Field("space_id").Unique().Required().Immutable(),
	}
}

// Indexes of the GitSyncOperation.
func (GitSyncOperation) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "started_at"),
		index.Fields("state", "next_attempt_at"),
	}
}

// Annotations of the GitSyncOperation.
func (GitSyncOperation) Annotations() []schema.Annotation { return hidden() }

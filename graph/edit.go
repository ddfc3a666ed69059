package graph

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/ent/user"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/id"
)

// commit is a new revision to record: its content, and the ref it moves, the
// space's main content or a change request.
type commit struct {
	space         *ent.Space
	changeRequest *ent.ChangeRequest // nil for the main content
	content       *content.Content
	// from is the content the new one was derived from; its objects are not
	// written again.
	from    *content.Loaded
	author  string
	typ     enum.RevisionType
	parents []string
	message string
	// git is the commit Git sync made the revision from: it is recorded
	// with it, and not pushed back.
	git *revisionGit
	// standalone records a revision of the main content's line that does
	// not become the space's: a standalone Git import.
	standalone bool
}

// revisionGit is the Git commit a revision was imported from.
type revisionGit struct{ oid, message, ref string }

// commit stores the content and records the revision. For the main content
// it also moves the space's ref, unless standalone; a change request's ref
// is moved by the caller, which knows what else changes with it.
func (r *Resolver) commit(ctx context.Context, c commit) (*ent.Revision, error) {
	saved, diff, err := content.Save(ctx, r.objects(), c.content, c.from)
	if err != nil {
		return nil, fmt.Errorf("storing content: %w", err)
	}
	// The next read of the revision, such as the next edit's, needs no
	// decoding.
	r.decoded.Keep(saved)
	rt := saved.Roots()
	b := r.db(ctx).Revision.Create().
		SetSpaceID(c.space.ID).
		SetType(c.typ).
		SetParents(c.parents).
		SetCreatedByID(c.author).
		SetMessage(c.message)
	if rt.Pages != "" {
		b.SetPagesRoot(rt.Pages)
	}
	if rt.Files != "" {
		b.SetFilesRoot(rt.Files)
	}
	if rt.Reusable != "" {
		b.SetReusableContentsRoot(rt.Reusable)
	}
	if c.changeRequest != nil {
		b.SetChangeRequestID(c.changeRequest.ID)
	}
	if c.git != nil {
		b.SetGitOid(c.git.oid).SetGitMessage(c.git.message).SetGitRef(c.git.ref)
	}
	rev, err := b.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("recording the revision: %w", err)
	}
	if c.changeRequest == nil && !c.standalone {
		// Compare-and-set: the content lock makes a lost race impossible,
		// and this check makes it visible if that ever changes.
		n, err := r.db(ctx).Space.Update().
			Where(space.ID(c.space.ID), space.RevisionID(deref(c.space.RevisionID))).
			SetRevisionID(rev.ID).Save(ctx)
		if err != nil {
			return nil, err
		}
		if n != 1 {
			return nil, apperr.Conflictf("The content changed while this change was made; retry")
		}
		if err := r.indexSpace(ctx, c.space, c.from, saved, diff); err != nil {
			return nil, err
		}
		if err := r.recordMoves(ctx, c.space.ID, c.from, diff); err != nil {
			return nil, err
		}
		r.emit(ctx, events.New(events.SpaceContentTopic(c.space.ID), events.SpaceContent, rev.ID).
			For(c.space.OrganizationID, c.space.ID, enum.WebhookEventTypeSpaceContent))
		if c.git == nil {
			if err := r.queueGitSync(ctx, c.space, c.author, c.message); err != nil {
				return nil, err
			}
		}
	}
	return rev, nil
}

// editTarget is what a content edit applies to: a change request, or the
// main content of a live space, with its current revision and content.
type editTarget struct {
	space         *ent.Space
	changeRequest *ent.ChangeRequest
	revision      *ent.Revision
	content       *content.Loaded
	git           *revisionGit // see commit.git
}

// targetInput are the fields every content edit takes.
type targetInput struct {
	SpaceID, ChangeRequestID, ExpectedRevisionID *string
	// importing marks an import, which may write a space's main content
	// in any editMode but LOCKED (see target).
	importing bool
	// git is the commit Git sync imports (see commit.git).
	git *revisionGit
}

// target resolves and authorizes the target of an edit. It holds the space's
// content lock, so the revision it returns stays current until the
// transaction ends.
func (r *Resolver) target(ctx context.Context, in targetInput) (*editTarget, error) {
	t := &editTarget{git: in.git}
	var err error
	switch {
	case (in.SpaceID == nil) == (in.ChangeRequestID == nil):
		return nil, apperr.Invalid("spaceId", "give either spaceId, to edit a live space's main content, or changeRequestId")
	case in.ChangeRequestID != nil:
		if t.changeRequest, t.space, err = r.activeChangeRequest(ctx, *in.ChangeRequestID, authz.EditContent); err != nil {
			return nil, err
		}
		t.revision, err = r.revisionByID(ctx, t.changeRequest.RevisionID)
	default:
		if err := r.lockSpaceContent(ctx, *in.SpaceID); err != nil {
			return nil, err
		}
		s, _, err := r.liveSpace(ctx, *in.SpaceID, authz.EditContent)
		if err != nil {
			return nil, err
		}
		if err := requireEditable(s); err != nil {
			return nil, err
		}
		// A space's editMode is how its owners chose to let its published
		// content change. Without LIVE, changes go through change requests,
		// so that they are reviewed before readers see them, and an
		// interactive edit (a page created, retitled, moved or rewritten)
		// is exactly such a change: it needs LIVE, or a change request.
		// An import is how API clients fill a space, in the official API
		// too, usually one just created, which is not LIVE: it writes a
		// new revision in any editMode but LOCKED. A client that wants its
		// import reviewed imports into a change request.
		if s.EditMode == nil && !in.importing {
			return nil, apperr.Preconditionf("The space's content changes through change requests: open one, or set the space's editMode to LIVE")
		}
		t.space = s
		t.revision, err = r.revisionByID(ctx, deref(s.RevisionID))
		if err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	if in.ExpectedRevisionID != nil && *in.ExpectedRevisionID != t.revision.ID {
		return nil, apperr.Conflictf("The content is at revision %s, not %s: reload it and retry", t.revision.ID, *in.ExpectedRevisionID)
	}
	t.content, err = r.contentOf(ctx, t.revision)
	return t, err
}

// edit runs one content edit: it resolves the target, lets change alter a
// copy of its content, and records the result as a revision of type edits
// whose parent is the target's current revision. The target is a space or
// a change request, which target authorizes in the transaction.
func (r *Resolver) edit(ctx context.Context, in targetInput, message string,
	change func(ctx context.Context, t *editTarget, c *content.Content) error) (*ent.Revision, *content.Content, error) {
	return r.editThen(ctx, in, message, change, nil)
}

// editThen is edit with then, when set, run in the edit's transaction
// after the revision is recorded: what must be written with the revision
// or not at all, such as the result of a background job.
func (r *Resolver) editThen(ctx context.Context, in targetInput, message string,
	change func(ctx context.Context, t *editTarget, c *content.Content) error,
	then func(ctx context.Context, rev *ent.Revision) error) (*ent.Revision, *content.Content, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, nil, err
	}
	var edited *content.Content
	rev, err := transact(ctx, r, func(ctx context.Context) (*ent.Revision, error) {
		t, err := r.target(ctx, in)
		if err != nil {
			return nil, err
		}
		edited = t.content.Fork()
		if err := change(ctx, t, edited); err != nil {
			return nil, err
		}
		rev, err := r.record(ctx, t, edited, f.user.ID, enum.RevisionTypeEdits, message)
		if err != nil {
			return nil, err
		}
		r.revisions.wrote(ctx, rev, t.revision) // the new one, and its parent
		if t.changeRequest != nil {
			// A change request's edit leaves its space's row as it was; an
			// edit of the main content moves the space's revision, so the
			// answer reads the space again.
			r.spaces.wrote(ctx, t.space)
			primeAfter(ctx, (*loaders).spaceCounts, t.space.ID, countsOf(t.space))
		}
		if then != nil {
			if err := then(ctx, rev); err != nil {
				return nil, err
			}
		}
		return rev, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return rev, edited, nil
}

// record commits content edited from a target's revision and moves the
// target's ref to it. In a change request, the author becomes a contributor.
func (r *Resolver) record(ctx context.Context, t *editTarget, c *content.Content, author string,
	typ enum.RevisionType, message string) (*ent.Revision, error) {
	rev, err := r.commit(ctx, commit{
		space: t.space, changeRequest: t.changeRequest, content: c, from: t.content,
		author: author, typ: typ, parents: []string{t.revision.ID}, message: message, git: t.git,
	})
	if err != nil || t.changeRequest == nil {
		return rev, err
	}
	n, err := r.db(ctx).ChangeRequest.Update().
		Where(changerequest.ID(t.changeRequest.ID), changerequest.RevisionID(t.changeRequest.RevisionID)).
		SetRevisionID(rev.ID).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n != 1 {
		return nil, apperr.Conflictf("The change request changed while this change was made; retry")
	}
	r.emit(ctx, events.New(events.ChangeRequestsTopic(t.space.ID), events.ChangeRequestContent, t.changeRequest.ID))
	has, err := r.db(ctx).ChangeRequest.Query().
		Where(changerequest.ID(t.changeRequest.ID), changerequest.HasContributorsWith(user.ID(author))).Exist(internal(ctx, "whether the author contributed already"))
	if err != nil {
		return nil, err
	}
	if !has {
		err = r.db(ctx).ChangeRequest.UpdateOneID(t.changeRequest.ID).AddContributorIDs(author).Exec(ctx)
	}
	return rev, err
}

// newPageID returns an ID for a new page.
func newPageID() string { return id.New(id.Page) }

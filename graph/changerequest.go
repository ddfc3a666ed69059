package graph

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/ent/changerequest"
	"github.com/bindery/bindery/ent/comment"
	"github.com/bindery/bindery/ent/predicate"
	"github.com/bindery/bindery/ent/space"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/auth"
	"github.com/bindery/bindery/internal/authz"
	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/events"
	"github.com/bindery/bindery/internal/merge"
	"github.com/bindery/bindery/internal/page"
	"github.com/bindery/bindery/internal/store"
)

// changeRequestsByNumber lists change requests newest first.
var changeRequestsByNumber = page.Order[*ent.ChangeRequest, predicate.ChangeRequest, changerequest.OrderOption]{
	Name: "change-requests", Column: changerequest.FieldNumber, KeyType: page.KeyInt, Desc: true,
	Key: func(c *ent.ChangeRequest) any { return c.Number }, ID: func(c *ent.ChangeRequest) string { return c.ID },
}

// changeRequestFieldColumns are the fields of a change request that read
// no more than its own columns, with those columns: a page whose items
// select only these reads only their columns (see changeRequestColumns).
// A field not listed may read anything (its revisions, its comments), so
// its page reads whole rows.
var changeRequestFieldColumns = map[string][]string{
	"__typename": nil,
	"id":         nil,
	"number":     nil,
	"subject":    {changerequest.FieldSubject},
	"status":     {changerequest.FieldStatus},
	"createdAt":  {changerequest.FieldCreatedAt},
	"updatedAt":  {changerequest.FieldUpdatedAt},
	"mergedAt":   {changerequest.FieldMergedAt},
	"createdBy":  {changerequest.FieldCreatedByID},
}

// changeRequestColumns returns the columns that a page of change requests
// reads for what its items select, given by itemSelection: nil when its
// items need whole rows (outside GraphQL, or a field not in
// changeRequestFieldColumns). The page reads the ID, the number (see
// page.Args.Fields) and the space whatever is selected. Decoding all 13
// columns of a nested read's 500 change requests was a fifth of its
// allocations.
//
// Change requests read so are not whole: they are answered from their
// page and never primed into the request's loader, where another field
// could take them for whole ones.
func changeRequestColumns(sel map[string]bool, inGraphQL bool) []string {
	if !inGraphQL {
		return nil
	}
	cols := []string{changerequest.FieldSpaceID}
	for f := range sel {
		c, known := changeRequestFieldColumns[f]
		if !known {
			return nil
		}
		cols = append(cols, c...)
	}
	return cols
}

// changeRequest returns a change request the viewer can see, with its space
// and the decision about it.
func (r *Resolver) changeRequest(ctx context.Context, crID string) (*ent.ChangeRequest, *ent.Space, authz.Decision, error) {
	cr, d, err := r.changeRequests.get(ctx, crID)
	if err != nil {
		return nil, nil, d, err
	}
	s, _, err := r.spaces.get(ctx, cr.SpaceID)
	return cr, s, d, err
}

// ChangeRequestInSpace resolves a /v1 change request reference, its ID or its
// number, inside a space.
func (r *Resolver) ChangeRequestInSpace(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	s, _, err := r.spaces.get(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if n, ok := changeRequestNumber(ref); ok {
		cr, err := r.changeRequestByNumber(ctx, s, n)
		if err == nil && cr == nil {
			err = apperr.NotFoundf("Change request not found")
		}
		return cr, err
	}
	cr, _, _, err := r.changeRequest(ctx, ref)
	if err == nil && cr.SpaceID != s.ID {
		return nil, apperr.NotFoundf("Change request not found")
	}
	return cr, err
}

func (r *Resolver) changeRequestByNumber(ctx context.Context, s *ent.Space, number int) (*ent.ChangeRequest, error) {
	if hidden, err := r.changesHidden(ctx, s.ID); hidden || err != nil {
		return nil, err
	}
	cr, err := r.db(ctx).ChangeRequest.Query().
		Where(changerequest.SpaceID(s.ID), changerequest.Number(number)).Only(within(ctx))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return cr, err
}

// changeRequestsOf lists a space's change requests. A listed page of spaces
// pages them for all its spaces at once (see primeSpaceChangeRequests).
func (r *Resolver) changeRequestsOf(ctx context.Context, s *ent.Space, status *enum.ChangeRequestStatus,
	contributor *string, a page.Args) (*page.Connection[*ent.ChangeRequest], error) {
	hidden, err := r.changesHidden(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	if conn, ok := primedChangeRequests(ctx, s.ID, status, contributor, a); ok && !hidden {
		return conn, nil
	}
	q := r.changeRequestList(ctx, status, contributor).Where(changerequest.SpaceID(s.ID))
	if hidden {
		q.Where(changerequest.IDIn()) // none
	}
	sel, inGraphQL := itemSelection(ctx, "ChangeRequestConnection", "ChangeRequestEdge", "ChangeRequest")
	if !inGraphQL || sel["commentCount"] {
		a.Columns = withCommentCount
	}
	a.Fields = changeRequestColumns(sel, inGraphQL)
	conn, err := page.Paginate(within(ctx), q, changeRequestsByNumber, a)
	if err != nil {
		return nil, err
	}
	if a.Fields == nil {
		l := r.changeRequests.loader(ctx)
		for _, cr := range conn.Nodes() {
			l.Prime(ctx, cr.ID, cr)
		}
	}
	return conn, r.primeChangeRequests(ctx, conn.Nodes())
}

// primeChangeRequests loads, for a page of change requests, what its items
// will show, each in one batch: their comment counts, their revisions, and
// the people they name (authors, contributors, the revisions' authors) with
// whether each shares an organization with the viewer (for their email).
// Left to the loaders, these would come in waves whose batches a busy
// machine can split, and the page's cost would depend on timing.
func (r *Resolver) primeChangeRequests(ctx context.Context, crs []*ent.ChangeRequest) error {
	if len(crs) == 0 {
		return nil
	}
	sel, inGraphQL := itemSelection(ctx, "ChangeRequestConnection", "ChangeRequestEdge", "ChangeRequest")
	want := func(field string) bool { return !inGraphQL || sel[field] }
	// /v1 names revisions by ID (see VisibleRevisionID).
	wantRevision := func(field string) bool { return inGraphQL && sel[field] }
	l := loadersFrom(ctx)
	ids := make([]string, len(crs))
	var authorIDs, revIDs []string
	for i, cr := range crs {
		ids[i] = cr.ID
		if cr.CreatedByID != nil && want("createdBy") {
			authorIDs = append(authorIDs, *cr.CreatedByID)
		}
		if wantRevision("revision") {
			revIDs = append(revIDs, cr.RevisionID)
		}
		if wantRevision("revisionInitial") {
			revIDs = append(revIDs, cr.RevisionInitialID)
		}
		if cr.RevisionMergedAncestorID != nil && wantRevision("revisionMergedAncestor") {
			revIDs = append(revIDs, *cr.RevisionMergedAncestorID)
		}
		if cr.RevisionMergedID != nil && wantRevision("revisionMerged") {
			revIDs = append(revIDs, *cr.RevisionMergedID)
		}
	}
	if want("commentCount") {
		// Read with the page (see changeRequestsOf), or counted here.
		var missing []string
		for _, cr := range crs {
			if n, err := cr.Value(commentCountColumn); err == nil {
				if n, ok := n.(int64); ok {
					l.crComments().Prime(ctx, cr.ID, int(n))
					continue
				}
			}
			missing = append(missing, cr.ID)
		}
		if len(missing) > 0 {
			counts, err := r.loadChangeRequestComments(ctx, missing)
			if err != nil {
				return err
			}
			for _, id := range missing {
				l.crComments().Prime(ctx, id, counts[id])
			}
		}
	}
	if len(revIDs) > 0 {
		revs, errs := loadMany(ctx, r.revisions.loader(ctx), revIDs)
		if err := firstFound(errs); err != nil {
			return err
		}
		// A GraphQL query may ask for a revision's author; /v1 names
		// revisions by ID only.
		for _, rev := range revs {
			if inGraphQL && rev != nil && rev.CreatedByID != nil {
				authorIDs = append(authorIDs, *rev.CreatedByID)
			}
		}
	}
	people := map[string]bool{}
	if inGraphQL && sel["contributors"] {
		byCR, err := r.loadChangeRequestContributors(ctx, ids)
		if err != nil {
			return err
		}
		for id, users := range byCR {
			l.crContributors().Prime(ctx, id, users)
			for _, u := range users {
				people[u.ID] = true
			}
		}
	}
	if len(authorIDs) > 0 {
		// Read with whether each shares an organization with the viewer
		// (see fetchUsers).
		if _, errs := loadMany(ctx, r.users.loader(ctx), authorIDs); firstFound(errs) != nil {
			return firstFound(errs)
		}
	}
	if len(people) == 0 {
		return nil
	}
	userIDs := make([]string, 0, len(people))
	for id := range people {
		userIDs = append(userIDs, id)
	}
	shared, err := r.loadSharedUsers(ctx, userIDs)
	if err != nil {
		return err
	}
	for _, id := range userIDs {
		l.sharedUsers().Prime(ctx, id, shared[id])
	}
	return nil
}

// commentCountColumn is a column of change requests read withCommentCount.
const commentCountColumn = "count_open_comments"

// withCommentCount adds the count of a change request's open comments to a
// query of change requests: a correlated count over an index.
func withCommentCount(s *sql.Selector) {
	t := sql.Table(comment.Table).As("n")
	s.AppendSelectExprAs(sql.Select(sql.Count("*")).From(t).Where(sql.And(
		sql.ColumnsEQ(t.C(comment.FieldChangeRequestID), s.C(changerequest.FieldID)),
		sql.EQ(t.C(comment.FieldStatus), string(enum.CommentStatusOpen)),
	)), commentCountColumn)
}

// firstFound returns the first error of a batch load that is not a missing
// row: a deleted author is no author.
func firstFound(errs []error) error {
	for _, err := range errs {
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// lockSpaceContent serializes the content changes of a space, of its main
// content and its change requests, on PostgreSQL. SQLite serializes every
// write transaction already.
func (r *Resolver) lockSpaceContent(ctx context.Context, spaceID string) error {
	return r.lockContent(ctx, space.ID(spaceID))
}

// lockContent takes the content lock of the space which selects; one that
// does not exist is left to the decision that follows to report.
func (r *Resolver) lockContent(ctx context.Context, which predicate.Space) error {
	_, err := r.db(ctx).Space.Query().Where(which).Select(space.FieldID).
		Modify(store.ForNoKeyUpdate).Strings(internal(ctx, "a lock"))
	if err != nil {
		return fmt.Errorf("locking the space's content: %w", err)
	}
	return nil
}

// requireEditable refuses content changes to a locked space.
func requireEditable(s *ent.Space) error {
	if s.EditMode != nil && *s.EditMode == enum.EditModeLocked {
		return apperr.Preconditionf("The space is locked: its content cannot change until its editMode is changed")
	}
	return nil
}

// requireActive refuses changes to a change request that is merged or
// archived.
func requireActive(cr *ent.ChangeRequest) error {
	switch cr.Status {
	case enum.ChangeRequestStatusMerged:
		return apperr.Preconditionf("Change request #%d is merged; its content cannot change", cr.Number)
	case enum.ChangeRequestStatusArchived:
		return apperr.Preconditionf("Change request #%d is archived; reopen it first", cr.Number)
	}
	return nil
}

// createChangeRequest opens a change request on a space's current revision,
// numbered next in the space.
func (r *Resolver) createChangeRequest(ctx context.Context, in model.CreateChangeRequestInput) (*ent.ChangeRequest, error) {
	v, err := auth.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return mutate(ctx, r, r.spaces, in.SpaceID, authz.OpenChange, func(ctx context.Context, s *ent.Space, _ authz.Decision) (*ent.ChangeRequest, error) {
		if err := spaceLive(s); err != nil {
			return nil, err
		}
		if err := requireEditable(s); err != nil {
			return nil, err
		}
		if err := r.wroteAccess(ctx, s.OrganizationID); err != nil {
			return nil, err
		}
		number, err := r.nextChangeRequestNumber(ctx, s)
		if err != nil {
			return nil, err
		}
		out, err := r.db(ctx).ChangeRequest.Create().
			SetSpaceID(s.ID).
			SetNumber(number).
			SetSubject(strings.TrimSpace(deref(in.Subject))).
			SetCreatedByID(v.User.ID).
			SetRevisionID(deref(s.RevisionID)).
			SetRevisionInitialID(deref(s.RevisionID)).
			Save(ctx)
		if err != nil {
			return nil, err
		}
		r.emit(ctx, events.New(events.ChangeRequestsTopic(s.ID), events.ChangeRequestCreated, out.ID).
			For(s.OrganizationID, s.ID, enum.WebhookEventTypeChangeRequestCreated))
		s.CrSeq = number
		r.spaces.wrote(ctx, s)
		r.changeRequests.wrote(ctx, out)
		r.users.wrote(ctx, v.User)
		primeAfter(ctx, (*loaders).crComments, out.ID, 0)
		return out, nil
	})
}

// nextChangeRequestNumber allocates the next change request number of a
// space: one UPDATE of its counter, conditional on the value read when the
// space was loaded in this transaction, so the number is known without
// reading the row back. The increment takes the row's lock until the
// transaction ends, so concurrent creators get consecutive numbers, and
// UNIQUE(space, number) backs it up. When another transaction took a number
// since the space was read (on PostgreSQL, which runs them at once), the
// counter is incremented unconditionally and read back, under that lock.
//
// The space's updatedAt stays: a number is bookkeeping, not a change of the
// space.
func (r *Resolver) nextChangeRequestNumber(ctx context.Context, s *ent.Space) (int, error) {
	db := r.db(ctx)
	n, err := db.Space.Update().Where(space.ID(s.ID), space.CrSeq(s.CrSeq)).
		AddCrSeq(1).SetUpdatedAt(s.UpdatedAt).Save(ctx)
	if err != nil {
		return 0, fmt.Errorf("allocating a change request number: %w", err)
	}
	if n == 1 {
		return s.CrSeq + 1, nil
	}
	if err := db.Space.Update().Where(space.ID(s.ID)).AddCrSeq(1).SetUpdatedAt(s.UpdatedAt).Exec(ctx); err != nil {
		return 0, fmt.Errorf("allocating a change request number: %w", err)
	}
	seq, err := db.Space.Query().Where(space.ID(s.ID)).Select(space.FieldCrSeq).
		Int(internal(ctx, "the counter of a space the viewer may open a change request in"))
	if err != nil {
		return 0, fmt.Errorf("reading the change request number: %w", err)
	}
	return seq, nil
}

// updateChangeRequest changes a change request's subject or status.
func (r *Resolver) updateChangeRequest(ctx context.Context, in model.UpdateChangeRequestInput) (*ent.ChangeRequest, error) {
	return mutate(ctx, r, r.changeRequests, in.ID, authz.Update, func(ctx context.Context, cr *ent.ChangeRequest, _ authz.Decision) (*ent.ChangeRequest, error) {
		s, _, err := r.spaces.get(ctx, cr.SpaceID)
		if err != nil {
			return nil, err
		}
		if err := spaceLive(s); err != nil {
			return nil, err
		}
		u := r.db(ctx).ChangeRequest.UpdateOne(cr)
		if in.Subject != nil {
			u.SetSubject(strings.TrimSpace(*in.Subject))
		}
		if in.Status != nil && *in.Status != cr.Status {
			if cr.Status == enum.ChangeRequestStatusMerged {
				return nil, apperr.Invalid("status", "change request #%d is merged, and merged is final", cr.Number)
			}
			if *in.Status == enum.ChangeRequestStatusMerged {
				return nil, apperr.Invalid("status", "a change request becomes merged only by merging it")
			}
			u.SetStatus(*in.Status)
		}
		out, err := u.Save(ctx)
		if err != nil {
			return nil, err
		}
		if out.Status == enum.ChangeRequestStatusArchived && cr.Status != out.Status && s.GitConnected {
			v, err := auth.RequireViewer(ctx)
			if err != nil {
				return nil, err
			}
			if err := r.gitChangeRequestEnded(ctx, s, out, v.User.ID); err != nil {
				return nil, err
			}
		}
		r.emit(ctx, events.New(events.ChangeRequestsTopic(out.SpaceID), events.ChangeRequestUpdated, out.ID).
			For(s.OrganizationID, s.ID, enum.WebhookEventTypeChangeRequestUpdated))
		r.spaces.wrote(ctx, s) // as it was but for its counters, read again (see primeCounts)
		return out, nil
	})
}

// mergeBase is the main content's revision the change request last synced
// with: where it was forked, or its last update.
func mergeBase(cr *ent.ChangeRequest) string {
	if cr.RevisionMergedAncestorID != nil {
		return *cr.RevisionMergedAncestorID
	}
	return cr.RevisionInitialID
}

// outdated reports whether the main content moved on since the change
// request last synced with it.
func outdated(cr *ent.ChangeRequest, s *ent.Space) bool {
	return cr.Status != enum.ChangeRequestStatusMerged && deref(s.RevisionID) != mergeBase(cr)
}

// threeWay loads the three sides of a change request's merge with the main
// content and merges them: base is the last sync, ours the change request,
// theirs the main content.
type threeWay struct {
	base, ours, theirs                      *ent.Revision
	baseContent, oursContent, theirsContent *content.Loaded
	result                                  *content.Content
	conflicts                               []merge.Conflict
}

func (r *Resolver) mergeWithMain(ctx context.Context, cr *ent.ChangeRequest, s *ent.Space,
	res []*model.MergeResolutionInput) (*threeWay, error) {
	w := &threeWay{}
	var err error
	if w.base, err = r.revisionByID(ctx, mergeBase(cr)); err != nil {
		return nil, err
	}
	if w.ours, err = r.revisionByID(ctx, cr.RevisionID); err != nil {
		return nil, err
	}
	if w.theirs, err = r.revisionByID(ctx, deref(s.RevisionID)); err != nil {
		return nil, err
	}
	if w.baseContent, err = r.contentOf(ctx, w.base); err != nil {
		return nil, err
	}
	if w.oursContent, err = r.contentOf(ctx, w.ours); err != nil {
		return nil, err
	}
	if w.theirsContent, err = r.contentOf(ctx, w.theirs); err != nil {
		return nil, err
	}
	opt, err := resolutions(res)
	if err != nil {
		return nil, err
	}
	// The subtrees no side changed are left alone: a merge costs what the
	// sides changed, not the size of the space.
	opt.SameBeneath = func(id string) bool {
		return content.SameBeneath(id, w.baseContent, w.oursContent, w.theirsContent)
	}
	w.result, w.conflicts = merge.Merge(w.baseContent.Content, w.oursContent.Content, w.theirsContent.Content, opt)
	return w, nil
}

func resolutions(in []*model.MergeResolutionInput) (merge.Options, error) {
	opt := merge.Options{Resolutions: map[string]merge.Resolution{}}
	for i, res := range in {
		field := fmt.Sprintf("resolutions[%d]", i)
		if (res.Take == nil) == (res.Text == nil) {
			return opt, apperr.Invalid(field, "give either take or text")
		}
		var rs merge.Resolution
		if res.Take != nil {
			rs.Take = merge.Ours
			if *res.Take == model.MergeSideTheirs {
				rs.Take = merge.Theirs
			}
		}
		rs.Text = res.Text
		opt.Resolutions[res.Key] = rs
	}
	return opt, nil
}

// revisionByID returns a revision the viewer can see: one of a space they
// can see.
func (r *Resolver) revisionByID(ctx context.Context, revID string) (*ent.Revision, error) {
	rev, _, err := r.revisions.get(ctx, revID)
	return rev, err
}

// SyncResult is the outcome of updating or merging a change request.
type SyncResult struct {
	Result        enum.MergeResult
	Revision      *ent.Revision
	ChangeRequest *ent.ChangeRequest
	Conflicts     []merge.Conflict
}

// settle runs an update or a merge of a change request with the main
// content: in one transaction it takes the change request for a content
// change, three-way merges it with the main content, and on a clean result
// lets apply record it. On conflicts nothing changes and they are returned.
// skip, when it returns true, ends the step early with nothing to do.
//
// What the answer shows is recorded: the change request and its revision,
// and, when nothing changes, the space and the revisions the conflicts are
// shown in; apply records what else it leaves as it was.
func (r *Resolver) settle(ctx context.Context, crID string, res []*model.MergeResolutionInput, result enum.MergeResult,
	action authz.Action, skip func(cr *ent.ChangeRequest, s *ent.Space) bool,
	apply func(ctx context.Context, w *threeWay, cr *ent.ChangeRequest, s *ent.Space, author string, out *SyncResult) error) (*SyncResult, error) {
	f, err := r.viewerFacts(ctx)
	if err != nil {
		return nil, err
	}
	return mutateLocked(ctx, r, r.changeRequestLock(crID), r.changeRequests, crID, action,
		func(ctx context.Context, cr *ent.ChangeRequest, _ authz.Decision) (*SyncResult, error) {
			s, err := r.changeableContent(ctx, cr)
			if err != nil {
				return nil, err
			}
			out := &SyncResult{Result: result, ChangeRequest: cr}
			if skip(cr, s) {
				out.Revision, err = r.revisionByID(ctx, cr.RevisionID)
				r.spaces.wrote(ctx, s)
			} else {
				var w *threeWay
				if w, err = r.mergeWithMain(ctx, cr, s, res); err != nil {
					return nil, err
				}
				if len(w.conflicts) == 0 {
					err = apply(ctx, w, cr, s, f.user.ID, out)
				} else {
					out.Result, out.Conflicts = enum.MergeResultConflicts, w.conflicts
					r.spaces.wrote(ctx, s)
					r.revisions.wrote(ctx, w.ours, w.theirs) // the sides the conflicts are shown in
				}
			}
			if err != nil {
				return nil, err
			}
			r.changeRequests.wrote(ctx, out.ChangeRequest)
			if out.Revision != nil { // none on conflicts
				r.revisions.wrote(ctx, out.Revision)
			}
			return out, nil
		})
}

// syncChangeRequest brings the main content's changes into a change request.
// A change request that is up to date keeps its revision.
func (r *Resolver) syncChangeRequest(ctx context.Context, in model.SyncChangeRequestInput) (*SyncResult, error) {
	upToDate := func(cr *ent.ChangeRequest, s *ent.Space) bool { return !outdated(cr, s) }
	return r.settle(ctx, in.ID, in.Resolutions, enum.MergeResultUpdate, authz.Sync, upToDate,
		func(ctx context.Context, w *threeWay, cr *ent.ChangeRequest, s *ent.Space, author string, out *SyncResult) error {
			rev, err := r.commit(ctx, commit{
				space: s, changeRequest: cr, content: w.result, from: w.oursContent, author: author,
				typ: enum.RevisionTypeUpdate, parents: []string{w.ours.ID, w.theirs.ID},
				message: "Update from the main content",
			})
			if err != nil {
				return err
			}
			out.Revision = rev
			out.ChangeRequest, err = r.db(ctx).ChangeRequest.UpdateOne(cr).
				SetRevisionID(rev.ID).SetRevisionMergedAncestorID(w.theirs.ID).Save(ctx)
			if err != nil {
				return err
			}
			r.emit(ctx, events.New(events.ChangeRequestsTopic(cr.SpaceID), events.ChangeRequestSynced, cr.ID))
			r.spaces.wrote(ctx, s) // a change request's commit leaves it as it is
			return nil
		})
}

// mergeChangeRequest applies a change request to the main content.
func (r *Resolver) mergeChangeRequest(ctx context.Context, in model.MergeChangeRequestInput) (*SyncResult, error) {
	never := func(*ent.ChangeRequest, *ent.Space) bool { return false }
	return r.settle(ctx, in.ID, in.Resolutions, enum.MergeResultMerge, authz.Merge, never,
		func(ctx context.Context, w *threeWay, cr *ent.ChangeRequest, s *ent.Space, author string, out *SyncResult) error {
			subject := cr.Subject
			if subject == "" {
				subject = "Untitled"
			}
			rev, err := r.commit(ctx, commit{
				space: s, content: w.result, from: w.theirsContent, author: author,
				typ: enum.RevisionTypeMerge, parents: []string{w.theirs.ID, w.ours.ID},
				message: fmt.Sprintf("Merge change request #%d: %s", cr.Number, subject),
			})
			if err != nil {
				return err
			}
			out.Revision = rev
			out.ChangeRequest, err = r.db(ctx).ChangeRequest.UpdateOne(cr).
				SetStatus(enum.ChangeRequestStatusMerged).
				SetRevisionMergedID(rev.ID).
				SetRevisionMergedAncestorID(w.theirs.ID).
				SetMergedAt(r.clock()).
				Save(ctx)
			if err != nil {
				return err
			}
			r.emit(ctx, events.New(events.ChangeRequestsTopic(cr.SpaceID), events.ChangeRequestMerged, cr.ID).
				For(s.OrganizationID, s.ID, enum.WebhookEventTypeChangeRequestMerged))
			if err := r.gitChangeRequestEnded(ctx, s, out.ChangeRequest, author); err != nil {
				return err
			}
			r.revisions.wrote(ctx, w.ours) // the space moved on, and is read again
			return nil
		})
}

// changeRequestConflicts are the conflicts a merge would meet now.
func (r *Resolver) changeRequestConflicts(ctx context.Context, cr *ent.ChangeRequest) ([]merge.Conflict, error) {
	if cr.Status == enum.ChangeRequestStatusMerged {
		return nil, nil
	}
	s, _, err := r.spaces.get(ctx, cr.SpaceID)
	if err != nil {
		return nil, err
	}
	if !outdated(cr, s) {
		return nil, nil
	}
	w, err := r.mergeWithMain(ctx, cr, s, nil)
	if err != nil {
		return nil, err
	}
	return w.conflicts, nil
}

// conflictModels presents conflicts, each with its page as the change
// request has it, or as the main content has it when the change request
// deleted it.
func (r *Resolver) conflictModels(ctx context.Context, cr *ent.ChangeRequest, conflicts []merge.Conflict) ([]*model.MergeConflict, error) {
	if len(conflicts) == 0 {
		return []*model.MergeConflict{}, nil
	}
	ours, err := r.revisionByID(ctx, cr.RevisionID)
	if err != nil {
		return nil, err
	}
	oc, err := r.contentOf(ctx, ours)
	if err != nil {
		return nil, err
	}
	s, _, err := r.spaces.get(ctx, cr.SpaceID)
	if err != nil {
		return nil, err
	}
	main, err := r.revisionByID(ctx, deref(s.RevisionID))
	if err != nil {
		return nil, err
	}
	mc, err := r.contentOf(ctx, main)
	if err != nil {
		return nil, err
	}
	out := make([]*model.MergeConflict, len(conflicts))
	for i, c := range conflicts {
		m := &model.MergeConflict{
			Key: c.Key(), Kind: model.MergeConflictKind(strings.ToUpper(string(c.Kind))),
			PageID: nonEmptyPtr(c.PageID), FileID: nonEmptyPtr(c.FileID), Field: nonEmptyPtr(c.Field),
			Base: &conflicts[i].Base, Ours: &conflicts[i].Ours, Theirs: &conflicts[i].Theirs,
		}
		if c.PageID != "" {
			m.Page = pageOf(ours, oc.Content, c.PageID)
			if m.Page == nil {
				m.Page = pageOf(main, mc.Content, c.PageID)
			}
		}
		out[i] = m
	}
	return out, nil
}

func nonEmptyPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// changeRequestComments counts a change request's open comments.
func (r *Resolver) changeRequestComments(ctx context.Context, cr *ent.ChangeRequest) (int, error) {
	return load(ctx, loadersFrom(ctx).crComments(), cr.ID)
}

func (r *Resolver) changeRequestURLs(cr *ent.ChangeRequest) *model.ChangeRequestURLs {
	return &model.ChangeRequestURLs{
		Location: r.cfg.PublicURL + "/v1/spaces/" + cr.SpaceID + "/change-requests/" + cr.ID,
		App:      fmt.Sprintf("%s/s/%s/~/changes/%d", r.cfg.AppURL, cr.SpaceID, cr.Number),
	}
}

// changeRequestContributors lists the users who edited a change request's
// content: anyone who sees the change request sees them (see userEmail).
func (r *Resolver) changeRequestContributors(ctx context.Context, cr *ent.ChangeRequest) ([]*ent.User, error) {
	return load(ctx, loadersFrom(ctx).crContributors(), cr.ID)
}

// visibleUser resolves the author of content the viewer can read: null when
// there is none or the account is gone. Whoever sees the content sees its
// author; userEmail decides about the email.
func (r *Resolver) visibleUser(ctx context.Context, userID *string) (*ent.User, error) {
	if userID == nil {
		return nil, nil
	}
	u, err := load(ctx, r.users.loader(ctx), *userID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return u, err
}

// activeChangeRequest loads a change request for a change to its content:
// the viewer may edit the space, the space is not locked or deleted, and the
// change request is open or draft. The space's content lock is held.
func (r *Resolver) activeChangeRequest(ctx context.Context, crID string, action authz.Action) (*ent.ChangeRequest, *ent.Space, error) {
	if err := r.changeRequestLock(crID)(ctx); err != nil {
		return nil, nil, err
	}
	// What the transaction read before the lock may have changed since.
	loadersFrom(ctx).clear()
	cr, _, err := r.changeRequests.authorize(ctx, crID, action)
	if err != nil {
		return nil, nil, err
	}
	s, err := r.changeableContent(ctx, cr)
	return cr, s, err
}

// changeRequestLock is the content lock of a change request's space (see
// lockSpaceContent), taken before the change request is read.
func (r *Resolver) changeRequestLock(crID string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		return r.lockContent(ctx, space.HasChangeRequestsWith(changerequest.ID(crID)))
	}
}

// changeableContent returns the space of a change request whose content
// changes: the space is not locked or deleted, and the change request is
// open or draft.
func (r *Resolver) changeableContent(ctx context.Context, cr *ent.ChangeRequest) (*ent.Space, error) {
	s, _, err := r.spaces.get(ctx, cr.SpaceID)
	if err != nil {
		return nil, err
	}
	if err := spaceLive(s); err != nil {
		return nil, err
	}
	if err := requireEditable(s); err != nil {
		return nil, err
	}
	return s, requireActive(cr)
}

// changeRequestChanges lists the pages cr's content adds, changes, moves
// or removes since the main content it last took: each in the change
// request's revision, a removed one in that main revision.
func (r *Resolver) changeRequestChanges(ctx context.Context, cr *ent.ChangeRequest) ([]*model.PageChange, error) {
	baseID := cr.RevisionInitialID
	if cr.RevisionMergedAncestorID != nil {
		baseID = *cr.RevisionMergedAncestorID
	}
	ours, err := r.revisionByID(ctx, cr.RevisionID)
	if err != nil {
		return nil, err
	}
	base, err := r.revisionByID(ctx, baseID)
	if err != nil {
		return nil, err
	}
	now, err := r.contentOf(ctx, ours)
	if err != nil {
		return nil, err
	}
	was, err := r.contentOf(ctx, base)
	if err != nil {
		return nil, err
	}
	changes := content.Changes(was, now)
	out := make([]*model.PageChange, len(changes))
	for i, c := range changes {
		rev, in := ours, now
		if c.Kind == enum.PageChangeKindRemoved {
			rev, in = base, was
		}
		out[i] = &model.PageChange{Kind: c.Kind, Page: model.NewRevisionPage(rev, in.Content, c.Node, c.Path),
			PreviousPath: nonEmptyPtr(c.PreviousPath)}
	}
	return out, nil
}

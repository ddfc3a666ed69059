// Package merge is the three-way merge of revision content:
// (base, ours, theirs) -> (result, conflicts). Merging a change request
// into the main content, or updating it from there, both come down to it.
// The package knows nothing about HTTP or the database.
//
// # Pages
//
// Pages are matched by ID. For a page both sides have, each field merges
// three-way: a field changed on one side only takes that side, both changed
// to the same value takes it, both changed differently is a "field"
// conflict. The markdown merges line by line (diff3, see Text): changes
// separated by at least one unchanged line merge cleanly, so edits to
// paragraphs separated by a blank line merge; changes that overlap or touch
// directly (adjacent lines, insertions at the same place) are a "text"
// conflict unless both sides made the same change, as in git. CreatedAt is never a
// conflict: it stays base's (the earliest, for a page both sides added).
// UpdatedAt is the later of the two sides. Renaming (title, slug) is a field
// change like any other.
//
// A page one side added is added under its parent at its position. A page
// both sides added with the same ID merges its fields against an empty page.
//
// A page one side deleted is removed when the other side left it and
// everything beneath it unchanged. When the other side changed it (a field,
// its markdown, its parent) or beneath it (a page added, edited or moved
// there), the deletion is a "delete" conflict, reported once on the topmost
// deleted page: a parent deleted by ours while theirs adds a child is a
// conflict on the parent. Taking the deleting side removes the page with
// what the other side had beneath it, and pages the deleting side still has
// go back to where it has them; taking the other side keeps the page and
// the pages beneath it that the deleting side removed. A page both sides
// deleted is removed.
//
// A page one side moved (to another parent) goes where that side put it,
// with the other side's edits. Both moving it to different parents is a
// "move" conflict. The merged tree follows the rules content.Insert
// enforces: a merge that would put a group below the top level, a page
// beneath a link, or a page inside itself reports a "move" conflict on the
// misplaced page instead (on the page whose ID sorts first, for pages moved
// inside each other). Taking a side for it puts the page where that side has
// it, with that side's type for the page and its new parent, or removes it
// when that side lacks it.
//
// # Order and slugs
//
// Siblings keep the order base, ours and theirs agree on. A page one side
// moved within its parent goes where that side put it relative to the pages
// that kept their place; when both sides reordered the same stretch, the
// side whose page IDs sort first leads. A page one side added (or moved in
// from another parent) goes right after the page that precedes it on that
// side, wherever that page ends up, and pages that end up after the same
// page come in ID order: two pages the sides inserted at the same place
// come in ID order. No order is ever a conflict, and without conflicts
// Merge(base, a, b) equals Merge(base, b, a).
//
// When merged siblings share a slug (both sides added a page with the same
// slug under the same parent, or renamed pages to it), both pages are kept:
// the page whose ID sorts first keeps the slug and the others, in ID order,
// get the first free numeric suffix ("-2", "-3", ..., as content.UniqueSlug).
//
// # Files and reusable contents
//
// Files merge by ID as whole entries: both changed differently is a "file"
// conflict, deleted on one side and changed on the other a "delete"
// conflict, both with FileID set. Reusable contents merge by ID like pages:
// the title as a "field", the markdown line by line as "text", and deleted
// against changed as "delete", with ReusableID set.
//
// # Resolutions
//
// Every conflict has a Key. Passing a Resolution under that key in
// Options.Resolutions settles the conflict in the next merge of the same
// contents: a change request is updated from main, conflicts come back, the
// user picks a side or writes the text, and the merge is run again with the
// resolutions and succeeds.
package merge

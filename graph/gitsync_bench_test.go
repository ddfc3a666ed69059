package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/server/servertest"
)

// BenchmarkGitSyncOnePage measures what continuous sync costs for a
// one-page change in a connected space of 5,050 pages (50 parts, each a
// README and 100 pages of 1.4 kB, in GitBook's layout), served by git
// http-backend on this machine: a commit of one page brought in, and an
// edit of one page pushed out, with the bytes of packfiles each moves.
// Both are read and written as edits of the page's file; what still
// follows the repository's size is in docs/api/git-sync.md. A page added
// (on either side) is measured too: it changes the table of contents, and
// goes through the whole import or export.
func BenchmarkGitSyncOnePage(b *testing.B) {
	e := servertest.New(b, allowPrivate)
	g := newGitRepo(b, "docs.git")
	files := map[string]string{}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n")
	for p := range 50 {
		dir := fmt.Sprintf("part-%02d", p)
		files[dir+"/README.md"] = fmt.Sprintf("# Part %d\n\nWhat part %d is about.\n", p, p)
		fmt.Fprintf(&summary, "* [Part %d](%s/README.md)\n", p, dir)
		for i := range 100 {
			f := fmt.Sprintf("%s/page-%03d.md", dir, i)
			files[f] = fmt.Sprintf("# Page %d.%d\n\n%s\n", p, i, strings.Repeat("Some words about Bindery and Git. ", 40))
			fmt.Fprintf(&summary, "  * [Page %d.%d](%s)\n", p, i, f)
		}
	}
	files["SUMMARY.md"] = summary.String()
	g.srv.Commit(g.name, files, "First", "Ann <ann@example.com>", when)
	space := createSpace(b, e, "Five thousand pages")
	e.MustDo(http.MethodPatch, "/v1/spaces/"+space, e.OwnerToken, map[string]any{"editMode": "live"}, http.StatusOK)
	connect(b, e, g, space, "IMPORT")
	page := pageByPath(b, e, space, "part-04/page-010")["id"].(string)
	part := pageByPath(b, e, space, "part-05")["id"].(string)

	// A sub-benchmark runs more than once: edits are counted across runs,
	// so that each is a change.
	// The bytes of packfiles each operation moves are reported beside
	// its time.
	edits := 0
	var fetched, pushed int64
	report := func(b *testing.B) {
		b.ReportMetric(float64(fetched)/float64(b.N), "fetched-B/op")
		b.ReportMetric(float64(pushed)/float64(b.N), "pushed-B/op")
		fetched, pushed = 0, 0
	}
	sync := func(b *testing.B, direction string) {
		sent, received := g.srv.Sent(), g.srv.Received()
		b.StartTimer()
		op := runGit(b, e, space).Space.GitSyncOperations.Nodes[0]
		b.StopTimer()
		if op.State != "SUCCESS" || op.Direction != direction {
			b.Fatalf("%s %s: %v", op.Direction, op.State, op.Error)
		}
		fetched += g.srv.Sent() - sent
		pushed += g.srv.Received() - received
	}
	// bringIn commits changed to the branch and times the sync that
	// brings the commit in.
	bringIn := func(b *testing.B, changed map[string]string) {
		g.srv.Commit(g.name, changed, "One page", "Bob <bob@example.com>", when)
		e.Clock.Advance(2 * time.Minute)
		e.Server.Resolver().GitSync().ReadBranches(b.Context())
		sync(b, "IMPORT")
	}
	b.Run("import", func(b *testing.B) {
		b.StopTimer()
		for range b.N {
			edits++
			bringIn(b, map[string]string{"part-03/page-007.md": fmt.Sprintf("# Page 3.7\n\nChanged %d.\n", edits)})
		}
		report(b)
	})
	b.Run("export", func(b *testing.B) {
		b.StopTimer()
		for range b.N {
			edits++
			setMarkdown(b, e, space, page, fmt.Sprintf("Edited %d.\n", edits))
			sync(b, "EXPORT")
		}
		report(b)
	})
	b.Run("import-added-page", func(b *testing.B) {
		b.StopTimer()
		for range b.N {
			edits++
			f := fmt.Sprintf("part-02/added-%03d.md", edits)
			files["SUMMARY.md"] = strings.Replace(files["SUMMARY.md"], "* [Part 3]",
				fmt.Sprintf("  * [Added %d](%s)\n* [Part 3]", edits, f), 1)
			bringIn(b, map[string]string{f: fmt.Sprintf("# Added %d\n\nNew.\n", edits), "SUMMARY.md": files["SUMMARY.md"]})
		}
		report(b)
	})
	b.Run("export-added-page", func(b *testing.B) {
		b.StopTimer()
		for range b.N {
			edits++
			e.GraphQL(e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
				map[string]any{"in": map[string]any{"spaceId": space, "parentPageId": part, "title": fmt.Sprintf("Made %d", edits)}}).Into(b, &struct{}{})
			sync(b, "EXPORT")
		}
		report(b)
	})
}

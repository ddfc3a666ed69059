package merge

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

// paragraphs is the markdown of page a in baseTree.
var paragraphs = lines("# A", "", "First paragraph.", "", "Second paragraph.", "", "Third paragraph.")

// baseTree is "a(a1 a2) b(b1) c", with files f1, f2 and reusable content r1.
func baseTree() *content.Content {
	c := tree(
		withMarkdown(doc("a", doc("a1"), doc("a2")), paragraphs),
		doc("b", doc("b1")),
		doc("c"),
	)
	c.Files = []*content.File{file("f1", "one.png", "blob1"), file("f2", "two.png", "blob2")}
	c.Reusable = []*content.Reusable{{ID: "r1", Title: "Snippet", Markdown: lines("one", "", "two", "", "three")}}
	return c
}

func putFile(f *content.File) edit {
	return func(c *content.Content) { c.PutFile(f) }
}

func removeFile(id string) edit {
	return func(c *content.Content) { must(c.RemoveFile(id)) }
}

func setReusable(id, title, md string) edit {
	return func(c *content.Content) {
		for _, r := range c.Reusable {
			if r.ID == id {
				r.Title, r.Markdown = title, md
				return
			}
		}
		c.Reusable = append(c.Reusable, &content.Reusable{ID: id, Title: title, Markdown: md})
	}
}

func removeReusable(id string) edit {
	return func(c *content.Content) {
		for i, r := range c.Reusable {
			if r.ID == id {
				c.Reusable = append(c.Reusable[:i:i], c.Reusable[i+1:]...)
				return
			}
		}
		panic("no reusable content " + id)
	}
}

// mergeCase is one merge of baseTree (or base) with the edits of each side.
type mergeCase struct {
	name         string
	base         *content.Content
	ours, theirs []edit
	resolutions  map[string]Resolution
	// want is the outline of the result; conflicts are expected when it is
	// empty.
	want      string
	check     func(t *testing.T, got *content.Content)
	conflicts []Conflict
}

func TestMergePages(t *testing.T) {
	runMergeCases(t, []mergeCase{
		{
			name:   "both sides edit different paragraphs of the same page",
			ours:   []edit{setMarkdown("a", lines("# A", "", "First paragraph, ours.", "", "Second paragraph.", "", "Third paragraph."))},
			theirs: []edit{setMarkdown("a", lines("# A", "", "First paragraph.", "", "Second paragraph.", "", "Third paragraph, theirs."))},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, lines("# A", "", "First paragraph, ours.", "", "Second paragraph.", "", "Third paragraph, theirs."), find(got, "a").Markdown)
			},
		},
		{
			name:   "both sides edit the same line differently",
			ours:   []edit{setMarkdown("a", lines("# A", "", "First paragraph.", "", "Ours.", "", "Third paragraph."))},
			theirs: []edit{setMarkdown("a", lines("# A", "", "First paragraph.", "", "Theirs.", "", "Third paragraph."))},
			conflicts: []Conflict{{
				Kind: KindText, PageID: "a", Field: "markdown", Title: "Page a",
				Base:   paragraphs,
				Ours:   lines("# A", "", "First paragraph.", "", "Ours.", "", "Third paragraph."),
				Theirs: lines("# A", "", "First paragraph.", "", "Theirs.", "", "Third paragraph."),
				Hunks:  []TextConflict{{Line: 5, Base: lines("Second paragraph."), Ours: lines("Ours."), Theirs: lines("Theirs.")}},
			}},
		},
		{
			name:   "one side deletes a page the other edited",
			ours:   []edit{remove("c")},
			theirs: []edit{setMarkdown("c", "edited\n")},
			conflicts: []Conflict{{
				Kind: KindDelete, PageID: "c", Title: "Page c", Base: "# c\n", Ours: "", Theirs: "edited\n",
			}},
		},
		{
			name:   "both sides add pages with the same slug under the same parent",
			ours:   []edit{add("a", -1, withSlug(doc("x2"), "new"))},
			theirs: []edit{add("a", -1, withSlug(doc("x1"), "new"))},
			// x1 sorts first: it keeps the slug and comes first; x2 gets "new-2".
			want: "a(a1 a2 x1:new x2:new-2) b(b1) c",
		},
		{
			name:   "a page moved on one side and edited on the other",
			ours:   []edit{move("a2", "b", 1)},
			theirs: []edit{setMarkdown("a2", "edited\n"), setTitle("a2", "Renamed")},
			want:   "a(a1) b(b1 a2) c",
			check: func(t *testing.T, got *content.Content) {
				p := find(got, "a2")
				assert.Equal(t, "edited\n", p.Markdown)
				assert.Equal(t, "Renamed", p.Title)
			},
		},
		{
			name:   "a page added on one side",
			theirs: []edit{add("b", 0, doc("n"))},
			want:   "a(a1 a2) b(n b1) c",
		},
		{
			name:   "pages added on both sides at different places",
			ours:   []edit{add("", 0, doc("n1"))},
			theirs: []edit{add("a", 1, doc("n2"))},
			want:   "n1 a(a1 n2 a2) b(b1) c",
		},
		{
			name:   "pages added on both sides at the same place come in ID order",
			ours:   []edit{add("", 1, doc("n2")), add("", 2, doc("n3"))},
			theirs: []edit{add("", 1, doc("n1"))},
			want:   "a(a1 a2) n1 n2 n3 b(b1) c",
		},
		{
			name:   "the same page added on both sides",
			ours:   []edit{add("b", -1, doc("n"))},
			theirs: []edit{add("b", -1, doc("n"))},
			want:   "a(a1 a2) b(b1 n) c",
		},
		{
			name: "a page removed on one side",
			ours: []edit{remove("c")},
			want: "a(a1 a2) b(b1)",
		},
		{
			name:   "a subtree removed on one side and unchanged on the other",
			theirs: []edit{remove("a")},
			ours:   []edit{setTitle("b", "Other page edited")},
			want:   "b(b1) c",
		},
		{
			name:   "a page removed on both sides",
			ours:   []edit{remove("b")},
			theirs: []edit{remove("b")},
			want:   "a(a1 a2) c",
		},
		{
			name:   "a page removed on one side and edited beneath on the other",
			ours:   []edit{remove("b")},
			theirs: []edit{setMarkdown("b1", "edited\n")},
			conflicts: []Conflict{{
				Kind: KindDelete, PageID: "b", Title: "Page b", Base: "# b\n", Theirs: "# b\n",
			}},
		},
		{
			name:   "a parent deleted on one side while the other adds a child",
			ours:   []edit{remove("b")},
			theirs: []edit{add("b", -1, doc("n"))},
			conflicts: []Conflict{{
				Kind: KindDelete, PageID: "b", Title: "Page b", Base: "# b\n", Theirs: "# b\n",
			}},
		},
		{
			name:   "a parent deleted after moving its child out while the other side edits the child",
			ours:   []edit{move("b1", "", -1), remove("b")},
			theirs: []edit{setMarkdown("b1", "edited\n")},
			want:   "a(a1 a2) c b1",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "edited\n", find(got, "b1").Markdown)
			},
		},
		{
			name:   "a page renamed on one side",
			theirs: []edit{change("b", 1, func(p *content.Page) { p.Title, p.Slug = "Bee", "bee" })},
			want:   "a(a1 a2) b:bee(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "Bee", find(got, "b").Title)
			},
		},
		{
			name: "metadata changed on one side",
			ours: []edit{change("c", 1, func(p *content.Page) {
				p.Emoji, p.Hidden = "🚀", true
				p.Layout = &content.Layout{Width: enum.LayoutWidthWide}
			})},
			theirs: []edit{setMarkdown("a1", "other\n")},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				p := find(got, "c")
				assert.Equal(t, "🚀", p.Emoji)
				assert.True(t, p.Hidden)
				assert.Equal(t, &content.Layout{Width: enum.LayoutWidthWide}, p.Layout)
			},
		},
		{
			name:   "the same change on both sides",
			ours:   []edit{setTitle("c", "Same"), setMarkdown("c", "same\n")},
			theirs: []edit{setTitle("c", "Same"), setMarkdown("c", "same\n")},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "Same", find(got, "c").Title)
				assert.Equal(t, "same\n", find(got, "c").Markdown)
			},
		},
		{
			name:   "different fields changed on each side",
			ours:   []edit{setTitle("c", "Sea")},
			theirs: []edit{change("c", 1, func(p *content.Page) { p.Emoji = "🌊" })},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "Sea", find(got, "c").Title)
				assert.Equal(t, "🌊", find(got, "c").Emoji)
			},
		},
		{
			name:   "the same field changed differently on each side",
			ours:   []edit{setTitle("c", "Ours")},
			theirs: []edit{setTitle("c", "Theirs")},
			conflicts: []Conflict{{
				Kind: KindField, PageID: "c", Field: "title", Title: "Ours", Base: "Page c", Ours: "Ours", Theirs: "Theirs",
			}},
		},
		{
			name:   "UpdatedAt is the later side, CreatedAt stays",
			ours:   []edit{change("c", 5, func(p *content.Page) { p.Title = "Sea" })},
			theirs: []edit{change("c", 3, func(p *content.Page) { p.Emoji = "🌊" })},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, t0.Add(5*time.Minute), find(got, "c").UpdatedAt)
				assert.Equal(t, t0, find(got, "c").CreatedAt)
			},
		},
		{
			name:   "both sides move a page to different parents",
			ours:   []edit{move("c", "a", -1)},
			theirs: []edit{move("c", "b", -1)},
			conflicts: []Conflict{{
				Kind: KindMove, PageID: "c", Field: "parent", Title: "Page c", Base: "/", Ours: "/a", Theirs: "/b",
			}},
		},
		{
			name:   "both sides move a page to the same parent",
			ours:   []edit{move("c", "a", 0)},
			theirs: []edit{move("c", "a", 0)},
			want:   "a(c a1 a2) b(b1)",
		},
		{
			name:   "one side reorders while the other edits",
			ours:   []edit{move("c", "", 0)},
			theirs: []edit{setTitle("b", "Edited")},
			want:   "c a(a1 a2) b(b1)",
		},
		{
			name:   "one side reorders while the other adds a page after a moved one",
			ours:   []edit{move("c", "", 0)},
			theirs: []edit{add("", 3, doc("n"))},
			want:   "c n a(a1 a2) b(b1)",
		},
		{
			name:   "pages moved into each other",
			ours:   []edit{move("a", "b", -1)},
			theirs: []edit{move("b", "a", -1)},
			conflicts: []Conflict{{
				Kind: KindMove, PageID: "a", Field: "parent", Title: "Page a", Base: "/", Ours: "/b", Theirs: "/",
			}},
		},
		{
			name:   "a page turned into a group on one side and moved below the top on the other",
			ours:   []edit{change("c", 1, func(p *content.Page) { p.Type = enum.PageTypeGroup })},
			theirs: []edit{move("c", "a", -1)},
			conflicts: []Conflict{{
				Kind: KindMove, PageID: "c", Field: "parent", Title: "Page c", Base: "/", Ours: "/", Theirs: "/a",
			}},
		},
		{
			name: "a child added beneath a page the other side turned into a link",
			ours: []edit{change("c", 1, func(p *content.Page) {
				p.Type, p.Target = enum.PageTypeLink, &content.Ref{Kind: "url", URL: "https://example.com"}
			})},
			theirs: []edit{add("c", -1, doc("n"))},
			conflicts: []Conflict{{
				Kind: KindMove, PageID: "n", Field: "parent", Title: "Page n", Theirs: "/c",
			}},
		},
		{
			name:   "two pages renamed to the same slug",
			ours:   []edit{change("b", 1, func(p *content.Page) { p.Slug = "same" })},
			theirs: []edit{change("c", 1, func(p *content.Page) { p.Slug = "same" })},
			want:   "a(a1 a2) b:same(b1) c:same-2",
		},
	})
}

func TestMergeFiles(t *testing.T) {
	runMergeCases(t, []mergeCase{
		{
			name:   "a file changed on one side",
			ours:   []edit{putFile(file("f1", "one.png", "new"))},
			theirs: []edit{putFile(file("f2", "renamed.png", "blob2"))},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, []*content.File{file("f1", "one.png", "new"), file("f2", "renamed.png", "blob2")}, got.Files)
			},
		},
		{
			name:   "a file changed differently on each side",
			ours:   []edit{putFile(file("f1", "one.png", "ours"))},
			theirs: []edit{putFile(file("f1", "one.png", "theirs"))},
			conflicts: []Conflict{{
				Kind: KindFile, FileID: "f1", Field: "file", Title: "one.png",
				Base:   fileJSON(file("f1", "one.png", "blob1")),
				Ours:   fileJSON(file("f1", "one.png", "ours")),
				Theirs: fileJSON(file("f1", "one.png", "theirs")),
			}},
		},
		{
			name:   "a file deleted on one side and changed on the other",
			ours:   []edit{putFile(file("f2", "two.png", "changed"))},
			theirs: []edit{removeFile("f2")},
			conflicts: []Conflict{{
				Kind: KindDelete, FileID: "f2", Title: "two.png",
				Base: fileJSON(file("f2", "two.png", "blob2")), Ours: fileJSON(file("f2", "two.png", "changed")),
			}},
		},
		{
			name:   "a file deleted on one side and unchanged on the other",
			theirs: []edit{removeFile("f1")},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, []*content.File{file("f2", "two.png", "blob2")}, got.Files)
			},
		},
		{
			name:   "files added on both sides",
			ours:   []edit{putFile(file("f4", "four.png", "4")), putFile(file("f3", "same.png", "3"))},
			theirs: []edit{putFile(file("f0", "zero.png", "0")), putFile(file("f3", "same.png", "3"))},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				var ids []string
				for _, f := range got.Files {
					ids = append(ids, f.ID)
				}
				assert.Equal(t, []string{"f0", "f1", "f2", "f3", "f4"}, ids)
			},
		},
		{
			name:   "reusable content merged line by line",
			ours:   []edit{setReusable("r1", "Snippet", lines("ONE", "", "two", "", "three"))},
			theirs: []edit{setReusable("r1", "Renamed", lines("one", "", "two", "", "THREE"))},
			want:   "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, []*content.Reusable{{ID: "r1", Title: "Renamed", Markdown: lines("ONE", "", "two", "", "THREE")}}, got.Reusable)
			},
		},
		{
			name:   "reusable content deleted on one side and changed on the other",
			ours:   []edit{removeReusable("r1")},
			theirs: []edit{setReusable("r1", "Snippet", "changed\n")},
			conflicts: []Conflict{{
				Kind: KindDelete, ReusableID: "r1", Title: "Snippet", Base: lines("one", "", "two", "", "three"), Theirs: "changed\n",
			}},
		},
	})
}

func TestMergeResolutions(t *testing.T) {
	sameLine := func(word string) string {
		return lines("# A", "", "First paragraph.", "", word, "", "Third paragraph.")
	}
	runMergeCases(t, []mergeCase{
		{
			name:        "a text conflict resolved with ours keeps the clean changes of theirs",
			ours:        []edit{setMarkdown("a", sameLine("Ours."))},
			theirs:      []edit{setMarkdown("a", lines("# A", "", "First paragraph, theirs.", "", "Theirs.", "", "Third paragraph."))},
			resolutions: map[string]Resolution{"page:a:markdown": {Take: Ours}},
			want:        "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, lines("# A", "", "First paragraph, theirs.", "", "Ours.", "", "Third paragraph."), find(got, "a").Markdown)
			},
		},
		{
			name:        "a text conflict resolved with theirs",
			ours:        []edit{setMarkdown("a", sameLine("Ours."))},
			theirs:      []edit{setMarkdown("a", sameLine("Theirs."))},
			resolutions: map[string]Resolution{"page:a:markdown": {Take: Theirs}},
			want:        "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, sameLine("Theirs."), find(got, "a").Markdown)
			},
		},
		{
			name:        "a text conflict resolved with a custom text",
			ours:        []edit{setMarkdown("a", sameLine("Ours."))},
			theirs:      []edit{setMarkdown("a", sameLine("Theirs."))},
			resolutions: map[string]Resolution{"page:a:markdown": {Take: Ours, Text: ptr(sameLine("Both."))}},
			want:        "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, sameLine("Both."), find(got, "a").Markdown)
			},
		},
		{
			name:        "a field conflict resolved with theirs",
			ours:        []edit{setTitle("c", "Ours")},
			theirs:      []edit{setTitle("c", "Theirs")},
			resolutions: map[string]Resolution{"page:c:title": {Take: Theirs}},
			want:        "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "Theirs", find(got, "c").Title)
			},
		},
		{
			name:   "field conflicts resolved with texts",
			ours:   []edit{change("c", 1, func(p *content.Page) { p.Title, p.Cover = "Ours", &content.Cover{YPos: 1} })},
			theirs: []edit{change("c", 1, func(p *content.Page) { p.Title, p.Cover = "Theirs", &content.Cover{YPos: 2} })},
			resolutions: map[string]Resolution{
				"page:c:title": {Text: ptr("Custom")},
				"page:c:cover": {Text: ptr(`{"ref":{"kind":"url","url":"https://example.com/c.png"},"yPos":3}`)},
			},
			want: "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "Custom", find(got, "c").Title)
				assert.Equal(t, &content.Cover{Ref: content.Ref{Kind: "url", URL: "https://example.com/c.png"}, YPos: 3}, find(got, "c").Cover)
			},
		},
		{
			name:        "an unreadable field text leaves the conflict",
			ours:        []edit{change("c", 1, func(p *content.Page) { p.Type = enum.PageTypeLink })},
			theirs:      []edit{change("c", 1, func(p *content.Page) { p.Type = enum.PageTypeGroup })},
			resolutions: map[string]Resolution{"page:c:type": {Text: ptr("folder")}},
			conflicts: []Conflict{{
				Kind: KindField, PageID: "c", Field: "type", Title: "Page c", Base: "document", Ours: "link", Theirs: "group",
			}},
		},
		{
			name:        "a deletion conflict resolved by keeping the page",
			ours:        []edit{remove("b")},
			theirs:      []edit{add("b", -1, doc("n"))},
			resolutions: map[string]Resolution{"page:b": {Take: Theirs}},
			want:        "a(a1 a2) b(b1 n) c",
		},
		{
			name:        "a deletion conflict resolved by deleting the page",
			ours:        []edit{remove("b")},
			theirs:      []edit{add("b", -1, doc("n")), setTitle("b1", "Edited")},
			resolutions: map[string]Resolution{"page:b": {Take: Ours}},
			want:        "a(a1 a2) c",
		},
		{
			name:        "deleting a page puts back a page the other side had moved beneath it",
			ours:        []edit{remove("b")},
			theirs:      []edit{move("c", "b", 0)},
			resolutions: map[string]Resolution{"page:b": {Take: Ours}},
			want:        "a(a1 a2) c",
		},
		{
			name:        "a move conflict resolved with theirs",
			ours:        []edit{move("c", "a", -1)},
			theirs:      []edit{move("c", "b", -1)},
			resolutions: map[string]Resolution{"page:c:parent": {Take: Theirs}},
			want:        "a(a1 a2) b(b1 c)",
		},
		{
			name:        "pages moved into each other resolved with ours",
			ours:        []edit{move("a", "b", -1)},
			theirs:      []edit{move("b", "a", -1)},
			resolutions: map[string]Resolution{"page:a:parent": {Take: Ours}},
			want:        "b(b1 a(a1 a2)) c",
		},
		{
			name: "a child beneath a new link resolved by dropping the child",
			ours: []edit{change("c", 1, func(p *content.Page) {
				p.Type, p.Target = enum.PageTypeLink, &content.Ref{Kind: "url", URL: "https://example.com"}
			})},
			theirs:      []edit{add("c", -1, doc("n"))},
			resolutions: map[string]Resolution{"page:n:parent": {Take: Ours}},
			want:        "a(a1 a2) b(b1) c",
		},
		{
			name: "a child beneath a new link resolved by keeping the child",
			ours: []edit{change("c", 1, func(p *content.Page) {
				p.Type, p.Target = enum.PageTypeLink, &content.Ref{Kind: "url", URL: "https://example.com"}
			})},
			theirs:      []edit{add("c", -1, doc("n"))},
			resolutions: map[string]Resolution{"page:n:parent": {Take: Theirs}},
			want:        "a(a1 a2) b(b1) c(n)",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, enum.PageTypeDocument, find(got, "c").Type, "c stays a document as theirs has it")
				assert.Nil(t, find(got, "c").Target)
			},
		},
		{
			name:        "a page turned into a group and moved below the top resolved with the move",
			ours:        []edit{change("c", 1, func(p *content.Page) { p.Type = enum.PageTypeGroup })},
			theirs:      []edit{move("c", "a", -1)},
			resolutions: map[string]Resolution{"page:c:parent": {Take: Theirs}},
			want:        "a(a1 a2 c) b(b1)",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, enum.PageTypeDocument, find(got, "c").Type)
			},
		},
		{
			name:        "a file conflict resolved with theirs",
			ours:        []edit{putFile(file("f1", "one.png", "ours"))},
			theirs:      []edit{putFile(file("f1", "one.png", "theirs"))},
			resolutions: map[string]Resolution{"file:f1": {Take: Theirs}},
			want:        "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, file("f1", "one.png", "theirs"), got.Files[0])
			},
		},
		{
			name:        "a resolution without a side or a text leaves the conflict",
			ours:        []edit{setTitle("c", "Ours")},
			theirs:      []edit{setTitle("c", "Theirs")},
			resolutions: map[string]Resolution{"page:c:title": {Take: "mine"}},
			conflicts: []Conflict{{
				Kind: KindField, PageID: "c", Field: "title", Title: "Ours", Base: "Page c", Ours: "Ours", Theirs: "Theirs",
			}},
		},
		{
			name:        "a resolution for a conflict that does not occur is ignored",
			ours:        []edit{setTitle("c", "Ours")},
			resolutions: map[string]Resolution{"page:c:title": {Take: Theirs}, "page:zz": {Take: Ours}},
			want:        "a(a1 a2) b(b1) c",
			check: func(t *testing.T, got *content.Content) {
				assert.Equal(t, "Ours", find(got, "c").Title)
			},
		},
	})
}

// runMergeCases runs each case, checks the result is a valid tree, and
// checks that swapping the sides gives the same result when there are no
// conflicts, and the same conflicts otherwise.
func runMergeCases(t *testing.T, cases []mergeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base
			if base == nil {
				base = baseTree()
			}
			ours, theirs := apply(base, tc.ours...), apply(base, tc.theirs...)
			opt := Options{Resolutions: tc.resolutions}
			got, conflicts := Merge(base, ours, theirs, opt)
			if tc.want == "" {
				require.Nil(t, got)
				assert.Equal(t, tc.conflicts, conflicts)
				_, swapped := Merge(base, theirs, ours, Options{})
				assert.Equal(t, keys(tc.conflicts), keys(swapped), "swapping the sides finds the same conflicts")
				return
			}
			require.Empty(t, conflicts)
			requireValid(t, got)
			assert.Equal(t, tc.want, outline(got))
			if tc.check != nil {
				tc.check(t, got)
			}
			swapped, swappedConflicts := Merge(base, theirs, ours, Options{Resolutions: swapSides(tc.resolutions)})
			require.Empty(t, swappedConflicts)
			assert.Equal(t, canon(got), canon(swapped), "swapping the sides gives the same result")
		})
	}
}

// swapSides returns the resolutions with ours and theirs exchanged.
func swapSides(res map[string]Resolution) map[string]Resolution {
	out := map[string]Resolution{}
	for k, r := range res {
		switch r.Take {
		case Ours:
			r.Take = Theirs
		case Theirs:
			r.Take = Ours
		}
		out[k] = r
	}
	return out
}

// TestMergeResolutionFlow is a change request updated from main: the first
// merge reports conflicts, the user resolves each, the second merge
// succeeds.
func TestMergeResolutionFlow(t *testing.T) {
	base := baseTree()
	main := apply(base, setTitle("c", "Main title"), remove("b"), putFile(file("f1", "one.png", "main")))
	cr := apply(base, setTitle("c", "CR title"), add("b", 0, doc("n")), putFile(file("f1", "one.png", "cr")),
		setMarkdown("a", lines("# A", "", "First paragraph, from the change request.", "", "Second paragraph.", "", "Third paragraph.")))

	got, conflicts := Merge(base, cr, main, Options{})
	require.Nil(t, got)
	require.Equal(t, []string{"delete page:b", "field page:c:title", "file file:f1"}, keys(conflicts))

	res := map[string]Resolution{
		"page:b":       {Take: Ours},
		"page:c:title": {Text: ptr("Agreed title")},
		"file:f1":      {Take: Theirs},
	}
	got, conflicts = Merge(base, cr, main, Options{Resolutions: res})
	require.Empty(t, conflicts)
	requireValid(t, got)
	assert.Equal(t, "a(a1 a2) b(n b1) c", outline(got))
	assert.Equal(t, "Agreed title", find(got, "c").Title)
	assert.Equal(t, "main", got.Files[0].Blob)
	assert.Contains(t, find(got, "a").Markdown, "from the change request")
}

func TestMergeDoesNotModifyInputs(t *testing.T) {
	base := baseTree()
	ours := apply(base, setMarkdown("a", "ours\n"), move("c", "b", 0), putFile(file("f9", "x", "y")))
	theirs := apply(base, setTitle("a", "T"), add("a1", 0, doc("n")), remove("b1"), setReusable("r1", "X", "x\n"))
	snapshots := []*content.Content{canon(base), canon(ours), canon(theirs)}

	got, conflicts := Merge(base, ours, theirs, Options{})
	require.Empty(t, conflicts)
	assert.Equal(t, snapshots, []*content.Content{canon(base), canon(ours), canon(theirs)})

	find(got, "a").Title = "changed after the merge"
	got.Files[0].Name = "changed"
	got.Reusable[0].Title = "changed"
	assert.Equal(t, snapshots, []*content.Content{canon(base), canon(ours), canon(theirs)})
}

func TestMergeNilContents(t *testing.T) {
	ours := tree(doc("a"))
	got, conflicts := Merge(nil, ours, nil, Options{})
	require.Empty(t, conflicts)
	assert.Equal(t, canon(ours), canon(got))

	got, conflicts = Merge(nil, nil, nil, Options{})
	require.Empty(t, conflicts)
	assert.Equal(t, &content.Content{}, got)
}

func TestConflictKey(t *testing.T) {
	assert.Equal(t, "page:p", Conflict{Kind: KindDelete, PageID: "p"}.Key())
	assert.Equal(t, "page:p:markdown", Conflict{Kind: KindText, PageID: "p", Field: "markdown"}.Key())
	assert.Equal(t, "page:p:parent", Conflict{Kind: KindMove, PageID: "p", Field: "parent"}.Key())
	assert.Equal(t, "file:f", Conflict{Kind: KindFile, FileID: "f", Field: "file"}.Key())
	assert.Equal(t, "file:f", Conflict{Kind: KindDelete, FileID: "f"}.Key())
	assert.Equal(t, "reusable:r", Conflict{Kind: KindDelete, ReusableID: "r"}.Key())
	assert.Equal(t, "reusable:r:title", Conflict{Kind: KindField, ReusableID: "r", Field: "title"}.Key())
}

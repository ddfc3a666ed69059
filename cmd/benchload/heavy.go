package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
)

// The heavy mix is what a busy documentation server does besides small
// reads: whole-space GraphQL reads of a space of about 250 pages (answers
// of about 5 MB), zip imports of the same content into other spaces, PDF
// renders of all of it, and searches of it, at once. Its live heap is tens
// of MiB, where the small reads' is a few: the collector's settings meet
// both.

// folderPages is the pages of a folder of the heavy archive: its README.md
// and the rest.
const folderPages = 25

// pageBytes is about the size of a page's markdown.
const pageBytes = 18 << 10

// importTargets is the number of empty spaces the mix imports into, in
// turn, so that an import does not grow one space run after run.
const importTargets = 64

// heavyData is the heavy mix's part of the dataset, in an organization of
// its own so that the other workloads' organizations stay as they are.
type heavyData struct {
	Org string
	// Space holds Pages pages, imported from ZipURL.
	Space string
	Pages int
	// Targets are the empty spaces the mix imports into.
	Targets []string
	ZipURL  string
	// PDF is the path and query of the signed URL of a PDF of a change
	// request holding all of Space.
	PDF string
	// Queries are the searches, in turn: a word found on every page, one
	// on about half of them, one on a few, and a prefix as typed after a
	// word.
	Queries []string
	// turn is the mix's turn over its requests, which the workloads of
	// every variant of Bindery share.
	turn atomic.Uint64
}

// heavyArchive returns a zip archive of markdown for a space of pages
// pages: an introduction, then folders of folderPages pages (251 pages make
// 10 folders), each page about pageBytes of sections, lists and code in
// words drawn from a Zipf-distributed vocabulary; and search queries that
// find them.
func heavyArchive(pages int) ([]byte, []string) {
	g := newTextGen()
	archive := zipFiles(func(add func(name string, data []byte)) {
		add("introduction.md", g.page("Introduction", pageBytes, ""))
		for n, folder := 1, 1; n < pages; folder++ {
			dir := fmt.Sprintf("chapter-%02d/", folder)
			add(dir+"README.md", g.page(fmt.Sprintf("Chapter %d", folder), pageBytes, ""))
			n++
			for i := 1; i < folderPages && n < pages; i++ {
				add(fmt.Sprintf("%spage-%02d.md", dir, i), g.page(fmt.Sprintf("Chapter %d, part %d", folder, i), pageBytes, ""))
				n++
			}
		}
	})
	v := g.vocab
	return archive, []string{v[0], v[400], v[2500], v[3] + " " + v[60][:3]}
}

// textGen writes pages of markdown in words drawn from a Zipf-distributed
// vocabulary, the same for the same sequence of calls.
type textGen struct {
	vocab []string
	zipf  *rand.Zipf
}

func newTextGen() *textGen { return newTextGenDraw(0) }

// newTextGenDraw returns a generator of newTextGen's vocabulary that writes
// other text for each draw above 0, so that spaces of different draws
// share no page.
func newTextGenDraw(draw uint64) *textGen {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := vocabulary(rng, 3000)
	if draw > 0 {
		rng = rand.New(rand.NewPCG(1, 2+draw))
	}
	return &textGen{vocab: vocab, zipf: rand.NewZipf(rng, 1.1, 1, uint64(len(vocab)-1))}
}

func (g *textGen) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.vocab[g.zipf.Uint64()])
	}
	return b.String()
}

// page returns a page of about size bytes: a title, an introduction that
// ends with lead when it is not empty, then sections of paragraphs, a list
// and a code block.
func (g *textGen) page(title string, size int, lead string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s", title, g.words(40))
	if lead != "" {
		b.WriteString(" " + lead)
	}
	b.WriteString(".\n")
	for sec := 1; b.Len() < size; sec++ {
		fmt.Fprintf(&b, "\n## %d. %s\n\n%s.\n\n%s.\n\n", sec, g.words(4), g.words(120), g.words(120))
		for range 4 {
			fmt.Fprintf(&b, "- %s\n", g.words(10))
		}
		fmt.Fprintf(&b, "\n```sh\n%s --%s %s\n```\n", g.vocab[sec%len(g.vocab)], g.words(1), g.words(3))
	}
	return []byte(b.String())
}

// zipFiles returns the zip archive of the files fill adds, in order.
func zipFiles(fill func(add func(name string, data []byte))) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	fill(func(name string, data []byte) {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			panic(err) // writing to memory
		}
	})
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// vocabulary makes n distinct pronounceable words of two to four
// syllables.
func vocabulary(rng *rand.Rand, n int) []string {
	const consonants, vowels = "bdfgklmnprstvz", "aeiou"
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteByte(consonants[rng.IntN(len(consonants))])
			b.WriteByte(vowels[rng.IntN(len(vowels))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// serveArchive serves the archive on a loopback port, for Bindery to
// import from (it runs with BINDERY_IMPORT_ALLOW_PRIVATE).
func serveArchive(archive []byte) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(archive)
	}))
}

const importMutation = `mutation($id: ID!, $url: String!) {
  importContent(input: {spaceId: $id, url: $url, source: ZIP}) { importedResources revision { id } } }`

// heavyReadQuery reads every page of a space with its markdown, three
// levels deep (the archive's folders make two).
const heavyReadQuery = `query($id: ID!) { space(id: $id) { id title revision { id
  pages { ...page pages { ...page pages { ...page } } } } } }
fragment page on RevisionPage { id title path markdown }`

const heavySearchQuery = `query($id: ID!, $query: String!) { space(id: $id) {
  search(query: $query, first: 20) { totalCount nodes { id title path rank sections { id title body } } } } }`

// seedHeavy makes the heavy mix's data through the API: an organization, a
// space filled by importing the archive at zipURL, a change request on it
// for the PDF, and the empty spaces the mix imports into.
func seedHeavy(ctx context.Context, owner *apiClient, pages int, zipURL string, queries []string, concurrency int) (*heavyData, error) {
	h := &heavyData{Pages: pages, ZipURL: zipURL, Queries: queries, Targets: make([]string, importTargets)}
	var err error
	if h.Org, err = createOrganization(ctx, owner, "Bench heavy"); err != nil {
		return nil, err
	}
	err = parallel(ctx, importTargets+1, concurrency, func(ctx context.Context, i int) error {
		var sp struct {
			ID string `json:"id"`
		}
		err := owner.rest(ctx, http.MethodPost, "/v1/orgs/"+h.Org+"/spaces", map[string]any{"title": fmt.Sprintf("Import %d", i)}, &sp)
		if i == importTargets {
			h.Space = sp.ID
		} else {
			h.Targets[i] = sp.ID
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("creating the heavy mix's spaces: %w", err)
	}
	var imported json.RawMessage
	err = owner.graphql(ctx, importMutation, map[string]any{"id": h.Space, "url": zipURL}, &imported)
	if err == nil {
		err = checkImport(imported, pages)
	}
	if err != nil {
		return nil, fmt.Errorf("importing %d pages: %w", pages, err)
	}
	var cr struct {
		ID string `json:"id"`
	}
	if err := owner.rest(ctx, http.MethodPost, "/v1/spaces/"+h.Space+"/change-requests", map[string]any{"subject": "All of it"}, &cr); err != nil {
		return nil, err
	}
	var pdf struct {
		URL string `json:"url"`
	}
	if err := owner.rest(ctx, http.MethodGet, "/v1/spaces/"+h.Space+"/change-requests/"+cr.ID+"/pdf", nil, &pdf); err != nil {
		return nil, err
	}
	u, err := url.Parse(pdf.URL)
	if err != nil {
		return nil, fmt.Errorf("the PDF's URL: %w", err)
	}
	h.PDF = u.RequestURI()
	return h, nil
}

// heavyWorkload is the heavy mix against the server at base: in each
// round of eight requests, three whole-space reads, three searches, a PDF
// render and an import into the next target. The rounds run in turn across
// runs (rotation), so imports go to a fresh space until all have one.
func heavyWorkload(base, token string, h *heavyData) workload {
	gql := base + "/graphql"
	read := graphqlPost(gql, heavyReadQuery, map[string]any{"id": h.Space})
	read.kind = "space read"
	pdf := request{method: http.MethodGet, url: base + h.PDF, kind: "PDF"}
	var rs []request
	for i, target := range h.Targets {
		search := func(k int) request {
			r := graphqlPost(gql, heavySearchQuery, map[string]any{"id": h.Space, "query": h.Queries[(3*i+k)%len(h.Queries)]})
			r.kind = "search"
			return r
		}
		imp := graphqlPost(gql, importMutation, map[string]any{"id": target, "url": h.ZipURL})
		imp.kind = "import"
		rs = append(rs, read, search(0), read, search(1), read, pdf, search(2), imp)
	}
	return workload{key: "heavy", target: "Bindery", token: token, requests: rs, rotation: &h.turn,
		name: fmt.Sprintf("heavy mix: GraphQL reads of a %d-page space, searches, PDF renders, zip imports", h.Pages),
		checks: map[string]func([]byte) error{
			"space read": checkGraphQL(func(b []byte) error { return checkHeavyRead(b, h.Pages) }),
			"search":     checkGraphQL(checkSearch),
			"PDF":        checkPDF,
			"import":     checkGraphQL(func(b []byte) error { return checkImport(b, h.Pages) }),
		}}
}

// checkHeavyRead checks that a whole-space read has every page, each with
// its markdown.
func checkHeavyRead(data []byte, pages int) error {
	type page struct {
		Markdown string  `json:"markdown"`
		Pages    []*page `json:"pages"`
	}
	var d struct {
		Space *struct {
			Revision struct {
				Pages []*page `json:"pages"`
			} `json:"revision"`
		} `json:"space"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	if d.Space == nil {
		return fmt.Errorf("no space in %s", snippet(data))
	}
	n := 0
	var walk func([]*page) error
	walk = func(ps []*page) error {
		for _, p := range ps {
			if len(p.Markdown) < pageBytes/2 {
				return fmt.Errorf("a page has %d bytes of markdown", len(p.Markdown))
			}
			n++
			if err := walk(p.Pages); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(d.Space.Revision.Pages); err != nil {
		return err
	}
	if n != pages {
		return fmt.Errorf("%d pages read, want %d", n, pages)
	}
	return nil
}

func checkSearch(data []byte) error {
	var d struct {
		Space *struct {
			Search struct {
				TotalCount int `json:"totalCount"`
			} `json:"search"`
		} `json:"space"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	if d.Space == nil || d.Space.Search.TotalCount == 0 {
		return fmt.Errorf("the search found nothing: %s", snippet(data))
	}
	return nil
}

func checkPDF(b []byte) error {
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		return fmt.Errorf("not a PDF: %s", snippet(b))
	}
	return nil
}

func checkImport(data []byte, pages int) error {
	var d struct {
		ImportContent struct {
			ImportedResources int `json:"importedResources"`
		} `json:"importContent"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	if got := d.ImportContent.ImportedResources; got != pages {
		return fmt.Errorf("%d resources imported, want %d", got, pages)
	}
	return nil
}

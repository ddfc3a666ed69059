package gitbook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/document"
	"github.com/bindery/bindery/internal/enum"
)

// TestRoundTrip is the package's promise: a space exported then imported
// gives back the same pages and documents. Without prev the pages are new
// (new IDs, files mapped by name); with prev they are the same pages,
// unchanged.
func TestRoundTrip(t *testing.T) {
	for seed := range uint64(100) {
		for _, withPrev := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed%d/prev=%v", seed, withPrev), func(t *testing.T) {
				g := &gen{r: rand.New(rand.NewPCG(seed, 7)), blobs: map[string][]byte{}}
				c := g.content()
				files, err := Export(c, blobs(g.blobs))
				require.NoError(t, err)
				var prev *content.Content
				if withPrev {
					prev = c
				}
				res, err := Import(files, prev, ids(), testNow)
				require.NoError(t, err)
				require.Empty(t, res.Warnings)
				checkRoundTrip(t, c, res, withPrev, files)
			})
		}
	}
}

func checkRoundTrip(t *testing.T, c *content.Content, res *Result, withPrev bool, files map[string][]byte) {
	t.Helper()
	// Imported files, with the originals' IDs, to compare documents.
	origByName := map[string]*content.File{}
	for _, f := range c.Files {
		origByName[f.Name] = f
	}
	require.Len(t, res.Files, len(c.Files))
	got := &content.Content{Pages: res.Pages}
	for _, a := range res.Files {
		o := origByName[a.File.Name]
		require.NotNil(t, o, a.File.Name)
		require.Equal(t, g2blob(o), a.Data, a.File.Name)
		require.Equal(t, int64(len(a.Data)), a.File.Size)
		if withPrev {
			require.Equal(t, o.ID, a.File.ID)
		}
		f := a.File
		f.ID = o.ID
		got.Files = append(got.Files, &f)
	}
	// Pages by tree position, to follow links to pages.
	var imported []string
	got.Walk(func(n, _ *content.Node, _ string) { imported = append(imported, n.Page.ID) })
	idOf, i := map[string]string{}, 0
	c.Walk(func(n, _ *content.Node, _ string) {
		if i < len(imported) {
			idOf[n.Page.ID] = imported[i]
		}
		i++
	})

	var compare func(want, have []*content.Node, top bool)
	compare = func(want, have []*content.Node, top bool) {
		require.Len(t, have, len(want))
		for i, w := range want {
			wp, hp := w.Page, have[i].Page
			msg := fmt.Sprintf("page %q\n%s", wp.Title, dump(files))
			require.Equal(t, wp.Type, hp.Type, msg)
			require.Equal(t, wp.Title, hp.Title, msg)
			if withPrev || !(top && i == 0 && wp.Type == enum.PageTypeDocument) {
				require.Equal(t, wp.Slug, hp.Slug, msg)
			}
			if wp.Type == enum.PageTypeDocument {
				require.Equal(t, wp.Description, hp.Description, msg)
				require.Equal(t, wp.Icon, hp.Icon, msg)
				require.Equal(t, wp.Emoji, hp.Emoji, msg)
				require.Equal(t, wp.Hidden, hp.Hidden, msg)
				require.Equal(t, wp.Markdown, hp.Markdown, msg)
				wd, err := document.FromPage(c, wp)
				require.NoError(t, err)
				hd, err := document.FromPage(got, hp)
				require.NoError(t, err)
				require.JSONEq(t, jsonOf(t, wd), jsonOf(t, hd), msg)
			}
			if wp.Target != nil {
				require.NotNil(t, hp.Target, msg)
				require.Equal(t, wp.Target.Kind, hp.Target.Kind, msg)
				require.Equal(t, wp.Target.URL, hp.Target.URL, msg)
				if wp.Target.Kind == "page" {
					require.Equal(t, idOf[wp.Target.Page], hp.Target.Page, msg)
				}
			}
			if withPrev {
				require.Equal(t, wp, hp, msg)
			} else {
				require.Equal(t, testNow, hp.CreatedAt)
			}
			compare(w.Children, have[i].Children, false)
		}
	}
	require.Equal(t, shape(c.Pages), shape(res.Pages))
	compare(c.Pages, res.Pages, true)
}

// shape is a tree's types and titles, without slugs.
func shape(nodes []*content.Node) []string {
	var out []string
	for _, line := range tree(nodes) {
		out = append(out, line[:strings.LastIndex(line, " [")])
	}
	return out
}

func g2blob(f *content.File) []byte { return genBlobs[f.Blob] }

// genBlobs holds the bytes of generated files by hash; hashes name their
// bytes, so sharing them between runs is safe.
var genBlobs = map[string][]byte{}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// dump shows the exported files of a failing case.
func dump(files map[string][]byte) string {
	var b strings.Builder
	for _, p := range sortedKeys(files) {
		if !strings.HasPrefix(p, assetDir) {
			fmt.Fprintf(&b, "=== %s\n%s\n", p, files[p])
		}
	}
	return b.String()
}

// gen makes random contents.
type gen struct {
	r     *rand.Rand
	n     int
	blobs map[string][]byte
	files []*content.File
	docs  []*content.Page
	links []*content.Page
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) id(prefix string) string {
	g.n++
	return fmt.Sprintf("%s_%d", prefix, g.n)
}

func (g *gen) content() *content.Content {
	c := &content.Content{}
	for i := range g.r.IntN(4) {
		name := g.pick("diagram", "my shot", "logo", "data") + fmt.Sprint(i) + g.pick(".png", ".png", ".json", ".txt")
		data := []byte(fmt.Sprintf("bytes of %s", name))
		if strings.HasSuffix(name, ".png") {
			data = pngOf(1+g.r.IntN(9), 1+g.r.IntN(9))
		}
		hash := fmt.Sprintf("h%x", data)
		g.blobs[hash], genBlobs[hash] = data, data
		f := &content.File{ID: g.id("fil"), Name: name, Blob: hash, Size: int64(len(data))}
		g.files = append(g.files, f)
	}
	c.Files = g.files
	n := 1 + g.r.IntN(5)
	for i := range n {
		var node *content.Node
		switch k := g.r.IntN(10); {
		case i == 0 && k < 8, i > 0 && k < 5:
			node = g.doc(1)
		case k < 8:
			node = g.group()
		default:
			node = g.link()
		}
		node.Page.Slug = content.UniqueSlug(c.Pages, node.Page.Slug, "")
		c.Pages = append(c.Pages, node)
	}
	// Links to pages point at documents, which have files.
	for _, l := range g.links {
		if l.Target.Kind == "page" {
			if len(g.docs) == 0 {
				l.Target = &content.Ref{Kind: "url", URL: "https://example.com"}
				continue
			}
			l.Target.Page = g.docs[g.r.IntN(len(g.docs))].ID
		}
	}
	return c
}

func (g *gen) page(typ enum.PageType) *content.Page {
	title := g.title()
	slug := content.Slugify(title)
	if typ == enum.PageTypeDocument && g.r.IntN(3) == 0 {
		slug = g.pick("v1.2", "under_score", "tilde~x", "ünï", "x") + fmt.Sprint(g.r.IntN(3))
	}
	return &content.Page{ID: g.id("pg"), Type: typ, Title: title, Slug: slug, CreatedAt: prevTime, UpdatedAt: prevTime}
}

func (g *gen) title() string {
	words := []string{"Getting", "started", "API", "Install", "C#", "Über", "Größe", "*stars*", "[draft]",
		`back\slash`, "a: b", "100%", "it's", `"quoted"`, "x_y", "<tag>", "&amp;", "`code`", "#hash"}
	n := 1 + g.r.IntN(3)
	var parts []string
	for range n {
		parts = append(parts, words[g.r.IntN(len(words))])
	}
	if g.r.IntN(8) == 0 {
		parts = append(parts, g.pick("#", "##", `\`))
	}
	return strings.Join(parts, " ")
}

func (g *gen) doc(depth int) *content.Node {
	p := g.page(enum.PageTypeDocument)
	if g.r.IntN(2) == 0 {
		p.Description = g.pick("Short text", "Note: this # is not a comment", "'single' and \"double\"", "yes",
			"123", "- dash", "two\nlines", " leading space", "tab\there", "trailing: ")
	}
	if g.r.IntN(3) == 0 {
		p.Icon = g.pick("rocket", "book-open")
	}
	if g.r.IntN(3) == 0 {
		p.Emoji = g.pick("🚀", "1f680")
	}
	p.Hidden = g.r.IntN(4) == 0
	p.Markdown = g.markdown()
	g.docs = append(g.docs, p)
	n := &content.Node{Page: p}
	if depth < 3 && g.r.IntN(3) == 0 {
		n.Children = g.children(depth + 1)
	}
	return n
}

func (g *gen) group() *content.Node {
	n := &content.Node{Page: g.page(enum.PageTypeGroup)}
	if g.r.IntN(5) > 0 {
		n.Children = g.children(2)
	}
	return n
}

func (g *gen) link() *content.Node {
	p := g.page(enum.PageTypeLink)
	if g.r.IntN(2) == 0 {
		p.Target = &content.Ref{Kind: "page"}
	} else {
		p.Target = &content.Ref{Kind: "url", URL: g.pick("https://example.com/a?b=1&c=2", "mailto:a@example.com",
			"https://example.com/a b", "https://example.com/(x)", "https://example.com/#frag")}
	}
	g.links = append(g.links, p)
	return &content.Node{Page: p}
}

func (g *gen) children(depth int) []*content.Node {
	var out []*content.Node
	for range 1 + g.r.IntN(3) {
		var n *content.Node
		if g.r.IntN(4) == 0 {
			n = g.link()
		} else {
			n = g.doc(depth)
		}
		n.Page.Slug = content.UniqueSlug(out, n.Page.Slug, "")
		out = append(out, n)
	}
	return out
}

// markdown is a body made of every kind of block the document model reads.
func (g *gen) markdown() string {
	if g.r.IntN(6) == 0 {
		return ""
	}
	var blocks []string
	if g.r.IntN(4) == 0 {
		blocks = append(blocks, "# A heading right after the title")
	}
	for range 1 + g.r.IntN(6) {
		blocks = append(blocks, g.block())
	}
	return strings.Join(blocks, "\n\n")
}

func (g *gen) asset() string {
	if len(g.files) == 0 {
		return "https://example.com/x.png"
	}
	return document.AssetPath(g.files[g.r.IntN(len(g.files))].Name)
}

func (g *gen) dest() string {
	d := g.asset()
	if strings.Contains(d, " ") {
		return "<" + d + ">"
	}
	return d
}

func (g *gen) block() string {
	switch g.r.IntN(14) {
	case 0:
		return "Some **bold**, *italic*, `code`, ~~gone~~ and [a link](https://example.com/a) to [a file](" + g.dest() + ")."
	case 1:
		return g.pick("# Heading one", "## Heading two", "### Heading three")
	case 2:
		return "- one\n- two\n  - nested"
	case 3:
		return "1. first\n2. second"
	case 4:
		return "- [ ] to do\n- [x] done"
	case 5:
		return "> A quote\n> with two lines"
	case 6:
		return "```python\n# not a title\nprint(1)\n```"
	case 7:
		return "| a | b |\n| --- | --- |\n| 1 | 2 |"
	case 8:
		return "![An image](" + g.dest() + ` "its title")`
	case 9:
		return "---"
	case 10:
		return "<div>\n<img src=\"" + g.asset() + "\" alt=\"x\">\n</div>"
	case 11:
		return "Inline <img src='" + g.asset() + "'> in text"
	case 12:
		return "{% hint style=\"info\" %}\nA **hint** with ![an image](" + g.dest() + ")\n{% endhint %}"
	default:
		return "~~~\n![not rewritten](.gitbook/assets/code.png)\n~~~"
	}
}

func pngOf(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.Black)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

package e2e

import (
	"bytes"
	"context"
	"image"
	"image/color"
	pngenc "image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/visitor"
	"github.com/bindery/bindery/server/servertest"
)

// TestReaderInBrowser reads published sites in headless Chromium as their
// visitors do (see reader.mjs): a public site by its sidebar, section tabs,
// group menu, site-space switcher, search and 404 pages, also at 360 px
// wide; a share-link site by its link; a visitor-auth site with adaptive
// content by the visitor tokens of two plans. axe-core checks the pages in
// light and dark, and no page has a script error or breaks its content
// security policy. On failure, screenshots are kept in a directory the log
// names.
func TestReaderInBrowser(t *testing.T) {
	dir := prepare(t)
	bin := chromium(t, dir)
	// The sign-in page of the visitor-auth site, on another origin.
	login := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><html lang=en><title>Sign in</title><h1>Sign in to Acme</h1>"))
	}))
	t.Cleanup(login.Close)
	e := servertest.New(t)
	r := newReaderSites(t, e, login.URL+"/login")
	shots := screenshotDir(t)

	runNode(t, dir, "reader.mjs",
		"BINDERY_URL="+e.HTTP.URL,
		"READER_PUBLIC="+e.HTTP.URL+"/sites/"+r.public.ID+"/",
		"READER_SHARED="+e.HTTP.URL+"/sites/"+r.shared.ID+"/",
		"READER_SHARE_KEY="+r.shareKey,
		"READER_MEMBERS="+e.HTTP.URL+"/sites/"+r.members.ID+"/",
		"READER_LOGIN="+login.URL+"/login",
		"READER_TOKEN_PRO="+r.token(t, "pro"),
		"READER_TOKEN_FREE="+r.token(t, "free"),
		"SCREENSHOTS="+shots,
		"CHROMIUM="+bin,
	)
}

// screenshotDir is where reader.mjs keeps its screenshots of a failed step:
// kept and named in the log when the test fails, removed when it passes.
func screenshotDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "bindery-reader-screenshots-")
	require.NoError(t, err)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screenshots of the failure, if any, are in %s", d)
			return
		}
		_ = os.RemoveAll(d)
	})
	return d
}

// readerSites are the sites TestReaderInBrowser reads, in one organization:
//
//   - public: "Acme Docs", public, with adaptive content. Sections: Guides
//     (default; site-spaces Guide, the default, and Guide v1 at v1), the
//     group Reference (API reference at api, CLI reference at cli), and Pro
//     features at pro, whose condition (plan "pro") no anonymous visitor
//     meets. Guide holds Welcome, Install with Linux under it, the group
//     Advanced with Tuning, and Every block, a page of every block the
//     markdown makes, with an uploaded image.
//   - shared: "Partner Docs", share-link, one site-space (Guide), and an
//     active share link.
//   - members: "Member Docs", visitor-auth with adaptive content, whose
//     visitors without a token go to signIn: the sections Docs (default,
//     Guide) and Enterprise at enterprise, shown to visitors whose token
//     claims the plan "pro".
type readerSites struct {
	e                       *servertest.Env
	public, shared, members *ent.Site
	shareKey                string
}

func newReaderSites(t *testing.T, e *servertest.Env, signIn string) *readerSites {
	t.Helper()
	ctx := context.Background()
	c := e.Client
	r := &readerSites{e: e}

	guide, old, api, cli, pro, enterprise := r.space("Guide"), r.space("Guide v1"), r.space("API"), r.space("CLI"),
		r.space("Pro"), r.space("Enterprise")
	r.upload(guide, "diagram.png", diagramPNG(t))
	r.page(guide, "", map[string]any{"title": "Welcome", "emoji": "👋", "description": "Start here",
		"markdown": "Welcome to the **guide**.\n\n## First steps\n\nRead [the install page](install.md).\n\n```go\nfmt.Println(\"hi\")\n```\n"})
	install := r.page(guide, "", map[string]any{"title": "Install", "markdown": "Install it.\n\n## Requirements\n\nA computer.\n"})
	r.page(guide, install, map[string]any{"title": "Linux", "markdown": "## Setup\n\nOn Linux, run the installer.\n"})
	advanced := r.page(guide, "", map[string]any{"title": "Advanced", "type": "GROUP"})
	r.page(guide, advanced, map[string]any{"title": "Tuning", "markdown": "Tune the quokka cache.\n"})
	r.page(guide, "", map[string]any{"title": "Every block", "markdown": everyBlock})
	r.page(old, "", map[string]any{"title": "Old welcome", "markdown": "The first version.\n"})
	r.page(api, "", map[string]any{"title": "Overview", "markdown": "The API answers quokka questions.\n"})
	r.page(cli, "", map[string]any{"title": "Commands", "markdown": "The CLI has a serve command.\n"})
	r.page(pro, "", map[string]any{"title": "Pro overview", "markdown": "Only for pro readers.\n"})
	r.page(enterprise, "", map[string]any{"title": "Single sign-on", "markdown": "Enterprise readers sign on once.\n"})

	isPro := `visitor.claims.plan == "pro"`
	r.public = c.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Acme Docs").SetVisibility(enum.SiteVisibilityPublic).
		SetPublished(true).SetAdaptiveContent(true).SaveX(ctx)
	guides := c.SiteSection.Create().SetSiteID(r.public.ID).SetTitle("Guides").SetPath("guides").SetIsDefault(true).SaveX(ctx)
	reference := c.SiteSectionGroup.Create().SetSiteID(r.public.ID).SetTitle("Reference").SetPosition(1).SaveX(ctx)
	apiSec := c.SiteSection.Create().SetSiteID(r.public.ID).SetTitle("API reference").SetPath("api").
		SetGroupID(reference.ID).SetPosition(0).SaveX(ctx)
	cliSec := c.SiteSection.Create().SetSiteID(r.public.ID).SetTitle("CLI reference").SetPath("cli").
		SetGroupID(reference.ID).SetPosition(1).SaveX(ctx)
	proSec := c.SiteSection.Create().SetSiteID(r.public.ID).SetTitle("Pro features").SetPath("pro").SetPosition(2).
		SetCondition(isPro).SaveX(ctx)
	r.siteSpace(r.public, guides, guide, "v2", 0)
	r.siteSpace(r.public, guides, old, "v1", 1)
	r.siteSpace(r.public, apiSec, api, "api", 0)
	r.siteSpace(r.public, cliSec, cli, "cli", 0)
	r.siteSpace(r.public, proSec, pro, "pro", 0)

	r.shared = c.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Partner Docs").
		SetVisibility(enum.SiteVisibilityShareLink).SetPublished(true).SaveX(ctx)
	r.siteSpace(r.shared, nil, guide, "guide", 0)
	r.shareKey = "partner-key-0123456789abcdefghij"
	c.ShareLink.Create().SetSiteID(r.shared.ID).SetKey(r.shareKey).SetName("Partners").ExecX(ctx)

	r.members = c.Site.Create().SetOrganizationID(e.Org.ID).SetTitle("Member Docs").
		SetVisibility(enum.SiteVisibilityVisitorAuth).SetPublished(true).SetAdaptiveContent(true).
		SetVisitorAuthPrivateKey(visitor.NewKey()).SetVisitorAuthFallbackURL(signIn).SaveX(ctx)
	docs := c.SiteSection.Create().SetSiteID(r.members.ID).SetTitle("Docs").SetPath("docs").SetIsDefault(true).SaveX(ctx)
	entSec := c.SiteSection.Create().SetSiteID(r.members.ID).SetTitle("Enterprise").SetPath("enterprise").SetPosition(1).
		SetCondition(isPro).SaveX(ctx)
	r.siteSpace(r.members, docs, guide, "guide", 0)
	r.siteSpace(r.members, entSec, enterprise, "enterprise", 0)
	return r
}

// everyBlock is markdown of every block and mark the markdown importer
// makes: headings of three levels, marks, links, the three kinds of list
// and nested lists, a quote, a divider, code in two languages, a table and
// an image of an uploaded file.
const everyBlock = "# Heading one\n\n" +
	"Text in **bold**, *italic*, ~~strikethrough~~ and `code`, with [a link to a page](install.md) " +
	"and [a link elsewhere](https://example.com/).\n\n" +
	"## Heading two\n\n" +
	"### Heading three\n\n" +
	"- An item\n- An item with a list under it:\n  - A nested item\n  - Another nested item\n\n" +
	"1. First\n2. Second\n   1. Second's first\n\n" +
	"- [x] A done task\n- [ ] An open task\n\n" +
	"> A quote with **bold** in it.\n\n" +
	"---\n\n" +
	"```go\npackage main\n\nfunc main() { println(\"hi\") }\n```\n\n" +
	"```python\ndef main():\n    print(\"hi\")\n```\n\n" +
	"| Name | Value |\n|---|---:|\n| alpha | 1 |\n| beta | 2 |\n\n" +
	"![A diagram of the setup](.gitbook/assets/diagram.png)\n"

// space creates a live space through /v1.
func (r *readerSites) space(title string) string {
	r.e.T.Helper()
	id := r.e.MustDo(http.MethodPost, "/v1/orgs/"+r.e.Org.ID+"/spaces", r.e.OwnerToken,
		map[string]any{"title": title}, http.StatusCreated)["id"].(string)
	r.e.Client.Space.UpdateOneID(id).SetEditMode(enum.EditModeLive).ExecX(context.Background())
	return id
}

// page creates a page of a space through GraphQL, under parent when it is
// not "", and returns its ID.
func (r *readerSites) page(space, parent string, in map[string]any) string {
	r.e.T.Helper()
	in["spaceId"] = space
	if parent != "" {
		in["parentPageId"] = parent
	}
	var out struct {
		CreatePage struct{ Page struct{ ID string } }
	}
	r.e.GraphQL(r.e.OwnerToken, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`,
		map[string]any{"in": in}).Into(r.e.T, &out)
	return out.CreatePage.Page.ID
}

// upload adds a file to a space's content through GraphQL.
func (r *readerSites) upload(space, name string, data []byte) {
	r.e.T.Helper()
	var out any
	r.e.Upload(r.e.OwnerToken, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
		map[string]any{"in": map[string]any{"spaceId": space, "file": nil}}, "in.file", name, "image/png", data).
		Into(r.e.T, &out)
}

// siteSpace publishes a space in a section of a site (nil: a site without
// sections); the first of a section is its default.
func (r *readerSites) siteSpace(s *ent.Site, sec *ent.SiteSection, space, path string, position int) {
	b := r.e.Client.SiteSpace.Create().SetSiteID(s.ID).SetSpaceID(space).SetPath(path).SetPosition(float64(position)).
		SetIsDefault(position == 0)
	if sec != nil {
		b.SetSectionID(sec.ID)
	}
	b.SaveX(context.Background())
}

// token is a visitor token of the members site that claims a plan, valid
// for an hour.
func (r *readerSites) token(t *testing.T, plan string) string {
	t.Helper()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"plan": plan, "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte(*r.members.VisitorAuthPrivateKey))
	require.NoError(t, err)
	return tok
}

// diagramPNG is a small two-colour PNG image.
func diagramPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	for x := range 64 {
		for y := range 32 {
			c := color.RGBA{R: 11, G: 92, B: 196, A: 255}
			if x < 32 {
				c = color.RGBA{R: 245, G: 247, B: 249, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	require.NoError(t, pngenc.Encode(&b, img))
	return b.Bytes()
}

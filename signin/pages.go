package signin

import (
	"embed"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/bindery/bindery/ui"
)

//go:embed templates/*.html
var templateFiles embed.FS

// pages renders sign-in's pages, each the layout around its own main.
type pages struct {
	byName           map[string]*template.Template
	stylesheet, icon string
	log              *slog.Logger
}

func parsePages(stylesheet, icon string, log *slog.Logger) (*pages, error) {
	p := &pages{byName: map[string]*template.Template{}, stylesheet: stylesheet, icon: icon, log: log}
	for _, name := range []string{"sign-in", "check-email", "confirm", "sign-out"} {
		t, err := ui.Parse(nil, templateFiles, "templates/frame.html", "templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		p.byName[name] = t
	}
	return p, nil
}

// view is what every page shows; the fields of one page's own are zero on
// the others.
type view struct {
	Title, Message   string
	Stylesheet, Icon string
	ReturnTo         string
	Email            string
	Providers        []providerLink
	Token            string
	SignedIn         bool
}

// providerLink is a button that starts a sign-in with an OpenID Connect
// provider.
type providerLink struct{ Name, URL string }

// render writes the page called name.
func (p *pages) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	v.Stylesheet, v.Icon = p.stylesheet, p.icon
	if err := ui.Render(w, r, status, p.byName[name], v); err != nil {
		p.log.ErrorContext(r.Context(), "rendering a sign-in page", "page", name, "error", err)
		http.Error(w, "Internal server error", http.StatusInternalServerError)
	}
}

func (p *pages) signIn(w http.ResponseWriter, r *http.Request, status int, v view) {
	p.render(w, r, status, "sign-in", v)
}

// signInView is the sign-in page for a request, with a message.
func (h *Handler) signInView(r *http.Request, returnTo, message string) view {
	if q := r.URL.Query().Get("return_to"); q != "" {
		returnTo = q
	}
	returnTo = ReturnTo(returnTo)
	v := view{Title: "Sign in", Message: message, ReturnTo: returnTo, Email: r.FormValue("email")}
	for _, p := range h.oidc.list() {
		v.Providers = append(v.Providers, providerLink{Name: p.Name, URL: "/auth/oidc/" + p.Slug() + "?return_to=" + url.QueryEscape(returnTo)})
	}
	return v
}

// signInPage shows the ways to sign in.
func (h *Handler) signInPage(w http.ResponseWriter, r *http.Request) {
	h.pages.signIn(w, r, http.StatusOK, h.signInView(r, "/", ""))
}

package signin

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
	"github.com/bindery/bindery/internal/mail"
)

// emailRequest is what asks for an email link: the sign-in page's form,
// or JSON {"email", "returnTo"} from a script.
type emailRequest struct {
	Email    string `json:"email"`
	ReturnTo string `json:"returnTo"`
}

// sendLink sends an email link to an address that may sign in, and gives
// every address the same answer (see graph.Resolver.SendSignInLink). A
// client or an address that asked too often gets 429, whoever it is.
func (h *Handler) sendLink(w http.ResponseWriter, r *http.Request) {
	asJSON := isJSON(r)
	var in emailRequest
	if asJSON {
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10))
		if err := dec.Decode(&in); err != nil {
			h.answer(w, r, true, apperr.Invalid("", "The body must be JSON: {\"email\": \"...\"}"), in)
			return
		}
	} else {
		r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
		in = emailRequest{Email: r.PostFormValue("email"), ReturnTo: r.PostFormValue("return_to")}
	}
	in.Email, in.ReturnTo = strings.TrimSpace(in.Email), ReturnTo(in.ReturnTo)
	if !h.allow(h.opt.AllowClient, clientIP(r)) || !h.allow(h.opt.AllowAddress, strings.ToLower(in.Email)) {
		h.answer(w, r, asJSON, apperr.RateLimitedf("Too many sign-in links were asked for: wait a few minutes and try again"), in)
		return
	}
	err := h.res.SendSignInLink(r.Context(), in.Email, in.ReturnTo, h.linkMessage)
	h.answer(w, r, asJSON, err, in)
}

func (h *Handler) allow(f func(string) bool, key string) bool { return f == nil || f(key) }

// clientIP is the address a request came from; behind a proxy, the
// proxy's.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func isJSON(r *http.Request) bool {
	t, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return t == "application/json"
}

// answer is the response to a request for a link: the page that says to
// look in one's inbox, or 202 for JSON; or the refusal.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, asJSON bool, err error, in emailRequest) {
	status := http.StatusAccepted
	msg := "If the address can sign in to Bindery, a sign-in link is on its way to it."
	if err != nil {
		status, msg = h.refusal(r, err)
	}
	if asJSON {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if err != nil {
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status, "message": msg}})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"message": msg})
		return
	}
	if err != nil {
		v := h.signInView(r, in.ReturnTo, msg)
		v.Email = in.Email
		h.pages.signIn(w, r, status, v)
		return
	}
	h.pages.render(w, r, http.StatusOK, "check-email", view{Title: "Check your email", Email: in.Email,
		ReturnTo: in.ReturnTo})
}

// linkMessage is the email that carries a link's secret. The secret is in
// the query, which the access log leaves out.
func (h *Handler) linkMessage(secret string) mail.Message {
	link := h.cfg.PublicURL + "/auth/email/confirm?token=" + url.QueryEscape(secret)
	return mail.Message{Subject: "Your Bindery sign-in link", Body: "Open this link to sign in to Bindery:\n\n" + link +
		"\n\nIt works once, within 15 minutes. If you did not ask to sign in, ignore this email: nothing happens until the link is opened."}
}

// confirmPage is where a link leads: a button that signs in. Opening the
// link signs nobody in, so a mail scanner that fetches every link in a
// message does not use it up.
func (h *Handler) confirmPage(w http.ResponseWriter, r *http.Request) {
	h.pages.render(w, r, http.StatusOK, "confirm", view{Title: "Sign in to Bindery", Token: r.URL.Query().Get("token")})
}

// confirmLink uses a link: once, within its lifetime.
func (h *Handler) confirmLink(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	f, err := h.res.FinishFlow(r.Context(), r.PostFormValue("token"), enum.SignInKindEmail)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.finish(w, r, graph.Person{Method: enum.SignInKindEmail, Email: f.Email}, f.ReturnTo)
}

// signOutPage offers to sign out: a GET changes nothing.
func (h *Handler) signOutPage(w http.ResponseWriter, r *http.Request) {
	h.pages.render(w, r, http.StatusOK, "sign-out", view{Title: "Sign out", SignedIn: SessionSecret(r, h.secure) != ""})
}

// signOut ends the browser's session, on every server at once, and
// forgets its cookie.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	if err := h.res.EndSession(r.Context(), SessionSecret(r, h.secure)); err != nil {
		h.fail(w, r, err)
		return
	}
	h.setCookie(w, SessionCookie(h.secure), "", time.Time{})
	http.Redirect(w, r, "/auth/sign-out", http.StatusSeeOther)
}

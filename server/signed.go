package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/filehttp"
	"github.com/bindery/bindery/internal/signedurl"
)

// verify checks a signed URL. An expired signature is 410 Gone; a missing or
// wrong one is 403.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) bool {
	err := s.resolver.Signer().Verify(r.URL.EscapedPath(), r.URL.Query(), s.resolver.Now())
	switch {
	case err == nil:
		return true
	case errors.Is(err, signedurl.ErrExpired):
		s.writeSignedError(w, r, http.StatusGone, "This link has expired; ask the API for a new one")
	default:
		s.writeSignedError(w, r, http.StatusForbidden, "This link is not valid")
	}
	return false
}

func (s *Server) writeSignedError(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	body.Error.Code, body.Error.Message = status, msg
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// failSigned answers a signed URL whose content could not be served.
func (s *Server) failSigned(w http.ResponseWriter, r *http.Request, err error) {
	if graph.IsGone(err) {
		s.writeSignedError(w, r, http.StatusNotFound, "The content no longer exists")
		return
	}
	s.writeError(w, r, apperr.From(err))
}

// serveFile serves a file of a revision through its signed URL.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	if !s.verify(w, r) {
		return
	}
	data, err := s.resolver.FileBlob(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "blob"))
	if err != nil {
		s.failSigned(w, r, err)
		return
	}
	// The blob is immutable; the URL expires within the hour anyway.
	filehttp.Write(w, chi.URLParam(r, "name"), r.URL.Query().Get("type"), data, "private, max-age=3600, immutable")
}

// servePDF renders a change request's content as a PDF through its signed
// URL.
func (s *Server) servePDF(w http.ResponseWriter, r *http.Request) {
	if !s.verify(w, r) {
		return
	}
	q := r.URL.Query()
	data, err := s.resolver.RenderPDF(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"),
		q.Get("page"), strings.EqualFold(q.Get("only"), "true"))
	if err != nil {
		s.failSigned(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="content.pdf"`)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

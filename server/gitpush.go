package server

import (
	"errors"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/internal/apperr"
)

// maxPushEvent bounds a push event's body: GitHub's are at most 25 MB, for
// thousands of commits; Bindery reads none of it but its signature, so a
// larger one is refused rather than held in memory.
const maxPushEvent = 25 << 20

// gitPushEvent takes a Git host's push event for a space connected to Git
// (POST /git/push/{gitSyncId}). It carries its own authorization, the
// connection's key, which graph.Resolver.GitPushEvent checks; a worker then
// reads the branch at once instead of at its next poll.
func (s *Server) gitPushEvent(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPushEvent))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			err = apperr.TooLargef("A push event is at most %d MiB", maxPushEvent>>20)
		} else {
			err = apperr.Invalid("body", "The push event could not be read")
		}
		s.writeError(w, r, err)
		return
	}
	if err := s.resolver.GitPushEvent(r.Context(), chi.URLParam(r, "gitSyncId"), r.Header, body); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

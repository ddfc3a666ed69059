package signin

import "net/http"

func (h *Handler) samlMetadata(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
func (h *Handler) samlStart(w http.ResponseWriter, r *http.Request)    { http.NotFound(w, r) }
func (h *Handler) samlACS(w http.ResponseWriter, r *http.Request)      { http.NotFound(w, r) }

// Package filehttp states how Bindery answers with the bytes of a file a
// user uploaded, wherever it serves one (signed URLs, published sites): an
// uploaded HTML or SVG file must never run as a page of Bindery's origin.
package filehttp

import (
	"mime"
	"net/http"
	"strconv"
)

// inlineTypes are shown in the browser; anything else is an attachment.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"application/pdf": true, "text/plain": true,
}

// Write answers data as the file name of type contentType, kept by caches
// as cacheControl says.
func Write(w http.ResponseWriter, name, contentType string, data []byte, cacheControl string) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		contentType, mt = "application/octet-stream", "application/octet-stream"
	}
	disposition := "attachment"
	if inlineTypes[mt] {
		disposition = "inline"
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": name}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Cache-Control", cacheControl)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

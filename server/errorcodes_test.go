package server_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/apperr"
)

// The API reference's section on errors (docs/api/errors.md) lists every
// extensions.code the server can produce, and nothing else: each kind of application error, the codes the
// server package writes itself (the document limits, introspection), and
// gqlgen's codes for a document that does not parse or validate.
func TestErrorsDocListsEveryErrorCode(t *testing.T) {
	codes := map[string]bool{errcode.ParseFailed: true, errcode.ValidationFailed: true}
	for _, k := range apperr.Kinds() {
		codes[k.Code()] = true
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	literal := regexp.MustCompile(`"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			codes[m[1]] = true
		}
	}
	doc, err := os.ReadFile("../docs/api/errors.md")
	require.NoError(t, err)
	section := string(doc)
	start := strings.Index(section, "\n## Errors\n")
	require.Positive(t, start)
	section = section[start+1:]
	section = section[:strings.Index(section, "\n## ")]
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)`").FindAllStringSubmatch(section, -1) {
		if !strings.HasPrefix(m[1], "BINDERY_") { // settings, not codes
			listed[m[1]] = true
		}
	}
	var missing, extra []string
	for c := range codes {
		if !listed[c] {
			missing = append(missing, c)
		}
	}
	for c := range listed {
		if !codes[c] {
			extra = append(extra, c)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	assert.Empty(t, missing, "codes the server produces that docs/api/errors.md does not list")
	assert.Empty(t, extra, "codes docs/api/errors.md lists that the server does not produce")
}

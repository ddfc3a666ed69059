package gitbook

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/content"
	"github.com/bindery/bindery/internal/enum"
)

var (
	testNow  = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	prevTime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
)

// ids returns a newID that numbers the IDs it makes, per prefix.
func ids() func(prefix string) string {
	n := map[string]int{}
	return func(prefix string) string {
		n[prefix]++
		return fmt.Sprintf("%s_new%d", prefix, n[prefix])
	}
}

func doc(id, title, slug, markdown string, children ...*content.Node) *content.Node {
	return &content.Node{Page: &content.Page{
		ID: id, Type: enum.PageTypeDocument, Title: title, Slug: slug, Markdown: markdown,
		CreatedAt: prevTime, UpdatedAt: prevTime,
	}, Children: children}
}

func group(id, title, slug string, children ...*content.Node) *content.Node {
	return &content.Node{Page: &content.Page{
		ID: id, Type: enum.PageTypeGroup, Title: title, Slug: slug, CreatedAt: prevTime, UpdatedAt: prevTime,
	}, Children: children}
}

func link(id, title, slug string, target content.Ref) *content.Node {
	return &content.Node{Page: &content.Page{
		ID: id, Type: enum.PageTypeLink, Title: title, Slug: slug, Target: &target, CreatedAt: prevTime, UpdatedAt: prevTime,
	}}
}

// blobs serves bytes by hash from a map.
func blobs(m map[string][]byte) func(string) ([]byte, error) {
	return func(h string) ([]byte, error) {
		b, ok := m[h]
		if !ok {
			return nil, fmt.Errorf("no blob %s", h)
		}
		return b, nil
	}
}

// readDir reads a directory of testdata into files by relative path.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	require.NoError(t, err)
	return out
}

// tree is a page tree as "type title [slug]" lines, indented by depth, to
// compare the shape of imports at a glance.
func tree(nodes []*content.Node) []string {
	var out []string
	var walk func(nodes []*content.Node, indent string)
	walk = func(nodes []*content.Node, indent string) {
		for _, n := range nodes {
			out = append(out, fmt.Sprintf("%s%s %s [%s]", indent, n.Page.Type, n.Page.Title, n.Page.Slug))
			walk(n.Children, indent+"  ")
		}
	}
	walk(nodes, "")
	return out
}

package content

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bindery/bindery/internal/enum"
)

// memStore is a Store in memory that counts its reads.
type memStore struct {
	mu    sync.Mutex
	objs  map[string]Object
	reads int
	// asked counts the objects asked for, by kind.
	asked map[enum.ObjectKind]int
}

func (m *memStore) Get(_ context.Context, hashes []string) (map[string]Object, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	if m.asked == nil {
		m.asked = map[enum.ObjectKind]int{}
	}
	out := map[string]Object{}
	for _, h := range hashes {
		if o, ok := m.objs[h]; ok {
			out[h] = o
			m.asked[o.Kind]++
		}
	}
	return out, nil
}

func (m *memStore) Put(_ context.Context, objs []Object) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range objs {
		m.objs[o.Hash] = o
	}
	return nil
}

// savedSample saves sampleContent in a new memStore.
func savedSample(t *testing.T) (*memStore, Roots) {
	t.Helper()
	s := &memStore{objs: map[string]Object{}}
	l, _, err := Save(context.Background(), s, sampleContent(), nil)
	require.NoError(t, err)
	return s, l.Roots()
}

func sampleContent() *Content {
	doc := func(id string, children ...*Node) *Node {
		return &Node{Page: &Page{ID: id, Type: enum.PageTypeDocument, Slug: id}, Children: children}
	}
	return &Content{Pages: []*Node{
		doc("intro"),
		doc("guide", doc("install", doc("linux"), doc("mac")), doc("usage")),
		doc("faq"),
	}}
}

// A content is decoded once for every caller; its pages are found by ID
// and by path as a walk of the tree finds them; and an edit of a clone
// leaves it as it was.
func TestDecodedLoadsOnceAndIndexes(t *testing.T) {
	ctx := context.Background()
	s, roots := savedSample(t)
	d := NewDecoded(1 << 20)
	first, err := d.Load(ctx, s, roots)
	require.NoError(t, err)
	reads := s.reads
	again, err := d.Load(ctx, s, roots)
	require.NoError(t, err)
	assert.Same(t, first, again)
	assert.Equal(t, reads, s.reads, "the second load reads no object")

	walked := first.Clone() // a clone has no index: it walks
	require.Nil(t, walked.index)
	require.NotNil(t, first.index)
	for _, id := range []string{"intro", "guide", "install", "linux", "mac", "usage", "faq", "unknown"} {
		n, parent, i, err := first.Find(id)
		wn, wparent, wi, werr := walked.Find(id)
		assert.Equal(t, werr, err, id)
		assert.Equal(t, wi, i, id)
		if werr == nil {
			assert.Equal(t, wn.Page.ID, n.Page.ID)
			assert.Equal(t, wparent == nil, parent == nil, id)
			if wparent != nil {
				assert.Equal(t, wparent.Page.ID, parent.Page.ID, id)
			}
		} else {
			assert.True(t, errors.Is(err, ErrNotFound))
		}
		path, err := first.Path(id)
		wpath, werr := walked.Path(id)
		assert.Equal(t, wpath, path, id)
		assert.Equal(t, werr, err, id)
		if werr == nil {
			byPath, err := first.ByPath("/" + path + "/")
			require.NoError(t, err)
			assert.Equal(t, id, byPath.Page.ID)
		}
	}
	_, err = first.ByPath("guide/nowhere")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Equal(t, "guide/install/linux", must(first.Path("linux")))

	edited := first.Clone()
	require.NoError(t, edited.Move("linux", "", 0))
	edited.Pages[0].Page.Title = "Changed" // linux, now first
	assert.Equal(t, "guide/install/linux", must(first.Path("linux")), "the shared content is as it was")
	linux, _, _, err := first.Find("linux")
	require.NoError(t, err)
	assert.Empty(t, linux.Page.Title)
	assert.Equal(t, "linux", must(edited.Path("linux")))
}

// The first read of a revision after an edit reads and decodes only the
// page the edit changed; the others are those of the revision before, shared.
func TestDecodedSharesUnchangedPages(t *testing.T) {
	ctx := context.Background()
	s, roots := savedSample(t)
	d := NewDecoded(1 << 20)
	before, err := d.Load(ctx, s, roots)
	require.NoError(t, err)
	assert.Equal(t, 7, s.asked[enum.ObjectKindPage])

	edited := before.Fork()
	n, _, err := edited.Edit("mac")
	require.NoError(t, err)
	n.Page.Markdown = "Changed"
	saved, _, err := Save(ctx, s, edited, before)
	require.NoError(t, err)
	next := saved.Roots()
	s.asked = nil
	after, err := d.Load(ctx, s, next)
	require.NoError(t, err)
	assert.Equal(t, 1, s.asked[enum.ObjectKindPage], "only the changed page is read")
	for _, id := range []string{"intro", "guide", "install", "linux", "usage", "faq"} {
		a, _, _, err := after.Find(id)
		require.NoError(t, err)
		b, _, _, err := before.Find(id)
		require.NoError(t, err)
		assert.Same(t, b.Page, a.Page, id)
	}
	mac, _, _, err := after.Find("mac")
	require.NoError(t, err)
	assert.Equal(t, "Changed", mac.Page.Markdown)
	old, _, _, err := before.Find("mac")
	require.NoError(t, err)
	assert.Empty(t, old.Page.Markdown)
	fresh, err := Load(ctx, s, next)
	require.NoError(t, err)
	assert.Equal(t, fresh.bytes, after.bytes, "its size counts the shared pages too")
}

// A loaded content is shared: a change to it is a bug, and panics rather
// than change what every request reads.
func TestLoadedRefusesChanges(t *testing.T) {
	ctx := context.Background()
	s, roots := savedSample(t)
	l, err := Load(ctx, s, roots)
	require.NoError(t, err)
	assert.Panics(t, func() { _ = l.Move("mac", "faq", 0) })
	assert.Panics(t, func() { _, _, _ = l.Edit("mac") })
	assert.Panics(t, func() { l.PutFile(&File{ID: "f"}) })
	assert.Equal(t, "guide/install/mac", must(l.Path("mac")))
}

// The cache keeps what fits in its bound, counted in the bytes of the
// objects a content was decoded from.
func TestDecodedIsBounded(t *testing.T) {
	ctx := context.Background()
	s, roots := savedSample(t)
	l, err := Load(ctx, s, roots)
	require.NoError(t, err)
	require.Positive(t, l.bytes)
	d := NewDecoded(2*l.bytes - 1) // too small to keep it
	first, err := d.Load(ctx, s, roots)
	require.NoError(t, err)
	again, err := d.Load(ctx, s, roots)
	require.NoError(t, err)
	assert.NotSame(t, first, again)
	d = NewDecoded(2 * l.bytes)
	first, err = d.Load(ctx, s, roots)
	require.NoError(t, err)
	again, err = d.Load(ctx, s, roots)
	require.NoError(t, err)
	assert.Same(t, first, again)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Package contenttest holds what the tests of content's users share.
package contenttest

import (
	"context"

	"github.com/bindery/bindery/internal/content"
)

// Store is a content.Store in memory.
type Store map[string]content.Object

// Get returns the objects of hashes that the store holds.
func (m Store) Get(_ context.Context, hashes []string) (map[string]content.Object, error) {
	out := map[string]content.Object{}
	for _, h := range hashes {
		if o, ok := m[h]; ok {
			out[h] = o
		}
	}
	return out, nil
}

// Put keeps objs.
func (m Store) Put(_ context.Context, objs []content.Object) error {
	for _, o := range objs {
		m[o.Hash] = o
	}
	return nil
}

package gitsync

import (
	"bytes"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// limitedStorage is go-git's memory storage with a bound on what a fetch
// may bring into it. go-git parses a received packfile straight into the
// storage, so without this a large repository would be in memory before
// the tree could be measured.
type limitedStorage struct {
	*memory.Storage
	maxPack    int64 // bytes of packfile received
	maxObjects int64 // bytes of objects once inflated
}

func newLimitedStorage(l Limits) *limitedStorage {
	// Beyond the files' bytes, a depth-1 pack holds a commit and trees:
	// allow for a tree entry of every file, and some room.
	slack := int64(l.MaxFiles)*256 + 1<<20
	return &limitedStorage{
		Storage:    memory.NewStorage(),
		maxPack:    l.MaxBytes + slack,
		maxObjects: l.MaxBytes + slack,
	}
}

// PackfileWriter makes go-git hand over the packfile as it arrives, to be
// counted, instead of parsing it into the storage as it reads.
func (s *limitedStorage) PackfileWriter() (io.WriteCloser, error) {
	return &packWriter{s: s}, nil
}

type packWriter struct {
	s      *limitedStorage
	buf    bytes.Buffer
	failed bool
}

func (w *packWriter) Write(p []byte) (int, error) {
	if int64(w.buf.Len()+len(p)) > w.s.maxPack {
		w.failed = true
		return 0, fmt.Errorf("%w: the packfile is over %d bytes", ErrTooLarge, w.s.maxPack)
	}
	return w.buf.Write(p)
}

// Close parses the packfile. It is read from memory, so the parser can
// seek to a delta's base instead of keeping every delta.
func (w *packWriter) Close() error {
	if w.failed || w.buf.Len() == 0 {
		return nil
	}
	counted := &countingStorer{EncodedObjectStorer: w.s.Storage, left: w.s.maxObjects}
	p, err := packfile.NewParserWithStorage(packfile.NewScanner(bytes.NewReader(w.buf.Bytes())), counted)
	if err != nil {
		return fmt.Errorf("gitsync: reading the packfile: %w", err)
	}
	if _, err := p.Parse(); err != nil {
		return fmt.Errorf("gitsync: reading the packfile: %w", err)
	}
	return nil
}

// countingStorer refuses objects once their sizes add up past a bound, as
// a packfile of small deltas can inflate to far more than it weighs.
type countingStorer struct {
	storer.EncodedObjectStorer
	left int64
}

func (s *countingStorer) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	s.left -= o.Size()
	if s.left < 0 {
		return plumbing.ZeroHash, fmt.Errorf("%w: the objects fetched are over their bound", ErrTooLarge)
	}
	return s.EncodedObjectStorer.SetEncodedObject(o)
}

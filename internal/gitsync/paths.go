package gitsync

import (
	"fmt"
	"strings"
)

// checkPath refuses a path that whoever writes the files out, the caller
// or a later checkout, could resolve outside its directory or into Git's
// own. Repositories are checked as well as callers: a server need not
// refuse such names in the trees pushed to it.
func checkPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.ContainsFunc(p, badRune) {
		return fmt.Errorf("%w: %q", ErrInvalidPath, p)
	}
	for seg := range strings.SplitSeq(p, "/") {
		// ".git" in any case: Windows and macOS fold it.
		if seg == "" || seg == "." || seg == ".." || strings.EqualFold(seg, ".git") {
			return fmt.Errorf("%w: %q", ErrInvalidPath, p)
		}
	}
	return nil
}

// cleanDir returns dir without surrounding slashes, checked; "" and "/"
// are the whole repository.
func cleanDir(dir string) (string, error) {
	dir = strings.Trim(dir, "/")
	if dir == "" {
		return "", nil
	}
	if err := checkPath(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// under reports whether path p is dir itself or inside it.
func under(p, dir string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir+"/")
}

// badRune is a control character, or a backslash, which Windows reads as
// a separator.
func badRune(r rune) bool {
	return r < 0x20 || r == 0x7f || r == '\\'
}

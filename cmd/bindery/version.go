package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the release, set at build time with
// -ldflags "-X main.version=v1.2.3"; empty means the module's version from
// the build information ("(devel)" for a build from a checkout).
var version string

// commit is the commit the binary was built from, set at build time with
// -ldflags "-X main.commit=..." where the build has no .git directory (a
// container build); empty means the build information's vcs.revision.
var commit string

// printVersion prints the version, the commit and the Go version the binary
// was built from, as the build information records them.
func printVersion(w io.Writer) error {
	v, rev, modified, built := version, commit, false, ""
	info, ok := debug.ReadBuildInfo()
	if ok {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			case "vcs.time":
				built = s.Value
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if rev == "" {
		rev = "unknown"
	}
	if modified {
		rev += " (modified)"
	}
	fmt.Fprintf(w, "bindery %s\ncommit %s\n", v, rev)
	if built != "" {
		fmt.Fprintf(w, "commit time %s\n", built)
	}
	fmt.Fprintf(w, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

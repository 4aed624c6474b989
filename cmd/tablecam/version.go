package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version describes the build: the git commit it was built from (and
// whether the tree had changes), its date, and the Go version.
func version() string {
	commit, date, dirty := "a build without its git commit", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
				if len(commit) > 12 {
					commit = commit[:12]
				}
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if dirty {
		commit += " with local changes"
	}
	if date != "" {
		commit += " of " + date
	}
	return fmt.Sprintf("%s (%s, %s/%s)", commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

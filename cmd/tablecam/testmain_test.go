package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"tablecam/models"
	"tablecam/vision/defaults"
)

// builtinCache holds the built-in dice profiles, built once for all the
// tests of this package; dataDir copies them into a test's data directory
// (as a user's cache from an earlier run), so that every test does not
// build them again.
var builtinCache string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "tablecam-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	c, err := models.LoadContent("")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, _, err := defaults.Load(c, dir, []string{"vats", "assist"}, nil); err != nil {
		fmt.Fprintln(os.Stderr, "built-in dice profiles:", err)
		return 1
	}
	builtinCache = dir
	return m.Run()
}

// dataDir returns a fresh data directory holding the cached built-in dice
// profiles.
func dataDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	src := filepath.Join(builtinCache, "profiles", "dice-builtin")
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(d, "profiles", "dice-builtin", rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

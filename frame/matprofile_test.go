//go:build matprofile

package frame

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// Run with: go test -tags matprofile ./frame/
// Every frame a source returns is closed by its reader; afterwards no Mat
// may be left alive.

func drain(t *testing.T, src Source) int {
	t.Helper()
	n := 0
	for {
		f, err := src.Read(context.Background())
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		n++
	}
}

func checkNoLeak(t *testing.T, start int) {
	t.Helper()
	if n := gocv.MatProfile.Count(); n != start {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats leaked:\n%s", n-start, b.String())
	}
}

func TestNoMatLeakImageDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 200 {
		writeImage(t, filepath.Join(dir, fmt.Sprintf("f%04d.png", i)), 96, 72, colours[i%len(colours)])
	}
	os.WriteFile(filepath.Join(dir, "f0100a.png"), []byte("corrupt"), 0o644)
	start := gocv.MatProfile.Count()

	src, err := OpenImageDir(dir, 30)
	if err != nil {
		t.Fatal(err)
	}
	ds := Downscale(src, 48)
	if n := drain(t, ds); n != 200 {
		t.Errorf("read %d frames, want 200", n)
	}
	ds.Close()
	if src.Skipped() != 1 {
		t.Errorf("skipped %d, want 1", src.Skipped())
	}
	checkNoLeak(t, start)
}

func TestNoMatLeakVideoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.avi")
	writeVideo(t, path, 200, 160, 120, 30)
	start := gocv.MatProfile.Count()

	src, err := OpenVideoFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds := Downscale(src, 80)
	if n := drain(t, ds); n != 200 {
		t.Errorf("read %d frames, want 200", n)
	}
	// Reads after the end must not leak either.
	for range 3 {
		ds.Read(context.Background())
	}
	ds.Close()
	checkNoLeak(t, start)
}

package frame

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A video with a damaged frame in the middle and its end cut off (a copy
// that did not finish) is read to its end without a crash; frames that
// cannot be decoded are skipped and counted (issue 5 §4).
func TestVideoFileCorruptAndTruncated(t *testing.T) {
	const n = 60
	path := filepath.Join(t.TempDir(), "roll.avi")
	writeVideo(t, path, n, 160, 120, 30)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The JPEG frames start with FF D8 FF; damage the 20th one's data.
	soi := []byte{0xff, 0xd8, 0xff}
	var starts []int
	for i := 0; ; {
		k := bytes.Index(data[i:], soi)
		if k < 0 {
			break
		}
		starts = append(starts, i+k)
		i += k + 3
	}
	if len(starts) < n {
		t.Fatalf("found %d JPEG frames in the file, want %d", len(starts), n)
	}
	for i := starts[20] + 2; i < starts[21]-2; i++ {
		data[i] = 0x5a
	}
	// Cut the file in the middle of frame 45 (the index at its end is lost).
	data = data[:starts[45]+100]
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := OpenVideoFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	got := 0
	for {
		f, err := src.Read(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if f.Mat.Empty() || f.Mat.Cols() != 160 {
			t.Errorf("frame %d: unusable frame delivered", f.Index)
		}
		f.Close()
		got++
	}
	t.Logf("read %d frames, skipped %d, of %d written (file cut in frame 45, frame 20 damaged)", got, src.Skipped(), n)
	if got < 40 || got > 45 {
		t.Errorf("read %d frames, want the 44 or 45 before the cut", got)
	}
	// The file's header still says 60 frames: every frame not read counts.
	if got+src.Skipped() != n {
		t.Errorf("read %d + skipped %d, want %d written", got, src.Skipped(), n)
	}
}

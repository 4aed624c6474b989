package vision

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hugePNG is a valid PNG of a few hundred bytes whose header (IHDR, its
// CRC made right) declares w×h pixels: a 4×4 picture's PNG with the size
// patched.
func hugePNG(t testing.TB, w, h uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// Signature (8), IHDR's length (4) and type (4), its 13 bytes of
	// data (width, height first), then its CRC over type and data.
	if string(b[12:16]) != "IHDR" {
		t.Fatal("no IHDR")
	}
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// HugePNGForTest is hugePNG for package vision_test.
var HugePNGForTest = hugePNG

// TestTeachDiceLinksAndOversized: learn dice follows a link to a face
// folder; an oversized picture there is skipped and reported with the
// limit; a face folder left without a readable picture is an error naming
// it and the extensions read.
func TestTeachDiceLinksAndOversized(t *testing.T) {
	real, dir := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(real, "sun"), 0o755)
	os.WriteFile(filepath.Join(real, "sun", "huge.png"), hugePNG(t, 32000, 32000), 0o644)
	os.Symlink(filepath.Join(real, "sun"), filepath.Join(dir, "sun"))
	var log []string
	_, _, err := TeachDice(nil, "runes", dir, func(s string) { log = append(log, s) })
	text := strings.Join(log, "\n")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "sun")+": no readable picture") || !strings.Contains(err.Error(), ".png") {
		t.Errorf("face folder without a readable picture: %v", err)
	}
	if !strings.Contains(text, "sun: huge.png: skipped: 32000×32000 pixels: too large (at most 16384") {
		t.Errorf("progress:\n%s", text)
	}
}

// Teaching dice refuses a folder with more pictures or faces than it
// reads, before it decodes any, naming the folder and the bound.
func TestTeachCountsBounded(t *testing.T) {
	fill := func(dir string, n int) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.png", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	dice := t.TempDir()
	fill(filepath.Join(dice, "a"), MaxTeachPictures+1)
	fill(filepath.Join(dice, "b"), 1)
	if _, _, err := TeachDice(nil, "ours", dice, nil); err == nil || !strings.Contains(err.Error(), "at most 200") || !strings.Contains(err.Error(), filepath.Join(dice, "a")) {
		t.Errorf("dice, too many pictures: %v", err)
	}
	faces := t.TempDir()
	for i := range MaxTeachFaces + 1 {
		fill(filepath.Join(faces, fmt.Sprintf("f%03d", i)), 0)
	}
	if _, _, err := TeachDice(nil, "ours", faces, nil); err == nil || !strings.Contains(err.Error(), "at most 100 faces") {
		t.Errorf("dice, too many faces: %v", err)
	}
}

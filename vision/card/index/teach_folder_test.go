package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestTeachCardsLinksAndOversized: learn cards follows symbolic links to
// card folders and to photos; links that lead nowhere or in a circle are
// reported and cost nothing else; an oversized photo is skipped and
// reported with the limit, the card's other photos teach it.
func TestTeachCardsLinksAndOversized(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 3))
	real, dir := t.TempDir(), t.TempDir()
	write := func(path string) {
		m := roundTripPicture(rng, 150, 210, false)
		defer m.Close()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if !gocv.IMWrite(path, m) {
			t.Fatalf("write %s", path)
		}
	}
	// card-a: a folder with two photos and an oversized one.
	write(filepath.Join(dir, "card-a", "1.png"))
	write(filepath.Join(dir, "card-a", "2.png"))
	os.WriteFile(filepath.Join(dir, "card-a", "huge.png"), hugePNG(t, 32000, 32000), 0o644)
	// card-b: a link to a folder elsewhere.
	write(filepath.Join(real, "b", "1.png"))
	os.Symlink(filepath.Join(real, "b"), filepath.Join(dir, "card-b"))
	// card-c: a folder of links to photos.
	write(filepath.Join(real, "c.png"))
	os.Mkdir(filepath.Join(dir, "card-c"), 0o755)
	os.Symlink(filepath.Join(real, "c.png"), filepath.Join(dir, "card-c", "1.png"))
	// Links that lead nowhere: in a circle, to itself, to nothing; a link
	// to the folder itself (its folders are no photos).
	os.Symlink(filepath.Join(dir, "loop-2"), filepath.Join(dir, "loop-1"))
	os.Symlink(filepath.Join(dir, "loop-1"), filepath.Join(dir, "loop-2"))
	os.Symlink(filepath.Join(dir, "card-a", "self.png"), filepath.Join(dir, "card-a", "self.png"))
	os.Symlink(filepath.Join(real, "gone"), filepath.Join(dir, "gone"))
	os.Symlink(dir, filepath.Join(dir, "up"))
	var log []string
	ix, err := TeachFolder(dir, func(s string) { log = append(log, s) })
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(log, "\n")
	if got := ix.Cards(); strings.Join(got, ",") != "card-a,card-b,card-c" {
		t.Errorf("cards %v\n%s", got, text)
	}
	for _, w := range []string{"card-a: huge.png: skipped: 32000×32000 pixels: too large (at most 16384", "card-a: taught from 2 of 3 pictures",
		"card-b: taught from 1 of 1", "card-c: taught from 1 of 1", "loop-1", "loop-2", "self.png", "gone", "up: no pictures (want .bmp"} {
		if !strings.Contains(text, w) {
			t.Errorf("progress lacks %q:\n%s", w, text)
		}
	}
	// A folder holding nothing readable is an error naming it and the
	// extensions read.
	none := t.TempDir()
	os.MkdirAll(filepath.Join(none, "card-x"), 0o755)
	os.WriteFile(filepath.Join(none, "card-x", "huge.png"), hugePNG(t, 32000, 32000), 0o644)
	if _, err := TeachFolder(none, nil); err == nil || !strings.Contains(err.Error(), none) || !strings.Contains(err.Error(), ".png") {
		t.Errorf("nothing readable: %v", err)
	}
}

// TestTeachCardsCountsBounded: teaching cards refuses a card folder with
// more pictures than it reads, before it decodes any, naming the bound.
func TestTeachCardsCountsBounded(t *testing.T) {
	cards := t.TempDir()
	dir := filepath.Join(cards, "goal-1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range MaxTeachPictures + 1 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.png", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := TeachFolder(cards, nil); err == nil || !strings.Contains(err.Error(), "at most 200") {
		t.Errorf("cards, too many pictures: %v", err)
	}
}

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

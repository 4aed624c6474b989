package vision

import (
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardFollowOnChanged: a card is followed only while it lies on what
// changed against the empty table. A textured card on a plain table is
// read (unknown: nothing is taught) and followed into the next frame; with
// the reference made the frame itself (the card now part of the table: a
// card taken away from over its own picture would look the same), the
// card's picture is where it was, but it is not followed.
func TestCardFollowOnChanged(t *testing.T) {
	r, err := NewCardReader(CardReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	// The card: blocks of 10 px in random greys, 150×210 px at (500, 250).
	var blocks [21][15]uint8
	for y := range blocks {
		for x := range blocks[y] {
			blocks[y][x] = uint8(40 + rng.IntN(180))
		}
	}
	frame := func(card bool) gocv.Mat {
		img, px := cardFrameForTest(t)
		for y := range 720 {
			for x := range 1280 {
				v := 120 + rng.NormFloat64()
				if card && x >= 500 && x < 650 && y >= 250 && y < 460 {
					v = float64(blocks[(y-250)/10][(x-500)/10]) + rng.NormFloat64()
				}
				i := 3 * (y*1280 + x)
				px[i], px[i+1], px[i+2] = uint8(v), uint8(v), uint8(v)
			}
		}
		return img
	}
	if err := r.SetBackground(frame(false)); err != nil {
		t.Fatal(err)
	}
	read := func(img gocv.Mat) []CardReading {
		t.Helper()
		out, err := r.ReadCards(img)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := read(frame(true)); len(out) != 1 || r.followRun != 0 {
		t.Fatalf("first frame: read %v, followed %v; want the card, read in full", out, r.followRun > 0)
	}
	if out := read(frame(true)); len(out) != 1 || r.followRun != 1 {
		t.Fatalf("second frame: read %v, followed %v; want the card followed", out, r.followRun > 0)
	}
	// The reference becomes the frame: nothing changed against it.
	img := frame(true)
	cardRefShrinkTo(img, &r.ref.small)
	read(img)
	if r.followRun != 0 {
		t.Errorf("the card on the unchanged table was followed")
	}
}

package card

import (
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
)

// TestCardRefStill: a blob searched is skipped in the next frame while it
// lies still (noise, a shrunk pixel's move), the cards found there then
// taken again, and searched again
// when it moved, when what is left of it to search changed, when what is
// over it changed, when it was not searched in vain in between, and after
// a new reference.
func TestCardRefStill(t *testing.T) {
	c := newRef()
	defer c.close()
	rng := rand.New(rand.NewSource(1))
	c.Cur.Close()
	c.Cur = gocv.NewMatWithSize(180, 320, gocv.MatTypeCV8UC3)
	px, err := c.Cur.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range px {
		px[i] = uint8(40 + rng.Intn(160))
	}
	orig := append([]byte(nil), px...)
	box, free := image.Rect(400, 200, 640, 520), 30000.0
	frame := func() {
		t.Helper()
		c.stillFrame()
		copy(px, orig)
	}
	frame()
	shown := []Reading{{ID: "goal-1", Method: MethodLearned, Box: image.Rect(420, 220, 600, 480)}}
	c.stillKeep(box, free, shown)
	shown[0].ID = "changed after" // kept as found, not shared

	frame()
	if found, ok := c.stillSearched(box, free); !ok || len(found) != 1 || found[0].ID != "goal-1" {
		t.Fatalf("the same blob on the same frame: skipped %v, found %v; want skipped, goal-1 found again", ok, found)
	}
	frame() // kept while still: camera noise, a shrunk pixel's move
	for i := range px {
		px[i] = uint8(int(px[i]) + rng.Intn(5) - 2)
	}
	if !c.stillSearchedForTest(box.Add(image.Pt(change.Shrink, -change.Shrink)), 1.03*free) {
		t.Fatal("a still blob on a noisy frame is searched again")
	}
	for _, tc := range []struct {
		name  string
		box   image.Rectangle
		free  float64
		paint bool
	}{
		{"moved", box.Add(image.Pt(3*change.Shrink, 0)), free, false},
		{"less left to search", box, 0.8 * free, false},
		{"another card over it", box, free, true},
	} {
		c.stillNow = append(c.stillNow[:0], c.stillLast...)
		frame()
		if tc.paint {
			for y := 60; y < 110; y++ {
				for x := 110; x < 150; x++ {
					px[3*(y*320+x)] = 250
				}
			}
		}
		if c.stillSearchedForTest(tc.box, tc.free) {
			t.Errorf("%s: skipped", tc.name)
		}
	}
	// Searched again (not skipped, nothing kept): not skipped next.
	frame()
	if c.stillSearchedForTest(box, free) {
		t.Error("a blob not searched in vain in the last frame is skipped")
	}

	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.ref.stillNow = append(r.ref.stillNow, refStill{box: box, free: free})
	ref := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer ref.Close()
	if err := r.SetBackground(ref); err != nil {
		t.Fatal(err)
	}
	if len(r.ref.stillNow) != 0 {
		t.Error("blobs searched against the last reference are kept")
	}
}

// stillSearchedForTest is stillSearched's skip alone.
func (c *refState) stillSearchedForTest(box image.Rectangle, free float64) bool {
	_, ok := c.stillSearched(box, free)
	return ok
}

package card

import (
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
)

// fitSetup returns a reader with two taught cards (noise), a frame of
// noise, an outline on it and a match with one of them that is near and
// not taken.
func fitSetup(t testing.TB) (*Reader, gocv.Mat, [4]geom.Point, index.Match) {
	ix := index.New()
	for i, id := range []string{"a", "b"} {
		card := gocv.NewMatWithSize(280, 200, gocv.MatTypeCV8UC3)
		gocv.RandU(&card, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(255, 255, 255, 0))
		gocv.GaussianBlur(card, &card, image.Pt(0, 0), float64(3+4*i), float64(3+4*i), gocv.BorderReflect)
		err := ix.Teach(id, card)
		card.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	frame := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	gocv.RandU(&frame, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(255, 255, 255, 0))
	q := [4]geom.Point{{X: 200, Y: 100}, {X: 340, Y: 110}, {X: 330, Y: 300}, {X: 190, Y: 290}}
	return r, frame, q, index.Match{ID: "b", Dist: 0.5, Second: 1.2}
}

// BenchmarkCardFitOutline is the cost of one fit (fitToCard) of an outline
// about 140 × 190 px to a card it is not: all its tries.
func BenchmarkCardFitOutline(b *testing.B) {
	r, frame, q, m := fitSetup(b)
	defer r.Close()
	defer frame.Close()
	for b.Loop() {
		if _, _, _, err := r.fitToCard(frame, q, m); err != nil {
			b.Fatal(err)
		}
	}
}

// An outline fitted in vain is not fitted again in the next frame where
// it lies in the same place (a card lying still), but is where it moved.
func TestCardFitNotRepeated(t *testing.T) {
	r, frame, q, m := fitSetup(t)
	defer r.Close()
	defer frame.Close()
	fits := func(q [4]geom.Point) int {
		r.fits = 0
		r.fitLast, r.fitFailed = r.fitFailed, r.fitLast[:0]
		if _, _, _, err := r.fitOutline(frame, q, 0, m); err != nil {
			t.Fatal(err)
		}
		return r.fits
	}
	if n := fits(q); n != 1 {
		t.Fatalf("first frame: %d fits, want 1", n)
	}
	if n := fits(q); n != 0 {
		t.Errorf("the same outline in the next frame: %d fits, want 0", n)
	}
	if n := fits(q); n != 0 {
		t.Errorf("the same outline a frame later: %d fits, want 0 (still remembered)", n)
	}
	moved := q
	for k := range moved {
		moved[k].X += 6
	}
	if n := fits(moved); n != 1 {
		t.Errorf("the outline moved by 6 px: %d fits, want 1", n)
	}
}

// An unknown outline around a card read and the hand holding it covers
// most of that card's box; one beside the card does not.
func TestCardMostlyOver(t *testing.T) {
	read := []Reading{{ID: "a", Box: image.Rect(100, 100, 200, 240)}}
	for _, c := range []struct {
		box  image.Rectangle
		want bool
	}{
		{image.Rect(60, 20, 210, 250), true},   // the card and the hand above it
		{image.Rect(150, 100, 300, 240), true}, // half of it
		{image.Rect(170, 90, 320, 250), false}, // a card beside it, overlapping a little
		{image.Rect(300, 100, 400, 240), false},
	} {
		if got := mostlyOver(read, c.box); got != c.want {
			t.Errorf("%v over %v: %v, want %v", c.box, read[0].Box, got, c.want)
		}
	}
}

// TestCardExtensions: a squarish outline that is part of a card (its upper
// 60% across its whole width, or its left 75% of a card lying on its long
// side) is tried as the whole card; an outline in a card's proportions is
// not extended.
func TestCardExtensions(t *testing.T) {
	// A card 100 × 140, turned 30°, top-left corner first.
	c, s := float32(math.Cos(math.Pi/6)), float32(math.Sin(math.Pi/6))
	at := func(u, v float32) geom.Point { return geom.Point{X: 500 + u*c - v*s, Y: 300 + u*s + v*c} }
	card := [4]geom.Point{at(0, 0), at(100, 0), at(100, 140), at(0, 140)}
	lying := [4]geom.Point{at(0, 0), at(140, 0), at(140, 100), at(0, 100)}
	near := func(a, b [4]geom.Point) bool {
		for k := range 4 {
			if geom.Dist(a[k], b[k]) > 1 {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		name       string
		part, want [4]geom.Point
	}{
		{"upper part", [4]geom.Point{at(0, 0), at(100, 0), at(100, 84), at(0, 84)}, card},
		{"lower part", [4]geom.Point{at(0, 56), at(100, 56), at(100, 140), at(0, 140)}, card},
		{"middle", [4]geom.Point{at(0, 28), at(100, 28), at(100, 112), at(0, 112)}, card},
		{"left of a lying card", [4]geom.Point{at(0, 0), at(105, 0), at(105, 100), at(0, 100)}, lying},
	} {
		found := false
		for _, e := range extensions(tc.part) {
			found = found || near(e, tc.want)
		}
		if !found {
			t.Errorf("%s: %v extended to %v, want %v among them", tc.name, tc.part, extensions(tc.part), tc.want)
		}
	}
	if e := extensions(card); len(e) != 0 {
		t.Errorf("a whole card extended: %v", e)
	}
}

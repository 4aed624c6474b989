package card

import (
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// TestCardRefCompareChanged: with the reference, an outline mostly on the
// unchanged table is not compared with the taught cards, an outline tried
// for another (an alternative) is not tried where it is mostly unchanged,
// and a far match is not compared again without its occluded blocks; the
// same outlines are without the reference.
func TestCardRefCompareChanged(t *testing.T) {
	img := blocksForTest(t, 8)
	// The taught card "a" is the picture inside card; other shows
	// another picture.
	card := [4]geom.Point{{X: 700, Y: 200}, {X: 860, Y: 210}, {X: 850, Y: 430}, {X: 690, Y: 420}}
	other := [4]geom.Point{{X: 300, Y: 200}, {X: 460, Y: 210}, {X: 450, Y: 430}, {X: 290, Y: 420}}
	d := index.NewDescriber()
	defer d.Close()
	if err := d.Rectify(img, card, 0); err != nil {
		t.Fatal(err)
	}
	r := readerOfCanon(t, d)
	var traced []index.Match
	r.trace = func(_ image.Rectangle, m index.Match) { traced = append(traced, m) }
	r.times = newTimes()
	// The shrunk frame's changed pixels: those inside the quadrilaterals
	// given.
	changed := func(qs ...[4]geom.Point) { t.Helper(); changedForTest(t, r, qs...) }
	read := func(ref bool, o outline.Candidate) (string, bool) {
		t.Helper()
		r.refUsed = ref
		r.forgetStill() // a new frame, nothing kept from the last one
		r.startStill()
		traced = traced[:0]
		rd, _, _, err := r.readLearned(img, o)
		if err != nil {
			t.Fatal(err)
		}
		return rd.ID, len(traced) > 0
	}

	// The card alone.
	o := outline.Candidate{Q: card, Refined: true}
	changed(card)
	if id, _ := read(true, o); id != "a" {
		t.Fatalf("the taught card on changed pixels read %q, want a (%+v)", id, traced)
	}
	changed()
	if id, compared := read(true, o); id != Unknown || compared {
		t.Errorf("the taught card on unchanged pixels: read %q, compared %v; want not compared", id, compared)
	}
	if id, _ := read(false, o); id != "a" {
		t.Errorf("without the reference the taught card read %q, want a", id)
	}

	// The card as the alternative of an outline of another picture: tried
	// where it changed, not where it did not.
	alt := outline.Candidate{Q: other, Refined: true, Alts: [][4]geom.Point{card}}
	changed(other, card)
	if id, _ := read(true, alt); id != "a" {
		t.Fatalf("the alternative on changed pixels read %q, want a", id)
	}
	changed(other)
	if id, compared := read(true, alt); id != Unknown || !compared {
		t.Errorf("the alternative on unchanged pixels: read %q, compared %v; want the outline compared, the alternative not tried", id, compared)
	}

	// A far match is compared without its occluders only without the
	// reference.
	far := outline.Candidate{Q: other, Refined: true}
	changed(other)
	occluded := func(ref bool) int {
		t.Helper()
		clear(r.times.n)
		if id, _ := read(ref, far); id != Unknown {
			t.Fatalf("another picture read %q", id)
		}
		if len(traced) != 1 || traced[0].Dist < refOccludedFar {
			t.Fatalf("setup: another picture's match %+v, want one at %v or more", traced, refOccludedFar)
		}
		return r.times.n["    compared without occluders"]
	}
	if n := occluded(true); n != 0 {
		t.Errorf("a far match with the reference is compared without its occluders (%d)", n)
	}
	if n := occluded(false); n != 1 {
		t.Errorf("a far match without the reference is compared without its occluders %d times, want 1", n)
	}
}

// readerOfCanon returns a reader whose index holds one card, "a": the
// picture in d.canon as it is; the test closes it.
func readerOfCanon(t *testing.T, d *index.Describer) *Reader {
	t.Helper()
	var ds [4]index.Desc
	if err := d.Describe(&ds); err != nil {
		t.Fatal(err)
	}
	ix := index.New()
	ix.AddEntry(index.Entry{ID: "a", Desc: ds[0]})
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

// changedForTest sets r's shrunk changed mask (of a 1280×720 frame) to
// the pixels inside the quadrilaterals qs.
func changedForTest(t *testing.T, r *Reader, qs ...[4]geom.Point) {
	t.Helper()
	if r.ref.Mask.Rows() != 720/change.Shrink || r.ref.Mask.Cols() != 1280/change.Shrink {
		r.ref.Mask.Close()
		r.ref.Mask = gocv.NewMatWithSize(720/change.Shrink, 1280/change.Shrink, gocv.MatTypeCV8U)
	}
	mask, err := r.ref.Mask.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	w := r.ref.Mask.Cols()
	for i := range mask {
		mask[i] = 0
		p := geom.Point{X: float32((i%w)*change.Shrink + change.Shrink/2), Y: float32((i/w)*change.Shrink + change.Shrink/2)}
		for _, q := range qs {
			if geom.InQuad(p, q) {
				mask[i] = 255
			}
		}
	}
}

// blocksForTest returns a 1280×720 BGR frame of 12 px blocks in
// random colours (rand seed), slightly blurred: shapes a card's picture
// has. The test closes it.
func blocksForTest(t testing.TB, seed int64) gocv.Mat {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	img, px := frameForTest(t)
	for by := 0; by < 720; by += 12 {
		for bx := 0; bx < 1280; bx += 12 {
			c := [3]uint8{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256))}
			for y := by; y < by+12; y++ {
				for x := bx; x < min(bx+12, 1280); x++ {
					copy(px[3*(y*1280+x):], c[:])
				}
			}
		}
	}
	gocv.GaussianBlur(img, &img, image.Pt(0, 0), 1.5, 1.5, gocv.BorderReplicate)
	return img
}

// frameForTest returns a 1280×720 BGR frame and its pixels; the test
// closes it.
func frameForTest(t testing.TB) (gocv.Mat, []byte) {
	t.Helper()
	img := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	t.Cleanup(func() { img.Close() })
	px, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	return img, px
}

// TestCardQuickReadGoesOn: the full reading of an outline read quickly
// first (a blob's, findOutlinesIn) goes on from where the quick one
// stopped: the same reading as one from the start, without comparing the
// quick reading's outlines again.
func TestCardQuickReadGoesOn(t *testing.T) {
	img := blocksForTest(t, 9)
	card := [4]geom.Point{{X: 700, Y: 200}, {X: 860, Y: 210}, {X: 850, Y: 430}, {X: 690, Y: 420}}
	d := index.NewDescriber()
	defer d.Close()
	if err := d.Rectify(img, card, 0); err != nil {
		t.Fatal(err)
	}
	r := readerOfCanon(t, d)
	r.times = newTimes()
	r.refUsed = true
	changedForTest(t, r, card)
	// Most of the card, cut across by a thumb: read only extended to a
	// card's proportions (a try after the quick ones).
	half := outline.Candidate{Q: [4]geom.Point{card[0], card[1], {X: 853, Y: 360}, {X: 693, Y: 350}}, Refined: true}
	type reading struct {
		rd    Reading
		m     index.Match
		tries int
	}
	read := func(quick bool, qr *quickRead) reading {
		t.Helper()
		r.forgetStill()
		r.startStill()
		clear(r.times.n)
		rd, _, m, err := r.readLearnedOn(img, half, quick, qr)
		if err != nil {
			t.Fatal(err)
		}
		return reading{rd, m, r.times.n["      one outline compared"]}
	}
	whole := read(false, nil)
	if whole.rd.ID != "a" || whole.tries < 2 {
		t.Fatalf("setup: the half card read %q in %d tries, want a after the quick ones", whole.rd.ID, whole.tries)
	}
	var qr quickRead
	quick := read(true, &qr)
	if quick.rd.ID != Unknown || !qr.set || qr.next <= 0 {
		t.Fatalf("setup: the quick reading read %q (%+v), want nothing and where it stopped", quick.rd.ID, qr)
	}
	on := read(false, &qr)
	if on.rd.ID != whole.rd.ID || on.rd.Corners != whole.rd.Corners || on.m.Dist != whole.m.Dist || on.m.Rot != whole.m.Rot {
		t.Errorf("read on: %+v (match %+v), read from the start: %+v (match %+v)", on.rd, on.m, whole.rd, whole.m)
	}
	if quick.tries+on.tries != whole.tries {
		t.Errorf("tries: quick %d + on %d, want %d (from the start)", quick.tries, on.tries, whole.tries)
	}
}

// TestCardGrownExampleOutline: an outline that matches a taught example's
// grown entry when tried grown (the card's outline, taught from a photo
// whose outline was the card's) reads as the card with the outline as
// found, not grown, and its keypoints are looked for there; a match of an
// example's own entry by an outline tried grown (the card's inner frame) is
// the outline grown.
func TestCardGrownExampleOutline(t *testing.T) {
	img := blocksForTest(t, 10)
	card := [4]geom.Point{{X: 700, Y: 200}, {X: 860, Y: 200}, {X: 860, Y: 424}, {X: 700, Y: 424}}
	d := index.NewDescriber()
	defer d.Close()
	if err := d.Rectify(img, card, index.GrowInner); err != nil {
		t.Fatal(err)
	}
	var ds [4]index.Desc
	if err := d.Describe(&ds); err != nil {
		t.Fatal(err)
	}
	ix := index.New()
	ix.AddEntry(index.Entry{ID: "a", Desc: ds[0], Grown: true})
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.times = newTimes()
	rd, _, m, err := r.readLearned(img, outline.Candidate{Q: card, Refined: true})
	if err != nil {
		t.Fatal(err)
	}
	if rd.ID != "a" || !m.Grown || r.times.n["      one outline compared"] < 2 {
		t.Fatalf("setup: read %q (match %+v) in %d tries, want a by the grown entry, tried grown", rd.ID, m, r.times.n["      one outline compared"])
	}
	for k := range 4 {
		if geom.Dist(rd.Corners[k], card[k]) > 1 {
			t.Fatalf("corners %v, want the card's %v", rd.Corners, card)
		}
	}
	if q := matchedOutline(card, index.GrowInner, m); q != card {
		t.Errorf("keypoints looked for at %v, want the card's %v", q, card)
	}
	m.Grown = false
	if q := matchedOutline(card, index.GrowInner, m); q != geom.GrowQuad(card, index.GrowInner) {
		t.Errorf("an example's own entry matched by the outline grown: %v, want it grown", q)
	}
}

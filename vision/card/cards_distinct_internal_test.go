package card

import (
	"image"
	"math/bits"
	"testing"

	"tablecam/vision/geom"
)

// cardFlip returns d with its first n bits flipped.
func cardFlip(d [4]uint64, n int) [4]uint64 {
	for b := range n {
		d[b/64] ^= 1 << (b % 64)
	}
	return d
}

// TestCardDistinctShared checks which taught keypoints count as shared:
// another card's keypoint within cardDistinctReach px and
// cardDistinctDist bits; not the card's own other example, not a keypoint
// a little farther or less alike, not an example of another size.
func TestCardDistinctShared(t *testing.T) {
	base := [4]uint64{0x0123456789abcdef, 0xfedcba9876543210, 0x0f0f0f0f0f0f0f0f, 0x3333cccc3333cccc}
	other := cardFlip(base, 128) // far from base
	keys := func(w, h int, pts []geom.Point, desc ...[4]uint64) *cardKeys {
		return &cardKeys{w: w, h: h, pts: pts, desc: desc}
	}
	a := keys(cardKeyW, cardKeyH, []geom.Point{{X: 10, Y: 10}, {X: 50, Y: 50}, {X: 80, Y: 120}, {X: 30, Y: 90}, {X: 60, Y: 20}}, base, base, base, base, base)
	ix := &CardIndex{entries: []cardEntry{
		{id: "a", keys: a},
		// a's second example: the same keypoints, never a rival.
		{id: "a", keys: keys(cardKeyW, cardKeyH, []geom.Point{{X: 10, Y: 10}, {X: 50, Y: 50}, {X: 80, Y: 120}, {X: 30, Y: 90}, {X: 60, Y: 20}}, base, base, base, base, base)},
		{id: "b", keys: keys(cardKeyW, cardKeyH,
			[]geom.Point{
				{X: 12, Y: 11},                         // within reach of a's first, alike: shared
				{X: 50 + cardDistinctReach + 1, Y: 50}, // alike but beyond reach
				{X: 80, Y: 120},                        // at the place but far in bits
				{X: 30.5, Y: 90},                       // at the place, just alike enough
			},
			cardFlip(base, 20), base, other, cardFlip(base, cardDistinctDist))},
		// Of another size (taught lying): not compared with a's.
		{id: "c", keys: keys(cardKeyH, cardKeyW, []geom.Point{{X: 60, Y: 20}}, base)},
		{id: "a"}, // a grown entry: no keypoints
	}}
	d := newCardDistinct(ix)
	got := d.sharedOf("a", a)
	want := []bool{true, false, false, true, false}
	for j := range want {
		if got[j] != want[j] {
			t.Errorf("keypoint %d at %v: shared %v, want %v", j, a.pts[j], got[j], want[j])
		}
	}
	// A card taught alone shares nothing.
	alone := &CardIndex{entries: []cardEntry{{id: "a", keys: a}}}
	for j, s := range newCardDistinct(alone).sharedOf("a", a) {
		if s {
			t.Errorf("card taught alone: keypoint %d shared", j)
		}
	}
}

// TestCardVerifyDistinct checks that verifyKeys counts, of the keypoints
// found and taught, those shared apart.
func TestCardVerifyDistinct(t *testing.T) {
	k := newCardKeyer()
	defer k.close()
	const m = cardVerifyMargin
	ks := &cardKeys{w: cardKeyW, h: cardKeyH}
	for i := range 40 {
		x, y := float32(5+(i%8)*11), float32(8+(i/8)*24)
		d := [4]uint64{uint64(i) * 0x9e3779b97f4a7c15, uint64(i) * 0xc2b2ae3d27d4eb4f, uint64(i+7) * 0x165667b19e3779f9, uint64(i+3) * 0x27d4eb2f165667c5}
		ks.pts = append(ks.pts, geom.Point{X: x, Y: y})
		ks.desc = append(ks.desc, d)
		// Every other keypoint is taken again where taught.
		if i%2 == 0 {
			k.qpts = append(k.qpts, geom.Point{X: x + m, Y: y + m})
			k.qdesc = append(k.qdesc, d)
		}
	}
	k.grid(image.Pt(cardKeyW+2*m, cardKeyH+2*m))
	shared := make([]bool, len(ks.pts))
	for i := range shared {
		shared[i] = i%4 < 3 // three in four shared
	}
	v := k.verifyKeys(ks, nil, shared)
	if v.taught != 40 || v.found != 20 {
		t.Fatalf("found %d of %d, want 20 of 40", v.found, v.taught)
	}
	// Distinct: i%4 == 3, 10 of them; found (even i): none.
	if v.distinctTaught != 10 || v.distinctFound != 0 {
		t.Errorf("distinct: found %d of %d, want 0 of 10", v.distinctFound, v.distinctTaught)
	}
	for i := range shared {
		shared[i] = i%4 == 3 // i%4 in 0..2 distinct: 30, of them 20 found
	}
	v = k.verifyKeys(ks, nil, shared)
	if v.distinctTaught != 30 || v.distinctFound != 20 {
		t.Errorf("distinct: found %d of %d, want 20 of 30", v.distinctFound, v.distinctTaught)
	}
	if v = k.verifyKeys(ks, nil, nil); v.distinctTaught != v.taught || v.distinctFound != v.found {
		t.Errorf("nothing shared: distinct %d of %d, want %d of %d", v.distinctFound, v.distinctTaught, v.found, v.taught)
	}
}

// TestCardVerifyCells checks the cells of the grid over the card that
// verifyKeys counts: those of the keypoints taught, of those found, and of
// the distinct ones found.
func TestCardVerifyCells(t *testing.T) {
	k := newCardKeyer()
	defer k.close()
	const m = cardVerifyMargin
	ks := &cardKeys{w: cardKeyW, h: cardKeyH}
	// A keypoint at the centre of each of the 4×4 cells (a 96×134 card).
	for i := range cardVerifyCells * cardVerifyCells {
		cx, cy := i%cardVerifyCells, i/cardVerifyCells
		x := (float32(cx) + 0.5) * cardKeyW / cardVerifyCells
		y := (float32(cy) + 0.5) * cardKeyH / cardVerifyCells
		d := [4]uint64{uint64(i+1) * 0x9e3779b97f4a7c15, uint64(i+1) * 0xc2b2ae3d27d4eb4f, uint64(i+8) * 0x165667b19e3779f9, uint64(i+4) * 0x27d4eb2f165667c5}
		ks.pts = append(ks.pts, geom.Point{X: x, Y: y})
		ks.desc = append(ks.desc, d)
		// Taken again in the left half of the card only.
		if cx < cardVerifyCells/2 {
			k.qpts = append(k.qpts, geom.Point{X: x + m, Y: y + m})
			k.qdesc = append(k.qdesc, d)
		}
	}
	k.grid(image.Pt(cardKeyW+2*m, cardKeyH+2*m))
	shared := make([]bool, len(ks.pts))
	for i := range shared {
		shared[i] = i/cardVerifyCells == 0 // the top row is shared
	}
	v := k.verifyKeys(ks, nil, shared)
	if v.found != 8 {
		t.Fatalf("found %d keypoints, want 8", v.found)
	}
	cells, distinct, taught := bits.OnesCount64(v.cells), bits.OnesCount64(v.distinctCells), bits.OnesCount64(v.taughtCells)
	if taught != 16 || cells != 8 || distinct != 6 {
		t.Errorf("cells taught %d, found %d, distinct found %d; want 16, 8, 6", taught, cells, distinct)
	}
	// The left half: bits 0, 1, 4, 5, 8, 9, 12, 13.
	if want := uint64(0x3333); v.cells != want {
		t.Errorf("cells found %#x, want %#x", v.cells, want)
	}
}

// TestCardRefVerifiedSpread checks the band's rule of keypoints spread
// over the card (cardRefSpreadShare, cardRefSpreadCells,
// cardRefSpreadDistinct) and that it does not take a match the other
// rules would not when any of the three falls short.
func TestCardRefVerifiedSpread(t *testing.T) {
	cellsOf := func(n int) uint64 { return 1<<n - 1 }
	spread := cardVerified{found: 40, taught: 200, distinctFound: 9, distinctTaught: 120, // 20%: 4.5%
		cells: cellsOf(cardRefSpreadCells), distinctCells: cellsOf(cardRefSpreadDistinct)}
	if !cardRefVerified(false, spread) {
		t.Errorf("a band match spread over %d cells (%d distinct) at 20%% does not stand", cardRefSpreadCells, cardRefSpreadDistinct)
	}
	for name, v := range map[string]cardVerified{
		"one cell fewer":          {found: 40, taught: 200, cells: cellsOf(cardRefSpreadCells - 1), distinctCells: cellsOf(cardRefSpreadDistinct)},
		"one distinct cell fewer": {found: 40, taught: 200, cells: cellsOf(cardRefSpreadCells), distinctCells: cellsOf(cardRefSpreadDistinct - 1)},
		"a smaller share":         {found: 39, taught: 200, cells: cellsOf(cardRefSpreadCells), distinctCells: cellsOf(cardRefSpreadDistinct)},
		"too few found":           {found: cardRefBandFound - 1, taught: 100, cells: cellsOf(16), distinctCells: cellsOf(16)},
	} {
		if cardRefVerified(false, v) {
			t.Errorf("%s: the band match stands", name)
		}
	}
}

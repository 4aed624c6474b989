package index

import (
	"image"
	"math/bits"
	"testing"

	"tablecam/vision/geom"
)

// flip returns d with its first n bits flipped.
func flip(d [4]uint64, n int) [4]uint64 {
	for b := range n {
		d[b/64] ^= 1 << (b % 64)
	}
	return d
}

// TestCardDistinctShared checks which taught keypoints count as shared:
// another card's keypoint within distinctReach px and
// distinctDist bits; not the card's own other example, not a keypoint
// a little farther or less alike, not an example of another size.
func TestCardDistinctShared(t *testing.T) {
	base := [4]uint64{0x0123456789abcdef, 0xfedcba9876543210, 0x0f0f0f0f0f0f0f0f, 0x3333cccc3333cccc}
	other := flip(base, 128) // far from base
	keys := func(w, h int, pts []geom.Point, desc ...[4]uint64) *Keys {
		return &Keys{W: w, H: h, Pts: pts, Desc: desc}
	}
	a := keys(KeyW, cardKeyH, []geom.Point{{X: 10, Y: 10}, {X: 50, Y: 50}, {X: 80, Y: 120}, {X: 30, Y: 90}, {X: 60, Y: 20}}, base, base, base, base, base)
	ix := &Index{entries: []Entry{
		{ID: "a", Keys: a},
		// a's second example: the same keypoints, never a rival.
		{ID: "a", Keys: keys(KeyW, cardKeyH, []geom.Point{{X: 10, Y: 10}, {X: 50, Y: 50}, {X: 80, Y: 120}, {X: 30, Y: 90}, {X: 60, Y: 20}}, base, base, base, base, base)},
		{ID: "b", Keys: keys(KeyW, cardKeyH,
			[]geom.Point{
				{X: 12, Y: 11},                     // within reach of a's first, alike: shared
				{X: 50 + distinctReach + 1, Y: 50}, // alike but beyond reach
				{X: 80, Y: 120},                    // at the place but far in bits
				{X: 30.5, Y: 90},                   // at the place, just alike enough
			},
			flip(base, 20), base, other, flip(base, distinctDist))},
		// Of another size (taught lying): not compared with a's.
		{ID: "c", Keys: keys(cardKeyH, KeyW, []geom.Point{{X: 60, Y: 20}}, base)},
		{ID: "a"}, // a grown entry: no keypoints
	}}
	d := NewDistinct(ix)
	got := d.SharedOf("a", a)
	want := []bool{true, false, false, true, false}
	for j := range want {
		if got[j] != want[j] {
			t.Errorf("keypoint %d at %v: shared %v, want %v", j, a.Pts[j], got[j], want[j])
		}
	}
	// A card taught alone shares nothing.
	alone := &Index{entries: []Entry{{ID: "a", Keys: a}}}
	for j, s := range NewDistinct(alone).SharedOf("a", a) {
		if s {
			t.Errorf("card taught alone: keypoint %d shared", j)
		}
	}
}

// TestCardVerifyDistinct checks that verifyKeys counts, of the keypoints
// found and taught, those shared apart.
func TestCardVerifyDistinct(t *testing.T) {
	k := NewKeyer()
	defer k.Close()
	const m = verifyMargin
	ks := &Keys{W: KeyW, H: cardKeyH}
	for i := range 40 {
		x, y := float32(5+(i%8)*11), float32(8+(i/8)*24)
		d := [4]uint64{uint64(i) * 0x9e3779b97f4a7c15, uint64(i) * 0xc2b2ae3d27d4eb4f, uint64(i+7) * 0x165667b19e3779f9, uint64(i+3) * 0x27d4eb2f165667c5}
		ks.Pts = append(ks.Pts, geom.Point{X: x, Y: y})
		ks.Desc = append(ks.Desc, d)
		// Every other keypoint is taken again where taught.
		if i%2 == 0 {
			k.QPts = append(k.QPts, geom.Point{X: x + m, Y: y + m})
			k.QDesc = append(k.QDesc, d)
		}
	}
	k.grid(image.Pt(KeyW+2*m, cardKeyH+2*m))
	shared := make([]bool, len(ks.Pts))
	for i := range shared {
		shared[i] = i%4 < 3 // three in four shared
	}
	v := k.verifyKeys(ks, nil, shared)
	if v.Taught != 40 || v.Found != 20 {
		t.Fatalf("found %d of %d, want 20 of 40", v.Found, v.Taught)
	}
	// Distinct: i%4 == 3, 10 of them; found (even i): none.
	if v.DistinctTaught != 10 || v.DistinctFound != 0 {
		t.Errorf("distinct: found %d of %d, want 0 of 10", v.DistinctFound, v.DistinctTaught)
	}
	for i := range shared {
		shared[i] = i%4 == 3 // i%4 in 0..2 distinct: 30, of them 20 found
	}
	v = k.verifyKeys(ks, nil, shared)
	if v.DistinctTaught != 30 || v.DistinctFound != 20 {
		t.Errorf("distinct: found %d of %d, want 20 of 30", v.DistinctFound, v.DistinctTaught)
	}
	if v = k.verifyKeys(ks, nil, nil); v.DistinctTaught != v.Taught || v.DistinctFound != v.Found {
		t.Errorf("nothing shared: distinct %d of %d, want %d of %d", v.DistinctFound, v.DistinctTaught, v.Found, v.Taught)
	}
}

// TestCardVerifyCells checks the cells of the grid over the card that
// verifyKeys counts: those of the keypoints taught, of those found, and of
// the distinct ones found.
func TestCardVerifyCells(t *testing.T) {
	k := NewKeyer()
	defer k.Close()
	const m = verifyMargin
	ks := &Keys{W: KeyW, H: cardKeyH}
	// A keypoint at the centre of each of the 4×4 cells (a 96×134 card).
	for i := range verifyCells * verifyCells {
		cx, cy := i%verifyCells, i/verifyCells
		x := (float32(cx) + 0.5) * KeyW / verifyCells
		y := (float32(cy) + 0.5) * cardKeyH / verifyCells
		d := [4]uint64{uint64(i+1) * 0x9e3779b97f4a7c15, uint64(i+1) * 0xc2b2ae3d27d4eb4f, uint64(i+8) * 0x165667b19e3779f9, uint64(i+4) * 0x27d4eb2f165667c5}
		ks.Pts = append(ks.Pts, geom.Point{X: x, Y: y})
		ks.Desc = append(ks.Desc, d)
		// Taken again in the left half of the card only.
		if cx < verifyCells/2 {
			k.QPts = append(k.QPts, geom.Point{X: x + m, Y: y + m})
			k.QDesc = append(k.QDesc, d)
		}
	}
	k.grid(image.Pt(KeyW+2*m, cardKeyH+2*m))
	shared := make([]bool, len(ks.Pts))
	for i := range shared {
		shared[i] = i/verifyCells == 0 // the top row is shared
	}
	v := k.verifyKeys(ks, nil, shared)
	if v.Found != 8 {
		t.Fatalf("found %d keypoints, want 8", v.Found)
	}
	cells, distinct, taught := bits.OnesCount64(v.Cells), bits.OnesCount64(v.DistinctCells), bits.OnesCount64(v.TaughtCells)
	if taught != 16 || cells != 8 || distinct != 6 {
		t.Errorf("cells taught %d, found %d, distinct found %d; want 16, 8, 6", taught, cells, distinct)
	}
	// The left half: bits 0, 1, 4, 5, 8, 9, 12, 13.
	if want := uint64(0x3333); v.Cells != want {
		t.Errorf("cells found %#x, want %#x", v.Cells, want)
	}
}

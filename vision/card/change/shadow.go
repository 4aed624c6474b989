package change

import (
	"image"
	"math"

	"tablecam/vision/geom"
)

// ShadowIn reports whether the frame inside outline q is the table
// darkened by about one factor (cardRefShadowMin … shadowFit): a
// shadow cast beside a card held over the table, whose soft, noisy pixels
// changed's test of each pixel does not take for one.
func (c *Ref) ShadowIn(q [4]geom.Point) bool {
	cur, ref, mask, ok := c.ShadowData()
	if !ok || !geom.QuadFinite(q) {
		return false
	}
	const s = Shrink
	w, h := c.Mask.Cols(), c.Mask.Rows()
	gain := c.Gain(cur, ref, mask)
	box := geom.QuadBox(q)
	sb := image.Rect(box.Min.X/s, box.Min.Y/s, (box.Max.X+s-1)/s, (box.Max.Y+s-1)/s).Intersect(image.Rect(0, 0, w, h))
	px := func(x int) float32 { return float32(x*s + s/2) }
	var sums ShadowSums
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		x0, x1 := RowSpan(q, px(y), s, sb.Min.X, sb.Max.X)
		for i := y*w + x0; i < y*w+x1; i++ {
			sums.Add(cur[3*i:3*i+3], ref[3*i:3*i+3])
		}
	}
	return sums.Shadow(gain)
}

// ShadowData returns the shrunk frame, reference and mask for shadowIn
// and blobFree's shadow test; false when they do not fit together.
func (c *Ref) ShadowData() (cur, ref, mask []byte, ok bool) {
	var err error
	if cur, err = c.Cur.DataPtrUint8(); err != nil {
		return nil, nil, nil, false
	}
	if ref, err = c.Small.DataPtrUint8(); err != nil {
		return nil, nil, nil, false
	}
	if mask, err = c.Mask.DataPtrUint8(); err != nil {
		return nil, nil, nil, false
	}
	w, h := c.Mask.Cols(), c.Mask.Rows()
	return cur, ref, mask, len(cur) >= 3*w*h && len(ref) >= 3*w*h && len(mask) >= w*h
}

// Gain is each channel's factor from the reference to the frame over the
// unchanged pixels (the exposure), computed once a frame.
func (c *Ref) Gain(cur, ref, mask []byte) [3]float64 {
	if c.tableGainOK {
		return c.tableGain
	}
	w, h := c.Mask.Cols(), c.Mask.Rows()
	// Integer sums: the same as adding the pixels as doubles (exact below
	// 2⁵³), without a conversion per channel.
	var sums [6]uint64
	cur, ref, mask = cur[:3*w*h], ref[:3*w*h], mask[:w*h]
	for i, m := range mask {
		if m != 0 {
			continue
		}
		c, r := cur[3*i:3*i+3], ref[3*i:3*i+3]
		sums[0] += uint64(c[0])
		sums[1] += uint64(c[1])
		sums[2] += uint64(c[2])
		sums[3] += uint64(r[0])
		sums[4] += uint64(r[1])
		sums[5] += uint64(r[2])
	}
	for k := range 3 {
		c.tableGain[k] = float64(sums[k]) / max(1, float64(sums[3+k]))
	}
	c.tableGainOK = true
	return c.tableGain
}

// ShadowSums adds up pixels of the shrunk frame and the reference for
// the test of a shadow: their sums, squares and products by channel.
type ShadowSums struct {
	n                int
	c, r, cc, cr, rr [3]float64
}

// Add adds the BGR pixel cur of the frame and ref of the reference.
func (s *ShadowSums) Add(cur, ref []byte) {
	for k := range 3 {
		c, r := float64(cur[k]), float64(ref[k])
		s.c[k] += c
		s.r[k] += r
		s.cc[k] += c * c
		s.cr[k] += c * r
		s.rr[k] += r * r
	}
	s.n++
}

// Shadow reports whether the pixels added are the table darkened by about
// one factor: each channel's factor inside (its sum over the reference's),
// against gain, within cardRefShadowMin … shadowMax and less than
// cardRefShadowSpread apart, and the pixels off the reference darkened by
// it by at most shadowFit of its level (root mean square).
func (s *ShadowSums) Shadow(gain [3]float64) bool {
	if s.n == 0 {
		return false
	}
	var a [3]float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := range 3 {
		a[k] = s.c[k] / max(1, s.r[k])
		f := a[k] / max(1e-9, gain[k])
		lo, hi = min(lo, f), max(hi, f)
	}
	if lo < cardRefShadowMin || hi > shadowMax || hi-lo >= cardRefShadowSpread {
		return false
	}
	// Σ(c − a·r)² and Σ a·r, from the sums.
	var off, level float64
	for k := range 3 {
		off += s.cc[k] - 2*a[k]*s.cr[k] + a[k]*a[k]*s.rr[k]
		level += a[k] * s.r[k]
	}
	m := float64(3 * s.n)
	return math.Sqrt(max(0, off)/m) <= shadowFit*max(1, level/m)
}

// A shadow soft at its edges is the table darkened by a factor that
// changes across it; one cast by a card and the hand holding it, by two.
// Cards held over felt (BenchmarkReadCards720pHeld) left such a shadow of
// 7 smallest cards beside them, and the one-factor test
// (ShadowSums.shadow) failed it in about one frame in four (its fit
// 0.19–0.22 against shadowFit 0.2), each then read in full. The
// soft-shadow test takes the factor in tiles of ShadowTile shrunk
// pixels (32 full-resolution pixels) instead: what is left in tiles that
// fail the one-factor test, and in tiles too sparse to be tested (fewer
// than shadowTileMin of their pixels left: a blob's ragged rim), is
// unshaded. On those frames (3 scenes a table, 6 tables) it leaves every
// held frame followed but the first and every 10th of each scene, and one
// on the playmat, whose shadow crosses the mat's sharp pattern (with
// tiles of 4 or 6 pixels, or shadowTileMin 0.25: 2 to 4 playmat
// frames).
const (
	ShadowTile    = 8
	shadowTileMin = 0.1
)

// Unshaded is how many of the pixels added to tiles lie outside the
// tiles that are a shadow (ShadowTile).
func Unshaded(tiles []ShadowSums, gain [3]float64) int {
	n := 0
	for i := range tiles {
		if t := &tiles[i]; t.n > 0 && (float64(t.n) < shadowTileMin*ShadowTile*ShadowTile || !t.Shadow(gain)) {
			n += t.n
		}
	}
	return n
}

package change

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "changed.h"
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"unsafe"

	"gocv.io/x/gocv"
)

// The comparison with the reference.
const (
	// cardRefShrink is the factor the frame and the reference are shrunk
	// by for the comparison.
	Shrink = 4
	// cardRefLevel is the largest channel difference (shrunk frame) at
	// which a pixel counts as changed.
	cardRefLevel = 20
	// cardRefMaxShare is the share of the frame that may differ from the
	// reference for it to be used.
	cardRefMaxShare = 0.5
	// A shadow darkens the table's channels by about one factor: at least
	// cardRefShadowMin, the factors less than cardRefShadowSpread apart.
	cardRefShadowMin    = 0.3
	cardRefShadowSpread = 0.12
	// A pixel that fails that test is still a shadow's when the 3×3
	// pixels around it (the shrunk frame's: 12×12 of the camera's) pass
	// it on their means, and each is darker than the table's by more than
	// cardRefShadowNearDark over its three channels, their factors less
	// than cardRefShadowNearRange apart (cardRefShadowNear). A soft shadow
	// on a dark table fails the test of each pixel on the camera's noise
	// (felt's red channel is about 30: noise of 2.5 there moves its factor
	// by 0.08), and the shadow then joins the card's blob, which the
	// outline finder and the keypoint search must then read. A sticker's squares, a card's
	// art or its edge in the 3×3 fail the range or the darkening.
	cardRefShadowNearRange = 0.25
	cardRefShadowNearDark  = 6
	// An outline matching no taught card is a shadow, not an unknown card,
	// when its pixels are the table's darkened by about one factor
	// (shadowIn): each channel's factor (against the unchanged pixels') at
	// least cardRefShadowMin and at most cardRefShadowMax, the three less
	// than cardRefShadowSpread apart, and the pixels off that darkened
	// table by at most cardRefShadowFit of its level (root mean square).
	// Training scenes of untaught cards with the empty table, the outlines
	// reported unknown and at least cardRefUnknownChanged of them changed:
	// 24 of the 27 on no card are such shadows, none of the 1,150 on a
	// card; a card's own pixels are off the table's by 0.3 and more.
	shadowMax = 0.97
	shadowFit = 0.2
	// cardRefClean is the least share of its quadrilateral a blob fills
	// for the blob to be a card alone, whose outline the blob gives (the
	// outline finder does not search it).
	cleanShare = 0.8
	// cardRefPartClean is cardRefClean for a blob's part with the skin
	// taken out (a thumb over the card takes a bite out of it, and so do
	// skin-coloured parts of its art at its edge).
	partCleanShare = 0.6
)

// changeRef is a reference of the empty table and what differs from it
// in the frame last compared, with its buffers.
type Ref struct {
	Small      gocv.Mat // the reference shrunk (BGR)
	Cur, Mask  gocv.Mat // the frame shrunk, its changed pixels
	Conv       gocv.Mat // a BGRA or grey reference converted
	Kernel     gocv.Mat
	up         gocv.Mat // a place of mask at full resolution
	Size       image.Point
	Has        bool
	Blobs      []Blob
	Parts      []Blob   // clean parts of blobs that are not, their skin taken out
	part       gocv.Mat // a blob's place of mask, skin taken out
	partRaw    gocv.Mat // c.part before the opening
	skin       gocv.Mat // c.part's skin-coloured pixels
	labels     gocv.Mat // their connected parts
	rim        []bool   // by label: the part reaches the blob's rim
	kernel3    gocv.Mat // 3×3: the hand's rim
	partKernel gocv.Mat // closes a part's gaps
	RawMask    gocv.Mat // c.mask before its closing and opening
	near       gocv.Mat // a place's rawMask dilated (keepNearChanged)
	nearKernel gocv.Mat // near's dilation: cardRefNear each way
	nearRow    []uint8  // keepNearChanged's row of near spread to the picture's columns
	nearCol    []int32  // keepNearChanged's column of near by a pixel's
	// keepNear is keepNearChanged bound once (newChangeRef): set as the
	// sticker search's and the outline finder's filter it allocates
	// nothing per frame.
	KeepNear func(bin []uint8, cols, rows int, origin image.Point, scale float64)
	// tableGain is each channel's factor from the reference to the frame
	// over the unchanged pixels (shadowIn; set when tableGainOK).
	tableGain   [3]float64
	tableGainOK bool
}

// cardRefBlob is one changed region: its box (full resolution), its
// changed area (full-resolution pixels) and its smallest enclosing
// rectangle (full resolution).
type Blob struct {
	Box  image.Rectangle
	Area float64
	Rect [4]geom.Point
	// quad is the quadrilateral around it (when hasQuad); clean when the
	// blob fills it (a card alone: no hand, no other card touching it).
	Quad           [4]geom.Point
	HasQuad, Clean bool
	// rest is a blob's changed area once the hand is taken out, read the
	// area of its parts read as cards; parent is a part's blob.
	Rest, Read float64
	Parent     int
	// readAt is 1 + the index in cardRef.pre of a part's reading as a
	// card (0: none).
	ReadAt int
}

// newChangeRef returns a reference without a picture (has false).
func NewRef() Ref {
	c := Ref{Small: gocv.NewMat(), Cur: gocv.NewMat(), Mask: gocv.NewMat(), Conv: gocv.NewMat(),
		Kernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(5, 5)), up: gocv.NewMat(),
		part: gocv.NewMat(), partRaw: gocv.NewMat(), skin: gocv.NewMat(), labels: gocv.NewMat(), kernel3: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)), partKernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(9, 9)),
		RawMask: gocv.NewMat(), near: gocv.NewMat(), nearKernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(2*Near+1, 2*Near+1))}
	return c
}

func (c *Ref) Close() {
	for _, m := range []*gocv.Mat{&c.Small, &c.Cur, &c.Mask, &c.Conv, &c.Kernel, &c.up, &c.part, &c.partRaw, &c.skin, &c.labels, &c.kernel3, &c.partKernel, &c.RawMask, &c.near, &c.nearKernel} {
		m.Close()
	}
}

// cardRefShrinkTo shrinks src by cardRefShrink into dst (linear
// interpolation), rounding the sides up.
func ShrinkTo(src gocv.Mat, dst *gocv.Mat) {
	w, h := (src.Cols()+Shrink-1)/Shrink, (src.Rows()+Shrink-1)/Shrink
	gocv.Resize(src, dst, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
}

// changed fills c.mask with the pixels of c.cur that differ from c.small
// by cardRefLevel in a channel, after taking out each channel's median
// difference (the exposure); false when more than cardRefMaxShare differ.
func (c *Ref) Changed() (bool, error) {
	if c.Cur.Cols() != c.Small.Cols() || c.Cur.Rows() != c.Small.Rows() || c.Cur.Type() != gocv.MatTypeCV8UC3 || c.Small.Type() != gocv.MatTypeCV8UC3 {
		return false, errors.New("card: card reference: sizes differ")
	}
	if c.Mask.Cols() != c.Cur.Cols() || c.Mask.Rows() != c.Cur.Rows() || c.Mask.Type() != gocv.MatTypeCV8U {
		c.Mask.Close()
		c.Mask = gocv.NewMatWithSize(c.Cur.Rows(), c.Cur.Cols(), gocv.MatTypeCV8U)
	}
	cur, err := c.Cur.DataPtrUint8()
	if err != nil {
		return false, fmt.Errorf("card reference: %w", err)
	}
	ref, err := c.Small.DataPtrUint8()
	if err != nil {
		return false, fmt.Errorf("card reference: %w", err)
	}
	out, err := c.Mask.DataPtrUint8()
	if err != nil {
		return false, fmt.Errorf("card reference: %w", err)
	}
	n := len(out)
	if len(cur) < 3*n || len(ref) < 3*n {
		return false, errors.New("card: card reference: short buffer")
	}
	c.tableGainOK = false
	if n == 0 {
		return true, nil
	}
	changed := int(C.tc_ref_changed((*C.uint8_t)(unsafe.Pointer(&cur[0])), (*C.uint8_t)(unsafe.Pointer(&ref[0])), (*C.uint8_t)(unsafe.Pointer(&out[0])),
		C.int32_t(c.Mask.Cols()), C.int32_t(c.Mask.Rows()), C.int32_t(cardRefLevel), C.double(cardRefShadowMin), C.double(cardRefShadowSpread),
		C.double(cardRefShadowNearRange), C.int32_t(cardRefShadowNearDark)))
	return float64(changed) <= cardRefMaxShare*float64(n), nil
}

// changedIn is the share of the quadrilateral q (full-resolution pixels)
// that differs from the reference, sampled on the shrunk mask.
func (c *Ref) ChangedIn(q [4]geom.Point) float64 {
	mask, err := c.Mask.DataPtrUint8()
	if err != nil {
		return 1
	}
	const s = Shrink
	w := c.Mask.Cols()
	box := geom.QuadBox(q)
	sb := image.Rect(box.Min.X/s, box.Min.Y/s, (box.Max.X+s-1)/s, (box.Max.Y+s-1)/s).Intersect(image.Rect(0, 0, w, c.Mask.Rows()))
	in, changed := 0, 0
	// Corners far from the picture (or not numbers) take every test.
	finite := geom.QuadFinite(q)
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		if finite {
			x0, x1 := RowSpan(q, float32(y*s+s/2), s, sb.Min.X, sb.Max.X)
			in += x1 - x0
			for _, v := range mask[y*w+x0 : y*w+x1] {
				if v != 0 {
					changed++
				}
			}
			continue
		}
		for x := sb.Min.X; x < sb.Max.X; x++ {
			if !geom.InQuad(geom.Point{X: float32(x*s + s/2), Y: float32(y*s + s/2)}, q) {
				continue
			}
			in++
			if mask[y*w+x] != 0 {
				changed++
			}
		}
	}
	if in == 0 {
		return 1
	}
	return float64(changed) / float64(in)
}

// changedAdded is the share of what outline large adds to outline small
// (lying mostly inside it) that differs from the reference: the changed
// areas' difference over the outlines' (0 where large adds nothing).
func (c *Ref) ChangedAdded(large, small [4]geom.Point) float64 {
	al, as := geom.QuadArea(large), geom.QuadArea(small)
	if al <= as {
		return 0
	}
	return (c.ChangedIn(large)*al - c.ChangedIn(small)*as) / (al - as)
}

// shadowIn reports whether the frame inside outline q is the table
// darkened by about one factor (cardRefShadowMin … cardRefShadowFit): a
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

// shadowData returns the shrunk frame, reference and mask for shadowIn
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

// gain is each channel's factor from the reference to the frame over the
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

// cardShadowSums adds up pixels of the shrunk frame and the reference for
// the test of a shadow: their sums, squares and products by channel.
type ShadowSums struct {
	n                int
	c, r, cc, cr, rr [3]float64
}

// add adds the BGR pixel cur of the frame and ref of the reference.
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

// shadow reports whether the pixels added are the table darkened by about
// one factor: each channel's factor inside (its sum over the reference's),
// against gain, within cardRefShadowMin … cardRefShadowMax and less than
// cardRefShadowSpread apart, and the pixels off the reference darkened by
// it by at most cardRefShadowFit of its level (root mean square).
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

// cardQuadRowSpan returns the span x0 … x1 (exclusive; within the x0 … x1
// given) of a row at py where geom.InQuad(geom.Point{float32(x·s + s/2),
// py}, q) holds (the grid of the shrunk mask, s pixels a step), q's corners
// within ±1e7: each side's test along the row is monotonic in x (rounding
// keeps the order of the points' X - a.X, and of a product with a constant
// and a difference from one), so the points passing it are a prefix or a
// suffix of the row (all or none for a side along the row), whose end is
// found with the very test: from where the side crosses the row, step by
// step to where the test changes (a step or two); the points passing all
// four are where the four spans meet. A few tests per side instead of four
// per point.
func RowSpan(q [4]geom.Point, py float32, s, x0, x1 int) (int, int) {
	for k := range 4 {
		if x0 >= x1 {
			return x0, x0
		}
		a, b := q[k], q[(k+1)%4]
		ex, ey, ay := float64(b.X-a.X), float64(b.Y-a.Y), float64(py-a.Y)
		// pass(x) is geom.InQuad's test of this side at column x.
		pass := func(x int) bool { return !(ex*ay-ey*float64(float32(x*s+s/2)-a.X) < 0) }
		n := x1 - x0
		if ey == 0 { // the same along the row
			if !pass(x0) {
				return x0, x0
			}
			continue
		}
		// Where the side crosses the row, as a column from x0, within
		// 0 … n.
		at := (float64(a.X) + ex*ay/ey - float64(s/2)) / float64(s)
		h := n
		if e := math.Ceil(at) - float64(x0); e < float64(n) {
			h = int(max(0, e))
		} // e NaN or from n on: n
		switch {
		case ey > 0: // the test's value falls along the row: a prefix passes
			// The first that fails: none before it fails.
			for h < n && pass(x0+h) {
				h++
			}
			for h > 0 && !pass(x0+h-1) {
				h--
			}
			x1 = x0 + h
		default: // it rises: a suffix passes
			// The first that passes: none before it passes.
			for h < n && !pass(x0+h) {
				h++
			}
			for h > 0 && pass(x0+h-1) {
				h--
			}
			x0 += h
		}
	}
	return x0, x1
}

// findBlobs fills c.blobs with the changed regions of c.mask of at least
// minArea full-resolution pixels.
func (c *Ref) FindBlobs(minArea float64) {
	c.Blobs = c.Blobs[:0]
	pv := gocv.FindContours(c.Mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer pv.Close()
	const s = Shrink
	for i := range pv.Size() {
		ct := pv.At(i)
		area := gocv.ContourArea(ct) * s * s
		if area < minArea {
			continue
		}
		c.Blobs = append(c.Blobs, blobOf(geom.ConvexHull(ct.ToPoints()), gocv.BoundingRect(ct), area))
	}
}

// cardRefBlobOf is the blob of the convex hull hull, bounding box box
// (pixels of the shrunk picture) and area (full-resolution pixels).
func blobOf(hull []image.Point, box image.Rectangle, area float64) Blob {
	const s = Shrink
	b := Blob{Box: image.Rectangle{Min: box.Min.Mul(s), Max: box.Max.Mul(s)}, Area: area, Rect: minRect(hull, s)}
	b.Quad, b.HasQuad = hullQuad(hull, s)
	b.Clean = b.HasQuad && area >= cleanShare*geom.QuadArea(b.Quad)
	return b
}

// findParts fills c.parts with the clean parts of the blobs that are not
// clean once their skin-coloured pixels are taken out and the rest opened:
// a card and the thumb over its edge or the hand holding it make one blob
// that is no card's shape, the card alone is one. Parts at least minArea
// full-resolution pixels, not on a clean blob or another part.
func (c *Ref) FindParts(minArea float64) error {
	c.Parts = c.Parts[:0]
	for bi := range c.Blobs {
		if c.Blobs[bi].Clean {
			continue
		}
		if err := c.FindPartsOf(bi, minArea); err != nil {
			return err
		}
	}
	return nil
}

// findPartsOf adds the clean parts of blob bi (not clean) to c.parts
// (findParts).
func (c *Ref) FindPartsOf(bi int, minArea float64) error {
	const s = Shrink
	w := c.Mask.Cols()
	cur, err := c.Cur.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("card reference parts: %w", err)
	}
	b := &c.Blobs[bi]
	sb := image.Rect(b.Box.Min.X/s, b.Box.Min.Y/s, b.Box.Max.X/s, b.Box.Max.Y/s).Intersect(image.Rect(0, 0, w, c.Mask.Rows()))
	reg := c.Mask.Region(sb)
	reg.CopyTo(&c.part)
	reg.Close()
	skin, err := c.takeHand(cur[3*(sb.Min.Y*w+sb.Min.X):], w)
	if err != nil {
		return err
	}
	if skin == 0 {
		return nil // the blob is not a hand and a card
	}
	b.Rest = b.Area - float64(skin*s*s)
	// Opened (a hand's rim cut off), and also closed first (a card
	// like the table in places leaves gaps).
	c.part.CopyTo(&c.partRaw)
	gocv.MorphologyEx(c.part, &c.part, gocv.MorphOpen, c.Kernel)
	c.addParts(sb.Min, bi, minArea)
	gocv.MorphologyEx(c.partRaw, &c.part, gocv.MorphClose, c.partKernel)
	gocv.MorphologyEx(c.part, &c.part, gocv.MorphOpen, c.Kernel)
	c.addParts(sb.Min, bi, minArea)
	return nil
}

// takeHand clears the pixels of c.part (a blob's place of the mask) that
// are skin-coloured in cur (the shrunk frame from the place's top-left
// pixel on, w pixels a row) and connected to the blob's rim: the hand
// reaching in and the thumb over the card's edge, not skin-coloured art
// inside the card. It returns how many it cleared.
func (c *Ref) takeHand(cur []byte, w int) (int, error) {
	pw, ph := c.part.Cols(), c.part.Rows()
	p, err := c.part.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	c.part.CopyTo(&c.skin) // its size and type; every pixel is set below
	sk, err := c.skin.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	any := false
	for y := range ph {
		for x := range pw {
			i := y*pw + x
			sk[i] = 0
			if p[i] != 0 && geom.Skin(cur[3*(y*w+x):]) {
				sk[i] = 255
				any = true
			}
		}
	}
	if !any {
		return 0, nil
	}
	// 16-bit labels: a place of the shrunk frame has fewer pixels.
	n := gocv.ConnectedComponentsWithParams(c.skin, &c.labels, 8, gocv.MatTypeCV16U, gocv.CCL_DEFAULT)
	lb, err := c.labels.DataPtrUint16()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	c.rim = slices.Grow(c.rim[:0], n)[:n]
	clear(c.rim)
	for y := range ph {
		for x := range pw {
			i := y*pw + x
			if lb[i] == 0 || c.rim[lb[i]] {
				continue
			}
			if x == 0 || y == 0 || x == pw-1 || y == ph-1 || p[i-1] == 0 || p[i+1] == 0 || p[i-pw] == 0 || p[i+pw] == 0 {
				c.rim[lb[i]] = true
			}
		}
	}
	// The hand's rim too: pixels of hand and table mixed, no skin colour.
	cleared := 0
	for i, l := range lb[:pw*ph] {
		sk[i] = 0
		if l != 0 && c.rim[l] {
			sk[i] = 255
			cleared++
		}
	}
	gocv.Dilate(c.skin, &c.skin, c.kernel3)
	if sk, err = c.skin.DataPtrUint8(); err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	for i, v := range sk[:pw*ph] {
		if v != 0 {
			p[i] = 0
		}
	}
	return cleared, nil
}

// addParts adds the clean blobs of c.part (whose top-left pixel is at at
// in the shrunk picture; a place of blob parent) to c.parts.
func (c *Ref) addParts(at image.Point, parent int, minArea float64) {
	const s = Shrink
	pv := gocv.FindContours(c.part, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer pv.Close()
	for i := range pv.Size() {
		ct := pv.At(i)
		area := gocv.ContourArea(ct) * s * s
		if area < minArea {
			continue
		}
		pts := ct.ToPoints()
		for k := range pts {
			pts[k] = pts[k].Add(at)
		}
		b := blobOf(geom.ConvexHull(pts), gocv.BoundingRect(ct).Add(at), area)
		b.Clean = b.HasQuad && area >= partCleanShare*geom.QuadArea(b.Quad)
		if !b.Clean || c.hasPart(b.Quad) {
			continue
		}
		b.Parent = parent
		c.Parts = append(c.Parts, b)
	}
}

// hasPart reports whether the quadrilateral q of a part lies in a clean
// blob's quadrilateral or is one of c.parts (give or take a tenth of its
// size).
func (c *Ref) hasPart(q [4]geom.Point) bool {
	p := geom.QuadCentre(q)
	for _, b := range c.Blobs {
		if b.Clean && geom.InQuad(p, b.Quad) {
			return true
		}
	}
	tol := 0.1 * geom.QuadWidth(q)
	for _, b := range c.Parts {
		if outline.AltDistance(q, outline.Candidate{Q: b.Quad}) < tol {
			return true
		}
	}
	return false
}

// cardMinRect returns the smallest rectangle around the convex polygon
// hull (pixels of a picture shrunk by s), clockwise, in full-resolution
// pixels.
func minRect(hull []image.Point, s float64) [4]geom.Point {
	var out [4]geom.Point
	if len(hull) < 3 {
		return out
	}
	best := math.Inf(1)
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l, dy/l
		lo, hi, lo2, hi2 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			u := float64(p.X)*ux + float64(p.Y)*uy
			v := -float64(p.X)*uy + float64(p.Y)*ux
			lo, hi, lo2, hi2 = min(lo, u), max(hi, u), min(lo2, v), max(hi2, v)
		}
		// A pixel covers ±0.5 around its centre.
		lo, hi, lo2, hi2 = lo-0.5, hi+0.5, lo2-0.5, hi2+0.5
		if area := (hi - lo) * (hi2 - lo2); area < best {
			best = area
			for k, uv := range [4][2]float64{{lo, lo2}, {hi, lo2}, {hi, hi2}, {lo, hi2}} {
				x := uv[0]*ux - uv[1]*uy
				y := uv[0]*uy + uv[1]*ux
				out[k] = geom.Point{X: float32((x+0.5)*s - 0.5), Y: float32((y+0.5)*s - 0.5)}
			}
		}
	}
	if q, ok := outline.NewCandidate(out, 0, math.Inf(1)); ok {
		out = q.Q // clockwise
	}
	return out
}

// cardHullQuad returns the quadrilateral around the convex polygon hull
// (pixels of a picture shrunk by s) that the fewest pixels outside it
// make: edges are dropped one by one, the one whose neighbours' meeting
// point adds the least area first. Corners in full-resolution pixels,
// clockwise; false when the hull is not four-sided enough.
func hullQuad(hull []image.Point, s float64) ([4]geom.Point, bool) {
	var out [4]geom.Point
	if len(hull) < 4 {
		return out, false
	}
	// Pixel centres to the pixels' outer edges: each vertex moves half a
	// pixel away from the hull's centre along both axes.
	var cx, cy float64
	for _, p := range hull {
		cx += float64(p.X)
		cy += float64(p.Y)
	}
	cx, cy = cx/float64(len(hull)), cy/float64(len(hull))
	pts := make([][2]float64, len(hull))
	for i, p := range hull {
		x, y := float64(p.X), float64(p.Y)
		x += math.Copysign(0.5, x-cx)
		y += math.Copysign(0.5, y-cy)
		pts[i] = [2]float64{x, y}
	}
	for len(pts) > 4 {
		best, bi := math.Inf(1), -1
		var bp [2]float64
		n := len(pts)
		for i := range n {
			// Edge (i, i+1) goes: edges (i-1, i) and (i+1, i+2) meet.
			a, b, c, d := pts[(i+n-1)%n], pts[i], pts[(i+1)%n], pts[(i+2)%n]
			p, ok := geom.LineMeet(a, b, c, d)
			// The meeting point lies beyond b and before c.
			if !ok || (p[0]-b[0])*(b[0]-a[0])+(p[1]-b[1])*(b[1]-a[1]) < 0 || (p[0]-c[0])*(c[0]-d[0])+(p[1]-c[1])*(c[1]-d[1]) < 0 {
				continue
			}
			// The triangle b, p, c added.
			area := math.Abs((p[0]-b[0])*(c[1]-b[1])-(p[1]-b[1])*(c[0]-b[0])) / 2
			if area < best {
				best, bi, bp = area, i, p
			}
		}
		if bi < 0 {
			return out, false
		}
		pts[bi] = bp
		pts = slices.Delete(pts, (bi+1)%n, (bi+1)%n+1)
	}
	for k, p := range pts {
		out[k] = geom.Point{X: float32((p[0]+0.5)*s - 0.5), Y: float32((p[1]+0.5)*s - 0.5)}
	}
	q, ok := outline.NewCandidate(out, 0, math.Inf(1))
	return q.Q, ok
}

// cardRefNear is how far from a changed pixel (cardRefShrink pixels: 4
// full-resolution ones each) a place's dark pixels are kept for the
// sticker search and its edges for the outline finder: a sticker or a
// card's edge lies in what changed or at its rim (a sticker's quiet zone,
// a card's border as light as the table).
const Near = 3

// keepNearChanged clears the pixels of bin (cols × rows: a place from
// origin shrunk by scale; a sticker search's dark pixels, the outline
// finder's edges) farther than cardRefNear from a changed pixel: the
// table's pattern beside the blobs, which makes most of a textured table's
// dark specks, sticker candidates and lines. The mask is taken before its
// opening (rawMask): a sticker alone on a card as light as the table is
// too small for it.
func (c *Ref) KeepNearChanged(bin []uint8, cols, rows int, origin image.Point, scale float64) {
	const s = Shrink
	mw, mh := c.RawMask.Cols(), c.RawMask.Rows()
	at := func(v int, o int) int { return int((float64(v)+0.5)/scale) + o } // full-resolution coordinate
	box := image.Rect(at(0, origin.X)/s-Near, at(0, origin.Y)/s-Near, at(cols-1, origin.X)/s+Near+1, at(rows-1, origin.Y)/s+Near+1).Intersect(image.Rect(0, 0, mw, mh))
	if box.Empty() {
		return
	}
	reg := c.RawMask.Region(box)
	gocv.Dilate(reg, &c.near, c.nearKernel)
	reg.Close()
	near, err := c.near.DataPtrUint8()
	nw := box.Dx()
	if err != nil || c.near.Cols() != nw || c.near.Rows() != box.Dy() {
		return
	}
	c.nearCol = slices.Grow(c.nearCol[:0], cols)[:cols]
	for x := range cols {
		c.nearCol[x] = int32(min(max(at(x, origin.X)/s-box.Min.X, -1), nw))
	}
	// Each row of bin is ANDed with its row of near spread to bin's
	// columns (0xff near a change, 0 elsewhere), 8 pixels at a time; rows
	// of bin on the same row of near share the spread row.
	c.nearRow = slices.Grow(c.nearRow[:0], cols)[:cols]
	spread := -1
	for y := range rows {
		line := bin[y*cols : (y+1)*cols]
		my := at(y, origin.Y)/s - box.Min.Y
		if my < 0 || my >= box.Dy() {
			clear(line)
			continue
		}
		if my != spread {
			row := near[my*nw : (my+1)*nw]
			for x, mx := range c.nearCol {
				c.nearRow[x] = 0
				if mx >= 0 && int(mx) < nw && row[mx] != 0 {
					c.nearRow[x] = 0xff
				}
			}
			spread = my
		}
		x := 0
		for ; x+8 <= cols; x += 8 {
			v := binary.LittleEndian.Uint64(line[x:])
			if v != 0 { // most of a place is light
				binary.LittleEndian.PutUint64(line[x:], v&binary.LittleEndian.Uint64(c.nearRow[x:]))
			}
		}
		for ; x < cols; x++ {
			line[x] &= c.nearRow[x]
		}
	}
}

// A shadow soft at its edges is the table darkened by a factor that
// changes across it; one cast by a card and the hand holding it, by two.
// Cards held over felt (BenchmarkReadCards720pHeld) left such a shadow of
// 7 smallest cards beside them, and the one-factor test
// (cardShadowSums.shadow) failed it in about one frame in four (its fit
// 0.19–0.22 against cardRefShadowFit 0.2), each then read in full. The
// soft-shadow test takes the factor in tiles of cardShadowTile shrunk
// pixels (32 full-resolution pixels) instead: what is left in tiles that
// fail the one-factor test, and in tiles too sparse to be tested (fewer
// than cardShadowTileMin of their pixels left: a blob's ragged rim), is
// unshaded. On those frames (3 scenes a table, 6 tables) it leaves every
// held frame followed but the first and every 10th of each scene, and one
// on the playmat, whose shadow crosses the mat's sharp pattern (with
// tiles of 4 or 6 pixels, or cardShadowTileMin 0.25: 2 to 4 playmat
// frames).
const (
	ShadowTile    = 8
	shadowTileMin = 0.1
)

// cardUnshaded is how many of the pixels added to tiles lie outside the
// tiles that are a shadow (cardShadowTile).
func Unshaded(tiles []ShadowSums, gain [3]float64) int {
	n := 0
	for i := range tiles {
		if t := &tiles[i]; t.n > 0 && (float64(t.n) < shadowTileMin*ShadowTile*ShadowTile || !t.Shadow(gain)) {
			n += t.n
		}
	}
	return n
}

// maskChanged clears the pixels of place in mask (full resolution) that
// did not change.
func (c *Ref) MaskChanged(mask gocv.Mat, place image.Rectangle) error {
	const s = Shrink
	sp := image.Rect(place.Min.X/s, place.Min.Y/s, (place.Max.X+s-1)/s, (place.Max.Y+s-1)/s).Intersect(image.Rect(0, 0, c.Mask.Cols(), c.Mask.Rows()))
	if sp.Empty() {
		return nil
	}
	sm := c.Mask.Region(sp)
	gocv.Resize(sm, &c.up, image.Pt(sp.Dx()*s, sp.Dy()*s), 0, 0, gocv.InterpolationNearestNeighbor)
	sm.Close()
	// c.up covers sp at full resolution, from (sp.Min·s); place lies in it.
	in := place.Sub(sp.Min.Mul(s)).Intersect(image.Rect(0, 0, c.up.Cols(), c.up.Rows()))
	up := c.up.Region(in)
	defer up.Close()
	dst := mask.Region(in.Add(sp.Min.Mul(s)))
	defer dst.Close()
	if up.Cols() != dst.Cols() || up.Rows() != dst.Rows() {
		return errors.New("card: card reference: mask places differ")
	}
	gocv.BitwiseAnd(dst, up, &dst)
	return nil
}

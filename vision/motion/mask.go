package motion

import (
	"image"
	"math"
	"slices"
)

// Mask marks where the picture changed in one frame (or, in a
// roll tracker, since its last decision), at the resolution [Detector]
// compares frames at: cell (x, y) covers frame pixels ROI.Min +
// (x, y)·ROI.Dx()/W. It is plain data.
type Mask struct {
	// ROI is the region of the frame the mask covers, in frame pixels.
	ROI image.Rectangle
	// W and H are the mask's size in cells.
	W, H int
	// Bits holds W×H cells, row by row: true where the picture changed.
	Bits []bool
}

// Any reports whether a changed cell overlaps r (frame pixels).
func (mm *Mask) Any(r image.Rectangle) bool {
	c, ok := mm.cells(r)
	if !ok {
		return false
	}
	for y := c.Min.Y; y < c.Max.Y; y++ {
		if slices.Contains(mm.Bits[y*mm.W+c.Min.X:y*mm.W+c.Max.X], true) {
			return true
		}
	}
	return false
}

// Share returns the fraction of the cells overlapping r (frame pixels)
// that changed (0 when r misses the mask).
func (mm *Mask) Share(r image.Rectangle) float64 {
	c, ok := mm.cells(r)
	if !ok {
		return 0
	}
	n := 0
	for y := c.Min.Y; y < c.Max.Y; y++ {
		for _, b := range mm.Bits[y*mm.W+c.Min.X : y*mm.W+c.Max.X] {
			if b {
				n++
			}
		}
	}
	return float64(n) / float64(c.Dx()*c.Dy())
}

// cells returns the cells overlapping r (frame pixels); ok is false when
// the mask is empty or r misses it.
func (mm *Mask) cells(r image.Rectangle) (c image.Rectangle, ok bool) {
	if mm == nil || mm.W <= 0 || mm.H <= 0 || mm.ROI.Empty() || len(mm.Bits) < mm.W*mm.H {
		return c, false
	}
	r = r.Intersect(mm.ROI)
	if r.Empty() {
		return c, false
	}
	sx := float64(mm.W) / float64(mm.ROI.Dx())
	sy := float64(mm.H) / float64(mm.ROI.Dy())
	x0 := max(0, min(int(float64(r.Min.X-mm.ROI.Min.X)*sx), mm.W-1))
	x1 := max(x0+1, min(int(math.Ceil(float64(r.Max.X-mm.ROI.Min.X)*sx)), mm.W))
	y0 := max(0, min(int(float64(r.Min.Y-mm.ROI.Min.Y)*sy), mm.H-1))
	y1 := max(y0+1, min(int(math.Ceil(float64(r.Max.Y-mm.ROI.Min.Y)*sy)), mm.H))
	return image.Rect(x0, y0, x1, y1), true
}

// valid reports whether mm holds W×H cells.
func (mm *Mask) valid() bool {
	return mm != nil && mm.W > 0 && mm.H > 0 && len(mm.Bits) >= mm.W*mm.H
}

// sameGeometry reports whether mm and o cover the same cells.
func (mm *Mask) sameGeometry(o *Mask) bool {
	return mm.valid() && o.valid() && mm.W == o.W && mm.H == o.H && mm.ROI == o.ROI
}

// OrInto adds mm's changed cells to dst, resetting dst when its geometry
// differs.
func (mm *Mask) OrInto(dst *Mask) {
	if mm == nil || mm.W <= 0 || mm.H <= 0 || len(mm.Bits) < mm.W*mm.H {
		return
	}
	if dst.W != mm.W || dst.H != mm.H || dst.ROI != mm.ROI || len(dst.Bits) != mm.W*mm.H {
		dst.ROI, dst.W, dst.H = mm.ROI, mm.W, mm.H
		dst.Bits = slices.Grow(dst.Bits[:0], mm.W*mm.H)[:mm.W*mm.H]
		clear(dst.Bits)
	}
	for i, b := range mm.Bits[:mm.W*mm.H] {
		if b {
			dst.Bits[i] = true
		}
	}
}

// Clear marks every cell unchanged.
func (mm *Mask) Clear() { clear(mm.Bits) }

// CopyInto makes dst a copy of mm, reusing dst.Bits.
func (mm *Mask) CopyInto(dst *Mask) {
	dst.ROI, dst.W, dst.H = mm.ROI, mm.W, mm.H
	dst.Bits = append(dst.Bits[:0], mm.Bits...)
}

// DropPassed clears, in both mm and moved, the cells of mm that passed
// marks: stale changes a disturbance went over. Masks of another geometry
// are left alone.
func (mm *Mask) DropPassed(moved, passed *Mask) {
	if !mm.sameGeometry(passed) || !mm.sameGeometry(moved) {
		return
	}
	for i, p := range passed.Bits[:passed.W*passed.H] {
		if p && mm.Bits[i] {
			mm.Bits[i], moved.Bits[i] = false, false
		}
	}
}

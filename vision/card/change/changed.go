package change

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "changed.h"
*/
import "C"
import (
	"errors"
	"fmt"
	"image"
	"unsafe"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Changed fills c.mask with the pixels of c.cur that differ from c.small
// by cardRefLevel in a channel, after taking out each channel's median
// difference (the exposure); false when more than cardRefMaxShare differ.
func (c *Ref) Changed() (bool, error) {
	if c.Cur.Cols() != c.Small.Cols() || c.Cur.Rows() != c.Small.Rows() || c.Cur.Type() != gocv.MatTypeCV8UC3 || c.Small.Type() != gocv.MatTypeCV8UC3 {
		return false, errors.New("change: card reference: sizes differ")
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
		return false, errors.New("change: card reference: short buffer")
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

// ChangedIn is the share of the quadrilateral q (full-resolution pixels)
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

// ChangedAdded is the share of what outline large adds to outline small
// (lying mostly inside it) that differs from the reference: the changed
// areas' difference over the outlines' (0 where large adds nothing).
func (c *Ref) ChangedAdded(large, small [4]geom.Point) float64 {
	al, as := geom.QuadArea(large), geom.QuadArea(small)
	if al <= as {
		return 0
	}
	return (c.ChangedIn(large)*al - c.ChangedIn(small)*as) / (al - as)
}

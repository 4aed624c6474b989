package change

import (
	"encoding/binary"
	"errors"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// RowSpan returns the span x0 … x1 (exclusive; within the x0 … x1
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

// Near is how far from a changed pixel (Shrink pixels: 4
// full-resolution ones each) a place's dark pixels are kept for the
// sticker search and its edges for the outline finder: a sticker or a
// card's edge lies in what changed or at its rim (a sticker's quiet zone,
// a card's border as light as the table).
const Near = 3

// KeepNearChanged clears the pixels of bin (cols × rows: a place from
// origin shrunk by scale; a sticker search's dark pixels, the outline
// finder's edges) farther than Near from a changed pixel: the
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

// MaskChanged clears the pixels of place in mask (full resolution) that
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
		return errors.New("change: card reference: mask places differ")
	}
	gocv.BitwiseAnd(dst, up, &dst)
	return nil
}

package card

// A blob searched for keypoints is not searched again while it lies
// still: the keypoint search of a blob that no card read covers
// (searchChangedKeys) costs more than the rest of a frame's reading of it,
// and a card lying still that it found (or did not find) in one frame it
// finds (or does not find) in the next (the same pixels but for the
// camera's noise): its readings are taken again. A blob
// is the same when its box moved at most stillMove pixels, the area
// left to search (blobFree) changed by at most stillFree, and the
// shrunk frame over its box differs from the one searched by at most
// stillDiff on average (a card put in its place, a hand over it, the
// light changing: it is searched again). Like the fits of fit.go
// (fitSame), on a live feed as on a repeated frame.

import (
	"image"
	"math"
	"slices"
	"tablecam/vision/card/change"

	"gocv.io/x/gocv"
)

const (
	stillMove = change.Shrink // a shrunk pixel
	stillFree = 0.05
	stillDiff = 2.5
)

// refStill is a blob searched: its box (full resolution), its area
// left to search, the shrunk frame over its box and the cards found there.
type refStill struct {
	box   image.Rectangle
	free  float64
	pix   []byte
	found []Reading
}

// stillFrame starts a frame's keypoint search: the blobs searched in the
// last one are those that may be skipped in this one.
func (c *refState) stillFrame() {
	c.stillLast, c.stillNow = c.stillNow, c.stillLast[:0]
}

// stillSearched reports whether the blob with box and area left to search
// free was searched in the last frame and lies still, and the cards found
// there then (it is kept for the next frame).
func (c *refState) stillSearched(box image.Rectangle, free float64) ([]Reading, bool) {
	for _, s := range c.stillLast {
		if !stillBox(s.box, box, stillMove) || math.Abs(s.free-free) > stillFree*max(s.free, free) {
			continue
		}
		if d, ok := c.stillDiff(s); ok && d <= stillDiff {
			c.stillNow = append(c.stillNow, s)
			return s.found, true
		}
	}
	return nil, false
}

// stillKeep notes that the blob with box and area left to search free was
// searched in this frame and found the cards found.
func (c *refState) stillKeep(box image.Rectangle, free float64, found []Reading) {
	s := refStill{box: box, free: free, found: slices.Clone(found)}
	sb, ok := c.stillPlace(box)
	if !ok {
		return
	}
	cur, err := c.Cur.DataPtrUint8()
	if err != nil {
		return
	}
	w := c.Cur.Cols()
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		s.pix = append(s.pix, cur[3*(y*w+sb.Min.X):3*(y*w+sb.Max.X)]...)
	}
	c.stillNow = append(c.stillNow, s)
}

// stillDiff is the mean difference of the shrunk frame over s's box from
// the one s was searched on; false when it cannot be compared.
func (c *refState) stillDiff(s refStill) (float64, bool) {
	sb, ok := c.stillPlace(s.box)
	if !ok || len(s.pix) != 3*sb.Dx()*sb.Dy() {
		return 0, false
	}
	cur, err := c.Cur.DataPtrUint8()
	if err != nil {
		return 0, false
	}
	w := c.Cur.Cols()
	sum, k := 0, 0
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		for _, v := range cur[3*(y*w+sb.Min.X) : 3*(y*w+sb.Max.X)] {
			d := int(v) - int(s.pix[k])
			sum += max(d, -d)
			k++
		}
	}
	return float64(sum) / float64(max(1, k)), true
}

// stillPlace is box in the shrunk frame; false when it lies outside.
func (c *refState) stillPlace(box image.Rectangle) (image.Rectangle, bool) {
	const s = change.Shrink
	sb := image.Rect(box.Min.X/s, box.Min.Y/s, box.Max.X/s, box.Max.Y/s).Intersect(image.Rect(0, 0, c.Cur.Cols(), c.Cur.Rows()))
	return sb, !sb.Empty() && c.Cur.Type() == gocv.MatTypeCV8UC3
}

// stillBox reports whether boxes a and b are the same within n pixels
// on every side.
func stillBox(a, b image.Rectangle, n int) bool {
	d := func(u, v int) bool { return max(u-v, v-u) <= n }
	return d(a.Min.X, b.Min.X) && d(a.Min.Y, b.Min.Y) && d(a.Max.X, b.Max.X) && d(a.Max.Y, b.Max.Y)
}

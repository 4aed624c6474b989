package outline

// The card in a teaching photo by its difference from the table: a
// teaching photo shows one card on a plain part of the table, so the
// table's colour is that of the picture's border, and the card is the
// largest region that differs from it. Its outline, re-fitted to the
// card's edges, is the teacher's first candidate (edges alone take a
// card's inner frame for its outline when the card's border is about as
// dark as the table).

import (
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Segment returns the outline of the largest region of half
// (8-bit BGR, continuous; scale half-resolution pixels per full-resolution
// pixel) that differs from the colour of its border, re-fitted with f on
// the full-resolution view gr; ok is false when there is none that is a
// plausible card of width minW to maxW.
func Segment(f *Finder, half gocv.Mat, scale float64, gr geom.View, minW, maxW float64) (Candidate, bool) {
	hv, err := geom.ColourView(half)
	if err != nil {
		return Candidate{}, false
	}
	w, h := hv.W, hv.H
	if w < 16 || h < 16 {
		return Candidate{}, false
	}
	// The table's colour: the median of the border band, per channel.
	band := max(2, min(w, h)/40)
	var border [3][]byte
	for y := range h {
		for x := range w {
			if x >= band && x < w-band && y >= band && y < h-band {
				continue
			}
			i := 3 * (y*w + x)
			for c := range 3 {
				border[c] = append(border[c], hv.Pix[i+c])
			}
		}
	}
	var bg [3]int
	for c := range 3 {
		slices.Sort(border[c])
		bg[c] = int(border[c][len(border[c])/2])
	}
	diff := make([]byte, w*h)
	dev := make([]int, 0, len(border[0]))
	for y := range h {
		for x := range w {
			i := 3 * (y*w + x)
			d := 0
			for c := range 3 {
				v := int(hv.Pix[i+c]) - bg[c]
				if v < 0 {
					v = -v
				}
				d = max(d, v)
			}
			diff[y*w+x] = byte(min(255, d))
			if x < band || x >= w-band || y < band || y >= h-band {
				dev = append(dev, d)
			}
		}
	}
	// Threshold: well above the table's own texture.
	slices.Sort(dev)
	thr := max(28, 2*dev[len(dev)*95/100])
	mask, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, diff)
	if err != nil {
		return Candidate{}, false
	}
	defer mask.Close()
	gocv.Threshold(mask, &mask, float32(thr), 255, gocv.ThresholdBinary)
	k := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(5, 5))
	defer k.Close()
	gocv.MorphologyEx(mask, &mask, gocv.MorphClose, k)
	gocv.MorphologyEx(mask, &mask, gocv.MorphOpen, k)
	cs := gocv.FindContours(mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer cs.Close()
	bi, ba := -1, 0.0
	for i := range cs.Size() {
		if a := gocv.ContourArea(cs.At(i)); a > ba {
			bi, ba = i, a
		}
	}
	if bi < 0 {
		return Candidate{}, false
	}
	hull := geom.ConvexHull(cs.At(bi).ToPoints())
	if len(hull) < 4 {
		return Candidate{}, false
	}
	hv2 := gocv.NewPointVectorFromPoints(hull)
	defer hv2.Close()
	perim := gocv.ArcLength(hv2, true)
	var quad []image.Point
	for eps := 0.01; eps <= 0.1; eps += 0.01 {
		ap := gocv.ApproxPolyDP(hv2, eps*perim, true)
		pts := ap.ToPoints()
		ap.Close()
		if len(pts) == 4 {
			quad = pts
			break
		}
		if len(pts) < 4 {
			break
		}
	}
	if quad == nil {
		return Candidate{}, false
	}
	var q [4]geom.Point
	for k, p := range quad {
		q[k] = geom.Point{X: float32((float64(p.X)+0.5)/scale - 0.5), Y: float32((float64(p.Y)+0.5)/scale - 0.5)}
	}
	c, ok := NewCandidate(q, minW, maxW*AspectMax)
	if !ok || !Plausible(c.Q, minW, maxW) {
		return Candidate{}, false
	}
	if rq, _, ok := f.Refine(gr, c.Q); ok {
		if rc, ok := NewCandidate(rq, minW, maxW*AspectMax); ok && Plausible(rc.Q, minW, maxW) &&
			math.Abs(rc.Area-c.Area) < 0.2*c.Area {
			rc.Refined = true
			c = rc
		}
	}
	c.Score = math.Inf(1)
	return c, true
}

package card

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// Fitting an outline to its nearest taught card: an outline found a few
// pixels off on a side or two (a thumb over an edge, an inner frame, a
// faint border) matches its card too poorly to be taken for it. When the
// nearest taught card is near (the band the keypoint search uses too), the
// outline's sides are moved in and out, one at a time, while that card
// comes nearer, and the outline is then matched again with every taught
// card: the usual threshold and ratio decide (and, with the reference, its
// confirmation), so an untaught card stays unknown.
const (
	fitStep   = 0.04 // the first move, of the card's width
	fitHalves = 3    // the move is halved this often when nothing helps
	fitEvals  = 16   // outlines compared at most per fit (training: as many read as with 24 or 40, within noise)
	fitFrame  = 4    // fits a frame
	fitMargin = 16   // canvas pixels around the outline (index.CanonSize wide)
)

// fitTried is an outline whose fit to card id did not make it taken
// for that card.
type fitTried struct {
	q  [4]geom.Point
	id string
}

// fitSame is how far (pixels, any corner) an outline may lie from one
// fitted in vain in the last frame to be that one again: a card lying
// still is not fitted again every frame.
const fitSame = 1.5

// fitOutline fits the outline q grown by grow (its match m, not taken) to
// its nearest card when that is near and the frame's fits are not spent,
// and returns the outline, its growth and its match then.
func (r *Reader) fitOutline(img gocv.Mat, q [4]geom.Point, grow float64, m index.Match) ([4]geom.Point, float64, index.Match, error) {
	if m.ID == "" || m.Dist >= keyMissDist || m.Dist >= keyMissRatio*m.Second || r.fits >= fitFrame {
		return q, grow, m, nil
	}
	gq, id := geom.GrowQuad(q, grow), m.ID
	for _, f := range r.fitLast {
		if f.id == m.ID && outline.AltDistance(gq, outline.Candidate{Q: f.q}) <= fitSame {
			r.fitFailed = append(r.fitFailed, f)
			return q, grow, m, nil
		}
	}
	r.fits++
	fq, fm, ok, err := r.fitToCard(img, gq, m)
	if err != nil {
		return q, grow, m, err
	}
	if ok && fm.Dist < m.Dist {
		q, grow, m = fq, 0, fm
	}
	if !r.opts.Index.Accepts(m) {
		r.fitFailed = append(r.fitFailed, fitTried{q: gq, id: id})
	}
	return q, grow, m, nil
}

// fitToCard moves the sides of outline q (its match m) towards m's card
// and returns the outline and its match with all taught cards; false when
// the card came no nearer.
func (r *Reader) fitToCard(img gocv.Mat, q [4]geom.Point, m index.Match) ([4]geom.Point, index.Match, bool, error) {
	ix := r.opts.Index
	// The card upright: its top-left corner first.
	up := q
	for k := range 4 {
		up[k] = q[(k+4-m.Rot)%4]
	}
	q = up
	// The place around the outline is warped once, to a canvas on which
	// the outline is index.CanonSize pixels wide; each outline tried is warped
	// from there.
	const c, lo = index.CanonSize + 2*fitMargin, fitMargin
	var src [4][2]float64
	for k, p := range q {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	toCanvas, ok := geom.HomographyOf(src, index.PixelRect(lo, lo, lo+index.CanonSize, lo+index.CanonSize))
	if !ok || !index.WarpQuad(img, &r.fitCanvas, r.desc.HM, q, index.PixelRect(lo, lo, lo+index.CanonSize, lo+index.CanonSize), image.Pt(c, c)) {
		return q, m, false, nil
	}
	var d index.Desc
	dist := func(q [4]geom.Point) (float64, error) {
		var cq [4]geom.Point
		for k, p := range q {
			x, y := toCanvas.Apply(float64(p.X), float64(p.Y))
			cq[k] = geom.Point{X: float32(x), Y: float32(y)}
		}
		if !index.WarpQuad(r.fitCanvas, &r.desc.Canon, r.desc.HM, cq, index.PixelRect(0, 0, index.CanonSize, index.CanonSize), image.Pt(index.CanonSize, index.CanonSize)) {
			return math.Inf(1), nil
		}
		if err := r.desc.DescribeUpright(&d); err != nil {
			return 0, err
		}
		return ix.DistanceTo(m.ID, &d), nil
	}
	best, err := dist(q)
	if err != nil {
		return q, m, false, err
	}
	start := best
	step := fitStep * geom.QuadWidth(q)
	evals := 1
	for halves := 0; halves <= fitHalves && evals < fitEvals; {
		moved := false
		for k := range 4 {
			for _, sgn := range [2]float64{1, -1} {
				if evals >= fitEvals {
					break
				}
				q2, ok := shiftSide(q, k, sgn*step)
				if !ok {
					continue
				}
				evals++
				d, err := dist(q2)
				if err != nil {
					return q, m, false, err
				}
				if d < best {
					q, best, moved = q2, d, true
					break
				}
			}
		}
		if !moved {
			step /= 2
			halves++
		}
	}
	// Back in the order given.
	for k := range 4 {
		up[(k+4-m.Rot)%4] = q[k]
	}
	q = up
	if best >= start {
		return q, m, false, nil
	}
	if err := r.desc.Rectify(img, q, 0); err != nil {
		return q, m, false, nil
	}
	ds := &r.desc.Turns
	if err := r.desc.Describe(ds); err != nil {
		return q, m, false, err
	}
	return q, ix.Match(ds), true, nil
}

// shiftSide moves side k of q (from q[k] to q[k+1]) outwards by t
// pixels (inwards when negative), its ends sliding along the neighbouring
// sides; false when the result is no convex quadrilateral.
func shiftSide(q [4]geom.Point, k int, t float64) ([4]geom.Point, bool) {
	pt := func(p geom.Point) [2]float64 { return [2]float64{float64(p.X), float64(p.Y)} }
	a, b := pt(q[k]), pt(q[(k+1)%4])
	dx, dy := b[0]-a[0], b[1]-a[1]
	l := math.Hypot(dx, dy)
	if l == 0 {
		return q, false
	}
	nx, ny := dy/l, -dx/l
	c := geom.QuadCentre(q)
	if (a[0]-float64(c.X))*nx+(a[1]-float64(c.Y))*ny < 0 {
		nx, ny = -nx, -ny
	}
	a2 := [2]float64{a[0] + t*nx, a[1] + t*ny}
	b2 := [2]float64{b[0] + t*nx, b[1] + t*ny}
	pa, ok1 := geom.LineMeet(pt(q[(k+3)%4]), a, a2, b2)
	pb, ok2 := geom.LineMeet(pt(q[(k+2)%4]), b, a2, b2)
	if !ok1 || !ok2 {
		return q, false
	}
	out := q
	out[k] = geom.Point{X: float32(pa[0]), Y: float32(pa[1])}
	out[(k+1)%4] = geom.Point{X: float32(pb[0]), Y: float32(pb[1])}
	if !geom.Clockwise(out) || geom.QuadArea(out) < 1 {
		return q, false
	}
	return out, true
}

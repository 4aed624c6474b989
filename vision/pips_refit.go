package vision

import "math"

// Finding a d6's top face again from its pips. A top face found too small
// (a part of it), too large or shifted (a lit side taken for top, a tilted
// camera) still shows pips; where they sit says where the face is: their
// centroid is the face's centre, their spacing its size.

// pipFaceRatio is a d6 face's half side in units of its pips' spacing
// (the offset of the outer pips from the face's centre along an axis): the
// default art puts the outer pips a quarter of the patch side from the
// centre, the patch leaving out facePatchMargin on each edge.
const pipFaceRatio = 0.5 / (0.25 * (1 - 2*facePatchMargin))

// pipRefitScale is how much larger than the found face the area searched
// for its pips is.
const pipRefitScale = 1.8

// pipRefit returns the top face that the pips around rect (patch p, the
// face as found) make, and whether they make one: a group of alike round
// blobs in a d6 layout, two pips at least (a one's pip gives no size).
func (d *DiceDetector) pipRefit(im dieImage, rect dieRect, p *facePatch) (dieRect, bool) {
	var s pipScratch
	blobs := widePipBlobs(im, rect, p, pipRefitScale, &s)
	wideHU, wideHV := rect.HU*pipRefitScale, rect.HV*pipRefitScale
	var cand []pipBlob
	for _, b := range blobs {
		if b.round() {
			cand = append(cand, b)
		}
	}
	// Patch pixel → rectangle-local offset along U and V in frame pixels.
	step := (1 - 2*facePatchMargin) / facePatchSize
	local := func(x, y float64) diePt {
		u := facePatchMargin + x*step
		v := facePatchMargin + y*step
		return diePt{(2*u - 1) * wideHU, (2*v - 1) * wideHV}
	}
	bestFit, best := 0.0, dieRect{}
	for _, ref := range cand {
		var pts []diePt
		area := 0.0
		for _, b := range cand {
			if alikeBlobs(ref.area, b.area, ref.col, b.col) {
				pts = append(pts, local(b.cx+0.5, b.cy+0.5))
				area += float64(b.area)
			}
		}
		// Blobs like these pips but cut by the edge or not round (a pip
		// beside a side): pips of this face the group left out, or of a
		// face the group is a part of (a five's diagonal pair looks like
		// a two).
		var others []diePt
		for _, b := range blobs {
			w, h := b.x1-b.x0+1, b.y1-b.y0+1
			if !b.round() && float64(b.area) >= 0.4*float64(w*h) && alikeBlobs(ref.area, b.area, ref.col, b.col) {
				others = append(others, local(b.cx+0.5, b.cy+0.5))
			}
		}
		n := len(pts)
		if n < 1 || n > 6 {
			continue
		}
		var c diePt
		for _, q := range pts {
			c = c.add(q)
		}
		c = c.scale(1 / float64(n))
		r := rect
		r.C = rect.C.add(rect.U.scale(c.X)).add(rect.v().scale(c.Y))
		if n == 1 {
			// A one's pip gives no size (and a pip of a larger face
			// looks like it).
			continue
		}
		// Spacing along each axis: the largest offset from the centroid.
		var su, sv float64
		for _, q := range pts {
			o := q.sub(c)
			su, sv = math.Max(su, math.Abs(o.X)), math.Max(sv, math.Abs(o.Y))
		}
		if su <= 0 || sv <= 0 {
			continue
		}
		r.HU, r.HV = pipFaceRatio*su, pipFaceRatio*sv
		// The layout, judged in the refitted face's own patch geometry: the
		// pips mapped to a square face of the patch's side.
		side := float64(facePatchSize)
		var qs [6]diePt
		for i, q := range pts {
			o := q.sub(c)
			qs[i] = diePt{side/2 + o.X/(2*r.HU)*side/(1-2*facePatchMargin), side/2 + o.Y/(2*r.HV)*side/(1-2*facePatchMargin)}
		}
		// The whole face, and a little around it, must have been in view,
		// with no pip like these beside the group.
		if math.Abs(c.X)+r.HU > wideHU || math.Abs(c.Y)+r.HV > wideHV {
			continue
		}
		near := false
		for _, o := range others {
			d := o.sub(c)
			near = near || math.Abs(d.X) < 1.3*r.HU && math.Abs(d.Y) < 1.3*r.HV
		}
		if near {
			continue
		}
		fit := pipLayoutFit(qs[:n], area/float64(n)*pipRefitScale*pipRefitScale*(rect.HU*rect.HV)/(r.HU*r.HV), side)
		if fit > bestFit {
			best, bestFit = r, fit
		}
	}
	if bestFit <= 0 || best.HU < 0.5*rect.HU || best.HV < 0.5*rect.HV || best.HU > 1.6*rect.HU || best.HV > 1.6*rect.HV {
		return rect, false
	}
	return best, true
}

// readDie reads candidate cand (see readDieOnce). A d6 read without
// confidence, or not at all, gets one more look at the face its pips
// make; that reading counts when it is confident.
func (d *DiceDetector) readDie(im dieImage, cand dieCandidate) (Die, bool) {
	die, ok := d.readDieOnce(im, cand)
	pipSet := func(set string) bool {
		for _, r := range d.readers {
			if r.pips && (set == "" || r.set.ID == set) {
				return true
			}
		}
		return false
	}
	if ok && (!die.Uncertain || !pipSet(die.Set)) || !ok && !pipSet("") {
		// Sure, or a die of a set without pips (left as it is), or no
		// set with pips looked for.
		return die, ok
	}
	var p facePatch
	extractPatch(im, cand.rect.corners(), facePatchMargin, true, &p)
	rect, found := d.pipRefit(im, cand.rect, &p)
	if side := 2 * math.Sqrt(rect.HU*rect.HV); !found || side < d.limits(im.w).minSide || side > 1.1*d.limits(im.w).maxSide {
		// No face, or none of a die's size (as the finder takes them):
		// pips that large or that far apart are a pattern of the table.
		return die, ok
	}
	if d2, ok2 := d.readDieOnce(im, dieCandidate{rect: rect, again: cand.again}); ok2 && !d2.Uncertain && pipSet(d2.Set) {
		return d2, true
	}
	return die, ok
}

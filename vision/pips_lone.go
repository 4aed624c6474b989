package vision

// lonePip reports whether the one pip read on the top face rect (patch p)
// is alone: the face taken twice as large around it holds no other
// pip like it. A part of a larger face showing one of its pips (a top
// face found too small) is not alone.
func (d *DiceDetector) lonePip(im dieImage, rect dieRect, p *facePatch) bool {
	const k = 2.0
	var s pipScratch
	return loneIn(widePipBlobs(im, rect, p, k, &s), k)
}

// widePipBlobs segments the blobs of the face rect taken k times as large
// around its centre, against the body colour of p (the face as found).
// Both are brought to p's exposure first: the wide patch holds table and
// other dice, whose light must not set the face's body colour. The blobs
// live in s.
func widePipBlobs(im dieImage, rect dieRect, p *facePatch, k float64, s *pipScratch) []pipBlob {
	wide := rect
	wide.HU *= k
	wide.HV *= k
	var w, we, pe facePatch
	extractPatch(im, wide.corners(), facePatchMargin, true, &w)
	g := exposureGain(p)
	applyGain(&w, &we, g)
	applyGain(p, &pe, g)
	blobs, _ := s.segment(&we, s.bodyColour(&pe), 1)
	return blobs
}

// pipShaped reports whether blob b fills its box as a pip does and is
// not much longer than wide.
func pipShaped(b pipBlob) bool {
	w, h := b.x1-b.x0+1, b.y1-b.y0+1
	return float64(b.area) >= 0.55*float64(w*h) && max(w, h) <= (3*min(w, h))/2+1
}

package vision

// lonePip reports whether the one pip read on the top face rect (patch p)
// is alone: the face taken twice as large around it holds no other
// pip like it. A part of a larger face showing one of its pips (a top
// face found too small) is not alone.
func (d *DiceDetector) lonePip(im dieImage, rect dieRect, p *facePatch) bool {
	const k = 2.0
	wide := rect
	wide.HU *= k
	wide.HV *= k
	var w facePatch
	extractPatch(im, wide.corners(), facePatchMargin, true, &w)
	var s pipScratch
	return s.lonePip(p, &w, k)
}

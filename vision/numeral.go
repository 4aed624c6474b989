package vision

// Reading numerals (d10, d20 and other numeric sets without pips) by the
// numeral itself rather than by the whole face: the ink strokes near the
// middle of the found top face are segmented (the ink's polarity is taught
// from the examples), and the numeral's own bounding box (underline
// included) is resampled to a small square patch. The patch does not
// depend on how well the face's outline was found: a d10's darker kite
// taken for the whole face, or a face found a little too large or shifted,
// gives the same patch. It is compared by normalised cross-correlation
// with the profile's examples, prepared the same way, at the four quarter
// turns and with the face's axis turned in steps of 15° (a kite's
// rectangle need not be square to the face), coarse to fine: every turn
// with the examples as they are, the best turns and faces also with the
// examples turned a little and the patch shifted by a cell; 6 and 9 differ
// by their underline. The best face's score and its margin over the best
// other face give the confidence; a reading with an unclear margin that
// changes when the face is taken a little smaller, larger or shifted is
// not sure, and so is a stroke-like numeral read turned far from its
// stroke.
//
// Measured per condition on held-out scenes with the reference frame by
// TestDiceAccuracy's d10 rows (go test ./vision -run 'TestDiceAccuracy$'
// -v -args -eval-sets d10 -eval-scenes 100 -eval-ref yes); its cost by
// BenchmarkReadD10_720p.

import (
	"math"
	"slices"

	"tablecam/vision/internal/fdot"
)

// Numeral patch geometry.
const (
	// numGrid is the side of the grid the ink is segmented on; it covers
	// numGridSpan times the found face's half sides around its centre.
	numGrid     = 40
	numGridSpan = 1.1
	// numSide is the side of the numeral patch.
	numSide = 20
	numLen  = numSide * numSide
	// numPad is the part of the numeral's box added around it.
	numPad = 0.12
	// numMaxExtent is the largest numeral box side, in grid cells: half of
	// the found face.
	numMaxExtent = 18 // 0.5 * numGrid / numGridSpan
)

// numFeat is a numeral patch: luma, centred, unit norm.
type numFeat [numLen]float32

// numeralReader reads the numeral of a numeric face.
type numeralReader struct {
	// bright: the ink is lighter than the face.
	bright bool
	tmpl   []numFeat
	face   []int
	nfaces int
	// untilted are the templates of the examples as they are; byFace the
	// templates of each face.
	untilted []int
	byFace   [][]int
	// contrast is the ink's contrast on the face last read: its distance
	// from the face's median luma over that median. minContrast is the
	// least a face must show (half the taught faces' 10th percentile).
	contrast, minContrast float64
	// centre is the middle of the numeral last found, in the frame.
	centre diePt
	// scratch
	grid  [numGrid * numGrid]float32
	ink   [numGrid * numGrid]bool
	lab   [numGrid * numGrid]int32
	cl    componentLabeller
	inner []float32 // innerStats
	// read: per face, its best score, quarter turn and turn; per turn
	// searched, the patch, the turn, the faces' coarse scores and
	// quarter turns and the best of them; the shifted, turned queries.
	best   []float32
	rot    []int
	turn   []float64
	fq     [len(numeralTurnSearch)]numFeat
	fturn  [len(numeralTurnSearch)]float64
	cs     []float32
	cr     []int
	tscore [len(numeralTurnSearch)]float32
	q      [4 * len(numShifts)]numFeat
	dots   []float32 // fine's scores
	// fineFaces: read, the faces matched finely at a turn.
	fineFaces []int
	// ink0: the centres of the numeral's ink cells features found last;
	// incl: the labels of its components.
	ink0 []diePt
	incl []int32
}

// numeralTurns are the small turns (radians) each example is also taught
// at: the face's axis is found to a few degrees.
var numeralTurns = [...]float64{0, 0.05, -0.05, 0.1, -0.1}

// newNumeralReader prepares the numeral templates of profile p (faces
// indexed by faceIdx). It returns nil when no example shows a numeral.
func newNumeralReader(p *DiceProfile, faceIdx map[string]int, nfaces int) *numeralReader {
	nr := &numeralReader{nfaces: nfaces, byFace: make([][]int, nfaces)}
	// Ink polarity: the ink is the tail of the face's luma farthest from
	// its median.
	votes := 0
	for _, e := range p.Examples {
		im := dieImage{w: exampleCrop, h: exampleCrop, pix: e.Crop}
		nr.sampleGrid(im, exampleRect(0))
		if b, ok := nr.polarity(); ok {
			if b {
				votes++
			} else {
				votes--
			}
		}
	}
	nr.bright = votes >= 0
	var f numFeat
	var contrasts []float64
	for _, e := range p.Examples {
		fi, ok := faceIdx[e.Face]
		if !ok {
			continue
		}
		im := dieImage{w: exampleCrop, h: exampleCrop, pix: e.Crop}
		for k, t := range numeralTurns {
			if nr.features(im, exampleRect(t), &f) {
				if k == 0 {
					contrasts = append(contrasts, nr.contrast)
					nr.untilted = append(nr.untilted, len(nr.tmpl))
				}
				nr.byFace[fi] = append(nr.byFace[fi], len(nr.tmpl))
				nr.tmpl = append(nr.tmpl, f)
				nr.face = append(nr.face, fi)
			}
		}
	}
	if len(contrasts) > 0 {
		slices.Sort(contrasts)
		nr.minContrast = 0.5 * contrasts[len(contrasts)/10]
	}
	if len(nr.tmpl) == 0 {
		return nil
	}
	return nr
}

// exampleRect is the face's rectangle in an example crop, turned by turn.
func exampleRect(turn float64) dieRect {
	h := exampleCrop * exampleFace / 2
	return dieRect{C: diePt{exampleCrop / 2, exampleCrop / 2}, U: diePt{math.Cos(turn), math.Sin(turn)}, HU: h, HV: h}
}

// gridPt is grid cell (x, y)'s centre in the image.
func gridPt(rect dieRect, x, y float64) diePt {
	s := 2 * numGridSpan / numGrid
	a := -numGridSpan + (x+0.5)*s
	b := -numGridSpan + (y+0.5)*s
	return rect.C.add(rect.U.scale(a * rect.HU)).add(rect.v().scale(b * rect.HV))
}

func luma(b, g, r float32) float32 { return 0.114*b + 0.587*g + 0.299*r }

// sampleGrid fills nr.grid with the luma around rect.
func (nr *numeralReader) sampleGrid(im dieImage, rect dieRect) {
	for y := 0; y < numGrid; y++ {
		for x := 0; x < numGrid; x++ {
			nr.grid[y*numGrid+x] = luma(im.sample(gridPt(rect, float64(x), float64(y))))
		}
	}
}

// innerStats returns the median and the 2nd and 98th percentiles of the
// grid's luma inside the face's inner part.
func (nr *numeralReader) innerStats() (med, lo, hi float32) {
	v := nr.inner[:0]
	lim := 0.75 / numGridSpan * numGrid / 2
	for y := 0; y < numGrid; y++ {
		for x := 0; x < numGrid; x++ {
			if math.Abs(float64(x)+0.5-numGrid/2) <= lim && math.Abs(float64(y)+0.5-numGrid/2) <= lim {
				v = append(v, nr.grid[y*numGrid+x])
			}
		}
	}
	nr.inner = v
	n := len(v)
	// Order statistics by selection (the median, then the 2nd and 98th
	// percentiles, each selected within the half that holds it): a sort
	// costs more.
	m, l, h := n/2, n*2/100, n*98/100
	nthFloat32(v, m)
	if l < m {
		nthFloat32(v[:m], l)
	}
	if h > m {
		nthFloat32(v[m+1:], h-m-1)
	}
	return v[m], v[l], v[h]
}

// nthFloat32 reorders v so that v[k] is the value sorting would put there,
// with none larger before it and none smaller after it (quickselect).
func nthFloat32(v []float32, k int) {
	lo, hi := 0, len(v)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		p := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < p {
				i++
			}
			for v[j] > p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// polarity reports whether the grid's ink is lighter than its face; ok is
// false for a flat grid.
func (nr *numeralReader) polarity() (bright, ok bool) {
	med, lo, hi := nr.innerStats()
	return hi-med > med-lo, max(hi-med, med-lo) > 20
}

// features finds the numeral around rect and writes its patch to f; ok is
// false when no numeral shows.
func (nr *numeralReader) features(im dieImage, rect dieRect, f *numFeat) bool {
	nr.sampleGrid(im, rect)
	med, lo, hi := nr.innerStats()
	var thr float32
	if nr.bright {
		if hi-med < 25 {
			return false
		}
		thr = med + 0.5*(hi-med)
	} else {
		if med-lo < 25 {
			return false
		}
		thr = med - 0.5*(med-lo)
	}
	var ink float32
	if nr.bright {
		ink = hi - med
	} else {
		ink = med - lo
	}
	nr.contrast = float64(ink) / float64(med+8)
	if nr.contrast < nr.minContrast {
		// Far less contrast than any taught numeral has on its face:
		// not this set's face (a patch of table, a face found off the
		// die).
		return false
	}
	for i, v := range nr.grid {
		nr.ink[i] = (v > thr) == nr.bright
	}
	// Connected components (8-neighbours).
	type comp struct {
		n              int
		sx, sy         float64
		x0, y0, x1, y1 int
	}
	var comps []comp
	nr.cl.label(nr.ink[:], nr.lab[:], numGrid, numGrid, eightConnected, func(l int32, j int) {
		if int(l) > len(comps) {
			comps = append(comps, comp{x0: numGrid, y0: numGrid, x1: -1, y1: -1})
		}
		c := &comps[l-1]
		x, y := j%numGrid, j/numGrid
		c.n++
		c.sx += float64(x)
		c.sy += float64(y)
		c.x0, c.y0, c.x1, c.y1 = min(c.x0, x), min(c.y0, y), max(c.x1, x), max(c.y1, y)
	})
	// The numeral: the largest component whose centre lies in the middle
	// of the face, then the components close to it (an underline).
	mid := float64(numGrid) / 2
	reach := 0.5 / numGridSpan * mid
	main := -1
	for i, c := range comps {
		cx, cy := c.sx/float64(c.n)+0.5, c.sy/float64(c.n)+0.5
		if math.Abs(cx-mid) > reach || math.Abs(cy-mid) > reach {
			continue
		}
		if c.x0 == 0 || c.y0 == 0 || c.x1 == numGrid-1 || c.y1 == numGrid-1 || max(c.x1-c.x0, c.y1-c.y0)+1 > numMaxExtent {
			// The table or a side around the face, not a numeral.
			continue
		}
		if main < 0 || c.n > comps[main].n {
			main = i
		}
	}
	if main < 0 || comps[main].n < 6 {
		return false
	}
	m := comps[main]
	x0, y0, x1, y1 := m.x0, m.y0, m.x1, m.y1
	mh := float64(max(m.x1-m.x0, m.y1-m.y0) + 1)
	incl := append(nr.incl[:0], int32(main+1))
	for i, c := range comps {
		if i == main || c.n*8 < m.n || c.x0 == 0 || c.y0 == 0 || c.x1 == numGrid-1 || c.y1 == numGrid-1 || float64(max(c.x1-c.x0, c.y1-c.y0)+1) > mh {
			continue
		}
		// Gap between the boxes.
		gx := math.Max(0, float64(max(c.x0-m.x1, m.x0-c.x1)))
		gy := math.Max(0, float64(max(c.y0-m.y1, m.y0-c.y1)))
		if math.Max(gx, gy) <= 0.35*mh {
			x0, y0, x1, y1 = min(x0, c.x0), min(y0, c.y0), max(x1, c.x1), max(y1, c.y1)
			incl = append(incl, int32(i+1))
		}
	}
	nr.incl = incl
	nr.ink0 = nr.ink0[:0]
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if slices.Contains(incl, nr.lab[y*numGrid+x]) {
				nr.ink0 = append(nr.ink0, gridPt(rect, float64(x), float64(y)))
			}
		}
	}
	cx, cy := float64(x0+x1+1)/2, float64(y0+y1+1)/2
	nr.centre = gridPt(rect, cx-0.5, cy-0.5)
	return nr.patch(im, rect, cx, cy, float64(max(x1-x0, y1-y0)+1), f)
}

// featuresTurned writes the patch of the numeral features found last to
// f, read along rect's axes (the face's turned): the numeral's box along
// them holds the centres of its ink cells.
func (nr *numeralReader) featuresTurned(im dieImage, rect dieRect, f *numFeat) bool {
	if len(nr.ink0) == 0 {
		return false
	}
	// Grid cells per pixel along U and V.
	ku, kv := numGrid/(2*numGridSpan*rect.HU), numGrid/(2*numGridSpan*rect.HV)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range nr.ink0 {
		d := p.sub(rect.C)
		x, y := d.dot(rect.U)*ku, d.dot(rect.v())*kv
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	// Grid coordinates of cell centres: numGrid/2 - 0.5 at the middle.
	cx, cy := (x0+x1)/2+numGrid/2, (y0+y1)/2+numGrid/2
	return nr.patch(im, rect, cx, cy, math.Max(x1-x0, y1-y0)+1, f)
}

// patch resamples the numeral's square box (middle (cx, cy) and side ext
// in grid cells of rect) from the image to f, 2×2 samples per patch pixel,
// centred and of unit norm; ok is false for a flat box.
func (nr *numeralReader) patch(im dieImage, rect dieRect, cx, cy, ext float64, f *numFeat) bool {
	side := ext * (1 + 2*numPad)
	step := side / numSide
	var sum float32
	for y := 0; y < numSide; y++ {
		for x := 0; x < numSide; x++ {
			var s float32
			for j := 0; j < 2; j++ {
				for i := 0; i < 2; i++ {
					gx := cx - side/2 + (float64(x)+0.25+0.5*float64(i))*step - 0.5
					gy := cy - side/2 + (float64(y)+0.25+0.5*float64(j))*step - 0.5
					s += luma(im.sample(gridPt(rect, gx, gy)))
				}
			}
			f[y*numSide+x] = s / 4
			sum += s / 4
		}
	}
	mean := sum / numLen
	var ss float64
	for i := range f {
		f[i] -= mean
		ss += float64(f[i]) * float64(f[i])
	}
	if ss < 1e-3 {
		return false
	}
	k := float32(1 / math.Sqrt(ss))
	for i := range f {
		f[i] *= k
	}
	return true
}

// rotNum writes src turned by 90° clockwise to dst.
func rotNum(dst, src *numFeat) {
	for y := 0; y < numSide; y++ {
		for x := 0; x < numSide; x++ {
			dst[x*numSide+(numSide-1-y)] = src[y*numSide+x]
		}
	}
}

// numeralMatch is a numeral reading.
type numeralMatch struct {
	face, second  int
	score, margin float64
	rot           int     // quarter turns clockwise that bring the query upright
	turn          float64 // the turn of the face's axes it was read at
}

// confidence maps a numeral match to [0, 1]: a clear margin over the best
// other face (numeralMarginScale) and a score like a numeral's with its
// own examples. On training scenes all but a few in a thousand numerals
// read right match their best example at 0.9 or more; below it the best
// match is most often wrong (another numeral's strokes, or a numeral cut apart, matched
// as well as it can).
func (m numeralMatch) confidence() float64 {
	return clamp01(m.margin/numeralMarginScale) * clamp01((m.score-numScoreLow)/(numScoreFull-numScoreLow))
}

// The score below which a numeral reading has no confidence, and from
// which on the score does not lower it.
const (
	numScoreLow  = 0.75
	numScoreFull = 0.9
)

// A numeral whose ink spreads numStroke times as far along its axis as
// across is a stroke; read at a turn more than numStrokeTurn (a step and a
// half of numeralTurnSearch) from that axis, it is not sure.
const (
	numStroke     = 2.0
	numStrokeTurn = math.Pi / 8
)

// wrapQuarter returns a turned by the multiple of a quarter turn that
// brings it within ±π/4.
func wrapQuarter(a float64) float64 { return a - math.Pi/2*math.Round(a/(math.Pi/2)) }

// inkAxis returns the turn (radians, within ±π/4) from rect's axes to the
// principal axes of the numeral's ink found last, and the ratio of the
// ink's spreads along them (1: round, large: a stroke).
func (nr *numeralReader) inkAxis(rect dieRect) (turn, elong float64) {
	var n, mx, my float64
	for _, p := range nr.ink0 {
		mx += p.X
		my += p.Y
		n++
	}
	if n < 2 {
		return 0, 1
	}
	mx, my = mx/n, my/n
	var cxx, cyy, cxy float64
	for _, p := range nr.ink0 {
		dx, dy := p.X-mx, p.Y-my
		cxx += dx * dx
		cyy += dy * dy
		cxy += dx * dy
	}
	d := math.Hypot((cxx-cyy)/2, cxy)
	l1, l2 := (cxx+cyy)/2+d, (cxx+cyy)/2-d
	a := 0.5*math.Atan2(2*cxy, cxx-cyy) - math.Atan2(rect.U.Y, rect.U.X)
	return wrapQuarter(a), math.Sqrt(l1 / math.Max(l2, 1e-9))
}

// numFineTurns and numFineFaces are the numbers of turns and of faces the
// fine search looks at.
const (
	numFineTurns = 2
	numFineFaces = 4
)

// read reads the numeral on the face found at rect, turned by each of
// turns (radians, at most len(numeralTurnSearch)); ok is false when no
// numeral shows. Coarse to fine: at every turn the numeral's patch, at the
// four quarter turns, is matched with the examples' untilted templates;
// at the numFineTurns turns that match best, the numFineFaces faces that
// match best are matched with all their templates (the examples turned a
// little too), the patch shifted by a cell each way, at the quarter turn
// each face matched best there.
func (nr *numeralReader) read(im dieImage, rect dieRect, turns []float64) (numeralMatch, bool) {
	nr.prepare()
	// The ink is segmented at the first turn; the numeral's box at the
	// others is that of its ink cells along their axes (segmenting again
	// at every turn finds the same strokes, at twice the cost).
	nt := 0
	nr.ink0 = nr.ink0[:0]
	for i, a := range turns {
		rr := turnedRect(rect, a)
		var ok bool
		if i == 0 || len(nr.ink0) == 0 {
			ok = nr.features(im, rr, &nr.fq[nt])
		} else {
			ok = nr.featuresTurned(im, rr, &nr.fq[nt])
		}
		if ok {
			nr.fturn[nt] = a
			nr.coarse(nt)
			nt++
		}
	}
	if nt == 0 {
		return numeralMatch{}, false
	}
	best, rot, turn := nr.best, nr.rot, nr.turn
	for fc := range best {
		best[fc] = -2
		for ti := range nt {
			if s := nr.cs[ti*nr.nfaces+fc]; s > best[fc] {
				best[fc], rot[fc], turn[fc] = s, nr.cr[ti*nr.nfaces+fc], nr.fturn[ti]
			}
		}
	}
	// Each face is matched finely where it matched best and at the turns
	// that matched best: a face matched finely at one turn and coarsely at
	// another would lose to one matched finely at both.
	var topBuf [numFineFaces]int
	var turnBuf [numFineTurns]int
	top := topFaces(topBuf[:0], best, numFineFaces)
	tops := topFaces(turnBuf[:0], nr.tscore[:nt], numFineTurns)
	for ti := range nt {
		faces := nr.fineFaces[:0]
		for _, fc := range top {
			if slices.Contains(tops, ti) || nr.fturn[ti] == turn[fc] {
				faces = append(faces, fc)
			}
		}
		nr.fineFaces = faces
		if len(faces) > 0 {
			nr.fine(ti, faces)
		}
	}
	m := numeralMatch{face: -1, second: -1}
	for f, s := range best {
		switch {
		case m.face < 0 || s > best[m.face]:
			m.second, m.face = m.face, f
		case m.second < 0 || s > best[m.second]:
			m.second = f
		}
	}
	m.score = float64(best[m.face])
	m.rot, m.turn = rot[m.face], turn[m.face]
	m.margin = m.score
	if m.second >= 0 {
		m.margin = m.score - float64(best[m.second])
	}
	return m, true
}

// prepare sizes the reader's per-face scratch.
func (nr *numeralReader) prepare() {
	if len(nr.best) == nr.nfaces {
		return
	}
	nr.best = make([]float32, nr.nfaces)
	nr.rot = make([]int, nr.nfaces)
	nr.turn = make([]float64, nr.nfaces)
	nr.cs = make([]float32, len(numeralTurnSearch)*nr.nfaces)
	nr.cr = make([]int, len(numeralTurnSearch)*nr.nfaces)
}

// turnedRect is rect with its axes turned by a (radians); a turned square
// must still hold the face.
func turnedRect(rect dieRect, a float64) dieRect {
	if a == 0 {
		return rect
	}
	rr := rect
	rr.U = rect.U.rotate(a)
	h := math.Max(rect.HU, rect.HV)
	rr.HU, rr.HV = h, h
	return rr
}

// coarse matches the patch found at turn ti, at the four quarter turns,
// with the untilted templates: each face's best score and quarter turn,
// and the turn's best score.
func (nr *numeralReader) coarse(ti int) {
	q := &nr.q
	q[0] = nr.fq[ti]
	for r := 1; r < 4; r++ {
		rotNum(&q[r], &q[r-1])
	}
	cs, cr := nr.cs[ti*nr.nfaces:(ti+1)*nr.nfaces], nr.cr[ti*nr.nfaces:(ti+1)*nr.nfaces]
	for i := range cs {
		cs[i], cr[i] = -2, 0
	}
	qs := [4][]float32{q[0][:], q[1][:], q[2][:], q[3][:]}
	for _, t := range nr.untilted {
		fc := nr.face[t]
		s4 := fdot.Dot4(&qs, nr.tmpl[t][:])
		for r, s := range s4 {
			if s > cs[fc] {
				cs[fc], cr[fc] = s, r
			}
		}
	}
	nr.tscore[ti] = slices.Max(cs)
}

// fine matches faces' templates with the patch found at turn ti, shifted
// by a cell each way, at the quarter turn each face matched best there.
func (nr *numeralReader) fine(ti int, faces []int) {
	q := &nr.q
	for k, sh := range numShifts {
		shiftNum(&q[4*k], &nr.fq[ti], sh[0], sh[1])
		for r := 1; r < 4; r++ {
			rotNum(&q[4*k+r], &q[4*k+r-1])
		}
	}
	for _, fc := range faces {
		r := nr.cr[ti*nr.nfaces+fc]
		ts := nr.byFace[fc]
		// Every template with every shift: dots[k*len(ts)+i] is template
		// ts[i] with shift k.
		nr.dots = growFloat32s(nr.dots, len(numShifts)*len(ts))
		for k := range numShifts {
			dotsWith(q[4*k+r][:], nr.dots[k*len(ts):(k+1)*len(ts)], func(i int) []float32 { return nr.tmpl[ts[i]][:] })
		}
		for i := range ts {
			for k := range numShifts {
				if s := nr.dots[k*len(ts)+i]; s > nr.best[fc] {
					nr.best[fc], nr.rot[fc], nr.turn[fc] = s, r, nr.fturn[ti]
				}
			}
		}
	}
}

// numeralTurnSearch are the turns of the found face the numeral is read
// at: a d10's kite taken for the face gives a rectangle that need not be
// square to the face, so the numeral may stand at any angle in it.
var numeralTurnSearch = [...]float64{0, math.Pi / 12, -math.Pi / 12, math.Pi / 6, -math.Pi / 6, math.Pi / 4}

// numeralPerturb are the changes of the found face a numeral's reading
// must survive: a little smaller, larger and shifted.
var numeralPerturb = [...]struct{ k, du, dv float64 }{{0.88, 0, 0}, {1.12, 0, 0}, {1, 0.08, 0.08}, {1, -0.08, -0.08}}

// readNumeral reads a numeric face by its numeral ([numeralReader]) and
// returns the face, its confidence and the face's rectangle. tface is the
// face the whole-face templates read. A reading whose margin is not clear
// and that changes when the face is taken a little smaller, larger or
// shifted (read at the turn the face was read at) is not sure, and so is
// a stroke-like numeral read at a turn far from its stroke's. The face's
// rectangle is moved onto the numeral
// when their middles lie far apart (a face found with part of its shadow):
// a numeral stands in the middle of its face.
func (r *faceReader) readNumeral(im dieImage, rect dieRect, tface int) (int, float64, dieRect) {
	m, ok := r.num.read(im, rect, numeralTurnSearch[:])
	if !ok {
		return tface, 0, rect
	}
	found := rect
	if c := r.num.centre; c.sub(rect.C).len() > numeralRecentre*2*math.Sqrt(rect.HU*rect.HV) {
		found.C = c
	}
	conf := m.confidence()
	if ax, el := r.num.inkAxis(rect); el >= numStroke && math.Abs(wrapQuarter(m.turn-ax)) > numStrokeTurn {
		// A stroke-like numeral read turned far from its stroke: another
		// numeral's slanted stroke (a 1 read as a 7).
		conf = math.Min(conf, 0.5*r.threshold)
	}
	if conf < r.threshold || m.margin >= numeralMarginScale {
		// Uncertain already, or a clear margin (on training scenes no
		// reading with one changed when the face was perturbed).
		return m.face, conf, found
	}
	turn := [1]float64{m.turn}
	for _, v := range numeralPerturb {
		p := rect
		p.HU, p.HV = rect.HU*v.k, rect.HV*v.k
		p.C = rect.C.add(rect.U.scale(v.du * 2 * rect.HU)).add(rect.v().scale(v.dv * 2 * rect.HV))
		if pm, ok := r.num.read(im, p, turn[:]); ok && pm.face != m.face {
			conf = math.Min(conf, 0.5*r.threshold)
			break
		}
	}
	return m.face, conf, found
}

// numeralRecentre is the distance, in face sides, of the numeral's middle
// from the face's beyond which the face is moved onto the numeral.
const numeralRecentre = 0.15

// numShifts are the query's shifts (cells of the patch).
var numShifts = [...][2]int{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// shiftNum writes src moved by (dx, dy) to dst, repeating the edge, and
// renormalises it.
func shiftNum(dst, src *numFeat, dx, dy int) {
	var sum float32
	for y := 0; y < numSide; y++ {
		sy := clampInt(y-dy, 0, numSide-1)
		for x := 0; x < numSide; x++ {
			v := src[sy*numSide+clampInt(x-dx, 0, numSide-1)]
			dst[y*numSide+x] = v
			sum += v
		}
	}
	mean := sum / numLen
	var ss float64
	for i := range dst {
		dst[i] -= mean
		ss += float64(dst[i]) * float64(dst[i])
	}
	if ss < 1e-9 {
		return
	}
	k := float32(1 / math.Sqrt(ss))
	for i := range dst {
		dst[i] *= k
	}
}

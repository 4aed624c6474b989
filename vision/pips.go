package vision

// Counting the pips of a d6 face: pips differ from the face's own body
// colour, whatever their colour, and are round blobs of about one size.

import "math"

// pipScratch holds buffers for countPips.
type pipScratch struct {
	dist [facePatchSize * facePatchSize]float32
	far  [facePatchSize * facePatchSize]bool
	lab  [facePatchSize * facePatchSize]int32
	cl   componentLabeller
}

// countPips counts the pips on an upright d6 face patch. conf in [0, 1]
// says how clean the count was: pips of one size, clearly apart from the
// body colour.
func countPips(p *facePatch) (int, float64) {
	var s pipScratch
	return s.count(p)
}

// pipBlob is a connected part of a patch far from the body colour.
type pipBlob struct {
	area           int
	x0, y0, x1, y1 int
	cx, cy         float64
	col            [3]float64
}

// round reports whether b could be a pip: round, of a plausible size, its
// centre inside the patch.
func (b pipBlob) round() bool {
	w, h := b.x1-b.x0+1, b.y1-b.y0+1
	fill := float64(b.area) / float64(w*h)
	edge := b.cx < 2 || b.cy < 2 || b.cx > facePatchSize-3 || b.cy > facePatchSize-3
	return !edge && b.area >= 6 && b.area <= 260 && fill >= 0.55 && max(w, h) <= (3*min(w, h))/2+1
}

// bodyColour is the per-channel median of the patch (the body covers most
// of a face).
func (s *pipScratch) bodyColour(p *facePatch) [3]float32 {
	const n = facePatchSize * facePatchSize
	var hist [3][256]int
	for i := 0; i < n; i++ {
		hist[0][p[3*i]]++
		hist[1][p[3*i+1]]++
		hist[2][p[3*i+2]]++
	}
	var body [3]float32
	for c := range hist {
		// The value sorting would put at n/2.
		acc := 0
		for v, k := range hist[c] {
			if acc += k; acc > n/2 {
				body[c] = float32(v)
				break
			}
		}
	}
	return body
}

// segment splits the patch into the connected parts far from the body
// colour (Otsu's threshold on the distance to it, at least 40, times k)
// and returns them and the threshold.
func (s *pipScratch) segment(p *facePatch, body [3]float32, k float32) ([]pipBlob, float32) {
	const n = facePatchSize * facePatchSize
	var hist [443]int
	for i := 0; i < n; i++ {
		var d float32
		for c := 0; c < 3; c++ {
			x := float32(p[3*i+c]) - body[c]
			d += x * x
		}
		d = float32(math.Sqrt(float64(d)))
		s.dist[i] = d
		hist[min(442, int(d))]++
	}
	thr := otsu(hist[:])
	if thr < 40 {
		thr = 40
	}
	thr *= k
	// Components of pixels far from the body colour.
	for i, d := range s.dist {
		s.far[i] = d >= thr
	}
	var blobs []pipBlob
	s.cl.label(s.far[:], s.lab[:], facePatchSize, facePatchSize, fourConnected, func(l int32, j int) {
		if int(l) > len(blobs) {
			blobs = append(blobs, pipBlob{x0: facePatchSize, y0: facePatchSize, x1: -1, y1: -1})
		}
		b := &blobs[l-1]
		x, y := j%facePatchSize, j/facePatchSize
		b.area++
		b.cx += float64(x)
		b.cy += float64(y)
		for c := 0; c < 3; c++ {
			b.col[c] += float64(p[3*j+c])
		}
		b.x0, b.y0, b.x1, b.y1 = min(b.x0, x), min(b.y0, y), max(b.x1, x), max(b.y1, y)
	})
	for i := range blobs {
		b := &blobs[i]
		b.cx /= float64(b.area)
		b.cy /= float64(b.area)
		for c := 0; c < 3; c++ {
			b.col[c] /= float64(b.area)
		}
	}
	return blobs, thr
}

// loneIn reports whether the round blob at the centre of blobs (the blobs
// of a face taken k times as large, see widePipBlobs) has no other blob
// like it.
func loneIn(blobs []pipBlob, k float64) bool {
	mid := float64(facePatchSize) / 2
	pi := -1
	for i, b := range blobs {
		if b.round() && math.Hypot(b.cx+0.5-mid, b.cy+0.5-mid) < 0.2*facePatchSize/k {
			if pi < 0 || b.area > blobs[pi].area {
				pi = i
			}
		}
	}
	if pi < 0 {
		return false
	}
	for i, b := range blobs {
		if i != pi && pipShaped(b) && alikeBlobs(blobs[pi].area, b.area, blobs[pi].col, b.col) {
			return false
		}
	}
	return true
}

// exposed writes p to q scaled so that its 97th percentile of the
// brightest channel is 200 (gain 1 … 3).
func exposed(p, q *facePatch) { applyGain(p, q, exposureGain(p)) }

// exposureGain is the gain that brings patch p's 97th percentile of the
// brightest channel to about 200 (1 … 3).
func exposureGain(p *facePatch) float64 {
	const n = facePatchSize * facePatchSize
	var hist [256]int
	for i := 0; i < n; i++ {
		hist[max(p[3*i], p[3*i+1], p[3*i+2])]++
	}
	v, acc := 255, 0
	for ; v > 0; v-- {
		if acc += hist[v]; acc >= n*3/100 {
			break
		}
	}
	if v <= 0 {
		return 1
	}
	return min(3, max(1, 200/float64(v)))
}

// applyGain writes p times g to q.
func applyGain(p, q *facePatch, g float64) {
	for i := range p {
		q[i] = byte(min(255, float64(p[i])*g+0.5))
	}
}

func (s *pipScratch) count(p *facePatch) (int, float64) {
	r := s.read(p)
	return r.n, r.conf
}

// pipReading is how a face patch's pips were counted.
type pipReading struct {
	n    int     // the count
	conf float64 // contrast × fit × (1 - 0.5 odd)
	// contrast says how far the pips stand from the body colour, fit how
	// well they make a d6 layout; odd counts blobs of the pips' colour
	// that are no pips.
	contrast, fit float64
	odd           int
	area          float64 // the pips' mean area in patch pixels
}

func (s *pipScratch) read(p *facePatch) pipReading {
	// In dim light every colour difference shrinks with the light: the
	// patch is brought to a normal exposure first (its brightest pixels
	// to about 200, at most 3 times brighter), so that the colour
	// thresholds below mean the same in any light.
	var q facePatch
	exposed(p, &q)
	p = &q
	body := s.bodyColour(p)
	r := s.readAt(p, body, 1)
	if r.conf < 0.5 {
		// Pips close together (a six) may run into one another where
		// their blurred rims meet: a stricter threshold parts them.
		if r2 := s.readAt(p, body, 1.5); r2.conf > r.conf {
			r = r2
		}
	}
	return r
}

func (s *pipScratch) readAt(p *facePatch, body [3]float32, k float32) pipReading {
	blobs, _ := s.segment(p, body, k)
	// Round blobs of a plausible size whose centre is inside the face.
	var cand []pipBlob
	for _, b := range blobs {
		if b.round() {
			cand = append(cand, b)
		}
	}
	if len(cand) == 0 {
		return pipReading{}
	}
	// Pips share one colour and one size (a big one-pip is alone): of the
	// groups of alike blobs, keep the one that sits best where a d6 puts
	// its pips (a marbled body makes blobs of its own).

	best := pipReading{conf: -1}
	for _, ref := range cand {
		count, odd := 0, 0
		var pts [6]diePt
		area := 0.0
		for _, b := range cand {
			switch {
			case alikeBlobs(ref.area, b.area, ref.col, b.col):
				if count < 6 {
					pts[count] = diePt{b.cx + 0.5, b.cy + 0.5}
				}
				area += float64(b.area)
				count++
			case colourDist(ref.col, b.col) < 90:
				// A blob of the pips' colour that is no pip.
				odd++
			}
		}
		// Contrast: how far the pips' colour is from the body's.
		var dc float64
		for c := 0; c < 3; c++ {
			dc += (ref.col[c] - float64(body[c])) * (ref.col[c] - float64(body[c]))
		}
		contrast := clamp01((math.Sqrt(dc) - 30) / 50)
		r := pipReading{n: count, contrast: contrast, odd: odd, area: area / float64(max(count, 1))}
		if count <= 6 {
			r.fit = pipLayoutFit(pts[:count], area/float64(count), facePatchSize)
			r.conf = clamp01(1-0.5*float64(odd)) * contrast * r.fit
		}
		if r.conf > best.conf || r.conf == best.conf && r.n > best.n {
			best = r
		}
	}
	return best
}

// pipGrids are the cells of a 3×3 grid (x, y in -1 … 1) the pips of each
// d6 face take, in every way a die may show them (quarter turns).
var pipGrids = [7][][][2]int{
	1: {{{0, 0}}},
	2: {{{1, -1}, {-1, 1}}, {{-1, -1}, {1, 1}}},
	3: {{{1, -1}, {0, 0}, {-1, 1}}, {{-1, -1}, {0, 0}, {1, 1}}},
	4: {{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}},
	5: {{{-1, -1}, {1, -1}, {0, 0}, {-1, 1}, {1, 1}}},
	6: {{{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 0}, {1, 1}}, {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {0, 1}, {1, 1}}},
}

// pipLayoutFit says in [0, 1] how well pip centres pts (in a face patch of
// side side, mean pip area area) make one of the d6 layouts: a 3×3 grid around their centroid
// (every layout's pips are centred on the face), its spacing a sixth to a
// third of the face, each pip within a third of the spacing of its cell.
func pipLayoutFit(pts []diePt, area, side float64) float64 {
	n := len(pts)
	if n < 1 || n > 6 {
		return 0
	}
	var c diePt
	for _, p := range pts {
		c = c.add(p)
	}
	c = c.scale(1 / float64(n))
	mid := diePt{side / 2, side / 2}
	// The centroid is the face's centre.
	fit := clamp01(1 - (c.sub(mid).len()/side-0.1)/0.1)
	if n == 1 {
		// A one's pip is large, but not a third of the face: a pip that
		// large is a pip of a larger face seen through a part of it.
		r := math.Sqrt(area/math.Pi) / side
		return fit * clamp01(1-(r-0.15)/0.02)
	}
	// Grid spacing: the mean of the pips' largest offset, centre pip left
	// out.
	big := 0.0
	for _, p := range pts {
		o := p.sub(c)
		big = math.Max(big, math.Max(math.Abs(o.X), math.Abs(o.Y)))
	}
	sp, m := 0.0, 0
	for _, p := range pts {
		o := p.sub(c)
		if a := math.Max(math.Abs(o.X), math.Abs(o.Y)); a > 0.5*big {
			sp += a
			m++
		}
	}
	sp /= float64(m)
	// Pips sit about a quarter of the face from its centre (a patch
	// leaves out 4% on each side).
	if sp < 0.2*side || sp > 0.34*side {
		return 0
	}
	// Pips are far smaller than their spacing (at most half of it: larger
	// ones are pips of a larger face seen through a part of it — a five's
	// diagonal pair makes a two).
	if r := math.Sqrt(area / math.Pi); r < 0.18*sp || r > 0.5*sp {
		return 0
	}
	var cells [3][3]bool
	worst := 0.0
	for _, p := range pts {
		o := p.sub(c).scale(1 / sp)
		gx, gy := math.Round(o.X), math.Round(o.Y)
		if math.Abs(gx) > 1 || math.Abs(gy) > 1 {
			return 0
		}
		worst = math.Max(worst, math.Hypot(o.X-gx, o.Y-gy))
		if cells[int(gy)+1][int(gx)+1] {
			return 0
		}
		cells[int(gy)+1][int(gx)+1] = true
	}
	match := false
	for _, g := range pipGrids[n] {
		ok := true
		for _, xy := range g {
			ok = ok && cells[xy[1]+1][xy[0]+1]
		}
		match = match || ok
	}
	if !match {
		return 0
	}
	return fit * clamp01(1-(worst-0.2)/0.2)
}

// alikeBlobs reports whether two blobs could be pips of one die.
func alikeBlobs(a1, a2 int, c1, c2 [3]float64) bool {
	r := float64(a1) / float64(a2)
	d := math.Abs(c1[0]-c2[0]) + math.Abs(c1[1]-c2[1]) + math.Abs(c1[2]-c2[2])
	return r > 0.45 && r < 2.2 && d < 90
}

func colourDist(c1, c2 [3]float64) float64 {
	return math.Abs(c1[0]-c2[0]) + math.Abs(c1[1]-c2[1]) + math.Abs(c1[2]-c2[2])
}

// otsu returns the threshold that best splits a histogram in two.
func otsu(h []int) float32 {
	total, sum := 0, 0.0
	for i, c := range h {
		total += c
		sum += float64(i * c)
	}
	if total == 0 {
		return 0
	}
	var wb, sb float64
	best, bt := -1.0, 0
	for t, c := range h {
		wb += float64(c)
		if wb == 0 {
			continue
		}
		wf := float64(total) - wb
		if wf == 0 {
			break
		}
		sb += float64(t * c)
		mb, mf := sb/wb, (sum-sb)/wf
		if v := wb * wf * (mb - mf) * (mb - mf); v > best {
			best, bt = v, t
		}
	}
	return float32(bt) + 0.5
}

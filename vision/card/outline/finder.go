package outline

// Finding card outlines. Contours of an edge map do not work here: a card's
// outline merges with the thumb and hand holding it, with its shadow and
// with whatever the table shows. Instead: Canny edges at half resolution
// are cut into straight segments; collinear segments join into lines (a
// side broken by a thumb is one line); two nearly parallel lines facing
// each other and two lines crossing the strip between them make a quad
// when the lines cover enough of its sides; quads along whose sides the
// brightness steps all round are kept, re-fitted side by side to the
// strongest edge nearby at full resolution, and the best of overlapping
// ones stays, with the others as alternatives for recognition.

import (
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Candidate is a card outline: a quadrilateral found in an edge
// map, in full-resolution image coordinates (pixel centres at integers),
// clockwise on screen.
type Candidate struct {
	Q       [4]geom.Point
	Area    float64
	Score   float64 // how well edges support it
	Refined bool    // sides re-fitted at full resolution
	// Alts are other outlines found for the same card: its inner frame,
	// the card with its shadow. Recognition tries them too.
	Alts [][4]geom.Point
}

// NewCandidate orders q clockwise and checks it as geom.QuadOK does; ok
// is false when it fails.
func NewCandidate(q [4]geom.Point, minSide, maxSide float64) (Candidate, bool) {
	q, area, ok := geom.QuadOK(q, minSide, maxSide)
	if !ok {
		return Candidate{}, false
	}
	return Candidate{Q: q, Area: area}, true
}

// Finder finds card outlines in pictures. It keeps its buffers between
// pictures and is not safe for concurrent use; Close releases it.
type Finder struct {
	blur, edges gocv.Mat
	dx, dy      gocv.Mat // scratch: gradients (edgesOf)
	polys       edgePolys
	cands       []Candidate
	// Canny thresholds on the blurred half-resolution image.
	lo, hi float32
	busy   bool // the last edge map took the doubled thresholds (edgesOf)
	geom.SideFitter
	// straight pieces of edges: x0, y0, x1, y1, length.
	segs [][5]float64
	// line indices by direction (lines).
	byDir [90][]int
	// Keep, when set, clears the edge map (cols × rows at Find's scale of
	// the place from Origin, 255 on an edge) where no card's edge can be
	// (the card reader: far from what changed against the empty table).
	Keep func(edges []uint8, cols, rows int, origin image.Point, scale float64)
	// Origin is the place's top-left corner for Keep.
	Origin image.Point
}

// NewFinder returns a finder.
func NewFinder() *Finder {
	return &Finder{blur: gocv.NewMat(), edges: gocv.NewMat(), dx: gocv.NewMat(), dy: gocv.NewMat(), lo: 30, hi: 90}
}

// Close releases the finder's buffers.
func (f *Finder) Close() {
	f.blur.Close()
	f.edges.Close()
	f.dx.Close()
	f.dy.Close()
}

// find returns card-like quadrilaterals in the half-resolution image half
// (BGR or grey; scale: half-resolution pixels per full-resolution pixel),
// re-fitted on the full-resolution view gr (BGR or grey: colour edges
// between equally bright colours count), with widths (short sides) from minW
// to maxW full-resolution pixels, best first. Of overlapping outlines the
// best stays (a card's outline wins over its inner frame when nearly as
// good); the others become its alternatives.
func (f *Finder) Find(half gocv.Mat, scale float64, gr geom.View, minW, maxW float64) ([]Candidate, error) {
	gocv.GaussianBlur(half, &f.blur, image.Pt(5, 5), 1.2, 1.2, gocv.BorderReplicate)
	if err := f.edgesOf(f.blur); err != nil {
		return nil, fmt.Errorf("card outlines: %w", err)
	}
	if f.Keep != nil {
		e, err := f.edges.DataPtrUint8()
		if err != nil {
			return nil, fmt.Errorf("card outlines: edge map: %w", err)
		}
		f.Keep(e, f.edges.Cols(), f.edges.Rows(), f.Origin, scale)
	}
	lines, err := f.lines(f.edges, minW*scale)
	if err != nil {
		return nil, fmt.Errorf("card outlines: %w", err)
	}
	quads := quadsFromLines(lines, minW*scale, maxW*scale)
	// Keep the half-resolution quads along whose sides a step in
	// brightness runs nearly all round (lines of clutter that happen to
	// form a quad do not have one), then take the outermost of overlapping
	// ones: a card's outline rather than its inner frame or picture.
	hg, err := viewOf(f.blur)
	if err != nil {
		return nil, fmt.Errorf("card outlines: %w", err)
	}
	f.cands = f.cands[:0]
	// Best-covered first; only the first maxChecked plausible quads are
	// checked for a step all round (heavy clutter makes thousands).
	slices.SortFunc(quads, func(a, b halfQuad) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	checked := 0
	for _, hq := range quads {
		var q [4]geom.Point
		for k := range q {
			q[k] = geom.Point{X: float32((float64(hq.q[k].X)+0.5)/scale - 0.5), Y: float32((float64(hq.q[k].Y)+0.5)/scale - 0.5)}
		}
		cand, ok := NewCandidate(q, minW, maxW*AspectMax)
		if !ok || !Plausible(cand.Q, minW, maxW) {
			continue
		}
		if checked++; checked > maxChecked {
			break
		}
		cont := stepContinuity(hg, hq.q, minContinuity)
		if cont < minContinuity {
			continue
		}
		cand.Score = hq.score * cont
		f.cands = append(f.cands, cand)
	}
	// Best first. A candidate is re-fitted at full resolution unless a
	// re-fitted outline already covers it; one that cannot be re-fitted is
	// kept aside and used only if no re-fitted outline covers its place.
	SortByScore(f.cands)
	var out, rough []Candidate
	refits := 0
	for _, c := range f.cands {
		taken := -1
		for i, o := range out {
			if Overlap(c.Q, o.Q) {
				taken = i
				break
			}
		}
		replace := false
		if taken >= 0 {
			// A card's outline around its inner frame, taken first,
			// replaces it when nearly as good; other overlapping
			// candidates become its alternatives.
			o := out[taken]
			replace = geom.InQuad(geom.QuadCentre(o.Q), c.Q) && c.Area > o.Area && o.Area > 0.55*c.Area && c.Score > 0.6*o.Score
			if !replace && (len(o.Alts) >= MaxAlts || !geom.InQuad(geom.QuadCentre(c.Q), o.Q)) {
				continue
			}
		}
		if refits >= maxRefits {
			break
		}
		refits++
		rc, strength, ok := f.Refined(gr, c.Q, minW, maxW)
		if ok {
			rc.Score = c.Score * min(1, strength/40)
			rc.Refined = true
			c = rc
		}
		switch {
		case !ok && taken < 0:
			rough = append(rough, c)
		case !ok:
		case taken >= 0 && replace:
			c.Alts = append(out[taken].Alts, out[taken].Q)
			out[taken] = c
		case taken >= 0:
			if d := AltDistance(c.Q, out[taken]); d > 1.5 {
				out[taken].Alts = append(out[taken].Alts, c.Q)
			}
		case len(out) < maxOutlines:
			out = append(out, c)
		}
	}
	// A refined outline may be a card's inner frame, its own edge a little
	// farther out and fainter: the outline grown and re-fitted from there is
	// an alternative, tried first.
	for i := range out {
		c := &out[i]
		if !c.Refined {
			continue
		}
		rq, _, ok := f.Refine(gr, geom.GrowQuad(c.Q, outerTry))
		if !ok {
			continue
		}
		if _, ok := NewCandidate(rq, minW, maxW*AspectMax); !ok || !Plausible(rq, minW, maxW) || geom.QuadArea(rq) <= geom.QuadArea(c.Q) {
			continue
		}
		if AltDistance(rq, *c) > 1.5 {
			c.Alts = append([][4]geom.Point{rq}, c.Alts...)
		}
	}
	for _, c := range rough {
		covered := false
		for _, o := range out {
			if Overlap(c.Q, o.Q) {
				covered = true
				break
			}
		}
		if !covered && len(out) < maxOutlines {
			c.Score *= 0.3
			out = append(out, c)
		}
	}
	return out, nil
}

// Outline search limits: the least step continuity along a quad's sides,
// and the most outlines returned.
const (
	minContinuity = 0.6
	maxOutlines   = 10
	maxChecked    = 150
	maxRefits     = 20
	// MaxAlts is the most alternatives a candidate keeps.
	MaxAlts = 2
	// outerTry is how far (of the card's size, each side) an outline
	// is grown to look for an outer edge.
	outerTry = 0.06
	// maxEdgeShare is the share of edge pixels above which the edge
	// thresholds double.
	maxEdgeShare = 0.07
)

// viewOf is geom.ColourView for a BGR image, geom.GreyView for a grey one.
func viewOf(m gocv.Mat) (geom.View, error) {
	if m.Type() == gocv.MatTypeCV8UC3 {
		return geom.ColourView(m)
	}
	return geom.GreyView(m)
}

// SortByScore sorts candidates best first, stable among equal scores.
func SortByScore(c []Candidate) {
	slices.SortStableFunc(c, func(a, b Candidate) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
}

// stepContinuity returns the fraction of points along the quad's sides
// (corners left out) where the brightness steps across the side by a
// clear amount, in g. Each side counts equally; the weakest side counts
// twice (a card's edge runs all round). As soon as the quad cannot reach
// floor any more, it returns what it could reach at most (below floor):
// the caller only needs to know that it falls short.
func stepContinuity(g geom.View, q [4]geom.Point, floor float64) float64 {
	const n = 12
	// The bound is at least the value (a margin for rounding): a quad is
	// given up only when it falls short by more than that.
	floor -= 1e-9
	flip := geom.QuadArea(q) > 0 && !geom.Clockwise(q)
	var sides [4][6]float64 // a side's first corner, direction and outward normal
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
		l := math.Hypot(dx, dy)
		if l < 4 {
			return 0
		}
		nx, ny := dy/l, -dx/l // outward for a clockwise quad
		if flip {
			nx, ny = -nx, -ny
		}
		sides[k] = [6]float64{float64(a.X), float64(a.Y), dx, dy, nx, ny}
	}
	return stepSides(g, &sides, floor)
}

// stepSides is stepContinuity's sampling of the four sides (first
// corner, direction, outward normal each), floor lowered already.
func stepSides(g geom.View, sides *[4][6]float64, floor float64) float64 {
	const n = 12
	sum, worst := 0.0, 1.0
	for k, s := range sides {
		ax, ay, dx, dy, nx, ny := s[0], s[1], s[2], s[3], s[4], s[5]
		hits, misses := 0, 0
		for i := range n {
			t := 0.12 + 0.76*(float64(i)+0.5)/n
			px, py := ax+dx*t, ay+dy*t
			if g.Diff(px-nx*2, py-ny*2, px+nx*2, py+ny*2) >= 10 {
				hits++
				continue
			}
			misses++
			// At most: this side's other points and the sides after it
			// all steps.
			c := float64(n-misses) / n
			if most := (sum + c + float64(3-k) + min(worst, c)) / 5; most < floor {
				return most
			}
		}
		c := float64(hits) / n
		sum += c
		worst = min(worst, c)
	}
	return (sum + worst) / 5
}

// segLine is a straight edge in the half-resolution image: points
// p0 + t·d (d a unit vector), covered by its segments over ivals, which
// span [t0, t1] and cover a total length cover.
type segLine struct {
	p0x, p0y, dx, dy float64
	t0, t1           float64
	ivals            [][2]float64 // disjoint, sorted (after finish)
	prefix           []float64    // prefix[k]: total length of ivals[:k]
	cover            float64
	// Length-weighted moments of the segments' points, for the fit.
	w, sx, sy, sxx, sxy, syy float64
	segs                     [][4]float64 // x0, y0, x1, y1
	lo, hi                   float64      // extent of segs along the fit
}

func (l *segLine) at(t float64) (float64, float64) { return l.p0x + l.dx*t, l.p0y + l.dy*t }

// add puts the segment (a, b) of length n on the line and refits it.
func (l *segLine) add(ax, ay, bx, by, n float64) {
	// A segment's points: its ends and middle, each a third of its weight.
	for _, t := range [3]float64{0, 0.5, 1} {
		x, y := ax+(bx-ax)*t, ay+(by-ay)*t
		w := n / 3
		l.w += w
		l.sx += w * x
		l.sy += w * y
		l.sxx += w * x * x
		l.sxy += w * x * y
		l.syy += w * y * y
	}
	l.segs = append(l.segs, [4]float64{ax, ay, bx, by})
	mx, my := l.sx/l.w, l.sy/l.w
	cxx, cxy, cyy := l.sxx/l.w-mx*mx, l.sxy/l.w-mx*my, l.syy/l.w-my*my
	th := 0.5 * math.Atan2(2*cxy, cxx-cyy)
	dx, dy := math.Cos(th), math.Sin(th)
	if len(l.segs) > 1 && dx*l.dx+dy*l.dy < 0 {
		dx, dy = -dx, -dy
	}
	l.p0x, l.p0y, l.dx, l.dy = mx, my, dx, dy
	l.lo, l.hi = math.Inf(1), math.Inf(-1)
	for _, sg := range l.segs {
		for _, u := range [2]float64{(sg[0]-mx)*dx + (sg[1]-my)*dy, (sg[2]-mx)*dx + (sg[3]-my)*dy} {
			l.lo, l.hi = min(l.lo, u), max(l.hi, u)
		}
	}
}

// dist is how far (x, y) lies from the line.
func (l *segLine) dist(x, y float64) float64 {
	return math.Abs((x-l.p0x)*(-l.dy) + (y-l.p0y)*l.dx)
}

// joins reports whether the segment (ax, ay)–(bx, by) joins the line: both
// its ends lie on it (within lineNear, allowing for the line's
// direction being a little off far from its centre) and the segment
// reaches to within a gap of the line's segments. A piece of a side longer
// than the gap joins too: when both its ends had to fall within the gap,
// a side shown in pieces of 20–30 px between breaks of a few pixels made
// short lines of their own and no quad.
func (l *segLine) joins(ax, ay, bx, by float64) bool {
	ta := (ax-l.p0x)*l.dx + (ay-l.p0y)*l.dy
	tb := (bx-l.p0x)*l.dx + (by-l.p0y)*l.dy
	// Within lineNear of the line, allowing for its direction being
	// a little off far from its centre.
	if l.dist(ax, ay) > lineNear+0.035*math.Abs(ta) || l.dist(bx, by) > lineNear+0.035*math.Abs(tb) {
		return false
	}
	// Not far beyond the line's segments (a side broken by a thumb still
	// joins).
	gap := max(12, 0.6*(l.hi-l.lo))
	return max(ta, tb) >= l.lo-gap && min(ta, tb) <= l.hi+gap
}

// lines extracts straight edges at least minLen/3 long from the edge map and
// merges collinear pieces.
func (f *Finder) lines(edges gocv.Mat, minLen float64) ([]segLine, error) {
	segMin := max(6, minLen/3)
	if err := f.polys.find(edges, segMin, 1.2); err != nil {
		return nil, fmt.Errorf("edge polygons: %w", err)
	}
	f.segs = f.segs[:0]
	off := 0
	for _, n32 := range f.polys.n {
		n := int(n32)
		poly := f.polys.xy[2*off : 2*(off+n)]
		off += n
		for k := range n {
			k1 := (k + 1) % n
			ax, ay, bx, by := poly[2*k], poly[2*k+1], poly[2*k1], poly[2*k1+1]
			dx, dy := float64(bx-ax), float64(by-ay)
			l := math.Hypot(dx, dy)
			if l < segMin {
				continue
			}
			f.segs = append(f.segs, [5]float64{float64(ax), float64(ay), float64(bx), float64(by), l})
		}
	}
	// Longest first, so that a line starts from its longest piece.
	slices.SortFunc(f.segs, func(a, b [5]float64) int {
		switch {
		case a[4] > b[4]:
			return -1
		case a[4] < b[4]:
			return 1
		}
		return 0
	})
	// Lines are kept in buckets by direction, so a segment is only
	// compared with lines pointing its way.
	const nb = 90 // 2° per bucket over 180°
	bucket := func(dx, dy float64) int {
		a := math.Atan2(dy, dx)
		if a < 0 {
			a += math.Pi
		}
		return int(a/math.Pi*nb) % nb
	}
	for b := range f.byDir {
		f.byDir[b] = f.byDir[b][:0]
	}
	var lines []segLine
	cosTol := math.Cos(4 * math.Pi / 180)
	for _, sg := range f.segs {
		ax, ay, bx, by, n := sg[0], sg[1], sg[2], sg[3], sg[4]
		dx, dy := (bx-ax)/n, (by-ay)/n
		b0 := bucket(dx, dy)
		merged := false
		for db := -2; db <= 2 && !merged; db++ {
			for _, k := range f.byDir[(b0+db+nb)%nb] {
				ln := &lines[k]
				if math.Abs(ln.dx*dx+ln.dy*dy) < cosTol || !ln.joins(ax, ay, bx, by) {
					continue
				}
				ln.add(ax, ay, bx, by, n)
				merged = true
				break
			}
		}
		if !merged {
			var ln segLine
			ln.add(ax, ay, bx, by, n)
			lines = append(lines, ln)
			f.byDir[b0] = append(f.byDir[b0], len(lines)-1)
		}
	}
	// Pieces of one edge that started lines of their own (their first
	// segments pointed a little apart) join here, once each line's fit
	// holds all its segments.
	dead := make([]bool, len(lines))
	cosMerge := math.Cos(2.5 * math.Pi / 180)
	for i := range lines {
		if dead[i] {
			continue
		}
		a := &lines[i]
		for again := true; again; {
			again = false
			b0 := bucket(a.dx, a.dy)
			for db := -2; db <= 2; db++ {
				for _, j := range f.byDir[(b0+db+nb)%nb] {
					if j == i || dead[j] {
						continue
					}
					b := &lines[j]
					if math.Abs(a.dx*b.dx+a.dy*b.dy) < cosMerge {
						continue
					}
					ok := true
					for _, sg := range b.segs {
						if !a.joins(sg[0], sg[1], sg[2], sg[3]) {
							ok = false
							break
						}
					}
					if !ok {
						continue
					}
					for _, sg := range b.segs {
						a.add(sg[0], sg[1], sg[2], sg[3], math.Hypot(sg[2]-sg[0], sg[3]-sg[1]))
					}
					dead[j] = true
					again = true // a's fit changed
				}
			}
		}
	}
	out := lines[:0]
	for i := range lines {
		if !dead[i] {
			lines[i].finish()
			out = append(out, lines[i])
		}
	}
	return out, nil
}

// finish projects the line's segments onto it and merges them into
// disjoint intervals, its extent and coverage.
func (l *segLine) finish() {
	raw := make([][2]float64, 0, len(l.segs))
	for _, sg := range l.segs {
		ta := (sg[0]-l.p0x)*l.dx + (sg[1]-l.p0y)*l.dy
		tb := (sg[2]-l.p0x)*l.dx + (sg[3]-l.p0y)*l.dy
		raw = append(raw, [2]float64{min(ta, tb), max(ta, tb)})
	}
	slices.SortFunc(raw, func(a, b [2]float64) int {
		switch {
		case a[0] < b[0]:
			return -1
		case a[0] > b[0]:
			return 1
		}
		return 0
	})
	l.ivals = l.ivals[:0]
	for _, iv := range raw {
		if n := len(l.ivals); n > 0 && iv[0] <= l.ivals[n-1][1] {
			l.ivals[n-1][1] = max(l.ivals[n-1][1], iv[1])
			continue
		}
		l.ivals = append(l.ivals, iv)
	}
	l.prefix = make([]float64, len(l.ivals)+1)
	for k, iv := range l.ivals {
		l.prefix[k+1] = l.prefix[k] + iv[1] - iv[0]
	}
	l.t0, l.t1 = l.ivals[0][0], l.ivals[len(l.ivals)-1][1]
	l.cover = l.prefix[len(l.ivals)]
}

// covered returns the length of the line's intervals below t.
func (l *segLine) covered(t float64) float64 {
	// First interval ending at or after t: a line has few, a scan finds
	// it sooner than a binary search.
	k := 0
	if len(l.ivals) <= 16 {
		for k < len(l.ivals) && l.ivals[k][1] < t {
			k++
		}
	} else {
		k, _ = slices.BinarySearchFunc(l.ivals, t, func(iv [2]float64, t float64) int {
			switch {
			case iv[1] < t:
				return -1
			case iv[1] > t:
				return 1
			}
			return 0
		})
	}
	c := l.prefix[k]
	if k < len(l.ivals) && t > l.ivals[k][0] {
		c += t - l.ivals[k][0]
	}
	return c
}

type halfQuad struct {
	q     [4]geom.Point
	score float64
}

// coverage returns how much of [lo, hi] the line's intervals cover.
func (l *segLine) coverage(lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	return l.covered(hi) - l.covered(lo)
}

// maxLines bounds the lines that take part in the quad search, and
// maxQuads the quads it returns (heavy clutter).
const (
	maxLines = 80
	maxQuads = 2000
	// lineNear is how far (half-resolution pixels) a segment may lie
	// from a line to join it (joins). A card's side often shows as two
	// edges 2–3 px apart, its rim against the table and the line of its
	// printed frame just inside, each broken where the table's pattern
	// matches the rim (a plaid's dark stripe along a dark border): nearer
	// than about 3 px the pieces make short lines of their own and no quad
	// (TestCardLineJoinsInnerEdge; smaller values lose cards of
	// TestCardsWholeFrame's plaid scenes, TestCardsFollow's and
	// TestCardsAddedEveryFrame's), while 3.6 joins no line of the card's
	// art. The side is re-fitted to the edge at full resolution anyway.
	lineNear = 3.6
)

// intersect returns where lines a and b cross, as positions along each.
func intersect(a, b *segLine) (ta, tb float64, ok bool) {
	det := a.dx*(-b.dy) - a.dy*(-b.dx)
	if math.Abs(det) < 1e-9 {
		return 0, 0, false
	}
	rx, ry := b.p0x-a.p0x, b.p0y-a.p0y
	return (rx*(-b.dy) - ry*(-b.dx)) / det, (a.dx*ry - a.dy*rx) / det, true
}

// crossing is a line crossing the strip between two opposite sides.
type crossing struct {
	line   int
	ua, ub float64 // where it meets side a and side b, along them
	uc, ud float64 // along itself, at side a and side b
}

// quadsFromLines finds convex quadrilaterals whose sides lie on four of
// the lines, each covering a good part of its side (a thumb or a faint
// stretch may break a side), the sides from minW/2 to maxW·AspectMax
// long. It pairs nearly parallel lines as opposite sides, then looks for
// two lines crossing the strip between them. A quad whose lines run on
// well past three of its corners (a grid of stripes, not a card) is dropped.
func quadsFromLines(lines []segLine, minW, maxW float64) []halfQuad {
	var idx []int
	for i, l := range lines {
		if l.cover >= 0.3*minW {
			idx = append(idx, i)
		}
	}
	// Strongest lines first (and only the strongest in heavy clutter).
	// Lines far longer than a card's long side (the stripes of a plaid, a
	// table's planks) come after the others: they would crowd the card's
	// own edges out.
	longest := 1.2 * maxW * longSide
	key := func(i int) float64 {
		if l := &lines[i]; l.t1-l.t0 > longest {
			return 0.1 * l.cover
		}
		return lines[i].cover
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ka, kb := key(a), key(b)
		switch {
		case ka > kb:
			return -1
		case ka < kb:
			return 1
		}
		return 0
	})
	idx = idx[:min(len(idx), maxLines)]
	minSide, maxSide := 0.5*minW, maxW*AspectMax*1.2
	cosPar, cosPerp := math.Cos(22*math.Pi/180), math.Cos(40*math.Pi/180)
	// Where every two lines cross, once: (position along the first,
	// position along the second), NaN when they are nearly parallel.
	n := len(idx)
	type meet struct{ u, v float64 }
	meets := make([]meet, n*n)
	for p := range n {
		for q := p + 1; q < n; q++ {
			a, c := &lines[idx[p]], &lines[idx[q]]
			m := meet{math.NaN(), math.NaN()}
			if math.Abs(a.dx*c.dx+a.dy*c.dy) <= cosPerp {
				if u, v, ok := intersect(a, c); ok {
					m = meet{u, v}
				}
			}
			meets[p*n+q] = m
			meets[q*n+p] = meet{m.v, m.u}
		}
	}
	var out []halfQuad
	var crosses []crossing
	for ii, i := range idx {
		a := &lines[i]
		for jj := ii + 1; jj < n; jj++ {
			j := idx[jj]
			b := &lines[j]
			if math.Abs(a.dx*b.dx+a.dy*b.dy) < cosPar {
				continue
			}
			// Distance between them, both ways.
			bmx, bmy := b.at((b.t0 + b.t1) / 2)
			amx, amy := a.at((a.t0 + a.t1) / 2)
			d1, d2 := a.dist(bmx, bmy), b.dist(amx, amy)
			if d1 < minSide || d2 < minSide || d1 > maxSide || d2 > maxSide {
				continue
			}
			// They must face each other.
			bx0, by0 := b.at(b.t0)
			bx1, by1 := b.at(b.t1)
			u0 := (bx0-a.p0x)*a.dx + (by0-a.p0y)*a.dy
			u1 := (bx1-a.p0x)*a.dx + (by1-a.p0y)*a.dy
			lo, hi := max(a.t0, min(u0, u1)), min(a.t1, max(u0, u1))
			if hi-lo < 0.2*min(a.t1-a.t0, b.t1-b.t0) {
				continue
			}
			crosses = crosses[:0]
			for kk, k := range idx {
				// Each quad is found once: from the strip holding its
				// strongest line.
				if kk <= ii || k == j {
					continue
				}
				c := &lines[k]
				ma, mb := meets[ii*n+kk], meets[jj*n+kk]
				if math.IsNaN(ma.u) || math.IsNaN(mb.u) {
					continue
				}
				ua, uc, ub, ud := ma.u, ma.v, mb.u, mb.v
				span := math.Abs(ud - uc)
				if span < minSide || span > maxSide {
					continue
				}
				if c.coverage(min(uc, ud), max(uc, ud)) < 0.3*span {
					continue
				}
				crosses = append(crosses, crossing{line: k, ua: ua, ub: ub, uc: uc, ud: ud})
			}
			if len(crosses) < 2 {
				continue
			}
			slices.SortFunc(crosses, func(x, y crossing) int {
				switch {
				case x.ua < y.ua:
					return -1
				case x.ua > y.ua:
					return 1
				}
				return 0
			})
			for ci := range crosses {
				for di := ci + 1; di < len(crosses); di++ {
					c, d := crosses[ci], crosses[di]
					if d.ua-c.ua < minSide {
						continue
					}
					if d.ua-c.ua > maxSide {
						break
					}
					if q, score, ok := stripQuad(lines, i, j, c, d); ok {
						out = append(out, halfQuad{q: q, score: score})
						if len(out) >= maxQuads {
							return out
						}
					}
				}
			}
		}
	}
	return out
}

// stripQuad scores the quad with sides a (line i) and b (line j)
// between the crossing lines c and d.
func stripQuad(lines []segLine, i, j int, c, d crossing) ([4]geom.Point, float64, bool) {
	a, b := &lines[i], &lines[j]
	lc, ld := &lines[c.line], &lines[d.line]
	if a.coverage(c.ua, d.ua) < 0.3*(d.ua-c.ua) || b.coverage(min(c.ub, d.ub), max(c.ub, d.ub)) < 0.3*math.Abs(d.ub-c.ub) {
		return [4]geom.Point{}, 0, false
	}
	x0, y0 := a.at(c.ua)
	x1, y1 := a.at(d.ua)
	x2, y2 := b.at(d.ub)
	x3, y3 := b.at(c.ub)
	q := [4]geom.Point{{X: float32(x0), Y: float32(y0)}, {X: float32(x1), Y: float32(y1)}, {X: float32(x2), Y: float32(y2)}, {X: float32(x3), Y: float32(y3)}}
	if _, ok := NewCandidate(q, 0, math.Inf(1)); !ok {
		return q, 0, false
	}
	type side struct {
		l      *segLine
		t1, t2 float64
	}
	sides := [4]side{{a, c.ua, d.ua}, {ld, d.ud, d.uc}, {b, d.ub, c.ub}, {lc, c.ud, c.uc}}
	total, perim := 0.0, 0.0
	over := 0
	for _, sd := range sides {
		lo, hi := min(sd.t1, sd.t2), max(sd.t1, sd.t2)
		length := hi - lo
		cov := sd.l.coverage(lo, hi)
		if cov < 0.3*length {
			return q, 0, false
		}
		total += cov
		perim += length
		w := max(6, 0.25*length)
		if sd.l.coverage(hi+2, hi+w) > 0.5*w {
			over++
		}
		if sd.l.coverage(lo-w, lo-2) > 0.5*w {
			over++
		}
	}
	// Each corner can be overshot by both its lines: 8 ends in all.
	if total < 0.55*perim || over >= 5 {
		return q, 0, false
	}
	r := total / perim
	return q, r * r * r * (1 - 0.08*float64(over)) * math.Sqrt(math.Sqrt(geom.QuadArea(q))), true
}

// Overlap reports whether two convex quads overlap much: either
// centre inside the other or a corner of one inside the other.
func Overlap(a, b [4]geom.Point) bool {
	if geom.InQuad(geom.QuadCentre(a), b) || geom.InQuad(geom.QuadCentre(b), a) {
		return true
	}
	n := 0
	for _, p := range a {
		if geom.InQuad(p, b) {
			n++
		}
	}
	for _, p := range b {
		if geom.InQuad(p, a) {
			n++
		}
	}
	return n >= 2
}

// AspectMax is the largest height/width ratio of a card outline
// accepted, in the image (a standard card is 88/63 ≈ 1.4).
const AspectMax = 2.2

// longSide is a card's long side over its short side, allowing for
// a little perspective (a standard card is 88/63 ≈ 1.4).
const longSide = 1.6

// Plausible checks that q could be a card seen at up to about 60° of
// tilt: short sides from minW to maxW, opposite sides of similar length,
// no very sharp corner.
func Plausible(q [4]geom.Point, minW, maxW float64) bool {
	var l [4]float64
	for k := range 4 {
		l[k] = geom.Dist(q[k], q[(k+1)%4])
	}
	short := min(l[0]+l[2], l[1]+l[3]) / 2
	long := max(l[0]+l[2], l[1]+l[3]) / 2
	if short < minW || short > maxW || long > maxW*AspectMax {
		return false
	}
	for k := range 2 {
		a, b := l[k], l[k+2]
		if max(a, b) > 2.2*min(a, b) {
			return false
		}
	}
	for k := range 4 {
		a, b, c := q[(k+3)%4], q[k], q[(k+1)%4]
		ux, uy := float64(a.X-b.X), float64(a.Y-b.Y)
		vx, vy := float64(c.X-b.X), float64(c.Y-b.Y)
		cos := (ux*vx + uy*vy) / (math.Hypot(ux, uy) * math.Hypot(vx, vy))
		if cos > math.Cos(40*math.Pi/180) {
			return false
		}
	}
	return true
}

// Refined is q re-fitted to the edges of g (geom.SideFitter.Refine) as a
// candidate, with the mean edge strength; false when it cannot be or the
// re-fitted quad is no card's shape (NewCandidate, Plausible).
func (f *Finder) Refined(g geom.View, q [4]geom.Point, minW, maxW float64) (Candidate, float64, bool) {
	rq, strength, ok := f.Refine(g, q)
	if !ok {
		return Candidate{}, 0, false
	}
	rc, ok := NewCandidate(rq, minW, maxW*AspectMax)
	return rc, strength, ok && Plausible(rc.Q, minW, maxW)
}

// AltDistance is the largest corner distance between q and the
// nearest of o's outline and alternatives, over the four cyclic corner
// pairings: near-duplicates are not worth a second look.
func AltDistance(q [4]geom.Point, o Candidate) float64 {
	best := math.Inf(1)
	for _, a := range append([][4]geom.Point{o.Q}, o.Alts...) {
		for r := range 4 {
			d := 0.0
			for k := range 4 {
				d = max(d, geom.Dist(q[k], a[(k+r)%4]))
			}
			best = min(best, d)
		}
	}
	return best
}

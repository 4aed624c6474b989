package vision

// Reading ArUco stickers on cards: a candidate search of our own (dark
// quadrilaterals in an adaptive threshold, the same first step as OpenCV's
// detector, but at full resolution only where it pays) and a soft decoder
// that samples the module centres through the quad's homography, checks the
// black border and the white quiet zone, and matches the bits against the
// dictionary with per-bit confidences. Small (20 px), blurred markers read
// this way where OpenCV's decoder gives up; the border and quiet-zone checks
// keep card art from reading as a marker.

import (
	"fmt"
	"image"
	"math"
	"math/bits"
	"slices"
	"sync"
	"tablecam/vision/geom"

	"gocv.io/x/gocv"
)

// cardCodebook holds a dictionary's codes: code[4*id+r] is the marker's
// bits (row-major from its top-left module, 1 = white) as seen rotated by
// r×90° clockwise.
type cardCodebook struct {
	dict  MarkerDict
	bits  int // data bits per side
	codes []uint64
	// blur are the equations of the blurred decoder's fit.
	blur []cardBlurCell
	// minDist is the least Hamming distance between the codes of two
	// different ids in any rotations (and between a code and its own
	// rotations).
	minDist int
}

// newCardCodebook builds the codebook of d from GenerateMarker. Each
// marker scanner owns its codebook (about a millisecond to build for
// DICT_4X4_250).
func newCardCodebook(d MarkerDict) (*cardCodebook, error) {
	if !d.valid() {
		return nil, fmt.Errorf("vision: invalid marker dictionary %v", d)
	}
	n := d.Bits()
	if n*n > 64 {
		return nil, fmt.Errorf("vision: %v: markers of %d×%d bits are not supported", d, n, n)
	}
	cb := &cardCodebook{dict: d, bits: n, codes: make([]uint64, 4*d.Size())}
	side := n + 2
	for id := range d.Size() {
		m, err := GenerateMarker(d, id, side) // one pixel per module
		if err != nil {
			return nil, err
		}
		q := MarkerQuietZone(d, side)
		grid := make([]bool, n*n)
		for r := range n {
			for c := range n {
				grid[r*n+c] = m.GetUCharAt(q+1+r, q+1+c) > 127
			}
		}
		m.Close()
		for rot := range 4 {
			cb.codes[4*id+rot] = cardPackBits(grid)
			grid = cardRotCW(grid, n)
		}
	}
	cb.blur = cb.blurCells()
	cb.minDist = n * n
	for i := 0; i < len(cb.codes); i += 4 {
		for r := 1; r < 4; r++ {
			cb.minDist = min(cb.minDist, bits.OnesCount64(cb.codes[i]^cb.codes[i+r]))
		}
		for j := i + 4; j < len(cb.codes); j++ {
			cb.minDist = min(cb.minDist, bits.OnesCount64(cb.codes[i]^cb.codes[j]))
		}
	}
	return cb, nil
}

func cardPackBits(grid []bool) uint64 {
	var v uint64
	for i, b := range grid {
		if b {
			v |= 1 << i
		}
	}
	return v
}

// cardRotCW rotates an n×n row-major grid by 90° clockwise.
func cardRotCW(g []bool, n int) []bool {
	out := make([]bool, len(g))
	for r := range n {
		for c := range n {
			out[r*n+c] = g[(n-1-c)*n+r]
		}
	}
	return out
}

// cardModuleH maps module space, where the marker's black square of M
// modules spans [0, M]², to the image, where its corners are q.
func cardModuleH(q [4]geom.Point, M float64) (geom.Homography, bool) {
	var dst [4][2]float64
	for i, p := range q {
		dst[i] = [2]float64{float64(p.X), float64(p.Y)}
	}
	return geom.HomographyOf([4][2]float64{{0, 0}, {M, 0}, {M, M}, {0, M}}, dst)
}

// cardMarkerRead is a decoded marker.
type cardMarkerRead struct {
	marker Marker
	cost   float64 // disagreement with the code as a share of its decoder's limit (0 … 1), comparable between decoders
	margin float64 // cost of the best other id minus cost
	hard   int     // bits corrected
	conf   float64
}

// cardDecodeLimits are the acceptance limits of the soft decoder.
type cardDecodeLimits struct {
	maxCost     float64 // largest soft cost of disagreeing bits
	maxHard     int     // most disagreeing bits
	minMargin   float64 // least cost gap to the next id
	minContrast float64 // least quiet zone − border brightness, grey levels
	maxBorder   int     // most border cells that read white
	maxQuiet    int     // most quiet-zone cells that read black
}

// The hard limit on disagreeing bits is set per dictionary: at most
// (least distance between codes − 1)/2, so that a corrected code is never
// nearer another one (1 for DICT_4X4_250).
var cardDefaultLimits = cardDecodeLimits{
	maxCost: 0.45, maxHard: 2, minMargin: 1.5, minContrast: 18, maxBorder: 1, maxQuiet: 2,
}

// cardDecodeScratch holds per-decode buffers.
type cardDecodeScratch struct {
	vals   []float64 // mean brightness per cell, (M+2)² with the quiet ring
	margin []float64 // per data bit
	level  []float64 // per cell of the blurred decoder's fit
}

// sampleCells samples the cells of the marker whose outer black square has
// corners q, with the quiet-zone ring around it: the mean brightness of
// each of the (bits+4)² cells (row by row, the ring first and last), each
// at 3×3 points around its centre (quiet-zone cells nearer the marker: the
// zone may be just one module wide), and the mean spread of the samples
// inside the marker's own modules. ok is false for a degenerate quad. The
// values live in sc until its next use.
func (cb *cardCodebook) sampleCells(g geom.View, q [4]geom.Point, sc *cardDecodeScratch) (vals []float64, spread float64, ok bool) {
	M := cb.bits + 2
	mf := float64(M)
	h, ok := cardModuleH(q, mf)
	if !ok {
		return nil, 0, false
	}
	G := M + 2
	if cap(sc.vals) < G*G {
		sc.vals = make([]float64, G*G)
	}
	vals = sc.vals[:G*G]
	return cb.sampleCellsAt(g, &h, M, vals)
}

// sampleCellsAt is sampleCells' loops: the cells of the marker of M
// modules that h maps into g, into vals.
func (cb *cardCodebook) sampleCellsAt(g geom.View, h *geom.Homography, M int, vals []float64) ([]float64, float64, bool) {
	mf := float64(M)
	G := M + 2
	spread := 0.0
	offs := [3]float64{-0.22, 0, 0.22}
	for i := -1; i <= M; i++ {
		for j := -1; j <= M; j++ {
			cy, cx := float64(i)+0.5, float64(j)+0.5
			if i == -1 {
				cy = -0.4
			} else if i == M {
				cy = mf + 0.4
			}
			if j == -1 {
				cx = -0.4
			} else if j == M {
				cx = mf + 0.4
			}
			s, ss := 0.0, 0.0
			for _, dy := range offs {
				for _, dx := range offs {
					x, y := h.Apply(cx+dx, cy+dy)
					v := g.At(x, y)
					s += v
					ss += v * v
				}
			}
			vals[(i+1)*G+j+1] = s / 9
			if i >= 0 && j >= 0 && i < M && j < M {
				spread += math.Sqrt(max(0, ss/9-(s/9)*(s/9)))
			}
		}
	}
	return vals, spread / (mf * mf), true
}

// cardCells are a candidate's sampled cells and its illumination: the
// planes through its border cells (dark) and its quiet-zone cells
// (bright), and how many of them read the wrong way.
type cardCells struct {
	vals                []float64 // (M+2)² cells, the quiet ring included
	dk, br              cardPlane
	badBorder, badQuiet int
}

// at is the mean brightness of cell (i, j): i, j from -1 (the quiet ring)
// to M (the ring on the other side).
func (c *cardCells) at(i, j, M int) float64 { return c.vals[(i+1)*(M+2)+j+1] }

// cells samples the marker whose outer black square has corners q and
// checks what every marker shows whatever its code: a black border inside
// a white quiet zone with enough contrast, and flat modules.
func (cb *cardCodebook) cells(g geom.View, q [4]geom.Point, lim cardDecodeLimits, sc *cardDecodeScratch) (cardCells, bool) {
	M := cb.bits + 2
	mf := float64(M)
	// Modules of less than two pixels across (a sliver of card art seen
	// as a marker at a steep angle) cannot be told from print.
	for k := range 4 {
		if geom.Dist(q[k], q[(k+1)%4]) < cardMinModule*mf {
			return cardCells{}, false
		}
	}
	vals, spread, ok := cb.sampleCells(g, q, sc)
	if !ok {
		return cardCells{}, false
	}
	c := cardCells{vals: vals}
	// Illumination: least-squares planes through the border cells (dark)
	// and the quiet-zone cells (bright), in module coordinates.
	for i := -1; i <= M; i++ {
		for j := -1; j <= M; j++ {
			v := c.at(i, j, M)
			x, y := float64(j)+0.5, float64(i)+0.5
			switch {
			case i == -1 || j == -1 || i == M || j == M:
				c.br.add(x, y, v)
			case i == 0 || j == 0 || i == M-1 || j == M-1:
				c.dk.add(x, y, v)
			}
		}
	}
	c.dk.solve()
	c.br.solve()
	contrast := c.br.at(mf/2, mf/2) - c.dk.at(mf/2, mf/2)
	if contrast < lim.minContrast {
		return cardCells{}, false
	}
	// A marker's modules are flat black or white; a panel of card art
	// with a dark frame, sampled as if it were one, is not.
	if spread > cardMaxModuleSpread*contrast {
		return cardCells{}, false
	}
	for i := -1; i <= M; i++ {
		for j := -1; j <= M; j++ {
			x, y := float64(j)+0.5, float64(i)+0.5
			thr := (c.dk.at(x, y) + c.br.at(x, y)) / 2
			v := c.at(i, j, M)
			switch {
			case i == -1 || j == -1 || i == M || j == M:
				if v < thr {
					c.badQuiet++
				}
			case i == 0 || j == 0 || i == M-1 || j == M-1:
				if v > thr {
					c.badBorder++
				}
			}
		}
	}
	if c.badBorder > lim.maxBorder || c.badQuiet > lim.maxQuiet {
		return cardCells{}, false
	}
	return c, true
}

// decode reads the marker whose outer black square has corners q in g
// (clockwise on screen; image coordinates with pixel centres at integers,
// like Marker.Corners).
func (cb *cardCodebook) decode(g geom.View, q [4]geom.Point, lim cardDecodeLimits, sc *cardDecodeScratch) (cardMarkerRead, bool) {
	n := cb.bits
	M := n + 2
	c, ok := cb.cells(g, q, lim, sc)
	if !ok {
		return cardMarkerRead{}, false
	}
	if cap(sc.margin) < n*n {
		sc.margin = make([]float64, n*n)
	}
	margin := sc.margin[:n*n]
	var obs uint64
	for r := range n {
		for col := range n {
			x, y := float64(col+1)+0.5, float64(r+1)+0.5
			d, b := c.dk.at(x, y), c.br.at(x, y)
			half := max(1, (b-d)/2)
			m := (c.at(r+1, col+1, M) - (d+b)/2) / half
			margin[r*n+col] = min(1, math.Abs(m))
			if m > 0 {
				obs |= 1 << (r*n + col)
			}
		}
	}
	best, second := math.Inf(1), math.Inf(1)
	bestIdx, bestHard := -1, 0
	for k, code := range cb.codes {
		diff := obs ^ code
		cost := 0.0
		for diff != 0 {
			b := bits.TrailingZeros64(diff)
			cost += margin[b]
			diff &= diff - 1
		}
		switch {
		case cost < best:
			if bestIdx < 0 || k/4 != bestIdx/4 {
				second = best
			}
			best, bestIdx, bestHard = cost, k, bits.OnesCount64(obs^code)
		case cost < second && k/4 != bestIdx/4:
			second = cost
		}
	}
	if bestIdx < 0 || best > lim.maxCost || bestHard > lim.maxHard || second-best < lim.minMargin {
		return cardMarkerRead{}, false
	}
	conf := max(0, 1-best/max(lim.maxCost, 1e-9)*0.5) * min(1, (second-best)/3)
	conf *= 1 - 0.1*float64(c.badBorder+c.badQuiet)
	return cardMarkerRead{marker: cardMarkerAt(q, bestIdx/4, bestIdx%4), cost: best / max(lim.maxCost, 1e-9), margin: second - best, hard: bestHard,
		conf: max(0, min(1, conf))}, true
}

// cardMarkerAt is marker id with corners q (as sampled), its code seen
// turned by rot×90°.
func cardMarkerAt(q [4]geom.Point, id, rot int) Marker {
	mk := Marker{ID: id}
	var cx, cy float64
	for k := range 4 {
		mk.Corners[k] = q[(k+rot)%4]
		cx += float64(q[k].X) / 4
		cy += float64(q[k].Y) / 4
	}
	mk.Side = cardQuadSide(q)
	mk.Center = geom.Point{X: float32(cx), Y: float32(cy)}
	return mk
}

// cardPlane fits v = a + b·x + c·y by least squares.
type cardPlane struct {
	sxx, sxy, syy, sx, sy, n, sv, sxv, syv float64
	a, b, c                                float64
}

func (p *cardPlane) add(x, y, v float64) {
	p.sxx += x * x
	p.sxy += x * y
	p.syy += y * y
	p.sx += x
	p.sy += y
	p.n++
	p.sv += v
	p.sxv += x * v
	p.syv += y * v
}

func (p *cardPlane) solve() {
	// Normal equations [n sx sy; sx sxx sxy; sy sxy syy]·[a b c] = [sv sxv syv].
	x, _, ok := cardSolve3([3][3]float64{{p.n, p.sx, p.sy}, {p.sx, p.sxx, p.sxy}, {p.sy, p.sxy, p.syy}}, [3]float64{p.sv, p.sxv, p.syv}, 0)
	if !ok {
		p.a, p.b, p.c = p.sv/max(1, p.n), 0, 0
		return
	}
	p.a, p.b, p.c = x[0], x[1], x[2]
}

func (p *cardPlane) at(x, y float64) float64 { return p.a + p.b*x + p.c*y }

// cardQuadCandidate is a quadrilateral found in a binary image, in
// full-resolution image coordinates (pixel centres at integers), clockwise
// on screen.
type cardQuadCandidate struct {
	q       [4]geom.Point
	area    float64
	score   float64 // outline candidates: how well edges support it
	refined bool    // outline candidates: sides re-fitted at full resolution
	cut     bool    // marker candidates: from cardCutToQuad
	// restored are the corners cardCutToQuad put back (marker
	// candidates, full-resolution pixels), nRestored how many.
	restored  [2]geom.Point
	nRestored int
	// alts are other outlines found for the same card (outline
	// candidates): its inner frame, the card with its shadow. Recognition
	// tries them too.
	alts [][4]geom.Point
}

// cardAddCutQuad adds the quad cardCutToQuad makes of the polygon pts
// (five to eight corners) to out, unless it is not one or it has the
// corners of quad other.
func cardAddCutQuad(out []cardQuadCandidate, pts [][2]float64, other [4][2]float64, scale float64, origin image.Point, minSide, maxSide float64) []cardQuadCandidate {
	if len(pts) > 8 {
		return out
	}
	poly, ok := cardCutToQuad(pts)
	if !ok {
		return out
	}
	moved := false
	var restored [2]geom.Point
	nr := 0
	for _, p := range poly {
		d := math.Inf(1)
		for _, o := range other {
			d = min(d, math.Hypot(p[0]-o[0], p[1]-o[1]))
		}
		moved = moved || d > 1
		d = math.Inf(1)
		for _, o := range pts {
			d = min(d, math.Hypot(p[0]-o[0], p[1]-o[1]))
		}
		if d > 1 && nr < len(restored) {
			restored[nr] = geom.Point{X: float32((p[0]+0.5)/scale - 0.5 + float64(origin.X)), Y: float32((p[1]+0.5)/scale - 0.5 + float64(origin.Y))}
			nr++
		}
	}
	if !moved {
		return out
	}
	n := len(out)
	out = cardAddDarkQuad(out, poly, true, scale, origin, minSide, maxSide)
	if len(out) > n {
		out[n].restored, out[n].nRestored = restored, nr
	}
	return out
}

// cardAddDarkQuad maps poly (corners of boundary pixels in the binary
// image) to full-resolution image coordinates, half a pixel outwards, and
// adds it to out if cardQuadOK takes it.
func cardAddDarkQuad(out []cardQuadCandidate, poly [4][2]float64, cut bool, scale float64, origin image.Point, minSide, maxSide float64) []cardQuadCandidate {
	var q [4]geom.Point
	var mx, my float64
	for k, p := range poly {
		q[k] = geom.Point{X: float32((p[0]+0.5)/scale - 0.5 + float64(origin.X)), Y: float32((p[1]+0.5)/scale - 0.5 + float64(origin.Y))}
		mx += float64(q[k].X) / 4
		my += float64(q[k].Y) / 4
	}
	for k := range 4 {
		dx, dy := float64(q[k].X)-mx, float64(q[k].Y)-my
		if l := math.Hypot(dx, dy); l > 0 {
			d := 0.5 / scale * math.Sqrt2
			q[k].X += float32(dx / l * d)
			q[k].Y += float32(dy / l * d)
		}
	}
	if cand, ok := cardQuadOK(q, minSide, maxSide); ok {
		cand.cut = cut
		return append(out, cand)
	}
	return out
}

// cardQuadOK is geom.QuadOK's quad as a candidate.
func cardQuadOK(q [4]geom.Point, minSide, maxSide float64) (cardQuadCandidate, bool) {
	q, area, ok := geom.QuadOK(q, minSide, maxSide)
	if !ok {
		return cardQuadCandidate{}, false
	}
	return cardQuadCandidate{q: q, area: area}, true
}

// cardMarkerScanner finds and decodes markers; it keeps its buffers.
type cardMarkerScanner struct {
	cb      *cardCodebook
	lim     cardDecodeLimits
	bin     gocv.Mat
	small   gocv.Mat
	blur    gocv.Mat
	corners gocv.Mat // 4×1 CV_32FC2, for cornerSubPix
	sc      cardDecodeScratch
	cands   []cardQuadCandidate
	// failed holds the candidates of the last scan that did not decode,
	// blobs its dark blobs of a small marker's size (half-resolution
	// passes).
	failed   []cardQuadCandidate
	blobs    []image.Rectangle
	fit      geom.SideFitter
	contours cardContourBufs
	// unread holds the corners of the candidates that did not decode
	// since forget (this frame): another threshold often outlines a
	// square exactly as before, and reading it again fails again.
	unread map[cardQuadKey]struct{}
	// colour is the colour view of the picture (since forget), for the
	// ink check (inked); without one (cn 0) the check is skipped.
	colour geom.View
	// weak holds the reads of the scan under way with little confidence
	// (cardWeakConf), confirmed at its end; confirming is set while
	// confirmWeak looks again, again holds what one look read.
	weak       []cardMarkerRead
	confirming bool
	again      []cardMarkerRead
	// keep, when set, clears the thresholded picture (cols × rows, of the
	// place from origin shrunk by scale: 255 where dark) where no sticker
	// can be (scanHalfIn: far from what changed against the empty table).
	keep func(bin []uint8, cols, rows int, origin image.Point, scale float64)
}

// cardQuadKey is a quad's corners, bit for bit.
type cardQuadKey [8]uint32

func cardKeyOf(q [4]geom.Point) cardQuadKey {
	var k cardQuadKey
	for i, p := range q {
		k[2*i], k[2*i+1] = math.Float32bits(p.X), math.Float32bits(p.Y)
	}
	return k
}

// forget starts a new picture, whose colour view is colour (geom.ColourView;
// geom.View{} for none): candidates that failed on the last one are read
// again.
func (s *cardMarkerScanner) forget(colour geom.View) {
	clear(s.unread)
	s.colour = colour
}

// cardScanPass is how one scan thresholds the image.
type cardScanPass struct {
	scale float64 // 0 < scale ≤ 1
	block int     // adaptive threshold window, odd
	c     float32 // adaptive threshold offset
	blur  bool    // a 3×3 Gaussian blur first (full resolution: noise)
	cut   bool    // outlines with corners cut off count too (glare)
}

// The two passes ReadCards makes: the whole frame at half resolution
// (outlines from cardHalfMinSide; most 20 px markers show theirs, and every
// candidate is decoded on the full-resolution image), then the places
// where a card or a marker candidate was seen at full resolution (down to
// about 16 px).
var (
	cardPassHalf = cardScanPass{scale: 0.5, block: 7, c: 8}
	cardPassFull = cardScanPass{scale: 1, block: 9, c: 10, blur: true, cut: true}
	// cardPassRetry are the other thresholds tried, in order, on small
	// places where the full-resolution pass read nothing.
	cardPassRetry = [...]cardScanPass{{scale: 1, block: 5, c: 6}, {scale: 1, block: 15, c: 5, blur: true}, {scale: 1, block: 7, c: 14, blur: true}}
)

// cardHalfMinSide is the least marker side (px) the half-resolution pass
// looks for: 8 px outlines there.
const cardHalfMinSide = 16

// cardRetryArea is the largest place (px²) the retry passes search.
const cardRetryArea = 140 * 140

// cardSubpixCriteria is created once: gocv cannot free a TermCriteria.
var cardSubpixCriteria = sync.OnceValue(func() gocv.TermCriteria {
	return gocv.NewTermCriteria(gocv.Count|gocv.EPS, 20, 0.01)
})

func newCardMarkerScanner(d MarkerDict) (*cardMarkerScanner, error) {
	cb, err := newCardCodebook(d)
	if err != nil {
		return nil, err
	}
	lim := cardDefaultLimits
	lim.maxHard = min(lim.maxHard, max(0, (cb.minDist-1)/2))
	return &cardMarkerScanner{cb: cb, lim: lim, bin: gocv.NewMat(), small: gocv.NewMat(), blur: gocv.NewMat(),
		corners: gocv.NewMatWithSize(4, 1, gocv.MatTypeCV32FC2)}, nil
}

func (s *cardMarkerScanner) close() {
	s.bin.Close()
	s.small.Close()
	s.blur.Close()
	s.corners.Close()
}

// scan finds the markers in region r of the full-resolution grey image
// grey with sides from minSide to maxSide full-resolution pixels, searching
// as pass says, and adds them to out. Candidates that did not decode are
// left in s.failed (not the cut-corner ones); those that did not decode
// before on this picture (since forget) are not read again.
func (s *cardMarkerScanner) scan(grey gocv.Mat, g geom.View, r image.Rectangle, pass cardScanPass, minSide, maxSide float64, out []cardMarkerRead) ([]cardMarkerRead, error) {
	s.failed = s.failed[:0]
	s.blobs = s.blobs[:0]
	s.cands = s.cands[:0]
	if !s.confirming {
		s.weak = s.weak[:0]
	}
	r = r.Intersect(image.Rect(0, 0, g.W, g.H))
	if r.Dx() < 8 || r.Dy() < 8 {
		return out, nil
	}
	roi := grey.Region(r)
	defer roi.Close()
	src := roi
	scale := pass.scale
	if scale < 1 {
		w, h := max(4, int(math.Round(float64(r.Dx())*scale))), max(4, int(math.Round(float64(r.Dy())*scale)))
		gocv.Resize(roi, &s.small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		src = s.small
		scale = float64(w) / float64(r.Dx())
	}
	block := pass.block
	if min(src.Cols(), src.Rows()) <= block {
		block = (min(src.Cols(), src.Rows())-1)/2*2 + 1
	}
	if block < 3 {
		return out, nil
	}
	if pass.blur {
		// Sensor noise and fine texture would otherwise break the
		// threshold into thousands of specks.
		gocv.GaussianBlur(src, &s.blur, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		src = s.blur
	}
	gocv.AdaptiveThreshold(src, &s.bin, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, pass.c)
	if s.keep != nil {
		b, err := s.bin.DataPtrUint8()
		if err != nil {
			return out, fmt.Errorf("sticker scan: threshold: %w", err)
		}
		s.keep(b, s.bin.Cols(), s.bin.Rows(), r.Min, scale)
	}
	var blobs *[]image.Rectangle
	if scale < 1 {
		blobs = &s.blobs
	}
	var err error
	s.cands, err = s.contours.cardFindDarkQuads(s.bin, scale, r.Min, minSide, maxSide, s.cands[:0], blobs, [2]float64{14, 40}, pass.cut)
	if err != nil {
		return out, err
	}
	if s.unread == nil {
		s.unread = map[cardQuadKey]struct{}{}
	}
	for _, c := range s.cands {
		var m cardMarkerRead
		var ok bool
		switch {
		case c.cut:
			m, ok = s.readCut(grey, g, c)
			ok = ok && s.inked(m)
		default:
			// The same corners on the same picture read the same.
			key := cardKeyOf(c.q)
			if _, seen := s.unread[key]; seen {
				break
			}
			if m, ok = s.read(grey, g, c.q); ok {
				ok = s.inked(m)
			}
			if !ok {
				s.unread[key] = struct{}{}
			}
		}
		switch {
		case ok && m.conf < cardWeakConf && !s.confirming:
			s.weak = append(s.weak, m)
		case ok:
			out = cardAddMarker(out, m)
		case !c.cut:
			// (A cut candidate that fails is one more look at a plain
			// candidate, which is kept.)
			s.failed = append(s.failed, c)
		}
	}
	if len(s.weak) > 0 && !s.confirming {
		return s.confirmWeak(grey, g, pass, minSide, maxSide, out)
	}
	return out, nil
}

// cardWeakConf is the confidence under which a read is looked at again
// (confirmWeak).
const cardWeakConf = 0.6

// cardConfirmPasses are the looks confirmWeak takes, in order (but the
// pass that made the read).
var cardConfirmPasses = [...]cardScanPass{cardPassFull, cardPassRetry[0], cardPassRetry[1], cardPassRetry[2]}

// confirmWeak looks again at the place of every weak read of the scan just
// made (s.weak), at full resolution with the other thresholds, and adds to
// out the best read of the place (cardReadBetter) of the first look that
// reads one there, or the weak read if none does. A candidate outlined a
// little off (two corners a module out, at half resolution) can read as
// another id with little confidence where a better outline of the same
// sticker reads right. The scan's failed candidates, blobs and candidates
// are kept.
func (s *cardMarkerScanner) confirmWeak(grey gocv.Mat, g geom.View, pass cardScanPass, minSide, maxSide float64, out []cardMarkerRead) ([]cardMarkerRead, error) {
	weak := slices.Clone(s.weak)
	failed, blobs, cands := slices.Clone(s.failed), slices.Clone(s.blobs), slices.Clone(s.cands)
	s.confirming = true
	defer func() {
		s.confirming = false
		s.failed, s.blobs, s.cands = failed, blobs, cands
	}()
	for _, m := range weak {
		best := m
		box := geom.QuadBox(m.marker.Corners).Inset(-int(math.Ceil(0.6*m.marker.Side)) - 2)
		for _, p := range cardConfirmPasses {
			if p == pass {
				continue
			}
			var err error
			if s.again, err = s.scan(grey, g, box, p, minSide, maxSide, s.again[:0]); err != nil {
				return out, err
			}
			found := false
			for _, o := range s.again {
				if geom.Dist(o.marker.Center, m.marker.Center) < 0.5*max(o.marker.Side, m.marker.Side) {
					found = true
					if cardReadBetter(o, best) {
						best = o
					}
				}
			}
			if found {
				break
			}
		}
		out = cardAddMarker(out, best)
	}
	return out, nil
}

// screen takes a first, cheap look at a candidate with its rough corners
// (one sample per module): a dark border inside a brighter ring, and both
// dark and bright modules inside. What fails is no marker (a square of a
// plaid, a dark panel) and not worth refining. washed tells whether a
// border cell is bright enough to have lost its contrast to glare (else
// the glare decoder need not look).
func (cb *cardCodebook) screen(g geom.View, q [4]geom.Point) (ok, washed bool) {
	M := cb.bits + 2
	mf := float64(M)
	h, ok := cardModuleH(q, mf)
	if !ok {
		return false, false
	}
	var border, ring, inner [64]float64
	nb, nr, ni := 0, 0, 0
	for i := -1; i <= M; i++ {
		for j := -1; j <= M; j++ {
			cy, cx := float64(i)+0.5, float64(j)+0.5
			onRing := i == -1 || j == -1 || i == M || j == M
			if onRing {
				if i == -1 {
					cy = -0.4
				} else if i == M {
					cy = mf + 0.4
				}
				if j == -1 {
					cx = -0.4
				} else if j == M {
					cx = mf + 0.4
				}
			}
			x, y := h.Apply(cx, cy)
			v := g.At(x, y)
			switch {
			case onRing:
				if nr < len(ring) {
					ring[nr] = v
					nr++
				}
			case i == 0 || j == 0 || i == M-1 || j == M-1:
				if nb < len(border) {
					border[nb] = v
					nb++
				}
			default:
				if ni < len(inner) {
					inner[ni] = v
					ni++
				}
			}
		}
	}
	b, r := border[:nb], ring[:nr]
	slices.Sort(b)
	slices.Sort(r)
	washed = b[nb-1] >= cardGlareWashed-cardScreenWashSlack
	dark, bright := b[nb/2], r[nr/2]
	if bright-dark < 12 {
		return false, washed
	}
	mid := (dark + bright) / 2
	badB, badR, hi, lo := 0, 0, 0, 0
	for _, v := range b {
		if v > mid {
			badB++
		}
	}
	for _, v := range r {
		if v < mid {
			badR++
		}
	}
	for _, v := range inner[:ni] {
		if v > mid {
			hi++
		} else {
			lo++
		}
	}
	return badB <= nb/4 && badR <= nr/3 && hi > 0 && lo > 0, washed
}

// cardScreenWashSlack is how much darker than cardGlareWashed the
// brightest border cell of the screen's one-sample look may be for the
// glare decoder to be tried (its cells are means of nine samples).
const cardScreenWashSlack = 25

// read refines a candidate's corners and decodes it.
func (s *cardMarkerScanner) read(grey gocv.Mat, g geom.View, q [4]geom.Point) (cardMarkerRead, bool) {
	if ok, washed := s.cb.screen(g, q); !ok {
		// Glare may wash out enough of the border to fail the screen.
		if !washed {
			return cardMarkerRead{}, false
		}
		return s.readGlare(grey, g, q, q)
	}
	side := cardQuadSide(q)
	modules := float64(s.cb.bits + 2)
	refined := s.subpix(grey, g, q)
	m, ok := s.cb.decode(g, refined, s.lim, &s.sc)
	if !ok && refined != q {
		m, ok = s.cb.decode(g, q, s.lim, &s.sc)
	}
	tries := [3][4]geom.Point{refined, q, q}
	if !ok && side >= 14 {
		// Corners rounded by blur or bent by perspective: the four
		// sides fitted as lines to the marker's outer edge.
		if lq, _, fitted := s.fit.RefineWithin(g, q, max(1.5, 0.45*side/modules)); fitted {
			tries[2] = lq
			if m, ok = s.cb.decode(g, lq, s.lim, &s.sc); ok {
				refined = lq
			}
		}
	}
	if !ok {
		if m, ok := s.readBlurred(g, tries, -1); ok {
			return m, true
		}
		return s.readGlare(grey, g, q, refined)
	}
	if m.hard == 0 {
		return m, true
	}
	// A corrected bit: weakly read markers are not trusted, nor one that
	// its rough corners read as another id (misplaced corners shift the
	// sampling grid by a module: bits of the neighbours). The blurred
	// decoder may still read the same id.
	weak := m.conf < cardMinCorrectedConf
	if !weak && refined != q {
		if m2, ok := s.cb.decode(g, q, s.lim, &s.sc); ok && m2.marker.ID != m.marker.ID {
			weak = true
		}
	}
	if weak {
		return s.readBlurred(g, [3][4]geom.Point{refined, q, q}, m.marker.ID)
	}
	return m, true
}

// readBlurred tries the blurred decoder (small modules blurred into each
// other) on a candidate's corners in turn (refined, rough, fitted to the
// edges; repeats are skipped); want ≥ 0 takes only that id.
func (s *cardMarkerScanner) readBlurred(g geom.View, tries [3][4]geom.Point, want int) (cardMarkerRead, bool) {
	for i, c := range tries {
		if i > 0 && (c == tries[0] || c == tries[i-1]) {
			continue
		}
		if m, ok := s.cb.decodeBlurred(g, c, s.lim, &s.sc); ok && (want < 0 || m.marker.ID == want) {
			return m, true
		}
	}
	return cardMarkerRead{}, false
}

// cardQuadSide is the mean side length of q.
func cardQuadSide(q [4]geom.Point) float64 {
	side := 0.0
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		side += math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)) / 4
	}
	return side
}

// subpix refines the corners of candidate q with cornerSubPix (window
// kept inside one module); a corner that moves by more than a module, or
// one too near the image's edge, keeps its place.
func (s *cardMarkerScanner) subpix(grey gocv.Mat, g geom.View, q [4]geom.Point) [4]geom.Point {
	side := cardQuadSide(q)
	modules := float64(s.cb.bits + 2)
	hw := int(math.Round(0.6 * side / modules))
	hw = max(2, min(10, hw))
	refined := q
	for _, p := range q {
		if p.X < float32(hw+2) || p.Y < float32(hw+2) || p.X > float32(g.W-hw-3) || p.Y > float32(g.H-hw-3) {
			return refined
		}
	}
	d, err := s.corners.DataPtrFloat32()
	if err != nil || len(d) != 8 {
		return refined
	}
	for k, p := range q {
		d[2*k], d[2*k+1] = p.X, p.Y
	}
	gocv.CornerSubPix(grey, &s.corners, image.Pt(hw, hw), image.Pt(-1, -1), cardSubpixCriteria())
	for k := range refined {
		nx, ny := d[2*k], d[2*k+1]
		if math.Hypot(float64(nx-q[k].X), float64(ny-q[k].Y)) < side/modules {
			refined[k] = geom.Point{X: nx, Y: ny}
		}
	}
	return refined
}

// cardMinModule is the least module size (px) along any side of a
// marker; cardMinCorrectedConf is the least confidence of a marker read with a
// corrected bit, cardMaxModuleSpread the largest mean spread of brightness
// inside a module, relative to the contrast.
const (
	cardMinModule        = 2.0
	cardMinCorrectedConf = 0.6
	cardMaxModuleSpread  = 0.25
)

// cardAddMarker adds m to list unless a marker there already covers it;
// of two readings of one place, the one with the lower cost (then the
// higher confidence) stays.
func cardAddMarker(list []cardMarkerRead, m cardMarkerRead) []cardMarkerRead {
	for i, o := range list {
		d := math.Hypot(float64(o.marker.Center.X-m.marker.Center.X), float64(o.marker.Center.Y-m.marker.Center.Y))
		if d < 0.5*max(o.marker.Side, m.marker.Side) {
			if cardReadBetter(m, o) {
				list[i] = m
			}
			return list
		}
	}
	return append(list, m)
}

// cardReadBetter reports whether read a of a place beats read b: a lower
// cost, then a higher confidence.
func cardReadBetter(a, b cardMarkerRead) bool {
	return a.cost < b.cost || (a.cost == b.cost && a.conf > b.conf)
}

// cardStickered is a card whose sticker was read: its outline and the
// marker's.
type cardStickered struct{ card, marker [4]geom.Point }

// stickerCards appends to out the re-fitted outlines that a sticker read so
// far (r.reads) fits (cardStickerFits): cards whose sticker is read. A card
// carries one sticker; what else looks like a marker on it, away from the
// sticker, is card art (a stray sticker, dropped, or a wrong one), so the
// full-resolution and retry searches leave it alone (cardOffSticker).
func (r *CardReader) stickerCards(outlines []cardQuadCandidate, out []cardStickered) []cardStickered {
	for _, o := range outlines {
		if !o.refined {
			continue
		}
		for _, m := range r.reads {
			if cardStickerFits(m.marker, o.q) {
				out = append(out, cardStickered{o.q, m.marker.Corners})
				break
			}
		}
	}
	return out
}

// cardOffSticker reports whether p lies on one of the cards cs but not on
// its sticker (where a second look may read the sticker better).
func cardOffSticker(p geom.Point, cs []cardStickered) bool {
	for _, c := range cs {
		if geom.InQuad(p, c.card) && !geom.InQuad(p, c.marker) {
			return true
		}
	}
	return false
}

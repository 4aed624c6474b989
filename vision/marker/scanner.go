package marker

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

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// codebook holds a dictionary's codes: code[4*id+r] is the marker's
// bits (row-major from its top-left module, 1 = white) as seen rotated by
// r×90° clockwise.
type codebook struct {
	dict  Dict
	bits  int // data bits per side
	codes []uint64
	// blur are the equations of the blurred decoder's fit.
	blur []blurCell
	// minDist is the least Hamming distance between the codes of two
	// different ids in any rotations (and between a code and its own
	// rotations).
	minDist int
}

// newCodebook builds the codebook of d from Generate. Each
// marker scanner owns its codebook (about a millisecond to build for
// DICT_4X4_250).
func newCodebook(d Dict) (*codebook, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("marker: invalid marker dictionary %v", d)
	}
	n := d.Bits()
	if n*n > 64 {
		return nil, fmt.Errorf("marker: %v: markers of %d×%d bits are not supported", d, n, n)
	}
	cb := &codebook{dict: d, bits: n, codes: make([]uint64, 4*d.Size())}
	side := n + 2
	for id := range d.Size() {
		m, err := Generate(d, id, side) // one pixel per module
		if err != nil {
			return nil, err
		}
		q := QuietZone(d, side)
		grid := make([]bool, n*n)
		for r := range n {
			for c := range n {
				grid[r*n+c] = m.GetUCharAt(q+1+r, q+1+c) > 127
			}
		}
		m.Close()
		for rot := range 4 {
			cb.codes[4*id+rot] = packBits(grid)
			grid = rotCW(grid, n)
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

func packBits(grid []bool) uint64 {
	var v uint64
	for i, b := range grid {
		if b {
			v |= 1 << i
		}
	}
	return v
}

// rotCW rotates an n×n row-major grid by 90° clockwise.
func rotCW(g []bool, n int) []bool {
	out := make([]bool, len(g))
	for r := range n {
		for c := range n {
			out[r*n+c] = g[(n-1-c)*n+r]
		}
	}
	return out
}

// moduleH maps module space, where the marker's black square of M
// modules spans [0, M]², to the image, where its corners are q.
func moduleH(q [4]geom.Point, M float64) (geom.Homography, bool) {
	var dst [4][2]float64
	for i, p := range q {
		dst[i] = [2]float64{float64(p.X), float64(p.Y)}
	}
	return geom.HomographyOf([4][2]float64{{0, 0}, {M, 0}, {M, M}, {0, M}}, dst)
}

// Sticker is a marker read by a Scanner.
type Sticker struct {
	Marker Marker
	cost   float64 // disagreement with the code as a share of its decoder's limit (0 … 1), comparable between decoders
	margin float64 // cost of the best other id minus cost
	hard   int     // bits corrected
	// Conf in [0, 1] says how cleanly the marker's bits read.
	Conf float64
}

// decodeLimits are the acceptance limits of the soft decoder.
type decodeLimits struct {
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
var defaultLimits = decodeLimits{
	maxCost: 0.45, maxHard: 2, minMargin: 1.5, minContrast: 18, maxBorder: 1, maxQuiet: 2,
}

// decodeScratch holds per-decode buffers.
type decodeScratch struct {
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
func (cb *codebook) sampleCells(g geom.View, q [4]geom.Point, sc *decodeScratch) (vals []float64, spread float64, ok bool) {
	M := cb.bits + 2
	mf := float64(M)
	h, ok := moduleH(q, mf)
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
func (cb *codebook) sampleCellsAt(g geom.View, h *geom.Homography, M int, vals []float64) ([]float64, float64, bool) {
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

// cells are a candidate's sampled cells and its illumination: the
// planes through its border cells (dark) and its quiet-zone cells
// (bright), and how many of them read the wrong way.
type cells struct {
	vals                []float64 // (M+2)² cells, the quiet ring included
	dk, br              plane
	badBorder, badQuiet int
}

// at is the mean brightness of cell (i, j): i, j from -1 (the quiet ring)
// to M (the ring on the other side).
func (c *cells) at(i, j, M int) float64 { return c.vals[(i+1)*(M+2)+j+1] }

// cells samples the marker whose outer black square has corners q and
// checks what every marker shows whatever its code: a black border inside
// a white quiet zone with enough contrast, and flat modules.
func (cb *codebook) cells(g geom.View, q [4]geom.Point, lim decodeLimits, sc *decodeScratch) (cells, bool) {
	M := cb.bits + 2
	mf := float64(M)
	// Modules of less than two pixels across (a sliver of card art seen
	// as a marker at a steep angle) cannot be told from print.
	for k := range 4 {
		if geom.Dist(q[k], q[(k+1)%4]) < minModule*mf {
			return cells{}, false
		}
	}
	vals, spread, ok := cb.sampleCells(g, q, sc)
	if !ok {
		return cells{}, false
	}
	c := cells{vals: vals}
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
		return cells{}, false
	}
	// A marker's modules are flat black or white; a panel of card art
	// with a dark frame, sampled as if it were one, is not.
	if spread > maxModuleSpread*contrast {
		return cells{}, false
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
		return cells{}, false
	}
	return c, true
}

// decode reads the marker whose outer black square has corners q in g
// (clockwise on screen; image coordinates with pixel centres at integers,
// like Marker.Corners).
func (cb *codebook) decode(g geom.View, q [4]geom.Point, lim decodeLimits, sc *decodeScratch) (Sticker, bool) {
	n := cb.bits
	M := n + 2
	c, ok := cb.cells(g, q, lim, sc)
	if !ok {
		return Sticker{}, false
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
		return Sticker{}, false
	}
	conf := max(0, 1-best/max(lim.maxCost, 1e-9)*0.5) * min(1, (second-best)/3)
	conf *= 1 - 0.1*float64(c.badBorder+c.badQuiet)
	return Sticker{Marker: FromQuad(q, bestIdx/4, bestIdx%4), cost: best / max(lim.maxCost, 1e-9), margin: second - best, hard: bestHard,
		Conf: max(0, min(1, conf))}, true
}

// FromQuad is marker id with corners q (as sampled), its code seen
// turned by rot×90°.
func FromQuad(q [4]geom.Point, id, rot int) Marker {
	mk := Marker{ID: id}
	var cx, cy float64
	for k := range 4 {
		mk.Corners[k] = q[(k+rot)%4]
		cx += float64(q[k].X) / 4
		cy += float64(q[k].Y) / 4
	}
	mk.Side = quadSide(q)
	mk.Center = geom.Point{X: float32(cx), Y: float32(cy)}
	return mk
}

// plane fits v = a + b·x + c·y by least squares.
type plane struct {
	sxx, sxy, syy, sx, sy, n, sv, sxv, syv float64
	a, b, c                                float64
}

func (p *plane) add(x, y, v float64) {
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

func (p *plane) solve() {
	// Normal equations [n sx sy; sx sxx sxy; sy sxy syy]·[a b c] = [sv sxv syv].
	x, _, ok := solve3([3][3]float64{{p.n, p.sx, p.sy}, {p.sx, p.sxx, p.sxy}, {p.sy, p.sxy, p.syy}}, [3]float64{p.sv, p.sxv, p.syv}, 0)
	if !ok {
		p.a, p.b, p.c = p.sv/max(1, p.n), 0, 0
		return
	}
	p.a, p.b, p.c = x[0], x[1], x[2]
}

func (p *plane) at(x, y float64) float64 { return p.a + p.b*x + p.c*y }

// Candidate is a marker candidate: a quadrilateral found in a binary
// image, in full-resolution image coordinates (pixel centres at integers),
// clockwise on screen, and its area.
type Candidate struct {
	Q    [4]geom.Point
	Area float64
	cut  bool // from cutToQuad
	// restored are the corners cutToQuad put back (full-resolution
	// pixels), nRestored how many.
	restored  [2]geom.Point
	nRestored int
}

// addCutQuad adds the quad cutToQuad makes of the polygon pts
// (five to eight corners) to out, unless it is not one or it has the
// corners of quad other.
func addCutQuad(out []Candidate, pts [][2]float64, other [4][2]float64, scale float64, origin image.Point, minSide, maxSide float64) []Candidate {
	if len(pts) > 8 {
		return out
	}
	poly, ok := cutToQuad(pts)
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
	out = addDarkQuad(out, poly, true, scale, origin, minSide, maxSide)
	if len(out) > n {
		out[n].restored, out[n].nRestored = restored, nr
	}
	return out
}

// addDarkQuad maps poly (corners of boundary pixels in the binary
// image) to full-resolution image coordinates, half a pixel outwards, and
// adds it to out if geom.QuadOK takes it.
func addDarkQuad(out []Candidate, poly [4][2]float64, cut bool, scale float64, origin image.Point, minSide, maxSide float64) []Candidate {
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
	if q, area, ok := geom.QuadOK(q, minSide, maxSide); ok {
		return append(out, Candidate{Q: q, Area: area, cut: cut})
	}
	return out
}

// Scanner finds and decodes the ArUco stickers on cards: small (20 px),
// blurred, tilted, under glare. It keeps its buffers between pictures and
// is not safe for concurrent use.
type Scanner struct {
	cb      *codebook
	lim     decodeLimits
	bin     gocv.Mat
	small   gocv.Mat
	blur    gocv.Mat
	corners gocv.Mat // 4×1 CV_32FC2, for cornerSubPix
	sc      decodeScratch
	// Cands are the candidates of the last scan.
	Cands []Candidate
	// Failed holds the candidates of the last scan that did not decode,
	// Blobs its dark blobs of a small marker's size (half-resolution
	// passes).
	Failed   []Candidate
	Blobs    []image.Rectangle
	fit      geom.SideFitter
	contours contourBufs
	// unread holds the corners of the candidates that did not decode
	// since forget (this frame): another threshold often outlines a
	// square exactly as before, and reading it again fails again.
	unread map[quadKey]struct{}
	// colour is the colour view of the picture (since forget), for the
	// ink check (inked); without one (cn 0) the check is skipped.
	colour geom.View
	// weak holds the reads of the scan under way with little confidence
	// (weakConf), confirmed at its end; confirming is set while
	// confirmWeak looks again, again holds what one look read.
	weak       []Sticker
	confirming bool
	again      []Sticker
	// Keep, when set, clears the thresholded picture (cols × rows, of the
	// place from origin shrunk by scale: 255 where dark) where no sticker
	// can be (the card reader: far from what changed against the empty
	// table).
	Keep func(bin []uint8, cols, rows int, origin image.Point, scale float64)
}

// quadKey is a quad's corners, bit for bit.
type quadKey [8]uint32

func keyOf(q [4]geom.Point) quadKey {
	var k quadKey
	for i, p := range q {
		k[2*i], k[2*i+1] = math.Float32bits(p.X), math.Float32bits(p.Y)
	}
	return k
}

// Forget starts a new picture, whose colour view is colour
// (geom.ColourView; geom.View{} for none, which skips the ink check):
// candidates that failed on the last picture are read again.
func (s *Scanner) Forget(colour geom.View) {
	clear(s.unread)
	s.colour = colour
}

// Pass is how one scan thresholds the picture: PassHalf, PassFull or one
// of PassRetry.
type Pass struct {
	scale float64 // 0 < scale ≤ 1
	block int     // adaptive threshold window, odd
	c     float32 // adaptive threshold offset
	blur  bool    // a 3×3 Gaussian blur first (full resolution: noise)
	cut   bool    // outlines with corners cut off count too (glare)
}

// The two passes a card reading makes: the whole frame at half resolution
// (outlines from HalfMinSide; most 20 px markers show theirs, and every
// candidate is decoded on the full-resolution image), then the places
// where a card or a marker candidate was seen at full resolution (down to
// about 16 px).
var (
	PassHalf = Pass{scale: 0.5, block: 7, c: 8}
	PassFull = Pass{scale: 1, block: 9, c: 10, blur: true, cut: true}
	// PassRetry are the other thresholds tried, in order, on small
	// places where the full-resolution pass read nothing.
	PassRetry = [...]Pass{{scale: 1, block: 5, c: 6}, {scale: 1, block: 15, c: 5, blur: true}, {scale: 1, block: 7, c: 14, blur: true}}
)

// HalfMinSide is the least marker side (px) the half-resolution pass
// looks for: 8 px outlines there.
const HalfMinSide = 16

// subpixCriteria is created once: gocv cannot free a TermCriteria.
var subpixCriteria = sync.OnceValue(func() gocv.TermCriteria {
	return gocv.NewTermCriteria(gocv.Count|gocv.EPS, 20, 0.01)
})

// NewScanner returns a scanner for the stickers of dictionary d.
func NewScanner(d Dict) (*Scanner, error) {
	cb, err := newCodebook(d)
	if err != nil {
		return nil, err
	}
	lim := defaultLimits
	lim.maxHard = min(lim.maxHard, max(0, (cb.minDist-1)/2))
	return &Scanner{cb: cb, lim: lim, bin: gocv.NewMat(), small: gocv.NewMat(), blur: gocv.NewMat(),
		corners: gocv.NewMatWithSize(4, 1, gocv.MatTypeCV32FC2)}, nil
}

// Close releases the scanner's buffers.
func (s *Scanner) Close() {
	s.bin.Close()
	s.small.Close()
	s.blur.Close()
	s.corners.Close()
}

// Scan finds the stickers in region r of the full-resolution grey image
// grey (g its view, or a colour view of the same picture) with sides from
// minSide to maxSide full-resolution pixels, searching as pass says, and
// appends them to out. Candidates that did not decode are left in
// s.Failed (not the cut-corner ones); those that did not decode before on
// this picture (since Forget) are not read again.
func (s *Scanner) Scan(grey gocv.Mat, g geom.View, r image.Rectangle, pass Pass, minSide, maxSide float64, out []Sticker) ([]Sticker, error) {
	s.Failed = s.Failed[:0]
	s.Blobs = s.Blobs[:0]
	s.Cands = s.Cands[:0]
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
	if s.Keep != nil {
		b, err := s.bin.DataPtrUint8()
		if err != nil {
			return out, fmt.Errorf("sticker scan: threshold: %w", err)
		}
		s.Keep(b, s.bin.Cols(), s.bin.Rows(), r.Min, scale)
	}
	var blobs *[]image.Rectangle
	if scale < 1 {
		blobs = &s.Blobs
	}
	var err error
	s.Cands, err = s.contours.findDarkQuads(s.bin, scale, r.Min, minSide, maxSide, s.Cands[:0], blobs, [2]float64{14, 40}, pass.cut)
	if err != nil {
		return out, err
	}
	if s.unread == nil {
		s.unread = map[quadKey]struct{}{}
	}
	for _, c := range s.Cands {
		var m Sticker
		var ok bool
		switch {
		case c.cut:
			m, ok = s.readCut(grey, g, c)
			ok = ok && s.inked(m)
		default:
			// The same corners on the same picture read the same.
			key := keyOf(c.Q)
			if _, seen := s.unread[key]; seen {
				break
			}
			if m, ok = s.Read(grey, g, c.Q); ok {
				ok = s.inked(m)
			}
			if !ok {
				s.unread[key] = struct{}{}
			}
		}
		switch {
		case ok && m.Conf < weakConf && !s.confirming:
			s.weak = append(s.weak, m)
		case ok:
			out = addMarker(out, m)
		case !c.cut:
			// (A cut candidate that fails is one more look at a plain
			// candidate, which is kept.)
			s.Failed = append(s.Failed, c)
		}
	}
	if len(s.weak) > 0 && !s.confirming {
		return s.confirmWeak(grey, g, pass, minSide, maxSide, out)
	}
	return out, nil
}

// weakConf is the confidence under which a read is looked at again
// (confirmWeak).
const weakConf = 0.6

// confirmPasses are the looks confirmWeak takes, in order (but the
// pass that made the read).
var confirmPasses = [...]Pass{PassFull, PassRetry[0], PassRetry[1], PassRetry[2]}

// confirmWeak looks again at the place of every weak read of the scan just
// made (s.weak), at full resolution with the other thresholds, and adds to
// out the best read of the place (readBetter) of the first look that
// reads one there, or the weak read if none does. A candidate outlined a
// little off (two corners a module out, at half resolution) can read as
// another id with little confidence where a better outline of the same
// sticker reads right. The scan's failed candidates, blobs and candidates
// are kept.
func (s *Scanner) confirmWeak(grey gocv.Mat, g geom.View, pass Pass, minSide, maxSide float64, out []Sticker) ([]Sticker, error) {
	weak := slices.Clone(s.weak)
	failed, blobs, cands := slices.Clone(s.Failed), slices.Clone(s.Blobs), slices.Clone(s.Cands)
	s.confirming = true
	defer func() {
		s.confirming = false
		s.Failed, s.Blobs, s.Cands = failed, blobs, cands
	}()
	for _, m := range weak {
		best := m
		box := geom.QuadBox(m.Marker.Corners).Inset(-int(math.Ceil(0.6*m.Marker.Side)) - 2)
		for _, p := range confirmPasses {
			if p == pass {
				continue
			}
			var err error
			if s.again, err = s.Scan(grey, g, box, p, minSide, maxSide, s.again[:0]); err != nil {
				return out, err
			}
			found := false
			for _, o := range s.again {
				if geom.Dist(o.Marker.Center, m.Marker.Center) < 0.5*max(o.Marker.Side, m.Marker.Side) {
					found = true
					if readBetter(o, best) {
						best = o
					}
				}
			}
			if found {
				break
			}
		}
		out = addMarker(out, best)
	}
	return out, nil
}

// screen takes a first, cheap look at a candidate with its rough corners
// (one sample per module): a dark border inside a brighter ring, and both
// dark and bright modules inside. What fails is no marker (a square of a
// plaid, a dark panel) and not worth refining. washed tells whether a
// border cell is bright enough to have lost its contrast to glare (else
// the glare decoder need not look).
func (cb *codebook) screen(g geom.View, q [4]geom.Point) (ok, washed bool) {
	M := cb.bits + 2
	mf := float64(M)
	h, ok := moduleH(q, mf)
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
	washed = b[nb-1] >= glareWashed-screenWashSlack
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

// screenWashSlack is how much darker than glareWashed the
// brightest border cell of the screen's one-sample look may be for the
// glare decoder to be tried (its cells are means of nine samples).
const screenWashSlack = 25

// Read refines the corners q of a candidate (a sticker where it was last
// seen, moved) on the grey picture and decodes it.
func (s *Scanner) Read(grey gocv.Mat, g geom.View, q [4]geom.Point) (Sticker, bool) {
	if ok, washed := s.cb.screen(g, q); !ok {
		// Glare may wash out enough of the border to fail the screen.
		if !washed {
			return Sticker{}, false
		}
		return s.readGlare(grey, g, q, q)
	}
	side := quadSide(q)
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
	weak := m.Conf < minCorrectedConf
	if !weak && refined != q {
		if m2, ok := s.cb.decode(g, q, s.lim, &s.sc); ok && m2.Marker.ID != m.Marker.ID {
			weak = true
		}
	}
	if weak {
		return s.readBlurred(g, [3][4]geom.Point{refined, q, q}, m.Marker.ID)
	}
	return m, true
}

// readBlurred tries the blurred decoder (small modules blurred into each
// other) on a candidate's corners in turn (refined, rough, fitted to the
// edges; repeats are skipped); want ≥ 0 takes only that id.
func (s *Scanner) readBlurred(g geom.View, tries [3][4]geom.Point, want int) (Sticker, bool) {
	for i, c := range tries {
		if i > 0 && (c == tries[0] || c == tries[i-1]) {
			continue
		}
		if m, ok := s.cb.decodeBlurred(g, c, s.lim, &s.sc); ok && (want < 0 || m.Marker.ID == want) {
			return m, true
		}
	}
	return Sticker{}, false
}

// quadSide is the mean side length of q.
func quadSide(q [4]geom.Point) float64 {
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
func (s *Scanner) subpix(grey gocv.Mat, g geom.View, q [4]geom.Point) [4]geom.Point {
	side := quadSide(q)
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
	gocv.CornerSubPix(grey, &s.corners, image.Pt(hw, hw), image.Pt(-1, -1), subpixCriteria())
	for k := range refined {
		nx, ny := d[2*k], d[2*k+1]
		if math.Hypot(float64(nx-q[k].X), float64(ny-q[k].Y)) < side/modules {
			refined[k] = geom.Point{X: nx, Y: ny}
		}
	}
	return refined
}

// minModule is the least module size (px) along any side of a
// marker; minCorrectedConf is the least confidence of a marker read with a
// corrected bit, maxModuleSpread the largest mean spread of brightness
// inside a module, relative to the contrast.
const (
	minModule        = 2.0
	minCorrectedConf = 0.6
	maxModuleSpread  = 0.25
)

// addMarker adds m to list unless a marker there already covers it;
// of two readings of one place, the one with the lower cost (then the
// higher confidence) stays.
func addMarker(list []Sticker, m Sticker) []Sticker {
	for i, o := range list {
		d := math.Hypot(float64(o.Marker.Center.X-m.Marker.Center.X), float64(o.Marker.Center.Y-m.Marker.Center.Y))
		if d < 0.5*max(o.Marker.Side, m.Marker.Side) {
			if readBetter(m, o) {
				list[i] = m
			}
			return list
		}
	}
	return append(list, m)
}

// readBetter reports whether read a of a place beats read b: a lower
// cost, then a higher confidence.
func readBetter(a, b Sticker) bool {
	return a.cost < b.cost || (a.cost == b.cost && a.Conf > b.Conf)
}

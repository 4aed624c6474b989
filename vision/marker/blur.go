package marker

// Reading small, blurred markers. A 20 px sticker of 4×4 bits has modules
// of about 3 px, fewer across at a strong tilt; a little blur or JPEG then
// spreads every module into its neighbours: a white module between black
// ones stays grey, a black one between white ones too. The plain decoder
// judges each cell against the middle of black and white on its own, so
// such cells read with little confidence and the code misses its margin.
//
// This decoder, tried only when the plain one fails on a small candidate
// whose border and quiet zone are a marker's, predicts every cell of each
// code with the spread of its neighbours: brightness = a + b·own bit +
// c·white 4-neighbours (border cells black, quiet zone white), fitted by
// least squares over the data and border cells for each code; the code
// whose fit leaves the least residual is read, when its fit is good, its
// own bit clearly matters (b), every other id fits much worse (the gap
// in residual against the residual's own noise level) and no cell lies far
// off the fit (a module of the other colour: a flipped bit, not blur).

import (
	"math"
	"math/bits"

	"tablecam/vision/geom"
)

// Limits of the blurred decoder.
const (
	// blurMaxModule is the largest module (px) the blurred decoder
	// reads: larger ones are sharp enough for the plain decoder.
	blurMaxModule = 6.0
	// blurMinOwn is the least weight of a cell's own bit (in units of
	// the black-to-white contrast), blurMaxSpill the largest weight
	// of each white neighbour.
	blurMinOwn   = 0.5
	blurMaxSpill = 0.4
	// blurMaxRMS is the largest root-mean-square residual of the best
	// fit (contrast units).
	blurMaxRMS = 0.2
	// blurNoiseFloor is the least noise level assumed (contrast
	// units), blurMinGap the least gap in residual between the best
	// id and any other, in units of the noise variance.
	blurNoiseFloor = 0.04
	blurMinGap     = 35.0
	// blurMaxCell is the largest distance of any one cell from the
	// fit (contrast units).
	blurMaxCell = 0.6
)

// blurCell is one equation of the blurred fit: a data or border cell,
// its own bit (data cells: bit index, -1 for border cells), the data bits
// among its 4-neighbours and how many of them are quiet zone (white).
type blurCell struct {
	i, j  int
	own   int
	nb    uint64
	white float64
}

// blurCells lists the equations of the blurred fit (built once per
// codebook).
func (cb *codebook) blurCells() []blurCell {
	n := cb.bits
	M := n + 2
	var out []blurCell
	for i := range M {
		for j := range M {
			c := blurCell{i: i, j: j, own: -1}
			if i > 0 && j > 0 && i < M-1 && j < M-1 {
				c.own = (i-1)*n + j - 1
			}
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				a, b := i+d[0], j+d[1]
				switch {
				case a < 0 || b < 0 || a >= M || b >= M:
					c.white++
				case a > 0 && b > 0 && a < M-1 && b < M-1:
					c.nb |= 1 << ((a-1)*n + b - 1)
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// decodeBlurred reads the marker with corners q like decode, predicting
// every cell from its own bit and its neighbours' (see the top of this
// file).
func (cb *codebook) decodeBlurred(g geom.View, q [4]geom.Point, lim decodeLimits, sc *decodeScratch) (Sticker, bool) {
	M := cb.bits + 2
	if quadSide(q) > blurMaxModule*float64(M) {
		return Sticker{}, false
	}
	c, ok := cb.cells(g, q, lim, sc)
	if !ok {
		return Sticker{}, false
	}
	eqs := cb.blur
	// Brightness in contrast units: 0 black, 1 white.
	if cap(sc.level) < len(eqs) {
		sc.level = make([]float64, len(eqs))
	}
	u := sc.level[:len(eqs)]
	var su, suu float64
	for k, e := range eqs {
		x, y := float64(e.j)+0.5, float64(e.i)+0.5
		d, b := c.dk.at(x, y), c.br.at(x, y)
		u[k] = (c.at(e.i, e.j, M) - d) / max(1, b-d)
		su += u[k]
		suu += u[k] * u[k]
	}
	N := float64(len(eqs))
	best, second := math.Inf(1), math.Inf(1)
	bestIdx := -1
	var bestFit [3]float64
	for k, code := range cb.codes {
		// Normal equations of u = a + b·own + c·white neighbours.
		var sc1, ss, scc, scs, sss, scu, ssu float64
		for e, cell := range eqs {
			s := cell.white + float64(bits.OnesCount64(code&cell.nb))
			ss += s
			sss += s * s
			ssu += s * u[e]
			if cell.own >= 0 && code>>cell.own&1 == 1 {
				sc1++
				scs += s
				scu += u[e]
			}
		}
		scc = sc1
		fit, rss, ok := solve3([3][3]float64{{N, sc1, ss}, {sc1, scc, scs}, {ss, scs, sss}}, [3]float64{su, scu, ssu}, suu)
		if !ok {
			continue
		}
		switch {
		case rss < best:
			if bestIdx < 0 || k/4 != bestIdx/4 {
				second = best
			}
			best, bestIdx, bestFit = rss, k, fit
		case rss < second && k/4 != bestIdx/4:
			second = rss
		}
	}
	if bestIdx < 0 {
		return Sticker{}, false
	}
	rms := math.Sqrt(best / (N - 3))
	noise := max(blurNoiseFloor, rms)
	gap := (second - best) / (noise * noise)
	if rms > blurMaxRMS || bestFit[1] < blurMinOwn || bestFit[2] < -0.05 || bestFit[2] > blurMaxSpill || gap < blurMinGap {
		return Sticker{}, false
	}
	// Blur spreads every module into its neighbours alike; one cell far
	// off the fit is a module of another colour (a flipped bit, a grid a
	// module off), which the fit must not correct.
	if cb.blurWorst(u, cb.codes[bestIdx], bestFit) > blurMaxCell {
		return Sticker{}, false
	}
	conf := min(1, gap/(3*blurMinGap)) * (1 - rms/blurMaxRMS*0.5)
	conf *= 1 - 0.1*float64(c.badBorder+c.badQuiet)
	return Sticker{Marker: FromQuad(q, bestIdx/4, bestIdx%4), cost: rms / blurMaxRMS, margin: gap, Conf: max(0, min(1, conf))}, true
}

// blurWorst is the largest distance of a cell's brightness u (contrast
// units, in the order of cb.blur) from the blurred fit of code.
func (cb *codebook) blurWorst(u []float64, code uint64, fit [3]float64) float64 {
	worst := 0.0
	for e, cell := range cb.blur {
		s := cell.white + float64(bits.OnesCount64(code&cell.nb))
		own := 0.0
		if cell.own >= 0 && code>>cell.own&1 == 1 {
			own = 1
		}
		worst = max(worst, math.Abs(u[e]-(fit[0]+fit[1]*own+fit[2]*s)))
	}
	return worst
}

// solve3 solves the 3×3 normal equations a·x = b of a least-squares
// fit whose targets' sum of squares is yy, and returns x and the residual
// sum of squares; ok is false for a singular system.
func solve3(a [3][3]float64, b [3]float64, yy float64) (x [3]float64, rss float64, ok bool) {
	m := [3][4]float64{{a[0][0], a[0][1], a[0][2], b[0]}, {a[1][0], a[1][1], a[1][2], b[1]}, {a[2][0], a[2][1], a[2][2], b[2]}}
	for col := range 3 {
		piv := col
		for r := col + 1; r < 3; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		if math.Abs(m[piv][col]) < 1e-9 {
			return x, 0, false
		}
		m[col], m[piv] = m[piv], m[col]
		for r := range 3 {
			if r == col {
				continue
			}
			f := m[r][col] / m[col][col]
			for k := col; k < 4; k++ {
				m[r][k] -= f * m[col][k]
			}
		}
	}
	for i := range 3 {
		x[i] = m[i][3] / m[i][i]
	}
	// RSS = yy − xᵀb at the least-squares solution.
	rss = yy - (x[0]*b[0] + x[1]*b[1] + x[2]*b[2])
	return x, max(0, rss), true
}

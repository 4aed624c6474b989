package geom

// The RANSAC of keypoint fits in Go. OpenCV's
// findHomography solves a 9×9 eigen decomposition per sample of four
// pairs, so that a fit of pairs that are mostly stray — a blob's keypoint
// search without the ratio test, a card that is not there — costs its 500
// iterations whatever the number of pairs. Here a sample's homography is the exact four-point solution
// (HomographyOf), and the loop is OpenCV's (cv::RANSACPointSetRegistrator
// with the homography's sample check, the same inlier test and iteration
// bound from the confidence) but for its random samples, the sample check
// looking at any three points for collinear ones, and one addition:
// a new best consensus is refitted by least squares while that gathers
// more inliers (a sample of four noisy keypoints close together puts the
// card's far corners pixels off, and its consensus is then only the part
// of the card near them; OpenCV's RANSAC keeps such a consensus when it
// stops early). The fit returned is least squares with findHomography's
// Levenberg–Marquardt refinement on the inliers (refineLM), as
// findHomography does after its own RANSAC, fitted again to its own
// inliers while they grow.

import (
	"math"
	"math/rand/v2"
	"slices"

	"gocv.io/x/gocv"
)

// RANSAC bounds of the keypoint fits (those findHomography was given).
const (
	ransacIters      = 500
	ransacConfidence = 0.995
	ransacAttempts   = 10000 // samples tried for one that passes the check
	ransacRefits     = 4     // least-squares refits of a new best consensus
)

// Ransac fits homographies to point pairs of which many may be stray: the
// pairs of the fit, its random source (seeded the same each fit: a fit is
// repeatable) and the masks of the best consensus (Best) and the one tried.
// The zero value is ready to use; it keeps its buffers between fits.
type Ransac struct {
	src, dst []gocv.Point2f
	pcg      rand.PCG
	rng      *rand.Rand // drawing from pcg
	cur      []bool
	// Best marks the pairs of the best consensus (Run, Fit).
	Best []bool
	idx  [4]int
}

// Reset starts a fit of src[i] → dst[i], every pair an inlier.
func (rs *Ransac) Reset(src, dst []gocv.Point2f) {
	rs.src, rs.dst = src, dst
	rs.pcg.Seed(0x7ab1ecab, 0x2a2d5ac)
	if rs.rng == nil {
		rs.rng = rand.New(&rs.pcg)
	}
	n := len(src)
	rs.cur = slices.Grow(rs.cur[:0], n)[:n]
	clear(rs.cur)
	rs.Best = slices.Grow(rs.Best[:0], n)[:n]
	for i := range rs.Best {
		rs.Best[i] = true
	}
}

// Run finds the best consensus (rs.Best) of the pairs within sqrt(t) px
// and returns its size (0: none of at least four pairs).
func (rs *Ransac) Run(t float64) int {
	n := len(rs.src)
	clear(rs.Best)
	bestCount, iters := 0, ransacIters
	for it := 0; it < iters; it++ {
		var s, d [4][2]float64
		if !rs.sample(&s, &d) {
			break
		}
		_, c, ok := rs.try(&s, &d, t)
		if !ok {
			continue
		}
		if c > max(bestCount, 3) {
			bestCount = rs.improve(c, t)
			iters = ransacIterations(ransacConfidence, float64(n-bestCount)/float64(n), iters)
		}
	}
	return bestCount
}

// improve takes rs.cur (c inliers) as the best consensus, then refits it
// by least squares (fitLSQ) while that gathers more inliers; it
// returns the best consensus' size.
func (rs *Ransac) improve(c int, t float64) int {
	rs.cur, rs.Best = rs.Best, rs.cur
	for range ransacRefits {
		h, ok := fitLSQ(rs.src, rs.dst, rs.Best)
		if !ok {
			break
		}
		c2 := rs.inliers(&h, t)
		if c2 <= c {
			break
		}
		c = c2
		rs.cur, rs.Best = rs.Best, rs.cur
	}
	return c
}

// try is a step of run: the homography h of the sample s → d
// (HomographyOf) and, when there is one, its inliers (inliers); false
// when the sample has no homography.
func (rs *Ransac) try(s, d *[4][2]float64, t float64) (h Homography, inliers int, ok bool) {
	h, ok = HomographyOf(*s, *d)
	if !ok {
		return Homography{}, 0, false
	}
	return h, rs.inliers(&h, t), true
}

// inliers marks in rs.cur the pairs h brings within sqrt(t) px and returns
// how many there are.
func (rs *Ransac) inliers(h *Homography, t float64) int {
	c := 0
	for i, p := range rs.src {
		x, y := float64(p.X), float64(p.Y)
		w := 1 / (h[6]*x + h[7]*y + h[8])
		dx := (h[0]*x+h[1]*y+h[2])*w - float64(rs.dst[i].X)
		dy := (h[3]*x+h[4]*y+h[5])*w - float64(rs.dst[i].Y)
		in := dx*dx+dy*dy <= t
		rs.cur[i] = in
		if in {
			c++
		}
	}
	return c
}

// sample draws four distinct pairs into rs.idx whose points pass
// sampleOK on both sides, into s and d; false when none did in
// ransacAttempts draws.
func (rs *Ransac) sample(s, d *[4][2]float64) bool {
	n := len(rs.src)
	for range ransacAttempts {
		for j := range 4 {
		draw:
			for {
				rs.idx[j] = rs.rng.IntN(n)
				for i := range j {
					if rs.idx[i] == rs.idx[j] {
						continue draw
					}
				}
				break
			}
		}
		for j, i := range rs.idx {
			s[j] = [2]float64{float64(rs.src[i].X), float64(rs.src[i].Y)}
			d[j] = [2]float64{float64(rs.dst[i].X), float64(rs.dst[i].Y)}
		}
		if sampleOK(s, d) {
			return true
		}
	}
	return false
}

// sampleOK is OpenCV's check of a homography's sample of four pairs
// s[i] → d[i]: no three points collinear on either side (within float
// precision) and the four triangles they make turning the same way on
// both sides, or the opposite way on all.
func sampleOK(s, d *[4][2]float64) bool {
	negative := 0
	for _, t := range [4][3]int{{0, 1, 2}, {1, 2, 3}, {0, 2, 3}, {1, 3, 0}} {
		ds, ok := triDet(s[t[0]], s[t[1]], s[t[2]])
		if !ok {
			return false
		}
		dd, ok := triDet(d[t[0]], d[t[1]], d[t[2]])
		if !ok {
			return false
		}
		if ds*dd < 0 {
			negative++
		}
	}
	return negative == 0 || negative == 4
}

// triDet is the determinant of the triangle a, b, c (twice its signed
// area), false when its points are collinear (OpenCV's
// haveCollinearPoints: FLT_EPSILON of the sides' coordinates).
func triDet(a, b, c [2]float64) (float64, bool) {
	const eps = 1.1920928955078125e-07 // FLT_EPSILON
	dx1, dy1, dx2, dy2 := b[0]-a[0], b[1]-a[1], c[0]-a[0], c[1]-a[1]
	det := dx1*dy2 - dy1*dx2
	return det, math.Abs(det) > eps*(math.Abs(dx1)+math.Abs(dy1)+math.Abs(dx2)+math.Abs(dy2))
}

// ransacIterations is OpenCV's RANSACUpdateNumIters for samples of
// four: the iterations that find an all-inlier sample with confidence p
// when a share ep of the pairs are outliers, at most maxIters.
func ransacIterations(p, ep float64, maxIters int) int {
	p, ep = max(0, min(1, p)), max(0, min(1, ep))
	const dblMin = 0x1p-1022 // DBL_MIN
	num := math.Max(1-p, dblMin)
	denom := 1 - math.Pow(1-ep, 4)
	if denom < dblMin {
		return 0
	}
	num, denom = math.Log(num), math.Log(denom)
	if denom >= 0 || -num >= float64(maxIters)*(-denom) {
		return maxIters
	}
	return int(math.RoundToEven(num / denom))
}

// fitLSQ is the least-squares homography (its last element 1) taking
// the points src[i] to dst[i] where use[i], in coordinates centred and
// scaled as OpenCV's fit does; false when fewer than four or degenerate.
func fitLSQ(src, dst []gocv.Point2f, use []bool) (Homography, bool) {
	var cs, cd, ss, sd [2]float64
	n := 0
	for i, u := range use {
		if u {
			cs[0], cs[1] = cs[0]+float64(src[i].X), cs[1]+float64(src[i].Y)
			cd[0], cd[1] = cd[0]+float64(dst[i].X), cd[1]+float64(dst[i].Y)
			n++
		}
	}
	if n < 4 {
		return Homography{}, false
	}
	for a := range 2 {
		cs[a], cd[a] = cs[a]/float64(n), cd[a]/float64(n)
	}
	for i, u := range use {
		if u {
			ss[0] += math.Abs(float64(src[i].X) - cs[0])
			ss[1] += math.Abs(float64(src[i].Y) - cs[1])
			sd[0] += math.Abs(float64(dst[i].X) - cd[0])
			sd[1] += math.Abs(float64(dst[i].Y) - cd[1])
		}
	}
	for a := range 2 {
		if ss[a] < 1e-9 || sd[a] < 1e-9 {
			return Homography{}, false
		}
		ss[a], sd[a] = float64(n)/ss[a], float64(n)/sd[a]
	}
	// The normal equations of the eight unknowns. A pair's rows are
	// (X, Y, 1, 0, 0, 0, −x·X, −x·Y | x) and (0, 0, 0, X, Y, 1, −y·X, −y·Y
	// | y): the equations are sums of the products of X, Y and 1,
	// unweighted and weighted by x, y and x² + y² (as lmSystem's).
	var s0 [6]float64     // XX, XY, YY, X, Y, 1
	var sx, sy [5]float64 // XX, XY, YY, X, Y times x, times y
	var sr [5]float64     // XX, XY, YY, X, Y times x² + y²
	var sxy [2]float64    // x, y
	for i, u := range use {
		if !u {
			continue
		}
		X, Y := (float64(src[i].X)-cs[0])*ss[0], (float64(src[i].Y)-cs[1])*ss[1]
		x, y := (float64(dst[i].X)-cd[0])*sd[0], (float64(dst[i].Y)-cd[1])*sd[1]
		p := [5]float64{X * X, X * Y, Y * Y, X, Y}
		r2 := x*x + y*y
		for k := range 5 {
			s0[k] += p[k]
			sx[k] += p[k] * x
			sy[k] += p[k] * y
			sr[k] += p[k] * r2
		}
		s0[5]++
		sxy[0] += x
		sxy[1] += y
	}
	var m [8][9]float64
	blk := [3][3]float64{{s0[0], s0[1], s0[3]}, {s0[1], s0[2], s0[4]}, {s0[3], s0[4], s0[5]}}
	wx := [3][2]float64{{sx[0], sx[1]}, {sx[1], sx[2]}, {sx[3], sx[4]}}
	wy := [3][2]float64{{sy[0], sy[1]}, {sy[1], sy[2]}, {sy[3], sy[4]}}
	for i := range 3 {
		for j := range 3 {
			m[i][j], m[3+i][3+j] = blk[i][j], blk[i][j]
		}
		for j := range 2 {
			m[i][6+j], m[6+j][i] = -wx[i][j], -wx[i][j]
			m[3+i][6+j], m[6+j][3+i] = -wy[i][j], -wy[i][j]
		}
	}
	m[6][6], m[6][7], m[7][6], m[7][7] = sr[0], sr[1], sr[1], sr[2]
	m[0][8], m[1][8], m[2][8] = sx[3], sx[4], sxy[0]
	m[3][8], m[4][8], m[5][8] = sy[3], sy[4], sxy[1]
	m[6][8], m[7][8] = -sr[3], -sr[4]
	hn, ok := solve8(&m)
	if !ok {
		return Homography{}, false
	}
	// Back to pixels: H = Td⁻¹ · Hn · Ts.
	ts := Homography{ss[0], 0, -cs[0] * ss[0], 0, ss[1], -cs[1] * ss[1], 0, 0, 1}
	td := Homography{1 / sd[0], 0, cd[0], 0, 1 / sd[1], cd[1], 0, 0, 1}
	h := mulH(mulH(td, hn), ts)
	if math.Abs(h[8]) < 1e-12 {
		return Homography{}, false
	}
	for i := range h {
		h[i] /= h[8]
	}
	return h, true
}

// solve8 solves the 8×8 system m (its last column the right-hand
// side) by Gaussian elimination and returns the solution with a 1 appended.
func solve8(m *[8][9]float64) (Homography, bool) {
	for col := range 8 {
		piv := col
		for r := col + 1; r < 8; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		if math.Abs(m[piv][col]) < 1e-12 {
			return Homography{}, false
		}
		m[col], m[piv] = m[piv], m[col]
		for r := col + 1; r < 8; r++ {
			f := m[r][col] / m[col][col]
			for c := col; c < 9; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	var h Homography
	for r := 7; r >= 0; r-- {
		v := m[r][8]
		for c := r + 1; c < 8; c++ {
			v -= m[r][c] * h[c]
		}
		h[r] = v / m[r][r]
	}
	h[8] = 1
	return h, true
}

// mulH is the product a·b of two homographies.
func mulH(a, b Homography) Homography {
	var o Homography
	for r := range 3 {
		for c := range 3 {
			o[3*r+c] = a[3*r]*b[c] + a[3*r+1]*b[3+c] + a[3*r+2]*b[6+c]
		}
	}
	return o
}

// refineLM refines h (h[8] = 1) to the pairs src[i] → dst[i] with
// use[i] by Levenberg–Marquardt on their reprojection errors in dst, as
// findHomography refines its fit (OpenCV 4.6: HomographyRefineCallback's
// errors and Jacobian, LMSolver's steps with its damping and its bounds of
// lmIters iterations and FLT_EPSILON). OpenCV solves each step by an
// eigen decomposition (DECOMP_EIG), most of the cost of a fit; here the damped normal equations, positive
// definite, are solved by elimination, and the steps stop once one no
// longer changes the error (lmFlat) (TestRefineLMAsOpenCV: the
// same homography as OpenCV's, 4e-6 px apart at the card's corners). When
// a step cannot be solved, h is returned as it was refined so far.
func refineLM(src, dst []gocv.Point2f, use []bool, h Homography) Homography {
	x := [8]float64(h[:8])
	r := lmSystem(src, dst, use, &x)
	a, v, s, rInf := r.a, r.v, r.s, r.rInf
	d0 := [8]float64{}
	for i := range 8 {
		d0[i] = a[i][i]
	}
	const (
		rlo, rhi = 0.25, 0.75
		eps      = 0x1p-52 // DBL_EPSILON
		flt      = 0x1p-23 // FLT_EPSILON
	)
	lambda, lc := 1.0, 0.75
	for iter := 0; ; {
		var m [8][9]float64
		for i := range 8 {
			copy(m[i][:8], a[i][:])
			m[i][i] += lambda * d0[i]
			m[i][8] = v[i]
		}
		step, ok := solve8(&m)
		if !ok {
			return lmH(x)
		}
		var xd [8]float64
		dInf := 0.0
		for i := range 8 {
			xd[i] = x[i] - step[i]
			dInf = max(dInf, math.Abs(step[i]))
		}
		sd := lmErr(src, dst, use, &xd)
		// dS = d·(2v − A·d): the decrease the linear model predicts.
		dS, t := 0.0, 0.0
		for i := range 8 {
			ad := 0.0
			for j := range 8 {
				ad += a[i][j] * step[j]
			}
			dS += step[i] * (2*v[i] - ad)
			t += step[i] * v[i]
		}
		if math.Abs(dS) <= eps {
			dS = 1
		}
		switch rr := (s - sd) / dS; {
		case rr > rhi:
			lambda *= 0.5
			if lambda < lc {
				lambda = 0
			}
		case rr < rlo:
			if math.Abs(t) <= eps {
				t = 1
			}
			nu := min(max((sd-s)/t+2, 2), 10)
			if lambda == 0 {
				maxval, ok := lmInvDiagMax(&a)
				if !ok {
					return lmH(x)
				}
				lc = 1 / max(eps, maxval)
				lambda = lc
				nu *= 0.5
			}
			lambda *= nu
		}
		// A step that changes the error by less than lmFlat of it
		// has converged (OpenCV goes on until its bounds, usually all
		// lmIters steps; its fit moves by less than 1e-6 px after
		// this: TestRefineLMAsOpenCV).
		flat := math.Abs(s-sd) <= lmFlat*s
		if sd < s {
			x = xd
			if flat {
				return lmH(x)
			}
			r = lmSystem(src, dst, use, &x)
			a, v, s, rInf = r.a, r.v, r.s, r.rInf
		}
		iter++
		if flat || iter >= lmIters || dInf < flt || rInf < flt {
			return lmH(x)
		}
	}
}

// lmIters bounds findHomography's refinement (LMSolver's maxIters);
// refineLM stops earlier when a step changes the squared error by less
// than lmFlat of it.
const (
	lmIters = 10
	lmFlat  = 1e-12
)

// lmH is the homography of the eight parameters x.
func lmH(x [8]float64) Homography {
	return Homography{x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 1}
}

// lmNormal is a step's system: JᵀJ (a), Jᵀr (v), the squared errors'
// sum (s) and their largest magnitude (rInf).
type lmNormal struct {
	a       [8][8]float64
	v       [8]float64
	s, rInf float64
}

// lmPoint is the reprojection of src by x (h[8] = 1) and 1/w (0 when w
// vanishes, as OpenCV's callback has it).
func lmPoint(x *[8]float64, p gocv.Point2f) (px, py, xi, yi, ww float64) {
	px, py = float64(p.X), float64(p.Y)
	ww = x[6]*px + x[7]*py + 1
	if math.Abs(ww) > 0x1p-52 {
		ww = 1 / ww
	} else {
		ww = 0
	}
	xi = (x[0]*px + x[1]*py + x[2]) * ww
	yi = (x[3]*px + x[4]*py + x[5]) * ww
	return
}

// lmSystem is the system of a step at x over the pairs used. A pair's
// x row of J is (a, b, w, 0, 0, 0, −a·xi, −b·xi) and its y row (0, 0, 0,
// a, b, w, −a·yi, −b·yi), a = px·w and b = py·w, so that JᵀJ is made of
// the sums of the six products of a, b, w, unweighted and weighted by xi,
// yi and xi² + yi².
func lmSystem(src, dst []gocv.Point2f, use []bool, x *[8]float64) lmNormal {
	var n lmNormal
	var s0, sx, sy [6]float64 // aa, ab, bb, aw, bw, ww
	var sr [3]float64         // aa, ab, bb times xi² + yi²
	for i, u := range use {
		if !u {
			continue
		}
		px, py, xi, yi, w := lmPoint(x, src[i])
		ex, ey := xi-float64(dst[i].X), yi-float64(dst[i].Y)
		n.s += ex*ex + ey*ey
		n.rInf = max(n.rInf, math.Abs(ex), math.Abs(ey))
		a, b := px*w, py*w
		p := [6]float64{a * a, a * b, b * b, a * w, b * w, w * w}
		r2 := xi*xi + yi*yi
		for k := range 6 {
			s0[k] += p[k]
			sx[k] += p[k] * xi
			sy[k] += p[k] * yi
		}
		sr[0] += p[0] * r2
		sr[1] += p[1] * r2
		sr[2] += p[2] * r2
		n.v[0] += a * ex
		n.v[1] += b * ex
		n.v[2] += w * ex
		n.v[3] += a * ey
		n.v[4] += b * ey
		n.v[5] += w * ey
		n.v[6] -= a * (xi*ex + yi*ey)
		n.v[7] -= b * (xi*ex + yi*ey)
	}
	// The blocks of a, b, w with themselves (rows 0–2 and 3–5).
	abw := [3][3]float64{{s0[0], s0[1], s0[3]}, {s0[1], s0[2], s0[4]}, {s0[3], s0[4], s0[5]}}
	// a, b, w with −a·xi, −b·xi (rows 0–2) and −a·yi, −b·yi (rows 3–5).
	wx := [3][2]float64{{sx[0], sx[1]}, {sx[1], sx[2]}, {sx[3], sx[4]}}
	wy := [3][2]float64{{sy[0], sy[1]}, {sy[1], sy[2]}, {sy[3], sy[4]}}
	for i := range 3 {
		for j := range 3 {
			n.a[i][j], n.a[3+i][3+j] = abw[i][j], abw[i][j]
		}
		for j := range 2 {
			n.a[i][6+j], n.a[6+j][i] = -wx[i][j], -wx[i][j]
			n.a[3+i][6+j], n.a[6+j][3+i] = -wy[i][j], -wy[i][j]
		}
	}
	n.a[6][6], n.a[6][7], n.a[7][6], n.a[7][7] = sr[0], sr[1], sr[1], sr[2]
	return n
}

// lmErr is the sum of the squared reprojection errors at x.
func lmErr(src, dst []gocv.Point2f, use []bool, x *[8]float64) float64 {
	s := 0.0
	for i, u := range use {
		if !u {
			continue
		}
		_, _, xi, yi, _ := lmPoint(x, src[i])
		ex, ey := xi-float64(dst[i].X), yi-float64(dst[i].Y)
		s += ex*ex + ey*ey
	}
	return s
}

// lmInvDiagMax is the largest magnitude on the diagonal of a's inverse
// (false when a is singular).
func lmInvDiagMax(a *[8][8]float64) (float64, bool) {
	m := 0.0
	for c := range 8 {
		var sys [8][9]float64
		for i := range 8 {
			copy(sys[i][:8], a[i][:])
		}
		sys[c][8] = 1
		col, ok := solve8(&sys)
		if !ok {
			return 0, false
		}
		m = max(m, math.Abs(col[c]))
	}
	return m, true
}

// Fit fits a homography to src[i] → dst[i] and returns it and its number
// of inliers, pairs within reproj px of the fit inliers: RANSAC picks the inliers and least squares with
// findHomography's refinement fits them (fitInliers, as findHomography does
// after its RANSAC; four pairs are fitted as they are); the fit's own
// inliers are fitted again while they grow.
func (rs *Ransac) Fit(src, dst []gocv.Point2f, reproj float64) (Homography, int, bool) {
	n := len(src)
	if n < 4 || len(dst) != n {
		return Homography{}, 0, false
	}
	rs.Reset(src, dst)
	if n == 4 {
		hm, ok := rs.fitInliers()
		return hm, n, ok
	}
	t := reproj * reproj
	inl := rs.Run(t)
	if inl == 0 {
		return Homography{}, 0, false
	}
	hm, ok := rs.fitInliers()
	for range ransacRefits {
		if !ok {
			break
		}
		c := rs.inliers(&hm, t)
		if c <= inl {
			break
		}
		rs.cur, rs.Best = rs.Best, rs.cur
		h2, ok2 := rs.fitInliers()
		if !ok2 {
			rs.cur, rs.Best = rs.Best, rs.cur
			break
		}
		hm, inl = h2, c
	}
	return hm, inl, ok
}

// fitInliers is the least-squares homography, refined, of the pairs of
// rs's best consensus: normalised linear least squares (fitLSQ)
// refined by findHomography's Levenberg–Marquardt (refineLM) when
// there are more than four, in Go: OpenCV's findHomography spends most of
// its time in its refinement's eigen decompositions, and a new frame fits
// 2–10 times (confirmations, keypoint searches); this fit gives the same
// homography (TestRefineLMAsOpenCV) for a fraction of the time
// (BenchmarkFitInliers).
func (rs *Ransac) fitInliers() (Homography, bool) {
	h, ok := fitLSQ(rs.src, rs.dst, rs.Best)
	if !ok {
		return Homography{}, false
	}
	n := 0
	for _, in := range rs.Best {
		if in {
			n++
		}
	}
	if n > 4 {
		h = refineLM(rs.src, rs.dst, rs.Best, h)
	}
	return h, true
}

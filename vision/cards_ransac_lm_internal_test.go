package vision

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// cardLMPairs returns n pairs of a card of 128×166 px under a perspective
// homography (seeded), the found points off by noise px (normal), and a
// share out of them far off.
func cardLMPairs(seed uint64, n int, noise, out float64) (src, dst []gocv.Point2f) {
	rng := rand.New(rand.NewPCG(seed, 7))
	h := cardH{0.8 + 0.6*rng.Float64(), 0.3 * (rng.Float64() - 0.5), 100 * rng.Float64(),
		0.3 * (rng.Float64() - 0.5), 0.8 + 0.6*rng.Float64(), 100 * rng.Float64(),
		0.002 * (rng.Float64() - 0.5), 0.002 * (rng.Float64() - 0.5), 1}
	for range n {
		x, y := 128*rng.Float64(), 166*rng.Float64()
		u, v := h.apply(x, y)
		u, v = u+noise*rng.NormFloat64(), v+noise*rng.NormFloat64()
		if rng.Float64() < out {
			u, v = u+40*(rng.Float64()-0.5), v+40*(rng.Float64()-0.5)
		}
		src = append(src, gocv.Point2f{X: float32(x), Y: float32(y)})
		dst = append(dst, gocv.Point2f{X: float32(u), Y: float32(v)})
	}
	return src, dst
}

// TestCardRefineLMAsOpenCV: the pure-Go fit of fitInliers (cardFitLSQ, then
// cardRefineLM) gives the homography OpenCV's findHomography (all points,
// its refinement) gives, within 1e-4 px at the card's corners, on noisy
// consensus sets of 4 pairs to 300 (with points far off among 20 or more);
// where it does not (a few pairs, nearly degenerate, whose linear fits are
// far off), its reprojection error is the lower one.
func TestCardRefineLMAsOpenCV(t *testing.T) {
	k := newCardKeyer()
	defer k.close()
	const sets = 200
	same, worst := 0, 0.0
	for seed := range uint64(sets) {
		n := []int{4, 5, 8, 20, 60, 150, 300}[seed%7]
		// A consensus (fitInliers' pairs): far-off points only among
		// many.
		out := []float64{0, 0.1, 0.3}[seed%3]
		if n < 20 {
			out = 0
		}
		src, dst := cardLMPairs(seed, n, []float64{0, 0.3, 0.8, 2}[seed%4], out)
		k.fit.reset(src, dst)
		want, ok := cardFitInliersCV(k)
		if !ok {
			t.Fatalf("seed %d: OpenCV found no homography", seed)
		}
		got, ok := k.fitInliers()
		if !ok {
			t.Fatalf("seed %d: no homography", seed)
		}
		off := 0.0
		for _, c := range [][2]float64{{0, 0}, {128, 0}, {128, 166}, {0, 166}} {
			wx, wy := want.apply(c[0], c[1])
			gx, gy := got.apply(c[0], c[1])
			off = max(off, math.Hypot(gx-wx, gy-wy))
		}
		if off <= 1e-4 {
			same++
			worst = max(worst, off)
			continue
		}
		xw, xg := [8]float64(want[:8]), [8]float64(got[:8])
		ew, eg := cardLMErr(src, dst, k.fit.best, &xw), cardLMErr(src, dst, k.fit.best, &xg)
		t.Logf("seed %d, %d pairs: corners %.3g px from OpenCV's fit; squared error %.4g, OpenCV's %.4g", seed, n, off, eg, ew)
		if eg >= ew || n >= 20 {
			t.Errorf("seed %d, %d pairs: fit %.3g px from OpenCV's, and no better", seed, n, off)
		}
	}
	if same < sets-5 {
		t.Errorf("%d of %d fits as OpenCV's, want all but at most 5", same, sets)
	}
	t.Logf("%d of %d fits within %.3g px of OpenCV's at the corners", same, sets, worst)
}

// TestCardRefineLMLowersError: the refinement lowers the reprojection
// error of the linear fit of noisy pairs and leaves an exact fit exact.
func TestCardRefineLMLowersError(t *testing.T) {
	src, dst := cardLMPairs(3, 80, 1.5, 0)
	use := make([]bool, len(src))
	for i := range use {
		use[i] = true
	}
	h0, ok := cardFitLSQ(src, dst, use)
	if !ok {
		t.Fatal("no linear fit")
	}
	h1 := cardRefineLM(src, dst, use, h0)
	x0, x1 := [8]float64(h0[:8]), [8]float64(h1[:8])
	e0, e1 := cardLMErr(src, dst, use, &x0), cardLMErr(src, dst, use, &x1)
	if !(e1 < e0) {
		t.Errorf("refined error %.6g, linear fit's %.6g: want lower", e1, e0)
	}
	src, dst = cardLMPairs(4, 30, 0, 0)
	use = use[:30]
	h0, _ = cardFitLSQ(src, dst, use)
	h1 = cardRefineLM(src, dst, use, h0)
	x1 = [8]float64(h1[:8])
	if e := cardLMErr(src, dst, use, &x1); e > 1e-6 {
		t.Errorf("exact pairs refined to squared error %.3g, want ~0", e)
	}
}

// cardFitInliersCV is the fit fitInliers must give: OpenCV's
// findHomography of all the pairs of k.fit's best consensus (its least
// squares, refined).
func cardFitInliersCV(k *cardKeyer) (cardH, bool) {
	rs := &k.fit
	n := 0
	for _, in := range rs.best {
		if in {
			n++
		}
	}
	if n < 4 {
		return cardH{}, false
	}
	src := gocv.NewMatWithSize(n, 1, gocv.MatTypeCV32FC2)
	defer src.Close()
	dst := gocv.NewMatWithSize(n, 1, gocv.MatTypeCV32FC2)
	defer dst.Close()
	// The points written through the Mats' data: a call into C per
	// coordinate would cost a good part of the fit.
	sp, err := src.DataPtrFloat32()
	if err != nil {
		return cardH{}, false
	}
	dp, err := dst.DataPtrFloat32()
	if err != nil {
		return cardH{}, false
	}
	j := 0
	for i, in := range rs.best {
		if in {
			sp[2*j], sp[2*j+1] = rs.src[i].X, rs.src[i].Y
			dp[2*j], dp[2*j+1] = rs.dst[i].X, rs.dst[i].Y
			j++
		}
	}
	mask := gocv.NewMat()
	defer mask.Close()
	// All points: the threshold and RANSAC's bounds are not used.
	h := gocv.FindHomography(src, &dst, gocv.HomograpyMethodAllPoints, 3, &mask, cardRansacIters, cardRansacConfidence)
	defer h.Close()
	if h.Empty() || h.Rows() != 3 || h.Cols() != 3 {
		return cardH{}, false
	}
	hd, err := h.DataPtrFloat64()
	if err != nil || len(hd) < 9 {
		return cardH{}, false
	}
	var hm cardH
	copy(hm[:], hd)
	return hm, true
}

// TestCardRansacTryMatchesGo checks RANSAC's step in C (try: the sample's
// homography and its inliers, tc_ransac_try) and the inlier count in C
// (inliers) against the Go they replaced (cardHomography, inliersGo), bit
// for bit: the homography, the count and every pair's mark, for samples
// of card-like pairs, stray pairs, collinear and repeated points (no
// homography) and far-off or huge points.
func TestCardRansacTryMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var rs, ref cardRansac
	for trial := range 3000 {
		n := 1 + rng.IntN(200)
		src, dst := make([]gocv.Point2f, n), make([]gocv.Point2f, n)
		h0 := cardH{1 + rng.NormFloat64()*0.2, rng.NormFloat64() * 0.2, rng.Float64() * 100, rng.NormFloat64() * 0.2, 1 + rng.NormFloat64()*0.2, rng.Float64() * 100, rng.NormFloat64() * 1e-3, rng.NormFloat64() * 1e-3, 1}
		for i := range n {
			x, y := rng.Float64()*300, rng.Float64()*400
			u, v := h0.apply(x, y)
			if rng.IntN(3) == 0 { // a stray pair
				u, v = rng.Float64()*300, rng.Float64()*400
			}
			if trial%50 == 7 {
				x, u = x*1e15, u*1e15 // far off
			}
			src[i] = gocv.Point2f{X: float32(x), Y: float32(y)}
			dst[i] = gocv.Point2f{X: float32(u + rng.NormFloat64()), Y: float32(v + rng.NormFloat64())}
		}
		rs.reset(src, dst)
		ref.reset(src, dst)
		var s, d [4][2]float64
		for j := range 4 {
			k := rng.IntN(n)
			s[j] = [2]float64{float64(src[k].X), float64(src[k].Y)}
			d[j] = [2]float64{float64(dst[k].X), float64(dst[k].Y)}
		}
		switch trial % 5 {
		case 1: // collinear
			s[2] = [2]float64{(s[0][0] + s[1][0]) / 2, (s[0][1] + s[1][1]) / 2}
		case 2: // repeated
			d[3] = d[1]
		}
		th := []float64{1, 9, 25}[trial%3]
		h, c, ok := rs.try(&s, &d, th)
		wh, wok := cardHomography(s, d)
		if ok != wok {
			t.Fatalf("trial %d: homography found %v, Go %v", trial, ok, wok)
		}
		if !ok {
			continue
		}
		if h != wh {
			t.Fatalf("trial %d: homography %v, Go %v", trial, h, wh)
		}
		if wc := ref.inliersGo(&wh, th); c != wc || !slices.Equal(rs.cur, ref.cur) {
			t.Fatalf("trial %d: %d inliers, Go %d (marks equal: %v)", trial, c, wc, slices.Equal(rs.cur, ref.cur))
		}
		clear(rs.cur)
		if c2 := rs.inliers(&wh, th); c2 != c || !slices.Equal(rs.cur, ref.cur) {
			t.Fatalf("trial %d: inliers in C %d, Go %d", trial, c2, c)
		}
	}
}

// TestCardKeyClosestAllMatchesGo checks the keypoint pairing in C
// (closestAll: tc_key_closest) against closest in Go, point by point: the
// same keypoint and distance for points on and off the picture, far off,
// not a number, with keypoints crowded (ties in distance) or none.
func TestCardKeyClosestAllMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	k := &cardKeyer{}
	for trial := range 200 {
		sz := image.Pt(20+rng.IntN(200), 20+rng.IntN(200))
		nq := rng.IntN(300)
		if trial%17 == 0 {
			nq = 0
		}
		k.qpts, k.qdesc = k.qpts[:0], k.qdesc[:0]
		for range nq {
			k.qpts = append(k.qpts, Point2f{float32(rng.Float64() * float64(sz.X)), float32(rng.Float64() * float64(sz.Y))})
			var d [4]uint64
			for w := range d {
				d[w] = rng.Uint64()
				if trial%3 == 0 {
					d[w] &= 0xff // few bits: ties
				}
			}
			k.qdesc = append(k.qdesc, d)
		}
		k.grid(sz)
		m := rng.IntN(150)
		desc := make([][4]uint64, m)
		k.nearPoints(m)
		for j := range m {
			for w := range desc[j] {
				desc[j][w] = rng.Uint64()
				if trial%3 == 0 {
					desc[j][w] &= 0xff
				}
			}
			x, y := rng.Float64()*float64(sz.X+40)-20, rng.Float64()*float64(sz.Y+40)-20
			switch j % 23 {
			case 5:
				x = math.NaN()
			case 7:
				y = math.Inf(1)
			case 9:
				x = -1e300
			}
			k.nearX[j], k.nearY[j] = x, y
		}
		for _, r := range []float64{cardVerifyReach, cardVerifyFine, 0.5, 30} {
			k.closestAll(desc, r)
			for j := range m {
				wi, wd := k.closest(&desc[j], k.nearX[j], k.nearY[j], r)
				if int(k.nearIdx[j]) != wi || int(k.nearDist[j]) != wd {
					t.Fatalf("trial %d, reach %v, point %d (%v, %v): keypoint %d at %d, Go %d at %d", trial, r, j, k.nearX[j], k.nearY[j], k.nearIdx[j], k.nearDist[j], wi, wd)
				}
			}
		}
	}
}

// BenchmarkCardFitInliers is fitInliers on 150 noisy pairs (a card's
// consensus), against OpenCV's findHomography on the same pairs
// (/opencv): the cost the Go fit saves a new frame 2–10 times.
func BenchmarkCardFitInliers(b *testing.B) {
	k := newCardKeyer()
	defer k.close()
	src, dst := cardLMPairs(1, 150, 0.3, 0)
	for _, bm := range []struct {
		name string
		fit  func(*cardKeyer) (cardH, bool)
	}{{"go", (*cardKeyer).fitInliers}, {"opencv", cardFitInliersCV}} {
		b.Run(bm.name, func(b *testing.B) {
			k.fit.reset(src, dst)
			for b.Loop() {
				if _, ok := bm.fit(k); !ok {
					b.Fatal("no homography")
				}
			}
		})
	}
}

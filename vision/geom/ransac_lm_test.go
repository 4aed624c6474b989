package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// lmPairs returns n pairs of a card of 128×166 px under a perspective
// homography (seeded), the found points off by noise px (normal), and a
// share out of them far off.
func lmPairs(seed uint64, n int, noise, out float64) (src, dst []gocv.Point2f) {
	rng := rand.New(rand.NewPCG(seed, 7))
	h := Homography{0.8 + 0.6*rng.Float64(), 0.3 * (rng.Float64() - 0.5), 100 * rng.Float64(),
		0.3 * (rng.Float64() - 0.5), 0.8 + 0.6*rng.Float64(), 100 * rng.Float64(),
		0.002 * (rng.Float64() - 0.5), 0.002 * (rng.Float64() - 0.5), 1}
	for range n {
		x, y := 128*rng.Float64(), 166*rng.Float64()
		u, v := h.Apply(x, y)
		u, v = u+noise*rng.NormFloat64(), v+noise*rng.NormFloat64()
		if rng.Float64() < out {
			u, v = u+40*(rng.Float64()-0.5), v+40*(rng.Float64()-0.5)
		}
		src = append(src, gocv.Point2f{X: float32(x), Y: float32(y)})
		dst = append(dst, gocv.Point2f{X: float32(u), Y: float32(v)})
	}
	return src, dst
}

// TestRefineLMAsOpenCV: the pure-Go fit of fitInliers (fitLSQ, then
// refineLM) gives the homography OpenCV's findHomography (all points,
// its refinement) gives, within 1e-4 px at the card's corners, on noisy
// consensus sets of 4 pairs to 300 (with points far off among 20 or more);
// where it does not (a few pairs, nearly degenerate, whose linear fits are
// far off), its reprojection error is the lower one.
func TestRefineLMAsOpenCV(t *testing.T) {
	var rs Ransac
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
		src, dst := lmPairs(seed, n, []float64{0, 0.3, 0.8, 2}[seed%4], out)
		rs.Reset(src, dst)
		want, ok := fitInliersCV(&rs)
		if !ok {
			t.Fatalf("seed %d: OpenCV found no homography", seed)
		}
		got, ok := rs.fitInliers()
		if !ok {
			t.Fatalf("seed %d: no homography", seed)
		}
		off := 0.0
		for _, c := range [][2]float64{{0, 0}, {128, 0}, {128, 166}, {0, 166}} {
			wx, wy := want.Apply(c[0], c[1])
			gx, gy := got.Apply(c[0], c[1])
			off = max(off, math.Hypot(gx-wx, gy-wy))
		}
		if off <= 1e-4 {
			same++
			worst = max(worst, off)
			continue
		}
		xw, xg := [8]float64(want[:8]), [8]float64(got[:8])
		ew, eg := lmErr(src, dst, rs.Best, &xw), lmErr(src, dst, rs.Best, &xg)
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

// TestRefineLMLowersError: the refinement lowers the reprojection
// error of the linear fit of noisy pairs and leaves an exact fit exact.
func TestRefineLMLowersError(t *testing.T) {
	src, dst := lmPairs(3, 80, 1.5, 0)
	use := make([]bool, len(src))
	for i := range use {
		use[i] = true
	}
	h0, ok := fitLSQ(src, dst, use)
	if !ok {
		t.Fatal("no linear fit")
	}
	h1 := refineLM(src, dst, use, h0)
	x0, x1 := [8]float64(h0[:8]), [8]float64(h1[:8])
	e0, e1 := lmErr(src, dst, use, &x0), lmErr(src, dst, use, &x1)
	if !(e1 < e0) {
		t.Errorf("refined error %.6g, linear fit's %.6g: want lower", e1, e0)
	}
	src, dst = lmPairs(4, 30, 0, 0)
	use = use[:30]
	h0, _ = fitLSQ(src, dst, use)
	h1 = refineLM(src, dst, use, h0)
	x1 = [8]float64(h1[:8])
	if e := lmErr(src, dst, use, &x1); e > 1e-6 {
		t.Errorf("exact pairs refined to squared error %.3g, want ~0", e)
	}
}

// fitInliersCV is the fit fitInliers must give: OpenCV's
// findHomography of all the pairs of rs's best consensus (its least
// squares, refined).
func fitInliersCV(rs *Ransac) (Homography, bool) {
	n := 0
	for _, in := range rs.Best {
		if in {
			n++
		}
	}
	if n < 4 {
		return Homography{}, false
	}
	src := gocv.NewMatWithSize(n, 1, gocv.MatTypeCV32FC2)
	defer src.Close()
	dst := gocv.NewMatWithSize(n, 1, gocv.MatTypeCV32FC2)
	defer dst.Close()
	// The points written through the Mats' data: a call into C per
	// coordinate would cost a good part of the fit.
	sp, err := src.DataPtrFloat32()
	if err != nil {
		return Homography{}, false
	}
	dp, err := dst.DataPtrFloat32()
	if err != nil {
		return Homography{}, false
	}
	j := 0
	for i, in := range rs.Best {
		if in {
			sp[2*j], sp[2*j+1] = rs.src[i].X, rs.src[i].Y
			dp[2*j], dp[2*j+1] = rs.dst[i].X, rs.dst[i].Y
			j++
		}
	}
	mask := gocv.NewMat()
	defer mask.Close()
	// All points: the threshold and RANSAC's bounds are not used.
	h := gocv.FindHomography(src, &dst, gocv.HomograpyMethodAllPoints, 3, &mask, ransacIters, ransacConfidence)
	defer h.Close()
	if h.Empty() || h.Rows() != 3 || h.Cols() != 3 {
		return Homography{}, false
	}
	hd, err := h.DataPtrFloat64()
	if err != nil || len(hd) < 9 {
		return Homography{}, false
	}
	var hm Homography
	copy(hm[:], hd)
	return hm, true
}

// BenchmarkFitInliers is fitInliers on 150 noisy pairs (a card's
// consensus), against OpenCV's findHomography on the same pairs
// (/opencv): the cost the Go fit saves a new frame 2–10 times.
func BenchmarkFitInliers(b *testing.B) {
	var rs Ransac
	src, dst := lmPairs(1, 150, 0.3, 0)
	for _, bm := range []struct {
		name string
		fit  func(*Ransac) (Homography, bool)
	}{{"go", (*Ransac).fitInliers}, {"opencv", fitInliersCV}} {
		b.Run(bm.name, func(b *testing.B) {
			rs.Reset(src, dst)
			for b.Loop() {
				if _, ok := bm.fit(&rs); !ok {
					b.Fatal("no homography")
				}
			}
		})
	}
}

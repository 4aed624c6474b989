package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// ransacPairs returns n pairs of a card's upright keypoints (96×134)
// and where the homography h puts them, a share inl of them within noise
// px of it and the others anywhere in a 400×400 place, and which are
// inliers.
func ransacPairs(h Homography, n int, inl, noise float64, seed uint64) (src, dst []gocv.Point2f, truth []bool) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		x, y := rng.Float64()*96, rng.Float64()*134
		src = append(src, gocv.Point2f{X: float32(x), Y: float32(y)})
		in := rng.Float64() < inl
		truth = append(truth, in)
		if in {
			u, v := h.Apply(x, y)
			dst = append(dst, gocv.Point2f{X: float32(u + noise*(2*rng.Float64()-1)), Y: float32(v + noise*(2*rng.Float64()-1))})
		} else {
			dst = append(dst, gocv.Point2f{X: float32(rng.Float64() * 400), Y: float32(rng.Float64() * 400)})
		}
	}
	return src, dst, truth
}

// ransacTestH is a card 96×134 seen turned and in perspective in a
// place of 400×400 px.
func ransacTestH(t *testing.T) Homography {
	t.Helper()
	h, ok := HomographyOf([4][2]float64{{0, 0}, {96, 0}, {96, 134}, {0, 134}},
		[4][2]float64{{150, 60}, {290, 110}, {250, 330}, {90, 250}})
	if !ok {
		t.Fatal("homography")
	}
	return h
}

// ransacCornerErr is the largest distance between the card's corners
// put by h and by want.
func ransacCornerErr(h, want Homography) float64 {
	worst := 0.0
	for _, c := range [4][2]float64{{0, 0}, {96, 0}, {96, 134}, {0, 134}} {
		x, y := h.Apply(c[0], c[1])
		u, v := want.Apply(c[0], c[1])
		worst = math.Max(worst, math.Hypot(x-u, y-v))
	}
	return worst
}

// TestFitPairsRansac: the keypoint fit finds a card among mostly stray
// pairs (a blob's search without the ratio test): its corners within a
// pixel, about all its pairs counted in; stray pairs alone gather fewer
// than a card's inliers; the same pairs give the same fit.
func TestFitPairsRansac(t *testing.T) {
	want := ransacTestH(t)
	var rs Ransac
	for _, c := range []struct {
		n   int
		inl float64
	}{{60, 0.9}, {120, 0.4}, {230, 0.25}} {
		src, dst, truth := ransacPairs(want, c.n, c.inl, 1, uint64(c.n))
		hm, inl, ok := rs.Fit(src, dst, 3)
		if !ok {
			t.Fatalf("%d pairs, %.0f%% of the card: no fit", c.n, 100*c.inl)
		}
		nTrue := 0
		for _, in := range truth {
			if in {
				nTrue++
			}
		}
		if e := ransacCornerErr(hm, want); e > 1 || inl < nTrue*9/10 || inl > nTrue+3 {
			t.Errorf("%d pairs, %d of the card: %d inliers, corners %.2f px off", c.n, nTrue, inl, e)
		}
		h2, inl2, _ := rs.Fit(src, dst, 3)
		if h2 != hm || inl2 != inl {
			t.Errorf("%d pairs: a second fit differs (%d inliers, then %d)", c.n, inl, inl2)
		}
	}
	src, dst, _ := ransacPairs(want, 40, 0, 1, 7)
	// A card's keypoint fit needs 10 inliers to stand.
	if _, inl, ok := rs.Fit(src, dst, 3); ok && inl >= 10 {
		t.Errorf("stray pairs alone: %d inliers", inl)
	}
}

// TestFitLSQ: the least-squares fit of exact pairs is the homography
// they came from; fewer than four pairs fit nothing.
func TestFitLSQ(t *testing.T) {
	want := ransacTestH(t)
	src, dst, truth := ransacPairs(want, 30, 1, 0, 3)
	h, ok := fitLSQ(src, dst, truth)
	if !ok || ransacCornerErr(h, want) > 0.01 {
		t.Errorf("exact pairs: %v (%v), want %v", h, ok, want)
	}
	if _, ok := fitLSQ(src[:3], dst[:3], truth[:3]); ok {
		t.Error("three pairs fitted")
	}
}

// TestRansacIterations: OpenCV's bound on RANSAC's iterations (none
// more when all pairs are inliers).
func TestRansacIterations(t *testing.T) {
	for _, c := range []struct {
		ep   float64
		max  int
		want int
	}{{0.5, 500, 82}, {0.2, 500, 10}, {0.9, 500, 500}, {0, 500, 0}, {0.5, 50, 50}} {
		if got := ransacIterations(0.995, c.ep, c.max); got != c.want {
			t.Errorf("outliers %.0f%%, at most %d: %d iterations, want %d", 100*c.ep, c.max, got, c.want)
		}
	}
}

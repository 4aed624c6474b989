package vision

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardWarpPerspMatchesOpenCV checks that cardWarpPersp gives the pixels
// of cv::warpPerspective (INTER_LINEAR, BORDER_REPLICATE) byte for byte,
// grey and colour, for outlines inside the picture, across its border and
// far outside it, and for the output sizes the card reader uses.
func TestCardWarpPerspMatchesOpenCV(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	hm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hm.Close()
	want, got := gocv.NewMat(), gocv.NewMat()
	defer want.Close()
	defer got.Close()
	n := 3000
	if testing.Short() {
		n = 300
	}
	for _, sz := range []image.Point{{1280, 720}, {97, 61}, {3, 2}} {
		for _, typ := range []gocv.MatType{gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC1} {
			img := gocv.NewMatWithSize(sz.Y, sz.X, typ)
			gocv.RandU(&img, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 256, 256, 0))
			for i := range n {
				w, h := 1+rng.IntN(140), 1+rng.IntN(140)
				switch i % 4 {
				case 0:
					w, h = 64, 64
				case 1:
					w, h = 128, 128
				}
				// A card-like outline: a centre, a size, a turn, some
				// perspective; sometimes across or beyond the border.
				cx := (rng.Float64()*1.4 - 0.2) * float64(sz.X)
				cy := (rng.Float64()*1.4 - 0.2) * float64(sz.Y)
				s := 0.5 + rng.Float64()*float64(max(sz.X, sz.Y))/3
				if i%7 == 0 {
					// Whole-pixel corners: fractions of 0 (OpenCV's
					// saturated first table entry).
					cx, cy, s = float64(int(cx)), float64(int(cy)), float64(int(s)+1)
				}
				var q [4]Point2f
				for k, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
					jx, jy := 1.0, 1.0
					if i%7 != 0 {
						jx, jy = 1+0.3*(rng.Float64()-0.5), 1+0.3*(rng.Float64()-0.5)
					}
					q[k] = Point2f{float32(cx + c[0]*s*jx), float32(cy + c[1]*s*1.4*jy)}
				}
				if i%3 == 0 {
					q = [4]Point2f{q[1], q[2], q[3], q[0]}
				}
				dst := cardPixelRect(0, 0, float64(w), float64(h))
				if i%5 == 0 {
					dst = cardPixelRect(-0.08*float64(w), -0.08*float64(h), 1.08*float64(w), 1.08*float64(h))
				}
				var src [4][2]float64
				for k, p := range q {
					src[k] = [2]float64{float64(p.X), float64(p.Y)}
				}
				hh, ok := cardHomography(src, dst)
				if !ok {
					continue
				}
				for k := range 9 {
					hm.SetDoubleAt(k/3, k%3, hh[k])
				}
				gocv.WarpPerspectiveWithParams(img, &want, hm, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
				for _, avx := range []bool{true, false} {
					if !cardWarpPersp(img, &got, &hh, image.Pt(w, h), avx) {
						t.Fatalf("cardWarpPersp refused a %v image", typ)
					}
					a, _ := want.DataPtrUint8()
					b, _ := got.DataPtrUint8()
					if bytes.Equal(a, b) {
						continue
					}
					diff := 0
					for j := range a {
						if a[j] != b[j] {
							diff++
						}
					}
					t.Fatalf("image %v type %v, case %d (%d×%d, q %v, AVX %v): %d of %d bytes differ from OpenCV's", sz, typ, i, w, h, q, avx, diff, len(a))
				}
			}
			img.Close()
		}
	}
}

// TestCardDotMatchesLoop checks tc_dot_i8 (vectorised) against the plain
// sum of products, extremes included.
func TestCardDotMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var a, b cardDesc
	for i := range 200 {
		for j := range a.fine {
			a.fine[j], b.fine[j] = int8(rng.IntN(256)-128), int8(rng.IntN(256)-128)
			if i%10 == 0 {
				a.fine[j], b.fine[j] = -128, int8(-128+255*(j%2))
			}
		}
		var want int32
		for j := range a.fine {
			want += int32(a.fine[j]) * int32(b.fine[j])
		}
		if got := cardDot(&a, &b); got != want {
			t.Fatalf("case %d: cardDot %d, want %d", i, got, want)
		}
	}
}

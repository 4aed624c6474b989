package outline

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardEdgesMatchCanny checks that the outline finder's edge map
// (gradients reduced to the strongest channel, one or two passes) is
// cv::Canny's on the same colour image, on a quiet picture and on a busy
// one that takes the second pass, and on a grey one; with the passes in
// either order.
func TestCardEdgesMatchCanny(t *testing.T) {
	quiet := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 120, 60, 0), 180, 320, gocv.MatTypeCV8UC3)
	defer quiet.Close()
	// Colour steps of equal brightness, a bright card, a dark one.
	gocv.Rectangle(&quiet, image.Rect(40, 30, 120, 140), color.RGBA{R: 60, G: 120, B: 90}, -1)
	gocv.Rectangle(&quiet, image.Rect(150, 40, 230, 150), color.RGBA{R: 240, G: 235, B: 230}, -1)
	gocv.Rectangle(&quiet, image.Rect(250, 20, 300, 90), color.RGBA{R: 20, G: 30, B: 160}, -1)
	busy := gocv.NewMatWithSize(180, 320, gocv.MatTypeCV8UC3)
	defer busy.Close()
	gocv.RandU(&busy, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(255, 255, 255, 0))
	gocv.GaussianBlur(busy, &busy, image.Pt(5, 5), 1.5, 1.5, gocv.BorderReplicate)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(quiet, &grey, gocv.ColorBGRToGray)

	f := NewFinder()
	defer f.Close()
	for _, tc := range []struct {
		name string
		img  gocv.Mat
		busy bool
	}{{"quiet", quiet, false}, {"busy", busy, true}, {"grey", grey, false}} {
		want := gocv.NewMat()
		gocv.Canny(tc.img, &want, f.lo, f.hi)
		busy := float64(gocv.CountNonZero(want)) > maxEdgeShare*float64(want.Rows()*want.Cols())
		if busy {
			gocv.Canny(tc.img, &want, 2*f.lo, 2*f.hi)
		}
		if busy != tc.busy {
			t.Errorf("%s: busy %v, want %v (test picture)", tc.name, busy, tc.busy)
		}
		// Either order of the passes (the last picture busy or not).
		for _, first := range []bool{false, true} {
			f.busy = first
			if err := f.edgesOf(tc.img); err != nil {
				want.Close()
				t.Fatalf("%s: %v", tc.name, err)
			}
			if f.busy != busy {
				t.Errorf("%s, busy first %v: finder says busy %v, want %v", tc.name, first, f.busy, busy)
			}
			diff := gocv.NewMat()
			gocv.AbsDiff(f.edges, want, &diff)
			if n := gocv.CountNonZero(diff); n != 0 || gocv.CountNonZero(want) == 0 {
				t.Errorf("%s, busy first %v: %d of %d edge pixels differ from cv::Canny's", tc.name, first, n, gocv.CountNonZero(want))
			}
			diff.Close()
		}
		want.Close()
	}
}

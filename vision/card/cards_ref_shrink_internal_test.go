package card

import (
	"testing"

	"gocv.io/x/gocv"
)

// TestCardRefShrinkSize: the reference and the frame are shrunk by
// cardRefShrink with the sides rounded up, so that a place found in the
// quarter covers the frame's last rows and columns.
func TestCardRefShrinkSize(t *testing.T) {
	for _, c := range []struct{ w, h, wantW, wantH int }{{1280, 720, 320, 180}, {42, 30, 11, 8}, {1, 1, 1, 1}} {
		src := gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC3)
		out := gocv.NewMat()
		cardRefShrinkTo(src, &out)
		if out.Cols() != c.wantW || out.Rows() != c.wantH || out.Type() != gocv.MatTypeCV8UC3 {
			t.Errorf("%d×%d shrunk to %d×%d %v, want %d×%d 8-bit BGR", c.w, c.h, out.Cols(), out.Rows(), out.Type(), c.wantW, c.wantH)
		}
		src.Close()
		out.Close()
	}
}

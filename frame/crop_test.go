package frame

import (
	"context"
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

type oneFrame struct{ m gocv.Mat }

func (o *oneFrame) Read(context.Context) (Frame, error) { return Frame{Mat: o.m.Clone()}, nil }
func (o *oneFrame) Close() error                        { return o.m.Close() }

func TestCropCutsTheTableArea(t *testing.T) {
	m := gocv.NewMatWithSize(120, 160, gocv.MatTypeCV8UC3)
	m.SetTo(gocv.NewScalar(0, 0, 0, 0))
	gocv.Rectangle(&m, image.Rect(40, 30, 100, 90), color.RGBA{0, 0, 255, 0}, -1)
	src := Crop(&oneFrame{m: m}, image.Rect(40, 30, 100, 90))
	defer src.Close()
	f, err := src.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Mat.Cols() != 60 || f.Mat.Rows() != 60 {
		t.Fatalf("cropped to %dx%d, want 60x60", f.Mat.Cols(), f.Mat.Rows())
	}
	// gocv draws color.RGBA{0, 0, 255} as blue: BGR 255, 0, 0.
	if px := f.Mat.GetVecbAt(0, 0); px[0] != 255 || px[2] != 0 {
		t.Errorf("corner pixel %v, want the blue table area", px)
	}
	out := Crop(&oneFrame{m: gocv.NewMatWithSize(20, 20, gocv.MatTypeCV8UC3)}, image.Rect(40, 40, 100, 100))
	defer out.Close()
	if _, err := out.Read(context.Background()); err == nil {
		t.Error("a crop outside the frame was not refused")
	}
	for _, bad := range []string{"1,2,3", "a,b,c,d", "0,0,10,10", "-1,0,100,100"} {
		if _, err := ParseCrop(bad); err == nil {
			t.Errorf("ParseCrop(%q) accepted", bad)
		}
	}
	if r, err := ParseCrop(" 100, 50,1180,700"); err != nil || r != image.Rect(100, 50, 1180, 700) {
		t.Errorf("ParseCrop: %v %v", r, err)
	}
}

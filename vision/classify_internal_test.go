package vision

import (
	"image"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// fillRect paints the axis-aligned rectangle r of a w-wide BGR image.
func fillRect(pix []byte, w int, r image.Rectangle, c [3]byte) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			copy(pix[3*(y*w+x):], c[:])
		}
	}
}

// TestCutsFace checks the second look's check on what it left out: a fit
// that moves a side into the face's own body (a part of the face cut off)
// is caught; one that cuts off a darker side of the die, or moves no side
// in far, is not.
func TestCutsFace(t *testing.T) {
	const w, h = 200, 200
	pix := make([]byte, 3*w*h)
	fillRect(pix, w, image.Rect(0, 0, w, h), [3]byte{40, 50, 40})        // table
	fillRect(pix, w, image.Rect(70, 70, 130, 130), [3]byte{60, 150, 70}) // top face, 60 px
	fillRect(pix, w, image.Rect(130, 70, 150, 130), [3]byte{30, 80, 35}) // a darker side beside it
	im := dieImage{w: w, h: h, pix: pix}
	body := [3]byte{60, 150, 70}
	face := dieRect{C: diePt{100, 100}, U: diePt{1, 0}, HU: 30, HV: 30}
	withSide := dieRect{C: diePt{110, 100}, U: diePt{1, 0}, HU: 40, HV: 30}
	part := dieRect{C: diePt{90, 100}, U: diePt{1, 0}, HU: 20, HV: 30}
	nudged := dieRect{C: diePt{99, 100}, U: diePt{1, 0}, HU: 29, HV: 30}
	for _, c := range []struct {
		name     string
		from, to dieRect
		want     bool
	}{
		{"side cut off", withSide, face, false},
		{"part of the face cut off", face, part, true},
		{"side nudged", face, nudged, false},
	} {
		if got := cutsFace(im, c.from, c.to, body); got != c.want {
			t.Errorf("%s: cutsFace = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSquareEnough checks the top face's aspect limit.
func TestSquareEnough(t *testing.T) {
	for _, c := range []struct {
		hu, hv float64
		want   bool
	}{{20, 20, true}, {20, 26, true}, {26, 20, true}, {20, 28, false}, {30, 20, false}} {
		if got := (dieRect{HU: c.hu, HV: c.hv}).squareEnough(); got != c.want {
			t.Errorf("%v×%v: squareEnough = %v, want %v", c.hu, c.hv, got, c.want)
		}
	}
}

// TestDiffMaskNoisyFaintDie checks the difference to the reference in
// sensor noise: a die that differs from the table by less than the noise
// threshold of single pixels (σ 5 in frame and reference: 35 levels; a dim
// green die on green felt) still comes out whole (averaged over 3×3
// pixels: 17), and the table stays clear.
func TestDiffMaskNoisyFaintDie(t *testing.T) {
	const w, h = 160, 120
	rng := rand.New(rand.NewPCG(3, 4))
	noisy := func(die bool) gocv.Mat {
		m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		pix, err := m.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for y := range h {
			for x := range w {
				base := [3]float64{30, 55, 35}
				if die && x >= 60 && x < 90 && y >= 40 && y < 70 {
					base = [3]float64{40, 80, 45} // 25 levels brighter in green
				}
				for c := range 3 {
					pix[3*(y*w+x)+c] = byte(min(255, max(0, base[c]+5*rng.NormFloat64())))
				}
			}
		}
		return m
	}
	frame, ref := noisy(true), noisy(false)
	defer frame.Close()
	defer ref.Close()
	fi, err := viewBGR(frame)
	if err != nil {
		t.Fatal(err)
	}
	ri, err := viewBGR(ref)
	if err != nil {
		t.Fatal(err)
	}
	s := newSegScratch()
	defer s.close()
	if err := s.diffMask(frame, ref, fi, ri); err != nil {
		t.Fatal(err)
	}
	if !s.noisy {
		t.Fatal("noise σ 5 not taken for noisy")
	}
	in, out := 0, 0
	for y := range h {
		for x := range w {
			if s.mask[y*w+x]&fgChanged == 0 {
				continue
			}
			if x >= 58 && x < 92 && y >= 38 && y < 72 {
				in++
			} else {
				out++
			}
		}
	}
	if in < 30*30*8/10 {
		t.Errorf("%d of the die's %d pixels changed, want ≥ 80%%", in, 30*30)
	}
	if out > w*h/100 {
		t.Errorf("%d table pixels changed, want ≤ 1%%", out)
	}
}

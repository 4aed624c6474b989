package vision

import (
	"fmt"
	"image"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardRefShrinkAsOpenCV: tc_shrink4 writes the very pixels of OpenCV's
// linear resize to a quarter, on noise (every rounding) and on a gradient,
// in colour and grey, at 720p and at a small size; an image whose sides are
// not multiples of 4 is left to OpenCV.
func TestCardRefShrinkAsOpenCV(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for _, c := range []struct {
		w, h int
		t    gocv.MatType
	}{{1280, 720, gocv.MatTypeCV8UC3}, {1280, 720, gocv.MatTypeCV8UC1}, {64, 48, gocv.MatTypeCV8UC3}, {8, 4, gocv.MatTypeCV8UC1}} {
		for _, noise := range []bool{true, false} {
			src := gocv.NewMatWithSize(c.h, c.w, c.t)
			px, err := src.DataPtrUint8()
			if err != nil {
				t.Fatal(err)
			}
			for i := range px {
				if noise {
					px[i] = uint8(rng.IntN(256))
				} else {
					px[i] = uint8((i / 3) % 251)
				}
			}
			want, got := gocv.NewMat(), gocv.NewMat()
			gocv.Resize(src, &want, image.Pt(c.w/4, c.h/4), 0, 0, gocv.InterpolationLinear)
			if !cardShrink4(src, &got) {
				t.Fatalf("%d×%d: not shrunk by tc_shrink4", c.w, c.h)
			}
			wp, _ := want.DataPtrUint8()
			gp, _ := got.DataPtrUint8()
			if got.Rows() != want.Rows() || got.Cols() != want.Cols() || got.Type() != want.Type() || len(gp) != len(wp) {
				t.Fatalf("%d×%d: %d×%d %v, OpenCV's %d×%d %v", c.w, c.h, got.Cols(), got.Rows(), got.Type(), want.Cols(), want.Rows(), want.Type())
			}
			diff := 0
			for i := range wp {
				if gp[i] != wp[i] {
					diff++
				}
			}
			if diff > 0 {
				t.Errorf("%d×%d %v noise %v: %d of %d values differ from OpenCV's", c.w, c.h, c.t, noise, diff, len(wp))
			}
			src.Close()
			want.Close()
			got.Close()
		}
	}
	odd := gocv.NewMatWithSize(30, 42, gocv.MatTypeCV8UC3)
	defer odd.Close()
	out := gocv.NewMat()
	defer out.Close()
	if cardShrink4(odd, &out) {
		t.Error("a 42×30 image shrunk by tc_shrink4, want OpenCV's resize")
	}
	cardRefShrinkTo(odd, &out)
	if out.Cols() != 11 || out.Rows() != 8 {
		t.Errorf("42×30 shrunk to %d×%d, want 11×8", out.Cols(), out.Rows())
	}
}

// BenchmarkCardRefShrink shrinks 720p colour frames of noise (a cycle of
// 12: not in the cache) to a quarter as the reference does each frame
// (cardRefShrinkTo), on one thread.
func BenchmarkCardRefShrink(b *testing.B) {
	frames := cardNoiseFrames(b)
	out := gocv.NewMat()
	defer out.Close()
	i := 0
	for b.Loop() {
		cardRefShrinkTo(frames[i%len(frames)], &out)
		i++
	}
}

// TestCardGreyAsOpenCV: cardGreyTo (tc_grey) gives each of the 2^24
// colours the grey of OpenCV's cvtColor, in rows of 4096 pixels and of
// widths that leave 1 to 31 pixels after the last 32; a view into a larger
// picture (not continuous) is converted by OpenCV.
func TestCardGreyAsOpenCV(t *testing.T) {
	all := gocv.NewMatWithSize(4096, 4096, gocv.MatTypeCV8UC3)
	defer all.Close()
	px, err := all.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1 << 24 {
		px[3*i], px[3*i+1], px[3*i+2] = byte(i), byte(i>>8), byte(i>>16)
	}
	same := func(name string, src gocv.Mat) {
		t.Helper()
		want, got := gocv.NewMat(), gocv.NewMat()
		defer want.Close()
		defer got.Close()
		gocv.CvtColor(src, &want, gocv.ColorBGRToGray)
		cardGreyTo(src, &got)
		wp, _ := want.DataPtrUint8()
		gp, _ := got.DataPtrUint8()
		if got.Rows() != want.Rows() || got.Cols() != want.Cols() || got.Type() != want.Type() || len(gp) != len(wp) {
			t.Fatalf("%s: %d×%d %v, OpenCV's %d×%d %v", name, got.Cols(), got.Rows(), got.Type(), want.Cols(), want.Rows(), want.Type())
		}
		for i := range wp {
			if gp[i] != wp[i] {
				t.Fatalf("%s: pixel %d grey %d, OpenCV's %d", name, i, gp[i], wp[i])
			}
		}
	}
	same("every colour", all)
	rng := rand.New(rand.NewPCG(3, 33))
	for _, w := range []int{1, 7, 31, 33, 63, 1280 + 13} {
		m := gocv.NewMatWithSize(5, w, gocv.MatTypeCV8UC3)
		p, err := m.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for i := range p {
			p[i] = byte(rng.IntN(256))
		}
		same(fmt.Sprintf("width %d", w), m)
		m.Close()
	}
	view := all.Region(image.Rect(3, 5, 100, 40))
	defer view.Close()
	same("a view", view)
}

// BenchmarkCardGrey converts 720p colour frames of noise (a cycle of 12:
// not in the cache) to grey as ReadCards does (cardGreyTo), and by
// OpenCV's cvtColor, on one thread.
func BenchmarkCardGrey(b *testing.B) {
	frames := cardNoiseFrames(b)
	out := gocv.NewMat()
	defer out.Close()
	for _, c := range []struct {
		name string
		f    func(src gocv.Mat, dst *gocv.Mat)
	}{{"tc_grey", cardGreyTo}, {"opencv", func(src gocv.Mat, dst *gocv.Mat) { gocv.CvtColor(src, dst, gocv.ColorBGRToGray) }}} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				c.f(frames[i%len(frames)], &out)
				i++
			}
		})
	}
}

// cardNoiseFrames returns 12 720p colour frames of noise (too many for the
// cache), closed when b ends, and runs OpenCV on one thread until then.
func cardNoiseFrames(b *testing.B) []gocv.Mat {
	before := OpenCVThreads()
	SetOpenCVThreads(1)
	b.Cleanup(func() { SetOpenCVThreads(before) })
	rng := rand.New(rand.NewPCG(1, 2))
	frames := make([]gocv.Mat, 12)
	for i := range frames {
		frames[i] = gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
		b.Cleanup(func() { frames[i].Close() })
		px, err := frames[i].DataPtrUint8()
		if err != nil {
			b.Fatal(err)
		}
		for j := range px {
			px[j] = uint8(rng.IntN(256))
		}
	}
	return frames
}

// TestCardGreyShrinkTo: the one pass over a frame gives cardGreyTo's grey
// and cardRefShrinkTo's quarter to the byte, on noise at 720p and at a
// small size; a frame whose sides are not multiples of 4, or a view of a
// larger one, is left to them (false, nothing written).
func TestCardGreyShrinkTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 4))
	for _, sz := range []image.Point{{1280, 720}, {64, 48}, {8, 4}} {
		src := gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8UC3)
		px, err := src.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for i := range px {
			px[i] = uint8(rng.IntN(256))
		}
		grey, small, wantG, wantS := gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
		if !cardGreyShrinkTo(src, &grey, &small) {
			t.Fatalf("%v: not converted in one pass", sz)
		}
		cardGreyTo(src, &wantG)
		cardRefShrinkTo(src, &wantS)
		for _, c := range []struct {
			name      string
			got, want gocv.Mat
		}{{"grey", grey, wantG}, {"quarter", small, wantS}} {
			g, _ := c.got.DataPtrUint8()
			w, _ := c.want.DataPtrUint8()
			if c.got.Rows() != c.want.Rows() || c.got.Cols() != c.want.Cols() || c.got.Type() != c.want.Type() || len(g) != len(w) {
				t.Fatalf("%v %s: %d×%d %v, want %d×%d %v", sz, c.name, c.got.Cols(), c.got.Rows(), c.got.Type(), c.want.Cols(), c.want.Rows(), c.want.Type())
			}
			for i := range w {
				if g[i] != w[i] {
					t.Fatalf("%v %s: byte %d is %d, want %d", sz, c.name, i, g[i], w[i])
				}
			}
		}
		for _, m := range []gocv.Mat{src, grey, small, wantG, wantS} {
			m.Close()
		}
	}
	odd := gocv.NewMatWithSize(30, 42, gocv.MatTypeCV8UC3)
	defer odd.Close()
	big := gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC3)
	defer big.Close()
	view := big.Region(image.Rect(0, 4, 32, 36))
	defer view.Close()
	for _, m := range []gocv.Mat{odd, view} {
		grey, small := gocv.NewMat(), gocv.NewMat()
		if cardGreyShrinkTo(m, &grey, &small) || !grey.Empty() || !small.Empty() {
			t.Errorf("a %d×%d frame (continuous %v) converted in one pass", m.Cols(), m.Rows(), m.IsContinuous())
		}
		grey.Close()
		small.Close()
	}
}

// BenchmarkCardGreyShrink: a 720p colour frame (a cycle of 12: not in the
// cache) to grey and to a quarter in one pass (cardGreyShrinkTo), and in
// two (cardGreyTo, then cardRefShrinkTo), on one thread.
func BenchmarkCardGreyShrink(b *testing.B) {
	frames := cardNoiseFrames(b)
	grey, small := gocv.NewMat(), gocv.NewMat()
	defer grey.Close()
	defer small.Close()
	for _, c := range []struct {
		name string
		f    func(src gocv.Mat)
	}{{"one", func(src gocv.Mat) { cardGreyShrinkTo(src, &grey, &small) }},
		{"two", func(src gocv.Mat) { cardGreyTo(src, &grey); cardRefShrinkTo(src, &small) }}} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				c.f(frames[i%len(frames)])
				i++
			}
		})
	}
}

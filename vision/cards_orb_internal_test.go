package vision

import (
	"image"
	"image/color"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardOrbAsOpenCV: cardOrb gives OpenCV's ORB keypoints and
// descriptors to the byte (gocv's DetectAndCompute with the same
// parameters): one level and four, the card keyers' patch of 15 and an edge of 15 or 8, with and without a
// mask, on pictures of card shapes and of busy art of many sizes (some
// narrower than the vector loops), on regions of a larger Mat (OpenCV's
// own there) and on a picture with no keypoint.
func TestCardOrbAsOpenCV(t *testing.T) {
	blocks, busy := cardKeyPicturesForTest(t)
	rng := rand.New(rand.NewSource(28))
	type cfg struct{ features, levels, edge int }
	compared, owned := 0, 0
	for _, c := range []cfg{{249, 1, 15}, {700, 4, 15}, {300, 4, 15}, {150, 1, 8}, {191, 1, 15}} {
		mine := newCardOrb(c.features, cardKeyScale, c.levels, c.edge, 15, 12, true)
		ref := gocv.NewORBWithParams(c.features, cardKeyScale, c.levels, c.edge, 0, 2, gocv.ORBScoreTypeHarris, 15, 12)
		if err := mine.open(); err != nil {
			t.Fatal(err)
		}
		if !mine.owns {
			t.Fatal("the card ORB leaves its descriptors to OpenCV")
		}
		for i := range 30 {
			src := blocks
			if i%2 == 1 {
				src = busy
			}
			sz := image.Pt(40+rng.Intn(260), 40+rng.Intn(260))
			if i%6 == 4 { // narrow: the scalar loops
				sz.X = 8 + rng.Intn(34)
			}
			at := image.Pt(rng.Intn(1280-sz.X), rng.Intn(720-sz.Y))
			reg := src.Region(image.Rectangle{Min: at, Max: at.Add(sz)})
			pic := reg.Clone()
			mask := gocv.NewMat()
			if i%5 == 2 { // a mask: a disc
				mask = gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8U)
				gocv.Circle(&mask, image.Pt(sz.X/2, sz.Y/2), min(sz.X, sz.Y)/2, color.RGBA{255, 255, 255, 0}, -1)
			}
			in := pic
			if i%7 == 3 {
				in = reg // a region: OpenCV's descriptors
			}
			if i == 29 { // flat: no keypoint
				in.SetTo(gocv.NewScalar(90, 0, 0, 0))
			}
			rk, rd := ref.DetectAndCompute(in, mask)
			mk, md, err := mine.detectAndCompute(in, mask)
			if err != nil {
				t.Fatal(err)
			}
			if len(mk) != len(rk) {
				t.Fatalf("%+v picture %d (%v): %d keypoints, OpenCV's ORB %d", c, i, sz, len(mk), len(rk))
			}
			for j := range rk {
				if mk[j] != rk[j] {
					t.Fatalf("%+v picture %d keypoint %d: %+v, OpenCV's %+v", c, i, j, mk[j], rk[j])
				}
				for b := range 32 {
					if md[32*j+b] != rd.GetUCharAt(j, b) {
						t.Fatalf("%+v picture %d (%v) keypoint %d (%+v): descriptor byte %d %08b, OpenCV's %08b", c, i, sz, j, rk[j], b, md[32*j+b], rd.GetUCharAt(j, b))
					}
				}
			}
			compared += len(rk)
			if in.Ptr() == pic.Ptr() {
				owned += len(rk)
			}
			rd.Close()
			mask.Close()
			pic.Close()
			reg.Close()
		}
		mine.close()
		ref.Close()
	}
	if owned < 10000 {
		t.Fatalf("only %d keypoints compared with tablecam's descriptors", owned)
	}
	t.Logf("%d keypoints the same, %d of them with tablecam's descriptors", compared, owned)
}

// BenchmarkCardOrb: a card's first look (a 128×166 picture of the card
// rectified, one level of ORB, at most 249 keypoints; look) and a
// keypoint search's (a 300×300 place, four levels, at most 700; place) by
// OpenCV's ORB and by tablecam's.
func BenchmarkCardOrb(b *testing.B) {
	SetOpenCVThreads(1)
	blocks, busy := cardKeyPicturesForTest(b)
	for _, c := range []struct {
		name             string
		sz               image.Point
		features, levels int
		own              bool
	}{
		{"look/opencv", image.Pt(cardKeyW+2*cardVerifyMargin, cardKeyH+2*cardVerifyMargin), cardOrbShares(cardKeyPlace, cardKeyScale, cardKeyLevels)[0], 1, false},
		{"look/tablecam", image.Pt(cardKeyW+2*cardVerifyMargin, cardKeyH+2*cardVerifyMargin), cardOrbShares(cardKeyPlace, cardKeyScale, cardKeyLevels)[0], 1, true},
		{"place/opencv", image.Pt(300, 300), cardKeyPlace, cardKeyLevels, false},
		{"place/tablecam", image.Pt(300, 300), cardKeyPlace, cardKeyLevels, true},
	} {
		sz := c.sz
		b.Run(c.name, func(b *testing.B) {
			o := newCardOrb(c.features, cardKeyScale, c.levels, 15, 15, 12, c.own)
			defer o.close()
			var pics []gocv.Mat
			for i := range 8 {
				src := blocks
				if i%2 == 1 {
					src = busy
				}
				at := image.Pt(37+131*i, 21+41*i)
				reg := src.Region(image.Rectangle{Min: at, Max: at.Add(sz)})
				pics = append(pics, reg.Clone())
				reg.Close()
			}
			defer func() {
				for _, p := range pics {
					p.Close()
				}
			}()
			noMask := gocv.NewMat()
			defer noMask.Close()
			i := 0
			for b.Loop() {
				if _, _, err := o.detectAndCompute(pics[i%len(pics)], noMask); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// A card ORB is made when it is first used and answers with an error,
// not a panic, once it is closed.
func TestCardOrbClosedIsAnError(t *testing.T) {
	o := newCardOrb(100, cardKeyScale, 1, 15, 15, 12, true)
	img := gocv.NewMatWithSize(64, 64, gocv.MatTypeCV8U)
	defer img.Close()
	noMask := gocv.NewMat()
	defer noMask.Close()
	if _, _, err := o.detectAndCompute(img, noMask); err != nil {
		t.Fatalf("a new ORB: %v", err)
	}
	o.close()
	if _, _, err := o.detectAndCompute(img, noMask); err == nil {
		t.Fatal("a closed ORB computed keypoints")
	}
	o.close() // twice is harmless
}

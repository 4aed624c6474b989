package vision

import (
	"image"
	"math/rand"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardFirstLevelKeyer: the first-level keyer (confirmAt's first look)
// takes exactly the keypoints, in the same order and with the same
// descriptors, that the full keyer takes in its first pyramid level, on
// pictures the size of a card rectified for a confirmation; the full
// keyer takes more in its other levels.
func TestCardFirstLevelKeyer(t *testing.T) {
	if got := cardOrbLevelShare(700, 1.3, 4); got != 249 {
		t.Fatalf("first level's share of 700 keypoints in 4 levels 1.3 apart: %d, OpenCV allots 249", got)
	}
	// Blocks of 12 px (a card's shapes) and of 3 px (busy art: more
	// corners in the first level than its share, which then decides).
	img := cardBlocksForTest(t, 11) // closed at the test's end
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(img, &grey, gocv.ColorBGRToGray)
	busy := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8U)
	defer busy.Close()
	px, err := busy.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(12))
	for y := 0; y < 720; y += 3 {
		for x := 0; x < 1280; x += 3 {
			v := uint8(rng.Intn(256))
			for dy := range 3 {
				for dx := range min(3, 1280-x) {
					px[(y+dy)*1280+x+dx] = v
				}
			}
		}
	}
	gocv.GaussianBlur(busy, &busy, image.Pt(0, 0), 0.8, 0.8, gocv.BorderReplicate)
	full, first := newCardKeyer(), newCardFirstLevelKeyer()
	defer full.close()
	defer first.close()
	sz := image.Pt(cardKeyW+2*cardVerifyMargin, cardKeyH+2*cardVerifyMargin)
	compared, above, full0 := 0, 0, 0
	for i := range 24 {
		src := grey
		if i >= 12 {
			src = busy
		}
		at := image.Pt(40+97*(i%12), 30+41*(i%12))
		reg := src.Region(image.Rectangle{Min: at, Max: at.Add(sz)})
		pic := reg.Clone()
		reg.Close()
		fk, fd := full.orb.DetectAndCompute(pic, full.noMask)
		ok, od := first.orb.DetectAndCompute(pic, first.noMask)
		var level0 []gocv.KeyPoint
		for _, kp := range fk {
			if kp.Octave == 0 {
				level0 = append(level0, kp)
			}
		}
		if len(ok) == 0 || len(ok) != len(level0) {
			t.Fatalf("picture %d: first-level keyer took %d keypoints, the full keyer %d in its first level", i, len(ok), len(level0))
		}
		for j := range ok {
			if ok[j] != fk[j] {
				t.Fatalf("picture %d keypoint %d: %+v, full keyer's %+v", i, j, ok[j], fk[j])
			}
			for c := range 32 {
				if od.GetUCharAt(j, c) != fd.GetUCharAt(j, c) {
					t.Fatalf("picture %d keypoint %d: descriptor byte %d differs", i, j, c)
				}
			}
		}
		if len(ok) == cardOrbLevelShare(cardKeyPlace, cardKeyScale, cardKeyLevels) {
			full0++
		}
		compared += len(ok)
		above += len(fk) - len(ok)
		pic.Close()
		fd.Close()
		od.Close()
	}
	if above == 0 || full0 == 0 {
		t.Fatalf("the full keyer took %d keypoints beyond its first level, its full share there in %d pictures: the test shows nothing", above, full0)
	}
	t.Logf("%d first-level keypoints the same (the level's full share in %d pictures); the full keyer took %d more in its other levels", compared, full0, above)
}

package index

import (
	"image"
	"math/rand"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/geom"
)

// TestCardFirstLevelKeyer: the first-level keyer (confirmAt's first look)
// takes exactly the keypoints, in the same order and with the same
// descriptors, that the full keyer takes in its first pyramid level, on
// pictures the size of a card rectified for a confirmation; the full
// keyer takes more in its other levels.
func TestCardFirstLevelKeyer(t *testing.T) {
	if got := orbShares(700, 1.3, 4); !slices.Equal(got, []int{249, 191, 147, 113}) {
		t.Fatalf("shares of 700 keypoints in 4 levels 1.3 apart: %v, OpenCV allots [249 191 147 113]", got)
	}
	// Blocks of 12 px (a card's shapes) and of 3 px (busy art: more
	// corners in the first level than its share, which then decides).
	grey, busy := keyPicturesForTest(t)
	full, first := NewKeyer(), NewFirstLevelKeyer()
	defer full.Close()
	defer first.Close()
	sz := image.Pt(KeyW+2*verifyMargin, cardKeyH+2*verifyMargin)
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
		fk, fd, err := full.orb.detectAndCompute(pic, full.noMask)
		if err != nil {
			t.Fatal(err)
		}
		ok, od, err := first.orb.detectAndCompute(pic, first.noMask)
		if err != nil {
			t.Fatal(err)
		}
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
				if od[32*j+c] != fd[32*j+c] {
					t.Fatalf("picture %d keypoint %d: descriptor byte %d differs", i, j, c)
				}
			}
		}
		if len(ok) == orbShares(keyPlace, keyScale, keyLevels)[0] {
			full0++
		}
		compared += len(ok)
		above += len(fk) - len(ok)
		pic.Close()
	}
	if above == 0 || full0 == 0 {
		t.Fatalf("the full keyer took %d keypoints beyond its first level, its full share there in %d pictures: the test shows nothing", above, full0)
	}
	t.Logf("%d first-level keypoints the same (the level's full share in %d pictures); the full keyer took %d more in its other levels", compared, full0, above)
}

// keyPicturesForTest are two 720p grey pictures to take keypoints in
// (closed at the test's end): blocks of 12 px (a card's shapes) and of 3
// px, blurred a little (busy art: more corners in a level than its share,
// which then decides).
func keyPicturesForTest(t testing.TB) (blocks, busy gocv.Mat) {
	img := keyBlocksForTest(t, 11) // closed at the test's end
	blocks = gocv.NewMat()
	t.Cleanup(func() { blocks.Close() })
	gocv.CvtColor(img, &blocks, gocv.ColorBGRToGray)
	busy = gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8U)
	t.Cleanup(func() { busy.Close() })
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
	return blocks, busy
}

// TestCardUpperKeyer: the first-level keyer's keypoints followed by the
// upper keyer's are exactly the full keyer's, in the same order, at the
// same float positions and with the same descriptors, on 200 pictures of
// about the size of a card rectified for a confirmation (upright, lying,
// and up to 6 px off in each side); the full keyer then verifies the same
// after the first look as on its own (verifyAfter).
func TestCardUpperKeyer(t *testing.T) {
	blocks, busy := keyPicturesForTest(t)
	full, first, upper := NewKeyer(), NewFirstLevelKeyer(), NewKeyer()
	defer full.Close()
	defer first.Close()
	defer upper.Close()
	upper.Upper = NewUpperKeyer()
	compared, above := 0, 0
	for i := range 200 {
		src := blocks
		if i%2 == 1 {
			src = busy
		}
		w, h := KeyW+2*verifyMargin+i%7-3, cardKeyH+2*verifyMargin+(i/7)%7-3
		if i%5 == 4 {
			w, h = h, w // a card taught lying
		}
		at := image.Pt(40+(97*i)%1000, 30+(41*i)%500)
		reg := src.Region(image.Rectangle{Min: at, Max: at.Add(image.Pt(w, h))})
		pic := reg.Clone()
		reg.Close()
		if err := full.detect(pic, keyPlace); err != nil {
			t.Fatal(err)
		}
		if err := first.detect(pic, keyPlace); err != nil {
			t.Fatal(err)
		}
		n0 := len(first.QPts)
		upper.QPts, upper.QDesc = append(upper.QPts[:0], first.QPts...), append(upper.QDesc[:0], first.QDesc...)
		if err := upper.Upper.detectAppend(upper, pic, keyPlace); err != nil {
			t.Fatal(err)
		}
		pic.Close()
		if len(upper.QPts) != len(full.QPts) || n0 == 0 || len(upper.QPts) == n0 {
			t.Fatalf("picture %d (%d×%d): %d keypoints in the first level, %d in all; the full keyer took %d", i, w, h, n0, len(upper.QPts), len(full.QPts))
		}
		for j := range full.QPts {
			if upper.QPts[j] != full.QPts[j] || upper.QDesc[j] != full.QDesc[j] {
				t.Fatalf("picture %d (%d×%d) keypoint %d: %v %x, full keyer's %v %x", i, w, h, j, upper.QPts[j], upper.QDesc[j], full.QPts[j], full.QDesc[j])
			}
		}
		compared += len(full.QPts)
		above += len(full.QPts) - n0
	}
	t.Logf("%d keypoints the same, %d of them above the first level", compared, above)

	// verifyAfter: the card the first keyer rectified is not rectified
	// again, and the verification is the same as without it.
	q := [4]geom.Point{{X: 300, Y: 200}, {X: 420, Y: 210}, {X: 410, Y: 380}, {X: 290, Y: 370}}
	keys := []*Keys{{W: KeyW, H: cardKeyH}}
	m := float64(verifyMargin)
	out := image.Pt(KeyW+2*verifyMargin, cardKeyH+2*verifyMargin)
	if !WarpQuad(busy, &full.warp, full.hm, q, PixelRect(m, m, m+KeyW, m+cardKeyH), out) {
		t.Fatal("setup: warp")
	}
	if err := full.detect(full.warp, keyPlace); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < len(full.QPts); j += 3 { // a third of them taught, off the margin
		p := full.QPts[j]
		keys[0].Pts = append(keys[0].Pts, geom.Point{X: p.X - verifyMargin, Y: p.Y - verifyMargin})
		keys[0].Desc = append(keys[0].Desc, full.QDesc[j])
	}
	if _, err := first.VerifyUntil(busy, q, keys, nil, nil, Enough{}); err != nil {
		t.Fatal(err)
	}
	if !first.warped || first.warpedAt != q || first.warpedSize != out {
		t.Fatalf("first look: warped %v at %v size %v, want %v size %v", first.warped, first.warpedAt, first.warpedSize, q, out)
	}
	alone, err := full.VerifyUntil(busy, q, keys, nil, nil, Enough{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := upper.VerifyAfter(first, busy, q, keys, nil, nil, Enough{})
	if err != nil {
		t.Fatal(err)
	}
	if upper.warped {
		t.Error("the full look after the first rectified the card again")
	}
	if after != alone || alone.Found < len(keys[0].Pts)/2 {
		t.Errorf("verified after the first look: %+v; alone: %+v (of %d taught)", after, alone, len(keys[0].Pts))
	}
}

// BenchmarkCardFullLook times a confirmation's full look at a card's
// keypoints on busy art (a card rectified for it, one thread): "orb" takes
// them all with the full keyer's ORB, "after-first" takes those above the
// first level with the upper keyer, the first level's being the first
// look's (verifyAfter).
func BenchmarkCardFullLook(b *testing.B) {
	before := vision.OpenCVThreads()
	vision.SetOpenCVThreads(1)
	defer vision.SetOpenCVThreads(before)
	_, busy := keyPicturesForTest(b)
	reg := busy.Region(image.Rect(100, 100, 100+KeyW+2*verifyMargin, 100+cardKeyH+2*verifyMargin))
	pic := reg.Clone()
	reg.Close()
	defer pic.Close()
	full, upper := NewKeyer(), NewKeyer()
	defer full.Close()
	defer upper.Close()
	upper.Upper = NewUpperKeyer()
	b.Run("orb", func(b *testing.B) {
		for b.Loop() {
			if err := full.detect(pic, keyPlace); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("after-first", func(b *testing.B) {
		for b.Loop() {
			upper.QPts, upper.QDesc = upper.QPts[:0], upper.QDesc[:0]
			if err := upper.Upper.detectAppend(upper, pic, keyPlace); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// keyBlocksForTest returns a 1280×720 BGR frame of 12 px blocks in
// random colours (rand seed), slightly blurred: shapes a card's picture
// has. The test closes it.
func keyBlocksForTest(t testing.TB, seed int64) gocv.Mat {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	img, px := keyFrameForTest(t)
	for by := 0; by < 720; by += 12 {
		for bx := 0; bx < 1280; bx += 12 {
			c := [3]uint8{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256))}
			for y := by; y < by+12; y++ {
				for x := bx; x < min(bx+12, 1280); x++ {
					copy(px[3*(y*1280+x):], c[:])
				}
			}
		}
	}
	gocv.GaussianBlur(img, &img, image.Pt(0, 0), 1.5, 1.5, gocv.BorderReplicate)
	return img
}

// keyFrameForTest returns a 1280×720 BGR frame and its pixels; the test
// closes it.
func keyFrameForTest(t testing.TB) (gocv.Mat, []byte) {
	t.Helper()
	img := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	t.Cleanup(func() { img.Close() })
	px, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	return img, px
}

package index

import (
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
)

// BenchmarkCardOrb: a card's first look (a 128×166 picture of the card
// rectified, one level of ORB, at most 249 keypoints; look) and a
// keypoint search's (a 300×300 place, four levels, at most 700; place).
func BenchmarkCardOrb(b *testing.B) {
	vision.SetOpenCVThreads(1)
	blocks, busy := keyPicturesForTest(b)
	for _, c := range []struct {
		name             string
		sz               image.Point
		features, levels int
	}{
		{"look", image.Pt(KeyW+2*verifyMargin, cardKeyH+2*verifyMargin), orbShares(keyPlace, keyScale, keyLevels)[0], 1},
		{"place", image.Pt(300, 300), keyPlace, keyLevels},
	} {
		sz := c.sz
		b.Run(c.name, func(b *testing.B) {
			o := newOrb(c.features, keyScale, c.levels, 15, 15, 12)
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
	o := newOrb(100, keyScale, 1, 15, 15, 12)
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

// An image that is not 8-bit grey, or a mask of another size, is an
// error, not an OpenCV exception.
func TestCardOrbWrongImageIsAnError(t *testing.T) {
	o := newOrb(100, keyScale, 1, 15, 15, 12)
	defer o.close()
	colour := gocv.NewMatWithSize(64, 64, gocv.MatTypeCV8UC3)
	defer colour.Close()
	grey := gocv.NewMatWithSize(64, 64, gocv.MatTypeCV8U)
	defer grey.Close()
	small := gocv.NewMatWithSize(32, 32, gocv.MatTypeCV8U)
	defer small.Close()
	noMask := gocv.NewMat()
	defer noMask.Close()
	if _, _, err := o.detectAndCompute(colour, noMask); err == nil {
		t.Error("a colour image gave keypoints")
	}
	if _, _, err := o.detectAndCompute(grey, small); err == nil {
		t.Error("a mask of another size gave keypoints")
	}
	if _, _, err := o.detectAndCompute(grey, noMask); err != nil {
		t.Errorf("a grey image: %v", err)
	}
}

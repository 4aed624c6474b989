package marker

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// darkTestImage draws a binary picture for the contour search: specks
// of noise (most of a textured table's contours), quadrilaterals and
// squares with holes (markers), turned ones, some cut by the picture's
// border, and regions inside holes.
func darkTestImage(rng *rand.Rand, w, h int, specks float64) gocv.Mat {
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	px, _ := m.DataPtrUint8()
	for i := range px {
		if rng.Float64() < specks {
			px[i] = 255
		}
	}
	for range 12 {
		cx, cy := rng.IntN(w), rng.IntN(h)
		s := 6 + rng.IntN(60)
		a := rng.Float64()
		pts := make([]image.Point, 4)
		for k, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			x, y := d[0]*float64(s), d[1]*float64(s)
			pts[k] = image.Pt(cx+int(x*(1-a*a/2)-y*a), cy+int(x*a+y*(1-a*a/2)))
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		gocv.FillPoly(&m, pv, color.RGBA{255, 255, 255, 0})
		pv.Close()
		if rng.IntN(2) == 0 { // a hole, and something in it
			gocv.Rectangle(&m, image.Rect(cx-s/3, cy-s/3, cx+s/3, cy+s/3), color.RGBA{}, -1)
			gocv.Rectangle(&m, image.Rect(cx-s/8, cy-s/8, cx+s/8, cy+s/8), color.RGBA{255, 255, 255, 0}, -1)
		}
	}
	return m
}

// TestCardDarkPolysMatchFindContours checks tc_dark_polys (the contours
// taken one by one from OpenCV's scanner, specks skipped before their
// points are copied) against tc_dark_polys_vec (cv::findContours): the
// same polygons and blobs in the same order, on pictures of specks and
// shapes, with and without blobs and cut corners.
func TestCardDarkPolysMatchFindContours(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 99))
	var a, b contourBufs
	polys, blobs := 0, 0
	for trial := range 60 {
		w, h := 40+rng.IntN(400), 30+rng.IntN(300)
		m := darkTestImage(rng, w, h, []float64{0, 0.02, 0.1, 0.3}[trial%4])
		data, _ := m.DataPtrUint8()
		minPerim, maxPerim := 8+rng.Float64()*40, 100+rng.Float64()*400
		wantBlobs, cut := cInt(trial%2), cInt(trial/2%2)
		bmin, bmax := cDouble(4+rng.Float64()*6), cDouble(20+rng.Float64()*40)
		np1, nb1, err1 := a.darkPolys(data, h, w, m.Step(), minPerim, maxPerim, wantBlobs, bmin, bmax, cut, true)
		np2, nb2, err2 := b.darkPolys(data, h, w, m.Step(), minPerim, maxPerim, wantBlobs, bmin, bmax, cut, false)
		m.Close()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if np1 != np2 || nb1 != nb2 {
			t.Fatalf("trial %d: %d polygons and %d blobs from findContours, %d and %d from the scanner", trial, np1, nb1, np2, nb2)
		}
		for i := range np1 {
			if a.polys[i] != b.polys[i] {
				t.Fatalf("trial %d: polygon %d differs: %v against %v", trial, i, a.polys[i], b.polys[i])
			}
		}
		for i := range 4 * nb1 {
			if a.blobs[i] != b.blobs[i] {
				t.Fatalf("trial %d: blob value %d differs", trial, i)
			}
		}
		polys, blobs = polys+np1, blobs+nb1
	}
	if polys < 100 || blobs < 50 {
		t.Fatalf("%d polygons and %d blobs in all: the pictures test too little", polys, blobs)
	}
}

// BenchmarkCardDarkPolys times the contour search on a busy binary
// picture (a fifth of it specks): cv::findContours ("vec") against the
// scanner ("scanner").
func BenchmarkCardDarkPolys(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	m := darkTestImage(rng, 640, 360, 0.2)
	defer m.Close()
	data, _ := m.DataPtrUint8()
	for _, vec := range []bool{true, false} {
		name := "scanner"
		if vec {
			name = "vec"
		}
		b.Run(name, func(b *testing.B) {
			var bufs contourBufs
			for b.Loop() {
				if _, _, err := bufs.darkPolys(data, 360, 640, m.Step(), 40, 400, 1, 5, 40, 1, vec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

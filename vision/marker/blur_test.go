package marker

import (
	"image"
	"image/color"
	"math/bits"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// blurCanvas draws a 4×4 marker whose data bits are code (bit r·4+c,
// 1 = white) with modules of 3.2 px at (20.8, 20.8) on an 80×80 grey
// canvas (drawn at 8 px a module and shrunk), blurred with sigma (0: not
// blurred), and returns it with the black square's corners.
func blurCanvas(code uint64, sigma float64) (gocv.Mat, [4]geom.Point) {
	const big, scale, at = 8, 0.4, 52
	c := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 0, 0, 0), 200, 200, gocv.MatTypeCV8UC1)
	cell := func(i, j int, v uint8) {
		r := image.Rect(at+j*big, at+i*big, at+(j+1)*big, at+(i+1)*big)
		gocv.Rectangle(&c, r, color.RGBA{v, v, v, 0}, -1)
	}
	for i := -1; i <= 6; i++ {
		for j := -1; j <= 6; j++ {
			v := uint8(225) // quiet zone
			switch {
			case i == -1 || j == -1 || i == 6 || j == 6:
			case i == 0 || j == 0 || i == 5 || j == 5:
				v = 25
			case code>>((i-1)*4+j-1)&1 == 0:
				v = 25
			}
			cell(i, j, v)
		}
	}
	small := gocv.NewMat()
	gocv.Resize(c, &small, image.Pt(80, 80), 0, 0, gocv.InterpolationArea)
	c.Close()
	if sigma > 0 {
		gocv.GaussianBlur(small, &small, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	}
	lo, hi := float32(at*scale-0.5), float32((at+6*big)*scale-0.5)
	return small, [4]geom.Point{{X: lo, Y: lo}, {X: hi, Y: lo}, {X: hi, Y: hi}, {X: lo, Y: hi}}
}

// TestCardDecodeBlurred: small markers blurred so far that their lone
// modules stay grey read right with the blurred decoder (the plain one
// misses some); a pattern two bits away from its nearest code, or a flat
// grey inside, is refused sharp or blurred.
func TestCardDecodeBlurred(t *testing.T) {
	cb, err := newCodebook(Dict4X4_250)
	if err != nil {
		t.Fatal(err)
	}
	var sc decodeScratch
	plainMissed, n := 0, 0
	for _, id := range []int{0, 3, 17, 42, 99, 123, 177, 200, 249} {
		for _, sigma := range []float64{0, 1.0, 1.4} {
			img, q := blurCanvas(cb.codes[4*id], sigma)
			g, err := geom.GreyView(img)
			if err != nil {
				t.Fatal(err)
			}
			m, ok := cb.decodeBlurred(g, q, defaultLimits, &sc)
			if !ok || m.Marker.ID != id || m.Marker.Corners[0] != q[0] {
				t.Errorf("id %d, blur %.1f: blurred decoder read %+v, %v", id, sigma, m.Marker, ok)
			}
			if _, ok := cb.decode(g, q, defaultLimits, &sc); !ok {
				plainMissed++
			}
			n++
			img.Close()
		}
	}
	t.Logf("the plain decoder missed %d of %d", plainMissed, n)
	if plainMissed == 0 {
		t.Fatal("the plain decoder read every blurred marker: the test no longer reaches the case the blurred decoder is for")
	}

	// Patterns two bits from their nearest code.
	tried := 0
	for base := 5; base < 250 && tried < 12; base += 7 {
		code := cb.codes[4*base]
		for b1 := 0; b1 < 16 && tried < 12; b1 += 5 {
			p := code ^ 1<<b1 ^ 1<<((b1+7)%16)
			nearest := 16
			for _, c := range cb.codes {
				nearest = min(nearest, bits.OnesCount64(p^c))
			}
			if nearest != 2 {
				continue
			}
			tried++
			for _, sigma := range []float64{0, 1.0, 1.4} {
				img, q := blurCanvas(p, sigma)
				g, err := geom.GreyView(img)
				if err != nil {
					t.Fatal(err)
				}
				if m, ok := cb.decodeBlurred(g, q, defaultLimits, &sc); ok {
					t.Errorf("pattern %016b (2 bits from id %d), blur %.1f: read as %d", p, base, sigma, m.Marker.ID)
				}
				img.Close()
			}
		}
	}
	if tried == 0 {
		t.Fatal("no pattern two bits from every code")
	}

	// A flat grey inside the border.
	img, q := blurCanvas(0, 0)
	defer img.Close()
	gocv.Rectangle(&img, image.Rect(24, 24, 37, 37), color.RGBA{120, 120, 120, 0}, -1)
	g, err := geom.GreyView(img)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := cb.decodeBlurred(g, q, defaultLimits, &sc); ok {
		t.Errorf("flat inside read as %d", m.Marker.ID)
	}
}

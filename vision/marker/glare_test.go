package marker

import (
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// glareCanvas draws marker id (4×4_250) 30 px wide at (40, 40) on a
// mid-grey 120×120 canvas and adds a saturating glare bump of the given
// peak centred at (gx, gy) with spread sigma.
func glareCanvas(t *testing.T, id int, gx, gy, sigma, peak float64) gocv.Mat {
	t.Helper()
	mk, err := Generate(Dict4X4_250, id, 30)
	if err != nil {
		t.Fatal(err)
	}
	defer mk.Close()
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), 120, 120, gocv.MatTypeCV8UC1)
	q := QuietZone(Dict4X4_250, 30)
	roi := canvas.Region(image.Rect(40-q, 40-q, 40-q+mk.Cols(), 40-q+mk.Rows()))
	mk.CopyTo(&roi)
	roi.Close()
	d, err := canvas.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for y := range 120 {
		for x := range 120 {
			v := float64(d[y*120+x])*0.85 + 10 // paper 227, ink 10
			v += peak * math.Exp(-((float64(x)-gx)*(float64(x)-gx)+(float64(y)-gy)*(float64(y)-gy))/(2*sigma*sigma))
			d[y*120+x] = uint8(math.Min(255, math.Round(v)))
		}
	}
	return canvas
}

// TestCardDecodeGlare: glare washing out a corner of the black border (and
// of the modules next to it)
// defeats the plain decoder (its illumination planes cannot follow the
// bump) but not the glare decoder; without glare the plain decoder reads
// it and the glare decoder, seeing no washed-out border cell, refuses it.
func TestCardDecodeGlare(t *testing.T) {
	s, err := NewScanner(Dict4X4_250)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The black square spans pixels 40..69: corners at the pixel edges.
	q := [4]geom.Point{{X: 39.5, Y: 39.5}, {X: 69.5, Y: 39.5}, {X: 69.5, Y: 69.5}, {X: 39.5, Y: 69.5}}
	plainFailed := 0
	for _, id := range []int{3, 77, 150, 249} {
		for k, corner := range q {
			// The bump's peak 4 px inside the corner.
			dx, dy := 4.0, 4.0
			if k == 1 || k == 2 {
				dx = -4
			}
			if k >= 2 {
				dy = -4
			}
			c := glareCanvas(t, id, float64(corner.X)+dx, float64(corner.Y)+dy, 8, 240)
			g, err := geom.GreyView(c)
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := s.cb.decode(g, q, s.lim, &s.sc); !ok {
				plainFailed++
			} else if m.Marker.ID != id {
				t.Errorf("id %d, glare at %v: plain decoder read id %d", id, corner, m.Marker.ID)
			}
			m, res := s.cb.decodeGlare(g, q, s.lim, &s.sc)
			if res != glareRead || m.Marker.ID != id {
				t.Errorf("id %d, glare at %v: glare decoder: result %d, id %d", id, corner, res, m.Marker.ID)
			}
			// The scanner finds and reads it unaided.
			found, err := s.Scan(c, g, image.Rect(0, 0, 120, 120), PassFull, 15, 100, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != 1 || found[0].Marker.ID != id {
				t.Errorf("id %d, glare at %v: scan found %+v", id, corner, found)
			}
			c.Close()
		}
		// No glare: both decoders read it; the glare decoder refuses it
		// when it must see glare.
		c := glareCanvas(t, id, 0, 0, 1, 0)
		g, _ := geom.GreyView(c)
		if m, ok := s.cb.decode(g, q, s.lim, &s.sc); !ok || m.Marker.ID != id {
			t.Errorf("id %d without glare: plain decoder %v id %d", id, ok, m.Marker.ID)
		}
		if _, res := s.cb.decodeGlare(g, q, s.lim, &s.sc); res != glareNoBorder {
			t.Errorf("id %d without glare: glare decoder gave result %d, want no border (no glare on it)", id, res)
		}
		c.Close()
	}
	// The case is only worth testing if the plain decoder fails it.
	if plainFailed < 8 {
		t.Errorf("the plain decoder failed only %d of 16 glared markers: the test scene is too easy", plainFailed)
	}
}

// TestCardDecodeGlareRefusesArt: flat grey, noise-free stripes and a dark
// frame around mid-grey panels read as nothing in the glare decoder.
func TestCardDecodeGlareRefusesArt(t *testing.T) {
	s, err := NewScanner(Dict4X4_250)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := [4]geom.Point{{X: 39.5, Y: 39.5}, {X: 69.5, Y: 39.5}, {X: 69.5, Y: 69.5}, {X: 39.5, Y: 69.5}}
	draw := func(f func(x, y int) uint8) gocv.Mat {
		m := gocv.NewMatWithSize(120, 120, gocv.MatTypeCV8UC1)
		d, _ := m.DataPtrUint8()
		for y := range 120 {
			for x := range 120 {
				d[y*120+x] = f(x, y)
			}
		}
		return m
	}
	scenes := map[string]func(x, y int) uint8{
		"flat":    func(x, y int) uint8 { return 200 },
		"stripes": func(x, y int) uint8 { return uint8(40 + 180*((x/3)%2)) },
		"frame": func(x, y int) uint8 {
			in := x >= 40 && x < 70 && y >= 40 && y < 70
			inner := x >= 45 && x < 65 && y >= 45 && y < 65
			switch {
			case inner:
				return uint8(120 + 10*((x/5+y/5)%2))
			case in:
				return 30
			}
			return 230
		},
	}
	for name, f := range scenes {
		m := draw(f)
		g, _ := geom.GreyView(m)
		if r, res := s.cb.decodeGlare(g, q, s.lim, &s.sc); res == glareRead {
			t.Errorf("%s: read id %d", name, r.Marker.ID)
		}
		m.Close()
	}
}

// TestCardCutToQuad: a square with a corner cut off gets its corner back;
// a convex hull of four corners is taken as is; a pentagon is no quad.
func TestCardCutToQuad(t *testing.T) {
	near := func(a, b [2]float64) bool { return math.Hypot(a[0]-b[0], a[1]-b[1]) < 1e-6 }
	has := func(q [4][2]float64, p [2]float64) bool {
		for _, c := range q {
			if near(c, p) {
				return true
			}
		}
		return false
	}
	cut := [][2]float64{{0, 0}, {20, 0}, {30, 10}, {30, 30}, {0, 30}}
	q, ok := cutToQuad(cut)
	if !ok || !has(q, [2]float64{30, 0}) || !has(q, [2]float64{0, 0}) || !has(q, [2]float64{30, 30}) || !has(q, [2]float64{0, 30}) {
		t.Errorf("cut square: %v, %v", q, ok)
	}
	notch := [][2]float64{{0, 0}, {30, 0}, {30, 30}, {20, 30}, {15, 20}, {10, 30}, {0, 30}}
	if q, ok := cutToQuad(notch); !ok || !has(q, [2]float64{0, 30}) || !has(q, [2]float64{30, 30}) {
		t.Errorf("notched square: %v, %v", q, ok)
	}
	var pent [][2]float64
	for k := range 5 {
		a := 2 * math.Pi * float64(k) / 5
		pent = append(pent, [2]float64{20 * math.Cos(a), 20 * math.Sin(a)})
	}
	if q, ok := cutToQuad(pent); ok {
		t.Errorf("regular pentagon gave %v", q)
	}
}

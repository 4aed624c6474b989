package marker

import (
	"image"
	"math/bits"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// inkCanvas draws marker id (4×4_250) 36 px wide at (42, 42) on a
// 120×120 BGR canvas of colour table, the marker's dark modules in colour
// dark and its white modules and quiet zone in colour paper (B, G, R).
func inkCanvas(t *testing.T, id int, table, dark, paper [3]uint8) gocv.Mat {
	t.Helper()
	mk, err := Generate(Dict4X4_250, id, 36)
	if err != nil {
		t.Fatal(err)
	}
	defer mk.Close()
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(table[0]), float64(table[1]), float64(table[2]), 0), 120, 120, gocv.MatTypeCV8UC3)
	d, err := canvas.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	q := QuietZone(Dict4X4_250, 36)
	for y := range mk.Rows() {
		for x := range mk.Cols() {
			c := dark
			if mk.GetUCharAt(y, x) > 127 {
				c = paper
			}
			copy(d[3*((42-q+y)*120+42-q+x):], c[:])
		}
	}
	return canvas
}

// scanColour runs the full-resolution pass over a BGR canvas with its
// colour view given to the scanner (as ReadCards does) and returns the ids
// read.
func scanColour(t *testing.T, s *Scanner, canvas gocv.Mat) []int {
	t.Helper()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(canvas, &grey, gocv.ColorBGRToGray)
	g, err := geom.GreyView(grey)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := geom.ColourView(canvas)
	if err != nil {
		t.Fatal(err)
	}
	s.Forget(cv)
	reads, err := s.Scan(grey, g, image.Rect(0, 0, 120, 120), PassFull, 15, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, m := range reads {
		ids = append(ids, m.Marker.ID)
	}
	return ids
}

// TestCardInkCheck: a sticker printed black on white reads under light of
// any colour (every cell is the paper's colour, darker or brighter), while
// the same pattern in the colours of card art (a dark green panel with a
// yellow shape on a light blue card) is refused; the grey decoder alone
// reads both.
func TestCardInkCheck(t *testing.T) {
	s, err := NewScanner(Dict4X4_250)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		name               string
		table, dark, paper [3]uint8
		read               bool
	}{
		{"black on white", [3]uint8{90, 90, 90}, [3]uint8{20, 20, 20}, [3]uint8{225, 225, 225}, true},
		{"warm light", [3]uint8{40, 70, 100}, [3]uint8{8, 14, 20}, [3]uint8{120, 185, 240}, true},
		{"cool light, grey ink", [3]uint8{100, 80, 60}, [3]uint8{70, 60, 50}, [3]uint8{240, 200, 160}, true},
		{"card art", [3]uint8{60, 60, 60}, [3]uint8{30, 110, 20}, [3]uint8{220, 210, 170}, false},
		{"card art, yellow shape", [3]uint8{210, 200, 170}, [3]uint8{60, 70, 40}, [3]uint8{40, 200, 220}, false},
	} {
		for _, id := range []int{17, 71, 190} {
			canvas := inkCanvas(t, id, tc.table, tc.dark, tc.paper)
			if tc.name == "card art, yellow shape" {
				// The shape (the white modules) yellow, the ring around
				// the panel the card's light blue.
				canvas.Close()
				canvas = inkCanvas(t, id, [3]uint8{60, 60, 60}, tc.dark, tc.table)
				recolourInner(t, canvas, tc.table, tc.paper)
			}
			ids := scanColour(t, s, canvas)
			canvas.Close()
			got := len(ids) == 1 && ids[0] == id
			if got != tc.read || (!tc.read && len(ids) > 0) {
				t.Errorf("%s, marker %d: read %v, want read %v", tc.name, id, ids, tc.read)
			}
		}
	}
	// Without a colour view (grey pictures) there is no ink check: the
	// card art's pattern reads in grey, which is what the check is for.
	canvas := inkCanvas(t, 17, [3]uint8{60, 60, 60}, [3]uint8{40, 90, 30}, [3]uint8{220, 210, 170})
	defer canvas.Close()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(canvas, &grey, gocv.ColorBGRToGray)
	g, err := geom.GreyView(grey)
	if err != nil {
		t.Fatal(err)
	}
	s.Forget(geom.View{})
	reads, err := s.Scan(grey, g, image.Rect(0, 0, 120, 120), PassFull, 15, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 1 || reads[0].Marker.ID != 17 {
		t.Errorf("grey decoder on the card art pattern read %+v, want marker 17 (the test shows nothing)", reads)
	}
}

// recolourInner repaints, inside the marker's black square of
// inkCanvas (pixels 42..77), the pixels of colour from in colour to.
func recolourInner(t *testing.T, canvas gocv.Mat, from, to [3]uint8) {
	t.Helper()
	d, err := canvas.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for y := 42; y < 78; y++ {
		for x := 42; x < 78; x++ {
			p := d[3*(y*120+x):]
			if p[0] == from[0] && p[1] == from[1] && p[2] == from[2] {
				copy(p, to[:])
			}
		}
	}
}

// TestCardConfirmWeak: a weak read (a candidate outlined a little off can
// read as another id with little confidence) is looked at again at full
// resolution, and the sticker's own read replaces it; where no other look
// reads anything the weak read stays.
func TestCardConfirmWeak(t *testing.T) {
	s, err := NewScanner(Dict4X4_250)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	canvas := inkCanvas(t, 122, [3]uint8{90, 90, 90}, [3]uint8{20, 20, 20}, [3]uint8{225, 225, 225})
	defer canvas.Close()
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(canvas, &grey, gocv.ColorBGRToGray)
	g, err := geom.GreyView(grey)
	if err != nil {
		t.Fatal(err)
	}
	weak := func(x0 float32) Sticker {
		q := [4]geom.Point{{X: x0 - 0.5, Y: 41.5}, {X: x0 + 35.5, Y: 41.5}, {X: x0 + 35.5, Y: 77.5}, {X: x0 - 0.5, Y: 77.5}}
		return Sticker{Marker: FromQuad(q, 184, 0), cost: 0.66, margin: 56, Conf: 0.29}
	}
	for _, tc := range []struct {
		x0   float32
		want int
	}{{42, 122}, {0, 184}} { // on the sticker; on the empty table (the canvas's left edge)
		s.Forget(geom.View{})
		s.weak = append(s.weak[:0], weak(tc.x0))
		out, err := s.confirmWeak(grey, g, PassHalf, 15, 100, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != 1 || out[0].Marker.ID != tc.want {
			t.Errorf("weak read of 184 at x %v: confirmed %+v, want marker %d", tc.x0, out, tc.want)
		}
	}
}

// TestCardFlippedBitsNotAnotherID: DICT_4X4_250 has ids only 3 bits apart;
// a marker with two of those bits flipped (a fleck of dirt, a pen mark)
// lies one bit from the other id. The decoder corrects only bits it is
// unsure of, so it reads neither id rather than the wrong one.
func TestCardFlippedBitsNotAnotherID(t *testing.T) {
	s, err := NewScanner(Dict4X4_250)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cb := s.cb
	pairs := 0
	for a := 0; a < 250 && pairs < 12; a += 7 {
		for k := 4 * (a + 1); k < len(cb.codes) && pairs < 12; k++ {
			diff := cb.codes[4*a] ^ cb.codes[k]
			if bits.OnesCount64(diff) != 3 {
				continue
			}
			pairs++
			mk, err := Generate(Dict4X4_250, a, 36)
			if err != nil {
				t.Fatal(err)
			}
			// Flip the first two differing bits (6 px modules, the data
			// from the second module in).
			q := QuietZone(Dict4X4_250, 36)
			for f := 0; f < 2; f++ {
				b := bits.TrailingZeros64(diff)
				diff &= diff - 1
				r, c := b/4, b%4
				v := uint8(255)
				if cb.codes[4*a]>>b&1 == 1 {
					v = 0
				}
				for y := range 6 {
					for x := range 6 {
						mk.SetUCharAt(q+6*(r+1)+y, q+6*(c+1)+x, v)
					}
				}
			}
			canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 0, 0, 0), 120, 120, gocv.MatTypeCV8UC1)
			roi := canvas.Region(image.Rect(30, 30, 30+mk.Cols(), 30+mk.Rows()))
			mk.CopyTo(&roi)
			roi.Close()
			mk.Close()
			g, err := geom.GreyView(canvas)
			if err != nil {
				t.Fatal(err)
			}
			s.Forget(geom.View{})
			reads, err := s.Scan(canvas, g, image.Rect(0, 0, 120, 120), PassFull, 15, 100, nil)
			canvas.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range reads {
				t.Errorf("marker %d with 2 bits flipped towards %d read as %d (conf %.2f)", a, k/4, m.Marker.ID, m.Conf)
			}
		}
	}
	if pairs < 12 {
		t.Fatalf("only %d pairs of ids 3 bits apart", pairs)
	}
}

package vision

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNthFloat32 checks the quickselect behind the numeral reader's
// percentiles against sorting, on random values with and without ties.
func TestNthFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := 1 + r.IntN(800)
		v := make([]float32, n)
		for i := range v {
			if trial%2 == 0 {
				v[i] = float32(r.IntN(8)) // many ties
			} else {
				v[i] = r.Float32() * 255
			}
		}
		sorted := slices.Clone(v)
		slices.Sort(sorted)
		k := r.IntN(n)
		nthFloat32(v, k)
		if v[k] != sorted[k] {
			t.Fatalf("n %d k %d: got %v, want %v", n, k, v[k], sorted[k])
		}
		for i := range v {
			if i < k && v[i] > v[k] || i > k && v[i] < v[k] {
				t.Fatalf("n %d k %d: v[%d] = %v on the wrong side of %v", n, k, i, v[i], v[k])
			}
		}
	}
}

// TestInkAxis checks the numeral's ink axis against strokes drawn at known
// turns from a face's axes: a stroke's turn is found (within ±45°, a
// quarter turn being the same stroke) and it is elongated; a round blob
// is not.
func TestInkAxis(t *testing.T) {
	nr := &numeralReader{}
	for _, faceTurn := range []float64{0, 0.4, -1.1} {
		rect := dieRect{C: diePt{100, 80}, U: diePt{math.Cos(faceTurn), math.Sin(faceTurn)}, HU: 20, HV: 20}
		for _, deg := range []float64{0, 10, -20, 35, 80, -60} {
			a := faceTurn + math.Pi/2 + deg*math.Pi/180 // along the face's V turned by deg
			nr.ink0 = nr.ink0[:0]
			for i := -8; i <= 8; i++ {
				for w := -1; w <= 1; w++ {
					nr.ink0 = append(nr.ink0, diePt{100 + float64(i)*math.Cos(a) - float64(w)*math.Sin(a), 80 + float64(i)*math.Sin(a) + float64(w)*math.Cos(a)})
				}
			}
			turn, el := nr.inkAxis(rect)
			want := wrapQuarter(deg * math.Pi / 180)
			if math.Abs(wrapQuarter(turn-want)) > 1e-6 {
				t.Errorf("face turned %.1f, stroke at %v°: turn %.2f°, want %.2f°", faceTurn, deg, turn*180/math.Pi, want*180/math.Pi)
			}
			if el < numStroke {
				t.Errorf("stroke at %v°: elongation %.2f, want ≥ %v", deg, el, numStroke)
			}
		}
	}
	nr.ink0 = nr.ink0[:0]
	for y := -4; y <= 4; y++ {
		for x := -4; x <= 4; x++ {
			if x*x+y*y <= 16 {
				nr.ink0 = append(nr.ink0, diePt{float64(x), float64(y)})
			}
		}
	}
	if _, el := nr.inkAxis(dieRect{U: diePt{1, 0}, HU: 10, HV: 10}); el > 1.2 {
		t.Errorf("round blob: elongation %.2f, want about 1", el)
	}
}

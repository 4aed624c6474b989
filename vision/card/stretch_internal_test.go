package card

import (
	"testing"

	"gocv.io/x/gocv"
)

// TestCardStretch checks the stretch of a place's grey levels before its
// keypoints are taken: a dim place to the full range, by at most
// stretchMax; a place already spanning about the full range, or flat,
// is left alone.
func TestCardStretch(t *testing.T) {
	out := gocv.NewMat()
	defer out.Close()
	cases := []struct {
		name      string
		lo, hi    uint8
		stretched bool
		wantLo    float32
		wantHi    float32
	}{
		{"dim (0.45 light)", 10, 76, true, 0, 255},
		{"very dark: gain capped", 20, 40, true, 0, 80},
		{"full range", 0, 255, false, 0, 0},
		{"nearly full", 5, 230, false, 0, 0},
		{"flat", 50, 50, false, 0, 0},
	}
	for _, c := range cases {
		m := gocv.NewMatWithSize(8, 8, gocv.MatTypeCV8U)
		for i := range 64 {
			v := c.lo
			if i%2 == 1 {
				v = c.hi
			}
			m.SetUCharAt(i/8, i%8, v)
		}
		ok := stretch(m, &out)
		if ok != c.stretched {
			t.Errorf("%s: stretched %v, want %v", c.name, ok, c.stretched)
		}
		if ok {
			lo, hi, _, _ := gocv.MinMaxLoc(out)
			if lo != c.wantLo || hi < c.wantHi-1 || hi > c.wantHi+1 {
				t.Errorf("%s: levels %v–%v, want %v–%v", c.name, lo, hi, c.wantLo, c.wantHi)
			}
		}
		m.Close()
	}
}

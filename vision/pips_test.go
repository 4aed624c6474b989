package vision

import (
	"math"
	"testing"
)

// drawFace paints a face patch: body colour, and round pips of radius r
// (patch pixels) at the given centres, all scaled by light.
func drawFace(body, ink [3]float64, pips []diePt, r, light float64) *facePatch {
	var p facePatch
	for y := 0; y < facePatchSize; y++ {
		for x := 0; x < facePatchSize; x++ {
			c := body
			for _, q := range pips {
				if math.Hypot(float64(x)+0.5-q.X, float64(y)+0.5-q.Y) <= r {
					c = ink
				}
			}
			for k := 0; k < 3; k++ {
				p[3*(y*facePatchSize+x)+k] = byte(math.Min(255, c[k]*light))
			}
		}
	}
	return &p
}

// layout returns the pip centres of a d6 face in a patch: the outer pips a
// quarter of the patch from its centre.
func layout(n int) []diePt {
	m, s := float64(facePatchSize)/2, float64(facePatchSize)/4
	var out []diePt
	for _, g := range pipGrids[n][0] {
		out = append(out, diePt{m + float64(g[0])*s, m + float64(g[1])*s})
	}
	return out
}

func TestCountPipsFaces(t *testing.T) {
	white, black := [3]float64{230, 235, 240}, [3]float64{25, 25, 25}
	blue, yellow := [3]float64{150, 90, 60}, [3]float64{80, 200, 235}
	for n := 1; n <= 6; n++ {
		r := 3.0
		if n == 1 {
			r = 3.6
		}
		for _, c := range []struct {
			name        string
			body, ink   [3]float64
			light, want float64
		}{
			{"white", white, black, 1, 0.9},
			{"black", black, white, 1, 0.9},
			// Dim light: the counter works on the face brought to a normal
			// exposure.
			{"blue dim", blue, yellow, 0.45, 0.9},
		} {
			got, conf := countPips(drawFace(c.body, c.ink, layout(n), r, c.light))
			if got != n || conf < c.want {
				t.Errorf("%d pips, %s: counted %d, confidence %.2f (want ≥ %.2f)", n, c.name, got, conf, c.want)
			}
		}
	}
}

func TestCountPipsPartOfFace(t *testing.T) {
	white, black := [3]float64{230, 235, 240}, [3]float64{25, 25, 25}
	m := float64(facePatchSize) / 2
	// A quarter of a face seen as a face: one pip, a third of the patch
	// wide, in the middle.
	if n, conf := countPips(drawFace(white, black, []diePt{{m, m}}, 6, 1)); n == 1 && conf > 0 {
		t.Errorf("a pip a third of the face wide: counted a one, confidence %.2f", conf)
	}
	// Two large pips on a diagonal close together (a five's pair seen
	// through a part of it): no two.
	if n, conf := countPips(drawFace(white, black, []diePt{{m - 7, m - 7}, {m + 7, m + 7}}, 4.5, 1)); n == 2 && conf > 0 {
		t.Errorf("pips larger than half their spacing: counted a two, confidence %.2f", conf)
	}
}

func TestCountPipsTouchingSix(t *testing.T) {
	// A six whose pips in a column nearly touch, their rims blurred into
	// one another: a stricter threshold parts them.
	white, black := [3]float64{235, 235, 235}, [3]float64{20, 20, 20}
	m := float64(facePatchSize) / 2
	var pips []diePt
	for _, x := range []float64{-8, 8} {
		for _, y := range []float64{-7, 0, 7} {
			pips = append(pips, diePt{m + x, m + y})
		}
	}
	p := drawFace(white, black, pips, 3.2, 1)
	// Faint bridges between the pips of a column (about 70 from the body
	// colour, where Otsu's threshold of a clean face sits at its floor of 40).
	for _, x := range []float64{-8, 8} {
		for _, y := range []float64{-3.5, 3.5} {
			i := 3 * (int(m+y)*facePatchSize + int(m+x))
			for k := 0; k < 3; k++ {
				p[i+k], p[i+k-3], p[i+k+3] = 195, 195, 195
			}
		}
	}
	if n, conf := countPips(p); n != 6 || conf < 0.5 {
		t.Errorf("six with touching pips: counted %d, confidence %.2f", n, conf)
	}
}

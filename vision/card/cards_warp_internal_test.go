package card

import (
	"math"
	"math/rand/v2"
	"testing"

	"tablecam/vision/geom"
)

// TestCardQuadRowSpanMatchesTests checks that cardQuadRowSpan is exactly
// the points of a row that pass geom.InQuad (so that changedIn counts
// what testing every point counted), for quads of every shape and
// orientation, degenerate ones included.
func TestCardQuadRowSpanMatchesTests(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const s = cardRefShrink
	px := func(x int) float32 { return float32(x*s + s/2) }
	for trial := range 3000 {
		var q [4]geom.Point
		cx, cy, r := rng.Float64()*400, rng.Float64()*300, 1+rng.Float64()*200
		for k := range q {
			a := 2*math.Pi*float64(k)/4 + rng.Float64()
			if trial%2 == 0 {
				a = -a // anticlockwise too
			}
			q[k] = geom.Point{X: float32(cx + r*math.Cos(a)*(0.2+rng.Float64())), Y: float32(cy + r*math.Sin(a)*(0.2+rng.Float64()))}
			if trial%5 == 0 {
				q[k].X = float32(int(q[k].X)) // whole pixels, sides along rows
				q[k].Y = float32(int(q[k].Y))
			}
		}
		if trial%7 == 0 {
			q[2] = q[1] // degenerate
		}
		for y := -2; y < 120; y++ {
			py := float32(y*s + s/2)
			x0, x1 := cardQuadRowSpan(q, py, s, -5, 130)
			for x := -5; x < 130; x++ {
				in := geom.InQuad(geom.Point{X: px(x), Y: py}, q)
				if in != (x >= x0 && x < x1) {
					t.Fatalf("trial %d, quad %v, row %d: point %d in the quad %v, the span is %d…%d", trial, q, y, x, in, x0, x1)
				}
			}
		}
	}
}

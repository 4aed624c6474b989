package vision

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCardBoxBlurExact checks cardBoxBlur (in C) against the box blur
// written plainly in Go, each row's running sum from the left divided by
// 2k+1 and then each column's from the top: the same doubles, bit for bit
// (the descriptors of taught cards saved before must not change).
func TestCardBoxBlurExact(t *testing.T) {
	const n = cardFineN
	rng := rand.New(rand.NewPCG(1, 2))
	clamp := func(v int) int { return max(0, min(n-1, v)) }
	var g, out, tmp, want, rows [cardFineD]float64
	for trial := range 40 {
		for i := range g {
			g[i] = (rng.Float64() - 0.5) * 255 * math.Pow(10, float64(trial%5-2))
		}
		for _, k := range []int{cardSmoothRadius, cardLowCutRadius, 1, 40} {
			div := float64(2*k + 1)
			for y := range n {
				s := 0.0
				for d := -k; d <= k; d++ {
					s += g[y*n+clamp(d)]
				}
				for x := range n {
					rows[y*n+x] = s / div
					s += g[y*n+clamp(x+k+1)] - g[y*n+clamp(x-k)]
				}
			}
			for x := range n {
				s := 0.0
				for d := -k; d <= k; d++ {
					s += rows[clamp(d)*n+x]
				}
				for y := range n {
					want[y*n+x] = s / div
					s += rows[clamp(y+k+1)*n+x] - rows[clamp(y-k)*n+x]
				}
			}
			cardBoxBlur(&g, &out, &tmp, k)
			for i := range out {
				if math.Float64bits(out[i]) != math.Float64bits(want[i]) {
					t.Fatalf("trial %d, radius %d: pixel %d is %v, want %v", trial, k, i, out[i], want[i])
				}
			}
		}
	}
}

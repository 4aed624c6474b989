package vision

import (
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

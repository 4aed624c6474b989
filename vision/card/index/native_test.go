package index

import (
	"math/rand"
	"testing"
)

// TestCardDotIsTheSum checks the C dot product of the taught-card
// comparison against a plain sum, on random images and on the extremes
// (every product -128·-128, and mixed signs).
func TestCardDotIsTheSum(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var a, b Desc
	for it := range 300 {
		for i := range a.fine {
			switch it % 3 {
			case 0:
				a.fine[i], b.fine[i] = int8(rng.Intn(256)-128), int8(rng.Intn(256)-128)
			case 1:
				a.fine[i], b.fine[i] = -128, -128
			default:
				a.fine[i], b.fine[i] = -128, 127
			}
		}
		var want int32
		for i := range a.fine {
			want += int32(a.fine[i]) * int32(b.fine[i])
		}
		if got := dot(&a, &b); got != want {
			t.Fatalf("image %d: dot %d, want %d", it, got, want)
		}
	}
}

package index

import (
	"math/rand/v2"
	"testing"
)

// TestCardMorphMatchesPixels checks the bitwise morph against the
// pixel loop it replaced, eroding and dilating, sparse and dense masks.
func TestCardMorphMatchesPixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	var src, got, want, tmp [fineD]bool // tmp: the reference's scratch
	for trial := range 500 {
		p := rng.IntN(10)
		for i := range src {
			src[i] = rng.IntN(10) < p
		}
		for k := range 7 {
			for _, grow := range []bool{false, true} {
				morph(&src, &got, k, grow)
				morphRef(&src, &want, &tmp, k, grow)
				if got != want {
					t.Fatalf("trial %d, radius %d, grow %v: the masks differ", trial, k, grow)
				}
			}
		}
	}
}

// morphRef is morph as it was, pixel by pixel: the reference of
// TestCardMorphMatchesPixels.
func morphRef(src, dst, tmp *[fineD]bool, k int, grow bool) {
	const n = CanonSize
	// step 1: along rows; step n: along columns.
	pass := func(src, dst *[fineD]bool, step int) {
		for i := range fineD {
			pos := (i / step) % n
			v := !grow
			for d := -k; d <= k && v == !grow; d++ {
				p := pos + d
				if p < 0 || p >= n {
					continue
				}
				if src[i+d*step] == grow {
					v = grow
				}
			}
			dst[i] = v
		}
	}
	pass(src, tmp, 1)
	pass(tmp, dst, n)
}

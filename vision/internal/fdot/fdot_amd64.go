//go:build amd64 && !purego

package fdot

// dot4SSE is Dot4 with SSE: one register holds a product's four partial
// sums (fdot_amd64.s).
//
//go:noescape
func dot4SSE(a0, a1, a2, a3, b *float32, n int) (r0, r1, r2, r3 float32)

func dot4(a *[4][]float32, b []float32) [4]float32 {
	r0, r1, r2, r3 := dot4SSE(&a[0][0], &a[1][0], &a[2][0], &a[3][0], &b[0], len(b))
	return [4]float32{r0, r1, r2, r3}
}

// Package fdot computes dot products of float32 vectors four at a time:
// matching a die's features with many templates is most of the cost of
// reading it. Every product is summed exactly as [Dot] sums it (four
// partial sums over the indices modulo 4, added in order), so results do
// not depend on the implementation.
package fdot

// Dot is the dot product of a and b (the same length, a multiple of 4).
func Dot(a, b []float32) float32 {
	if len(a)%4 != 0 || len(b) != len(a) {
		panic("fdot: vector lengths differ or are not a multiple of 4")
	}
	var s0, s1, s2, s3 float32
	// The conversions round each product before it is added: they keep
	// the compiler from fusing multiply and add (as it does on arm64),
	// which would round differently from the SSE kernel.
	for i := 0; i+3 < len(a); i += 4 {
		s0 += float32(a[i] * b[i])
		s1 += float32(a[i+1] * b[i+1])
		s2 += float32(a[i+2] * b[i+2])
		s3 += float32(a[i+3] * b[i+3])
	}
	return s0 + s1 + s2 + s3
}

// Dot4 returns the dot products of a[0] … a[3] with b, each exactly as
// [Dot] computes it. The vectors must have the same length, a multiple of
// 4.
func Dot4(a *[4][]float32, b []float32) [4]float32 {
	n := len(b)
	if n%4 != 0 || len(a[0]) != n || len(a[1]) != n || len(a[2]) != n || len(a[3]) != n {
		panic("fdot: vector lengths differ or are not a multiple of 4")
	}
	if n == 0 {
		return [4]float32{}
	}
	return dot4(a, b)
}

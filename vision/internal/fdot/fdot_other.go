//go:build !amd64 || purego

package fdot

func dot4(a *[4][]float32, b []float32) [4]float32 {
	return [4]float32{Dot(a[0], b), Dot(a[1], b), Dot(a[2], b), Dot(a[3], b)}
}

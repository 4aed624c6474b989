package fdot

import (
	"math/rand"
	"testing"
)

// TestDot4SameAsDot checks that Dot4 sums every product exactly as Dot
// does, bit for bit, on random vectors of several lengths (values of
// mixed magnitudes, so that a different order of additions would round
// differently).
func TestDot4SameAsDot(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	vec := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = (r.Float32() - 0.5) * float32(int(1)<<r.Intn(20))
		}
		return v
	}
	differ := 0
	for _, n := range []int{0, 4, 8, 400, 768} {
		for range 200 {
			var a [4][]float32
			for k := range a {
				a[k] = vec(n)
			}
			b := vec(n)
			got := Dot4(&a, b)
			for k := range a {
				if want := Dot(a[k], b); got[k] != want {
					t.Fatalf("n=%d: Dot4[%d] = %v, Dot = %v", n, k, got[k], want)
				}
				// The order matters: a plain left-to-right sum differs.
				var s float32
				for i := range b {
					s += a[k][i] * b[i]
				}
				if s != got[k] {
					differ++
				}
			}
		}
	}
	if differ == 0 {
		t.Fatal("no product's rounding depends on the order of the sum: the test cannot tell the orders apart")
	}
}

func TestDot4Lengths(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for vectors of different lengths")
		}
	}()
	a := [4][]float32{make([]float32, 8), make([]float32, 8), make([]float32, 4), make([]float32, 8)}
	Dot4(&a, make([]float32, 8))
}

func BenchmarkDot4(b *testing.B) {
	var a [4][]float32
	for k := range a {
		a[k] = make([]float32, 768)
	}
	v := make([]float32, 768)
	var sink float32
	for range b.N {
		r := Dot4(&a, v)
		sink += r[0]
	}
	_ = sink
}

func BenchmarkDot(b *testing.B) {
	a, v := make([]float32, 768), make([]float32, 768)
	var sink float32
	for range b.N {
		for range 4 {
			sink += Dot(a, v)
		}
	}
	_ = sink
}

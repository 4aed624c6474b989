package dice

import (
	"image"
	"testing"
)

func mark(x0, y0, x1, y1 int, score float64) Found {
	r := image.Rect(x0, y0, x1, y1)
	return Found{Box: r, Center: image.Pt((x0+x1)/2, (y0+y1)/2), Score: score}
}

func TestSuppressInside(t *testing.T) {
	die := mark(100, 100, 200, 200, 0.9)
	for _, c := range []struct {
		name  string
		marks []Found
		want  []int // indices of marks kept
	}{
		{"a pip of a large die", []Found{die, mark(110, 110, 140, 140, 0.6)}, []int{0}},
		{"two marks of one die", []Found{die, mark(95, 105, 195, 205, 0.8)}, []int{0}},
		{"two dice side by side", []Found{die, mark(195, 100, 295, 200, 0.8)}, []int{0, 1}},
		{"two dice touching at a corner", []Found{die, mark(160, 160, 260, 260, 0.8)}, []int{0, 1}},
		{"a better small mark keeps the die whose centre it does not hold", []Found{mark(105, 105, 135, 135, 0.95), die}, []int{0, 1}},
		{"a mark inside a die dropped by nothing before it stays", []Found{mark(300, 300, 330, 330, 0.95), die}, []int{0, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := append([]Found(nil), c.marks...)
			got := suppressInside(in)
			if len(got) != len(c.want) {
				t.Fatalf("kept %d marks %v, want %d", len(got), got, len(c.want))
			}
			for i, k := range c.want {
				if got[i] != c.marks[k] {
					t.Errorf("mark %d kept is %v, want %v", i, got[i], c.marks[k])
				}
			}
		})
	}
}

func TestQuarterTurn(t *testing.T) {
	const s = faceSide
	src := make([]float32, 3*s*s)
	for i := range src {
		src[i] = float32(i)
	}
	a, b := make([]float32, len(src)), make([]float32, len(src))
	quarterTurn(a, src)
	// The top-left pixel of each plane goes to the top-right.
	for c := range 3 {
		if got, want := a[c*s*s+s-1], src[c*s*s]; got != want {
			t.Errorf("plane %d: top-right after a turn is %v, want %v", c, got, want)
		}
	}
	quarterTurn(b, a)
	quarterTurn(a, b)
	quarterTurn(b, a)
	for i := range src {
		if b[i] != src[i] {
			t.Fatalf("four turns moved value %d to %v", i, b[i])
		}
	}
}

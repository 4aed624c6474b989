package vision

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCardSampleCellsMatchesGo checks the cell sampling in C
// (sampleCells: tc_sample_cells) against the Go loops it replaced
// (sampleCellsGo), bit for bit: every cell's mean and the spread, on grey
// and colour pictures, for quads inside, across and outside the picture,
// turned and foreshortened, and of 4×4, 5×5 and 6×6 markers.
func TestCardSampleCellsMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for _, bits := range []int{4, 5, 6} {
		cb := &cardCodebook{bits: bits}
		for trial := range 300 {
			w, h := 5+rng.IntN(300), 5+rng.IntN(200)
			cn := []int{1, 3}[trial%2]
			g := cardGrey{pix: make([]byte, w*h*max(cn, 1)), w: w, h: h, cn: cn}
			for i := range g.pix {
				g.pix[i] = byte(rng.IntN(256))
			}
			cx, cy := rng.Float64()*float64(w+40)-20, rng.Float64()*float64(h+40)-20
			s, a := 3+rng.Float64()*60, rng.Float64()*2*math.Pi
			var q [4]Point2f
			for k := range q {
				ak := a + float64(k)*math.Pi/2
				f := 1 + 0.3*(rng.Float64()-0.5)
				q[k] = Point2f{float32(cx + s*f*math.Cos(ak)), float32(cy + s*f*math.Sin(ak))}
			}
			var sc, sg cardDecodeScratch
			vals, spread, ok := cb.sampleCells(g, q, &sc)
			hm, hok := cardModuleH(q, float64(bits+2))
			if ok != hok {
				t.Fatalf("bits %d, trial %d: sampled %v, homography %v", bits, trial, ok, hok)
			}
			if !ok {
				continue
			}
			G := bits + 4
			sg.vals = make([]float64, G*G)
			want, wspread, _ := cb.sampleCellsGo(g, &hm, bits+2, sg.vals)
			if !slices.Equal(vals, want) || spread != wspread {
				t.Fatalf("bits %d, trial %d (%d channels): cells or spread differ from Go's (spread %v, Go %v)", bits, trial, cn, spread, wspread)
			}
		}
	}
}

package index

import (
	"image"
	"image/color"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// TestCardBoxBlur checks boxBlur against the mean of each pixel's
// (2k+1)² neighbours, the border replicated, summed directly: equal to
// rounding, on random images of several scales and radii.
func TestCardBoxBlur(t *testing.T) {
	const n = fineN
	rng := rand.New(rand.NewPCG(1, 2))
	clamp := func(v int) int { return max(0, min(n-1, v)) }
	var g, out, tmp [fineD]float64
	for trial := range 20 {
		scale := math.Pow(10, float64(trial%5-2))
		for i := range g {
			g[i] = (rng.Float64() - 0.5) * 255 * scale
		}
		for _, k := range []int{smoothRadius, lowCutRadius, 1, 40} {
			boxBlur(&g, &out, &tmp, k)
			for y := 0; y < n; y += 7 {
				for x := 0; x < n; x += 5 {
					s := 0.0
					for dy := -k; dy <= k; dy++ {
						for dx := -k; dx <= k; dx++ {
							s += g[clamp(y+dy)*n+clamp(x+dx)]
						}
					}
					want := s / float64((2*k+1)*(2*k+1))
					if math.Abs(out[y*n+x]-want) > 1e-9*255*scale {
						t.Fatalf("trial %d, radius %d, pixel (%d, %d): %v, want %v", trial, k, x, y, out[y*n+x], want)
					}
				}
			}
		}
	}
}

// An example's entries are kept as found and grown (add), and a saved
// index loads them so: the grown ones known again.
func TestCardIndexGrownEntries(t *testing.T) {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 140, 90, 0), 480, 640, gocv.MatTypeCV8UC3)
	defer img.Close()
	gocv.Rectangle(&img, image.Rect(220, 120, 420, 400), color.RGBA{230, 225, 215, 0}, -1)
	gocv.Rectangle(&img, image.Rect(250, 160, 390, 260), color.RGBA{40, 50, 160, 0}, -1)
	gocv.Circle(&img, image.Pt(320, 330), 30, color.RGBA{200, 60, 40, 0}, -1)
	ix := New()
	for _, id := range []string{"a", "b"} {
		if err := ix.AddExample(id, img); err != nil {
			t.Fatal(err)
		}
	}
	loaded := indexReloaded(t, ix)
	for name, x := range map[string]*Index{"taught": ix, "loaded": loaded} {
		if len(x.entries) != 4 {
			t.Fatalf("%s: %d entries, want 4", name, len(x.entries))
		}
		for i, e := range x.entries {
			if e.Grown != (i%2 == 1) {
				t.Errorf("%s: entry %d grown %v", name, i, e.Grown)
			}
		}
	}
}

// TestCardShortlistHashes: the shortlist, which reads the entries' hashes
// kept side by side (ix.hashes), keeps them in step with the entries as
// cards are taught (add) and loaded (Load), and lists what the
// entries' own hashes list; with entries set directly (ix.hashes shorter)
// it reads the entries.
func TestCardShortlistHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 3))
	ix := New()
	for c := range 12 {
		img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 140, 90, 0), 360, 480, gocv.MatTypeCV8UC3)
		gocv.Rectangle(&img, image.Rect(160, 80, 320, 300), color.RGBA{230, 225, 215, 0}, -1)
		for range 4 {
			x, y := 170+rng.IntN(120), 90+rng.IntN(180)
			gocv.Rectangle(&img, image.Rect(x, y, x+10+rng.IntN(30), y+10+rng.IntN(30)), color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0}, -1)
		}
		err := ix.AddExample(string(rune('a'+c)), img)
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	loaded := indexReloaded(t, ix)
	// The shortlist as the entries give it: every entry's nearest turn,
	// nearest first, ties in the entries' order.
	want := func(x *Index, q *[4]Desc, n int) []cand {
		var all []cand
		for i := range x.entries {
			h := 64
			for r := range 4 {
				h = min(h, bits.OnesCount64(q[r].hash^x.entries[i].Desc.hash))
			}
			all = append(all, cand{i, h})
		}
		slices.SortStableFunc(all, func(a, b cand) int { return a.ham - b.ham })
		return all[:min(n, len(all))]
	}
	direct := &Index{entries: slices.Clone(ix.entries[:len(ix.entries)-2])}
	for name, x := range map[string]*Index{"taught": ix, "loaded": loaded, "entries set directly": direct} {
		if name != "entries set directly" && (len(x.hashes) != len(x.entries) || len(x.entries) != 24) {
			t.Fatalf("%s: %d hashes for %d entries, want 24", name, len(x.hashes), len(x.entries))
		}
		for i := range x.hashes {
			if x.hashes[i] != x.entries[i].Desc.hash {
				t.Fatalf("%s: hash %d is %x, its entry's %x", name, i, x.hashes[i], x.entries[i].Desc.hash)
			}
		}
		for k := range 40 {
			var q [4]Desc
			for r := range 4 {
				q[r].hash = rng.Uint64()
				if k%2 == 1 { // near a taught entry
					q[r].hash = x.entries[rng.IntN(len(x.entries))].Desc.hash ^ 1<<rng.IntN(64)
				}
			}
			var buf [shortlist]cand
			if got, w := x.shortlist(&q, buf[:]), want(x, &q, shortlist); !slices.Equal(got, w) {
				t.Fatalf("%s: query %d: shortlist %v, want %v", name, k, got, w)
			}
		}
	}
}

// indexReloaded saves ix to a temporary directory and loads it back.
func indexReloaded(t *testing.T, ix *Index) *Index {
	t.Helper()
	dir := t.TempDir()
	if err := ix.Save(dir); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}

// TestCardTurnFine: turnFine puts each pixel of the fine grey image
// where rotStrides says a turn r×90° clockwise takes it, for the four
// turns, on a patterned image and on random ones.
func TestCardTurnFine(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var in, out [fineD]int8
	for trial := range 20 {
		for i := range in {
			in[i] = int8(i*7 + i/fineN)
			if trial > 0 {
				in[i] = int8(rng.IntN(256) - 128)
			}
		}
		for r := range 4 {
			clear(out[:])
			turnFine(&out, &in, r)
			base, sy, sx := rotStrides(r, fineN)
			for y := range fineN {
				for x := range fineN {
					if got, want := out[y*fineN+x], in[base+y*sy+x*sx]; got != want {
						t.Fatalf("trial %d, turn %d, pixel (%d, %d): %d, want %d", trial, r, x, y, got, want)
					}
				}
			}
		}
	}
}

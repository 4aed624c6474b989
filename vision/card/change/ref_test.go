package change

import (
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// TestCardRefChangedC checks that changed (tc_ref_changed) marks the same
// pixels as the Go loops: frames of a random table under an exposure
// shift, with cards (any colour), shadows (every channel darkened by one
// factor, near the shadow test's bounds), dark pixels and noise; in every
// other frame they come in blocks of 4×4 pixels, its shadows noisy (what
// shadowNearRef leaves out), and in two frames of eight in blocks of
// 12×12 pixels.
func TestCardRefChangedC(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 44))
	for trial := range 40 {
		w, h := 40+rng.IntN(300), 30+rng.IntN(200)
		n := w * h
		ref, cur, kinds := make([]byte, 3*n), make([]byte, 3*n), make([]int, n)
		shift := [3]int{rng.IntN(41) - 20, rng.IntN(41) - 20, rng.IntN(41) - 20}
		plain := trial%4 <= 1 // a plain table: the median is the shift
		block, noise := 1, 1
		if trial%2 == 1 {
			block, noise = 4, 4
		}
		if trial%8 >= 6 {
			// Regions of 12×12 pixels: runs of 16 pixels of table
			// (tc_ref_quiet16's) whole, and cut by a change anywhere.
			block = 12
		}
		bw := (w + block - 1) / block
		nb := bw * ((h + block - 1) / block)
		bKind, bF := make([]int, nb), make([]float64, nb)
		for b := range nb {
			bKind[b] = rng.IntN(10)
			bF[b] = 0.25 + 0.8*rng.Float64() // a shadow's factor
		}
		for i := range n {
			b := (i/w)/block*bw + (i%w)/block
			kind, f := bKind[b], bF[b]
			kinds[i] = kind
			for k := range 3 {
				r := rng.IntN(256)
				if plain {
					r = 40 + rng.IntN(20)
				}
				ref[3*i+k] = byte(r)
				c := r + shift[k]
				switch {
				case kind == 0: // a card
					c = rng.IntN(256)
				case kind == 1: // a shadow
					c = int(f*float64(r+4)) - 4 + shift[k] + rng.IntN(2*noise+1) - noise
				case kind == 2: // noise
					c += rng.IntN(61) - 30
				}
				cur[3*i+k] = byte(min(255, max(0, c)))
			}
		}
		want, wantN := changedGo(cur, ref, w, h)
		c := NewRef()
		curM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, cur)
		if err != nil {
			t.Fatal(err)
		}
		refM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, ref)
		if err != nil {
			t.Fatal(err)
		}
		curM.CopyTo(&c.Cur) // into NewRef's Mats
		refM.CopyTo(&c.Small)
		curM.Close()
		refM.Close()
		few, err := c.Changed()
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Mask.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		gotN, shadows, near := 0, 0, 0
		for i := range n {
			if got[i] != want[i] {
				t.Fatalf("trial %d (%d×%d): pixel %d: C %d, Go %d", trial, w, h, i, got[i], want[i])
			}
			if got[i] != 0 {
				gotN++
			}
		}
		if few != (float64(wantN) <= cardRefMaxShare*float64(n)) {
			t.Fatalf("trial %d: C says few changed %v with %d of %d", trial, few, wantN, n)
		}
		for i := range n { // shadows left out that differ enough to count
			d := 0
			for k := range 3 {
				d = max(d, absInt(int(cur[3*i+k])-int(ref[3*i+k])-shift[k]))
			}
			if kinds[i] == 1 && want[i] == 0 && d >= cardRefLevel+2 {
				shadows++
				if !shadowRef(cur[3*i:3*i+3], ref[3*i:3*i+3], shift) {
					near++ // left out by shadowNearRef alone
				}
			}
		}
		if gotN == 0 || gotN == n || (plain && shadows == 0) || (plain && block > 1 && near == 0) {
			t.Fatalf("trial %d: %d of %d changed, %d shadows (%d by the pixels around): the frame tests too little", trial, gotN, n, shadows, near)
		}
		c.Close()
	}
}

// TestCardRefGainSums: gain is each channel's sum over the unchanged
// pixels of the frame over the reference's, on random pictures and masks;
// one of more than 2^20 pixels of 255 (sums beyond 32 bits).
func TestCardRefGainSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 66))
	for trial := range 12 {
		w, h := 1+rng.IntN(400), 1+rng.IntN(300)
		if trial == 0 {
			w, h = 1100, 1000
		}
		n := w * h
		cur, ref, mask := make([]byte, 3*n), make([]byte, 3*n), make([]byte, n)
		share := rng.IntN(11) // tenths masked
		for i := range n {
			for k := range 3 {
				cur[3*i+k], ref[3*i+k] = byte(rng.IntN(256)), byte(rng.IntN(256))
				if trial == 0 {
					cur[3*i+k] = 255
				}
			}
			if rng.IntN(10) < share {
				mask[i] = 255
			}
		}
		var sc, sr [3]uint64
		for i := range n {
			if mask[i] == 0 {
				for k := range 3 {
					sc[k] += uint64(cur[3*i+k])
					sr[k] += uint64(ref[3*i+k])
				}
			}
		}
		c := NewRef()
		c.Mask.Close()
		c.Mask = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
		got := c.Gain(cur, ref, mask)
		for k := range 3 {
			if want := float64(sc[k]) / max(1, float64(sr[k])); got[k] != want {
				t.Fatalf("trial %d (%d×%d): channel %d gain %v, want %v", trial, w, h, k, got[k], want)
			}
		}
		c.Close()
	}
}

// TestCardRefShrinkSize: the reference and the frame are shrunk by
// Shrink with the sides rounded up, so that a place found in the
// quarter covers the frame's last rows and columns.
func TestCardRefShrinkSize(t *testing.T) {
	for _, c := range []struct{ w, h, wantW, wantH int }{{1280, 720, 320, 180}, {42, 30, 11, 8}, {1, 1, 1, 1}} {
		src := gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC3)
		out := gocv.NewMat()
		ShrinkTo(src, &out)
		if out.Cols() != c.wantW || out.Rows() != c.wantH || out.Type() != gocv.MatTypeCV8UC3 {
			t.Errorf("%d×%d shrunk to %d×%d %v, want %d×%d 8-bit BGR", c.w, c.h, out.Cols(), out.Rows(), out.Type(), c.wantW, c.wantH)
		}
		src.Close()
		out.Close()
	}
}

// TestCardQuadRowSpanMatchesTests checks that RowSpan is exactly
// the points of a row that pass geom.InQuad (so that changedIn counts
// what testing every point counted), for quads of every shape and
// orientation, degenerate ones included.
func TestCardQuadRowSpanMatchesTests(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const s = Shrink
	px := func(x int) float32 { return float32(x*s + s/2) }
	for trial := range 3000 {
		var q [4]geom.Point
		cx, cy, r := rng.Float64()*400, rng.Float64()*300, 1+rng.Float64()*200
		for k := range q {
			a := 2*math.Pi*float64(k)/4 + rng.Float64()
			if trial%2 == 0 {
				a = -a // anticlockwise too
			}
			q[k] = geom.Point{X: float32(cx + r*math.Cos(a)*(0.2+rng.Float64())), Y: float32(cy + r*math.Sin(a)*(0.2+rng.Float64()))}
			if trial%5 == 0 {
				q[k].X = float32(int(q[k].X)) // whole pixels, sides along rows
				q[k].Y = float32(int(q[k].Y))
			}
		}
		if trial%7 == 0 {
			q[2] = q[1] // degenerate
		}
		for y := -2; y < 120; y++ {
			py := float32(y*s + s/2)
			x0, x1 := RowSpan(q, py, s, -5, 130)
			for x := -5; x < 130; x++ {
				in := geom.InQuad(geom.Point{X: px(x), Y: py}, q)
				if in != (x >= x0 && x < x1) {
					t.Fatalf("trial %d, quad %v, row %d: point %d in the quad %v, the span is %d…%d", trial, q, y, x, in, x0, x1)
				}
			}
		}
	}
}

// changedGo is Ref.Changed's loops in Go, the reference
// tc_ref_changed is tested against: the mask of cur (w×h BGR pixels)
// against ref, and how many pixels changed.
func changedGo(cur, ref []byte, w, h int) ([]byte, int) {
	n := w * h
	var hist [3][511]int32
	for i := range n {
		for k := range 3 {
			hist[k][int(cur[3*i+k])-int(ref[3*i+k])+255]++
		}
	}
	var off [3]int
	for k := range 3 {
		sum := int32(0)
		for v, m := range hist[k] {
			if sum += m; int(sum) > n/2 {
				off[k] = v - 255
				break
			}
		}
	}
	out := make([]byte, n)
	changed := 0
	for i := range n {
		d := 0
		for k := range 3 {
			v := int(cur[3*i+k]) - int(ref[3*i+k]) - off[k]
			d = max(d, v, -v)
		}
		if d >= cardRefLevel && !shadowRef(cur[3*i:3*i+3], ref[3*i:3*i+3], off) && !shadowNearRef(cur, ref, w, h, i, off) {
			out[i] = 255
			changed++
		}
	}
	return out, changed
}

// shadowRef reports whether the pixel cur is the table's ref in a
// shadow: every channel darker by about the same factor (exposure offset
// off taken out).
func shadowRef(cur, ref []byte, off [3]int) bool {
	var c, r [3]float64
	for k := range 3 {
		c[k], r[k] = float64(int(cur[k])-off[k]), float64(ref[k])
	}
	return shadowOf(c, r)
}

// shadowOf is shadowRef's test of the channels c (the exposure
// offset taken out) against r.
func shadowOf(c, r [3]float64) bool {
	lo, hi := 2.0, 0.0
	for k := range 3 {
		if c[k] >= r[k]-4 || r[k] < 12 {
			return false
		}
		f := (c[k] + 4) / (r[k] + 4)
		lo, hi = min(lo, f), max(hi, f)
	}
	return lo > cardRefShadowMin && hi-lo < cardRefShadowSpread
}

// shadowNearRef reports whether the 3×3 pixels around pixel i of cur
// (w×h) are the table's ref in a soft shadow: each darker by more than
// cardRefShadowNearDark over its channels, their factors less than
// cardRefShadowNearRange apart, their means a shadow's (shadowOf).
func shadowNearRef(cur, ref []byte, w, h, i int, off [3]int) bool {
	x, y := i%w, i/w
	var sc, sr [3]int
	n := 0
	var flo, fhi float64
	for yy := max(0, y-1); yy <= min(h-1, y+1); yy++ {
		for xx := max(0, x-1); xx <= min(w-1, x+1); xx++ {
			j := 3 * (yy*w + xx)
			cs, rs := -(off[0] + off[1] + off[2]), 0
			for k := range 3 {
				sc[k] += int(cur[j+k])
				sr[k] += int(ref[j+k])
				cs += int(cur[j+k])
				rs += int(ref[j+k])
			}
			if cs >= rs-cardRefShadowNearDark {
				return false
			}
			f := float64(cs+12) / float64(rs+12)
			if n == 0 {
				flo, fhi = f, f
			}
			flo, fhi = min(flo, f), max(fhi, f)
			n++
		}
	}
	if fhi-flo >= cardRefShadowNearRange {
		return false
	}
	var c, r [3]float64
	for k := range 3 {
		c[k], r[k] = float64(sc[k])/float64(n)-float64(off[k]), float64(sr[k])/float64(n)
	}
	return shadowOf(c, r)
}

func absInt(v int) int { return max(v, -v) }

// BenchmarkCardRefChanged marks what changed (tc_ref_changed) on a 720p
// frame's quarter: a textured table with the camera's noise, four cards of
// art (about a sixth of the frame) and a shadow beside each.
func BenchmarkCardRefChanged(b *testing.B) {
	const w, h = 320, 180
	rng := rand.New(rand.NewPCG(8, 88))
	ref, cur := make([]byte, 3*w*h), make([]byte, 3*w*h)
	for i := range w * h {
		for k := range 3 {
			r := 60 + 20*k + int(8*math.Sin(float64(i%w)/7+float64(i/w)/11)) + rng.IntN(5)
			ref[3*i+k] = byte(r)
			cur[3*i+k] = byte(r + rng.IntN(7) - 3)
		}
	}
	for c := range 4 {
		x0, y0 := 20+75*c, 30+20*(c%2)
		for y := y0; y < y0+75; y++ {
			for x := x0; x < x0+52; x++ {
				i := y*w + x
				for k := range 3 {
					cur[3*i+k] = byte(rng.IntN(256))
				}
			}
			for x := x0 + 52; x < x0+60; x++ { // its shadow
				i := y*w + x
				for k := range 3 {
					cur[3*i+k] = byte(int(ref[3*i+k]) * 6 / 10)
				}
			}
		}
	}
	c := NewRef()
	defer c.Close()
	curM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, cur)
	if err != nil {
		b.Fatal(err)
	}
	refM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, ref)
	if err != nil {
		b.Fatal(err)
	}
	curM.CopyTo(&c.Cur)
	refM.CopyTo(&c.Small)
	curM.Close()
	refM.Close()
	for b.Loop() {
		if _, err := c.Changed(); err != nil {
			b.Fatal(err)
		}
	}
}

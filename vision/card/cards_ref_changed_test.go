package card

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// cardRefChangedGo is cardRef.changed's loops in Go, the reference
// tc_ref_changed is tested against: the mask of cur (w×h BGR pixels)
// against ref, and how many pixels changed.
func cardRefChangedGo(cur, ref []byte, w, h int) ([]byte, int) {
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
		if d >= cardRefLevel && !cardRefShadow(cur[3*i:3*i+3], ref[3*i:3*i+3], off) && !cardRefShadowNear(cur, ref, w, h, i, off) {
			out[i] = 255
			changed++
		}
	}
	return out, changed
}

// cardRefShadow reports whether the pixel cur is the table's ref in a
// shadow: every channel darker by about the same factor (exposure offset
// off taken out).
func cardRefShadow(cur, ref []byte, off [3]int) bool {
	var c, r [3]float64
	for k := range 3 {
		c[k], r[k] = float64(int(cur[k])-off[k]), float64(ref[k])
	}
	return cardRefShadowOf(c, r)
}

// cardRefShadowOf is cardRefShadow's test of the channels c (the exposure
// offset taken out) against r.
func cardRefShadowOf(c, r [3]float64) bool {
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

// cardRefShadowNear reports whether the 3×3 pixels around pixel i of cur
// (w×h) are the table's ref in a soft shadow: each darker by more than
// cardRefShadowNearDark over its channels, their factors less than
// cardRefShadowNearRange apart, their means a shadow's (cardRefShadowOf).
func cardRefShadowNear(cur, ref []byte, w, h, i int, off [3]int) bool {
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
	return cardRefShadowOf(c, r)
}

// TestCardRefChangedC checks that changed (tc_ref_changed) marks the same
// pixels as the Go loops: frames of a random table under an exposure
// shift, with cards (any colour), shadows (every channel darkened by one
// factor, near the shadow test's bounds), dark pixels and noise; in every
// other frame they come in blocks of 4×4 pixels, its shadows noisy (what
// cardRefShadowNear leaves out), and in two frames of eight in blocks of
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
		want, wantN := cardRefChangedGo(cur, ref, w, h)
		c := newCardRef()
		curM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, cur)
		if err != nil {
			t.Fatal(err)
		}
		refM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, ref)
		if err != nil {
			t.Fatal(err)
		}
		curM.CopyTo(&c.cur) // into newCardRef's Mats
		refM.CopyTo(&c.small)
		curM.Close()
		refM.Close()
		few, err := c.changed()
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.mask.DataPtrUint8()
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
				if !cardRefShadow(cur[3*i:3*i+3], ref[3*i:3*i+3], shift) {
					near++ // left out by cardRefShadowNear alone
				}
			}
		}
		if gotN == 0 || gotN == n || (plain && shadows == 0) || (plain && block > 1 && near == 0) {
			t.Fatalf("trial %d: %d of %d changed, %d shadows (%d by the pixels around): the frame tests too little", trial, gotN, n, shadows, near)
		}
		c.close()
	}
}

func absInt(v int) int { return max(v, -v) }

// cardReaderShrunk is a reader whose reference holds a shrunk frame,
// reference and mask of w×h pixels (blobFree's inputs; the caller sets
// their pixels and closes r.ref).
func cardReaderShrunk(w, h int) *Reader {
	r := &Reader{ref: newCardRef()}
	r.ref.mask.Close()
	r.ref.cur.Close()
	r.ref.small.Close()
	r.ref.mask = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	r.ref.cur = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	r.ref.small = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	return r
}

// TestCardBlobFreeRows checks blobFree (cards read tested row by row,
// stickers far off skipped before math.Hypot) against its test of every
// changed pixel by cardReadAt and the distance to each sticker, and of
// the rest by the cards read grown by cardRefRim: random masks and skin
// under cards read (turned, one with a corner far out), an unknown
// reading (not a card read) and stickers.
func TestCardBlobFreeRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 55))
	const s = cardRefShrink
	const w, h = 320, 180 // the shrunk mask of a 1280×720 frame
	for trial := range 30 {
		r := cardReaderShrunk(w, h)
		mask, _ := r.ref.mask.DataPtrUint8()
		cur, _ := r.ref.cur.DataPtrUint8()
		for i := range mask {
			if rng.IntN(3) > 0 {
				mask[i] = 255
			}
			if rng.IntN(4) == 0 { // skin
				cur[3*i], cur[3*i+1], cur[3*i+2] = 90, 130, 200
			} else {
				cur[3*i], cur[3*i+1], cur[3*i+2] = byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))
			}
		}
		var out []Reading
		for k := range 4 {
			cx, cy := 100+rng.Float64()*1080, 100+rng.Float64()*520
			a, hw, hh := rng.Float64()*math.Pi, 40+rng.Float64()*80, 60+rng.Float64()*100
			var q [4]geom.Point
			for j, sg := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				x, y := sg[0]*hw, sg[1]*hh
				q[j] = geom.Point{X: float32(cx + x*math.Cos(a) - y*math.Sin(a)), Y: float32(cy + x*math.Sin(a) + y*math.Cos(a))}
			}
			id := "a-card"
			switch k {
			case 1:
				q[2] = geom.Point{X: 3e7, Y: 3e7} // a corner far out: tested point by point
			case 3:
				id = Unknown
			}
			out = append(out, Reading{ID: id, Corners: q})
		}
		r.reads = r.reads[:0]
		for range 2 {
			r.reads = append(r.reads, marker.Sticker{Marker: marker.Marker{Center: geom.Point{X: float32(rng.Float64() * 1280), Y: float32(rng.Float64() * 720)}, Side: 10 + rng.Float64()*20}})
		}
		b := cardRefBlob{box: image.Rect(rng.IntN(400), rng.IntN(200), 700+rng.IntN(580), 400+rng.IntN(320))}
		l := r.blobFree(b, out)
		// Every changed pixel of the blob's box, tested as it was.
		nf, ns, nr, read, near, rim := 0, 0, 0, 0, 0, 0
		sb := image.Rect(b.box.Min.X/s, b.box.Min.Y/s, b.box.Max.X/s, b.box.Max.Y/s)
		for y := sb.Min.Y; y < sb.Max.Y; y++ {
			for x := sb.Min.X; x < sb.Max.X; x++ {
				if mask[y*w+x] == 0 {
					continue
				}
				p := geom.Point{X: float32(x*s + s/2), Y: float32(y*s + s/2)}
				if cardReadAt(out, p) {
					read++
					continue
				}
				stuck := false
				for _, m := range r.reads {
					stuck = stuck || geom.Dist(p, m.Marker.Center) < cardRefStickerReach*m.Marker.Side
				}
				if stuck {
					near++
					continue
				}
				nf++
				if geom.Skin(cur[3*(y*w+x):]) {
					ns++
					continue
				}
				onRim := false
				for _, rd := range out {
					if rd.ID != Unknown && geom.QuadFinite(rd.Corners) {
						a, c := geom.SideMeans(rd.Corners)
						onRim = onRim || geom.InQuad(p, geom.GrowQuad(rd.Corners, cardRefRim/max(1, min(a, c))))
					}
				}
				if onRim {
					rim++
				} else {
					nr++
				}
			}
		}
		if l.free != float64(nf*s*s) || l.skin != float64(ns*s*s) || l.rest != float64(nr*s*s) {
			t.Fatalf("trial %d: free %v skin %v rest %v, want %v %v %v", trial, l.free, l.skin, l.rest, nf*s*s, ns*s*s, nr*s*s)
		}
		if trial == 0 && (read == 0 || near == 0 || ns == 0 || rim == 0) {
			t.Fatalf("trial 0: %d pixels on cards read, %d near stickers, %d skin, %d on rims: the test tests too little", read, near, ns, rim)
		}
		r.ref.close()
	}
}

// TestCardBlobFreeShadow checks blobFree's shadow test on what is left of
// a blob: the table darkened by one factor is a shadow, a card's pixels
// are not, and neither is a shadow with a card read covering it and the
// card's pixels on its rim left (the rim is not tested).
func TestCardBlobFreeShadow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 77))
	const w, h = 320, 180
	blob := image.Rect(400, 200, 800, 520) // full resolution
	for _, c := range []struct {
		name   string
		card   bool // the blob's pixels are a card's, not the table's darkened
		read   bool // a card read covers the blob but its rim
		shadow bool
	}{
		{"shadow", false, false, true},
		{"card", true, false, false},
		{"card read, its rim left", true, true, false},
	} {
		r := cardReaderShrunk(w, h)
		mask, _ := r.ref.mask.DataPtrUint8()
		cur, _ := r.ref.cur.DataPtrUint8()
		ref, _ := r.ref.small.DataPtrUint8()
		sb := image.Rect(blob.Min.X/cardRefShrink, blob.Min.Y/cardRefShrink, blob.Max.X/cardRefShrink, blob.Max.Y/cardRefShrink)
		for y := range h {
			for x := range w {
				i := y*w + x
				in := image.Pt(x, y).In(sb)
				for k := range 3 {
					v := 150 - 30*k + rng.IntN(40) // a textured, bluish table (no skin colour)
					ref[3*i+k] = byte(v)
					cur[3*i+k] = byte(v)
					if in {
						cur[3*i+k] = byte(0.6*float64(v) + 0.5)
						if c.card { // bluish art: no skin colour
							cur[3*i+k] = byte([3]int{150, 0, 0}[k] + rng.IntN(100))
						}
					}
				}
				if in {
					mask[i] = 255
				}
			}
		}
		var out []Reading
		if c.read {
			// The card read lies 8 px inside the blob: its rim (10 px) covers the rest.
			q := [4]geom.Point{{X: 408, Y: 208}, {X: 792, Y: 208}, {X: 792, Y: 512}, {X: 408, Y: 512}}
			out = append(out, Reading{ID: "a-card", Corners: q})
		}
		l := r.blobFree(cardRefBlob{box: blob}, out)
		if l.shadow != c.shadow {
			t.Errorf("%s: shadow %v, want %v (left %+v)", c.name, l.shadow, c.shadow, l)
		}
		if c.read && l.rest != 0 {
			t.Errorf("%s: %v left beyond the rim, want 0", c.name, l.rest)
		}
		if !c.read && l.rest != float64(blob.Dx()*blob.Dy()) {
			t.Errorf("%s: %v left, want the blob's %d", c.name, l.rest, blob.Dx()*blob.Dy())
		}
		r.ref.close()
	}
}

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
	c := newCardRef()
	defer c.close()
	curM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, cur)
	if err != nil {
		b.Fatal(err)
	}
	refM, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, ref)
	if err != nil {
		b.Fatal(err)
	}
	curM.CopyTo(&c.cur)
	refM.CopyTo(&c.small)
	curM.Close()
	refM.Close()
	for b.Loop() {
		if _, err := c.changed(); err != nil {
			b.Fatal(err)
		}
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
		c := newCardRef()
		c.mask.Close()
		c.mask = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
		got := c.gain(cur, ref, mask)
		for k := range 3 {
			if want := float64(sc[k]) / max(1, float64(sr[k])); got[k] != want {
				t.Fatalf("trial %d (%d×%d): channel %d gain %v, want %v", trial, w, h, k, got[k], want)
			}
		}
		c.close()
	}
}

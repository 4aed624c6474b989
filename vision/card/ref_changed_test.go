package card

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// readerShrunk is a reader whose reference holds a shrunk frame,
// reference and mask of w×h pixels (blobFree's inputs; the caller sets
// their pixels and closes r.ref).
func readerShrunk(w, h int) *Reader {
	r := &Reader{ref: newRef()}
	r.ref.Mask.Close()
	r.ref.Cur.Close()
	r.ref.Small.Close()
	r.ref.Mask = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	r.ref.Cur = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	r.ref.Small = gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	return r
}

// TestCardBlobFreeRows checks blobFree (cards read tested row by row,
// stickers far off skipped before math.Hypot) against its test of every
// changed pixel by readAt and the distance to each sticker, and of
// the rest by the cards read grown by refRim: random masks and skin
// under cards read (turned, one with a corner far out), an unknown
// reading (not a card read) and stickers.
func TestCardBlobFreeRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 55))
	const s = change.Shrink
	const w, h = 320, 180 // the shrunk mask of a 1280×720 frame
	for trial := range 30 {
		r := readerShrunk(w, h)
		mask, _ := r.ref.Mask.DataPtrUint8()
		cur, _ := r.ref.Cur.DataPtrUint8()
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
		b := change.Blob{Box: image.Rect(rng.IntN(400), rng.IntN(200), 700+rng.IntN(580), 400+rng.IntN(320))}
		l := r.blobFree(b, out)
		// Every changed pixel of the blob's box, tested as it was.
		nf, ns, nr, read, near, rim := 0, 0, 0, 0, 0, 0
		sb := image.Rect(b.Box.Min.X/s, b.Box.Min.Y/s, b.Box.Max.X/s, b.Box.Max.Y/s)
		for y := sb.Min.Y; y < sb.Max.Y; y++ {
			for x := sb.Min.X; x < sb.Max.X; x++ {
				if mask[y*w+x] == 0 {
					continue
				}
				p := geom.Point{X: float32(x*s + s/2), Y: float32(y*s + s/2)}
				if readAt(out, p) {
					read++
					continue
				}
				stuck := false
				for _, m := range r.reads {
					stuck = stuck || geom.Dist(p, m.Marker.Center) < refStickerReach*m.Marker.Side
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
						onRim = onRim || geom.InQuad(p, geom.GrowQuad(rd.Corners, refRim/max(1, min(a, c))))
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
		r := readerShrunk(w, h)
		mask, _ := r.ref.Mask.DataPtrUint8()
		cur, _ := r.ref.Cur.DataPtrUint8()
		ref, _ := r.ref.Small.DataPtrUint8()
		sb := image.Rect(blob.Min.X/change.Shrink, blob.Min.Y/change.Shrink, blob.Max.X/change.Shrink, blob.Max.Y/change.Shrink)
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
		l := r.blobFree(change.Blob{Box: blob}, out)
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

package card

// An outline read in vain is not read again while it lies still: an
// untaught card, a piece of the table that looks like a card, a taught
// card its outline misses, are compared with the taught cards in every
// frame (each outline several times: its alternatives, grown, fitted),
// and a card lying still that matched nothing in one frame matches
// nothing in the next (the same pixels but for the camera's noise). An
// outline is the same when it and each of its alternatives lie within
// fitSame pixels of the last frame's, and the picture sampled on a
// grid inside the last frame's outline differs from then by at most stillRead
// on average (a card put in its place, a hand over it, the light
// changing: it is read again). Like the fits of fit.go, on a live
// feed as on a repeated frame. Outlines taken for a taught card are read
// again in every frame; only the confirmation of their match by keypoints
// (refConfirms) is kept, for the same card in the same turn at the same
// outline over the same picture.

import (
	"image"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// stillRead is the mean difference (grey levels, of the three
// channels) of the picture inside an outline below which it lies still;
// stillGrid the grid's points on a side.
const (
	stillRead = 4.0
	stillGrid = 8
)

// readStill is an outline read in vain: the outline and its
// alternatives, its reading and the picture sampled inside it.
type readStill struct {
	q    [4]geom.Point
	alts [][4]geom.Point
	rd   Reading
	ok   bool
	m    index.Match
	ref  bool            // read with the reference (refConfirms)
	box  image.Rectangle // the outline whose match r.trace saw
	px   [3 * stillGrid * stillGrid]float32
}

// readStill returns the reading of outline o of img kept from the last
// frame when o was read in vain there and lies still (it is then kept for
// the next frame).
func (r *Reader) readStill(img gocv.Mat, o outline.Candidate) (readStill, bool) {
	if len(r.readLast) == 0 {
		return readStill{}, false
	}
	g, err := geom.ColourView(img)
	if err != nil {
		return readStill{}, false
	}
	var px [3 * stillGrid * stillGrid]float32
	for _, s := range r.readLast {
		if s.ref != r.refUsed || !stillQuad(s.q, o.Q) || len(s.alts) != len(o.Alts) {
			continue
		}
		same := true
		for k := range s.alts {
			same = same && stillQuad(s.alts[k], o.Alts[k])
		}
		if !same {
			continue
		}
		stillSample(g, s.q, &px) // the same points as then
		if stillNear(&px, &s.px) {
			r.readNow = append(r.readNow, s)
			return s, true
		}
	}
	return readStill{}, false
}

// keepRead notes that outline o of img was read in vain (rd, ok, m: its
// reading; box: the outline whose match r.trace saw) in this frame.
func (r *Reader) keepRead(img gocv.Mat, o outline.Candidate, rd Reading, ok bool, m index.Match, box image.Rectangle) {
	g, err := geom.ColourView(img)
	if err != nil {
		return
	}
	s := readStill{q: o.Q, alts: append([][4]geom.Point(nil), o.Alts...), rd: rd, ok: ok, m: m, ref: r.refUsed, box: box}
	stillSample(g, o.Q, &s.px)
	r.readNow = append(r.readNow, s)
}

// stillSample samples g (BGR) at a grid of points inside the outline q
// (each the mean of 3×3 samples) into px.
func stillSample(g geom.View, q [4]geom.Point, px *[3 * stillGrid * stillGrid]float32) {
	quadGrid(q, stillGrid, func(i int, x, y float64) {
		// The mean of 3×3 samples a pixel apart: an outline a pixel
		// off samples about the same.
		var c [3]float64
		for dy := -1.0; dy <= 1; dy++ {
			for dx := -1.0; dx <= 1; dx++ {
				v := g.At3(x+dx, y+dy)
				c[0], c[1], c[2] = c[0]+v[0], c[1]+v[1], c[2]+v[2]
			}
		}
		px[3*i], px[3*i+1], px[3*i+2] = float32(c[0]/9), float32(c[1]/9), float32(c[2]/9)
	})
}

// quadGrid calls f with the n×n points of a grid inside outline q,
// from a tenth of it in, row by row (i their index).
func quadGrid(q [4]geom.Point, n int, f func(i int, x, y float64)) {
	lerp := func(a, b geom.Point, t float64) (float64, float64) {
		return float64(a.X) + t*float64(b.X-a.X), float64(a.Y) + t*float64(b.Y-a.Y)
	}
	for v := range n {
		tv := 0.1 + 0.8*(float64(v)+0.5)/float64(n)
		lx, ly := lerp(q[0], q[3], tv)
		rx, ry := lerp(q[1], q[2], tv)
		for u := range n {
			tu := 0.1 + 0.8*(float64(u)+0.5)/float64(n)
			f(v*n+u, lx+tu*(rx-lx), ly+tu*(ry-ly))
		}
	}
}

// stillQuad reports whether every corner of b lies within fitSame
// pixels of a's.
func stillQuad(a, b [4]geom.Point) bool { return geom.QuadWithin(a, b, fitSame) }

// confirmStill is a confirmation of a match by keypoints
// (refConfirms): the outline, the card and its turn, whether the match
// decision took it, whether it stood, and the picture inside it.
type confirmStill struct {
	q            [4]geom.Point
	id           string
	rot          int
	took, stands bool
	px           [3 * stillGrid * stillGrid]float32
}

// A match that stood in the last frame stands again, its keypoints not
// searched, for the same card in the same turn at an outline within
// confirmMove pixels (every corner) of then, the picture sampled inside
// it differing from then by at most confirmMoveDiff on average: a card
// held in a hand trembles by a few pixels a frame (the outline and the
// picture inside it follow it), and what the keypoints refuse, a card of
// the same family, is not put in its place from one frame to the next. A
// match that did not stand is confirmed again unless it lies still.
// BenchmarkReadCards720pHeld's trembling held cards: 279 matches that stood
// in the last frame came again within confirmMove, their pictures
// 0.8 to 11.2 apart (median 4.2; the outline fitted to the card moves by a
// pixel or two against it).
const (
	confirmMove     = 8
	confirmMoveDiff = 12.0
)

// confirmStill is refConfirms(q, m) for outline q of img, the last frame's
// when it confirmed the same card and turn there, with the match decision
// the same, and q and the picture inside it lie still; or when the match
// stood there and q lies within confirmMove of it (it follows the card).
func (r *Reader) confirmStill(img gocv.Mat, q [4]geom.Point, m index.Match) (bool, error) {
	g, err := geom.ColourView(img)
	if err != nil || refClear(r.opts.Index, m) {
		return r.refConfirms(q, m) // clear: no keypoints searched
	}
	s := confirmStill{q: q, id: m.ID, rot: m.Rot, took: r.opts.Index.Accepts(m)}
	stillSample(g, q, &s.px) // where the card is now
	var then [3 * stillGrid * stillGrid]float32
	for _, l := range r.confirmLast {
		if l.id != s.id || l.rot != s.rot || l.took != s.took {
			continue
		}
		if l.stands && geom.QuadWithin(l.q, q, confirmMove) && meanDiff(l.px[:], s.px[:]) <= confirmMoveDiff {
			s.stands = true
			r.confirmNow = append(r.confirmNow, s)
			return true, nil
		}
		if !stillQuad(l.q, q) {
			continue
		}
		stillSample(g, l.q, &then) // the same points as then
		if stillNear(&l.px, &then) {
			r.confirmNow = append(r.confirmNow, l)
			return l.stands, nil
		}
	}
	if s.stands, err = r.refConfirms(q, m); err != nil {
		return false, err
	}
	r.confirmNow = append(r.confirmNow, s)
	return s.stands, nil
}

// startStill starts a frame: what was kept in the last one may be used in
// this one.
func (r *Reader) startStill() {
	r.readLast, r.readNow = r.readNow, r.readLast[:0]
	r.confirmLast, r.confirmNow = r.confirmNow, r.confirmLast[:0]
	r.stickerLast, r.stickerNow = r.stickerNow, r.stickerLast[:0]
}

// forgetStill forgets what was kept (a new reference).
func (r *Reader) forgetStill() {
	r.readNow, r.confirmNow, r.stickerNow = r.readNow[:0], r.confirmNow[:0], r.stickerNow[:0]
	r.ref.stillNow = r.ref.stillNow[:0]
	r.stopFollowing()
}

// stillNear reports whether the pictures a and b sampled inside an
// outline differ by at most stillRead on average.
func stillNear(a, b *[3 * stillGrid * stillGrid]float32) bool {
	return meanDiff(a[:], b[:]) <= stillRead
}

// meanDiff is the mean absolute difference of the samples a and b
// (as many).
func meanDiff(a, b []float32) float64 {
	sum := 0.0
	for i := range a {
		d := float64(a[i] - b[i])
		sum += max(d, -d)
	}
	return sum / float64(max(1, len(a)))
}

// A place searched in vain for stickers at full resolution is not
// searched again while it lies still (scanStickerPlaces): on a table with
// a printed pattern (a playmat) the dark blobs of a marker's size are many
// and read nothing, frame after frame. A place is the same when it lies
// within stillPlace pixels of the last frame's and the grey picture
// sampled on a grid over it (2×2 means) differs by at most
// stillPlaceDiff on average; a place searched in vain gives the same
// places to retry as in the last frame.
const (
	stillPlace     = 2
	stillPlaceDiff = 3.0
	stillPlaceGrid = 16
)

// stickerStill is a place searched in vain for stickers: the place,
// whether it was one retried, the places it gave to retry and the grey
// picture sampled over it.
type stickerStill struct {
	roi   image.Rectangle
	retry bool
	gave  []image.Rectangle
	px    [stillPlaceGrid * stillPlaceGrid]float32
}

// stickerStill returns the places to retry that roi (of the grey view g; a
// retry place when retry) gave in the last frame when it was searched in
// vain there and lies still (it is then kept for the next frame).
func (r *Reader) stickerStill(g geom.View, roi image.Rectangle, retry bool) ([]image.Rectangle, bool) {
	var px [stillPlaceGrid * stillPlaceGrid]float32
	for _, s := range r.stickerLast {
		if s.retry != retry || !stillBox(s.roi, roi, stillPlace) {
			continue
		}
		// The same points as then: a place a pixel off samples the
		// same picture.
		stillPlaceSample(g, s.roi, &px)
		if meanDiff(px[:], s.px[:]) <= stillPlaceDiff {
			r.stickerNow = append(r.stickerNow, s)
			return s.gave, true
		}
	}
	return nil, false
}

// keepSticker notes that roi (of the grey view g; a retry place when
// retry) was searched in vain in this frame and gave the places to retry
// gave.
func (r *Reader) keepSticker(g geom.View, roi image.Rectangle, retry bool, gave []image.Rectangle) {
	s := stickerStill{roi: roi, retry: retry, gave: append([]image.Rectangle(nil), gave...)}
	stillPlaceSample(g, roi, &s.px)
	r.stickerNow = append(r.stickerNow, s)
}

// stillPlaceSample samples the grey view g on a grid over roi, each
// point the mean of 2×2 pixels, into px.
func stillPlaceSample(g geom.View, roi image.Rectangle, px *[stillPlaceGrid * stillPlaceGrid]float32) {
	const n = stillPlaceGrid
	for v := range n {
		y := float64(roi.Min.Y) + (float64(v)+0.5)*float64(roi.Dy())/n - 0.5
		for u := range n {
			x := float64(roi.Min.X) + (float64(u)+0.5)*float64(roi.Dx())/n - 0.5
			px[v*n+u] = float32(g.At(x, y)) // between four pixels: their mean
		}
	}
}

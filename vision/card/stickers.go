package card

import (
	"fmt"
	"image"
	"math"
	"slices"

	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// scanStickerPlaces searches the places stickerPlaces chose (blobs: where
// its blobs lie in r.rois) for stickers at full resolution, then the small
// places that read nothing and the failed candidates with the retry
// thresholds; reads are added to r.reads.
func (r *Reader) scanStickerPlaces(g geom.View, blobs [2]int, maxSide float64, w, h int) error {
	r.retry = r.retry[:0]
	var was []marker.Sticker // the reads before a place's search
	for _, roi := range mergeRects(r.rois, image.Rect(0, 0, w, h)) {
		if gave, ok := r.stickerStill(g, roi, false); ok {
			r.retry = append(r.retry, gave...) // searched in vain, still
			continue
		}
		before, tried := len(r.reads), len(r.retry)
		was = append(was[:0], r.reads...)
		var err error
		r.reads, err = r.scanner.Scan(r.grey, g, roi, marker.PassFull, r.opts.MinMarkerSide, min(maxSide, float64(max(roi.Dx(), roi.Dy()))), r.reads)
		if err != nil {
			return fmt.Errorf("card: read cards: %w", err)
		}
		// Small places that read nothing (a candidate that did not
		// decode at half resolution, a card's outline) and the
		// candidates that failed anywhere get other thresholds: a
		// sticker whose quiet zone is a hair wide at the card's edge,
		// glare across a marker. A place that is only dark blobs and
		// held no candidate at all at full resolution does not: on
		// textured tables those are most retry places, and they read
		// nothing (training scenes: 0 of 2400 markers).
		if len(r.reads) == before && roi.Dx()*roi.Dy() <= retryArea && (len(r.scanner.Cands) > 0 || !onlyBlobs(roi, r.rois, blobs)) {
			r.retry = append(r.retry, roi)
		}
		for _, c := range r.scanner.Failed {
			if offSticker(geom.QuadCentre(c.Q), r.stickered) {
				continue
			}
			side := math.Sqrt(c.Area)
			r.retry = append(r.retry, geom.QuadBox(c.Q).Inset(-int(math.Ceil(0.6*side))-2))
		}
		if slices.Equal(was, r.reads) { // nothing read, nothing read better
			r.keepSticker(g, roi, false, r.retry[tried:])
		}
	}
	for _, roi := range mergeRects(r.retry, image.Rect(0, 0, w, h)) {
		if roi.Dx()*roi.Dy() > 4*retryArea {
			continue
		}
		if _, ok := r.stickerStill(g, roi, true); ok {
			continue
		}
		was = append(was[:0], r.reads...)
		for _, pass := range marker.PassRetry {
			n := len(r.reads)
			var err error
			r.reads, err = r.scanner.Scan(r.grey, g, roi, pass, r.opts.MinMarkerSide, min(maxSide, float64(max(roi.Dx(), roi.Dy()))), r.reads)
			if err != nil {
				return fmt.Errorf("card: read cards: %w", err)
			}
			if len(r.reads) > n {
				break
			}
		}
		if slices.Equal(was, r.reads) {
			r.keepSticker(g, roi, true, nil)
		}
	}
	return nil
}

// stickerReadings turns r.reads into readings, each boxed by its card's
// outline where one fits (r.onCard[i]: out[i] has it); used marks the
// outlines taken by a sticker, its card or its quiet zone.
func (r *Reader) stickerReadings(outlines []outline.Candidate, w, h int) ([]Reading, []bool) {
	var out []Reading
	r.onCard = r.onCard[:0]
	used := make([]bool, len(outlines))
	dict := r.markers.Dict().String()
	for k, m := range r.reads {
		id := m.Marker.ID
		rd := Reading{ID: Unknown, Marker: &id, Dictionary: dict, Method: MethodMarker,
			Confidence: m.Conf, Corners: m.Marker.Corners, Box: geom.QuadBox(m.Marker.Corners)}
		if e, ok := r.markers.Lookup(id); ok {
			rd.ID, rd.Kind = e.Content, e.Kind
		}
		// The card the sticker is on: the smallest re-fitted outline
		// that fits it (stickerFits) and holds no other sticker of
		// its size (a card carries one: such an outline spans two cards);
		// else the box is the marker's.
		best := -1
		for i, o := range outlines {
			if !o.Refined || !stickerFits(m.Marker, o.Q) || r.holdsOtherSticker(k, o.Q) {
				continue
			}
			if best < 0 || o.Area < outlines[best].Area {
				best = i
			}
		}
		if best >= 0 {
			used[best] = true
			rd.Box = geom.QuadBox(outlines[best].Q)
			rd.Corners = orderFrom(outlines[best].Q, m.Marker.Corners)
		}
		// Outlines that are just the sticker or its quiet zone, or hold
		// the sticker without being its card, go too.
		for i, o := range outlines {
			if !used[i] && (geom.InQuad(geom.QuadCentre(o.Q), m.Marker.Corners) || geom.InQuad(m.Marker.Center, o.Q)) {
				used[i] = true
			}
		}
		rd.Box = rd.Box.Intersect(image.Rect(0, 0, w, h))
		out = append(out, rd)
		r.onCard = append(r.onCard, best >= 0)
	}
	return out, used
}

// holdsOtherSticker reports whether q holds the centre of a marker read
// other than r.reads[k] and of about its size (within
// stickerSizeRatio).
func (r *Reader) holdsOtherSticker(k int, q [4]geom.Point) bool {
	mk := r.reads[k].Marker
	for j, o := range r.reads {
		ratio := o.Marker.Side / max(1, mk.Side)
		if j != k && ratio <= stickerSizeRatio && ratio >= 1/stickerSizeRatio && geom.InQuad(o.Marker.Center, q) {
			return true
		}
	}
	return false
}

// stickerPlaces puts in r.rois the places searched for stickers at full
// resolution: candidates that did not decode at half resolution (small
// ones), dark blobs of a small marker's size and, without the reference,
// the outlines with no sticker read, none on a card taken for a taught
// one. It returns where the blobs lie in r.rois.
func (r *Reader) stickerPlaces(outlines []outline.Candidate, learned learnedReads, w, h int) [2]int {
	r.rois = r.rois[:0]
	for _, c := range r.scanner.Failed {
		side := math.Sqrt(c.Area)
		if ctr := geom.QuadCentre(c.Q); side > 48 || learned.onTaught(ctr, outlines) || offSticker(ctr, r.stickered) {
			continue // large enough to have read at half resolution, or card art
		}
		r.rois = append(r.rois, geom.QuadBox(c.Q).Inset(-int(math.Ceil(0.6*side))-2))
	}
	// Dark blobs of a small marker's size, not already inside a marker
	// read, up to a sixth of the frame.
	blobs := [2]int{len(r.rois), len(r.rois)} // r.rois[blobs[0]:blobs[1]]
	blobArea := 0
	for _, b := range r.scanner.Blobs {
		ctr := geom.Point{X: float32(b.Min.X+b.Max.X) / 2, Y: float32(b.Min.Y+b.Max.Y) / 2}
		inside := false
		for _, m := range r.reads {
			if geom.InQuad(ctr, m.Marker.Corners) {
				inside = true
				break
			}
		}
		if inside || learned.onTaught(ctr, outlines) || offSticker(ctr, r.stickered) {
			continue
		}
		box := b.Inset(-max(b.Dx(), b.Dy())/2 - 2)
		if blobArea += box.Dx() * box.Dy(); blobArea > w*h/6 {
			break
		}
		r.rois = append(r.rois, box)
	}
	blobs[1] = len(r.rois)

	// Outlines come best first; the full-resolution search covers at most
	// a third of the frame. With the reference they are not searched: the
	// half-resolution search looked at every place that changed, and its
	// failed candidates and small dark blobs (above) are searched again
	// here: searching the outlines as well reads no sticker more
	// (TestCardsEvalMarkers with the reference).
	if r.refUsed {
		return blobs
	}
	area := 0
	for i, o := range outlines {
		if learned[i].taught() {
			continue // a card read (preReadOutlines)
		}
		box := geom.QuadBox(o.Q).Inset(-2)
		if !r.stickerIn(o.Q) && area+box.Dx()*box.Dy() <= w*h/3 {
			r.rois = append(r.rois, box)
			area += box.Dx() * box.Dy()
		}
	}
	return blobs
}

// A weaker marker read within stickerReach marker sides of a stronger
// one and more than stickerSizeRatio times larger or smaller is card
// art, not a second sticker (stickers are one size, cards about so).
const (
	stickerReach     = 3.5
	stickerSizeRatio = 2.0
)

// dropStrayStickers keeps one sticker per card among the marker readings
// out (r.reads in the same order; onCard: whether each one's card outline
// was found): a weaker read whose centre lies on the card of another (a
// panel of card art that happened to decode) goes; so does a weaker one of
// a very different size right next to another marker (within a card's
// length of it) when that one's card outline was not found. The markers
// kept whose card outline was not found are r.loose.
func (r *Reader) dropStrayStickers(out []Reading, onCard []bool) []Reading {
	keep := make([]Reading, 0, len(out))
	r.loose = r.loose[:0]
	for i, rd := range out {
		drop := false
		mi := r.reads[i].Marker
		for j, o := range out {
			if j == i || o.Confidence <= rd.Confidence {
				continue
			}
			mj := r.reads[j].Marker
			if onCard[j] && geom.InQuad(mi.Center, o.Corners) && !geom.InQuad(mj.Center, rd.Corners) {
				drop = true
				break
			}
			ratio := mi.Side / max(1, mj.Side)
			if geom.Dist(mi.Center, mj.Center) < stickerReach*mj.Side && (ratio > stickerSizeRatio || ratio < 1/stickerSizeRatio) {
				drop = true
				break
			}
		}
		if !drop {
			keep = append(keep, rd)
			if !onCard[i] {
				r.loose = append(r.loose, mi)
			}
		}
	}
	return keep
}

// stickerIn reports whether a sticker read so far (r.reads) lies in q.
func (r *Reader) stickerIn(q [4]geom.Point) bool {
	for _, m := range r.reads {
		if geom.InQuad(m.Marker.Center, q) {
			return true
		}
	}
	return false
}

// orderFrom turns the card outline q so that its first corner is the
// card's top-left as the sticker sees it (stickers are stuck upright): the
// corner farthest up and left in the marker's own coordinates.
func orderFrom(q, marker [4]geom.Point) [4]geom.Point {
	var src [4][2]float64
	for k, p := range marker {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	h, ok := geom.HomographyOf(src, [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}})
	best, bk := math.Inf(1), 0
	for k := range 4 {
		d := geom.Dist(q[k], marker[0])
		if ok {
			u, v := h.Apply(float64(q[k].X), float64(q[k].Y))
			d = u + v
		}
		if d < best {
			best, bk = d, k
		}
	}
	var out [4]geom.Point
	for k := range 4 {
		out[k] = q[(k+bk)%4]
	}
	return out
}

// mergeRects clips the rectangles to bounds and merges overlapping
// ones, so that no pixel is searched twice.
func mergeRects(rs []image.Rectangle, bounds image.Rectangle) []image.Rectangle {
	var out []image.Rectangle
	for _, r := range rs {
		r = r.Intersect(bounds)
		if r.Empty() {
			continue
		}
		out = append(out, r)
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(out) && !merged; i++ {
			for j := i + 1; j < len(out); j++ {
				if out[i].Overlaps(out[j]) {
					out[i] = out[i].Union(out[j])
					out = append(out[:j], out[j+1:]...)
					merged = true
					break
				}
			}
		}
	}
	return out
}

// onlyBlobs reports whether the places of rs that overlap roi all lie in
// rs[blobs[0]:blobs[1]].
func onlyBlobs(roi image.Rectangle, rs []image.Rectangle, blobs [2]int) bool {
	for i, x := range rs {
		if (i < blobs[0] || i >= blobs[1]) && x.Overlaps(roi) {
			return false
		}
	}
	return true
}

// stickerFits reports whether outline q can be the card the sticker m
// is on: the whole marker inside it, clear of its edges by a third of the
// marker (the quiet zone and a margin), its sides square to the marker's,
// the card from 2 to 6.5 marker sides wide and at most 8.5 long (a sticker
// is at least a sixth of its card's width) and its sides no more than 1.9
// times apart.
func stickerFits(m marker.Marker, q [4]geom.Point) bool {
	if !geom.QuadInQuad(m.Corners, q) {
		return false
	}
	// Stickers are stuck square to the card: every side of the card runs
	// within 20° of a side of the marker.
	ma := math.Atan2(float64(m.Corners[1].Y-m.Corners[0].Y), float64(m.Corners[1].X-m.Corners[0].X))
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		l := geom.Dist(a, b)
		if l == 0 {
			return false
		}
		turn := math.Mod(math.Atan2(float64(b.Y-a.Y), float64(b.X-a.X))-ma+4*math.Pi, math.Pi/2)
		if min(turn, math.Pi/2-turn) > 20*math.Pi/180 {
			return false
		}
		// Distance of the marker's centre from side k.
		d := math.Abs(float64(b.X-a.X)*float64(m.Center.Y-a.Y)-float64(b.Y-a.Y)*float64(m.Center.X-a.X)) / l
		if d < 0.5*m.Side+m.Side/3 {
			return false
		}
	}
	l0, l1 := geom.SideMeans(q)
	short, long := min(l0, l1), max(l0, l1)
	return short >= 2*m.Side && short <= 6.5*m.Side && long <= 8.5*m.Side && long <= 1.9*short
}

// retryArea is the largest place (px²) the retry passes search.
const retryArea = 140 * 140

// stickered is a card whose sticker was read: its outline and the
// marker's.
type stickered struct{ card, marker [4]geom.Point }

// stickerCards appends to out the re-fitted outlines that a sticker read so
// far (r.reads) fits (stickerFits): cards whose sticker is read. A card
// carries one sticker; what else looks like a marker on it, away from the
// sticker, is card art (a stray sticker, dropped, or a wrong one), so the
// full-resolution and retry searches leave it alone (offSticker).
func (r *Reader) stickerCards(outlines []outline.Candidate, out []stickered) []stickered {
	for _, o := range outlines {
		if !o.Refined {
			continue
		}
		for _, m := range r.reads {
			if stickerFits(m.Marker, o.Q) {
				out = append(out, stickered{o.Q, m.Marker.Corners})
				break
			}
		}
	}
	return out
}

// offSticker reports whether p lies on one of the cards cs but not on
// its sticker (where a second look may read the sticker better).
func offSticker(p geom.Point, cs []stickered) bool {
	for _, c := range cs {
		if geom.InQuad(p, c.card) && !geom.InQuad(p, c.marker) {
			return true
		}
	}
	return false
}

package card

import (
	"cmp"
	"image"
	"math"
	"math/bits"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
	"tablecam/vision/card/index"
	"tablecam/vision/geom"
)

// refConfirms reports whether the match m of outline q (a frame read
// with the reference) stands: a clear one does; else the keypoints of m's
// card must be found where q and m's turn put them (index.Keyer.verifyAt:
// the best of its taught examples), at least refMinFound and
// refMinShare of them; a match not accepted by the match decision but
// within refBand stands with refBandFound and refBandShare.
// With the reference more cards are outlined, and well, so more untaught
// ones come near a taught card (training scenes, 500 taught: false
// identifications 13 of 3658 untaught cards without a confirmation, 5
// without the reference); their keypoints do not agree, but for what a
// card shares with its family (frame, title bar, icons): a card of the
// same family finds up to 30% of them (training scenes, 500 taught).
func (r *Reader) refConfirms(q [4]geom.Point, m index.Match) (bool, error) {
	ix := r.opts.Index
	accepted := ix.Accepts(m)
	if refClear(ix, m) {
		return true, nil
	}
	if !accepted && !refBand(m) {
		return false, nil
	}
	return r.confirmAt(q, m, accepted)
}

// refClear reports whether the match m stands without its keypoints:
// accepted, and nearer than refSureRatio of the next card's distance;
// a masked match (fewer pixels compared) never does.
func refClear(ix *index.Index, m index.Match) bool {
	return ix.Accepts(m) && m.Mask == nil && m.Dist <= refSureRatio*m.Second
}

// confirmAt verifies the match m of outline q at its pose: accepted, the
// match decision took it; otherwise it is a near miss, which needs more of
// its card's keypoints found there.
func (r *Reader) confirmAt(q [4]geom.Point, m index.Match, accepted bool) (bool, error) {
	keys := r.opts.Index.KeysAll(m.ID, nil)
	if len(keys) == 0 {
		return accepted, nil // taught without keypoints: the match decides
	}
	// The card's top-left corner first, as taught.
	var corners [4]geom.Point
	for k := range 4 {
		corners[k] = q[(k+4-m.Rot)%4]
	}
	dist := r.distinct()
	shared := make([][]bool, len(keys))
	for i, ks := range keys {
		shared[i] = dist.SharedOf(m.ID, ks)
	}
	// A match the decision took stands by its found keypoints alone: the
	// examples are verified until one makes it stand as the best would
	// (all of them when traced).
	var enough index.Enough
	if accepted && r.ref.confirmTrace == nil {
		enough = index.Enough{Found: refMinFound, Share: refMinShare}
	}
	var first *index.Keyer // the first look's keyer, when it looked
	if r.ref.confirmTrace == nil {
		// A first look with the keypoints of the first pyramid level
		// alone (a subset of the full look's, for about half its ORB
		// time): a match it makes stand, stands (training scenes: 91% of
		// the accepted matches that stand do so at the first look, and
		// none stood there that the full look did not make stand). A
		// match in the band gets it too (most full looks are the band's).
		// There the first look can make stand a match the full look
		// would not (rarely: a card read right from a larger outline of
		// it). A full look after a first look takes that look's level
		// (verifyAfter).
		v, err := r.firstKeyer.VerifyUntil(r.grey, corners, keys, m.Mask, shared, enough)
		if err != nil {
			return false, err
		}
		if refVerified(accepted, v) {
			return true, nil
		}
		first = r.firstKeyer
	}
	// The full look takes the first look's keypoints as its first level's.
	v, err := r.keyer.VerifyAfter(first, r.grey, corners, keys, m.Mask, shared, enough)
	if err != nil {
		return false, err
	}
	if r.ref.confirmTrace != nil {
		r.ref.confirmTrace(q, m, v)
	}
	return refVerified(accepted, v), nil
}

// refVerified reports whether v, the verification at its pose of a
// match accepted by the match decision or not (within refBand), is
// enough for the match to stand.
func refVerified(accepted bool, v index.Verified) bool {
	n, share := v.Found, float64(v.Found)/float64(max(1, v.Taught))
	if accepted {
		return n >= refMinFound && share >= refMinShare
	}
	if n < refBandFound {
		return false
	}
	own := float64(v.DistinctFound) / float64(max(1, v.DistinctTaught))
	return share >= refBandShare ||
		share >= refDistinctShare && v.DistinctFound >= refDistinctFound && own >= refDistinctOwn ||
		share >= refSpreadShare && bits.OnesCount64(v.Cells) >= refSpreadCells &&
			bits.OnesCount64(v.DistinctCells) >= refSpreadDistinct
}

// refBand reports whether m, not accepted by the match decision, is
// near enough to be accepted when its card's keypoints are found.
func refBand(m index.Match) bool {
	return m.ID != "" && m.Dist <= refBandDist && m.Dist <= refBandRatio*m.Second
}

// refPlace is the place searched around a blob's box: a margin added,
// corners even (a place's half-resolution copy is then the frame's).
func (r *Reader) refPlace(box image.Rectangle) image.Rectangle {
	w, h := r.ref.Size.X, r.ref.Size.Y
	p := refAround(box, image.Rect(0, 0, w, h))
	p.Min.X, p.Min.Y = p.Min.X&^1, p.Min.Y&^1
	p.Max.X, p.Max.Y = min(w, (p.Max.X+1)&^1), min(h, (p.Max.Y+1)&^1)
	return p
}

// refAround is box with the search margin added, within bounds.
func refAround(box, bounds image.Rectangle) image.Rectangle {
	m := max(refMinMargin, int(refMargin*float64(max(box.Dx(), box.Dy()))))
	return box.Inset(-m).Intersect(bounds)
}

// searchChangedKeys searches the blobs that no card read in out covers
// for the keypoints of every taught card (at most refKeyPlaces of
// them, the largest first), when the frame was compared with a reference.
func (r *Reader) searchChangedKeys(img, grey gocv.Mat, gr geom.View, out []Reading, minW, maxW float64) ([]Reading, error) {
	r.ref.stillFrame()
	if !r.refUsed || len(r.ref.Blobs) == 0 {
		return out, nil
	}
	f := r.frameKeys()
	if len(f.hash.Desc) == 0 {
		return out, nil
	}
	if r.ref.keyer == nil {
		r.ref.keyer = index.NewKeyerWith(refKeyFeatures, index.FrameLevels)
	}
	cardArea := minW * minW * refAspect
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	order := make([]int, 0, len(r.ref.Blobs))
	for i, b := range r.ref.Blobs {
		if b.Area >= 0.5*cardArea {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.ref.Blobs[b].Area, r.ref.Blobs[a].Area) })
	searched := 0
	for _, i := range order {
		if searched >= refKeyPlaces {
			break
		}
		b := r.ref.Blobs[i]
		left := r.blobFree(b, out)
		if !refSearchable(left, b.Area, cardArea) {
			continue // read already; what is left is a hand, a shadow
		}
		free := left.free
		searched++
		if found, ok := r.ref.stillSearched(b.Box, free); ok {
			out = append(out, found...) // searched in the last frame, lying still
			continue
		}
		place := refAround(b.Box, bounds)
		// Keypoints only on what changed and is not read yet.
		f.maskRead(grey, out)
		if err := r.ref.MaskChanged(f.mask, place); err != nil {
			return nil, err
		}
		n := len(out)
		var err error
		t0 := r.times.now()
		a, c := geom.SideMeans(b.Rect)
		out, err = r.searchFrameKeys(img, grey, gr, out, r.ref.keyer, place, true, min(a, c), minW, maxW)
		r.times.since("  blobs searched for every card's keypoints", t0)
		if err != nil {
			return nil, err
		}
		r.ref.stillKeep(b.Box, free, out[n:])
	}
	return out, nil
}

// refSearchable reports whether a blob of area whose changed area no
// card read covers is l (blobFree) is searched for keypoints, cardArea the
// smallest card's area: what is left but skin must make half a card (a
// hand alone, a shadow is not searched; a card with warm art held by the
// hand is), and be refFree of the blob or refFreeRest cards (a
// card read and the hand holding it leave less; another card lying
// against it does not); and what is left beyond the rims of the cards
// read must make refRestMin cards and not be a shadow.
func refSearchable(l blobLeft, area, cardArea float64) bool {
	free, skin := l.free, l.skin
	if free < 0.5*cardArea || free-skin < 0.5*cardArea {
		return false
	}
	if l.rest < refRestMin*cardArea || l.shadow {
		return false
	}
	return free >= refFree*area || free-skin >= refFreeRest*cardArea
}

// blobLeft is what blobFree finds left of a blob once the cards read
// are taken out: free, the changed area (full-resolution pixels) no card
// read covers; skin, how much of it is skin-coloured; rest, free but the
// skin and the rim of refRim pixels around each card read; shadow,
// whether rest's pixels are the table darkened by about one factor
// (change.ShadowSums.shadow); unshaded (blobFreeOf with unknownToo only),
// rest's area outside the tiles where it is a shadow (change.Unshaded; 0
// when the whole is one, so never more than rest).
type blobLeft struct {
	free, skin, rest, unshaded float64
	shadow                     bool
}

// blobFree is what is left of blob b to search once the cards read in out
// (and a sticker read's card, within refStickerReach of its marker)
// are taken out; skin-coloured is a shadow of a warm table too (red over
// green over blue, clearly).
func (r *Reader) blobFree(b change.Blob, out []Reading) blobLeft {
	return r.blobFreeOf(b, out, false)
}

// blobFreeOf is blobFree, the unknown readings in out taken out too when
// unknownToo (cards followed: an untaught card is a card seen); then
// unshaded is found too.
func (r *Reader) blobFreeOf(b change.Blob, out []Reading, unknownToo bool) blobLeft {
	cur, ref, mask, ok := r.ref.ShadowData()
	if !ok {
		return blobLeft{}
	}
	const s = change.Shrink
	w := r.ref.Mask.Cols()
	sb := image.Rect(b.Box.Min.X/s, b.Box.Min.Y/s, b.Box.Max.X/s, b.Box.Max.Y/s).Intersect(image.Rect(0, 0, w, r.ref.Mask.Rows()))
	px := func(x int) float32 { return float32(x*s + s/2) }
	// The tiles of the soft-shadow test (change.Unshaded), row by row over
	// sb.
	const ts = change.ShadowTile
	tw := (sb.Dx() + ts - 1) / ts
	var tiles []change.ShadowSums
	if unknownToo {
		n := tw * ((sb.Dy() + ts - 1) / ts)
		r.ref.freeTiles = slices.Grow(r.ref.freeTiles[:0], n)[:n]
		tiles = r.ref.freeTiles
		clear(tiles)
	}
	// The cards read: each row's span on them (change.RowSpan: the very
	// test of readAt) and on them with their rim, but for corners too
	// far out (tested by point, without a rim).
	c := &r.ref
	c.freeReads, c.freeFar = c.freeReads[:0], c.freeFar[:0]
	for _, rd := range out {
		if rd.ID == Unknown && !unknownToo {
			continue
		}
		if geom.QuadFinite(rd.Corners) {
			// Each card read and, next, the card with its rim.
			ma, mb := geom.SideMeans(rd.Corners)
			c.freeReads = append(c.freeReads, rd.Corners, geom.GrowQuad(rd.Corners, refRim/max(1, min(ma, mb))))
		} else {
			c.freeFar = append(c.freeFar, rd.Corners)
		}
	}
	reads, far := c.freeReads, c.freeFar
	c.freeSpans = slices.Grow(c.freeSpans[:0], len(reads))[:len(reads)]
	spans := c.freeSpans
	nf, ns, nr := 0, 0, 0
	var sums change.ShadowSums
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		py := px(y)
		for k, q := range reads {
			spans[k][0], spans[k][1] = change.RowSpan(q, py, s, sb.Min.X, sb.Max.X)
		}
	pixels:
		for x := sb.Min.X; x < sb.Max.X; x++ {
			if mask[y*w+x] == 0 {
				continue
			}
			rim := false
			for k, sp := range spans {
				if x >= sp[0] && x < sp[1] {
					if k%2 == 0 {
						continue pixels // on a card read
					}
					rim = true
				}
			}
			p := geom.Point{X: px(x), Y: py}
			for _, q := range far {
				if geom.InQuad(p, q) {
					continue pixels
				}
			}
			if r.nearSticker(p) {
				continue
			}
			nf++
			i := y*w + x
			switch {
			case geom.Skin(cur[3*i:]):
				ns++
			case !rim:
				nr++
				sums.Add(cur[3*i:3*i+3], ref[3*i:3*i+3])
				if tiles != nil {
					tiles[(y-sb.Min.Y)/ts*tw+(x-sb.Min.X)/ts].Add(cur[3*i:3*i+3], ref[3*i:3*i+3])
				}
			}
		}
	}
	l := blobLeft{free: float64(nf * s * s), skin: float64(ns * s * s), rest: float64(nr * s * s)}
	if nr > 0 {
		gain := c.Gain(cur, ref, mask)
		l.shadow = sums.Shadow(gain)
		if tiles != nil && !l.shadow {
			l.unshaded = float64(change.Unshaded(tiles, gain) * s * s)
		}
	}
	return l
}

// nearSticker reports whether p lies within refStickerReach marker sides
// of a sticker read in this frame: on its card, whose outline may not
// have been found.
func (r *Reader) nearSticker(p geom.Point) bool {
	for _, m := range r.reads {
		reach := refStickerReach * m.Marker.Side
		// The distance is at least the larger of the offsets (a margin for
		// math.Hypot's rounding): most points are decided without it.
		if dx, dy := math.Abs(float64(p.X-m.Marker.Center.X)), math.Abs(float64(p.Y-m.Marker.Center.Y)); max(dx, dy) > reach*(1+1e-9)+1e-9 {
			continue
		}
		if geom.Dist(p, m.Marker.Center) < reach {
			return true
		}
	}
	return false
}

package card

import (
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// The missed outlines searched by keypoints: their best match's distance
// below keyMissDist and below keyMissRatio times the next card's
// (on training scenes these bounds keep 39 of 41 cards found by keypoints
// and skip 71% of the searches).
const (
	keySure      = 15
	keySureRatio = 0.5
	keyMissDist  = 0.7
	keyMissRatio = 0.85
)

// keyMiss is an outline that matched no taught card: its match (whose
// nearest cards are searched for by keypoints) and the index of its
// "unknown" reading in the frame's readings (-1: not reported).
type keyMiss struct {
	o  outline.Candidate
	m  index.Match
	at int
}

// readByKeys searches the places of the first index.KeyPlaces missed
// outlines for the keypoints of their nearest taught cards
// (index/keys.go). A card found there whose rectified face then
// matches that same card (the usual threshold and ratio) replaces the
// outline's "unknown" reading, or is added. out are the readings so far.
//
// Then, with SearchWholeFrame, the rest of the frame is searched for the
// keypoints of all taught cards (frame_keys.go).
func (r *Reader) readByKeys(img gocv.Mat, gr geom.View, out []Reading, missed []keyMiss, minW, maxW float64) ([]Reading, error) {
	t0 := r.times.now()
	out, err := r.searchMissed(img, gr, out, missed, minW, maxW)
	r.times.since("  outlines near a taught card searched for its keypoints", t0)
	if err != nil {
		return nil, err
	}
	if out, err = r.readFrameKeys(img, r.grey, gr, out, minW, maxW); err != nil {
		return nil, err
	}
	return r.dropStrayReadings(out), nil
}

// dropStrayReadings drops the "unknown" readings of outlines that are no
// card of their own:
//   - an outline that a card read covers (its centre, or its box's), or
//     that covers most of one (the card with the hand holding it), was
//     that card seen a little off: one reading per card (a sticker whose
//     marker the map does not name is a card read);
//   - an outline all of whose corners lie within refStickerReach
//     marker sides of a sticker read whose card's outline was not found
//     (r.loose) is that card, or the part of it beside the thumb holding
//     it, without its sticker;
//   - with the reference, an outline less than refUnknownChanged of
//     which differs from the empty table is mostly table: a card's shadow,
//     the pattern next to a card; so is one whose pixels are the table
//     darkened by about one factor (shadowIn): the shadow of a card held
//     over the table.
//
// Of two readings of one card where they overlap (two outlines of it,
// both matched), the less confident one goes too; of two unknown ones
// (the card and the hand holding it, the card and its art panel: the
// centre of either in the other), one (oneUnknown).
func (r *Reader) dropStrayReadings(out []Reading) []Reading {
	// The cards read: a sticker whose marker the map does not name is a
	// card read too (readTwice compares ids, so it never counts one).
	read := slices.DeleteFunc(slices.Clone(out), func(rd Reading) bool { return rd.ID == Unknown && rd.Method != MethodMarker })
	on := func(p geom.Point) bool {
		return slices.ContainsFunc(read, func(rd Reading) bool { return geom.InQuad(p, rd.Corners) })
	}
	out = slices.DeleteFunc(out, func(rd Reading) bool {
		if rd.Method != MethodLearned {
			return false
		}
		if rd.ID != Unknown {
			return readTwice(read, rd)
		}
		if r.refUsed && (r.ref.ChangedIn(rd.Corners) < refUnknownChanged || r.ref.ShadowIn(rd.Corners)) {
			return true
		}
		if onLooseSticker(r.loose, rd.Corners) {
			return true
		}
		mid := rd.Box.Min.Add(rd.Box.Max).Div(2)
		return on(geom.QuadCentre(rd.Corners)) || on(geom.Point{X: float32(mid.X), Y: float32(mid.Y)}) || mostlyOver(read, rd.Box)
	})
	return r.oneUnknown(out)
}

// oneUnknown keeps one of two unknown readings of one card (the centre of
// either in the other's outline): the larger outline (the card, not its
// art panel or the part beside a thumb), but with the reference the
// smaller where less than refPairChanged of what the larger adds
// differs from the empty table (the larger is the card with the table
// around it, or with the hand holding it and the table). On training
// scenes of untaught cards with the empty table this keeps the outline
// nearer the card (by overlap) far more often than keeping the larger
// always does.
func (r *Reader) oneUnknown(out []Reading) []Reading {
	unknown := func(rd Reading) bool { return rd.Method == MethodLearned && rd.ID == Unknown }
	n := 0
	for _, rd := range out {
		if unknown(rd) {
			n++
		}
	}
	if n < 2 {
		return out // no pair (most frames)
	}
	drop := make([]bool, len(out))
	for i := range out {
		for j := i + 1; j < len(out) && !drop[i]; j++ {
			a, b := out[i], out[j]
			if drop[j] || !unknown(a) || !unknown(b) ||
				!geom.InQuad(geom.QuadCentre(a.Corners), b.Corners) && !geom.InQuad(geom.QuadCentre(b.Corners), a.Corners) {
				continue
			}
			large, small := i, j
			if geom.QuadArea(a.Corners) < geom.QuadArea(b.Corners) {
				large, small = j, i
			}
			if r.refUsed && r.ref.ChangedAdded(out[large].Corners, out[small].Corners) < refPairChanged {
				drop[large] = true
			} else {
				drop[small] = true
			}
		}
	}
	kept := out[:0]
	for i, rd := range out {
		if !drop[i] {
			kept = append(kept, rd)
		}
	}
	return kept
}

// onLooseSticker reports whether every corner of q lies within
// refStickerReach marker sides of one of the markers loose: on that
// sticker's card.
func onLooseSticker(loose []marker.Marker, q [4]geom.Point) bool {
	for _, m := range loose {
		reach := refStickerReach * m.Side
		on := true
		for _, c := range q {
			if geom.Dist(c, m.Center) >= reach {
				on = false
				break
			}
		}
		if on {
			return true
		}
	}
	return false
}

// readTwice reports whether the card read rd was read with more
// confidence by another reading of known whose outline holds rd's centre
// or whose centre rd's outline holds.
func readTwice(known []Reading, rd Reading) bool {
	c := geom.QuadCentre(rd.Corners)
	for _, k := range known {
		if k.ID != rd.ID || k.Corners == rd.Corners {
			continue
		}
		if !geom.InQuad(c, k.Corners) && !geom.InQuad(geom.QuadCentre(k.Corners), rd.Corners) {
			continue
		}
		if k.Confidence > rd.Confidence {
			return true
		}
	}
	return false
}

// mostlyOver reports whether box covers most of the box of a card read
// in out.
func mostlyOver(out []Reading, box image.Rectangle) bool {
	for _, rd := range out {
		in := box.Intersect(rd.Box)
		if a := rd.Box.Dx() * rd.Box.Dy(); a > 0 && 2*in.Dx()*in.Dy() >= a {
			return true
		}
	}
	return false
}

// searchMissed is readByKeys' search around the missed outlines.
func (r *Reader) searchMissed(img gocv.Mat, gr geom.View, out []Reading, missed []keyMiss, minW, maxW float64) ([]Reading, error) {
	ix := r.opts.Index
	if ix == nil || len(missed) == 0 {
		return out, nil
	}
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	var keys []*index.Keys
	var ids []string
	places := 0
	for _, ms := range missed {
		if places >= index.KeyPlaces {
			break
		}
		// Only outlines that came near a taught card: far ones (a table
		// pattern, a hand, an outline well off its card) seldom have the
		// card among their nearest ones, and the search costs.
		if ms.m.Dist >= keyMissDist || ms.m.Dist >= keyMissRatio*ms.m.Second {
			continue
		}
		if readAt(out, geom.QuadCentre(ms.o.Q)) {
			continue // a card found meanwhile (by keypoints) covers it
		}
		keys, ids = keys[:0], ids[:0]
		for _, id := range ms.m.Cands {
			if id == "" {
				continue
			}
			n := len(keys)
			keys = ix.KeysOf(id, keys)
			for range len(keys) - n {
				ids = append(ids, id)
			}
		}
		if len(keys) == 0 {
			continue
		}
		places++
		box := geom.QuadBox(ms.o.Q)
		reach := int(math.Ceil(index.KeyReach * float64(max(box.Dx(), box.Dy()))))
		found, err := r.keyer.Locate(r.grey, box.Inset(-reach), geom.QuadWidth(ms.o.Q), keys)
		if err != nil {
			return nil, err
		}
		// The first found outline that matches one of the searched cards.
		for _, f := range found {
			rd, ok, err := r.confirmKeyFound(img, gr, f, ids[f.Own], minW, maxW)
			if err != nil {
				return nil, err
			}
			if !ok || !slices.Contains(ids, rd.ID) || readAt(out, geom.QuadCentre(f.Q)) {
				continue
			}
			rd.Box = rd.Box.Intersect(bounds)
			if ms.at >= 0 {
				out[ms.at] = rd
			} else {
				out = append(out, rd)
			}
			break
		}
	}
	return out, nil
}

// confirmKeyFound rectifies the outline q found by keypoints (its taught
// top-left corner first), and then q re-fitted to the card's edges in gr,
// and matches them with the taught cards; last, it reads q as a found
// outline (readLearned), which must read card want.
func (r *Reader) confirmKeyFound(img gocv.Mat, gr geom.View, f index.KeyFound, want string, minW, maxW float64) (Reading, bool, error) {
	q := f.Q
	relax := 0.0
	if f.Inliers >= keySure {
		relax = keySureRatio
	}
	c, ok := outline.NewCandidate(q, minW, maxW*outline.AspectMax)
	if !ok || c.Q != q || !outline.Plausible(q, minW, maxW) {
		return Reading{}, false, nil
	}
	rd, ok, err := r.matchOutline(img, q, want, relax)
	if ok || err != nil {
		return rd, ok, err
	}
	rq, _, ok := r.finder.Refine(gr, q)
	if ok && outline.AltDistance(rq, outline.Candidate{Q: q}) >= 1 {
		if c, ok := outline.NewCandidate(rq, minW, maxW*outline.AspectMax); ok && c.Q == rq {
			if rd, ok, err := r.matchOutline(img, rq, want, relax); ok || err != nil {
				return rd, ok, err
			}
		}
	}
	// Read as a found outline is (its tries, its fit to the card's edges,
	// the comparison without a thumb or a glare spot): a homography
	// fitted to few or crowded keypoints is often a little off. The card
	// read must be the one the keypoints chose.
	rd, ok, _, err = r.readLearned(img, outline.Candidate{Q: q})
	if err != nil || !ok || rd.ID != want {
		return Reading{}, false, err
	}
	return rd, true, nil
}

// matchOutline rectifies outline q and reports the taught card it is taken
// for, if any.
func (r *Reader) matchOutline(img gocv.Mat, q [4]geom.Point, want string, relax float64) (Reading, bool, error) {
	ix := r.opts.Index
	if err := r.desc.Rectify(img, q, 0); err != nil {
		return Reading{}, false, nil
	}
	var d [4]index.Desc
	if err := r.desc.Describe(&d); err != nil {
		return Reading{}, false, err
	}
	m := ix.Match(&d)
	sure := m.ID == want && m.Dist <= ix.MatchThreshold() && m.Dist <= relax*m.Second
	if !ix.Accepts(m) && !sure {
		// With the reference, a card its keypoints found whose face comes
		// near it stands when its keypoints are found at the pose as a
		// near miss's must (whatever the next card's distance: the
		// keypoints chose the card).
		if !r.refUsed || m.ID != want || m.Dist > refBandDist {
			return Reading{}, false, nil
		}
		if ok, err := r.confirmAt(q, m, false); !ok || err != nil {
			return Reading{}, false, err
		}
	}
	thr := ix.MatchThreshold()
	rd := Reading{ID: m.ID, Method: MethodLearned, Confidence: 0.5 + 0.5*math.Max(0, math.Min(1, (thr-m.Dist)/thr))}
	for k := range 4 {
		rd.Corners[k] = q[(k+4-m.Rot)%4]
	}
	rd.Box = geom.QuadBox(rd.Corners)
	return rd, true, nil
}

// readAt reports whether p lies on a card already read (not unknown).
func readAt(out []Reading, p geom.Point) bool {
	for _, rd := range out {
		if rd.ID != Unknown && geom.InQuad(p, rd.Corners) {
			return true
		}
	}
	return false
}

// distinct returns the reader's distinct-keypoint finder for its index,
// filed anew when the index changed.
func (r *Reader) distinct() *index.Distinct {
	ix := r.opts.Index
	if r.dist == nil || r.dist.Index != ix || r.dist.N != ix.Len() {
		r.dist = index.NewDistinct(ix)
	}
	return r.dist
}

// matchOccluded matches outline q of img (grown by grow) without its
// occluded blocks; ok is false when it has too few or too many of them.
func (r *Reader) matchOccluded(img gocv.Mat, q [4]geom.Point, grow float64) (index.Match, bool, error) {
	if err := r.desc.Rectify(img, q, grow); err != nil {
		return index.Match{}, false, nil
	}
	m, _, ok, err := r.desc.MatchOccluded(r.opts.Index)
	return m, ok, err
}

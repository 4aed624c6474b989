package card

import (
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// tryDoubledChanged is the least share of an outline doubled that
// must differ from the reference for it to be tried: the outline's half
// and at least half the added one.
const tryDoubledChanged = 0.75

// tryFar is the distance to the nearest card from which an outline
// is not tried grown or shrunk.
const tryFar = 1.0

// With the reference, an outline less than refCompareChanged of which
// differs from it is not compared with the taught cards (the table's
// pattern, a shadow's edge: it is not reported as an unknown card either,
// refUnknownChanged), and the other outlines tried for it (its
// alternatives, extensions, growths) are not tried where less than
// refTryChanged of them differs. Training scenes
// (TestCardsTrainLearned, 100 taught, with the reference): of 5,294
// outlines compared, the 1,769 matches that stood had at least 0.53 of
// their outline changed, and 167 of the others less than 0.4; of 25,228
// outlines tried, none of those that made or started a match that stood
// (the match decision's or the fit's) had less than 0.53 changed, and
// 1,788 of the others less than 0.5.
const (
	refCompareChanged = 0.4
	refTryChanged     = 0.5
)

// refOccludedFar is the distance from which a match with the
// reference is not tried again without the occluded blocks: on the same
// training scenes, the few such comparisons that give a match the match
// decision takes all start from a match at most 1.03 away, while many
// start from 1.15 or more.
const refOccludedFar = 1.15

// growTries are the last growths of an outline tried.
var growTries = [...]float64{-0.035, 0.035}

// readLearned compares the card inside outline o with the taught cards.
func (r *Reader) readLearned(img gocv.Mat, o outline.Candidate) (Reading, bool, index.Match, error) {
	return r.readLearnedAs(img, o, false)
}

// readLearnedAs is readLearned; quick, only o as found, as an inner frame
// and its other outlines are tried, not fitted to the card's edges nor
// compared without occluders, and a card not taken is kept for no later
// frame (the caller reads o in full later when no other outline is read
// as its card: findOutlinesIn's blobs).
func (r *Reader) readLearnedAs(img gocv.Mat, o outline.Candidate, quick bool) (Reading, bool, index.Match, error) {
	return r.readLearnedOn(img, o, quick, nil)
}

// quickRead is where a quick reading of an outline stopped
// (readLearnedOn), for its full reading to go on from there rather than
// compare the same outlines again: the best match of the outlines tried so
// far and the next try (-1: none, a match was taken); when that match was
// taken, its confirmation.
type quickRead struct {
	set            bool
	best           index.Match
	grow           float64
	bestQ          [4]geom.Point
	first          float64
	next           int
	confirmed, ran bool // the confirmation's verdict; ran: it was asked
}

// readLearnedOn is readLearnedAs; with qr set, a quick reading records in
// it where it stopped, and a full reading with qr recorded goes on from
// there: the same reading as from the start, as the quick tries are the
// full ones' first and a match taken stops both.
func (r *Reader) readLearnedOn(img gocv.Mat, o outline.Candidate, quick bool, qr *quickRead) (Reading, bool, index.Match, error) {
	rd := Reading{ID: Unknown, Method: MethodLearned, Box: geom.QuadBox(o.Q), Corners: o.Q}
	ix := r.opts.Index
	if ix == nil || ix.Len() == 0 {
		if r.opts.HideUnknown || !likely(o) {
			return rd, false, index.Match{}, nil
		}
		rd.Confidence = 1
		return rd, true, index.Match{}, nil
	}
	if s, ok := r.readStill(img, o); ok {
		if r.trace != nil {
			r.trace(s.box, s.m)
		}
		rd = s.rd
		rd.Box, rd.Corners = geom.QuadBox(o.Q), o.Q
		return rd, s.ok, s.m, nil
	}
	changed := 1.0
	if r.refUsed {
		if changed = r.ref.ChangedIn(o.Q); changed < refCompareChanged {
			return rd, false, index.Match{}, nil
		}
	}
	t0 := r.times.now()
	defer r.times.since("  compared with the taught cards", t0)
	thr := ix.MatchThreshold()
	best := index.Match{Dist: math.Inf(1), Second: math.Inf(1)}
	grow := 0.0
	bestQ := o.Q
	tries := learnTries(o)
	if quick {
		tries = tries[:min(len(tries), 2+len(o.Alts))]
	}
	first := -1.0 // the outline's own distance
	from := 0
	resumed := !quick && qr != nil && qr.set
	if resumed {
		best, grow, bestQ, first, from = qr.best, qr.grow, qr.bestQ, qr.first, qr.next
		if from < 0 {
			from = len(tries) // the quick reading took a match
		}
	}
	next := len(tries)
	for ti := from; ti < len(tries); ti++ {
		tr := tries[ti]
		// The outline grown or shrunk a little is not tried where the
		// outline itself is far from any card (on training scenes these
		// tries never made a card read from there).
		if ti > 0 && tr.q == o.Q && first >= tryFar {
			continue
		}
		// With the reference, the half added must be a card's too: the
		// outline doubled changed at least tryDoubledChanged.
		if tr.doubled && r.refUsed && r.ref.ChangedIn(tr.q) < tryDoubledChanged {
			continue
		}
		if ti > 0 && !tr.doubled && r.refUsed && r.triedChanged(tr.q, o.Q, changed) < refTryChanged {
			continue
		}
		t1 := r.times.now()
		if err := r.desc.Rectify(img, tr.q, tr.grow); err != nil {
			continue
		}
		d := &r.desc.Turns
		if err := r.desc.Describe(d); err != nil {
			return rd, false, best, err
		}
		m := ix.Match(d)
		r.times.since("      one outline compared", t1)
		if ti == 0 {
			first = m.Dist
		}
		if m.Dist < best.Dist {
			best, grow, bestQ = m, tr.grow, tr.q
		}
		if ix.Accepts(best) {
			next = -1 // a full reading stops here too
			break     // no need to look further
		}
	}
	if quick && qr != nil {
		*qr = quickRead{set: true, best: best, grow: grow, bestQ: bestQ, first: first, next: next}
	}
	// An outline near a card but not fitted, the frame's fits spent, is
	// not kept as read in vain (it is fitted in a later frame).
	r.times.since("    outlines tried", t0)
	unfitted := false
	if !ix.Accepts(best) && !quick {
		unfitted = r.fits >= fitFrame
		var err error
		t1 := r.times.now()
		bestQ, grow, best, err = r.fitOutline(img, bestQ, grow, best)
		r.times.since("    outline fitted", t1)
		if err != nil {
			return rd, false, best, err
		}
	}
	if !ix.Accepts(best) && !quick && !(r.refUsed && best.Dist >= refOccludedFar) {
		// A glare spot or a thumb over the card: compared without them.
		t1 := r.times.now()
		mm, ok, err := r.matchOccluded(img, bestQ, grow)
		r.times.since("    compared without occluders", t1)
		if err != nil {
			return rd, false, best, err
		}
		if ok && ix.Accepts(mm) {
			mm.Cands = best.Cands
			best = mm
		}
	}
	traced := geom.QuadBox(geom.GrowQuad(bestQ, grow))
	if r.trace != nil {
		r.trace(traced, best)
	}
	accepted := ix.Accepts(best)
	// With the reference, matches are confirmed at the pose; without it,
	// masked ones (fewer pixels compared) are.
	if r.refUsed && (accepted || refBand(best)) || accepted && best.Mask != nil {
		if resumed && qr.ran && accepted {
			// Taken at the quick reading, which asked for this
			// confirmation of the same match already.
			accepted = qr.confirmed
		} else {
			var err error
			t1 := r.times.now()
			accepted, err = r.confirmStill(img, matchedOutline(bestQ, grow, best), best)
			r.times.since("    confirmed by keypoints", t1)
			if err != nil {
				return rd, false, best, err
			}
			if quick && qr != nil && next == -1 { // the match a full reading takes at once
				qr.confirmed, qr.ran = accepted, true
			}
		}
	}
	if accepted {
		rd.ID = best.ID
		rd.Confidence = 0.5 + 0.5*max(0, min(1, (thr-best.Dist)/thr))
		// The card's top-left corner first.
		for k := range 4 {
			rd.Corners[k] = bestQ[(k+4-best.Rot)%4]
		}
		rd.Box = geom.QuadBox(rd.Corners)
		if grow > 0 && !best.Grown { // the outline tried as the inner frame: the card is the outline grown
			rd.Corners = geom.GrowQuad(rd.Corners, grow)
			rd.Box = geom.QuadBox(rd.Corners)
		}
		return rd, true, best, nil
	}
	ok := !r.opts.HideUnknown && likely(o)
	if ok {
		rd.Confidence = 0.5 + 0.5*max(0, min(1, (best.Dist-thr)/thr))
	}
	if !unfitted && !quick {
		r.keepRead(img, o, rd, ok, best, traced)
	}
	return rd, ok, best, nil
}

// matchedOutline is where the card is when outline q, rectified grown
// by grow, made match m: q grown (or shrunk) by grow, but q itself when
// m's example is the taught outline grown as well (the teaching photo's
// outline was the card's, and q is too, matched grown like it). A match's
// keypoints are looked for there (refConfirms), and a card read is
// reported there (not shrunk). Taking q grown whatever the example reports
// many more cards larger than they are (TestCardsTrainLearned's training
// scenes).
func matchedOutline(q [4]geom.Point, grow float64, m index.Match) [4]geom.Point {
	if m.Grown {
		return q
	}
	return geom.GrowQuad(q, grow)
}

// triedChanged is the share of outline q tried for outline o (whose share
// is changed) that differs from the reference.
func (r *Reader) triedChanged(q, o [4]geom.Point, changed float64) float64 {
	if q == o {
		return changed
	}
	return r.ref.ChangedIn(q)
}

// try is an outline readLearned tries, grown by grow; doubled, the
// outline found doubled across its width.
type try struct {
	q       [4]geom.Point
	grow    float64
	doubled bool
}

// learnTries are the outlines readLearned tries for outline o, in
// order: o as found, then as an inner frame grown to the whole card, then
// the other outlines seen for this card; a squarish o extended to a whole
// card (its art panel, the card cut by a thumb across it); o doubled
// across its width at either end (half a card cut across its length is in
// a card's proportions too); last, o a little smaller and larger (an edge
// found a few pixels off on a side or two).
func learnTries(o outline.Candidate) []try {
	tries := []try{{q: o.Q}, {q: o.Q, grow: index.GrowInner}}
	for _, a := range o.Alts {
		tries = append(tries, try{q: a})
	}
	for _, e := range extensions(o.Q) {
		tries = append(tries, try{q: e})
	}
	for _, d := range index.Doubled(o.Q) {
		tries = append(tries, try{q: d, doubled: true})
	}
	for _, g := range growTries {
		tries = append(tries, try{q: o.Q, grow: g})
	}
	return tries
}

// An outline whose long sides are less than extendAspect times its
// short ones is tried extended to a card's proportions (refAspect):
// its long sides to that of its short ones, or its short sides to that of
// its long ones (a part across the card's width), at one end, the other, or
// both.
const extendAspect = 1.25

// extensions returns the outline q extended to a whole card
// (extendAspect), none if q is in a card's proportions.
func extensions(q [4]geom.Point) [][4]geom.Point {
	a, b := geom.SideMeans(q)
	if a <= 0 || b <= 0 || max(a, b) >= extendAspect*min(a, b) {
		return nil
	}
	var out [][4]geom.Point
	// Sides 12 and 30 (length b) grow to refAspect·a, or sides 01
	// and 23 (length a) to refAspect·b.
	for _, c := range []struct {
		along bool // grow along sides 12 and 30
		f     float64
	}{{true, refAspect*a/b - 1}, {false, refAspect*b/a - 1}} {
		for _, at := range []float64{0, 0.5, 1} { // the share added before the outline's start
			out = append(out, geom.ExtendQuad(q, c.along, c.f, at))
		}
	}
	return out
}

// learnedRead is the comparison of one outline with the taught cards
// (readLearned), done ahead of the full-resolution sticker search.
type learnedRead struct {
	rd       Reading
	ok, done bool
	m        index.Match
}

// taught reports whether the outline was taken for a taught card.
func (l learnedRead) taught() bool { return l.done && l.rd.ID != Unknown }

// learnedReads are the reads of a frame's outlines, by index.
type learnedReads []learnedRead

// onTaught reports whether p lies on an outline taken for a taught card.
func (ls learnedReads) onTaught(p geom.Point, outlines []outline.Candidate) bool {
	for i, l := range ls {
		if l.taught() && geom.InQuad(p, outlines[i].Q) {
			return true
		}
	}
	return false
}

// readAt reports whether p lies on a card read (taken for a taught card,
// reported) in ls.
func (ls learnedReads) readAt(p geom.Point) bool {
	for _, l := range ls {
		if l.taught() && l.ok && geom.InQuad(p, l.rd.Corners) {
			return true
		}
	}
	return false
}

// preReadOutlines compares the outlines that hold no sticker read so far
// (r.reads) with the taught cards.
func (r *Reader) preReadOutlines(colour gocv.Mat, outlines []outline.Candidate) (learnedReads, error) {
	ls := slices.Grow(r.learned[:0], len(outlines))[:len(outlines)]
	clear(ls)
	r.learned = ls
	ix := r.opts.Index
	if ix == nil || ix.Len() == 0 {
		return ls, nil
	}
	for i, o := range outlines {
		if r.refUsed && i < len(r.ref.pre) {
			ls[i] = r.ref.pre[i] // read with the reference already
			continue
		}
		if r.stickerIn(o.Q) {
			continue
		}
		if r.refUsed && ls.readAt(geom.QuadCentre(o.Q)) {
			// On a card read already: a reading of it would be that
			// card again or dropped (dropStrayReadings).
			ls[i] = learnedRead{rd: Reading{ID: Unknown}, done: true}
			continue
		}
		var qr *quickRead // a blob's outline read quickly (settlePending)
		if p := &r.ref; r.refUsed && i >= p.pendingFrom && i-p.pendingFrom < len(p.pending) && p.pending[i-p.pendingFrom].q.Q == o.Q {
			qr = &p.pending[i-p.pendingFrom].quick
		}
		rd, ok, m, err := r.readLearnedOn(colour, o, false, qr)
		if err != nil {
			return nil, err
		}
		ls[i] = learnedRead{rd: rd, ok: ok, done: true, m: m}
	}
	return ls, nil
}

// readOutlines reads the card outlines not used by a sticker against the
// taught cards (learned: those compared already) and appends what they
// show to out; missed are the outlines that came near a taught card but
// matched none, for the keypoint search.
func (r *Reader) readOutlines(colour gocv.Mat, outlines []outline.Candidate, used []bool, learned learnedReads, out []Reading) ([]Reading, []keyMiss, error) {
	bounds := image.Rect(0, 0, colour.Cols(), colour.Rows())
	var missed []keyMiss
	for i, o := range outlines {
		if used[i] {
			continue
		}
		l := learned[i]
		if !l.done {
			var err error
			if l.rd, l.ok, l.m, err = r.readLearned(colour, o); err != nil {
				return nil, nil, err
			}
		}
		rd, ok, m := l.rd, l.ok, l.m
		if rd.ID == Unknown && m.ID != "" {
			at := -1
			if ok {
				at = len(out)
			}
			missed = append(missed, keyMiss{o: o, m: m, at: at})
		}
		if !ok {
			continue
		}
		rd.Box = rd.Box.Intersect(bounds)
		out = append(out, rd)
	}
	return out, missed, nil
}

// likely reports whether an outline that matched nothing is still
// surely a card (to be reported as unknown): a strong, refined outline.
func likely(o outline.Candidate) bool {
	return o.Refined
}

package card

// Reading cards against the empty table ([Reader.SetBackground]): the
// live pipeline learns a reference picture of the empty table (see
// [tablecam/vision/background.Reader]); what differs from it is where cards (and hands)
// are. With a reference, one frame:
//
//   - The frame and the reference are compared at a quarter of the
//     resolution (the largest difference of the three colour channels,
//     after taking out the frame's overall change in exposure); the
//     changed pixels, closed and opened, make blobs.
//   - The half-resolution sticker search and the outline finder run only
//     in the places of the card-sized blobs (with a margin), not over the
//     whole frame: on a textured table most of their cost.
//   - Each blob's smallest enclosing rectangle, re-fitted to the edges
//     near it, is one more outline proposal where the edges gave none
//     (busy tables hide a card's edges; its difference to the table they
//     do not). A blob that is a card and the hand holding it makes no card
//     shaped rectangle: its skin-coloured pixels that reach its rim (the
//     hand and the thumb over the card's edge, not skin-coloured art inside
//     the card) are taken out, and what is left, opened (and also closed
//     first), gives parts whose quadrilaterals are proposals like a clean
//     blob's (findParts). The blob's place is still searched by the outline
//     finder unless its parts read as cards cover what is not the hand.
//   - Blobs that no card read covers are searched for the keypoints of
//     every taught card (the frame search of frame_keys.go, in
//     those places only).
//   - An outline's match with a taught card that is not clear (closer
//     than refSureRatio of the next card's) stands only where that
//     card's keypoints are found too, where the outline and the match's
//     turn put them (refConfirms): with the reference more untaught cards
//     are outlined, and well, and so come near a taught one. A match a
//     little beyond the match decision stands when many of them are.
//
// When the frame differs from the reference almost everywhere (the light
// changed, the camera moved) or has another size, the reference is not
// used and the frame is read as without one.
//
// Pixels darker than the table by about one factor in every channel are
// shadows, not changes; blobs whose changed pixels fill their
// quadrilateral are clean (a card alone) and give their card's outline
// themselves; what is left of a blob once the cards read are taken out is
// searched for keypoints unless it is small or mostly skin-coloured (the
// hand holding a card), or all that is left beyond the rims of the cards
// read is a sliver or the table darkened by about one factor (the soft
// shadow of a card held over the table, which the test of each pixel
// misses).
//
// With the reference far more taught cards are read than without it, with
// no more untaught cards taken for taught ones (docs/figures.md; measured
// by TestCardsEvalLearned with -eval-full -eval-ref yes or no): most cards
// a frame without it misses have no outline near them, and the changed
// blobs give them one.

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// Reference comparison settings.
const (
	// refMinBlob is the smallest blob that is searched, as a share of
	// the smallest card's area (a card partly out of the frame).
	refMinBlob = 0.25
	// refMargin is the margin around a blob's box searched, as a share
	// of its longer side (at least refMinMargin px).
	refMargin    = 0.1
	refMinMargin = 20
	// refKeyPlaces is the most blobs searched for keypoints a frame,
	// refKeyFeatures the keypoints taken in each (fewer are cheaper
	// but lose small, tilted cards).
	refKeyPlaces   = 3
	refKeyFeatures = 1500
	// refRim is the rim around a card read (full-resolution pixels)
	// that a blob's changed pixels may reach beyond the card: the changes
	// are closed at a quarter of the resolution, and an outline read may
	// lie a few pixels inside its card's edge.
	refRim = 10
	// refRestMin is the least changed area beyond the cards read and
	// their rims, but skin, for a blob to be searched for keypoints, in
	// smallest cards: training scenes (TestCardsTrainLearned, 100 taught,
	// with the reference), 1,057 blob searches, 95 of which found a card:
	// those left at least 1.7 cards; 60 searches in vain less than 1 card.
	// Nor is a blob searched whose pixels left are a shadow (shadowIn's
	// test, on them): 182 searches in vain, none that found a card.
	refRestMin = 1.0
	// refFree is the least share of a blob that no card read covers
	// for the blob to be searched for keypoints (a card read and the hand
	// holding it leave less).
	refFree = 0.4
	// A blob with less free is still searched when what is free but
	// skin-coloured makes refFreeRest of the smallest cards: another
	// card in the blob of a card read (held by the same hand, lying
	// against it).
	refFreeRest = 4.0
	// refStickerReach is how far from a sticker read (in marker
	// sides) its card may reach: a sticker in a corner of a card 6 sides
	// long.
	refStickerReach = 6
	// Of two unknown outlines of one card, the larger is the card with
	// the table around it when less than refPairChanged of what it
	// adds to the smaller changed (oneUnknown).
	refPairChanged = 0.7
	// refPartsRead is the share of a blob's changed area (the hand
	// taken out) that its parts read as cards must cover for its place not
	// to be searched for outlines too.
	refPartsRead = 0.8
	// refUnknownChanged is the least share of an outline matching no
	// taught card that must differ from the reference for the outline to
	// be reported as an unknown card (less: a shadow, the table's pattern
	// next to a card).
	refUnknownChanged = 0.5
	// refAspect is a card's length over its width (63 × 88 mm).
	refAspect = 1.4
	// refSureRatio: an outline of a frame read with the reference
	// whose match is closer than this share of the next card's distance
	// is taken for its card as it is; other matches stand when at least
	// refMinFound of their card's taught keypoints, and
	// refMinShare of them, are found at the pose (refConfirms;
	// training scenes, 100 and 500 taught: matches of other cards find at
	// most 7% and 15%, 97.6% of those of their own card 18% or more).
	refSureRatio = 0.2
	refMinFound  = 12
	refMinShare  = 0.18
	// Matches beyond the match decision's threshold or ratio but within
	// refBandDist and refBandRatio stand when at least
	// refBandFound keypoints, refBandShare of the taught ones, are
	// found at the pose. In the band (training scenes, 100 and 500
	// taught) matches of other cards find up to 35% (a card of the same
	// family with the same icons), right ones 40% and more. The distance
	// ends at 0.55: beyond it, an untaught card of the same family with
	// the same two big icons as a taught one finds 56% of its keypoints at
	// 0.57 (TestCardsConfirmCalibrate, 500 taught); within it none does.
	refBandDist  = 0.55
	refBandRatio = 0.85
	refBandFound = 30
	refBandShare = 0.4
	// A match in the band also stands with fewer of its keypoints found,
	// refDistinctShare of them, when refDistinctFound of those no
	// other taught card has at the same place (index.Distinct), at least
	// refDistinctOwn of the card's distinct ones, are found: a card of
	// the same family finds the keypoints of the frame, the icons and the
	// layout the cards share, not those of the art. On the same scenes
	// the matches of other cards finding 30% or more find at most 7% of
	// their distinct keypoints, and of those finding fewer than 30% at
	// most 26%; right ones not taken by the 40% find 11–38%.
	refDistinctShare = 0.3
	refDistinctOwn   = 0.18
	refDistinctFound = 10
	// A match in the band also stands when the keypoints found, at least
	// refSpreadShare of the taught ones, are spread over the card: in
	// at least refSpreadCells of the cardVerifyCells² cells over it,
	// refSpreadDistinct of them with a distinct keypoint found. An
	// untaught card finds a taught one's keypoints where the two share a
	// frame, an icon or a title bar: a few places, or few keypoints spread
	// thin. In TestCardsConfirmCalibrate's training scenes (-confirm-dump
	// lists every verification) other cards' matches reach a 0.26 share in
	// 9 cells (7 distinct), 10 cells (7 distinct) at a 0.20 share, and 11
	// cells (8 distinct) at 0.15; none meets all three, while about a fifth
	// of the right matches the other rules leave do.
	refSpreadShare    = 0.2
	refSpreadCells    = 10
	refSpreadDistinct = 8
)

// refState is a card reader's reference of the empty table (change.Ref)
// and what the reader keeps of a frame read against it.
type refState struct {
	change.Ref
	keyer      *index.Keyer      // the keypoint search in blobs, made when first needed
	col, half  gocv.Mat          // a place of the frame (continuous) and its half
	places     []image.Rectangle // searched for stickers
	edgePlaces []image.Rectangle // searched for outlines: blobs not clean
	pre        []learnedRead     // the readings of the first outlines (findOutlinesIn)
	// pending are the outlines of blobs (clean ones and parts) that a
	// quick reading did not take for a card; they are findOutlinesIn's
	// last outlines, from pendingFrom on, and are read in full only where
	// no other outline is read as a taught card (settlePending).
	pending     []refPending
	pendingFrom int
	pendingDrop []bool             // settlePending's
	failed      []marker.Candidate // sticker candidates of all places
	// blobFree's cards read (corners within change.RowSpan's bound: each
	// card read, then it with its rim) and the others, and their spans on a
	// row.
	freeReads, freeFar [][4]geom.Point
	freeSpans          [][2]int
	freeTiles          []change.ShadowSums // blobFreeOf's tiles (change.Unshaded)
	openAt             []int               // openBlobs' new indices
	markerBlobs        []image.Rectangle
	// confirmTrace, when set, sees every verification of refConfirms
	// (tests).
	confirmTrace func(q [4]geom.Point, m index.Match, v index.Verified)
	// stillNow are the blobs searched in vain for keypoints this frame,
	// stillLast in the last one (ref_still.go).
	stillNow, stillLast []refStill
}

func newRef() refState {
	return refState{Ref: change.NewRef(), col: gocv.NewMat(), half: gocv.NewMat()}
}

func (c *refState) close() {
	c.Ref.Close()
	c.col.Close()
	c.half.Close()
	if c.keyer != nil {
		c.keyer.Close()
	}
}

// SetBackground gives the reader a picture of the empty table (8-bit BGR,
// BGRA or grey, the size of the frames; the reader keeps its own copy):
// cards are then looked for where the frame differs from it (see
// ref.go), which finds cards whose edges a busy table hides and
// costs less. An empty Mat removes the reference; without one the reader
// reads as before. A reference of another size than the frames read so far
// is an error; frames of another size than the reference are read without
// it (and drop it).
func (r *Reader) SetBackground(img gocv.Mat) error {
	if r.closed {
		return errors.New("card: card reader: SetBackground after Close")
	}
	r.forgetStill() // searched and read against another reference (still.go)
	if img.Empty() {
		r.ref.Has = false
		return nil
	}
	w, h := img.Cols(), img.Rows()
	if w < 32 || h < 32 {
		return fmt.Errorf("card: card reader: reference of %d×%d pixels is too small", w, h)
	}
	if r.size != (image.Point{}) && r.size != image.Pt(w, h) {
		return fmt.Errorf("card: card reader: reference of %d×%d pixels, frames of %d×%d", w, h, r.size.X, r.size.Y)
	}
	src := img
	switch img.Type() {
	case gocv.MatTypeCV8UC3:
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(img, &r.ref.Conv, gocv.ColorBGRAToBGR)
		src = r.ref.Conv
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(img, &r.ref.Conv, gocv.ColorGrayToBGR)
		src = r.ref.Conv
	default:
		return fmt.Errorf("card: card reader: reference type %v, want 8-bit BGR, BGRA or grey", img.Type())
	}
	change.ShrinkTo(src, &r.ref.Small)
	r.ref.Size, r.ref.Has = image.Pt(w, h), true
	return nil
}

// HasBackground reports whether the reader has a reference of the empty
// table.
func (r *Reader) HasBackground() bool { return r.ref.Has }

// refPlaces compares colour (continuous BGR, the frame) with the reference
// and fills r.ref.blobs and r.ref.places (the places searched, merged,
// even-aligned). It reports false when there is no usable reference.
func (r *Reader) refPlaces(colour gocv.Mat, minW float64) (bool, error) {
	c := &r.ref
	w, h := colour.Cols(), colour.Rows()
	if !c.Has {
		return false, nil
	}
	if c.Size != image.Pt(w, h) {
		c.Has = false // the camera's resolution changed
		return false, nil
	}
	change.ShrinkTo(colour, &c.Cur)
	ok, err := c.Changed()
	if err != nil || !ok {
		return false, err
	}
	c.Mask.CopyTo(&c.RawMask) // before the opening takes out a sticker alone on a card like the table
	gocv.MorphologyEx(c.Mask, &c.Mask, gocv.MorphClose, c.Kernel)
	gocv.MorphologyEx(c.Mask, &c.Mask, gocv.MorphOpen, c.Kernel)
	c.FindBlobs(refMinBlob * minW * minW * refAspect)
	if err := c.FindParts(minW * minW * refAspect); err != nil {
		return false, err
	}
	c.places = c.places[:0]
	for _, b := range c.Blobs {
		c.places = append(c.places, r.refPlace(b.Box))
	}
	c.places = refMerge(c.places)
	return true, nil
}

// openBlobs keeps of the reference's blobs only those of indices open (a
// frame partly followed: the rest are cards followed), their parts and
// their places.
func (r *Reader) openBlobs(open []int) {
	c := &r.ref
	c.openAt = slices.Grow(c.openAt[:0], len(c.Blobs))[:len(c.Blobs)]
	at := c.openAt // a blob's new index + 1, 0: dropped
	clear(at)
	n := 0
	for _, bi := range open {
		at[bi] = n + 1
		c.Blobs[n] = c.Blobs[bi]
		n++
	}
	c.Blobs = c.Blobs[:n]
	c.Parts = slices.DeleteFunc(c.Parts, func(p change.Blob) bool { return at[p.Parent] == 0 })
	for i := range c.Parts {
		c.Parts[i].Parent = at[c.Parts[i].Parent] - 1
	}
	c.places = c.places[:0]
	for _, b := range c.Blobs {
		c.places = append(c.places, r.refPlace(b.Box))
	}
	c.places = refMerge(c.places)
}

// refMerge merges the places that overlap where their box covers
// little more than the two: places far apart are searched apart even when
// their margins meet (a pixel may then be searched twice).
func refMerge(ps []image.Rectangle) []image.Rectangle {
	area := func(r image.Rectangle) int { return r.Dx() * r.Dy() }
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(ps) && !merged; i++ {
			for j := i + 1; j < len(ps); j++ {
				if !ps[i].Overlaps(ps[j]) {
					continue
				}
				u := ps[i].Union(ps[j])
				if 4*area(u) > 5*(area(ps[i])+area(ps[j])-area(ps[i].Intersect(ps[j]))) {
					continue
				}
				ps[i] = u
				ps = append(ps[:j], ps[j+1:]...)
				merged = true
				break
			}
		}
	}
	return ps
}

// scanHalfIn is the half-resolution sticker search in the reference's
// places only; the scanner's failed candidates and blobs are those of all
// places.
func (r *Reader) scanHalfIn(g geom.View, minSide, maxSide float64) error {
	c := &r.ref
	r.reads = r.reads[:0]
	c.failed, c.markerBlobs = c.failed[:0], c.markerBlobs[:0]
	var err error
	r.scanner.Keep = c.KeepNear
	defer func() { r.scanner.Keep = nil }()
	for _, p := range c.places {
		r.reads, err = r.scanner.Scan(r.grey, g, p, marker.PassHalf, minSide, min(maxSide, float64(max(p.Dx(), p.Dy()))), r.reads)
		if err != nil {
			return err
		}
		c.failed = append(c.failed, r.scanner.Failed...)
		c.markerBlobs = append(c.markerBlobs, r.scanner.Blobs...)
	}
	r.scanner.Failed = append(r.scanner.Failed[:0], c.failed...)
	r.scanner.Blobs = append(r.scanner.Blobs[:0], c.markerBlobs...)
	return nil
}

// findOutlinesIn finds the card outlines of the frame colour (continuous
// BGR; gr its view) with the reference: a clean blob's quadrilateral,
// re-fitted to the edges near it, is its card's outline when it holds a
// sticker or matches a taught card at a quick reading (its reading is
// kept in r.ref.pre); the outline finder runs in the places of the other
// blobs (and of clean ones that matched nothing), each card-shaped blob's
// rectangle is added where no outline covers it, and last come the blobs'
// outlines that matched nothing quickly (r.ref.pending, from
// r.ref.pendingFrom on: settlePending).
func (r *Reader) findOutlinesIn(colour gocv.Mat, gr geom.View, minW, maxW float64) ([]outline.Candidate, error) {
	c := &r.ref
	var sure []outline.Candidate
	c.pre, c.pending = c.pre[:0], c.pending[:0]
	t0 := r.times.now()
	for i := range c.Blobs {
		b := &c.Blobs[i]
		if !b.Clean {
			continue
		}
		var err error
		if sure, b.Clean, err = r.blobCard(colour, gr, b, false, sure, minW, maxW); err != nil {
			return nil, err
		}
		if b.Clean {
			continue
		}
		// A card and the thumb holding it may fill their quadrilateral
		// (clean) and not read as a card: the hand is taken out and the
		// parts left are read with the other blobs' (readParts) before
		// the outline finder searches the place.
		if err := c.FindPartsOf(i, minW*minW*refAspect); err != nil {
			return nil, err
		}
	}
	r.times.since("  blobs alone outlined", t0)
	t0 = r.times.now()
	if err := r.readParts(colour, gr, &sure, minW, maxW); err != nil {
		return nil, err
	}
	r.times.since("  blobs' parts outlined", t0)
	c.edgePlaces = c.edgePlaces[:0]
	for _, b := range c.Blobs {
		// Not a blob whose parts read as cards cover what is not the hand.
		if !b.Clean && (b.Rest == 0 || b.Read < refPartsRead*b.Rest) {
			c.edgePlaces = append(c.edgePlaces, r.refPlace(b.Box))
		}
	}
	c.edgePlaces = refMerge(c.edgePlaces)
	t0 = r.times.now()
	out, err := r.findOutlinesAt(colour, c.edgePlaces, minW, maxW)
	r.times.since("  outline finder", t0)
	if err != nil {
		return nil, err
	}
	// The sure outlines first, their readings in r.ref.pre by index.
	out = append(sure, out...)
	for bi := range c.Blobs {
		b := &c.Blobs[bi]
		if b.Clean {
			continue
		}
		q, ok := r.blobOutline(gr, b.Rect, b.Rect, minW, maxW)
		if !ok {
			continue
		}
		covered := false
		for _, o := range out {
			if geom.InQuad(geom.QuadCentre(q.Q), o.Q) && geom.InQuad(geom.QuadCentre(o.Q), q.Q) && o.Area > 0.6*q.Area {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, q)
		}
	}
	c.pendingFrom = len(out)
	for _, p := range c.pending {
		out = append(out, p.q)
	}
	return out, nil
}

// refPending is a blob's outline q read quickly as no card
// (blobCard); part, the blob is a part of one.
type refPending struct {
	q     outline.Candidate
	part  bool
	quick quickRead // where its quick reading stopped
}

// settlePending keeps each pending outline (r.ref.pending: the last
// outlines, from pendingFrom on) that preReadOutlines read as a taught
// card, with the outlines not of the blobs (the outline finder's, the
// blobs' rectangles) whose centre lies on it dropped: a blob read as a card
// is not searched for other outlines (findOutlinesIn). A pending outline
// read as nothing is dropped, as a blob's outline that matched nothing is,
// but a part's near a taught card, which is kept for the keypoint search
// (readByKeys) and not reported itself (the outline finder's outline of
// the card and hand may be). learned are preReadOutlines' readings of
// outlines, kept in step.
func (r *Reader) settlePending(outlines []outline.Candidate, learned learnedReads) ([]outline.Candidate, learnedReads) {
	c := &r.ref
	if !r.refUsed || len(c.pending) == 0 || c.pendingFrom+len(c.pending) != len(outlines) {
		return outlines, learned
	}
	drop := slices.Grow(c.pendingDrop[:0], len(outlines))[:len(outlines)]
	clear(drop)
	c.pendingDrop = drop
	for i := c.pendingFrom; i < len(outlines); i++ {
		l := &learned[i]
		if !l.taught() || !l.ok {
			m := l.m
			if c.pending[i-c.pendingFrom].part && l.rd.ID == Unknown && m.ID != "" && m.Dist < keyMissDist && m.Dist < keyMissRatio*m.Second {
				l.ok = false
				continue
			}
			drop[i] = true
			continue
		}
		for j := len(c.pre); j < c.pendingFrom; j++ {
			if !learned[j].taught() && geom.InQuad(geom.QuadCentre(outlines[j].Q), l.rd.Corners) {
				drop[j] = true
			}
		}
	}
	n := 0
	for i := range outlines {
		if !drop[i] {
			outlines[n], learned[n] = outlines[i], learned[i]
			n++
		}
	}
	return outlines[:n], learned[:n]
}

// readParts reads the blobs' parts (blobCard) and adds the area of those
// read as cards to their blob's (once where two of a blob's parts are one
// card).
func (r *Reader) readParts(colour gocv.Mat, gr geom.View, sure *[]outline.Candidate, minW, maxW float64) error {
	c := &r.ref
	for i := range c.Parts {
		p := &c.Parts[i]
		if c.partOnRead(i) {
			continue // a reading of it would be that card again
		}
		n := len(*sure)
		var read bool
		var err error
		if *sure, read, err = r.blobCard(colour, gr, p, true, *sure, minW, maxW); err != nil {
			return err
		}
		if !read {
			continue
		}
		p.ReadAt = n + 1
		q := (*sure)[n].Q
		again := false
		for j := range i {
			if o := &c.Parts[j]; o.Parent == p.Parent && o.Read > 0 && geom.InQuad(geom.QuadCentre(q), o.Quad) {
				again = true
			}
		}
		if !again {
			p.Read = geom.QuadArea(q)
			c.Blobs[p.Parent].Read += p.Read
		}
	}
	return nil
}

// partOnRead reports whether part i's centre lies on a card read from an
// earlier part of its blob (the same part found a second time, closed:
// findParts).
func (c *refState) partOnRead(i int) bool {
	p := &c.Parts[i]
	ctr := geom.QuadCentre(p.Quad)
	for j := range i {
		o := &c.Parts[j]
		if o.Parent == p.Parent && o.ReadAt > 0 && learnedReads(c.pre[o.ReadAt-1:o.ReadAt]).readAt(ctr) {
			return true
		}
	}
	return false
}

// blobCard appends to sure the outline of the clean blob b, re-fitted to
// the edges of gr, when it holds a sticker or matches a taught card read
// quickly (its reading added to r.ref.pre), and reports whether it did;
// an outline that matched nothing quickly is pending (r.ref.pending).
func (r *Reader) blobCard(colour gocv.Mat, gr geom.View, b *change.Blob, part bool, sure []outline.Candidate, minW, maxW float64) ([]outline.Candidate, bool, error) {
	c := &r.ref
	q, ok := r.blobOutline(gr, b.Quad, b.Rect, minW, maxW)
	if !ok {
		return sure, false, nil
	}
	if r.stickerIn(q.Q) {
		c.pre = append(c.pre, learnedRead{})
		return append(sure, q), true, nil
	}
	// A blob is read quickly first, and in full at the end
	// (settlePending) where no other outline is read as its card: its
	// outline is often the card with its shadow or the hand's edge,
	// which the outline finder's outline of the card reads at once.
	var qr quickRead
	rd, ok, m, err := r.readLearnedOn(colour, q, true, &qr)
	if err != nil {
		return sure, false, err
	}
	if rd.ID == Unknown {
		c.pending = append(c.pending, refPending{q: q, part: part, quick: qr})
		return sure, false, nil // the outline finder looks again
	}
	c.pre = append(c.pre, learnedRead{rd: rd, ok: ok, done: true, m: m})
	return append(sure, q), true, nil
}

// stickeredBlobs appends to out, with the reference, each clean blob
// (findOutlinesIn: a card alone, read) and each blob's part read as a card
// (readParts: a card held, the hand taken out) that holds one sticker read
// so far, as that sticker's card: what else looks like a marker there is
// the card's art or its shadow, which the full-resolution and retry
// searches leave alone as on a card whose outline fits its sticker
// (stickerCards). Such a quadrilateral is its card (with its shadow) when
// the outline re-fitted to the card's edges is not: a small card on a busy
// table, a sticker near its corner.
func (r *Reader) stickeredBlobs(out []stickered) []stickered {
	if !r.refUsed {
		return out
	}
	add := func(q [4]geom.Point) {
		k, n := -1, 0
		for j, m := range r.reads {
			if geom.QuadInQuad(m.Marker.Corners, q) {
				k, n = j, n+1
			}
		}
		if n == 1 {
			out = append(out, stickered{q, r.reads[k].Marker.Corners})
		}
	}
	for _, b := range r.ref.Blobs {
		if b.Clean && b.HasQuad {
			add(b.Quad)
		}
	}
	for _, p := range r.ref.Parts {
		if p.ReadAt > 0 && p.HasQuad {
			add(p.Quad)
		}
	}
	return out
}

// findOutlinesAt runs the outline finder in places of colour; an outline
// found in two places is kept once.
func (r *Reader) findOutlinesAt(colour gocv.Mat, places []image.Rectangle, minW, maxW float64) ([]outline.Candidate, error) {
	c := &r.ref
	var out []outline.Candidate
	for _, p := range places {
		hw, hh := (p.Dx()+1)/2, (p.Dy()+1)/2
		if hw < 16 || hh < 16 {
			continue
		}
		reg := colour.Region(p)
		reg.CopyTo(&c.col)
		reg.Close()
		gocv.Resize(c.col, &c.half, image.Pt(hw, hh), 0, 0, gocv.InterpolationArea)
		pv, err := geom.ColourView(c.col)
		if err != nil {
			return nil, err
		}
		r.finder.Keep, r.finder.Origin = c.KeepNear, p.Min
		found, err := r.finder.Find(c.half, float64(hw)/float64(p.Dx()), pv, minW, maxW)
		r.finder.Keep = nil
		if err != nil {
			return nil, err
		}
		dx, dy := float32(p.Min.X), float32(p.Min.Y)
		for _, o := range found {
			o.Q = geom.ShiftQuad(o.Q, dx, dy)
			o.Alts = slices.Clone(o.Alts)
			for k := range o.Alts {
				o.Alts[k] = geom.ShiftQuad(o.Alts[k], dx, dy)
			}
			out = append(out, o)
		}
	}
	outline.SortByScore(out)
	kept := out[:0]
	for _, o := range out {
		dup := false
		for i := range kept {
			if outline.Overlap(o.Q, kept[i].Q) && geom.InQuad(geom.QuadCentre(o.Q), kept[i].Q) {
				dup = true
				if len(kept[i].Alts) < outline.MaxAlts && outline.AltDistance(o.Q, kept[i]) > 1.5 {
					kept[i].Alts = append(kept[i].Alts, o.Q)
				}
				break
			}
		}
		if !dup {
			kept = append(kept, o)
		}
	}
	return kept, nil
}

// blobOutline returns the outline q (a blob's quadrilateral) re-fitted to
// the edges of gr near it when it can be (q and alt become its
// alternatives), else q as it is; false when q is no card's shape.
func (r *Reader) blobOutline(gr geom.View, q, alt [4]geom.Point, minW, maxW float64) (outline.Candidate, bool) {
	c, ok := outline.NewCandidate(q, minW, maxW*outline.AspectMax)
	if !ok || !outline.Plausible(c.Q, minW, maxW) {
		return c, false
	}
	rc, strength, ok := r.finder.Refined(gr, c.Q, minW, maxW)
	if !ok {
		return c, true
	}
	rc.Refined, rc.Score = true, min(1, strength/40)
	rc.Alts = [][4]geom.Point{c.Q}
	if alt != q {
		rc.Alts = append(rc.Alts, alt)
	}
	return rc, true
}

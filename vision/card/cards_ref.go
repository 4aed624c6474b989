package card

// Reading cards against the empty table ([Reader.SetBackground]): the
// live pipeline learns a reference picture of the empty table (see
// [BackgroundReader]); what differs from it is where cards (and hands)
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
//     every taught card (the frame search of cards_learn_frame.go, in
//     those places only).
//   - An outline's match with a taught card that is not clear (closer
//     than cardRefSureRatio of the next card's) stands only where that
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

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "changed.h"
*/
import "C"

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// Reference comparison settings.
const (
	// cardRefShrink is the factor the frame and the reference are shrunk
	// by for the comparison.
	cardRefShrink = 4
	// cardRefLevel is the largest channel difference (shrunk frame) at
	// which a pixel counts as changed.
	cardRefLevel = 20
	// cardRefMaxShare is the share of the frame that may differ from the
	// reference for it to be used.
	cardRefMaxShare = 0.5
	// cardRefMinBlob is the smallest blob that is searched, as a share of
	// the smallest card's area (a card partly out of the frame).
	cardRefMinBlob = 0.25
	// cardRefMargin is the margin around a blob's box searched, as a share
	// of its longer side (at least cardRefMinMargin px).
	cardRefMargin    = 0.1
	cardRefMinMargin = 20
	// cardRefKeyPlaces is the most blobs searched for keypoints a frame,
	// cardRefKeyFeatures the keypoints taken in each (fewer are cheaper
	// but lose small, tilted cards).
	cardRefKeyPlaces   = 3
	cardRefKeyFeatures = 1500
	// cardRefRim is the rim around a card read (full-resolution pixels)
	// that a blob's changed pixels may reach beyond the card: the changes
	// are closed at a quarter of the resolution, and an outline read may
	// lie a few pixels inside its card's edge.
	cardRefRim = 10
	// cardRefRestMin is the least changed area beyond the cards read and
	// their rims, but skin, for a blob to be searched for keypoints, in
	// smallest cards: training scenes (TestCardsTrainLearned, 100 taught,
	// with the reference), 1,057 blob searches, 95 of which found a card:
	// those left at least 1.7 cards; 60 searches in vain less than 1 card.
	// Nor is a blob searched whose pixels left are a shadow (shadowIn's
	// test, on them): 182 searches in vain, none that found a card.
	cardRefRestMin = 1.0
	// cardRefFree is the least share of a blob that no card read covers
	// for the blob to be searched for keypoints (a card read and the hand
	// holding it leave less).
	cardRefFree = 0.4
	// A blob with less free is still searched when what is free but
	// skin-coloured makes cardRefFreeRest of the smallest cards: another
	// card in the blob of a card read (held by the same hand, lying
	// against it).
	cardRefFreeRest = 4.0
	// cardRefStickerReach is how far from a sticker read (in marker
	// sides) its card may reach: a sticker in a corner of a card 6 sides
	// long.
	cardRefStickerReach = 6
	// A shadow darkens the table's channels by about one factor: at least
	// cardRefShadowMin, the factors less than cardRefShadowSpread apart.
	cardRefShadowMin    = 0.3
	cardRefShadowSpread = 0.12
	// A pixel that fails that test is still a shadow's when the 3×3
	// pixels around it (the shrunk frame's: 12×12 of the camera's) pass
	// it on their means, and each is darker than the table's by more than
	// cardRefShadowNearDark over its three channels, their factors less
	// than cardRefShadowNearRange apart (cardRefShadowNear). A soft shadow
	// on a dark table fails the test of each pixel on the camera's noise
	// (felt's red channel is about 30: noise of 2.5 there moves its factor
	// by 0.08), and the shadow then joins the card's blob, which the
	// outline finder and the keypoint search must then read. A sticker's squares, a card's
	// art or its edge in the 3×3 fail the range or the darkening.
	cardRefShadowNearRange = 0.25
	cardRefShadowNearDark  = 6
	// An outline matching no taught card is a shadow, not an unknown card,
	// when its pixels are the table's darkened by about one factor
	// (shadowIn): each channel's factor (against the unchanged pixels') at
	// least cardRefShadowMin and at most cardRefShadowMax, the three less
	// than cardRefShadowSpread apart, and the pixels off that darkened
	// table by at most cardRefShadowFit of its level (root mean square).
	// Training scenes of untaught cards with the empty table, the outlines
	// reported unknown and at least cardRefUnknownChanged of them changed:
	// 24 of the 27 on no card are such shadows, none of the 1,150 on a
	// card; a card's own pixels are off the table's by 0.3 and more.
	cardRefShadowMax = 0.97
	cardRefShadowFit = 0.2
	// Of two unknown outlines of one card, the larger is the card with
	// the table around it when less than cardRefPairChanged of what it
	// adds to the smaller changed (oneUnknown).
	cardRefPairChanged = 0.7
	// cardRefClean is the least share of its quadrilateral a blob fills
	// for the blob to be a card alone, whose outline the blob gives (the
	// outline finder does not search it).
	cardRefClean = 0.8
	// cardRefPartClean is cardRefClean for a blob's part with the skin
	// taken out (a thumb over the card takes a bite out of it, and so do
	// skin-coloured parts of its art at its edge).
	cardRefPartClean = 0.6
	// cardRefPartsRead is the share of a blob's changed area (the hand
	// taken out) that its parts read as cards must cover for its place not
	// to be searched for outlines too.
	cardRefPartsRead = 0.8
	// cardRefUnknownChanged is the least share of an outline matching no
	// taught card that must differ from the reference for the outline to
	// be reported as an unknown card (less: a shadow, the table's pattern
	// next to a card).
	cardRefUnknownChanged = 0.5
	// cardRefAspect is a card's length over its width (63 × 88 mm).
	cardRefAspect = 1.4
	// cardRefSureRatio: an outline of a frame read with the reference
	// whose match is closer than this share of the next card's distance
	// is taken for its card as it is; other matches stand when at least
	// cardRefMinFound of their card's taught keypoints, and
	// cardRefMinShare of them, are found at the pose (refConfirms;
	// training scenes, 100 and 500 taught: matches of other cards find at
	// most 7% and 15%, 97.6% of those of their own card 18% or more).
	cardRefSureRatio = 0.2
	cardRefMinFound  = 12
	cardRefMinShare  = 0.18
	// Matches beyond the match decision's threshold or ratio but within
	// cardRefBandDist and cardRefBandRatio stand when at least
	// cardRefBandFound keypoints, cardRefBandShare of the taught ones, are
	// found at the pose. In the band (training scenes, 100 and 500
	// taught) matches of other cards find up to 35% (a card of the same
	// family with the same icons), right ones 40% and more. The distance
	// ends at 0.55: beyond it, an untaught card of the same family with
	// the same two big icons as a taught one finds 56% of its keypoints at
	// 0.57 (TestCardsConfirmCalibrate, 500 taught); within it none does.
	cardRefBandDist  = 0.55
	cardRefBandRatio = 0.85
	cardRefBandFound = 30
	cardRefBandShare = 0.4
	// A match in the band also stands with fewer of its keypoints found,
	// cardRefDistinctShare of them, when cardRefDistinctFound of those no
	// other taught card has at the same place (index.Distinct), at least
	// cardRefDistinctOwn of the card's distinct ones, are found: a card of
	// the same family finds the keypoints of the frame, the icons and the
	// layout the cards share, not those of the art. On the same scenes
	// the matches of other cards finding 30% or more find at most 7% of
	// their distinct keypoints, and of those finding fewer than 30% at
	// most 26%; right ones not taken by the 40% find 11–38%.
	cardRefDistinctShare = 0.3
	cardRefDistinctOwn   = 0.18
	cardRefDistinctFound = 10
	// A match in the band also stands when the keypoints found, at least
	// cardRefSpreadShare of the taught ones, are spread over the card: in
	// at least cardRefSpreadCells of the cardVerifyCells² cells over it,
	// cardRefSpreadDistinct of them with a distinct keypoint found. An
	// untaught card finds a taught one's keypoints where the two share a
	// frame, an icon or a title bar: a few places, or few keypoints spread
	// thin. In TestCardsConfirmCalibrate's training scenes (-confirm-dump
	// lists every verification) other cards' matches reach a 0.26 share in
	// 9 cells (7 distinct), 10 cells (7 distinct) at a 0.20 share, and 11
	// cells (8 distinct) at 0.15; none meets all three, while about a fifth
	// of the right matches the other rules leave do.
	cardRefSpreadShare    = 0.2
	cardRefSpreadCells    = 10
	cardRefSpreadDistinct = 8
)

// cardRef is a card reader's reference of the empty table and its
// buffers.
type cardRef struct {
	small      gocv.Mat // the reference shrunk (BGR)
	cur, mask  gocv.Mat // the frame shrunk, its changed pixels
	conv       gocv.Mat // a BGRA or grey reference converted
	kernel     gocv.Mat
	keyer      *index.Keyer // the keypoint search in blobs, made when first needed
	up         gocv.Mat     // a place of mask at full resolution
	col, half  gocv.Mat     // a place of the frame (continuous) and its half
	size       image.Point
	has        bool
	blobs      []cardRefBlob
	parts      []cardRefBlob     // clean parts of blobs that are not, their skin taken out
	part       gocv.Mat          // a blob's place of mask, skin taken out
	partRaw    gocv.Mat          // c.part before the opening
	skin       gocv.Mat          // c.part's skin-coloured pixels
	labels     gocv.Mat          // their connected parts
	rim        []bool            // by label: the part reaches the blob's rim
	kernel3    gocv.Mat          // 3×3: the hand's rim
	partKernel gocv.Mat          // closes a part's gaps
	rawMask    gocv.Mat          // c.mask before its closing and opening
	near       gocv.Mat          // a place's rawMask dilated (keepNearChanged)
	nearKernel gocv.Mat          // near's dilation: cardRefNear each way
	nearRow    []uint8           // keepNearChanged's row of near spread to the picture's columns
	nearCol    []int32           // keepNearChanged's column of near by a pixel's
	places     []image.Rectangle // searched for stickers
	edgePlaces []image.Rectangle // searched for outlines: blobs not clean
	pre        []cardLearnedRead // the readings of the first outlines (findOutlinesIn)
	// keepNear is keepNearChanged bound once (NewReader): set as the
	// sticker search's and the outline finder's filter it allocates
	// nothing per frame.
	keepNear func(bin []uint8, cols, rows int, origin image.Point, scale float64)
	// pending are the outlines of blobs (clean ones and parts) that a
	// quick reading did not take for a card; they are findOutlinesIn's
	// last outlines, from pendingFrom on, and are read in full only where
	// no other outline is read as a taught card (settlePending).
	pending     []cardRefPending
	pendingFrom int
	pendingDrop []bool             // settlePending's
	failed      []marker.Candidate // sticker candidates of all places
	// blobFree's cards read (corners within cardQuadRowSpan's bound: each
	// card read, then it with its rim) and the others, and their spans on a
	// row.
	freeReads, freeFar [][4]geom.Point
	freeSpans          [][2]int
	freeTiles          []cardShadowSums // blobFreeOf's tiles (cardUnshaded)
	openAt             []int            // openBlobs' new indices
	markerBlobs        []image.Rectangle
	// confirmTrace, when set, sees every verification of refConfirms
	// (tests).
	confirmTrace func(q [4]geom.Point, m index.Match, v index.Verified)
	// stillNow are the blobs searched in vain for keypoints this frame,
	// stillLast in the last one (cards_ref_still.go).
	stillNow, stillLast []cardRefStill
	// tableGain is each channel's factor from the reference to the frame
	// over the unchanged pixels (shadowIn; set when tableGainOK).
	tableGain   [3]float64
	tableGainOK bool
}

// cardRefBlob is one changed region: its box (full resolution), its
// changed area (full-resolution pixels) and its smallest enclosing
// rectangle (full resolution).
type cardRefBlob struct {
	box  image.Rectangle
	area float64
	rect [4]geom.Point
	// quad is the quadrilateral around it (when hasQuad); clean when the
	// blob fills it (a card alone: no hand, no other card touching it).
	quad           [4]geom.Point
	hasQuad, clean bool
	// rest is a blob's changed area once the hand is taken out, read the
	// area of its parts read as cards; parent is a part's blob.
	rest, read float64
	parent     int
	// readAt is 1 + the index in cardRef.pre of a part's reading as a
	// card (0: none).
	readAt int
}

func newCardRef() cardRef {
	return cardRef{small: gocv.NewMat(), cur: gocv.NewMat(), mask: gocv.NewMat(), conv: gocv.NewMat(),
		kernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(5, 5)), col: gocv.NewMat(), half: gocv.NewMat(), up: gocv.NewMat(),
		part: gocv.NewMat(), partRaw: gocv.NewMat(), skin: gocv.NewMat(), labels: gocv.NewMat(), kernel3: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)), partKernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(9, 9)),
		rawMask: gocv.NewMat(), near: gocv.NewMat(), nearKernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(2*cardRefNear+1, 2*cardRefNear+1))}
}

func (c *cardRef) close() {
	for _, m := range []*gocv.Mat{&c.small, &c.cur, &c.mask, &c.conv, &c.kernel, &c.col, &c.half, &c.up, &c.part, &c.partRaw, &c.skin, &c.labels, &c.kernel3, &c.partKernel, &c.rawMask, &c.near, &c.nearKernel} {
		m.Close()
	}
	if c.keyer != nil {
		c.keyer.Close()
	}
}

// SetBackground gives the reader a picture of the empty table (8-bit BGR,
// BGRA or grey, the size of the frames; the reader keeps its own copy):
// cards are then looked for where the frame differs from it (see
// cards_ref.go), which finds cards whose edges a busy table hides and
// costs less. An empty Mat removes the reference; without one the reader
// reads as before. A reference of another size than the frames read so far
// is an error; frames of another size than the reference are read without
// it (and drop it).
func (r *Reader) SetBackground(img gocv.Mat) error {
	if r.closed {
		return errors.New("card: card reader: SetBackground after Close")
	}
	r.forgetStill() // searched and read against another reference (cards_still.go)
	if img.Empty() {
		r.ref.has = false
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
		gocv.CvtColor(img, &r.ref.conv, gocv.ColorBGRAToBGR)
		src = r.ref.conv
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(img, &r.ref.conv, gocv.ColorGrayToBGR)
		src = r.ref.conv
	default:
		return fmt.Errorf("card: card reader: reference type %v, want 8-bit BGR, BGRA or grey", img.Type())
	}
	cardRefShrinkTo(src, &r.ref.small)
	r.ref.size, r.ref.has = image.Pt(w, h), true
	return nil
}

// HasBackground reports whether the reader has a reference of the empty
// table.
func (r *Reader) HasBackground() bool { return r.ref.has }

// cardRefShrinkTo shrinks src by cardRefShrink into dst (linear
// interpolation), rounding the sides up.
func cardRefShrinkTo(src gocv.Mat, dst *gocv.Mat) {
	w, h := (src.Cols()+cardRefShrink-1)/cardRefShrink, (src.Rows()+cardRefShrink-1)/cardRefShrink
	gocv.Resize(src, dst, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
}

// refPlaces compares colour (continuous BGR, the frame) with the reference
// and fills r.ref.blobs and r.ref.places (the places searched, merged,
// even-aligned). It reports false when there is no usable reference.
func (r *Reader) refPlaces(colour gocv.Mat, minW float64) (bool, error) {
	c := &r.ref
	w, h := colour.Cols(), colour.Rows()
	if !c.has {
		return false, nil
	}
	if c.size != image.Pt(w, h) {
		c.has = false // the camera's resolution changed
		return false, nil
	}
	cardRefShrinkTo(colour, &c.cur)
	ok, err := c.changed()
	if err != nil || !ok {
		return false, err
	}
	c.mask.CopyTo(&c.rawMask) // before the opening takes out a sticker alone on a card like the table
	gocv.MorphologyEx(c.mask, &c.mask, gocv.MorphClose, c.kernel)
	gocv.MorphologyEx(c.mask, &c.mask, gocv.MorphOpen, c.kernel)
	c.findBlobs(cardRefMinBlob * minW * minW * cardRefAspect)
	if err := c.findParts(minW * minW * cardRefAspect); err != nil {
		return false, err
	}
	c.places = c.places[:0]
	for _, b := range c.blobs {
		c.places = append(c.places, r.refPlace(b.box))
	}
	c.places = cardRefMerge(c.places)
	return true, nil
}

// openBlobs keeps of the reference's blobs only those of indices open (a
// frame partly followed: the rest are cards followed), their parts and
// their places.
func (r *Reader) openBlobs(open []int) {
	c := &r.ref
	c.openAt = slices.Grow(c.openAt[:0], len(c.blobs))[:len(c.blobs)]
	at := c.openAt // a blob's new index + 1, 0: dropped
	clear(at)
	n := 0
	for _, bi := range open {
		at[bi] = n + 1
		c.blobs[n] = c.blobs[bi]
		n++
	}
	c.blobs = c.blobs[:n]
	c.parts = slices.DeleteFunc(c.parts, func(p cardRefBlob) bool { return at[p.parent] == 0 })
	for i := range c.parts {
		c.parts[i].parent = at[c.parts[i].parent] - 1
	}
	c.places = c.places[:0]
	for _, b := range c.blobs {
		c.places = append(c.places, r.refPlace(b.box))
	}
	c.places = cardRefMerge(c.places)
}

// cardRefMerge merges the places that overlap where their box covers
// little more than the two: places far apart are searched apart even when
// their margins meet (a pixel may then be searched twice).
func cardRefMerge(ps []image.Rectangle) []image.Rectangle {
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

// changed fills c.mask with the pixels of c.cur that differ from c.small
// by cardRefLevel in a channel, after taking out each channel's median
// difference (the exposure); false when more than cardRefMaxShare differ.
func (c *cardRef) changed() (bool, error) {
	if c.cur.Cols() != c.small.Cols() || c.cur.Rows() != c.small.Rows() || c.cur.Type() != gocv.MatTypeCV8UC3 || c.small.Type() != gocv.MatTypeCV8UC3 {
		return false, errors.New("card: card reference: sizes differ")
	}
	if c.mask.Cols() != c.cur.Cols() || c.mask.Rows() != c.cur.Rows() || c.mask.Type() != gocv.MatTypeCV8U {
		c.mask.Close()
		c.mask = gocv.NewMatWithSize(c.cur.Rows(), c.cur.Cols(), gocv.MatTypeCV8U)
	}
	cur, err := c.cur.DataPtrUint8()
	if err != nil {
		return false, fmt.Errorf("card reference: %w", err)
	}
	ref, err := c.small.DataPtrUint8()
	if err != nil {
		return false, fmt.Errorf("card reference: %w", err)
	}
	out, err := c.mask.DataPtrUint8()
	if err != nil {
		return false, fmt.Errorf("card reference: %w", err)
	}
	n := len(out)
	if len(cur) < 3*n || len(ref) < 3*n {
		return false, errors.New("card: card reference: short buffer")
	}
	c.tableGainOK = false
	if n == 0 {
		return true, nil
	}
	changed := int(C.tc_ref_changed((*C.uint8_t)(unsafe.Pointer(&cur[0])), (*C.uint8_t)(unsafe.Pointer(&ref[0])), (*C.uint8_t)(unsafe.Pointer(&out[0])),
		C.int32_t(c.mask.Cols()), C.int32_t(c.mask.Rows()), C.int32_t(cardRefLevel), C.double(cardRefShadowMin), C.double(cardRefShadowSpread),
		C.double(cardRefShadowNearRange), C.int32_t(cardRefShadowNearDark)))
	return float64(changed) <= cardRefMaxShare*float64(n), nil
}

// changedIn is the share of the quadrilateral q (full-resolution pixels)
// that differs from the reference, sampled on the shrunk mask.
func (c *cardRef) changedIn(q [4]geom.Point) float64 {
	mask, err := c.mask.DataPtrUint8()
	if err != nil {
		return 1
	}
	const s = cardRefShrink
	w := c.mask.Cols()
	box := geom.QuadBox(q)
	sb := image.Rect(box.Min.X/s, box.Min.Y/s, (box.Max.X+s-1)/s, (box.Max.Y+s-1)/s).Intersect(image.Rect(0, 0, w, c.mask.Rows()))
	in, changed := 0, 0
	// Corners far from the picture (or not numbers) take every test.
	finite := geom.QuadFinite(q)
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		if finite {
			x0, x1 := cardQuadRowSpan(q, float32(y*s+s/2), s, sb.Min.X, sb.Max.X)
			in += x1 - x0
			for _, v := range mask[y*w+x0 : y*w+x1] {
				if v != 0 {
					changed++
				}
			}
			continue
		}
		for x := sb.Min.X; x < sb.Max.X; x++ {
			if !geom.InQuad(geom.Point{X: float32(x*s + s/2), Y: float32(y*s + s/2)}, q) {
				continue
			}
			in++
			if mask[y*w+x] != 0 {
				changed++
			}
		}
	}
	if in == 0 {
		return 1
	}
	return float64(changed) / float64(in)
}

// changedAdded is the share of what outline large adds to outline small
// (lying mostly inside it) that differs from the reference: the changed
// areas' difference over the outlines' (0 where large adds nothing).
func (c *cardRef) changedAdded(large, small [4]geom.Point) float64 {
	al, as := geom.QuadArea(large), geom.QuadArea(small)
	if al <= as {
		return 0
	}
	return (c.changedIn(large)*al - c.changedIn(small)*as) / (al - as)
}

// shadowIn reports whether the frame inside outline q is the table
// darkened by about one factor (cardRefShadowMin … cardRefShadowFit): a
// shadow cast beside a card held over the table, whose soft, noisy pixels
// changed's test of each pixel does not take for one.
func (c *cardRef) shadowIn(q [4]geom.Point) bool {
	cur, ref, mask, ok := c.shadowData()
	if !ok || !geom.QuadFinite(q) {
		return false
	}
	const s = cardRefShrink
	w, h := c.mask.Cols(), c.mask.Rows()
	gain := c.gain(cur, ref, mask)
	box := geom.QuadBox(q)
	sb := image.Rect(box.Min.X/s, box.Min.Y/s, (box.Max.X+s-1)/s, (box.Max.Y+s-1)/s).Intersect(image.Rect(0, 0, w, h))
	px := func(x int) float32 { return float32(x*s + s/2) }
	var sums cardShadowSums
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		x0, x1 := cardQuadRowSpan(q, px(y), s, sb.Min.X, sb.Max.X)
		for i := y*w + x0; i < y*w+x1; i++ {
			sums.add(cur[3*i:3*i+3], ref[3*i:3*i+3])
		}
	}
	return sums.shadow(gain)
}

// shadowData returns the shrunk frame, reference and mask for shadowIn
// and blobFree's shadow test; false when they do not fit together.
func (c *cardRef) shadowData() (cur, ref, mask []byte, ok bool) {
	var err error
	if cur, err = c.cur.DataPtrUint8(); err != nil {
		return nil, nil, nil, false
	}
	if ref, err = c.small.DataPtrUint8(); err != nil {
		return nil, nil, nil, false
	}
	if mask, err = c.mask.DataPtrUint8(); err != nil {
		return nil, nil, nil, false
	}
	w, h := c.mask.Cols(), c.mask.Rows()
	return cur, ref, mask, len(cur) >= 3*w*h && len(ref) >= 3*w*h && len(mask) >= w*h
}

// gain is each channel's factor from the reference to the frame over the
// unchanged pixels (the exposure), computed once a frame.
func (c *cardRef) gain(cur, ref, mask []byte) [3]float64 {
	if c.tableGainOK {
		return c.tableGain
	}
	w, h := c.mask.Cols(), c.mask.Rows()
	// Integer sums: the same as adding the pixels as doubles (exact below
	// 2⁵³), without a conversion per channel.
	var sums [6]uint64
	cur, ref, mask = cur[:3*w*h], ref[:3*w*h], mask[:w*h]
	for i, m := range mask {
		if m != 0 {
			continue
		}
		c, r := cur[3*i:3*i+3], ref[3*i:3*i+3]
		sums[0] += uint64(c[0])
		sums[1] += uint64(c[1])
		sums[2] += uint64(c[2])
		sums[3] += uint64(r[0])
		sums[4] += uint64(r[1])
		sums[5] += uint64(r[2])
	}
	for k := range 3 {
		c.tableGain[k] = float64(sums[k]) / max(1, float64(sums[3+k]))
	}
	c.tableGainOK = true
	return c.tableGain
}

// cardShadowSums adds up pixels of the shrunk frame and the reference for
// the test of a shadow: their sums, squares and products by channel.
type cardShadowSums struct {
	n                int
	c, r, cc, cr, rr [3]float64
}

// add adds the BGR pixel cur of the frame and ref of the reference.
func (s *cardShadowSums) add(cur, ref []byte) {
	for k := range 3 {
		c, r := float64(cur[k]), float64(ref[k])
		s.c[k] += c
		s.r[k] += r
		s.cc[k] += c * c
		s.cr[k] += c * r
		s.rr[k] += r * r
	}
	s.n++
}

// shadow reports whether the pixels added are the table darkened by about
// one factor: each channel's factor inside (its sum over the reference's),
// against gain, within cardRefShadowMin … cardRefShadowMax and less than
// cardRefShadowSpread apart, and the pixels off the reference darkened by
// it by at most cardRefShadowFit of its level (root mean square).
func (s *cardShadowSums) shadow(gain [3]float64) bool {
	if s.n == 0 {
		return false
	}
	var a [3]float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for k := range 3 {
		a[k] = s.c[k] / max(1, s.r[k])
		f := a[k] / max(1e-9, gain[k])
		lo, hi = min(lo, f), max(hi, f)
	}
	if lo < cardRefShadowMin || hi > cardRefShadowMax || hi-lo >= cardRefShadowSpread {
		return false
	}
	// Σ(c − a·r)² and Σ a·r, from the sums.
	var off, level float64
	for k := range 3 {
		off += s.cc[k] - 2*a[k]*s.cr[k] + a[k]*a[k]*s.rr[k]
		level += a[k] * s.r[k]
	}
	m := float64(3 * s.n)
	return math.Sqrt(max(0, off)/m) <= cardRefShadowFit*max(1, level/m)
}

// cardQuadRowSpan returns the span x0 … x1 (exclusive; within the x0 … x1
// given) of a row at py where geom.InQuad(geom.Point{float32(x·s + s/2),
// py}, q) holds (the grid of the shrunk mask, s pixels a step), q's corners
// within ±1e7: each side's test along the row is monotonic in x (rounding
// keeps the order of the points' X - a.X, and of a product with a constant
// and a difference from one), so the points passing it are a prefix or a
// suffix of the row (all or none for a side along the row), whose end is
// found with the very test: from where the side crosses the row, step by
// step to where the test changes (a step or two); the points passing all
// four are where the four spans meet. A few tests per side instead of four
// per point.
func cardQuadRowSpan(q [4]geom.Point, py float32, s, x0, x1 int) (int, int) {
	for k := range 4 {
		if x0 >= x1 {
			return x0, x0
		}
		a, b := q[k], q[(k+1)%4]
		ex, ey, ay := float64(b.X-a.X), float64(b.Y-a.Y), float64(py-a.Y)
		// pass(x) is geom.InQuad's test of this side at column x.
		pass := func(x int) bool { return !(ex*ay-ey*float64(float32(x*s+s/2)-a.X) < 0) }
		n := x1 - x0
		if ey == 0 { // the same along the row
			if !pass(x0) {
				return x0, x0
			}
			continue
		}
		// Where the side crosses the row, as a column from x0, within
		// 0 … n.
		at := (float64(a.X) + ex*ay/ey - float64(s/2)) / float64(s)
		h := n
		if e := math.Ceil(at) - float64(x0); e < float64(n) {
			h = int(max(0, e))
		} // e NaN or from n on: n
		switch {
		case ey > 0: // the test's value falls along the row: a prefix passes
			// The first that fails: none before it fails.
			for h < n && pass(x0+h) {
				h++
			}
			for h > 0 && !pass(x0+h-1) {
				h--
			}
			x1 = x0 + h
		default: // it rises: a suffix passes
			// The first that passes: none before it passes.
			for h < n && !pass(x0+h) {
				h++
			}
			for h > 0 && pass(x0+h-1) {
				h--
			}
			x0 += h
		}
	}
	return x0, x1
}

// findBlobs fills c.blobs with the changed regions of c.mask of at least
// minArea full-resolution pixels.
func (c *cardRef) findBlobs(minArea float64) {
	c.blobs = c.blobs[:0]
	pv := gocv.FindContours(c.mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer pv.Close()
	const s = cardRefShrink
	for i := range pv.Size() {
		ct := pv.At(i)
		area := gocv.ContourArea(ct) * s * s
		if area < minArea {
			continue
		}
		c.blobs = append(c.blobs, cardRefBlobOf(geom.ConvexHull(ct.ToPoints()), gocv.BoundingRect(ct), area))
	}
}

// cardRefBlobOf is the blob of the convex hull hull, bounding box box
// (pixels of the shrunk picture) and area (full-resolution pixels).
func cardRefBlobOf(hull []image.Point, box image.Rectangle, area float64) cardRefBlob {
	const s = cardRefShrink
	b := cardRefBlob{box: image.Rectangle{Min: box.Min.Mul(s), Max: box.Max.Mul(s)}, area: area, rect: cardMinRect(hull, s)}
	b.quad, b.hasQuad = cardHullQuad(hull, s)
	b.clean = b.hasQuad && area >= cardRefClean*geom.QuadArea(b.quad)
	return b
}

// findParts fills c.parts with the clean parts of the blobs that are not
// clean once their skin-coloured pixels are taken out and the rest opened:
// a card and the thumb over its edge or the hand holding it make one blob
// that is no card's shape, the card alone is one. Parts at least minArea
// full-resolution pixels, not on a clean blob or another part.
func (c *cardRef) findParts(minArea float64) error {
	c.parts = c.parts[:0]
	for bi := range c.blobs {
		if c.blobs[bi].clean {
			continue
		}
		if err := c.findPartsOf(bi, minArea); err != nil {
			return err
		}
	}
	return nil
}

// findPartsOf adds the clean parts of blob bi (not clean) to c.parts
// (findParts).
func (c *cardRef) findPartsOf(bi int, minArea float64) error {
	const s = cardRefShrink
	w := c.mask.Cols()
	cur, err := c.cur.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("card reference parts: %w", err)
	}
	b := &c.blobs[bi]
	sb := image.Rect(b.box.Min.X/s, b.box.Min.Y/s, b.box.Max.X/s, b.box.Max.Y/s).Intersect(image.Rect(0, 0, w, c.mask.Rows()))
	reg := c.mask.Region(sb)
	reg.CopyTo(&c.part)
	reg.Close()
	skin, err := c.takeHand(cur[3*(sb.Min.Y*w+sb.Min.X):], w)
	if err != nil {
		return err
	}
	if skin == 0 {
		return nil // the blob is not a hand and a card
	}
	b.rest = b.area - float64(skin*s*s)
	// Opened (a hand's rim cut off), and also closed first (a card
	// like the table in places leaves gaps).
	c.part.CopyTo(&c.partRaw)
	gocv.MorphologyEx(c.part, &c.part, gocv.MorphOpen, c.kernel)
	c.addParts(sb.Min, bi, minArea)
	gocv.MorphologyEx(c.partRaw, &c.part, gocv.MorphClose, c.partKernel)
	gocv.MorphologyEx(c.part, &c.part, gocv.MorphOpen, c.kernel)
	c.addParts(sb.Min, bi, minArea)
	return nil
}

// takeHand clears the pixels of c.part (a blob's place of the mask) that
// are skin-coloured in cur (the shrunk frame from the place's top-left
// pixel on, w pixels a row) and connected to the blob's rim: the hand
// reaching in and the thumb over the card's edge, not skin-coloured art
// inside the card. It returns how many it cleared.
func (c *cardRef) takeHand(cur []byte, w int) (int, error) {
	pw, ph := c.part.Cols(), c.part.Rows()
	p, err := c.part.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	c.part.CopyTo(&c.skin) // its size and type; every pixel is set below
	sk, err := c.skin.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	any := false
	for y := range ph {
		for x := range pw {
			i := y*pw + x
			sk[i] = 0
			if p[i] != 0 && geom.Skin(cur[3*(y*w+x):]) {
				sk[i] = 255
				any = true
			}
		}
	}
	if !any {
		return 0, nil
	}
	// 16-bit labels: a place of the shrunk frame has fewer pixels.
	n := gocv.ConnectedComponentsWithParams(c.skin, &c.labels, 8, gocv.MatTypeCV16U, gocv.CCL_DEFAULT)
	lb, err := c.labels.DataPtrUint16()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	c.rim = slices.Grow(c.rim[:0], n)[:n]
	clear(c.rim)
	for y := range ph {
		for x := range pw {
			i := y*pw + x
			if lb[i] == 0 || c.rim[lb[i]] {
				continue
			}
			if x == 0 || y == 0 || x == pw-1 || y == ph-1 || p[i-1] == 0 || p[i+1] == 0 || p[i-pw] == 0 || p[i+pw] == 0 {
				c.rim[lb[i]] = true
			}
		}
	}
	// The hand's rim too: pixels of hand and table mixed, no skin colour.
	cleared := 0
	for i, l := range lb[:pw*ph] {
		sk[i] = 0
		if l != 0 && c.rim[l] {
			sk[i] = 255
			cleared++
		}
	}
	gocv.Dilate(c.skin, &c.skin, c.kernel3)
	if sk, err = c.skin.DataPtrUint8(); err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	for i, v := range sk[:pw*ph] {
		if v != 0 {
			p[i] = 0
		}
	}
	return cleared, nil
}

// addParts adds the clean blobs of c.part (whose top-left pixel is at at
// in the shrunk picture; a place of blob parent) to c.parts.
func (c *cardRef) addParts(at image.Point, parent int, minArea float64) {
	const s = cardRefShrink
	pv := gocv.FindContours(c.part, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer pv.Close()
	for i := range pv.Size() {
		ct := pv.At(i)
		area := gocv.ContourArea(ct) * s * s
		if area < minArea {
			continue
		}
		pts := ct.ToPoints()
		for k := range pts {
			pts[k] = pts[k].Add(at)
		}
		b := cardRefBlobOf(geom.ConvexHull(pts), gocv.BoundingRect(ct).Add(at), area)
		b.clean = b.hasQuad && area >= cardRefPartClean*geom.QuadArea(b.quad)
		if !b.clean || c.hasPart(b.quad) {
			continue
		}
		b.parent = parent
		c.parts = append(c.parts, b)
	}
}

// hasPart reports whether the quadrilateral q of a part lies in a clean
// blob's quadrilateral or is one of c.parts (give or take a tenth of its
// size).
func (c *cardRef) hasPart(q [4]geom.Point) bool {
	p := geom.QuadCentre(q)
	for _, b := range c.blobs {
		if b.clean && geom.InQuad(p, b.quad) {
			return true
		}
	}
	tol := 0.1 * cardQuadWidth(q)
	for _, b := range c.parts {
		if outline.AltDistance(q, outline.Candidate{Q: b.quad}) < tol {
			return true
		}
	}
	return false
}

// cardMinRect returns the smallest rectangle around the convex polygon
// hull (pixels of a picture shrunk by s), clockwise, in full-resolution
// pixels.
func cardMinRect(hull []image.Point, s float64) [4]geom.Point {
	var out [4]geom.Point
	if len(hull) < 3 {
		return out
	}
	best := math.Inf(1)
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l, dy/l
		lo, hi, lo2, hi2 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			u := float64(p.X)*ux + float64(p.Y)*uy
			v := -float64(p.X)*uy + float64(p.Y)*ux
			lo, hi, lo2, hi2 = min(lo, u), max(hi, u), min(lo2, v), max(hi2, v)
		}
		// A pixel covers ±0.5 around its centre.
		lo, hi, lo2, hi2 = lo-0.5, hi+0.5, lo2-0.5, hi2+0.5
		if area := (hi - lo) * (hi2 - lo2); area < best {
			best = area
			for k, uv := range [4][2]float64{{lo, lo2}, {hi, lo2}, {hi, hi2}, {lo, hi2}} {
				x := uv[0]*ux - uv[1]*uy
				y := uv[0]*uy + uv[1]*ux
				out[k] = geom.Point{X: float32((x+0.5)*s - 0.5), Y: float32((y+0.5)*s - 0.5)}
			}
		}
	}
	if q, ok := outline.NewCandidate(out, 0, math.Inf(1)); ok {
		out = q.Q // clockwise
	}
	return out
}

// cardHullQuad returns the quadrilateral around the convex polygon hull
// (pixels of a picture shrunk by s) that the fewest pixels outside it
// make: edges are dropped one by one, the one whose neighbours' meeting
// point adds the least area first. Corners in full-resolution pixels,
// clockwise; false when the hull is not four-sided enough.
func cardHullQuad(hull []image.Point, s float64) ([4]geom.Point, bool) {
	var out [4]geom.Point
	if len(hull) < 4 {
		return out, false
	}
	// Pixel centres to the pixels' outer edges: each vertex moves half a
	// pixel away from the hull's centre along both axes.
	var cx, cy float64
	for _, p := range hull {
		cx += float64(p.X)
		cy += float64(p.Y)
	}
	cx, cy = cx/float64(len(hull)), cy/float64(len(hull))
	pts := make([][2]float64, len(hull))
	for i, p := range hull {
		x, y := float64(p.X), float64(p.Y)
		x += math.Copysign(0.5, x-cx)
		y += math.Copysign(0.5, y-cy)
		pts[i] = [2]float64{x, y}
	}
	for len(pts) > 4 {
		best, bi := math.Inf(1), -1
		var bp [2]float64
		n := len(pts)
		for i := range n {
			// Edge (i, i+1) goes: edges (i-1, i) and (i+1, i+2) meet.
			a, b, c, d := pts[(i+n-1)%n], pts[i], pts[(i+1)%n], pts[(i+2)%n]
			p, ok := geom.LineMeet(a, b, c, d)
			// The meeting point lies beyond b and before c.
			if !ok || (p[0]-b[0])*(b[0]-a[0])+(p[1]-b[1])*(b[1]-a[1]) < 0 || (p[0]-c[0])*(c[0]-d[0])+(p[1]-c[1])*(c[1]-d[1]) < 0 {
				continue
			}
			// The triangle b, p, c added.
			area := math.Abs((p[0]-b[0])*(c[1]-b[1])-(p[1]-b[1])*(c[0]-b[0])) / 2
			if area < best {
				best, bi, bp = area, i, p
			}
		}
		if bi < 0 {
			return out, false
		}
		pts[bi] = bp
		pts = slices.Delete(pts, (bi+1)%n, (bi+1)%n+1)
	}
	for k, p := range pts {
		out[k] = geom.Point{X: float32((p[0]+0.5)*s - 0.5), Y: float32((p[1]+0.5)*s - 0.5)}
	}
	q, ok := outline.NewCandidate(out, 0, math.Inf(1))
	return q.Q, ok
}

// scanHalfIn is the half-resolution sticker search in the reference's
// places only; the scanner's failed candidates and blobs are those of all
// places.
func (r *Reader) scanHalfIn(g geom.View, minSide, maxSide float64) error {
	c := &r.ref
	r.reads = r.reads[:0]
	c.failed, c.markerBlobs = c.failed[:0], c.markerBlobs[:0]
	var err error
	r.scanner.Keep = c.keepNear
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
	for i := range c.blobs {
		b := &c.blobs[i]
		if !b.clean {
			continue
		}
		var err error
		if sure, b.clean, err = r.blobCard(colour, gr, b, false, sure, minW, maxW); err != nil {
			return nil, err
		}
		if b.clean {
			continue
		}
		// A card and the thumb holding it may fill their quadrilateral
		// (clean) and not read as a card: the hand is taken out and the
		// parts left are read with the other blobs' (readParts) before
		// the outline finder searches the place.
		if err := c.findPartsOf(i, minW*minW*cardRefAspect); err != nil {
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
	for _, b := range c.blobs {
		// Not a blob whose parts read as cards cover what is not the hand.
		if !b.clean && (b.rest == 0 || b.read < cardRefPartsRead*b.rest) {
			c.edgePlaces = append(c.edgePlaces, r.refPlace(b.box))
		}
	}
	c.edgePlaces = cardRefMerge(c.edgePlaces)
	t0 = r.times.now()
	out, err := r.findOutlinesAt(colour, c.edgePlaces, minW, maxW)
	r.times.since("  outline finder", t0)
	if err != nil {
		return nil, err
	}
	// The sure outlines first, their readings in r.ref.pre by index.
	out = append(sure, out...)
	for bi := range c.blobs {
		b := &c.blobs[bi]
		if b.clean {
			continue
		}
		q, ok := r.blobOutline(gr, b.rect, b.rect, minW, maxW)
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

// cardRefNear is how far from a changed pixel (cardRefShrink pixels: 4
// full-resolution ones each) a place's dark pixels are kept for the
// sticker search and its edges for the outline finder: a sticker or a
// card's edge lies in what changed or at its rim (a sticker's quiet zone,
// a card's border as light as the table).
const cardRefNear = 3

// keepNearChanged clears the pixels of bin (cols × rows: a place from
// origin shrunk by scale; a sticker search's dark pixels, the outline
// finder's edges) farther than cardRefNear from a changed pixel: the
// table's pattern beside the blobs, which makes most of a textured table's
// dark specks, sticker candidates and lines. The mask is taken before its
// opening (rawMask): a sticker alone on a card as light as the table is
// too small for it.
func (c *cardRef) keepNearChanged(bin []uint8, cols, rows int, origin image.Point, scale float64) {
	const s = cardRefShrink
	mw, mh := c.rawMask.Cols(), c.rawMask.Rows()
	at := func(v int, o int) int { return int((float64(v)+0.5)/scale) + o } // full-resolution coordinate
	box := image.Rect(at(0, origin.X)/s-cardRefNear, at(0, origin.Y)/s-cardRefNear, at(cols-1, origin.X)/s+cardRefNear+1, at(rows-1, origin.Y)/s+cardRefNear+1).Intersect(image.Rect(0, 0, mw, mh))
	if box.Empty() {
		return
	}
	reg := c.rawMask.Region(box)
	gocv.Dilate(reg, &c.near, c.nearKernel)
	reg.Close()
	near, err := c.near.DataPtrUint8()
	nw := box.Dx()
	if err != nil || c.near.Cols() != nw || c.near.Rows() != box.Dy() {
		return
	}
	c.nearCol = slices.Grow(c.nearCol[:0], cols)[:cols]
	for x := range cols {
		c.nearCol[x] = int32(min(max(at(x, origin.X)/s-box.Min.X, -1), nw))
	}
	// Each row of bin is ANDed with its row of near spread to bin's
	// columns (0xff near a change, 0 elsewhere), 8 pixels at a time; rows
	// of bin on the same row of near share the spread row.
	c.nearRow = slices.Grow(c.nearRow[:0], cols)[:cols]
	spread := -1
	for y := range rows {
		line := bin[y*cols : (y+1)*cols]
		my := at(y, origin.Y)/s - box.Min.Y
		if my < 0 || my >= box.Dy() {
			clear(line)
			continue
		}
		if my != spread {
			row := near[my*nw : (my+1)*nw]
			for x, mx := range c.nearCol {
				c.nearRow[x] = 0
				if mx >= 0 && int(mx) < nw && row[mx] != 0 {
					c.nearRow[x] = 0xff
				}
			}
			spread = my
		}
		x := 0
		for ; x+8 <= cols; x += 8 {
			v := binary.LittleEndian.Uint64(line[x:])
			if v != 0 { // most of a place is light
				binary.LittleEndian.PutUint64(line[x:], v&binary.LittleEndian.Uint64(c.nearRow[x:]))
			}
		}
		for ; x < cols; x++ {
			line[x] &= c.nearRow[x]
		}
	}
}

// cardRefPending is a blob's outline q read quickly as no card
// (blobCard); part, the blob is a part of one.
type cardRefPending struct {
	q     outline.Candidate
	part  bool
	quick cardQuickRead // where its quick reading stopped
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
func (r *Reader) settlePending(outlines []outline.Candidate, learned cardLearnedReads) ([]outline.Candidate, cardLearnedReads) {
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
			if c.pending[i-c.pendingFrom].part && l.rd.ID == Unknown && m.ID != "" && m.Dist < cardKeyMissDist && m.Dist < cardKeyMissRatio*m.Second {
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
	for i := range c.parts {
		p := &c.parts[i]
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
		p.readAt = n + 1
		q := (*sure)[n].Q
		again := false
		for j := range i {
			if o := &c.parts[j]; o.parent == p.parent && o.read > 0 && geom.InQuad(geom.QuadCentre(q), o.quad) {
				again = true
			}
		}
		if !again {
			p.read = geom.QuadArea(q)
			c.blobs[p.parent].read += p.read
		}
	}
	return nil
}

// partOnRead reports whether part i's centre lies on a card read from an
// earlier part of its blob (the same part found a second time, closed:
// findParts).
func (c *cardRef) partOnRead(i int) bool {
	p := &c.parts[i]
	ctr := geom.QuadCentre(p.quad)
	for j := range i {
		o := &c.parts[j]
		if o.parent == p.parent && o.readAt > 0 && cardLearnedReads(c.pre[o.readAt-1:o.readAt]).readAt(ctr) {
			return true
		}
	}
	return false
}

// blobCard appends to sure the outline of the clean blob b, re-fitted to
// the edges of gr, when it holds a sticker or matches a taught card read
// quickly (its reading added to r.ref.pre), and reports whether it did;
// an outline that matched nothing quickly is pending (r.ref.pending).
func (r *Reader) blobCard(colour gocv.Mat, gr geom.View, b *cardRefBlob, part bool, sure []outline.Candidate, minW, maxW float64) ([]outline.Candidate, bool, error) {
	c := &r.ref
	q, ok := r.blobOutline(gr, b.quad, b.rect, minW, maxW)
	if !ok {
		return sure, false, nil
	}
	if r.stickerIn(q.Q) {
		c.pre = append(c.pre, cardLearnedRead{})
		return append(sure, q), true, nil
	}
	// A blob is read quickly first, and in full at the end
	// (settlePending) where no other outline is read as its card: its
	// outline is often the card with its shadow or the hand's edge,
	// which the outline finder's outline of the card reads at once.
	var qr cardQuickRead
	rd, ok, m, err := r.readLearnedOn(colour, q, true, &qr)
	if err != nil {
		return sure, false, err
	}
	if rd.ID == Unknown {
		c.pending = append(c.pending, cardRefPending{q: q, part: part, quick: qr})
		return sure, false, nil // the outline finder looks again
	}
	c.pre = append(c.pre, cardLearnedRead{rd: rd, ok: ok, done: true, m: m})
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
func (r *Reader) stickeredBlobs(out []cardStickered) []cardStickered {
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
			out = append(out, cardStickered{q, r.reads[k].Marker.Corners})
		}
	}
	for _, b := range r.ref.blobs {
		if b.clean && b.hasQuad {
			add(b.quad)
		}
	}
	for _, p := range r.ref.parts {
		if p.readAt > 0 && p.hasQuad {
			add(p.quad)
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
		r.finder.Keep, r.finder.Origin = c.keepNear, p.Min
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

// refConfirms reports whether the match m of outline q (a frame read
// with the reference) stands: a clear one does; else the keypoints of m's
// card must be found where q and m's turn put them (index.Keyer.verifyAt:
// the best of its taught examples), at least cardRefMinFound and
// cardRefMinShare of them; a match not accepted by the match decision but
// within cardRefBand stands with cardRefBandFound and cardRefBandShare.
// With the reference more cards are outlined, and well, so more untaught
// ones come near a taught card (training scenes, 500 taught: false
// identifications 13 of 3658 untaught cards without a confirmation, 5
// without the reference); their keypoints do not agree, but for what a
// card shares with its family (frame, title bar, icons): a card of the
// same family finds up to 30% of them (training scenes, 500 taught).
func (r *Reader) refConfirms(q [4]geom.Point, m index.Match) (bool, error) {
	ix := r.opts.Index
	accepted := ix.Accepts(m)
	if cardRefClear(ix, m) {
		return true, nil
	}
	if !accepted && !cardRefBand(m) {
		return false, nil
	}
	return r.confirmAt(q, m, accepted)
}

// cardRefClear reports whether the match m stands without its keypoints:
// accepted, and nearer than cardRefSureRatio of the next card's distance;
// a masked match (fewer pixels compared) never does.
func cardRefClear(ix *index.Index, m index.Match) bool {
	return ix.Accepts(m) && m.Mask == nil && m.Dist <= cardRefSureRatio*m.Second
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
		enough = index.Enough{Found: cardRefMinFound, Share: cardRefMinShare}
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
		if cardRefVerified(accepted, v) {
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
	return cardRefVerified(accepted, v), nil
}

// cardRefVerified reports whether v, the verification at its pose of a
// match accepted by the match decision or not (within cardRefBand), is
// enough for the match to stand.
func cardRefVerified(accepted bool, v index.Verified) bool {
	n, share := v.Found, float64(v.Found)/float64(max(1, v.Taught))
	if accepted {
		return n >= cardRefMinFound && share >= cardRefMinShare
	}
	if n < cardRefBandFound {
		return false
	}
	own := float64(v.DistinctFound) / float64(max(1, v.DistinctTaught))
	return share >= cardRefBandShare ||
		share >= cardRefDistinctShare && v.DistinctFound >= cardRefDistinctFound && own >= cardRefDistinctOwn ||
		share >= cardRefSpreadShare && bits.OnesCount64(v.Cells) >= cardRefSpreadCells &&
			bits.OnesCount64(v.DistinctCells) >= cardRefSpreadDistinct
}

// cardRefBand reports whether m, not accepted by the match decision, is
// near enough to be accepted when its card's keypoints are found.
func cardRefBand(m index.Match) bool {
	return m.ID != "" && m.Dist <= cardRefBandDist && m.Dist <= cardRefBandRatio*m.Second
}

// refPlace is the place searched around a blob's box: a margin added,
// corners even (a place's half-resolution copy is then the frame's).
func (r *Reader) refPlace(box image.Rectangle) image.Rectangle {
	w, h := r.ref.size.X, r.ref.size.Y
	p := cardRefAround(box, image.Rect(0, 0, w, h))
	p.Min.X, p.Min.Y = p.Min.X&^1, p.Min.Y&^1
	p.Max.X, p.Max.Y = min(w, (p.Max.X+1)&^1), min(h, (p.Max.Y+1)&^1)
	return p
}

// cardRefAround is box with the search margin added, within bounds.
func cardRefAround(box, bounds image.Rectangle) image.Rectangle {
	m := max(cardRefMinMargin, int(cardRefMargin*float64(max(box.Dx(), box.Dy()))))
	return box.Inset(-m).Intersect(bounds)
}

// searchChangedKeys searches the blobs that no card read in out covers
// for the keypoints of every taught card (at most cardRefKeyPlaces of
// them, the largest first), when the frame was compared with a reference.
func (r *Reader) searchChangedKeys(img, grey gocv.Mat, gr geom.View, out []Reading, minW, maxW float64) ([]Reading, error) {
	r.ref.stillFrame()
	if !r.refUsed || len(r.ref.blobs) == 0 {
		return out, nil
	}
	f := r.frameKeys()
	if len(f.hash.Desc) == 0 {
		return out, nil
	}
	if r.ref.keyer == nil {
		r.ref.keyer = index.NewKeyerWith(cardRefKeyFeatures, index.FrameLevels)
	}
	cardArea := minW * minW * cardRefAspect
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	order := make([]int, 0, len(r.ref.blobs))
	for i, b := range r.ref.blobs {
		if b.area >= 0.5*cardArea {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.ref.blobs[b].area, r.ref.blobs[a].area) })
	searched := 0
	for _, i := range order {
		if searched >= cardRefKeyPlaces {
			break
		}
		b := r.ref.blobs[i]
		left := r.blobFree(b, out)
		if !cardRefSearchable(left, b.area, cardArea) {
			continue // read already; what is left is a hand, a shadow
		}
		free := left.free
		searched++
		if found, ok := r.ref.stillSearched(b.box, free); ok {
			out = append(out, found...) // searched in the last frame, lying still
			continue
		}
		place := cardRefAround(b.box, bounds)
		// Keypoints only on what changed and is not read yet.
		f.maskRead(grey, out)
		if err := r.ref.maskChanged(f.mask, place); err != nil {
			return nil, err
		}
		n := len(out)
		var err error
		t0 := r.times.now()
		a, c := geom.SideMeans(b.rect)
		out, err = r.searchFrameKeys(img, grey, gr, out, r.ref.keyer, place, true, min(a, c), minW, maxW)
		r.times.since("  blobs searched for every card's keypoints", t0)
		if err != nil {
			return nil, err
		}
		r.ref.stillKeep(b.box, free, out[n:])
	}
	return out, nil
}

// cardRefSearchable reports whether a blob of area whose changed area no
// card read covers is l (blobFree) is searched for keypoints, cardArea the
// smallest card's area: what is left but skin must make half a card (a
// hand alone, a shadow is not searched; a card with warm art held by the
// hand is), and be cardRefFree of the blob or cardRefFreeRest cards (a
// card read and the hand holding it leave less; another card lying
// against it does not); and what is left beyond the rims of the cards
// read must make cardRefRestMin cards and not be a shadow.
func cardRefSearchable(l cardBlobLeft, area, cardArea float64) bool {
	free, skin := l.free, l.skin
	if free < 0.5*cardArea || free-skin < 0.5*cardArea {
		return false
	}
	if l.rest < cardRefRestMin*cardArea || l.shadow {
		return false
	}
	return free >= cardRefFree*area || free-skin >= cardRefFreeRest*cardArea
}

// cardBlobLeft is what blobFree finds left of a blob once the cards read
// are taken out: free, the changed area (full-resolution pixels) no card
// read covers; skin, how much of it is skin-coloured; rest, free but the
// skin and the rim of cardRefRim pixels around each card read; shadow,
// whether rest's pixels are the table darkened by about one factor
// (cardShadowSums.shadow); unshaded (blobFreeOf with unknownToo only),
// rest's area outside the tiles where it is a shadow (cardUnshaded; 0
// when the whole is one, so never more than rest).
type cardBlobLeft struct {
	free, skin, rest, unshaded float64
	shadow                     bool
}

// blobFree is what is left of blob b to search once the cards read in out
// (and a sticker read's card, within cardRefStickerReach of its marker)
// are taken out; skin-coloured is a shadow of a warm table too (red over
// green over blue, clearly).
func (r *Reader) blobFree(b cardRefBlob, out []Reading) cardBlobLeft {
	return r.blobFreeOf(b, out, false)
}

// blobFreeOf is blobFree, the unknown readings in out taken out too when
// unknownToo (cards followed: an untaught card is a card seen); then
// unshaded is found too.
func (r *Reader) blobFreeOf(b cardRefBlob, out []Reading, unknownToo bool) cardBlobLeft {
	cur, ref, mask, ok := r.ref.shadowData()
	if !ok {
		return cardBlobLeft{}
	}
	const s = cardRefShrink
	w := r.ref.mask.Cols()
	sb := image.Rect(b.box.Min.X/s, b.box.Min.Y/s, b.box.Max.X/s, b.box.Max.Y/s).Intersect(image.Rect(0, 0, w, r.ref.mask.Rows()))
	px := func(x int) float32 { return float32(x*s + s/2) }
	// The tiles of the soft-shadow test (cardUnshaded), row by row over
	// sb.
	const ts = cardShadowTile
	tw := (sb.Dx() + ts - 1) / ts
	var tiles []cardShadowSums
	if unknownToo {
		n := tw * ((sb.Dy() + ts - 1) / ts)
		r.ref.freeTiles = slices.Grow(r.ref.freeTiles[:0], n)[:n]
		tiles = r.ref.freeTiles
		clear(tiles)
	}
	// The cards read: each row's span on them (cardQuadRowSpan: the very
	// test of cardReadAt) and on them with their rim, but for corners too
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
			c.freeReads = append(c.freeReads, rd.Corners, geom.GrowQuad(rd.Corners, cardRefRim/max(1, min(ma, mb))))
		} else {
			c.freeFar = append(c.freeFar, rd.Corners)
		}
	}
	reads, far := c.freeReads, c.freeFar
	c.freeSpans = slices.Grow(c.freeSpans[:0], len(reads))[:len(reads)]
	spans := c.freeSpans
	nf, ns, nr := 0, 0, 0
	var sums cardShadowSums
	for y := sb.Min.Y; y < sb.Max.Y; y++ {
		py := px(y)
		for k, q := range reads {
			spans[k][0], spans[k][1] = cardQuadRowSpan(q, py, s, sb.Min.X, sb.Max.X)
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
				sums.add(cur[3*i:3*i+3], ref[3*i:3*i+3])
				if tiles != nil {
					tiles[(y-sb.Min.Y)/ts*tw+(x-sb.Min.X)/ts].add(cur[3*i:3*i+3], ref[3*i:3*i+3])
				}
			}
		}
	}
	l := cardBlobLeft{free: float64(nf * s * s), skin: float64(ns * s * s), rest: float64(nr * s * s)}
	if nr > 0 {
		gain := c.gain(cur, ref, mask)
		l.shadow = sums.shadow(gain)
		if tiles != nil && !l.shadow {
			l.unshaded = float64(cardUnshaded(tiles, gain) * s * s)
		}
	}
	return l
}

// A shadow soft at its edges is the table darkened by a factor that
// changes across it; one cast by a card and the hand holding it, by two.
// Cards held over felt (BenchmarkReadCards720pHeld) left such a shadow of
// 7 smallest cards beside them, and the one-factor test
// (cardShadowSums.shadow) failed it in about one frame in four (its fit
// 0.19–0.22 against cardRefShadowFit 0.2), each then read in full. The
// soft-shadow test takes the factor in tiles of cardShadowTile shrunk
// pixels (32 full-resolution pixels) instead: what is left in tiles that
// fail the one-factor test, and in tiles too sparse to be tested (fewer
// than cardShadowTileMin of their pixels left: a blob's ragged rim), is
// unshaded. On those frames (3 scenes a table, 6 tables) it leaves every
// held frame followed but the first and every 10th of each scene, and one
// on the playmat, whose shadow crosses the mat's sharp pattern (with
// tiles of 4 or 6 pixels, or cardShadowTileMin 0.25: 2 to 4 playmat
// frames).
const (
	cardShadowTile    = 8
	cardShadowTileMin = 0.1
)

// cardUnshaded is how many of the pixels added to tiles lie outside the
// tiles that are a shadow (cardShadowTile).
func cardUnshaded(tiles []cardShadowSums, gain [3]float64) int {
	n := 0
	for i := range tiles {
		if t := &tiles[i]; t.n > 0 && (float64(t.n) < cardShadowTileMin*cardShadowTile*cardShadowTile || !t.shadow(gain)) {
			n += t.n
		}
	}
	return n
}

// nearSticker reports whether p lies within cardRefStickerReach marker sides
// of a sticker read in this frame: on its card, whose outline may not
// have been found.
func (r *Reader) nearSticker(p geom.Point) bool {
	for _, m := range r.reads {
		reach := cardRefStickerReach * m.Marker.Side
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

// maskChanged clears the pixels of place in mask (full resolution) that
// did not change.
func (c *cardRef) maskChanged(mask gocv.Mat, place image.Rectangle) error {
	const s = cardRefShrink
	sp := image.Rect(place.Min.X/s, place.Min.Y/s, (place.Max.X+s-1)/s, (place.Max.Y+s-1)/s).Intersect(image.Rect(0, 0, c.mask.Cols(), c.mask.Rows()))
	if sp.Empty() {
		return nil
	}
	sm := c.mask.Region(sp)
	gocv.Resize(sm, &c.up, image.Pt(sp.Dx()*s, sp.Dy()*s), 0, 0, gocv.InterpolationNearestNeighbor)
	sm.Close()
	// c.up covers sp at full resolution, from (sp.Min·s); place lies in it.
	in := place.Sub(sp.Min.Mul(s)).Intersect(image.Rect(0, 0, c.up.Cols(), c.up.Rows()))
	up := c.up.Region(in)
	defer up.Close()
	dst := mask.Region(in.Add(sp.Min.Mul(s)))
	defer dst.Close()
	if up.Cols() != dst.Cols() || up.Rows() != dst.Rows() {
		return errors.New("card: card reference: mask places differ")
	}
	gocv.BitwiseAnd(dst, up, &dst)
	return nil
}

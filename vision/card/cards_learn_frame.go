package card

// The whole-frame keypoint search (Options.SearchWholeFrame):
// taught cards found without any outline near them (a busy table whose
// pattern hides the card's edges, a card whose outline came out far off).
// The ORB keypoints of the whole frame, away from the cards already read,
// are looked up in a
// hashed index of the keypoints of every taught card (locality-sensitive
// hashing on bits of the descriptor: a few table look-ups a keypoint
// instead of a comparison with every taught keypoint); cards that gather
// enough of them are located by a RANSAC homography and, like every
// keypoint find, must then match that card by their rectified face
// (cards_learn.go, confirmKeyFound), so untaught cards stay unknown.

// #include <stdint.h>
// #include "cards_native.h"
import "C"

import (
	"image"
	"image/color"
	"math"
	"slices"
	"unsafe"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Frame search sizes.
const (
	cardFrameFeatures = 3000 // keypoints taken in the frame
	cardFrameLevels   = 7    // their pyramid levels (1.3 apart: cards from about 1 to 4.8 times the taught size)
	cardFrameTables   = 8    // hash tables
	cardFrameBits     = 16   // descriptor bits a table hashes
	cardFrameTries    = 4    // cards located per place, most keypoints first
	// The whole frame is searched without the ratio test (nearest) when
	// at least cardFrameNoRatio cards are taught: their keypoints then
	// spread a busy table's stray ones thin (training scenes, no
	// reference: more cards read at 100 and 500 taught), while with 16
	// taught the stray ones outvote cards on plaid cloth
	// (TestCardsWholeFrame).
	cardFrameNoRatio = 50
	// A bucket is compared only when it holds at most cardFrameBucketShare
	// of the hashed keypoints (at least cardFrameBucketMin): ORB's bits
	// are not independent, and plain patches of many cards crowd a few
	// buckets (100 cards taught, 215,000 keypoints: up to 10,000 in one,
	// 99% of buckets hold at most about 50).
	// At most cardFrameBucketMax: with 500 cards taught, a bound more than
	// twice as high reads hardly more training cards for twice the time.
	cardFrameBucketShare = 0.001
	cardFrameBucketMin   = 64
	cardFrameBucketMax   = 500
)

// cardKeyHash finds the nearest taught keypoints of all taught cards: each
// table files every keypoint under cardFrameBits bits of its descriptor;
// a query is compared with the keypoints filed under its own bits in any
// table.
type cardKeyHash struct {
	ix    *CardIndex
	n     int // ix.Len() when built
	cards []cardHashCard
	desc  [][4]uint64
	card  []int32      // desc[i] is a keypoint of cards[card[i]]
	pt    []geom.Point // … at pt[i] in the upright card
	bits  [cardFrameTables][cardFrameBits]uint8
	start [cardFrameTables][]int32 // bucket b of table t: items[t][start[t][b]:start[t][b+1]]
	items [cardFrameTables][]int32
	// starts and itemsAll hold the tables' start and items one after
	// the other (for tc_key_nearest).
	starts, itemsAll []int32
	// crowded is the size of a bucket not compared.
	crowded int32
	// nearest's candidates and their distances (a hash serves one reader
	// at a time).
	cand []int32
	dist []uint16
	// nearestAll's answers.
	found []int32
}

type cardHashCard struct {
	id   string
	keys *cardKeys
}

// newCardKeyHash files the keypoints of every example of every card of ix
// (those taught the other way round than its first left out: their points
// are in a turned card).
func newCardKeyHash(ix *CardIndex) *cardKeyHash {
	h := &cardKeyHash{ix: ix, n: ix.Len()}
	// The examples filed, counted first: the arrays are made once (100
	// cards hold some 200,000 keypoints; grown by append, their copies
	// took half the time).
	type filed struct {
		c  int32
		ks *cardKeys
	}
	var files []filed
	n := 0
	for _, id := range ix.Cards() {
		ks := ix.keysAll(id, nil)
		if len(ks) == 0 {
			continue
		}
		c := int32(len(h.cards))
		h.cards = append(h.cards, cardHashCard{id: id, keys: ks[0]})
		for _, k := range ix.viewsAll(id, ks) {
			if k.w != ks[0].w || k.h != ks[0].h {
				continue // taught the other way round: its points do not fit
			}
			files = append(files, filed{c, k})
			n += len(k.desc)
		}
	}
	h.desc = make([][4]uint64, 0, n)
	h.card = make([]int32, 0, n)
	h.pt = make([]geom.Point, 0, n)
	for _, f := range files {
		h.desc = append(h.desc, f.ks.desc...)
		h.pt = append(h.pt, f.ks.pts[:len(f.ks.desc)]...)
		for range f.ks.desc {
			h.card = append(h.card, f.c)
		}
	}
	// The bits of each table: spread over the descriptor, a different
	// stride per table (a fixed choice: the index is the same each run).
	x := uint32(2463534242)
	h.starts = make([]int32, cardFrameTables*(1<<cardFrameBits+1))
	h.itemsAll = make([]int32, cardFrameTables*len(h.desc))
	keys := make([]uint32, len(h.desc)) // each keypoint's bucket in table t
	fill := make([]int32, 1<<cardFrameBits)
	for t := range cardFrameTables {
		used := [256]bool{}
		for b := 0; b < cardFrameBits; {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			if p := uint8(x); !used[p] {
				used[p] = true
				h.bits[t][b] = p
				b++
			}
		}
		count := h.starts[t*(1<<cardFrameBits+1) : (t+1)*(1<<cardFrameBits+1)]
		for i := range h.desc {
			keys[i] = h.key(t, &h.desc[i])
			count[keys[i]+1]++
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		h.start[t] = count
		h.items[t] = h.itemsAll[t*len(h.desc) : (t+1)*len(h.desc)]
		copy(fill, count[:1<<cardFrameBits])
		for i, k := range keys {
			h.items[t][fill[k]] = int32(i)
			fill[k]++
		}
	}
	h.crowded = int32(min(cardFrameBucketMax, max(cardFrameBucketMin, cardFrameBucketShare*float64(len(h.desc)))))
	return h
}

// key is the bucket of d in table t.
func (h *cardKeyHash) key(t int, d *[4]uint64) uint32 {
	var k uint32
	for b, p := range h.bits[t] {
		k |= uint32(d[p>>6]>>(p&63)&1) << b
	}
	return k
}

// nearest returns the taught keypoint nearest to d among those sharing a
// bucket with it (its index in h.desc), or -1 unless it is within
// cardKeyMaxDist and, for a ratio below 1, nearer than ratio times the
// nearest of another card (another example of the same card is no rival).
// A place holding about one card (a blob of the reference) is searched
// without the ratio test: among hundreds of cards a rival's keypoint
// often comes about as near as the card's own (with 500 taught, a ratio
// of 0.8 keeps too few to locate it: fewer training cards read with it
// than without), and the keypoints of a wrong card do
// not agree on one homography, nor its face with the frame's. The whole
// frame keeps it while few cards are taught (cardFrameNoRatio): there the
// stray keypoints of a busy table outvote the cards.
func (h *cardKeyHash) nearest(d *[4]uint64, ratio float64) int {
	// The candidates of all tables gathered first and their distances
	// computed in one loop: loads of descriptors that do not wait on each
	// other (the descriptors lie far apart: a cache miss each).
	cand := h.cand[:0]
	for t := range cardFrameTables {
		k := h.key(t, d)
		lo, hi := h.start[t][k], h.start[t][k+1]
		if hi-lo > h.crowded {
			continue // a crowded bucket: a plain patch's bits, many cards have it
		}
		cand = append(cand, h.items[t][lo:hi]...)
	}
	h.cand = cand
	dist := slices.Grow(h.dist[:0], len(cand))[:len(cand)]
	h.dist = dist
	for j, i := range cand {
		dist[j] = uint16(cardHamming(d, &h.desc[i]))
	}
	best, second, bi := cardKeyMaxDist+1, 257, -1
	for j, i := range cand {
		switch dd := int(dist[j]); {
		case dd >= second:
		case dd < best:
			if bi < 0 || h.card[i] != h.card[bi] {
				second = best
			}
			best, bi = dd, int(i)
		case bi < 0 || h.card[i] != h.card[bi]:
			second = dd
		}
	}
	if bi < 0 || ratio < 1 && float64(best) > ratio*float64(second) {
		return -1
	}
	return bi
}

// nearestAll is nearest for each of qs, in C (tc_key_nearest): the index
// of its nearest taught keypoint, or -1. The slice returned is h's, valid
// until the next call. The searches use it; nearest stays the reference
// it is tested against (TestCardKeyHashNearestAll).
func (h *cardKeyHash) nearestAll(qs [][4]uint64, ratio float64) []int32 {
	h.found = slices.Grow(h.found[:0], len(qs))[:len(qs)]
	if len(qs) == 0 || len(h.desc) == 0 {
		for j := range h.found {
			h.found[j] = -1
		}
		return h.found
	}
	room := cardFrameTables * int(h.crowded)
	h.cand = slices.Grow(h.cand[:0], room)[:room]
	h.dist = slices.Grow(h.dist[:0], room)[:room]
	C.tc_key_nearest((*C.uint64_t)(unsafe.Pointer(&h.desc[0][0])), (*C.int32_t)(unsafe.Pointer(&h.card[0])), C.int32_t(len(h.desc)),
		(*C.uint8_t)(unsafe.Pointer(&h.bits[0][0])), (*C.int32_t)(unsafe.Pointer(&h.starts[0])), (*C.int32_t)(unsafe.Pointer(&h.itemsAll[0])),
		cardFrameTables, cardFrameBits, C.int32_t(h.crowded), cardKeyMaxDist,
		(*C.uint64_t)(unsafe.Pointer(&qs[0][0])), C.int32_t(len(qs)), C.double(ratio),
		(*C.int32_t)(unsafe.Pointer(&h.found[0])), (*C.int32_t)(unsafe.Pointer(&h.cand[0])), (*C.uint16_t)(unsafe.Pointer(&h.dist[0])))
	return h.found
}

// cardFrameKeys is the reader's frame search: its keyer, the hashed
// keypoints of its index and buffers.
type cardFrameKeys struct {
	keyer  *cardKeyer
	hash   *cardKeyHash
	mask   gocv.Mat
	votes  [][]int32 // per card of hash: the query keypoints and …
	taught [][]int32 // … their taught keypoints (indexes of hash.desc)
	// stretch is a dim place's grey, its contrast stretched (cardStretch).
	stretch gocv.Mat
	// up and upMask are a small card's place and its mask enlarged
	// (cardKeyUp).
	up, upMask gocv.Mat
}

func newCardFrameKeys() *cardFrameKeys {
	return &cardFrameKeys{keyer: newCardKeyerWith(cardFrameFeatures, cardFrameLevels), mask: gocv.NewMat(), stretch: gocv.NewMat(),
		up: gocv.NewMat(), upMask: gocv.NewMat()}
}

func (f *cardFrameKeys) close() {
	f.keyer.close()
	f.mask.Close()
	f.stretch.Close()
	f.up.Close()
	f.upMask.Close()
}

// ORB's pyramid only shrinks the picture, so a card narrower than the
// upright card its keypoints were taught on (cardKeyW) cannot match them:
// the place of a blob whose card is narrower than cardKeyUpFrom times that
// is enlarged (by at most cardKeyUpMax) before its keypoints are taken
// (TestCardKeySearchSmall: cards 50–70 px across among 16 taught are
// found more often enlarged than not).
const (
	cardKeyUpFrom = 1.2
	cardKeyUpMax  = 2.0
)

// cardKeyUp is the factor a blob's place is enlarged by when its card's
// short side is short px (0: not known, not enlarged).
func cardKeyUp(short float64) float64 {
	if short <= 0 {
		return 1
	}
	return min(cardKeyUpMax, max(1, cardKeyUpFrom*cardKeyW/short))
}

// A place whose grey levels span less than the full range is stretched
// to it, by at most cardStretchMax, before its keypoints are taken: ORB's
// corner threshold is absolute, and in a dim frame the art's contrasts
// fall below it (a dim training scene: a blob's grey at
// most 76, 165 keypoints taken and no card found; stretched, 848 and the
// card read). A gain under cardStretchMin is not worth it.
const (
	cardStretchMax = 4
	cardStretchMin = 1.2
)

// cardStretch writes grey (8-bit) to out with its levels stretched to the
// full range, and reports whether it did.
func cardStretch(grey gocv.Mat, out *gocv.Mat) bool {
	lo, hi, _, _ := gocv.MinMaxLoc(grey)
	if hi <= lo {
		return false
	}
	gain := min(cardStretchMax, 255/(hi-lo))
	if gain < cardStretchMin {
		return false
	}
	grey.ConvertToWithParams(out, gocv.MatTypeCV8U, gain, -lo*gain)
	return true
}

// frameKeys returns the reader's frame search, its hash filled with the
// keypoints of the reader's index (not nil).
func (r *Reader) frameKeys() *cardFrameKeys {
	if r.frame == nil {
		r.frame = newCardFrameKeys()
	}
	f, ix := r.frame, r.opts.Index
	if f.hash == nil || f.hash.ix != ix || f.hash.n != ix.Len() {
		f.hash = newCardKeyHash(ix)
		f.votes = make([][]int32, len(f.hash.cards))
		f.taught = make([][]int32, len(f.hash.cards))
	}
	return f
}

// readFrameKeys searches the frame (img, grey its grey image) for taught
// cards away from the cards in out, and appends those found whose face
// then matches them.
func (r *Reader) readFrameKeys(img, grey gocv.Mat, gr geom.View, out []Reading, minW, maxW float64) ([]Reading, error) {
	ix := r.opts.Index
	if ix == nil || ix.Len() == 0 {
		return out, nil
	}
	if !r.opts.SearchWholeFrame {
		// With a reference: where the frame changed (cards_ref.go).
		return r.searchChangedKeys(img, grey, gr, out, minW, maxW)
	}
	f := r.frameKeys()
	if len(f.hash.desc) == 0 {
		return out, nil
	}
	f.maskRead(grey, out)
	return r.searchFrameKeys(img, grey, gr, out, f.keyer, image.Rect(0, 0, img.Cols(), img.Rows()), false, 0, minW, maxW)
}

// searchFrameKeys is readFrameKeys' search with keyer k in place (frame
// pixels) where r.frame's mask is not zero. In a place holding about one
// card (blob, a blob of the reference), only cards with at least half the
// first card's keypoints are located: the others' are mostly stray.
//
// A blob's place is enlarged by cardKeyUp(short), short the short side of
// its card (0: not known).
func (r *Reader) searchFrameKeys(img, grey gocv.Mat, gr geom.View, out []Reading, k *cardKeyer, place image.Rectangle, blob bool, short, minW, maxW float64) ([]Reading, error) {
	f := r.frame
	pg, pm := grey.Region(place), f.mask.Region(place)
	src, mask := pg, pm
	if blob && cardStretch(pg, &f.stretch) {
		src = f.stretch
	}
	sx, sy := 1.0, 1.0
	if up := cardKeyUp(short); blob && up > 1 {
		sz := image.Pt(int(math.Round(up*float64(place.Dx()))), int(math.Round(up*float64(place.Dy()))))
		gocv.Resize(src, &f.up, sz, 0, 0, gocv.InterpolationLinear)
		gocv.Resize(pm, &f.upMask, sz, 0, 0, gocv.InterpolationNearestNeighbor)
		src, mask = f.up, f.upMask
		sx, sy = float64(sz.X)/float64(place.Dx()), float64(sz.Y)/float64(place.Dy())
	}
	err := k.detectMasked(src, mask, cardFrameFeatures)
	pg.Close()
	pm.Close()
	if err != nil {
		return nil, err
	}
	for c := range f.votes {
		f.votes[c], f.taught[c] = f.votes[c][:0], f.taught[c][:0]
	}
	ratio := cardKeyRatio
	if blob || len(f.hash.cards) >= cardFrameNoRatio {
		ratio = 1
	}
	for qi, i := range f.hash.nearestAll(k.qdesc, ratio) {
		if i >= 0 {
			c := f.hash.card[i]
			f.votes[c] = append(f.votes[c], int32(qi))
			f.taught[c] = append(f.taught[c], int32(i))
		}
	}
	// The cards with the most keypoints first.
	var order []int
	for c, v := range f.votes {
		if len(v) >= cardKeyMinInliers {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(f.votes[b]) - len(f.votes[a]) })
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	for n, c := range order {
		if n >= cardFrameTries {
			break
		}
		if blob && 2*len(f.votes[c]) < len(f.votes[order[0]]) {
			break // far fewer than the first: mostly stray votes (no ratio test)
		}
		hc := f.hash.cards[c]
		k.srcPts, k.dstPts = k.srcPts[:0], k.dstPts[:0]
		for j, qi := range f.votes[c] {
			tp, qp := f.hash.pt[f.taught[c][j]], k.qpts[qi]
			k.srcPts = append(k.srcPts, gocv.Point2f{X: tp.X, Y: tp.Y})
			k.dstPts = append(k.dstPts, gocv.Point2f{X: qp.X, Y: qp.Y})
		}
		found, ok := k.homography(hc.keys, place, sx, sy)
		if !ok || cardReadAt(out, geom.QuadCentre(found.q)) {
			continue
		}
		rd, ok, err := r.confirmKeyFound(img, gr, found, hc.id, minW, maxW)
		if err != nil {
			return nil, err
		}
		if !ok || rd.ID != hc.id || cardReadAt(out, geom.QuadCentre(rd.Corners)) {
			continue
		}
		rd.Box = rd.Box.Intersect(bounds)
		out = append(out, rd)
	}
	return out, nil
}

// maskRead sets f.mask (grey's size) to 255 but on the cards read in out.
func (f *cardFrameKeys) maskRead(grey gocv.Mat, out []Reading) {
	if f.mask.Rows() != grey.Rows() || f.mask.Cols() != grey.Cols() {
		f.mask.Close()
		f.mask = gocv.NewMatWithSize(grey.Rows(), grey.Cols(), gocv.MatTypeCV8U)
	}
	f.mask.SetTo(gocv.NewScalar(255, 0, 0, 0))
	var polys [][]image.Point
	for _, rd := range out {
		if rd.ID == Unknown {
			continue
		}
		p := make([]image.Point, 4)
		for k, c := range rd.Corners {
			p[k] = image.Pt(int(math.Round(float64(c.X))), int(math.Round(float64(c.Y))))
		}
		polys = append(polys, p)
	}
	if len(polys) == 0 {
		return
	}
	pv := gocv.NewPointsVectorFromPoints(polys)
	defer pv.Close()
	gocv.FillPoly(&f.mask, pv, color.RGBA{})
}

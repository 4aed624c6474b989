package index

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
// (key_search.go, confirmKeyFound), so untaught cards stay unknown.

// #include <stdint.h>
// #include "native.h"
import "C"

import (
	"slices"
	"unsafe"

	"tablecam/vision/geom"
)

// Frame search sizes.
const (
	FrameFeatures = 3000 // keypoints taken in the frame
	FrameLevels   = 7    // their pyramid levels (1.3 apart: cards from about 1 to 4.8 times the taught size)
	frameTables   = 8    // hash tables
	frameBits     = 16   // descriptor bits a table hashes
	FrameTries    = 4    // cards located per place, most keypoints first
	// The whole frame is searched without the ratio test (nearest) when
	// at least FrameNoRatio cards are taught: their keypoints then
	// spread a busy table's stray ones thin (training scenes, no
	// reference: more cards read at 100 and 500 taught), while with 16
	// taught the stray ones outvote cards on plaid cloth
	// (TestCardsWholeFrame).
	FrameNoRatio = 50
	// A bucket is compared only when it holds at most frameBucketShare
	// of the hashed keypoints (at least frameBucketMin): ORB's bits
	// are not independent, and plain patches of many cards crowd a few
	// buckets (100 cards taught, 215,000 keypoints: up to 10,000 in one,
	// 99% of buckets hold at most about 50).
	// At most frameBucketMax: with 500 cards taught, a bound more than
	// twice as high reads hardly more training cards for twice the time.
	frameBucketShare = 0.001
	frameBucketMin   = 64
	frameBucketMax   = 500
)

// KeyHash finds the nearest taught keypoints of all taught cards: each
// table files every keypoint under frameBits bits of its descriptor;
// a query is compared with the keypoints filed under its own bits in any
// table.
type KeyHash struct {
	Index *Index
	N     int // ix.Len() when built
	Cards []hashCard
	Desc  [][4]uint64
	Card  []int32      // desc[i] is a keypoint of cards[card[i]]
	Pt    []geom.Point // … at pt[i] in the upright card
	bits  [frameTables][frameBits]uint8
	start [frameTables][]int32 // bucket b of table t: items[t][start[t][b]:start[t][b+1]]
	items [frameTables][]int32
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

type hashCard struct {
	ID   string
	Keys *Keys
}

// NewKeyHash files the keypoints of every example of every card of ix
// (those taught the other way round than its first left out: their points
// are in a turned card).
func NewKeyHash(ix *Index) *KeyHash {
	h := &KeyHash{Index: ix, N: ix.Len()}
	// The examples filed, counted first: the arrays are made once (100
	// cards hold some 200,000 keypoints; grown by append, their copies
	// took half the time).
	type filed struct {
		c  int32
		ks *Keys
	}
	var files []filed
	n := 0
	for _, id := range ix.Cards() {
		ks := ix.KeysAll(id, nil)
		if len(ks) == 0 {
			continue
		}
		c := int32(len(h.Cards))
		h.Cards = append(h.Cards, hashCard{ID: id, Keys: ks[0]})
		for _, k := range ix.viewsAll(id, ks) {
			if k.W != ks[0].W || k.H != ks[0].H {
				continue // taught the other way round: its points do not fit
			}
			files = append(files, filed{c, k})
			n += len(k.Desc)
		}
	}
	h.Desc = make([][4]uint64, 0, n)
	h.Card = make([]int32, 0, n)
	h.Pt = make([]geom.Point, 0, n)
	for _, f := range files {
		h.Desc = append(h.Desc, f.ks.Desc...)
		h.Pt = append(h.Pt, f.ks.Pts[:len(f.ks.Desc)]...)
		for range f.ks.Desc {
			h.Card = append(h.Card, f.c)
		}
	}
	// The bits of each table: spread over the descriptor, a different
	// stride per table (a fixed choice: the index is the same each run).
	x := uint32(2463534242)
	h.starts = make([]int32, frameTables*(1<<frameBits+1))
	h.itemsAll = make([]int32, frameTables*len(h.Desc))
	keys := make([]uint32, len(h.Desc)) // each keypoint's bucket in table t
	fill := make([]int32, 1<<frameBits)
	for t := range frameTables {
		used := [256]bool{}
		for b := 0; b < frameBits; {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			if p := uint8(x); !used[p] {
				used[p] = true
				h.bits[t][b] = p
				b++
			}
		}
		count := h.starts[t*(1<<frameBits+1) : (t+1)*(1<<frameBits+1)]
		for i := range h.Desc {
			keys[i] = h.key(t, &h.Desc[i])
			count[keys[i]+1]++
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		h.start[t] = count
		h.items[t] = h.itemsAll[t*len(h.Desc) : (t+1)*len(h.Desc)]
		copy(fill, count[:1<<frameBits])
		for i, k := range keys {
			h.items[t][fill[k]] = int32(i)
			fill[k]++
		}
	}
	h.crowded = int32(min(frameBucketMax, max(frameBucketMin, frameBucketShare*float64(len(h.Desc)))))
	return h
}

// key is the bucket of d in table t.
func (h *KeyHash) key(t int, d *[4]uint64) uint32 {
	var k uint32
	for b, p := range h.bits[t] {
		k |= uint32(d[p>>6]>>(p&63)&1) << b
	}
	return k
}

// nearest returns the taught keypoint nearest to d among those sharing a
// bucket with it (its index in h.desc), or -1 unless it is within
// keyMaxDist and, for a ratio below 1, nearer than ratio times the
// nearest of another card (another example of the same card is no rival).
// A place holding about one card (a blob of the reference) is searched
// without the ratio test: among hundreds of cards a rival's keypoint
// often comes about as near as the card's own (with 500 taught, a ratio
// of 0.8 keeps too few to locate it: fewer training cards read with it
// than without), and the keypoints of a wrong card do
// not agree on one homography, nor its face with the frame's. The whole
// frame keeps it while few cards are taught (FrameNoRatio): there the
// stray keypoints of a busy table outvote the cards.
func (h *KeyHash) nearest(d *[4]uint64, ratio float64) int {
	// The candidates of all tables gathered first and their distances
	// computed in one loop: loads of descriptors that do not wait on each
	// other (the descriptors lie far apart: a cache miss each).
	cand := h.cand[:0]
	for t := range frameTables {
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
		dist[j] = uint16(hamming(d, &h.Desc[i]))
	}
	best, second, bi := keyMaxDist+1, 257, -1
	for j, i := range cand {
		switch dd := int(dist[j]); {
		case dd >= second:
		case dd < best:
			if bi < 0 || h.Card[i] != h.Card[bi] {
				second = best
			}
			best, bi = dd, int(i)
		case bi < 0 || h.Card[i] != h.Card[bi]:
			second = dd
		}
	}
	if bi < 0 || ratio < 1 && float64(best) > ratio*float64(second) {
		return -1
	}
	return bi
}

// NearestAll is nearest for each of qs, in C (tc_key_nearest): the index
// of its nearest taught keypoint, or -1. The slice returned is h's, valid
// until the next call. The searches use it; nearest stays the reference
// it is tested against (TestCardKeyHashNearestAll).
func (h *KeyHash) NearestAll(qs [][4]uint64, ratio float64) []int32 {
	h.found = slices.Grow(h.found[:0], len(qs))[:len(qs)]
	if len(qs) == 0 || len(h.Desc) == 0 {
		for j := range h.found {
			h.found[j] = -1
		}
		return h.found
	}
	room := frameTables * int(h.crowded)
	h.cand = slices.Grow(h.cand[:0], room)[:room]
	h.dist = slices.Grow(h.dist[:0], room)[:room]
	C.tc_key_nearest((*C.uint64_t)(unsafe.Pointer(&h.Desc[0][0])), (*C.int32_t)(unsafe.Pointer(&h.Card[0])), C.int32_t(len(h.Desc)),
		(*C.uint8_t)(unsafe.Pointer(&h.bits[0][0])), (*C.int32_t)(unsafe.Pointer(&h.starts[0])), (*C.int32_t)(unsafe.Pointer(&h.itemsAll[0])),
		frameTables, frameBits, C.int32_t(h.crowded), keyMaxDist,
		(*C.uint64_t)(unsafe.Pointer(&qs[0][0])), C.int32_t(len(qs)), C.double(ratio),
		(*C.int32_t)(unsafe.Pointer(&h.found[0])), (*C.int32_t)(unsafe.Pointer(&h.cand[0])), (*C.uint16_t)(unsafe.Pointer(&h.dist[0])))
	return h.found
}

package index

import (
	"math"
	"math/bits"
	"slices"
	"sort"
)

// Version is the version of the saved index format and of the
// descriptor; Load refuses other versions (teach the cards again) but
// version 4, whose descriptor is the same and whose entries are not
// framed (index/file.go).
const Version = 5

// descriptorName names the descriptor in saved indexes.
const descriptorName = "rect64-dct64-grey64lc8s2x2-chroma8x8+orb96x134+views4t1.41"

// Defaults of the match decision: a card is taken for the nearest taught
// card when its distance is at most DefaultThreshold and at most
// DefaultRatio times the distance of the nearest other taught card;
// otherwise it is "unknown". Calibrated on training scenes only
// (TestCardsCalibrate in eval_test.go; 100 cards, 600 training
// scenes: 81% of right-card outlines accepted, 1 of 1096 others) to keep
// the false identification of untaught cards near 0.1%.
const (
	DefaultThreshold = 0.40
	DefaultRatio     = 0.34
)

// Index is a set of taught cards: for each card id the descriptors of
// its example photos. Build one with [TeachFolder], keep it with Save and
// Load. An index is not changed by matching and is safe for
// concurrent reads.
type Index struct {
	// Threshold is the largest distance accepted as a match (0: the
	// default). Lower is stricter: fewer false identifications, more
	// "unknown".
	Threshold float64
	// Ratio is the largest ratio of the match's distance to the distance
	// of the nearest other card (0: the default; 1 or more: no ratio test).
	Ratio   float64
	entries []Entry
	// hashes are the entries' hashes side by side (add, Load) for the
	// shortlist, which reads one word of each entry (4.6 KB apart).
	hashes []uint64
}

// Entry is one taught example of a card: its descriptor, and the
// keypoints of its card (nil on the example's grown entry).
type Entry struct {
	ID   string
	Desc Desc
	// Grown: the example's outline grown by GrowInner (the second
	// entry of each example, add).
	Grown bool
	Keys  *Keys // the example's keypoints (nil on its grown entry)
	// views are the keypoints of the example seen tilted (teachViews),
	// at their places in the upright card: the whole-frame search's.
	views *Keys
	// blockE is the energy of desc.fine per chroma cell (the masked
	// comparison's, distanceMasked).
	blockE [ChromN * ChromN]float32
}

// Cards returns the taught card ids, sorted.
func (ix *Index) Cards() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range ix.entries {
		if !seen[e.ID] {
			seen[e.ID] = true
			out = append(out, e.ID)
		}
	}
	sort.Strings(out)
	return out
}

// Len returns the number of taught examples.
func (ix *Index) Len() int { return len(ix.entries) }

// AddEntry adds an example described elsewhere (its descriptor and
// keypoints made by a Describer and a Keyer) as it is, not turned to agree
// with the card's other examples as Teach turns them.
func (ix *Index) AddEntry(e Entry) {
	e.setBlockEnergy()
	ix.entries = append(ix.entries, e)
}

// MatchThreshold is the largest distance Accepts takes: Threshold, or
// DefaultThreshold when that is 0.
func (ix *Index) MatchThreshold() float64 {
	if ix.Threshold > 0 {
		return ix.Threshold
	}
	return DefaultThreshold
}

func (ix *Index) ratio() float64 {
	if ix.Ratio > 0 {
		return ix.Ratio
	}
	return DefaultRatio
}

// Accepts reports whether m is taken for its card.
func (ix *Index) Accepts(m Match) bool {
	ratio := ix.ratio()
	if m.Mask != nil {
		ratio *= MaskRatio / DefaultRatio
	}
	return m.ID != "" && m.Dist <= ix.MatchThreshold() && m.Dist <= ratio*m.Second
}

// add stores an example of card id (its descriptors as found and as grown
// by GrowInner) and returns how it was turned; the first example of a
// card fixes its orientation — turned by firstRot — and later ones are
// turned to agree with it.
func (ix *Index) add(id string, d, grown *[4]Desc, firstRot int) int {
	rot := firstRot
	best := math.Inf(1)
	for _, e := range ix.entries {
		if e.ID != id {
			continue
		}
		for r := range 4 {
			if dist := distance(&d[r], &e.Desc); dist < best {
				best, rot = dist, r
			}
		}
		break
	}
	hashes := ix.syncedHashes()
	ix.entries = append(ix.entries, Entry{ID: id, Desc: d[rot]}, Entry{ID: id, Desc: grown[rot], Grown: true})
	for i := len(ix.entries) - 2; i < len(ix.entries); i++ {
		ix.entries[i].setBlockEnergy()
	}
	ix.hashes = append(hashes, d[rot].hash, grown[rot].hash)
	return rot
}

// Match is the outcome of a search.
type Match struct {
	ID     string
	Dist   float64 // to the best example
	Second float64 // best distance of any other card
	Rot    int     // the query turned rot×90° clockwise matches
	Grown  bool    // the best example's outline grown by GrowInner matches
	// mask, when set, are the blocks left out of the comparison
	// (matchMasked), in the taught card's frame.
	Mask *Mask
	// cands are the nearest taught cards, nearest first (for the
	// keypoint search).
	Cands [keyCands]string
}

// shortlist is how many examples the hash search hands to the full
// comparison, and rotSlack how many more differing hash bits than the
// best rotation's a rotation may have to be compared too.
const (
	shortlist = 16
	rotSlack  = 6
)

// Match finds the taught card nearest to the query (all four rotations).
func (ix *Index) Match(q *[4]Desc) Match {
	var buf [shortlist]cand
	short := ix.shortlist(q, buf[:])
	n := len(short)
	m := Match{Dist: math.Inf(1), Second: math.Inf(1)}
	// Each shortlisted card's best distance (a few: a slice, no map).
	type cardBest struct {
		id string
		d  float64
	}
	var bestBuf [shortlist]cardBest
	best := bestBuf[:0]
	for _, c := range short[:n] {
		e := &ix.entries[c.i]
		for r := range 4 {
			// Rotations far from the best by hash are not the card's.
			if bits.OnesCount64(q[r].hash^e.Desc.hash) > c.ham+rotSlack {
				continue
			}
			d := distance(&q[r], &e.Desc)
			k := slices.IndexFunc(best, func(b cardBest) bool { return b.id == e.ID })
			switch {
			case k < 0:
				best = append(best, cardBest{e.ID, d})
			case d < best[k].d:
				best[k].d = d
			}
			if d < m.Dist {
				m.ID, m.Dist, m.Rot, m.Grown = e.ID, d, r, e.Grown
			}
		}
	}
	var cd [keyCands]float64
	for _, b := range best {
		id, d := b.id, b.d
		if id != m.ID && d < m.Second {
			m.Second = d
		}
		// Insertion into the nearest cards.
		for k := range keyCands {
			if m.Cands[k] == "" || d < cd[k] || (d == cd[k] && id < m.Cands[k]) {
				copy(m.Cands[k+1:], m.Cands[k:keyCands-1])
				copy(cd[k+1:], cd[k:keyCands-1])
				m.Cands[k], cd[k] = id, d
				break
			}
		}
	}
	return m
}

// DistanceTo is the least distance of descriptor d to the examples of
// card id (+Inf when it has none).
func (ix *Index) DistanceTo(id string, d *Desc) float64 {
	best := math.Inf(1)
	for i := range ix.entries {
		if e := &ix.entries[i]; e.ID == id {
			best = min(best, distance(d, &e.Desc))
		}
	}
	return best
}

// cand is an example on the hash shortlist: ix.entries[i], ham bits
// from the query in its nearest turn.
type cand struct {
	i   int
	ham int
}

// shortlist fills buf with the examples whose hashes are nearest to q's
// in any turn, nearest first, and returns the part filled.
func (ix *Index) shortlist(q *[4]Desc, buf []cand) []cand {
	short := buf[:0]
	hashes := ix.hashes
	if len(hashes) != len(ix.entries) { // entries set directly (tests)
		hashes = ix.syncedHashes()
	}
	for i, eh := range hashes {
		h := 64
		for r := range 4 {
			h = min(h, bits.OnesCount64(q[r].hash^eh))
		}
		if len(short) < len(buf) {
			short = append(short, cand{i, h})
		} else if h >= short[len(short)-1].ham {
			continue
		} else {
			short[len(short)-1] = cand{i, h}
		}
		for k := len(short) - 1; k > 0 && short[k].ham < short[k-1].ham; k-- {
			short[k], short[k-1] = short[k-1], short[k]
		}
	}
	return short
}

// syncedHashes returns the entries' hashes: ix.hashes when it holds them
// all, else a new slice of them (the entries set without add or Load).
func (ix *Index) syncedHashes() []uint64 {
	if len(ix.hashes) == len(ix.entries) {
		return ix.hashes
	}
	hs := make([]uint64, len(ix.entries))
	for i := range ix.entries {
		hs[i] = ix.entries[i].Desc.hash
	}
	return hs
}

// KeysOf appends the keypoints of card id to out (those of its first
// example that has them: one set per card, so that a keypoint's nearest
// other keypoint, in the ratio test, is not the same point seen in another
// example).
func (ix *Index) KeysOf(id string, out []*Keys) []*Keys {
	for i := range ix.entries {
		if e := &ix.entries[i]; e.ID == id && e.Keys != nil && len(e.Keys.Desc) > 0 {
			return append(out, e.Keys)
		}
	}
	return out
}

// KeysAll appends the keypoints of every example of card id to out (the
// verification of one card at its pose: its best example counts).
func (ix *Index) KeysAll(id string, out []*Keys) []*Keys {
	for i := range ix.entries {
		if e := &ix.entries[i]; e.ID == id && e.Keys != nil && len(e.Keys.Desc) > 0 {
			out = append(out, e.Keys)
		}
	}
	return out
}

// viewsAll appends the tilted views' keypoints of every example of card
// id to out.
func (ix *Index) viewsAll(id string, out []*Keys) []*Keys {
	for i := range ix.entries {
		if e := &ix.entries[i]; e.ID == id && e.views != nil && len(e.views.Desc) > 0 {
			out = append(out, e.views)
		}
	}
	return out
}

// Unknown is the id no card may be taught under: readers report a
// card seen but not recognised as it.
const Unknown = "unknown"

// GrowInner is how much an outline is enlarged in its second reading:
// an outline found at a card's inner frame (its border has no edge against
// the table) then covers the whole card.
const GrowInner = 0.075

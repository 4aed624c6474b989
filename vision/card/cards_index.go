package card

// Taught cards: cards without a sticker are recognised by their look. A
// card's outline is rectified to a 64×64 square (so that its four possible
// orientations are the four rotations of one image), normalised for the
// light's colour and brightness (grey world), and described by a 64-bit
// DCT hash (the first search: a shortlist of 16 taught examples), its grey
// image with the broadest shading taken away and then smoothed (64×64,
// 8-bit; the smoothing, about σ 2 px, lets an outline found a few pixels
// off still correlate) and an 8×8 layout of two opponent colours (the
// decision). A card is taken for the
// nearest taught card only when it is close enough and clearly closer than
// to any other taught card; otherwise it is "unknown". Each example also
// keeps the ORB keypoints of its card, rectified upright
// (cards_learn_keys.go): those of a card's first example find the card
// where its outline was missed; all of them confirm a match at its pose
// (with the reference of the empty table, refConfirms).
//
// The descriptor is chosen over a pHash alone, which tells fewer cards
// apart, and over matching ORB keypoints by brute force, which tells
// about as many apart at a hundred times the cost
// (TestCardsMethodComparison compares the three).

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "cards_native.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"maps"
	"math"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// Canonical card image and descriptor sizes.
const (
	cardCanon  = 64        // the rectified card, cardCanon² BGR
	cardHashN  = 32        // grey image the DCT hash is taken from
	cardFineN  = cardCanon // grey image compared pixel by pixel (low-cut)
	cardChromN = 8         // colour layout cells per side
	cardFineD  = cardFineN * cardFineN
	cardChromD = 2 * cardChromN * cardChromN
)

// cardDesc describes one rectified card in one orientation.
type cardDesc struct {
	hash     uint64
	fine     [cardFineD]int8     // the low-cut grey, scaled to ±127
	fineNorm float32             // its Euclidean norm (with a floor)
	chroma   [cardChromD]float32 // two opponent colours per cell
}

// cardDescriber turns rectified cards into descriptors; it keeps its
// buffers and is not safe for concurrent use.
type cardDescriber struct {
	hm           gocv.Mat // 3×3 CV_64F homography
	warp, canon  gocv.Mat
	grey32       [4][cardHashN * cardHashN]float64 // per rotation (tests: dctRows)
	dctC         [8][cardHashN]float64
	greyScratch  [cardHashN * cardHashN]float64 // the Go describe of the tests
	chromScratch [cardChromD]float64
	grey64       [cardFineD]float64
	lowcut       [cardFineD]float64
	smooth       [cardFineD]float64
	tmp64        [cardFineD]float64
	occ          [cardFineD]bool // occluders' pixels (glare, a thumb)
	occTmp       [cardFineD]bool
	occQueue     []int32
	fine0        [cardFineD]int8
	dctTmp       [8][cardHashN]float64
	// turns holds the descriptors of a comparison (the readers' and
	// fitting's), kept here rather than allocated for each (18 KB).
	turns [4]cardDesc
}

func newCardDescriber() *cardDescriber {
	d := &cardDescriber{hm: gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F), warp: gocv.NewMat(), canon: gocv.NewMat()}
	n := float64(cardHashN)
	for u := range 8 {
		for x := range cardHashN {
			d.dctC[u][x] = math.Cos(math.Pi * float64(u) * (float64(x) + 0.5) / n)
		}
	}
	return d
}

func (d *cardDescriber) close() {
	d.hm.Close()
	d.warp.Close()
	d.canon.Close()
}

// rectify warps the card with outline q (clockwise, image coordinates)
// from img (8-bit BGR) into d.canon (cardCanon² BGR): q[0] goes to the
// top-left corner. grow enlarges the outline about its centre in the card's
// own coordinates (0.08: 8% more on every side), for outlines found at a
// card's inner frame.
func (d *cardDescriber) rectify(img gocv.Mat, q [4]geom.Point, grow float64) error {
	side := 0.0
	for k := range 4 {
		side = max(side, geom.Dist(q[k], q[(k+1)%4]))
	}
	// Warp at up to twice the final size and shrink by area: large cards
	// do not alias.
	n := cardCanon
	if side > 2.5*cardCanon {
		n = 2 * cardCanon
	}
	fn := float64(n)
	lo, hi := -grow*fn, (1+grow)*fn
	out := &d.canon
	if n != cardCanon {
		out = &d.warp
	}
	if !cardWarpQuad(img, out, d.hm, q, cardPixelRect(lo, lo, hi, hi), image.Pt(n, n)) {
		return errors.New("vision: card outline is degenerate")
	}
	if n != cardCanon {
		gocv.Resize(d.warp, &d.canon, image.Pt(cardCanon, cardCanon), 0, 0, gocv.InterpolationArea)
	}
	if d.canon.Rows() != cardCanon || d.canon.Cols() != cardCanon || d.canon.Type() != gocv.MatTypeCV8UC3 {
		return errors.New("vision: card rectification failed")
	}
	return nil
}

// describe computes the descriptors of d.canon in its four rotations:
// out[r] is the card turned r×90° clockwise.
func (d *cardDescriber) describe(out *[4]cardDesc) error { return d.describeTurns(out[:], true, nil) }

// describeUpright computes the descriptor of d.canon as it is, without its
// hash (the comparison with one taught card, fitToCard).
func (d *cardDescriber) describeUpright(out *cardDesc) error {
	return d.describeTurns(unsafe.Slice(out, 1), false, nil)
}

// describeTurns computes the descriptors of d.canon turned r×90°
// clockwise into out[r], with their hashes when hash. With mask (the
// occluded blocks, d.occ their pixels: occluders), the occluded pixels
// count for nothing: they take the mean grey of the rest before the low
// cut, and the fine grey and colour of the masked blocks are 0.
func (d *cardDescriber) describeTurns(out []cardDesc, hash bool, mask *cardMask) error {
	px, err := d.canon.DataPtrUint8()
	if err != nil || len(px) < 3*cardCanon*cardCanon {
		return errors.New("vision: canonical card not continuous")
	}
	// Grey-world normalisation: each channel scaled to a mean of 128.
	// Integer sums: exact, as the float sums of whole numbers below 2⁵³.
	px = px[:3*cardCanon*cardCanon]
	var sum [3]int
	np := float64(cardCanon * cardCanon)
	if mask == nil {
		for i := 0; i+2 < len(px); i += 3 {
			sum[0] += int(px[i])
			sum[1] += int(px[i+1])
			sum[2] += int(px[i+2])
		}
	} else {
		n := 0
		for i, o := range d.occ {
			if !o {
				sum[0] += int(px[3*i])
				sum[1] += int(px[3*i+1])
				sum[2] += int(px[3*i+2])
				n++
			}
		}
		np = float64(max(1, n))
	}
	var gain [3]float64
	for c := range 3 {
		gain[c] = 128 / max(4, float64(sum[c])/np)
	}
	// Grey at full size, at cardHashN² (2×2 blocks), and chroma per cell.
	const blk = cardCanon / cardHashN
	const cell = cardCanon / cardChromN
	g64 := &d.grey64
	ch := &d.chromScratch
	*ch = [cardChromD]float64{}
	for y := range cardCanon {
		row := (*[3 * cardCanon]uint8)(px[3*y*cardCanon:])
		grow := (*[cardCanon]float64)(g64[y*cardCanon:])
		cc := (*[2 * cardChromN]float64)(ch[y/cell*2*cardChromN:])
		// A cell's sums in registers, added in the same order.
		for cx := range cardChromN {
			c0, c1 := cc[2*cx], cc[2*cx+1]
			for x := cx * cell; x < (cx+1)*cell; x++ {
				b, gg, r := float64(row[3*x])*gain[0], float64(row[3*x+1])*gain[1], float64(row[3*x+2])*gain[2]
				grow[x] = (b + gg + r) / 3
				c0 += r - gg
				c1 += (r+gg)/2 - b
			}
			cc[2*cx], cc[2*cx+1] = c0, c1
		}
	}
	if mask != nil {
		d.fillOccluded()
	}
	g := &d.greyScratch
	if hash {
		for y := range cardHashN {
			for x := range cardHashN {
				var s float64
				for dy := range blk {
					for dx := range blk {
						s += g64[(y*blk+dy)*cardCanon+x*blk+dx]
					}
				}
				g[y*cardHashN+x] = s / (blk * blk)
			}
		}
	}
	for i := range ch {
		ch[i] /= cell * cell
	}
	// Fine grey: the full grey minus its broad blur (the light's gradient
	// goes; shapes, figures and edges stay), scaled to ±127.
	cardLowCut(g64, &d.lowcut, &d.tmp64)
	// Smoothed, so that an outline a few pixels off still correlates.
	src, dst := &d.lowcut, &d.smooth
	for range cardSmoothPasses {
		cardBoxBlur(src, dst, &d.tmp64, cardSmoothRadius)
		src, dst = dst, src
	}
	if src != &d.lowcut {
		d.lowcut = *src
	}
	kept := cardFineD
	if mask != nil {
		kept = d.clearMasked(mask)
	}
	fine0 := &d.fine0
	norm, q, fineNorm := d.scaleFine()
	// A floor keeps a nearly blank card from blowing up noise.
	norm = max(math.Sqrt(norm), 2*math.Sqrt(float64(kept)))
	fineNorm = max(math.Sqrt(fineNorm), norm*q)
	for r := range out {
		o := &out[r]
		if hash {
			rg := &d.grey32[r]
			base, sy, sx := cardRotStrides(r, cardHashN)
			for y := range cardHashN {
				for x := range cardHashN {
					rg[y*cardHashN+x] = g[base+y*sy+x*sx]
				}
			}
			o.hash = d.dctHash(rg)
		}
		o.fineNorm = float32(fineNorm)
		cardTurnFine(&o.fine, fine0, r)
		base, sy, sx := cardRotStrides(r, cardChromN)
		for cy := range cardChromN {
			for cx := range cardChromN {
				s := 2 * (base + cy*sy + cx*sx)
				o.chroma[(cy*cardChromN+cx)*2] = float32(ch[s])
				o.chroma[(cy*cardChromN+cx)*2+1] = float32(ch[s+1])
			}
		}
	}
	return nil
}

// scaleFine scales d.lowcut to ±127 by its largest magnitude, rounded
// (half away from zero) into d.fine0, and returns the sum of squares of
// d.lowcut, the scale and the sum of squares of d.fine0.
func (d *cardDescriber) scaleFine() (norm, q, fineNorm float64) {
	peak := 0.0
	for _, v := range d.lowcut {
		norm += v * v
		peak = max(peak, math.Abs(v))
	}
	q = 127 / max(peak, 1e-9)
	for i, v := range d.lowcut {
		f := int8(math.Round(v * q))
		d.fine0[i] = f
		fineNorm += float64(f) * float64(f)
	}
	return norm, q, fineNorm
}

// dctRows returns C·g into d.dctTmp (C the 8 lowest DCT rows), each
// element's products summed with y ascending.
func (d *cardDescriber) dctRows(g *[cardHashN * cardHashN]float64) *[8][cardHashN]float64 {
	t := &d.dctTmp
	*t = [8][cardHashN]float64{}
	for u := range 8 {
		for y := range cardHashN {
			c, row := d.dctC[u][y], (*[cardHashN]float64)(g[y*cardHashN:])
			for x := range cardHashN {
				t[u][x] += c * row[x]
			}
		}
	}
	return t
}

// cardTurnFine writes the fine grey image in turned r×90° clockwise into
// out (cardRotStrides' pixels), row by row of out, in and out seen as
// cardFineN×cardFineN arrays: no bounds checks.
func cardTurnFine(out, in *[cardFineD]int8, r int) {
	const n = cardFineN
	o, f := (*[n][n]int8)(unsafe.Pointer(out)), (*[n][n]int8)(unsafe.Pointer(in))
	switch r & 3 {
	case 0:
		*out = *in
	case 1: // out(y, x) = in(n-1-x, y)
		for y := range n {
			row := &o[y]
			for x := range n {
				row[x] = f[(n-1-x)&(n-1)][y]
			}
		}
	case 2: // out(y, x) = in(n-1-y, n-1-x)
		for y := range n {
			row, src := &o[y], &f[(n-1-y)&(n-1)]
			for x := range n {
				row[x] = src[(n-1-x)&(n-1)]
			}
		}
	case 3: // out(y, x) = in(x, n-1-y)
		for y := range n {
			row, c := &o[y], (n-1-y)&(n-1)
			for x := range n {
				row[x] = f[x][c]
			}
		}
	}
}

// cardRotStrides gives where, in an n×n image stored row by row, the
// pixel lies that lands on (y, x) when the image is turned r×90°
// clockwise: at base + y·sy + x·sx (one turn takes out(y, x) from
// in(n-1-x, y)).
func cardRotStrides(r, n int) (base, sy, sx int) {
	switch r & 3 {
	case 1:
		return (n - 1) * n, 1, -n
	case 2:
		return n*n - 1, -n, -1
	case 3:
		return n - 1, -1, n
	}
	return 0, n, 1
}

// dctHash is the perceptual hash of a cardHashN² grey image: the signs of
// its 8×8 lowest DCT coefficients but the first, against their median.
func (d *cardDescriber) dctHash(g *[cardHashN * cardHashN]float64) uint64 {
	tmp := d.dctRows(g)
	var coef [64]float64
	for u := range 8 {
		for v := range 8 {
			var s float64
			for x := range cardHashN {
				s += tmp[u][x] * d.dctC[v][x]
			}
			coef[u*8+v] = s
		}
	}
	sorted := coef
	sorted[0] = coef[1] // leave the DC term out of the median
	s := sorted[:]
	slices.Sort(s)
	med := (s[31] + s[32]) / 2
	var h uint64
	for i := 1; i < 64; i++ {
		if coef[i] > med {
			h |= 1 << i
		}
	}
	return h
}

// cardPixelRect is the rectangle x0 … x1 × y0 … y1 of a picture whose
// pixel centres are at integers (its outline runs along -0.5 … n-0.5),
// clockwise from the top-left corner.
func cardPixelRect(x0, y0, x1, y1 float64) [4][2]float64 {
	return [4][2]float64{{x0 - 0.5, y0 - 0.5}, {x1 - 0.5, y0 - 0.5}, {x1 - 0.5, y1 - 0.5}, {x0 - 0.5, y1 - 0.5}}
}

// cardWarpQuad warps the outline q of img onto the corners dst of a
// picture of size sz, written to out; hm (3×3, CV64F) is its scratch.
// False when q is degenerate.
func cardWarpQuad(img gocv.Mat, out *gocv.Mat, hm gocv.Mat, q [4]geom.Point, dst [4][2]float64, sz image.Point) bool {
	var src [4][2]float64
	for k, p := range q {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	h, ok := geom.HomographyOf(src, dst)
	if !ok {
		return false
	}
	for i := range 9 {
		hm.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspectiveWithParams(img, out, hm, sz, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return true
}

// cardDistance compares a query descriptor with a taught one: 1 − the
// correlation of their fine grey images, plus a colour term. 0 is equal;
// unrelated cards are near 1 or above.
func cardDistance(q, t *cardDesc) float64 {
	// An integer sum (exact in any order), vectorised in C: a tenth of
	// the Go loop's time.
	dot := cardDot(q, t)
	var cd float32
	for i := range q.chroma {
		cd += math.Float32frombits(math.Float32bits(q.chroma[i]-t.chroma[i]) &^ (1 << 31))
	}
	return 1 - float64(dot)/(float64(q.fineNorm)*float64(t.fineNorm)) + cardChromaWeight*float64(cd)/cardChromD
}

// cardDot is the dot product of two fine grey images.
func cardDot(q, t *cardDesc) int32 {
	return int32(C.tc_dot_i8((*C.int8_t)(unsafe.Pointer(&q.fine[0])), (*C.int8_t)(unsafe.Pointer(&t.fine[0])), C.int(cardFineD)))
}

// cardChromaWeight weighs the colour layout against the grey image: a mean
// opponent-colour difference of 20 (grey levels) costs as much as a
// correlation lower by 0.24.
const cardChromaWeight = 0.012

// CardIndexVersion is the version of the saved index format and of the
// descriptor; Load refuses other versions (teach the cards again) but
// version 4, whose descriptor is the same and whose entries are not
// framed (cards_index_file.go).
const CardIndexVersion = 5

// cardDescriptorName names the descriptor in saved indexes.
const cardDescriptorName = "rect64-dct64-grey64lc8s2x2-chroma8x8+orb96x134+views4t1.41"

// Defaults of the match decision: a card is taken for the nearest taught
// card when its distance is at most DefaultCardThreshold and at most
// DefaultCardRatio times the distance of the nearest other taught card;
// otherwise it is "unknown". Calibrated on training scenes only
// (TestCardsCalibrate in cards_eval_test.go; 100 cards, 600 training
// scenes: 81% of right-card outlines accepted, 1 of 1096 others) to keep
// the false identification of untaught cards near 0.1%.
const (
	DefaultCardThreshold = 0.40
	DefaultCardRatio     = 0.34
)

// CardIndex is a set of taught cards: for each card id the descriptors of
// its example photos. Build one with [TeachCards], keep it with Save and
// LoadCardIndex. An index is not changed by matching and is safe for
// concurrent reads.
type CardIndex struct {
	// Threshold is the largest distance accepted as a match (0: the
	// default). Lower is stricter: fewer false identifications, more
	// "unknown".
	Threshold float64
	// Ratio is the largest ratio of the match's distance to the distance
	// of the nearest other card (0: the default; 1 or more: no ratio test).
	Ratio   float64
	entries []cardEntry
	// hashes are the entries' hashes side by side (add, Load) for the
	// shortlist, which reads one word of each entry (4.6 KB apart).
	hashes []uint64
}

type cardEntry struct {
	id   string
	desc cardDesc
	// grown: the example's outline grown by cardGrowInner (the second
	// entry of each example, add).
	grown bool
	keys  *cardKeys // the example's keypoints (nil on its grown entry)
	// views are the keypoints of the example seen tilted (teachViews),
	// at their places in the upright card: the whole-frame search's.
	views *cardKeys
	// blockE is the energy of desc.fine per chroma cell (the masked
	// comparison's, cardDistanceMasked).
	blockE [cardChromN * cardChromN]float32
}

// Cards returns the taught card ids, sorted.
func (ix *CardIndex) Cards() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range ix.entries {
		if !seen[e.id] {
			seen[e.id] = true
			out = append(out, e.id)
		}
	}
	sort.Strings(out)
	return out
}

// Len returns the number of taught examples.
func (ix *CardIndex) Len() int { return len(ix.entries) }

func (ix *CardIndex) threshold() float64 {
	if ix.Threshold > 0 {
		return ix.Threshold
	}
	return DefaultCardThreshold
}

func (ix *CardIndex) ratio() float64 {
	if ix.Ratio > 0 {
		return ix.Ratio
	}
	return DefaultCardRatio
}

// accepts reports whether m is taken for its card.
func (ix *CardIndex) accepts(m cardMatch) bool {
	ratio := ix.ratio()
	if m.mask != nil {
		ratio *= cardMaskRatio / DefaultCardRatio
	}
	return m.id != "" && m.dist <= ix.threshold() && m.dist <= ratio*m.second
}

// add stores an example of card id (its descriptors as found and as grown
// by cardGrowInner) and returns how it was turned; the first example of a
// card fixes its orientation — turned by firstRot — and later ones are
// turned to agree with it.
func (ix *CardIndex) add(id string, d, grown *[4]cardDesc, firstRot int) int {
	rot := firstRot
	best := math.Inf(1)
	for _, e := range ix.entries {
		if e.id != id {
			continue
		}
		for r := range 4 {
			if dist := cardDistance(&d[r], &e.desc); dist < best {
				best, rot = dist, r
			}
		}
		break
	}
	hashes := ix.syncedHashes()
	ix.entries = append(ix.entries, cardEntry{id: id, desc: d[rot]}, cardEntry{id: id, desc: grown[rot], grown: true})
	for i := len(ix.entries) - 2; i < len(ix.entries); i++ {
		ix.entries[i].setBlockEnergy()
	}
	ix.hashes = append(hashes, d[rot].hash, grown[rot].hash)
	return rot
}

// cardMatch is the outcome of a search.
type cardMatch struct {
	id     string
	dist   float64 // to the best example
	second float64 // best distance of any other card
	rot    int     // the query turned rot×90° clockwise matches
	grown  bool    // the best example's outline grown by cardGrowInner matches
	// mask, when set, are the blocks left out of the comparison
	// (matchMasked), in the taught card's frame.
	mask *cardMask
	// cands are the nearest taught cards, nearest first (for the
	// keypoint search).
	cands [cardKeyCands]string
}

// cardShortlist is how many examples the hash search hands to the full
// comparison, and cardRotSlack how many more differing hash bits than the
// best rotation's a rotation may have to be compared too.
const (
	cardShortlist = 16
	cardRotSlack  = 6
)

// match finds the taught card nearest to the query (all four rotations).
func (ix *CardIndex) match(q *[4]cardDesc) cardMatch {
	var buf [cardShortlist]cardCand
	short := ix.shortlist(q, buf[:])
	n := len(short)
	m := cardMatch{dist: math.Inf(1), second: math.Inf(1)}
	// Each shortlisted card's best distance (a few: a slice, no map).
	type cardBest struct {
		id string
		d  float64
	}
	var bestBuf [cardShortlist]cardBest
	best := bestBuf[:0]
	for _, c := range short[:n] {
		e := &ix.entries[c.i]
		for r := range 4 {
			// Rotations far from the best by hash are not the card's.
			if bits.OnesCount64(q[r].hash^e.desc.hash) > c.ham+cardRotSlack {
				continue
			}
			d := cardDistance(&q[r], &e.desc)
			k := slices.IndexFunc(best, func(b cardBest) bool { return b.id == e.id })
			switch {
			case k < 0:
				best = append(best, cardBest{e.id, d})
			case d < best[k].d:
				best[k].d = d
			}
			if d < m.dist {
				m.id, m.dist, m.rot, m.grown = e.id, d, r, e.grown
			}
		}
	}
	var cd [cardKeyCands]float64
	for _, b := range best {
		id, d := b.id, b.d
		if id != m.id && d < m.second {
			m.second = d
		}
		// Insertion into the nearest cards.
		for k := range cardKeyCands {
			if m.cands[k] == "" || d < cd[k] || (d == cd[k] && id < m.cands[k]) {
				copy(m.cands[k+1:], m.cands[k:cardKeyCands-1])
				copy(cd[k+1:], cd[k:cardKeyCands-1])
				m.cands[k], cd[k] = id, d
				break
			}
		}
	}
	return m
}

// cardCand is an example on the hash shortlist: ix.entries[i], ham bits
// from the query in its nearest turn.
type cardCand struct {
	i   int
	ham int
}

// shortlist fills buf with the examples whose hashes are nearest to q's
// in any turn, nearest first, and returns the part filled.
func (ix *CardIndex) shortlist(q *[4]cardDesc, buf []cardCand) []cardCand {
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
			short = append(short, cardCand{i, h})
		} else if h >= short[len(short)-1].ham {
			continue
		} else {
			short[len(short)-1] = cardCand{i, h}
		}
		for k := len(short) - 1; k > 0 && short[k].ham < short[k-1].ham; k-- {
			short[k], short[k-1] = short[k-1], short[k]
		}
	}
	return short
}

// syncedHashes returns the entries' hashes: ix.hashes when it holds them
// all, else a new slice of them (the entries set without add or Load).
func (ix *CardIndex) syncedHashes() []uint64 {
	if len(ix.hashes) == len(ix.entries) {
		return ix.hashes
	}
	hs := make([]uint64, len(ix.entries))
	for i := range ix.entries {
		hs[i] = ix.entries[i].desc.hash
	}
	return hs
}

// keysOf appends the keypoints of card id to out (those of its first
// example that has them: one set per card, so that a keypoint's nearest
// other keypoint, in the ratio test, is not the same point seen in another
// example).
func (ix *CardIndex) keysOf(id string, out []*cardKeys) []*cardKeys {
	for i := range ix.entries {
		if e := &ix.entries[i]; e.id == id && e.keys != nil && len(e.keys.desc) > 0 {
			return append(out, e.keys)
		}
	}
	return out
}

// keysAll appends the keypoints of every example of card id to out (the
// verification of one card at its pose: its best example counts).
func (ix *CardIndex) keysAll(id string, out []*cardKeys) []*cardKeys {
	for i := range ix.entries {
		if e := &ix.entries[i]; e.id == id && e.keys != nil && len(e.keys.desc) > 0 {
			out = append(out, e.keys)
		}
	}
	return out
}

// viewsAll appends the tilted views' keypoints of every example of card
// id to out.
func (ix *CardIndex) viewsAll(id string, out []*cardKeys) []*cardKeys {
	for i := range ix.entries {
		if e := &ix.entries[i]; e.id == id && e.views != nil && len(e.views.desc) > 0 {
			out = append(out, e.views)
		}
	}
	return out
}

// cardImageExts are the picture files TeachCards reads.
var cardImageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".bmp": true, ".tif": true, ".tiff": true, ".webp": true}

// cardExtList is cardImageExts sorted, for messages.
func cardExtList() string { return strings.Join(slices.Sorted(maps.Keys(cardImageExts)), ", ") }

// TeachCards builds an index from example photos: dir holds one folder per
// card, named by the card's content id (dir/activation-3/, dir/goal-2/),
// with photos of the card in it: whole camera frames showing that one card
// on the table, or crops of the card (a crop is a picture whose largest
// card outline, if any, covers more than a third of it; the whole picture
// is taken as the card). Symbolic links to folders and to photos are
// followed. Two to five photos from the camera in its place work best.
// progress, if not nil, receives a line per card and per photo that could
// not be used (unreadable, or larger than the size limit). A card without
// any usable photo is left out; an error is returned when no card could be
// taught.
func TeachCards(dir string, progress func(string)) (*CardIndex, error) {
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	ids, badLinks, err := vision.Subfolders(dir)
	if err != nil {
		return nil, fmt.Errorf("vision: teach cards: %w", err)
	}
	for _, err := range badLinks {
		say("skipped %v", err)
	}
	if len(ids) > vision.MaxTeachCards {
		return nil, fmt.Errorf("vision: teach cards: %s has %d card folders; teaching takes at most %d", dir, len(ids), vision.MaxTeachCards)
	}
	t, err := newCardTeacher()
	if err != nil {
		return nil, err
	}
	defer t.close()
	ix := &CardIndex{}
	for _, id := range ids {
		if err := cardCheckID(id); err != nil {
			say("%s: skipped: %v", id, err)
			continue
		}
		files, badLinks, err := vision.PictureFiles(filepath.Join(dir, id), cardImageExts)
		if err != nil {
			return nil, fmt.Errorf("vision: teach cards: %w", err)
		}
		for _, err := range badLinks {
			say("%s: skipped %v", id, err)
		}
		if len(files) > vision.MaxTeachPictures {
			return nil, fmt.Errorf("vision: teach cards: %s holds %d pictures; teaching reads at most %d of a card (two to five are enough)", filepath.Join(dir, id), len(files), vision.MaxTeachPictures)
		}
		var imgs []gocv.Mat
		var names []string
		for _, path := range files {
			img, err := vision.ReadImage(path)
			if err != nil {
				say("%s: %s: skipped: %s", id, filepath.Base(path), strings.TrimPrefix(err.Error(), "read image: "+path+": "))
				continue
			}
			imgs = append(imgs, img)
			names = append(names, filepath.Base(path))
		}
		used, errs := t.teach(ix, id, imgs)
		for i, err := range errs {
			if err != nil {
				say("%s: %s: %v", id, names[i], err)
			}
		}
		for _, m := range imgs {
			m.Close()
		}
		switch {
		case len(files) == 0:
			say("%s: no pictures (want %s)", id, cardExtList())
		case used == 0:
			say("%s: none of %d pictures could be used", id, len(files))
		default:
			say("%s: taught from %d of %d pictures", id, used, len(files))
		}
	}
	if len(ix.entries) == 0 {
		return nil, fmt.Errorf("vision: teach cards: no card could be taught from %s (want one folder per card id with its photos: %s)", dir, cardExtList())
	}
	return ix, nil
}

// cardCheckID validates a card id used as a folder name.
func cardCheckID(id string) error {
	switch {
	case id == "" || id == Unknown:
		return fmt.Errorf("%q is not a usable card id", id)
	case len(id) > 64:
		return errors.New("id longer than 64 characters")
	case strings.ContainsAny(id, " \t\n/\\\"'"):
		return errors.New("id with spaces, quotes or slashes")
	}
	return nil
}

// cardTeacher finds the card in a teaching photo and describes it.
type cardTeacher struct {
	finder *outline.Finder
	desc   *cardDescriber
	keyer  *cardKeyer
	grey   gocv.Mat
	half   gocv.Mat
}

func newCardTeacher() (*cardTeacher, error) {
	return &cardTeacher{finder: outline.NewFinder(), desc: newCardDescriber(), keyer: newCardKeyer(), grey: gocv.NewMat(), half: gocv.NewMat()}, nil
}

func (t *cardTeacher) close() {
	t.keyer.close()
	t.finder.Close()
	t.desc.close()
	t.grey.Close()
	t.half.Close()
}

// cardTeachCandidates is how many outlines per picture take part in
// choosing the card's outline across its pictures.
const cardTeachCandidates = 5

// teach adds card id to ix from its pictures and returns how many were used
// and, per picture, why it was not.
func (t *cardTeacher) teach(ix *CardIndex, id string, imgs []gocv.Mat) (int, []error) {
	errs := make([]error, len(imgs))
	type cand struct {
		d     [2][4]cardDesc // as found and grown
		q     [4]geom.Point
		score float64
		whole bool // by the keypoints common to the pictures
	}
	var per [][]cand
	var which []int // picture index of per[k]
	common := t.commonKeys(imgs)
	for i, img := range imgs {
		if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
			errs[i] = errors.New("not an 8-bit BGR picture")
			continue
		}
		qs, err := t.cardOutlines(img)
		if err != nil {
			errs[i] = err
			continue
		}
		var cs []cand
		for _, q := range cardTeachDoubled(qs, image.Pt(img.Cols(), img.Rows())) {
			var c cand
			c.score, c.q = q.Score, q.Q
			ok := true
			for g, grow := range []float64{0, cardGrowInner} {
				if t.desc.rectify(img, q.Q, grow) != nil || t.desc.describe(&c.d[g]) != nil {
					ok = false
					break
				}
			}
			if ok {
				c.whole, _ = cardCommonWhole(c.q, common[i])
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			errs[i] = errors.New("no card outline found (show the card whole, against the table)")
			continue
		}
		// Only the whole outlines, by the keypoints common to the
		// pictures, when there are any (cards_teach_common.go).
		if slices.ContainsFunc(cs, func(c cand) bool { return c.whole }) {
			cs = slices.DeleteFunc(cs, func(c cand) bool { return !c.whole })
		}
		per = append(per, cs)
		which = append(which, i)
	}
	if len(per) == 0 {
		return 0, errs
	}
	// Choose one outline per picture: the best outline alone when there is
	// one picture; otherwise the choice whose outlines look most alike
	// (the card is the same in every picture; a wrong outline — a panel of
	// the card, a square of the table — is not).
	pick := make([]int, len(per))
	if len(per) > 1 {
		dist := func(a, b *cand) float64 {
			best := math.Inf(1)
			for ga := range 2 {
				for gb := range 2 {
					for r := range 4 {
						best = math.Min(best, cardDistance(&a.d[ga][r], &b.d[gb][0]))
					}
				}
			}
			return best
		}
		// Greedy from every first choice: each further picture takes its
		// outline nearest to those chosen so far.
		bestCost := math.Inf(1)
		for c0 := range per[0] {
			choice := make([]int, len(per))
			choice[0] = c0
			cost := 0.0
			for k := 1; k < len(per); k++ {
				bc, bd := 0, math.Inf(1)
				for ci := range per[k] {
					d := 0.0
					for j := range k {
						d += dist(&per[k][ci], &per[j][choice[j]])
					}
					if d < bd {
						bc, bd = ci, d
					}
				}
				choice[k] = bc
				cost += bd
			}
			if cost < bestCost {
				bestCost, pick = cost, choice
			}
		}
	}
	// The card's top-left corner is the one nearest the top-left of the
	// first picture (cards are taught held upright).
	first := per[0][pick[0]].q
	tl, best := 0, math.Inf(1)
	for k, p := range first {
		if v := float64(p.X + p.Y); v < best {
			tl, best = k, v
		}
	}
	for k, c := range per {
		rot := ix.add(id, &c[pick[k]].d[0], &c[pick[k]].d[1], (4-tl)%4)
		// The keypoints of the card as stored: turned rot×90° clockwise,
		// its top-left corner was the outline's corner (4-rot)%4.
		q := c[pick[k]].q
		var turned [4]geom.Point
		for j := range 4 {
			turned[j] = q[(j+4-rot)%4]
		}
		// Each example's keypoints (keysOf gives the first one's, keysAll
		// all). Without keypoints (a degenerate outline) the example still
		// serves the outline matcher.
		// Keypoints or views of which none were found are kept as none
		// (nil), as they are saved and loaded.
		if keys, err := t.keyer.teach(imgs[which[k]], turned); err == nil {
			if len(keys.desc) > 0 {
				ix.entries[len(ix.entries)-2].keys = keys
			}
			if views, err := t.keyer.teachViews(imgs[which[k]], turned, keys.w, keys.h); err == nil && len(views.desc) > 0 {
				ix.entries[len(ix.entries)-2].views = views
			}
		}
	}
	return len(per), errs
}

// cardTeachDoubled returns the outlines qs followed by each one doubled
// across its width at either end: half a card, cut along its middle (a
// dark card's art panel over its text panel, on a dark table), is in a
// card's proportions too. The choice across pictures takes the doubled
// outline where the card is whole in another picture. A doubled outline
// must lie in the picture (size) but for cardTeachDoubledOut of its
// sides: the card is shown whole, and a crop (the whole picture the card)
// doubled would be half the picture's border fill, alike in every picture
// of a card whose art repeats (a chessboard).
func cardTeachDoubled(qs []outline.Candidate, size image.Point) []outline.Candidate {
	out := slices.Clone(qs)
	mx, my := cardTeachDoubledOut*float32(size.X), cardTeachDoubledOut*float32(size.Y)
	for _, c := range qs {
		for _, q := range cardDoubled(c.Q) {
			in := true
			for _, p := range q {
				in = in && p.X >= -0.5-mx && p.Y >= -0.5-my && p.X <= float32(size.X)-0.5+mx && p.Y <= float32(size.Y)-0.5+my
			}
			if !in {
				continue
			}
			d := c
			d.Q = q
			d.Area = 2 * c.Area
			out = append(out, d)
		}
	}
	return out
}

// cardTeachDoubledOut is the share of a teaching picture's sides a doubled
// outline may stick out of it.
const cardTeachDoubledOut = 0.02

// cardDoubled returns outline q with its shorter sides doubled, at one end
// and at the other: the whole card when q is half of it cut across its
// length (an art panel meeting a text panel across the middle, or a card
// half hidden or half shaded), which is in a card's proportions too.
func cardDoubled(q [4]geom.Point) [2][4]geom.Point {
	a, b := cardSideMeans(q)
	return [2][4]geom.Point{cardExtend(q, b < a, 1, 0), cardExtend(q, b < a, 1, 1)}
}

// cardOutlines returns the candidate outlines of the one card in a teaching
// picture, best first: the best card outlines found in it that cover at
// most 60% of the picture. A picture without one whose sides are in a
// card's proportions (long/short 1.2–1.7) is a crop: the whole picture is
// the card.
func (t *cardTeacher) cardOutlines(img gocv.Mat) ([]outline.Candidate, error) {
	w, h := img.Cols(), img.Rows()
	if w < 16 || h < 16 {
		return nil, fmt.Errorf("picture of %d×%d pixels is too small", w, h)
	}
	whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: float32(w) - 0.5, Y: -0.5}, {X: float32(w) - 0.5, Y: float32(h) - 0.5}, {X: -0.5, Y: float32(h) - 0.5}}
	if !img.IsContinuous() {
		img = img.Clone()
		defer img.Close()
	}
	g, err := geom.ColourView(img)
	if err != nil {
		return nil, err
	}
	hw, hh := max(8, (w+1)/2), max(8, (h+1)/2)
	gocv.Resize(img, &t.half, image.Pt(hw, hh), 0, 0, gocv.InterpolationArea)
	minW := math.Max(24, 0.04*float64(min(w, h)))
	var out []outline.Candidate
	if c, ok := outline.Segment(t.finder, t.half, float64(hw)/float64(w), g, minW, float64(max(w, h))); ok && c.Area <= 0.6*float64(w*h) {
		out = append(out, c)
	}
	found, err := t.finder.Find(t.half, float64(hw)/float64(w), g, minW, float64(max(w, h)))
	if err != nil {
		return nil, err
	}
	for _, c := range found {
		if c.Area <= 0.6*float64(w*h) && len(out) < cardTeachCandidates {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	aspect := float64(max(w, h)) / float64(min(w, h))
	if aspect >= 1.2 && aspect <= 1.7 {
		return []outline.Candidate{{Q: whole, Area: float64(w * h), Score: 1}}, nil
	}
	return nil, errors.New("no card outline found (show the card whole, against the table)")
}

// NewCardIndex returns an empty index; add cards with AddExample.
func NewCardIndex() *CardIndex { return &CardIndex{} }

// AddExample teaches card id from one picture (8-bit BGR): a camera frame
// showing that one card, or a crop of it, as for TeachCards. Teach with all
// the pictures of a card at once when you have several: the card's outline
// is then chosen to agree across them.
func (ix *CardIndex) AddExample(id string, img gocv.Mat) error {
	return ix.Teach(id, img)
}

// Teach teaches card id from pictures of it (8-bit BGR), as TeachCards does
// with a card's folder: in each picture the card outline is chosen that
// agrees best with the outlines chosen in the others. It fails only when no
// picture could be used.
func (ix *CardIndex) Teach(id string, imgs ...gocv.Mat) error {
	if err := cardCheckID(id); err != nil {
		return fmt.Errorf("vision: teach card: %w", err)
	}
	t, err := newCardTeacher()
	if err != nil {
		return err
	}
	defer t.close()
	used, errs := t.teach(ix, id, imgs)
	if used == 0 {
		for _, e := range errs {
			if e != nil {
				return fmt.Errorf("vision: teach card %s: %w", id, e)
			}
		}
		return fmt.Errorf("vision: teach card %s: no picture", id)
	}
	return nil
}

// cardLowCutRadius is the radius of the box blur cardLowCut takes away.
const cardLowCutRadius = 8

// cardLowCut subtracts from the cardFineN² image g its box blur of radius
// cardLowCutRadius (borders replicated): the light's gradient and the
// broadest areas go, shapes stay.
func cardLowCut(g, out, tmp *[cardFineD]float64) {
	cardBoxBlur(g, out, tmp, cardLowCutRadius)
	for i, v := range g {
		out[i] = v - out[i]
	}
}

// cardSmoothRadius and cardSmoothPasses: the box blur of the fine grey
// image (two passes of radius 2: about σ 2 px of the 64 px card), which
// makes the comparison tolerate outlines a few pixels off.
const (
	cardSmoothRadius = 2
	cardSmoothPasses = 2
)

// cardBoxBlur writes the box blur of radius k of g (borders replicated)
// into out: each row's running sum from the left, divided by 2k+1, into
// tmp, then each column's from the top, divided again.
func cardBoxBlur(g, out, tmp *[cardFineD]float64, k int) {
	const n = cardFineN
	clamp := func(v int) int { return max(0, min(n-1, v)) }
	div := float64(2*k + 1)
	for y := range n {
		row, t := (*[n]float64)(g[y*n:]), (*[n]float64)(tmp[y*n:])
		s := 0.0
		for d := -k; d <= k; d++ {
			s += row[clamp(d)]
		}
		for x := range n {
			t[x] = s / div
			s += row[clamp(x+k+1)] - row[clamp(x-k)]
		}
	}
	var s [n]float64
	for d := -k; d <= k; d++ {
		r := (*[n]float64)(tmp[clamp(d)*n:])
		for x := range n {
			s[x] += r[x]
		}
	}
	for y := range n {
		o := (*[n]float64)(out[y*n:])
		rin, rgone := (*[n]float64)(tmp[clamp(y+k+1)*n:]), (*[n]float64)(tmp[clamp(y-k)*n:])
		for x := range n {
			o[x] = s[x] / div
			s[x] += rin[x] - rgone[x]
		}
	}
}

package index

import (
	"errors"
	"math"
	"math/bits"

	"tablecam/vision/geom"
)

// Occluders: a glare spot or a thumb over a taught card. The card's face
// under them is far from its taught face (training scenes: most taught
// cards lost with their true outline are lost so). Compared without the
// blocks they cover — the same blocks left out of every taught card — the
// card comes near its own face again, and other cards stay as far.

// Mask marks the blocks (the chroma cells, cardChromN² of 8×8 pixels
// of the canonical card) an occluder covers.
type Mask [ChromN * ChromN]bool

const (
	// A glare pixel: every channel at least glareMin, and the
	// channels within glareGrey of each other (white light).
	glareMin  = 200
	glareGrey = 40
	// occOpen: occluders thinner than 2·occOpen+1 pixels go (a
	// warm table's strip past the outline, white text); occGrow: what
	// is left grows by this, for the low cut's halo around it.
	occOpen = 2
	occGrow = 2
	// A block is masked when maskCover of its 64 pixels are occluded;
	// the masked comparison is made with maskMin to maskMax
	// masked blocks (fewer: nothing to mend; more: too little left).
	maskCover = 16
	maskMin   = 2
	maskMax   = 32
)

// MaskRatio is the ratio test of a masked comparison (for the default
// ratio; scaled with Index.Ratio). With fewer pixels compared, other
// cards come nearer too. Calibrated on training scenes with glare or a
// thumb on every other card, true outlines (TestCardsMaskCalibrate, 421
// untaught cards compared masked): one came to a ratio of 0.39 at 100
// taught; at 500 taught none came nearer than 0.61; a lower ratio reads
// fewer taught training cards. So a masked
// match is never clear: its card's keypoints must be found at its pose
// (card.refClear), with the reference or without.
const MaskRatio = 0.40

// occluders finds the occluders of d.canon: their pixels into d.occ and
// the blocks they cover into m; it returns how many blocks are masked.
// Occluders are glare and skin-coloured things entering from the card's
// edge (a thumb), thicker than a line.
func (d *Describer) occluders(m *Mask) (int, error) {
	px, err := d.Canon.DataPtrUint8()
	if err != nil || len(px) < 3*fineD {
		return 0, errors.New("index: canonical card not continuous")
	}
	raw := &d.occTmp
	for i := range fineD {
		b, g, r := px[3*i], px[3*i+1], px[3*i+2]
		lo, hi := min(b, g, r), max(b, g, r)
		raw[i] = lo >= glareMin && hi-lo <= glareGrey
	}
	// Skin-coloured pixels reached from the edge through skin.
	q := d.occQueue[:0]
	const n = CanonSize
	push := func(i int) {
		if !raw[i] && geom.Skin(px[3*i:]) {
			raw[i] = true
			q = append(q, int32(i))
		}
	}
	for k := range n {
		push(k)
		push((n-1)*n + k)
		push(k * n)
		push(k*n + n - 1)
	}
	for len(q) > 0 {
		i := int(q[len(q)-1])
		q = q[:len(q)-1]
		x, y := i%n, i/n
		if x > 0 {
			push(i - 1)
		}
		if x < n-1 {
			push(i + 1)
		}
		if y > 0 {
			push(i - n)
		}
		if y < n-1 {
			push(i + n)
		}
	}
	d.occQueue = q
	// Opened, then grown.
	morph(raw, &d.occ, occOpen, false)
	morph(&d.occ, raw, occOpen+occGrow, true)
	d.occ = *raw
	count := 0
	const cell = CanonSize / ChromN
	for b := range m {
		bx, by := blockAt(b)
		c := 0
		for y := by; y < by+cell; y++ {
			for _, o := range d.occ[y*n+bx : y*n+bx+cell] {
				if o {
					c++
				}
			}
		}
		m[b] = c >= maskCover
		if m[b] {
			count++
		}
	}
	return count, nil
}

// blockAt is where block b (a chroma cell) of a cardCanon² image
// starts.
func blockAt(b int) (x, y int) {
	const cell = CanonSize / ChromN
	return b % ChromN * cell, b / ChromN * cell
}

// morph dilates (grow) or erodes src by a square of radius k into
// dst; outside the image counts as unset when dilating and as set when
// eroding. Each row is a 64-bit word (bit x: column x): a row's pass is k
// shifts each way, a column's the rows around it.
func morph(src, dst *[fineD]bool, k int, grow bool) {
	const n = CanonSize
	var rows, out [n]uint64
	for y := range n {
		var w uint64
		for x, v := range src[y*n : y*n+n] {
			if v {
				w |= 1 << x
			}
		}
		rows[y] = w
	}
	for y, w := range rows {
		v := w
		for d := 1; d <= k && d < n; d++ {
			// Column x+d and x-d; beyond the edge: unset (grow) or set.
			r, l := w>>d, w<<d
			if !grow {
				r |= ^uint64(0) << (n - d)
				l |= 1<<d - 1
			}
			if grow {
				v |= r | l
			} else {
				v &= r & l
			}
		}
		out[y] = v
	}
	for y := range n {
		v := out[y]
		for d := max(0, y-k); d <= min(n-1, y+k); d++ {
			if grow {
				v |= out[d]
			} else {
				v &= out[d]
			}
		}
		rows[y] = v
	}
	for y, w := range rows {
		for x := range n {
			dst[y*n+x] = w>>x&1 != 0
		}
	}
}

// fillOccluded gives the occluded pixels of the grey image the mean grey
// of the rest, so that the low cut does not spread them.
func (d *Describer) fillOccluded() {
	var s float64
	c := 0
	for i, o := range d.occ {
		if !o {
			s += d.grey64[i]
			c++
		}
	}
	mean := s / float64(max(1, c))
	for i, o := range d.occ {
		if o {
			d.grey64[i] = mean
		}
	}
}

// clearMasked zeroes the fine grey image in the blocks of m and returns
// how many pixels are left.
func (d *Describer) clearMasked(m *Mask) int {
	const cell = CanonSize / ChromN
	kept := fineD
	for b, mk := range m {
		if !mk {
			continue
		}
		kept -= cell * cell
		bx, by := blockAt(b)
		for y := by; y < by+cell; y++ {
			clear(d.lowcut[y*CanonSize+bx : y*CanonSize+bx+cell])
		}
	}
	return kept
}

// setBlockEnergy computes e.blockE from e.desc.fine.
func (e *Entry) setBlockEnergy() {
	const cell = CanonSize / ChromN
	for b := range e.blockE {
		bx, by := blockAt(b)
		var s float32
		for y := by; y < by+cell; y++ {
			for _, v := range e.Desc.fine[y*CanonSize+bx : y*CanonSize+bx+cell] {
				s += float32(v) * float32(v)
			}
		}
		e.blockE[b] = s
	}
}

// maskTurns turns m as describeTurns turns the chroma cells: out[r] is
// m for the card turned r×90° clockwise.
func maskTurns(m *Mask, out *[4]Mask) {
	for r := range 4 {
		base, sy, sx := rotStrides(r, ChromN)
		for cy := range ChromN {
			for cx := range ChromN {
				out[r][cy*ChromN+cx] = m[base+cy*sy+cx*sx]
			}
		}
	}
}

// distanceMasked is distance without the masked blocks: q
// (described with the mask) has them at 0; the taught card's norm and
// colours are taken over the blocks kept only (keep: their indexes).
func distanceMasked(q *Desc, keep []uint8, t *Entry) float64 {
	dot := dot(q, &t.Desc)
	var te, cd float32
	for _, b := range keep {
		te += t.blockE[b]
		c0 := q.chroma[2*b] - t.Desc.chroma[2*b]
		c1 := q.chroma[2*b+1] - t.Desc.chroma[2*b+1]
		cd += math.Float32frombits(math.Float32bits(c0)&^(1<<31)) + math.Float32frombits(math.Float32bits(c1)&^(1<<31))
	}
	tn := math.Sqrt(max(float64(te), 1))
	return 1 - float64(dot)/(float64(q.fineNorm)*tn) + chromaWeight*float64(cd)/float64(2*max(1, len(keep)))
}

// maskKept lists the blocks m keeps into buf.
func maskKept(m *Mask, buf *[ChromN * ChromN]uint8) []uint8 {
	k := buf[:0]
	for b, mk := range m {
		if !mk {
			k = append(k, uint8(b))
		}
	}
	return k
}

// matchMasked is match for a card described with masks m (one per turn):
// every taught example is compared without the masked blocks (the hash
// shortlist would miss a card's twin: untaught cards came nearer), in the
// turns its hash (the occluders filled in) does not rule out.
func (ix *Index) matchMasked(q *[4]Desc, m *[4]Mask) Match {
	res := Match{Dist: math.Inf(1), Second: math.Inf(1)}
	var keepBuf [4][ChromN * ChromN]uint8
	var keep [4][]uint8
	for r := range 4 {
		keep[r] = maskKept(&m[r], &keepBuf[r])
	}
	best := make(map[string]float64, len(ix.entries)/2)
	for i := range ix.entries {
		e := &ix.entries[i]
		var ham [4]int
		h := 64
		for r := range 4 {
			ham[r] = bits.OnesCount64(q[r].hash ^ e.Desc.hash)
			h = min(h, ham[r])
		}
		for r := range 4 {
			if ham[r] > h+rotSlack {
				continue
			}
			d := distanceMasked(&q[r], keep[r], e)
			if b, ok := best[e.ID]; !ok || d < b {
				best[e.ID] = d
			}
			if d < res.Dist {
				res.ID, res.Dist, res.Rot, res.Grown = e.ID, d, r, e.Grown
			}
		}
	}
	for id, d := range best {
		if id != res.ID && d < res.Second {
			res.Second = d
		}
	}
	if res.ID != "" {
		res.Mask = &m[res.Rot]
	}
	return res
}

// MatchOccluded matches d.canon with ix without its occluded blocks and
// returns the match and how many blocks were masked; ok is false when
// they are fewer than maskMin or more than maskMax.
func (d *Describer) MatchOccluded(ix *Index) (Match, int, bool, error) {
	var m Mask
	n, err := d.occluders(&m)
	if err != nil || n < maskMin || n > maskMax {
		return Match{}, n, false, err
	}
	ds := &d.Turns
	if err := d.describeTurns(ds[:], true, &m); err != nil {
		return Match{}, n, false, err
	}
	var ms [4]Mask
	maskTurns(&m, &ms)
	return ix.matchMasked(ds, &ms), n, true, nil
}

// masked reports whether the taught keypoint p of ks lies in a block
// of m.
func masked(m *Mask, ks *Keys, p geom.Point) bool {
	bx := min(ChromN-1, max(0, int(float64(p.X)*ChromN/float64(max(1, ks.W)))))
	by := min(ChromN-1, max(0, int(float64(p.Y)*ChromN/float64(max(1, ks.H)))))
	return m[by*ChromN+bx]
}

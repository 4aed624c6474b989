package marker

// Reading a marker under a glare spot. Glare adds a smooth bright bump
// that saturates: where it lies, the black border reads 220–240 against a
// white of 250, while the rest of the marker keeps its full contrast. The
// plain decoder's illumination planes cannot follow such a bump, so it
// calls the washed-out border cells white and gives up; the adaptive
// threshold loses that part of the border too, and the marker's outline
// comes out with a corner cut off or a notch (cutToQuad puts it back).
// This second decoder, tried only when the plain one fails, takes the dark
// level of every cell from the border cells around it and the bright level
// from the quiet-zone cells around it (inverse-distance weights), so each
// bit is judged against its own neighbourhood. It reads modules of 3 px and
// more, only where glare shows (a washed-out border cell: bright, with
// little contrast left, while most of the border keeps its contrast), and
// no corrected bits.

import (
	"math"
	"math/bits"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Limits of the glare decoder.
const (
	// glareWashed is the least brightness of a border cell that may
	// have lost its contrast to glare; glareMinStep the least step it
	// must still keep against the quiet zone next to it.
	glareWashed  = 140
	glareMinStep = 4
	// glareFullFrac is the least share of border cells with full
	// contrast (at least half the marker's best) — glare washes out a part
	// of a marker, not all of it.
	glareFullFrac = 0.5
	// glareMaxCost is the most soft cost of the bits that disagree
	// (erasures only), glareMinMargin the least gap to the next id.
	glareMaxCost   = 0.25
	glareMinMargin = 1.3
	// glareMinModule is the least module size (px) the glare decoder
	// reads: judging cells by their neighbours needs a few pixels each
	// (18 px markers of 4×4 bits; the product reads markers from 20 px).
	glareMinModule = 3.0
	// glareMinLocal is the least local contrast (grey levels) at which
	// a data cell's bit counts; below it the bit is an erasure.
	glareMinLocal = 6
)

// glareResult is how far decodeGlare got.
type glareResult int

const (
	glareNoBorder glareResult = iota // no marker's border and quiet zone
	glareNoCode                      // a border, but no code read
	glareRead
)

// decodeGlare reads the marker with corners q like decode, judging every
// cell against its neighbourhood (see the top of this file). It is only
// meant for candidates the plain decoder rejected, and a border without a
// cell washed out by glare is no marker's to it.
func (cb *codebook) decodeGlare(g geom.View, q [4]geom.Point, lim decodeLimits, sc *decodeScratch) (Sticker, glareResult) {
	n := cb.bits
	M := n + 2
	vals, spread, ok := cb.sampleCells(g, q, sc)
	if !ok {
		return Sticker{}, glareNoBorder
	}
	G := M + 2
	at := func(i, j int) float64 { return vals[(i+1)*G+j+1] }

	// Every quiet-zone cell against the border cell next to it inwards.
	var steps [64]float64
	ns := 0
	for i := -1; i <= M; i++ {
		for j := -1; j <= M; j++ {
			if i != -1 && j != -1 && i != M && j != M {
				continue
			}
			bi, bj := min(max(i, 0), M-1), min(max(j, 0), M-1)
			if ns < len(steps) {
				steps[ns] = at(i, j) - at(bi, bj)
				ns++
			}
		}
	}
	sorted := steps // a copy
	slices.Sort(sorted[:ns])
	best := sorted[ns*3/4] // the contrast of the marker's clear part
	if best < 2*lim.minContrast {
		return Sticker{}, glareNoBorder
	}
	// A module's flat: judged against the clear part's contrast.
	if spread > maxModuleSpread*best {
		return Sticker{}, glareNoBorder
	}
	full, bad, wash := 0, 0, 0
	ns = 0
	for i := -1; i <= M; i++ {
		for j := -1; j <= M; j++ {
			if i != -1 && j != -1 && i != M && j != M {
				continue
			}
			bi, bj := min(max(i, 0), M-1), min(max(j, 0), M-1)
			st := steps[ns]
			ns++
			switch {
			case st >= 0.5*best:
				full++
			case at(bi, bj) >= glareWashed && st >= glareMinStep:
				wash++ // washed out by glare
			default:
				bad++
			}
		}
	}
	if bad > lim.maxBorder || float64(full) < glareFullFrac*float64(ns) || wash == 0 {
		return Sticker{}, glareNoBorder
	}
	// The data cells against inverse-distance weighted references.
	if cap(sc.margin) < n*n {
		sc.margin = make([]float64, n*n)
	}
	margin := sc.margin[:n*n]
	var obs uint64
	for r := range n {
		for col := range n {
			ci, cj := r+1, col+1
			var dw, dv, bw, bv float64
			for i := -1; i <= M; i++ {
				for j := -1; j <= M; j++ {
					ring := i == -1 || j == -1 || i == M || j == M
					border := !ring && (i == 0 || j == 0 || i == M-1 || j == M-1)
					if !ring && !border {
						continue
					}
					d2 := float64((i-ci)*(i-ci) + (j-cj)*(j-cj))
					w := 1 / (d2 * d2)
					if ring {
						bw += w
						bv += w * at(i, j)
					} else {
						dw += w
						dv += w * at(i, j)
					}
				}
			}
			d, b := dv/dw, bv/bw
			v := at(ci, cj)
			if b-d < glareMinLocal {
				margin[r*n+col] = 0 // an erasure
				if v > d {
					obs |= 1 << (r*n + col)
				}
				continue
			}
			m := (v - (d+b)/2) / ((b - d) / 2)
			margin[r*n+col] = min(1, math.Abs(m))
			if m > 0 {
				obs |= 1 << (r*n + col)
			}
		}
	}
	bestCost, second := math.Inf(1), math.Inf(1)
	bestIdx := -1
	for k, code := range cb.codes {
		diff := obs ^ code
		cost := 0.0
		for diff != 0 {
			b := bits.TrailingZeros64(diff)
			cost += margin[b]
			diff &= diff - 1
		}
		switch {
		case cost < bestCost:
			if bestIdx < 0 || k/4 != bestIdx/4 {
				second = bestCost
			}
			bestCost, bestIdx = cost, k
		case cost < second && k/4 != bestIdx/4:
			second = cost
		}
	}
	if bestIdx < 0 {
		return Sticker{}, glareNoCode
	}
	// Disagreeing bits may only be erasures.
	hard := 0
	for diff := obs ^ cb.codes[bestIdx]; diff != 0; diff &= diff - 1 {
		if margin[bits.TrailingZeros64(diff)] > 0 {
			hard++
		}
	}
	if hard > 0 || bestCost > glareMaxCost || second-bestCost < glareMinMargin {
		return Sticker{}, glareNoCode
	}
	conf := max(0, 1-bestCost/max(lim.maxCost, 1e-9)*0.5) * min(1, (second-bestCost)/3)
	conf *= float64(full) / float64(ns)
	return Sticker{Marker: FromQuad(q, bestIdx/4, bestIdx%4), cost: bestCost / glareMaxCost, margin: second - bestCost, Conf: max(0, min(1, conf))}, glareRead
}

// readGlare tries the glare decoder on a candidate the plain decoder
// rejected: on its corners refined and then on the rough ones. refined ==
// q means not yet refined: the rough corners go first then, and only a
// candidate with a marker's border on them is refined (cornerSubPix is
// the dear part).
func (s *Scanner) readGlare(grey gocv.Mat, g geom.View, q, refined [4]geom.Point) (Sticker, bool) {
	if quadSide(q) < glareMinModule*float64(s.cb.bits+2) {
		return Sticker{}, false
	}
	if refined == q {
		m, res := s.cb.decodeGlare(g, q, s.lim, &s.sc)
		if res != glareNoCode {
			return m, res == glareRead
		}
		if refined = s.subpix(grey, g, q); refined == q {
			return Sticker{}, false
		}
		m, res = s.cb.decodeGlare(g, refined, s.lim, &s.sc)
		return m, res == glareRead
	}
	for _, c := range [2][4]geom.Point{refined, q} {
		if m, res := s.cb.decodeGlare(g, c, s.lim, &s.sc); res == glareRead {
			return m, true
		}
	}
	return Sticker{}, false
}

// readCut reads a candidate that cutToQuad made: only glare explains a
// lost corner, so only the glare decoder reads it, and the marker's corner
// module at every corner put back must be bright (washed out).
func (s *Scanner) readCut(grey gocv.Mat, g geom.View, c Candidate) (Sticker, bool) {
	m, ok := s.readGlare(grey, g, c.Q, c.Q)
	if !ok {
		return m, false
	}
	q := m.Marker.Corners
	ctr := m.Marker.Center
	M := float64(s.cb.bits + 2)
	for _, p := range c.restored[:c.nRestored] {
		k, best := 0, math.Inf(1)
		for i, v := range q {
			if d := math.Hypot(float64(v.X-p.X), float64(v.Y-p.Y)); d < best {
				k, best = i, d
			}
		}
		// The corner module's centre: 1/M of the way to the centre.
		x := float64(q[k].X) + (float64(ctr.X)-float64(q[k].X))/M
		y := float64(q[k].Y) + (float64(ctr.Y)-float64(q[k].Y))/M
		if g.At(x, y) < glareWashed {
			return Sticker{}, false
		}
	}
	return m, true
}

// cutToQuad returns the quadrilateral of a polygon of five to eight
// corners: its convex hull when that has four corners; else, for a hull
// of five or six, the hull with its shortest sides dropped and their
// neighbours extended to meet (a corner cut off). It fails when a dropped
// side is not short against the others or the restored corner lies far
// from it.
func cutToQuad(pts [][2]float64) ([4][2]float64, bool) {
	var hull [8][2]float64
	h := geom.ConvexHullF(pts, hull[:0])
	for len(h) > 4 {
		if len(h) > 6 {
			return [4][2]float64{}, false
		}
		n := len(h)
		short, long := -1, 0.0
		ls := math.Inf(1)
		for i := range n {
			a, b := h[i], h[(i+1)%n]
			l := math.Hypot(b[0]-a[0], b[1]-a[1])
			long = max(long, l)
			if l < ls {
				ls, short = l, i
			}
		}
		if ls > 0.5*long {
			return [4][2]float64{}, false
		}
		// Sides p→a (before) and b→c (after) meet where a–b was.
		p, a, b, c := h[(short+n-1)%n], h[short], h[(short+1)%n], h[(short+2)%n]
		x, ok := geom.LineMeet(p, a, b, c)
		if !ok || math.Hypot(x[0]-(a[0]+b[0])/2, x[1]-(a[1]+b[1])/2) > 0.6*long {
			return [4][2]float64{}, false
		}
		next := make([][2]float64, 0, n-1)
		for i := range n {
			switch i {
			case short:
				next = append(next, x)
			case (short + 1) % n:
			default:
				next = append(next, h[i])
			}
		}
		h = next
	}
	if len(h) != 4 {
		return [4][2]float64{}, false
	}
	return [4][2]float64{h[0], h[1], h[2], h[3]}, true
}

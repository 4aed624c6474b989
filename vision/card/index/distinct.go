package index

// Distinct keypoints: a card's taught keypoints that no other taught card
// has at the same place. Cards of one set share their frame, their icons
// and their layout, and so the keypoints there: a card of the same family
// as the one shown finds those keypoints at the pose as well as the right
// card does. Counting only the keypoints a card does not share tells the
// right card from its family.

import (
	"image"
	"slices"
)

// A taught keypoint is shared when another card's taught keypoint lies
// within distinctReach px of it in the upright card and its descriptor
// within distinctDist bits.
const (
	distinctReach = 3
	distinctDist  = 40
	distinctCell  = 4 // grid cell (px), at least the reach
)

// Distinct files the keypoints of every taught example of an index by
// their place in the upright card (the examples of each size apart: a card
// taught lying has its points in a turned card) and finds, card by card as
// asked, which of them are shared; it is the reader's and not safe for
// concurrent use.
type Distinct struct {
	Index  *Index
	N      int // ix.Len() when built
	grids  map[image.Point]*distinctGrid
	cardOf map[string]int32
	shared map[*Keys][]bool
}

// distinctGrid files the keypoints of the examples of one size: example
// keys[i]'s keypoint j[i], of card card[i]; the cells (head: a cell's
// first, next: the next one, -1 ends).
type distinctGrid struct {
	keys       []*Keys
	j          []int32
	card       []int32
	head, next []int32
	cols, rows int
}

// NewDistinct files the keypoints of the examples of ix.
func NewDistinct(ix *Index) *Distinct {
	d := &Distinct{Index: ix, N: ix.Len(), grids: map[image.Point]*distinctGrid{},
		cardOf: map[string]int32{}, shared: map[*Keys][]bool{}}
	for i := range ix.entries {
		e := &ix.entries[i]
		c, ok := d.cardOf[e.ID]
		if !ok {
			c = int32(len(d.cardOf))
			d.cardOf[e.ID] = c
		}
		if ks := e.Keys; ks != nil {
			d.gridOf(ks.W, ks.H).file(ks, c)
		}
	}
	return d
}

// gridOf is the grid of the examples of size w × h, made when first asked.
func (d *Distinct) gridOf(w, h int) *distinctGrid {
	sz := image.Pt(w, h)
	if g, ok := d.grids[sz]; ok {
		return g
	}
	g := &distinctGrid{cols: (w + distinctCell - 1) / distinctCell, rows: (h + distinctCell - 1) / distinctCell}
	g.head = slices.Repeat([]int32{-1}, g.cols*g.rows)
	d.grids[sz] = g
	return g
}

// file files the keypoints of ks, an example of card c.
func (g *distinctGrid) file(ks *Keys, c int32) {
	for j, p := range ks.Pts {
		cell := g.cell(float64(p.X), float64(p.Y))
		if cell < 0 {
			continue
		}
		g.keys = append(g.keys, ks)
		g.j = append(g.j, int32(j))
		g.card = append(g.card, c)
		g.next = append(g.next, g.head[cell])
		g.head[cell] = int32(len(g.keys) - 1)
	}
}

// cell is the grid cell of (x, y), -1 outside.
func (g *distinctGrid) cell(x, y float64) int {
	cx, cy := int(x)/distinctCell, int(y)/distinctCell
	if x < 0 || y < 0 || cx >= g.cols || cy >= g.rows {
		return -1
	}
	return cy*g.cols + cx
}

// SharedOf returns which keypoints of ks, an example of card id, another
// taught card's example of the same size shares.
func (d *Distinct) SharedOf(id string, ks *Keys) []bool {
	if s, ok := d.shared[ks]; ok {
		return s
	}
	c, ok := d.cardOf[id]
	if !ok {
		c = -1
	}
	g := d.gridOf(ks.W, ks.H)
	s := make([]bool, len(ks.Pts))
	for j, p := range ks.Pts {
		s[j] = g.near(&ks.Desc[j], float64(p.X), float64(p.Y), c)
	}
	d.shared[ks] = s
	return s
}

// near reports whether a keypoint of a card other than c lies within
// distinctReach px of (x, y) with its descriptor within
// distinctDist bits of desc.
func (g *distinctGrid) near(desc *[4]uint64, x, y float64, c int32) bool {
	const r = distinctReach
	x0, x1 := max(0, int(x-r)/distinctCell), min(g.cols-1, int(x+r)/distinctCell)
	y0, y1 := max(0, int(y-r)/distinctCell), min(g.rows-1, int(y+r)/distinctCell)
	for gy := y0; gy <= y1; gy++ {
		for gx := x0; gx <= x1; gx++ {
			for i := g.head[gy*g.cols+gx]; i >= 0; i = g.next[i] {
				if g.card[i] == c {
					continue
				}
				o := g.keys[i]
				q := o.Pts[g.j[i]]
				if dx, dy := float64(q.X)-x, float64(q.Y)-y; dx*dx+dy*dy > r*r {
					continue
				}
				if hamming(desc, &o.Desc[g.j[i]]) <= distinctDist {
					return true
				}
			}
		}
	}
	return false
}

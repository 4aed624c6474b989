package geom

import "math"

// SideFitter re-fits the sides of quads to the edges of a View: a card's
// outline found at half resolution, a sticker's corners. It keeps its
// buffers; the zero value is ready to use.
type SideFitter struct {
	// samples along a side while re-fitting it.
	xs, ys []float64
	// outer makes each sample take the outermost clear edge (at least
	// outerShare of the strongest) instead of the strongest: a card's
	// own edge rather than its brighter inner frame.
	outer bool
}

// outerShare is the share of the strongest step an outer edge needs;
// outerReach (of the side's length, at most outerReachMax px) how
// far out it is looked for.
const (
	outerShare    = 0.35
	outerReach    = 0.075
	outerReachMax = 15
)

// Refine re-fits each side of q (clockwise on screen) to the outermost
// clear edge near it in g, at least outerShare of the strongest: a card's
// own edge rather than its brighter inner frame. It looks 4% of the side
// (3 to 8 px) inwards and up to outerReach of it outwards, and returns the
// corners where the fitted lines meet and the mean edge strength.
func (f *SideFitter) Refine(g View, q [4]Point) ([4]Point, float64, bool) {
	f.outer = true
	defer func() { f.outer = false }()
	return f.RefineWithin(g, q, 0)
}

// RefineWithin re-fits each side of q (clockwise on screen) to the
// strongest edge within reach px of it in g (0: 4% of the side, 3 to 8 px),
// sampled every half pixel, and returns the corners where the fitted lines
// meet and the mean edge strength; false when a side shows too little edge
// or a corner would move more than 15% of its longer side.
func (f *SideFitter) RefineWithin(g View, q [4]Point, reach float64) ([4]Point, float64, bool) {
	var lines [4][3]float64 // a·x + b·y = c, (a, b) the outward unit normal
	strength := 0.0
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		l, st, ok := f.fitSide(g, a, b, reach)
		if !ok {
			return q, 0, false
		}
		lines[k] = l
		strength += st / 4
	}
	var out [4]Point
	for k := range 4 {
		// Corner k joins side k-1 and side k.
		l1, l2 := lines[(k+3)%4], lines[k]
		det := l1[0]*l2[1] - l1[1]*l2[0]
		if math.Abs(det) < 1e-6 {
			return q, 0, false
		}
		x := (l1[2]*l2[1] - l1[1]*l2[2]) / det
		y := (l1[0]*l2[2] - l1[2]*l2[0]) / det
		if math.Hypot(x-float64(q[k].X), y-float64(q[k].Y)) > 0.15*max(Dist(q[k], q[(k+1)%4]), Dist(q[k], q[(k+3)%4])) {
			return q, 0, false
		}
		out[k] = Point{float32(x), float32(y)}
	}
	return out, strength, true
}

// fitSide finds the edge along the side a→b (clockwise quad, so the
// outward normal points left of a→b on screen) and fits a line to it.
func (f *SideFitter) fitSide(g View, a, b Point, reach float64) ([3]float64, float64, bool) {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	length := math.Hypot(dx, dy)
	if length < 8 {
		return [3]float64{}, 0, false
	}
	tx, ty := dx/length, dy/length
	nx, ny := ty, -tx // outward for a clockwise quad on screen
	if reach <= 0 {
		reach = max(3, min(8, 0.04*length))
	}
	// Outer fits look farther out than in: past a card's inner frame to
	// its own edge.
	out := reach
	if f.outer {
		out = max(reach, min(outerReachMax, outerReach*length))
	}
	n := max(8, min(40, int(length/4)))
	// Cards: fewer samples, a pixel apart; markers: every half pixel.
	stp, gap := 0.5, 2
	if f.outer {
		n = max(8, min(24, int(length/6)))
		stp, gap = 1, 1
	}
	f.xs, f.ys = f.xs[:0], f.ys[:0]
	strength := 0.0
	// Per sample point, only what is written first is read.
	var grads [64]float64
	var vals [len(grads) + 2][3]float64
	for i := range n {
		// Skip the rounded corners.
		t := 0.12 + 0.76*(float64(i)+0.5)/float64(n)
		px, py := float64(a.X)+dx*t, float64(a.Y)+dy*t
		best, bestS := 0.0, 0.0
		var prev, cur float64
		steps := int((reach+out)/stp) + 1
		// Samples every half pixel across the side; step s compares the
		// samples a pixel apart around its offset.
		steps = min(steps, len(grads))
		if g.Channels == 3 {
			for j := 0; j < steps+gap; j++ {
				o := -reach - 0.5 + stp*float64(j)
				vals[j] = g.At3(px+nx*o, py+ny*o)
			}
		} else {
			for j := 0; j < steps+gap; j++ {
				o := -reach - 0.5 + stp*float64(j)
				vals[j] = g.Sample(px+nx*o, py+ny*o)
			}
		}
		for s := 0; s < steps; s++ {
			a, b := &vals[s], &vals[s+gap]
			grads[s] = max(math.Abs(a[0]-b[0]), max(math.Abs(a[1]-b[1]), math.Abs(a[2]-b[2])))
		}
		for s := 1; s+1 < steps && s+1 < len(grads); s++ {
			if grads[s] > best && grads[s] >= grads[s-1] && grads[s] >= grads[s+1] {
				best, bestS = grads[s], float64(s)
				prev, cur = grads[s-1], grads[s+1]
			}
		}
		if best < 8 {
			continue
		}
		if f.outer {
			floor := max(8, outerShare*best)
			for s := min(steps, len(grads)) - 2; s > int(bestS); s-- {
				if grads[s] >= floor && grads[s] >= grads[s-1] && grads[s] >= grads[s+1] {
					best, bestS = grads[s], float64(s)
					prev, cur = grads[s-1], grads[s+1]
					break
				}
			}
		}
		// Parabola through the peak and its neighbours.
		den := prev - 2*best + cur
		off := 0.0
		if den < 0 {
			off = 0.5 * (prev - cur) / den
		}
		o := -reach + stp*(bestS+off)
		strength += best
		f.xs = append(f.xs, px+nx*o)
		f.ys = append(f.ys, py+ny*o)
	}
	if len(f.xs) < max(4, n/3) {
		return [3]float64{}, 0, false
	}
	strength /= float64(len(f.xs))
	// Total least squares twice, the second time without the points more
	// than 1.5 px off the first fit.
	line, ok := FitLine(f.xs, f.ys, nil, 0)
	if !ok {
		return line, 0, false
	}
	line, ok = FitLine(f.xs, f.ys, &line, 1.5)
	if !ok || line[0]*nx+line[1]*ny < 0.94 && -(line[0]*nx+line[1]*ny) < 0.94 {
		return line, 0, false
	}
	return line, strength * float64(len(f.xs)) / float64(n), true
}

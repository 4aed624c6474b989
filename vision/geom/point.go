package geom

import (
	"image"
	"math"
	"slices"
)

// Point is a sub-pixel image position in pixels; pixel centres are at
// integer coordinates.
type Point struct {
	X, Y float32
}

// GrowQuad enlarges q by grow on every side in q's own coordinates (the
// unit square mapped onto q): 0.1 adds a tenth of each side's length.
func GrowQuad(q [4]Point, grow float64) [4]Point {
	var src [4][2]float64
	for k, p := range q {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	h, ok := HomographyOf([4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, src)
	if !ok {
		return q
	}
	var out [4]Point
	for k, c := range [4][2]float64{{-grow, -grow}, {1 + grow, -grow}, {1 + grow, 1 + grow}, {-grow, 1 + grow}} {
		x, y := h.Apply(c[0], c[1])
		out[k] = Point{float32(x), float32(y)}
	}
	return out
}

// QuadInQuad reports whether every corner of a lies inside b.
func QuadInQuad(a, b [4]Point) bool {
	for _, p := range a {
		if !InQuad(p, b) {
			return false
		}
	}
	return true
}

// QuadOK orders q clockwise on screen and checks that it is convex with
// sides in [0.6·minSide, 1.3·maxSide], the longest at most four times the
// shortest, and not too skewed; it returns the ordered quad and its area.
func QuadOK(q [4]Point, minSide, maxSide float64) ([4]Point, float64, bool) {
	area := 0.0
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		area += float64(a.X)*float64(b.Y) - float64(b.X)*float64(a.Y)
	}
	if area < 0 { // counter-clockwise on screen (y down): reverse
		q[1], q[3] = q[3], q[1]
		area = -area
	}
	area /= 2
	lo, hi := math.Inf(1), 0.0
	for k := range 4 {
		a, b, c := q[k], q[(k+1)%4], q[(k+2)%4]
		l := math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y))
		lo, hi = min(lo, l), max(hi, l)
		cross := float64(b.X-a.X)*float64(c.Y-b.Y) - float64(b.Y-a.Y)*float64(c.X-b.X)
		if cross <= 0 {
			return q, 0, false
		}
	}
	if lo < minSide*0.6 || hi > maxSide*1.3 || hi > 4*lo || area < 0.3*lo*hi {
		return q, 0, false
	}
	return q, area, true
}

// LineMeet intersects the line through p and a with the line through b and
// c; false when they are (nearly) parallel.
func LineMeet(p, a, b, c [2]float64) ([2]float64, bool) {
	d1 := [2]float64{a[0] - p[0], a[1] - p[1]}
	d2 := [2]float64{c[0] - b[0], c[1] - b[1]}
	den := d1[0]*d2[1] - d1[1]*d2[0]
	if math.Abs(den) < 1e-9*math.Hypot(d1[0], d1[1])*math.Hypot(d2[0], d2[1]) || den == 0 {
		return [2]float64{}, false
	}
	t := ((b[0]-p[0])*d2[1] - (b[1]-p[1])*d2[0]) / den
	return [2]float64{p[0] + t*d1[0], p[1] + t*d1[1]}, true
}

// ConvexHullF appends the convex hull of pts (monotone chain, no collinear
// points; at most eight points without allocating) to out.
func ConvexHullF(pts [][2]float64, out [][2]float64) [][2]float64 {
	var s [8][2]float64
	p := append(s[:0], pts...)
	slices.SortFunc(p, func(a, b [2]float64) int {
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		switch {
		case a[1] < b[1]:
			return -1
		case a[1] > b[1]:
			return 1
		}
		return 0
	})
	cross := func(o, a, b [2]float64) float64 {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	start := len(out)
	for _, q := range p {
		for len(out) >= start+2 && cross(out[len(out)-2], out[len(out)-1], q) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, q)
	}
	lower := len(out) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(out) >= lower && cross(out[len(out)-2], out[len(out)-1], q) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, q)
	}
	return out[:len(out)-1]
}

// Clockwise reports whether q turns clockwise on screen (y down): its
// signed area is positive.
func Clockwise(q [4]Point) bool {
	a := 0.0
	for k := range 4 {
		p, n := q[k], q[(k+1)%4]
		a += float64(p.X)*float64(n.Y) - float64(n.X)*float64(p.Y)
	}
	return a > 0
}

// Dist is the distance between a and b.
func Dist(a, b Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// QuadArea is the area of q.
func QuadArea(q [4]Point) float64 {
	a := 0.0
	for k := range 4 {
		p, n := q[k], q[(k+1)%4]
		a += float64(p.X)*float64(n.Y) - float64(n.X)*float64(p.Y)
	}
	return math.Abs(a) / 2
}

// QuadCentre is the mean of q's corners.
func QuadCentre(q [4]Point) Point {
	var c Point
	for _, p := range q {
		c.X += p.X / 4
		c.Y += p.Y / 4
	}
	return c
}

// InQuad reports whether p lies inside the convex quad q (clockwise on
// screen).
func InQuad(p Point, q [4]Point) bool {
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		if float64(b.X-a.X)*float64(p.Y-a.Y)-float64(b.Y-a.Y)*float64(p.X-a.X) < 0 {
			return false
		}
	}
	return true
}

// QuadBox is the pixel rectangle covering q.
func QuadBox(q [4]Point) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		x0, x1 = min(x0, float64(p.X)), max(x1, float64(p.X))
		y0, y1 = min(y0, float64(p.Y)), max(y1, float64(p.Y))
	}
	return image.Rect(int(math.Floor(x0+0.5)), int(math.Floor(y0+0.5)), int(math.Floor(x1+0.5))+1, int(math.Floor(y1+0.5))+1)
}

// FitLine fits a·x + b·y = c (a² + b² = 1) to the points by total least
// squares; with prev, points farther than tol from the line prev are left
// out. False with fewer than three points.
func FitLine(xs, ys []float64, prev *[3]float64, tol float64) ([3]float64, bool) {
	var n, mx, my float64
	for i := range xs {
		if prev != nil && math.Abs(prev[0]*xs[i]+prev[1]*ys[i]-prev[2]) > tol {
			continue
		}
		mx += xs[i]
		my += ys[i]
		n++
	}
	if n < 3 {
		return [3]float64{}, false
	}
	mx /= n
	my /= n
	var sxx, sxy, syy float64
	for i := range xs {
		if prev != nil && math.Abs(prev[0]*xs[i]+prev[1]*ys[i]-prev[2]) > tol {
			continue
		}
		x, y := xs[i]-mx, ys[i]-my
		sxx += x * x
		sxy += x * y
		syy += y * y
	}
	// The normal is the eigenvector of the smaller eigenvalue.
	theta := 0.5 * math.Atan2(2*sxy, sxx-syy) // direction of the line
	a, b := -math.Sin(theta), math.Cos(theta)
	return [3]float64{a, b, a*mx + b*my}, true
}

// ConvexHull returns the convex hull of pts (monotone chain), in order.
func ConvexHull(pts []image.Point) []image.Point {
	p := slices.Clone(pts)
	slices.SortFunc(p, func(a, b image.Point) int {
		if a.X != b.X {
			return a.X - b.X
		}
		return a.Y - b.Y
	})
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b image.Point) int { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	hull := make([]image.Point, 0, 2*len(p))
	for _, q := range p {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], q) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, q)
	}
	lo := len(hull) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(hull) >= lo && cross(hull[len(hull)-2], hull[len(hull)-1], q) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, q)
	}
	return hull[:len(hull)-1]
}

// QuadFinite reports whether q's corners lie within ±1e7 (whose rows can
// be scanned with ints).
func QuadFinite(q [4]Point) bool {
	for _, p := range q {
		if !(math.Abs(float64(p.X)) < 1e7 && math.Abs(float64(p.Y)) < 1e7) {
			return false
		}
	}
	return true
}

// ShiftQuad moves q by (dx, dy).
func ShiftQuad(q [4]Point, dx, dy float32) [4]Point {
	for k := range q {
		q[k].X += dx
		q[k].Y += dy
	}
	return q
}

// QuadWithin reports whether every corner of b lies within d pixels of
// a's.
func QuadWithin(a, b [4]Point, d float64) bool {
	for k := range 4 {
		if Dist(a[k], b[k]) > d {
			return false
		}
	}
	return true
}

// SideMeans returns the mean lengths of q's sides 01 and 23 (a) and
// of its sides 12 and 30 (b).
func SideMeans(q [4]Point) (a, b float64) {
	return (Dist(q[0], q[1]) + Dist(q[2], q[3])) / 2, (Dist(q[1], q[2]) + Dist(q[3], q[0])) / 2
}

// ExtendQuad lengthens quad q by f of its sides 12 and 30 (along) or 01
// and 23, the share at of it before their start, the rest after their end.
func ExtendQuad(q [4]Point, along bool, f, at float64) [4]Point {
	// Rotate the corners so that the sides grown are 0→3 and 1→2.
	r := q
	if !along {
		r = [4]Point{q[1], q[2], q[3], q[0]}
	}
	lerp := func(p, d Point, t float64) Point {
		return Point{X: p.X + float32(t)*(d.X-p.X), Y: p.Y + float32(t)*(d.Y-p.Y)}
	}
	e := [4]Point{lerp(r[0], r[3], -f*at), lerp(r[1], r[2], -f*at), lerp(r[2], r[1], -f*(1-at)), lerp(r[3], r[0], -f*(1-at))}
	if !along {
		e = [4]Point{e[3], e[0], e[1], e[2]}
	}
	return e
}

// QuadWidth is the mean length of the shorter pair of q's opposite sides.
func QuadWidth(q [4]Point) float64 {
	return min(SideMeans(q))
}

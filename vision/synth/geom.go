package synth

import (
	"image"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// vec2 is a point or vector in continuous pixel coordinates: pixel (i, j)
// covers [i, i+1) × [j, j+1), so its centre is (i+0.5, j+0.5).
type vec2 struct{ X, Y float64 }

func (a vec2) add(b vec2) vec2      { return vec2{a.X + b.X, a.Y + b.Y} }
func (a vec2) sub(b vec2) vec2      { return vec2{a.X - b.X, a.Y - b.Y} }
func (a vec2) scale(k float64) vec2 { return vec2{a.X * k, a.Y * k} }
func (a vec2) dot(b vec2) float64   { return a.X*b.X + a.Y*b.Y }
func (a vec2) len() float64         { return math.Hypot(a.X, a.Y) }
func (a vec2) lerp(b vec2, t float64) vec2 {
	return vec2{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
}

// unit returns a scaled to length 1 (or (1, 0) when a is zero).
func (a vec2) unit() vec2 {
	l := a.len()
	if l < 1e-12 {
		return vec2{1, 0}
	}
	return vec2{a.X / l, a.Y / l}
}

// pixel returns the pixel that contains a.
func (a vec2) pixel() image.Point {
	return image.Pt(int(math.Floor(a.X)), int(math.Floor(a.Y)))
}

// vec3 is a point or vector in table space: X right, Y towards the bottom of
// the image, Z the height above the table (all in table pixels).
type vec3 struct{ X, Y, Z float64 }

func (a vec3) add(b vec3) vec3      { return vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }
func (a vec3) sub(b vec3) vec3      { return vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a vec3) scale(k float64) vec3 { return vec3{a.X * k, a.Y * k, a.Z * k} }
func (a vec3) dot(b vec3) float64   { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}
func (a vec3) unit() vec3 {
	l := math.Sqrt(a.dot(a))
	if l < 1e-12 {
		return vec3{0, 0, 1}
	}
	return a.scale(1 / l)
}

// mat3 is a 3×3 matrix (rows first).
type mat3 [3][3]float64

func ident3() mat3 { return mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

func (m mat3) mul(n mat3) mat3 {
	var r mat3
	for i := range 3 {
		for j := range 3 {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

func (m mat3) mulVec(v vec3) vec3 {
	return vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// apply maps a 2-D point through m as a homography.
func (m mat3) apply(p vec2) vec2 {
	w := m[2][0]*p.X + m[2][1]*p.Y + m[2][2]
	return vec2{(m[0][0]*p.X + m[0][1]*p.Y + m[0][2]) / w, (m[1][0]*p.X + m[1][1]*p.Y + m[1][2]) / w}
}

func (m mat3) inverse() (mat3, bool) {
	a := m
	det := a[0][0]*(a[1][1]*a[2][2]-a[1][2]*a[2][1]) -
		a[0][1]*(a[1][0]*a[2][2]-a[1][2]*a[2][0]) +
		a[0][2]*(a[1][0]*a[2][1]-a[1][1]*a[2][0])
	if math.Abs(det) < 1e-14 {
		return mat3{}, false
	}
	var r mat3
	r[0][0] = (a[1][1]*a[2][2] - a[1][2]*a[2][1]) / det
	r[0][1] = (a[0][2]*a[2][1] - a[0][1]*a[2][2]) / det
	r[0][2] = (a[0][1]*a[1][2] - a[0][2]*a[1][1]) / det
	r[1][0] = (a[1][2]*a[2][0] - a[1][0]*a[2][2]) / det
	r[1][1] = (a[0][0]*a[2][2] - a[0][2]*a[2][0]) / det
	r[1][2] = (a[0][2]*a[1][0] - a[0][0]*a[1][2]) / det
	r[2][0] = (a[1][0]*a[2][1] - a[1][1]*a[2][0]) / det
	r[2][1] = (a[0][1]*a[2][0] - a[0][0]*a[2][1]) / det
	r[2][2] = (a[0][0]*a[1][1] - a[0][1]*a[1][0]) / det
	return r, true
}

// translate returns the homography that moves points by d.
func translate(d vec2) mat3 { return mat3{{1, 0, d.X}, {0, 1, d.Y}, {0, 0, 1}} }

// homography returns the projective map sending src[i] to dst[i].
func homography(src, dst [4]vec2) (mat3, bool) {
	// Solve the 8×8 system for h00..h21 with h22 = 1.
	var a [8][9]float64
	for i := range 4 {
		x, y, u, v := src[i].X, src[i].Y, dst[i].X, dst[i].Y
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for col := range 8 {
		piv := col
		for r := col + 1; r < 8; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-12 {
			return mat3{}, false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := range 8 {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			if f == 0 {
				continue
			}
			for c := col; c < 9; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	var h [8]float64
	for i := range 8 {
		h[i] = a[i][8] / a[i][i]
		if math.IsNaN(h[i]) || math.IsInf(h[i], 0) || math.Abs(h[i]) > 1e9 {
			return mat3{}, false
		}
	}
	return mat3{{h[0], h[1], h[2]}, {h[3], h[4], h[5]}, {h[6], h[7], 1}}, true
}

// toMat returns m as a 3×3 CV_64F Mat for OpenCV; the caller closes it.
func (m mat3) toMat() gocv.Mat {
	out := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	for i := range 3 {
		for j := range 3 {
			out.SetDoubleAt(i, j, m[i][j])
		}
	}
	return out
}

// cvHomography converts a homography between continuous coordinates into
// the one OpenCV's warp functions expect (pixel centres at integers), with
// the destination shifted by -dstOrigin.
func cvHomography(m mat3, dstOrigin vec2) mat3 {
	return translate(vec2{-0.5 - dstOrigin.X, -0.5 - dstOrigin.Y}).mul(m).mul(translate(vec2{0.5, 0.5}))
}

// rotation returns the rotation by angle (radians) about the unit axis a.
func rotation(a vec3, angle float64) mat3 {
	c, s := math.Cos(angle), math.Sin(angle)
	t := 1 - c
	return mat3{
		{t*a.X*a.X + c, t*a.X*a.Y - s*a.Z, t*a.X*a.Z + s*a.Y},
		{t*a.X*a.Y + s*a.Z, t*a.Y*a.Y + c, t*a.Y*a.Z - s*a.X},
		{t*a.X*a.Z - s*a.Y, t*a.Y*a.Z + s*a.X, t*a.Z*a.Z + c},
	}
}

// convexHull returns the convex hull of pts in order (monotone chain).
func convexHull(pts []vec2) []vec2 {
	p := append([]vec2(nil), pts...)
	// Insertion sort: the inputs are tiny.
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && (p[j].X < p[j-1].X || (p[j].X == p[j-1].X && p[j].Y < p[j-1].Y)); j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	if len(p) < 3 {
		return p
	}
	cross := func(o, a, b vec2) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	hull := make([]vec2, 0, 2*len(p))
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

// bounds returns the smallest pixel rectangle containing every point.
func bounds(pts []vec2) image.Rectangle {
	if len(pts) == 0 {
		return image.Rectangle{}
	}
	minX, minY, maxX, maxY := pts[0].X, pts[0].Y, pts[0].X, pts[0].Y
	for _, p := range pts[1:] {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
}

// pointInPoly reports whether p lies inside the convex or simple polygon.
func pointInPoly(p vec2, poly []vec2) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// camera is a pinhole camera above the table. Table space is in table
// pixels; with no tilt, a point on the table has the same coordinates in the
// frame (the table texture is the frame), and the camera's nadir sits
// slightly off the frame's centre so every die shows a side band.
type camera struct {
	w, h       int
	f, cx, cy  float64
	pos        vec3
	ax, ay, az vec3 // camera axes in table space: image right, image down, optical axis
	tilt       float64
	toImage    mat3 // table plane (z = 0) → frame
	toTable    mat3 // frame → table plane
	tex        image.Rectangle
}

// newCamera builds the camera for a w×h frame tilted by tiltDeg degrees
// (the top of the frame looks further away). rng picks the off-centre nadir.
func newCamera(w, h int, tiltDeg float64, rng *rand.Rand) camera {
	c := camera{w: w, h: h, tilt: tiltDeg}
	c.f = 1.3 * float64(max(w, h))
	c.cx = float64(w)/2 + (rng.Float64()*2-1)*0.15*float64(w)
	c.cy = float64(h)/2 + (rng.Float64()*2-1)*0.15*float64(h)
	th := tiltDeg * math.Pi / 180
	c.ax = vec3{1, 0, 0}
	c.ay = vec3{0, math.Cos(th), -math.Sin(th)}
	c.az = vec3{0, -math.Sin(th), -math.Cos(th)}
	// The optical axis meets the table at (cx, cy) at distance f, so the
	// untilted camera maps the table one to one onto the frame.
	target := vec3{c.cx, c.cy, 0}
	c.pos = target.sub(c.az.scale(c.f))
	if tiltDeg == 0 {
		c.toImage, c.toTable = ident3(), ident3()
		c.tex = image.Rect(0, 0, w, h)
		return c
	}
	k := mat3{{c.f, 0, c.cx}, {0, c.f, c.cy}, {0, 0, 1}}
	m := mat3{
		{c.ax.X, c.ax.Y, -c.ax.dot(c.pos)},
		{c.ay.X, c.ay.Y, -c.ay.dot(c.pos)},
		{c.az.X, c.az.Y, -c.az.dot(c.pos)},
	}
	c.toImage = k.mul(m)
	c.toTable, _ = c.toImage.inverse()
	corners := []vec2{
		c.toTable.apply(vec2{0, 0}), c.toTable.apply(vec2{float64(w), 0}),
		c.toTable.apply(vec2{float64(w), float64(h)}), c.toTable.apply(vec2{0, float64(h)}),
	}
	c.tex = bounds(corners).Inset(-2)
	return c
}

// project maps a point of table space into the frame.
func (c *camera) project(p vec3) vec2 {
	d := p.sub(c.pos)
	zc := c.az.dot(d)
	if zc < 1e-6 {
		zc = 1e-6
	}
	return vec2{c.cx + c.f*c.ax.dot(d)/zc, c.cy + c.f*c.ay.dot(d)/zc}
}

// unproject returns the point at height z that the frame point p shows.
func (c *camera) unproject(p vec2, z float64) vec2 {
	dir := c.ax.scale((p.X - c.cx) / c.f).add(c.ay.scale((p.Y - c.cy) / c.f)).add(c.az)
	if math.Abs(dir.Z) < 1e-9 {
		return vec2{c.pos.X, c.pos.Y}
	}
	t := (z - c.pos.Z) / dir.Z
	q := c.pos.add(dir.scale(t))
	return vec2{q.X, q.Y}
}

// nadir is the table point straight below the camera.
func (c *camera) nadir() vec2 { return vec2{c.pos.X, c.pos.Y} }

// imageScale is roughly how many frame pixels one table pixel spans at the
// table point p.
func (c *camera) imageScale(p vec2) float64 {
	a := c.project(vec3{p.X - 0.5, p.Y, 0})
	b := c.project(vec3{p.X + 0.5, p.Y, 0})
	return b.sub(a).len()
}

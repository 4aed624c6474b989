package synth

import (
	"image"
	"math"

	"tablecam/models"
)

// cube is one die as drawn in one frame.
type cube struct {
	index int
	set   models.FaceSet
	art   artSpec // colours and shapes; the face is chosen per cube face
	// base is the centre of the die's footprint on the table (table space).
	base vec2
	// lift raises the die above the table (bouncing, held).
	lift float64
	// yaw rotates the die about the vertical, degrees clockwise.
	yaw  float64
	size float64
	// flat, when not 0, makes the piece a flat disc of diameter size and
	// thickness flat·size (a token) instead of a cube.
	flat float64
	// roll and phi tilt the die over one of its bottom edges (tumbling):
	// roll picks the local direction (+x, +y, -x, -y) and phi the angle in
	// degrees, within ±45.
	roll int
	phi  float64
	// faces are the face ids drawn on the cube's sides: top, the side that
	// comes up when rolling, the side that goes down, the two sides along
	// the roll axis, bottom. "" draws a plain side.
	faces [6]string
	// blur is the motion in frame pixels during one exposure.
	blur   vec2
	moving bool
	held   bool
}

// cubeFace is one visible side of a cube in the frame.
type cubeFace struct {
	face  string
	quad  [4]vec2 // art corners: top-left, top-right, bottom-right, bottom-left
	shade float64
	up    float64 // z of the face's normal
}

// cubeGeom is a cube projected into the frame.
type cubeGeom struct {
	world   [8]vec3
	hull    []vec2
	box     image.Rectangle // unclipped
	visible []cubeFace
	top     cubeFace // the side facing up most (visible or not)
	center  vec2     // centre of the top face in the frame
	topSide float64  // mean edge length of the top face in the frame
	// disc holds points around a token's bottom and top rims (table
	// space), and rim their projected hull, drawn as the token's edge;
	// both nil for a cube.
	disc []vec3
	rim  []vec2
}

// localFaces returns, for a roll direction, each face's normal and art axes
// in the die's own frame, before the roll angle and the yaw are applied.
func localFaces(roll int) [6][3]vec3 {
	m := [4]vec3{{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}}[roll&3]
	z := vec3{0, 0, 1}
	x, y := vec3{1, 0, 0}, vec3{0, 1, 0}
	a := z.cross(m)
	rot := func(deg float64) [3]vec3 {
		r := rotation(a, deg*math.Pi/180)
		return [3]vec3{r.mulVec(z), r.mulVec(x), r.mulVec(y)}
	}
	return [6][3]vec3{
		{z, x, y},
		rot(-90),
		rot(90),
		{a, m, z.scale(-1)},
		{a.scale(-1), m.scale(-1), z.scale(-1)},
		rot(180),
	}
}

// orientation is the cube's rotation: roll, then yaw.
func (c *cube) orientation() mat3 {
	m := [4]vec3{{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}}[c.roll&3]
	a := vec3{0, 0, 1}.cross(m)
	return rotation(vec3{0, 0, 1}, c.yaw*math.Pi/180).mul(rotation(a, c.phi*math.Pi/180))
}

// geometry projects the cube into the frame.
func (c *cube) geometry(cam *camera, light vec3) cubeGeom {
	if c.flat > 0 {
		return c.discGeometry(cam, light)
	}
	h := c.size / 2
	r := c.orientation()
	phi := math.Abs(c.phi) * math.Pi / 180
	centre := vec3{c.base.X, c.base.Y, c.lift + h*(math.Cos(phi)+math.Sin(phi))}
	var g cubeGeom
	pts := make([]vec2, 0, 8)
	k := 0
	for _, sx := range []float64{-1, 1} {
		for _, sy := range []float64{-1, 1} {
			for _, sz := range []float64{-1, 1} {
				w := centre.add(r.mulVec(vec3{sx * h, sy * h, sz * h}))
				g.world[k] = w
				k++
				pts = append(pts, cam.project(w))
			}
		}
	}
	g.hull = convexHull(pts)
	g.box = bounds(g.hull)
	norm := 0.45 + 0.55*math.Max(0.2, light.Z)
	best := math.Inf(-1)
	for i, f := range localFaces(c.roll) {
		n, right, down := r.mulVec(f[0]), r.mulVec(f[1]), r.mulVec(f[2])
		fc := centre.add(n.scale(h))
		var q [4]vec2
		for j, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			q[j] = cam.project(fc.add(right.scale(s[0] * h)).add(down.scale(s[1] * h)))
		}
		cf := cubeFace{
			face:  c.faces[i],
			quad:  q,
			shade: math.Min(1.12, (0.45+0.55*math.Max(0, n.dot(light)))/norm),
			up:    n.Z,
		}
		if n.Z > best {
			best = n.Z
			g.top = cf
			g.center = cam.project(fc)
		}
		if n.dot(cam.pos.sub(fc)) > 1e-9 {
			g.visible = append(g.visible, cf)
		}
	}
	q := g.top.quad
	g.topSide = (q[1].sub(q[0]).len() + q[2].sub(q[1]).len() + q[3].sub(q[2]).len() + q[0].sub(q[3]).len()) / 4
	return g
}

// shadow returns the cube's shadow on the table as a polygon in the frame.
func (g *cubeGeom) shadow(cam *camera, light vec3) []vec2 {
	lz := math.Max(0.2, light.Z)
	solid := g.world[:]
	if g.disc != nil {
		solid = g.disc
	}
	pts := make([]vec2, 0, len(solid))
	for _, w := range solid {
		t := w.Z / lz
		pts = append(pts, cam.project(vec3{w.X - light.X*t, w.Y - light.Y*t, 0}))
	}
	return convexHull(pts)
}

// height is the height of the piece's top face above the table at rest.
func (c *cube) height() float64 {
	if c.flat > 0 {
		return c.flat * c.size
	}
	return c.size
}

// polyArea is the area of a simple polygon.
func polyArea(p []vec2) float64 {
	a := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return math.Abs(a) / 2
}

package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// canvas is a continuous 8-bit BGR frame's pixels.
type canvas struct {
	data []byte
	w, h int
}

func (cv *canvas) rect() image.Rectangle { return image.Rect(0, 0, cv.w, cv.h) }

// darken multiplies the pixels under roi by (255-m)/255, m a roi-sized mask.
func (cv *canvas) darken(roi image.Rectangle, m []byte) {
	rw := roi.Dx()
	for y := roi.Min.Y; y < roi.Max.Y; y++ {
		row := cv.data[(y*cv.w+roi.Min.X)*3 : (y*cv.w+roi.Max.X)*3]
		mr := m[(y-roi.Min.Y)*rw : (y-roi.Min.Y+1)*rw]
		for x, v := range mr {
			if v == 0 {
				continue
			}
			k := uint32(255 - v)
			row[3*x] = uint8((uint32(row[3*x])*k + 127) / 255)
			row[3*x+1] = uint8((uint32(row[3*x+1])*k + 127) / 255)
			row[3*x+2] = uint8((uint32(row[3*x+2])*k + 127) / 255)
		}
	}
}

// composite puts a premultiplied roi-sized patch over the frame.
func (cv *canvas) composite(roi image.Rectangle, pb, pa []byte) {
	rw := roi.Dx()
	for y := roi.Min.Y; y < roi.Max.Y; y++ {
		row := cv.data[(y*cv.w+roi.Min.X)*3 : (y*cv.w+roi.Max.X)*3]
		off := (y - roi.Min.Y) * rw
		for x := range rw {
			a := pa[off+x]
			if a == 0 {
				continue
			}
			k := uint32(255 - a)
			for ch := range 3 {
				v := (uint32(row[3*x+ch])*k+127)/255 + uint32(pb[3*(off+x)+ch])
				row[3*x+ch] = uint8(min(255, v))
			}
		}
	}
}

// composite4 puts a premultiplied BGRA roi-sized patch over the frame.
func (cv *canvas) composite4(roi image.Rectangle, p []byte) {
	rw := roi.Dx()
	for y := roi.Min.Y; y < roi.Max.Y; y++ {
		row := cv.data[(y*cv.w+roi.Min.X)*3 : (y*cv.w+roi.Max.X)*3]
		prow := p[4*(y-roi.Min.Y)*rw : 4*(y-roi.Min.Y+1)*rw]
		for x := range rw {
			a := prow[4*x+3]
			if a == 0 {
				continue
			}
			k := uint32(255 - a)
			for ch := range 3 {
				v := (uint32(row[3*x+ch])*k+127)/255 + uint32(prow[4*x+ch])
				row[3*x+ch] = uint8(min(255, v))
			}
		}
	}
}

// glare brightens a soft spot: a small bright core and a wide sheen.
func (cv *canvas) glare(g glare) {
	r2 := 3.5 * g.sigma
	roi := image.Rect(int(g.at.X-r2), int(g.at.Y-r2), int(g.at.X+r2)+1, int(g.at.Y+r2)+1).Intersect(cv.rect())
	// Strength by squared distance, in 1024 steps up to r2².
	const steps = 1024
	maxD2 := r2 * r2
	var tab [steps + 1]uint32
	for i := range tab {
		d2 := float64(i) / steps * maxD2
		a := g.strength * (0.9*math.Exp(-d2*9/(2*g.sigma*g.sigma)) + 0.3*math.Exp(-d2/(2*g.sigma*g.sigma)))
		tab[i] = uint32(math.Round(256 * math.Min(1, a)))
	}
	for y := roi.Min.Y; y < roi.Max.Y; y++ {
		dy := float64(y) + 0.5 - g.at.Y
		for x := roi.Min.X; x < roi.Max.X; x++ {
			dx := float64(x) + 0.5 - g.at.X
			d2 := dx*dx + dy*dy
			if d2 >= maxD2 {
				continue
			}
			a := tab[int(d2/maxD2*steps)]
			if a == 0 {
				continue
			}
			i := (y*cv.w + x) * 3
			for ch := range 3 {
				v := uint32(cv.data[i+ch])
				cv.data[i+ch] = uint8(v + ((255-v)*a)>>8)
			}
		}
	}
}

// cvPoints converts frame points to OpenCV's fixed-point coordinates
// relative to origin (pixel centres at integers, shiftBits fraction bits),
// clamped far inside OpenCV's int range.
func cvPoints(pts []vec2, origin vec2) []image.Point {
	const lim = 1 << 24
	c := func(v float64) int {
		if math.IsNaN(v) {
			return 0
		}
		return int(math.Round(math.Max(-lim, math.Min(lim, v*(1<<shiftBits)))))
	}
	out := make([]image.Point, len(pts))
	for i, p := range pts {
		out[i] = image.Pt(c(p.X-0.5-origin.X), c(p.Y-0.5-origin.Y))
	}
	return out
}

// fillPolys fills polygons (frame coordinates) on m, whose top-left pixel is
// at origin in the frame.
func fillPolys(m *gocv.Mat, polys [][]vec2, origin vec2, c color.RGBA) {
	var ip [][]image.Point
	for _, p := range polys {
		if len(p) >= 3 {
			ip = append(ip, cvPoints(p, origin))
		}
	}
	if len(ip) == 0 {
		return
	}
	for _, p := range ip {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{p})
		gocv.FillPolyWithParams(m, pv, c, gocv.LineAA, shiftBits, image.Point{})
		pv.Close()
	}
}

// drawShadow darkens the table under and beside a die.
func (st *stage) drawShadow(cv *canvas, cb *cube, g *cubeGeom) error {
	poly := g.shadow(&st.cam, st.light)
	scale := g.topSide / math.Max(1, cb.size)
	sigma := math.Max(0.6, 0.09*g.topSide+0.3*cb.lift*scale)
	strength := 0.5 / (1 + 1.5*cb.lift/cb.size)
	pad := int(math.Ceil(3*sigma)) + 1
	roi := bounds(poly).Inset(-pad).Intersect(cv.rect())
	if roi.Dx() < 1 || roi.Dy() < 1 {
		return nil
	}
	m := gocv.Zeros(roi.Dy(), roi.Dx(), gocv.MatTypeCV8UC1)
	defer m.Close()
	v := uint8(math.Round(255 * strength))
	fillPolys(&m, [][]vec2{poly}, vec2{float64(roi.Min.X), float64(roi.Min.Y)}, color.RGBA{v, v, v, 255})
	softBlur(m, &m, sigma)
	d, err := m.DataPtrUint8()
	if err != nil {
		return err
	}
	cv.darken(roi, d)
	return nil
}

// drawCube draws a die's visible sides with their art, motion-blurred when
// it moves.
func (st *stage) drawCube(cv *canvas, cb *cube, g *cubeGeom) error {
	blurPad := int(math.Ceil(cb.blur.len()/2)) + 2
	roi := g.box.Inset(-blurPad).Intersect(cv.rect())
	if roi.Dx() < 1 || roi.Dy() < 1 {
		return nil
	}
	// The die's patch: premultiplied BGRA.
	patch := gocv.Zeros(roi.Dy(), roi.Dx(), gocv.MatTypeCV8UC4)
	warped := gocv.NewMat()
	defer patch.Close()
	defer warped.Close()
	if g.rim != nil {
		fillPolys(&patch, [][]vec2{g.rim}, vec2{float64(roi.Min.X), float64(roi.Min.Y)}, rimColor(cb.art.look))
	}
	pd, err := patch.DataPtrUint8()
	if err != nil {
		return err
	}
	for _, f := range g.visible {
		area := polyArea(f.quad[:])
		if area < 0.5 {
			continue
		}
		// Only the face's own bounds are warped.
		fr := bounds(f.quad[:]).Inset(-1).Intersect(roi)
		if fr.Dx() < 1 || fr.Dy() < 1 {
			continue
		}
		// Art a little larger than the face appears, in a few sizes so
		// that sequences reuse it.
		size := artSize(math.Max(math.Sqrt(area)*1.15, 0.5*g.topSide))
		s := float64(size)
		h, ok := homography([4]vec2{{0, 0}, {s, 0}, {s, s}, {0, s}}, f.quad)
		if !ok {
			continue
		}
		art, err := st.art(cb, f.face, size)
		if err != nil {
			return err
		}
		hm := cvHomography(h, vec2{float64(fr.Min.X), float64(fr.Min.Y)}).toMat()
		gocv.WarpPerspectiveWithParams(art.bgra, &warped, hm, fr.Size(), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
		hm.Close()
		wd, err := warped.DataPtrUint8()
		if err != nil || len(wd) != 4*fr.Dx()*fr.Dy() {
			return fmt.Errorf("synth: warped face does not match its bounds")
		}
		over(pd, roi.Dx(), fr.Sub(roi.Min), wd, f.shade)
	}
	if cb.blur.len() >= 1.5 {
		k := motionKernel(cb.blur)
		gocv.Filter2D(patch, &patch, -1, k, image.Pt(-1, -1), 0, gocv.BorderConstant)
		k.Close()
		if pd, err = patch.DataPtrUint8(); err != nil {
			return err
		}
	}
	cv.composite4(roi, pd)
	return nil
}

// artSize rounds an art size up to one of a few steps (8 px apart up to
// 128, then 32 px apart), at most 512.
func artSize(px float64) int {
	n := int(math.Ceil(math.Max(8, px)))
	if n <= 128 {
		return (n + 7) / 8 * 8
	}
	return min(512, (n+31)/32*32)
}

// over composites a premultiplied BGRA source (scaled by shade) covering r
// of a premultiplied BGRA patch that is pw pixels wide.
func over(dst []byte, pw int, r image.Rectangle, src []byte, shade float64) {
	sh := uint32(math.Round(shade * 256))
	rw := r.Dx()
	for y := range r.Dy() {
		srow := src[4*y*rw : 4*(y+1)*rw]
		drow := dst[4*((r.Min.Y+y)*pw+r.Min.X) : 4*((r.Min.Y+y)*pw+r.Max.X)]
		for x := range rw {
			a := srow[4*x+3]
			if a == 0 {
				continue
			}
			k := uint32(255 - a)
			for ch := range 3 {
				v := (uint32(srow[4*x+ch])*sh)>>8 + (uint32(drow[4*x+ch])*k+127)/255
				drow[4*x+ch] = uint8(min(255, v))
			}
			drow[4*x+3] = uint8(min(255, uint32(a)+(uint32(drow[4*x+3])*k+127)/255))
		}
	}
}

// handPose is a hand and forearm reaching into the frame.
type handPose struct {
	tip    vec2    // tip of the middle finger (frame)
	entry  vec2    // where the forearm comes from, outside the frame
	width  float64 // palm width in pixels
	side   float64 // +1: thumb on the left of the reach direction, -1: right
	curl   float64 // 0 open … 1 closed
	spread float64
	height float64 // above the table, pixels (moves the shadow)
	blur   vec2
}

// handShape is the hand as capsules and an ellipse in frame coordinates.
type handShape struct {
	polys    [][]vec2
	caps     [][2]vec2
	radii    []float64
	palm     vec2
	palmAx   [2]float64
	palmAng  float64
	dir, nrm vec2
}

func (h *handPose) shape() handShape {
	dir := h.tip.sub(h.entry).unit()
	n := vec2{-dir.Y, dir.X}.scale(h.side)
	w := h.width
	lens := [4]float64{0.6, 0.7, 0.66, 0.5}
	offs := [4]float64{0.33, 0.11, -0.11, -0.31}
	angs := [4]float64{9, 2, -6, -15}
	rads := [4]float64{0.08, 0.085, 0.08, 0.068}
	curl := 1 - 0.45*h.curl
	palm := h.tip.sub(dir.scale(0.4*w + lens[1]*w*curl))
	var s handShape
	s.dir, s.nrm = dir, n
	rot := func(v vec2, deg float64) vec2 {
		t := deg * math.Pi / 180 * h.side
		c, sn := math.Cos(t), math.Sin(t)
		return vec2{v.X*c - v.Y*sn, v.X*sn + v.Y*c}
	}
	// Forearm: narrow at the wrist, wider towards the elbow.
	wrist := palm.sub(dir.scale(0.42 * w))
	s.polys = append(s.polys, []vec2{
		wrist.add(n.scale(0.3 * w)), wrist.sub(n.scale(0.3 * w)),
		h.entry.sub(n.scale(0.42 * w)), h.entry.add(n.scale(0.42 * w)),
	})
	for k := range 4 {
		base := palm.add(dir.scale(0.36 * w)).add(n.scale(offs[k] * w))
		d := rot(dir, -angs[k]*h.spread)
		tip := base.add(d.scale(lens[k] * w * curl))
		s.caps = append(s.caps, [2]vec2{base, tip})
		s.radii = append(s.radii, rads[k]*w)
	}
	// Thumb.
	tb := palm.add(n.scale(0.33 * w)).sub(dir.scale(0.05 * w))
	td := dir.scale(math.Cos(0.75)).add(n.scale(math.Sin(0.75)))
	s.caps = append(s.caps, [2]vec2{tb, tb.add(td.scale(0.48 * w * (1 - 0.3*h.curl)))})
	s.radii = append(s.radii, 0.1*w)
	s.palm = palm
	s.palmAx = [2]float64{0.5 * w, 0.45 * w}
	s.palmAng = math.Atan2(dir.Y, dir.X) * 180 / math.Pi
	return s
}

// outline returns points around the hand for bounds and overlap tests.
func (s *handShape) outline() []vec2 {
	var pts []vec2
	for _, p := range s.polys {
		pts = append(pts, p...)
	}
	for i, c := range s.caps {
		pts = append(pts, capsulePoly(c[0], c[1], s.radii[i])...)
	}
	for k := range 16 {
		t := float64(k) * math.Pi / 8
		a := math.Atan2(s.dir.Y, s.dir.X)
		x, y := s.palmAx[0]*math.Cos(t), s.palmAx[1]*math.Sin(t)
		pts = append(pts, s.palm.add(vec2{x*math.Cos(a) - y*math.Sin(a), x*math.Sin(a) + y*math.Cos(a)}))
	}
	return pts
}

// draw fills the hand on an 8UC1 mask whose top-left pixel is at origin.
func (s *handShape) draw(m *gocv.Mat, origin vec2, v uint8) {
	c := color.RGBA{v, v, v, 255}
	polys := append([][]vec2(nil), s.polys...)
	for i, cp := range s.caps {
		polys = append(polys, capsulePoly(cp[0], cp[1], s.radii[i]))
	}
	fillPolys(m, polys, origin, c)
	p := cvPoints([]vec2{s.palm}, origin)[0]
	ax := image.Pt(int(s.palmAx[0]*(1<<shiftBits)), int(s.palmAx[1]*(1<<shiftBits)))
	gocv.EllipseWithParams(m, p, ax, s.palmAng, 0, 360, c, -1, gocv.LineAA, shiftBits)
}

// handMask is the drawn hand's coverage, for the truth.
type handMask struct {
	alpha gocv.Mat
	data  []byte
	roi   image.Rectangle // where alpha sits in the frame
	box   image.Rectangle // bounds of the covered pixels
}

func (m *handMask) at(x, y int) uint8 {
	if !image.Pt(x, y).In(m.roi) {
		return 0
	}
	return m.data[(y-m.roi.Min.Y)*m.roi.Dx()+x-m.roi.Min.X]
}

// handCoverage draws the hand's coverage (motion-blurred); nil when the hand
// is out of view. The caller closes the mask's alpha.
func (st *stage) handCoverage(h *handPose) (*handMask, error) {
	s := h.shape()
	pad := int(math.Ceil(h.blur.len()/2)) + 3
	fr := image.Rect(0, 0, st.spec.Width, st.spec.Height)
	roi := bounds(s.outline()).Inset(-pad).Intersect(fr)
	if roi.Dx() < 1 || roi.Dy() < 1 {
		return nil, nil
	}
	alpha := gocv.Zeros(roi.Dy(), roi.Dx(), gocv.MatTypeCV8UC1)
	s.draw(&alpha, vec2{float64(roi.Min.X), float64(roi.Min.Y)}, 255)
	if h.blur.len() >= 1.5 {
		k := motionKernel(h.blur)
		gocv.Filter2D(alpha, &alpha, -1, k, image.Pt(-1, -1), 0, gocv.BorderConstant)
		k.Close()
	}
	ad, err := alpha.DataPtrUint8()
	if err != nil {
		alpha.Close()
		return nil, err
	}
	hm := &handMask{alpha: alpha, data: ad, roi: roi}
	minX, minY, maxX, maxY := roi.Max.X, roi.Max.Y, roi.Min.X-1, roi.Min.Y-1
	rw := roi.Dx()
	for i, a := range ad {
		if a == 0 {
			continue
		}
		x, y := roi.Min.X+i%rw, roi.Min.Y+i/rw
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	if maxX >= minX {
		hm.box = image.Rect(minX, minY, maxX+1, maxY+1)
	}
	return hm, nil
}

// handShadow returns where the hand's shadow falls: its offset from the
// hand, its blur and the region it may darken.
func (st *stage) handShadow(h *handPose, s *handShape) (vec2, float64, image.Rectangle) {
	lz := math.Max(0.2, st.light.Z)
	off := vec2{-st.light.X / lz, -st.light.Y / lz}.scale(h.height)
	sigma := 0.06*h.width + 0.08*h.height
	sp := int(math.Ceil(3*sigma)) + 1
	fr := image.Rect(0, 0, st.spec.Width, st.spec.Height)
	return off, sigma, bounds(s.outline()).Inset(-sp).Add(off.pixel()).Intersect(fr)
}

// handFootprint is the part of the frame the hand or its shadow touches.
func (st *stage) handFootprint(h *handPose) image.Rectangle {
	s := h.shape()
	fr := image.Rect(0, 0, st.spec.Width, st.spec.Height)
	r := bounds(s.outline()).Inset(-int(math.Ceil(h.blur.len()/2)) - 3).Intersect(fr)
	if !st.spec.NoShadows {
		_, _, sr := st.handShadow(h, &s)
		r = r.Union(sr)
	}
	return r
}

// paintHand draws the hand's shadow and the hand with coverage hm.
func (st *stage) paintHand(cv *canvas, h *handPose, hm *handMask) error {
	s := h.shape()
	if !st.spec.NoShadows {
		off, sigma, sroi := st.handShadow(h, &s)
		if sroi.Dx() > 0 && sroi.Dy() > 0 {
			sm := gocv.Zeros(sroi.Dy(), sroi.Dx(), gocv.MatTypeCV8UC1)
			v := uint8(255 * 0.42 / (1 + h.height/(2*h.width)))
			s.draw(&sm, vec2{float64(sroi.Min.X), float64(sroi.Min.Y)}.sub(off), v)
			softBlur(sm, &sm, sigma)
			d, err := sm.DataPtrUint8()
			if err != nil {
				sm.Close()
				return err
			}
			cv.darken(sroi, d)
			sm.Close()
		}
	}
	roi := hm.roi
	// Two scales of blurred coverage: the small one rounds fingers, the
	// large one makes the arm and palm look round.
	shade, wide := gocv.NewMat(), gocv.NewMat()
	defer shade.Close()
	defer wide.Close()
	softBlur(hm.alpha, &shade, 0.04*h.width)
	softBlur(hm.alpha, &wide, 0.16*h.width)
	gocv.AddWeighted(shade, 0.5, wide, 0.5, 0, &shade)
	col := gocv.NewMatWithSize(roi.Dy(), roi.Dx(), gocv.MatTypeCV8UC3)
	defer col.Close()
	cd, err1 := col.DataPtrUint8()
	sd, err2 := shade.DataPtrUint8()
	if err1 != nil || err2 != nil || len(sd) != len(hm.data) {
		return fmt.Errorf("synth: hand buffers not continuous")
	}
	sk := [3]float64{float64(st.skin.B), float64(st.skin.G), float64(st.skin.R)}
	for i, v := range sd {
		k := 0.45 + 0.62*float64(v)/255
		a := uint32(hm.data[i])
		cd[3*i] = uint8((uint32(math.Min(255, sk[0]*k))*a + 127) / 255)
		cd[3*i+1] = uint8((uint32(math.Min(255, sk[1]*k))*a + 127) / 255)
		cd[3*i+2] = uint8((uint32(math.Min(255, sk[2]*k))*a + 127) / 255)
	}
	cv.composite(roi, cd, hm.data)
	return nil
}

// softBlur is a Gaussian-like blur of an 8UC1 mask whose cost does not grow
// with sigma: two box filters of the matching variance (a true Gaussian
// for small sigmas). Large blurs reflect at the border.
func softBlur(src gocv.Mat, dst *gocv.Mat, sigma float64) {
	if sigma < 3 {
		gocv.GaussianBlur(src, dst, image.Pt(0, 0), math.Max(0.3, sigma), math.Max(0.3, sigma), gocv.BorderConstant)
		return
	}
	k := int(math.Round(math.Sqrt(6*sigma*sigma+1))) | 1
	gocv.Blur(src, dst, image.Pt(k, k))
	gocv.Blur(*dst, dst, image.Pt(k, k))
}

// handWidth is the palm width for dice of the given mean size in the frame.
func (st *stage) handWidth(dieSize float64) float64 {
	return math.Min(4*dieSize, 0.36*float64(min(st.spec.Width, st.spec.Height)))
}

// edgePoint returns a point outside edge e at fraction t along it, pushed
// out by out pixels, and the inward direction.
func (st *stage) edgePoint(e Edge, t, out float64) (vec2, vec2) {
	w, h := float64(st.spec.Width), float64(st.spec.Height)
	switch e {
	case EdgeTop:
		return vec2{t * w, -out}, vec2{0, 1}
	case EdgeLeft:
		return vec2{-out, t * h}, vec2{1, 0}
	case EdgeRight:
		return vec2{w + out, t * h}, vec2{-1, 0}
	default:
		return vec2{t * w, h + out}, vec2{0, -1}
	}
}

func randomEdge(rng *rand.Rand) Edge { return Edge(1 + rng.IntN(4)) }

// meanDieSize is the mean top-face size of the dice in the frame.
func (st *stage) meanDieSize(dice []*layoutDie) float64 {
	if len(dice) == 0 {
		lo, hi := st.spec.sizeRange("vats")
		return float64(lo+hi) / 2
	}
	sum := 0.0
	for _, d := range dice {
		g := d.cube.geometry(&st.cam, st.light)
		sum += g.topSide
	}
	return sum / float64(len(dice))
}

// staticHand places the hand of a still scene.
func (st *stage) staticHand(dice []*layoutDie, rng *rand.Rand) *handPose {
	hs := st.spec.Hand
	edge := hs.Edge
	if edge == EdgeAuto {
		edge = randomEdge(rng)
	}
	w := st.handWidth(st.meanDieSize(dice))
	hp := &handPose{
		width: w, side: float64(1 - 2*rng.IntN(2)), curl: 0.4 * rng.Float64(),
		spread: 0.7 + 0.6*rng.Float64(), height: w * (0.4 + rng.Float64()),
	}
	if hs.Cover && hs.Die < len(dice) {
		g := dice[hs.Die].cube.geometry(&st.cam, st.light)
		entry, _ := st.edgePoint(edge, 0.2+0.6*rng.Float64(), 3*w)
		dir := g.center.sub(entry).unit()
		hp.entry = entry
		hp.tip = g.center.add(dir.scale((-0.3 + 0.35*rng.Float64()) * g.topSide))
		return hp
	}
	var boxes []image.Rectangle
	for _, d := range dice {
		boxes = append(boxes, d.box)
	}
	best, bestHits := *hp, math.MaxInt
	for range 40 {
		entry, in := st.edgePoint(edge, 0.15+0.7*rng.Float64(), 3*w)
		depth := (0.3 + 0.35*rng.Float64()) * math.Abs(in.dot(vec2{float64(st.spec.Width), float64(st.spec.Height)}))
		edgeAt, _ := st.edgePoint(edge, 0.15+0.7*rng.Float64(), 0)
		tip := edgeAt.add(in.scale(depth))
		cand := *hp
		cand.entry, cand.tip = entry, tip
		hits := handHits(&cand, boxes)
		if hits < bestHits {
			best, bestHits = cand, hits
		}
		if hits == 0 {
			break
		}
	}
	return &best
}

// handHits counts the boxes the hand's outline touches.
func handHits(h *handPose, boxes []image.Rectangle) int {
	s := h.shape()
	hull := convexHull(s.outline())
	n := 0
	for _, b := range boxes {
		fb := b.Inset(-2)
		hit := false
		for _, p := range []vec2{
			{float64(fb.Min.X), float64(fb.Min.Y)}, {float64(fb.Max.X), float64(fb.Min.Y)},
			{float64(fb.Max.X), float64(fb.Max.Y)}, {float64(fb.Min.X), float64(fb.Max.Y)},
			{float64(fb.Min.X+fb.Max.X) / 2, float64(fb.Min.Y+fb.Max.Y) / 2},
		} {
			if pointInPoly(p, hull) {
				hit = true
				break
			}
		}
		if !hit {
			for _, p := range hull {
				if p.pixel().In(fb) {
					hit = true
					break
				}
			}
		}
		if hit {
			n++
		}
	}
	return n
}

package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"sort"

	"gocv.io/x/gocv"

	"tablecam/models"
)

// Random streams: each part of a scene draws from its own stream so that
// changing one option (noise, say) does not move the dice.
const (
	saltLayout uint64 = iota + 0x5eed0001
	saltTable
	saltCamera
	saltLight
	saltHand
	saltNoise
	saltEmptyNoise
	saltScript
)

// rngFor returns the random stream salt of a seed.
func rngFor(seed int64, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix64(uint64(seed)^mix64(salt)), mix64(uint64(seed)+0x9e3779b97f4a7c15*(salt|1))))
}

// mix64 is the splitmix64 finaliser: it spreads every input bit over the
// output.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// stage is a prepared scene: camera, table, light and buffers. Frames are
// drawn on it.
type stage struct {
	c     *models.Content
	spec  Scene
	cam   camera
	light vec3 // unit vector towards the light
	table gocv.Mat
	// gain is the lighting as a per-pixel, per-channel gain (8UC3, 255 =
	// the largest gain); empty when the light is neutral.
	gain gocv.Mat
	// tone is a 1×256 LUT applied after the gain (empty: none).
	tone  gocv.Mat
	noise *noiseTable
	buf   gocv.Mat // frame-sized 8UC3 scratch
	glare glare
	skin  color.RGBA
	cache map[artKey]faceArt
}

type glare struct {
	on       bool
	at       vec2
	sigma    float64
	strength float64
}

// newStage prepares the table, camera and light of a normalized scene.
func newStage(c *models.Content, spec Scene) (*stage, error) {
	st := &stage{c: c, spec: spec, cache: map[artKey]faceArt{},
		table: gocv.NewMat(), gain: gocv.NewMat(), tone: gocv.NewMat(), buf: gocv.NewMat()}
	st.cam = newCamera(spec.Width, spec.Height, spec.Tilt, rngFor(spec.setupSeed(), saltCamera))
	lr := rngFor(spec.setupSeed(), saltLight)
	az := lr.Float64() * 2 * math.Pi
	el := (48 + 22*lr.Float64()) * math.Pi / 180
	st.light = vec3{math.Cos(el) * math.Cos(az), math.Cos(el) * math.Sin(az), math.Sin(el)}
	skins := []color.RGBA{rgb(232, 184, 152), rgb(214, 160, 120), rgb(176, 120, 84), rgb(120, 78, 52), rgb(84, 54, 38)}
	st.skin = skins[lr.IntN(len(skins))]
	if err := st.buildTable(); err != nil {
		st.close()
		return nil, err
	}
	if err := st.buildGain(lr); err != nil {
		st.close()
		return nil, err
	}
	if spec.Noise > 0 {
		nt := newNoiseTable(rngFor(spec.Seed, saltNoise), spec.Noise, spec.Width*3)
		st.noise = &nt
		st.buf.Close()
		st.buf = gocv.NewMatWithSize(spec.Height, spec.Width, gocv.MatTypeCV8UC3)
	}
	return st, nil
}

func (st *stage) close() {
	st.table.Close()
	st.gain.Close()
	st.tone.Close()
	st.buf.Close()
	for k, a := range st.cache {
		a.close()
		delete(st.cache, k)
	}
}

// buildTable renders the table texture at half resolution, scales or (with
// a tilted camera) warps it into the frame, and adds the fine texture.
func (st *stage) buildTable() error {
	tr := rngFor(st.spec.setupSeed(), saltTable)
	tex := st.cam.tex
	if tex.Dx() < 1 || tex.Dy() < 1 || tex.Dx() > 4*st.spec.Width || tex.Dy() > 4*st.spec.Height {
		return fmt.Errorf("synth: table texture %v out of range", tex)
	}
	w2, h2 := max(8, (tex.Dx()+1)/2), max(8, (tex.Dy()+1)/2)
	base, err := tableBase(st.spec.Background, w2, h2, tr)
	if err != nil {
		return err
	}
	defer base.Close()
	if err := tableGrain(st.spec.Background, &base, tr); err != nil {
		return err
	}
	size := image.Pt(st.spec.Width, st.spec.Height)
	if st.spec.Tilt == 0 {
		gocv.Resize(base, &st.table, size, 0, 0, gocv.InterpolationLinear)
	} else {
		// Half-resolution texture pixels → table space → frame, warped
		// into a half-size frame (the texture has no finer detail) and
		// scaled up.
		hw, hh := (size.X+1)/2, (size.Y+1)/2
		toTex := mat3{{float64(tex.Dx()) / float64(w2), 0, float64(tex.Min.X)}, {0, float64(tex.Dy()) / float64(h2), float64(tex.Min.Y)}, {0, 0, 1}}
		toHalf := mat3{{float64(hw) / float64(size.X), 0, 0}, {0, float64(hh) / float64(size.Y), 0}, {0, 0, 1}}
		h := cvHomography(toHalf.mul(st.cam.toImage).mul(toTex), vec2{})
		hm := h.toMat()
		defer hm.Close()
		half := gocv.NewMat()
		defer half.Close()
		gocv.WarpPerspectiveWithParams(base, &half, hm, image.Pt(hw, hh), gocv.InterpolationLinear, gocv.BorderReflect101, color.RGBA{})
		gocv.Resize(half, &st.table, size, 0, 0, gocv.InterpolationLinear)
	}
	if st.table.Cols() != st.spec.Width || st.table.Rows() != st.spec.Height || !st.table.IsContinuous() {
		return fmt.Errorf("synth: table has the wrong size")
	}
	return tableDetail(st.spec.Background, &st.table)
}

// buildGain turns level, temperature and gradient into a gain image.
func (st *stage) buildGain(rng *rand.Rand) error {
	l := st.spec.Lighting
	w, h := st.spec.Width, st.spec.Height
	mode := rng.IntN(3)
	centre := vec2{float64(w) * (0.3 + 0.4*rng.Float64()), float64(h) * (0.3 + 0.4*rng.Float64())}
	ang := rng.Float64() * 2 * math.Pi
	dir := vec2{math.Cos(ang), math.Sin(ang)}
	if l.Level == 1 && l.Temperature == 0 && l.Gradient == 0 {
		return nil
	}
	t := l.Temperature
	var tc [3]float64 // B, G, R
	if t < 0 {
		tc = [3]float64{1 + 0.32*t, 1 + 0.06*t, 1 - 0.22*t}
	} else {
		tc = [3]float64{1 + 0.24*t, 1 - 0.02*t, 1 - 0.2*t}
	}
	gw, gh := w/16+2, h/16+2
	vals := make([]float64, gw*gh*3)
	maxG := 0.0
	diag := math.Hypot(float64(w), float64(h))
	for gy := range gh {
		for gx := range gw {
			p := vec2{float64(gx) * float64(w) / float64(gw-1), float64(gy) * float64(h) / float64(gh-1)}
			vig := math.Pow(p.sub(centre).len()/(0.75*diag), 2)
			lin := (p.sub(vec2{float64(w) / 2, float64(h) / 2}).dot(dir)/diag + 0.5)
			var fall float64
			switch mode {
			case 0:
				fall = vig
			case 1:
				fall = lin
			default:
				fall = 0.5*vig + 0.5*lin
			}
			g := l.Level * (1 - l.Gradient*0.75*math.Min(1, math.Max(0, fall)))
			for ch := range 3 {
				v := g * tc[ch]
				vals[(gy*gw+gx)*3+ch] = v
				maxG = math.Max(maxG, v)
			}
		}
	}
	// Gains above 1 would clip: the gain image holds gain/maxG and a tone
	// curve applied afterwards multiplies by maxG with a soft knee, so bright
	// light compresses highlights instead of burning them to flat white.
	norm := math.Max(1, maxG)
	small := gocv.NewMatWithSize(gh, gw, gocv.MatTypeCV8UC3)
	defer small.Close()
	d, err := small.DataPtrUint8()
	if err != nil {
		return err
	}
	for i, v := range vals {
		d[i] = uint8(math.Min(255, math.Round(v/norm*255)))
	}
	gocv.Resize(small, &st.gain, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
	if norm > 1 {
		lut := gocv.NewMatWithSize(1, 256, gocv.MatTypeCV8UC1)
		ld, err := lut.DataPtrUint8()
		if err != nil {
			lut.Close()
			return err
		}
		for i := range 256 {
			ld[i] = uint8(math.Round(255 * softKnee(float64(i)*norm/255)))
		}
		st.tone.Close()
		st.tone = lut
	}
	return nil
}

// softKnee maps linear light x (1 = white) to [0, 1], linear up to 0.75,
// then rolling off smoothly.
func softKnee(x float64) float64 {
	if x <= 0.75 {
		return x
	}
	return 0.75 + 0.25*(1-math.Exp(-(x-0.75)/0.25))
}

// layoutDie is a die's resting state in a scene.
type layoutDie struct {
	spec  DieSpec
	cube  cube
	fixed bool
	box   image.Rectangle
}

// resolveDie picks face, size, look and side faces of die i. Size and yaw
// come from the layout stream, which depends only on set ids and sizes (so
// RenderEmpty lays out the same dice without the content); face and look
// come from a stream of the die's own.
func (st *stage) resolveDie(i int, d DieSpec, lay *rand.Rand) cube {
	fs, _ := st.c.FaceSet(d.Set)
	lo, hi := st.spec.sizeRange(d.Set)
	size := d.Size
	if size == 0 {
		size = lo + lay.IntN(hi-lo+1)
	}
	yaw := lay.Float64() * 360
	attr := rngFor(st.spec.Seed, saltLayout^(uint64(i+1)*0x9e3779b97f4a7c15))
	face := d.Face
	if face == "" {
		face = fs.Faces[attr.IntN(len(fs.Faces))].ID
	}
	pick := attr.IntN(1 << 20)
	pattern := attr.Uint64()
	cb := cube{index: i, set: fs, art: resolveArt(fs, &st.spec.Style, d.Look, pick, pattern), size: float64(size), yaw: yaw}
	if cb.art.kind == artToken {
		cb.flat = tokenThickness
	}
	cb.faces = sideFaces(fs, face, attr, st.spec.Style.SideArt)
	return cb
}

// sideFaces picks the faces on a die's sides: real opposite pairs for a d6
// (opposite faces add up to seven), other faces of the set otherwise.
func sideFaces(fs models.FaceSet, top string, rng *rand.Rand, art bool) [6]string {
	var out [6]string
	out[0] = top
	if !art || (fs.Kind == models.KindNumeric && fs.ID != "d6") {
		// Sides without art; d10 and d20 sides are not squares anyway.
		return out
	}
	v, ok := models.NumericValue(fs, top)
	if fs.ID == "d6" && ok && v >= 1 && v <= 6 && len(fs.Faces) == 6 {
		var sides []int
		for n := 1; n <= 6; n++ {
			if n != v && n != 7-v {
				sides = append(sides, n)
			}
		}
		a := sides[rng.IntN(len(sides))]
		var b int
		for {
			b = sides[rng.IntN(len(sides))]
			if b != a && b != 7-a {
				break
			}
		}
		id := func(n int) string {
			for _, f := range fs.Faces {
				if fv, _ := models.NumericValue(fs, f.ID); fv == n {
					return f.ID
				}
			}
			return ""
		}
		out[1], out[2], out[3], out[4], out[5] = id(a), id(7-a), id(b), id(7-b), id(7-v)
		return out
	}
	var others []string
	for _, f := range fs.Faces {
		if f.ID != top {
			others = append(others, f.ID)
		}
	}
	for i := 1; i < 6; i++ {
		if len(others) == 0 {
			out[i] = top
			continue
		}
		out[i] = others[rng.IntN(len(others))]
	}
	return out
}

// placeAt puts the die so that its top face's centre is at frame point p.
func (st *stage) placeAt(cb *cube, p vec2) {
	cb.base = st.cam.unproject(p, cb.height())
}

// fits reports whether a die's box lies inside the frame's margin and clear
// of the other boxes.
func (st *stage) fits(box image.Rectangle, others []image.Rectangle) bool {
	m := st.spec.Margin
	inner := image.Rect(m, m, st.spec.Width-m, st.spec.Height-m)
	if !box.In(inner) {
		return false
	}
	gap := max(2, st.spec.Height/240)
	for _, o := range others {
		if box.Inset(-gap).Overlaps(o) {
			return false
		}
	}
	return true
}

// layout places the dice of a normalized scene at rest.
func (st *stage) layout(rng *rand.Rand) ([]*layoutDie, error) {
	spec := st.spec
	dice := make([]*layoutDie, len(spec.Dice))
	for i, d := range spec.Dice {
		dice[i] = &layoutDie{spec: d, cube: st.resolveDie(i, d, rng)}
		if d.Center != (image.Point{}) || d.FixAngle {
			dice[i].cube.yaw = d.Angle
		}
	}
	var boxes []image.Rectangle
	for _, ld := range dice {
		if ld.spec.Center == (image.Point{}) {
			continue
		}
		ld.fixed = true
		st.placeAt(&ld.cube, vec2{float64(ld.spec.Center.X) + 0.5, float64(ld.spec.Center.Y) + 0.5})
		g := ld.cube.geometry(&st.cam, st.light)
		ld.box = g.box
		boxes = append(boxes, g.box)
	}
	var prev *layoutDie
	for n, ld := range dice {
		if ld.fixed {
			continue
		}
		placed := false
		if spec.Touching && prev != nil && n%2 == 1 {
			placed = st.placeTouching(ld, prev, boxes, rng)
		}
		for try := 0; !placed && try < 400; try++ {
			m := float64(spec.Margin)
			p := vec2{m + rng.Float64()*(float64(spec.Width)-2*m), m + rng.Float64()*(float64(spec.Height)-2*m)}
			st.placeAt(&ld.cube, p)
			g := ld.cube.geometry(&st.cam, st.light)
			if st.fits(g.box, boxes) {
				ld.box = g.box
				placed = true
			}
		}
		if !placed {
			return nil, fmt.Errorf("%w: die %d (%s, %.0f px) in a %d×%d frame with %d dice",
				ErrNoRoom, n, ld.spec.Set, ld.cube.size, spec.Width, spec.Height, len(dice))
		}
		boxes = append(boxes, ld.box)
		prev = ld
	}
	return dice, nil
}

// placeTouching tries to put ld edge to edge with prev.
func (st *stage) placeTouching(ld, prev *layoutDie, boxes []image.Rectangle, rng *rand.Rand) bool {
	ld.cube.yaw = prev.cube.yaw
	y := prev.cube.yaw * math.Pi / 180
	dirs := []vec2{{math.Cos(y), math.Sin(y)}, {-math.Sin(y), math.Cos(y)}, {-math.Cos(y), -math.Sin(y)}, {math.Sin(y), -math.Cos(y)}}
	rng.Shuffle(len(dirs), func(i, j int) { dirs[i], dirs[j] = dirs[j], dirs[i] })
	for _, d := range dirs {
		ld.cube.base = prev.cube.base.add(d.scale((prev.cube.size+ld.cube.size)/2 + 0.3))
		g := ld.cube.geometry(&st.cam, st.light)
		var others []image.Rectangle
		for _, b := range boxes {
			if b != prev.box {
				others = append(others, b)
			}
		}
		if st.fits(g.box, others) {
			ld.box = g.box
			return true
		}
	}
	return false
}

// art returns the cached face image for a cube face.
func (st *stage) art(cb *cube, face string, size int) (faceArt, error) {
	a := cb.art
	a.face = face
	k := a.key(size)
	if fa, ok := st.cache[k]; ok {
		return fa, nil
	}
	fa, err := drawArt(cb.set, &st.spec.Style, a, size)
	if err != nil {
		return fa, err
	}
	st.cache[k] = fa
	return fa, nil
}

// frameState is what one frame shows.
type frameState struct {
	dice     []*cube // nil entries are off the table
	hand     *handPose
	noiseRng *rand.Rand
}

// Render modes.
const (
	drawCopy  = iota // draw on a copy of the table (sequences)
	drawTable        // draw on the table itself and hand it over (one-shot renders)
	truthOnly        // compute the truth alone
)

// render draws a frame and its truth. With truthOnly it returns an empty Mat.
func (st *stage) render(fs frameState, mode int) (gocv.Mat, Truth, error) {
	var truth Truth
	fr := image.Rect(0, 0, st.spec.Width, st.spec.Height)
	type drawn struct {
		cb   *cube
		geom cubeGeom
		dist float64
	}
	var list []drawn
	for _, cb := range fs.dice {
		if cb == nil {
			continue
		}
		g := cb.geometry(&st.cam, st.light)
		if !g.box.Overlaps(fr) {
			continue
		}
		list = append(list, drawn{cb, g, cb.base.sub(st.cam.nadir()).len() - 1e6*cb.lift})
	}
	var hm *handMask
	if fs.hand != nil {
		var err error
		if hm, err = st.handCoverage(fs.hand); err != nil {
			return gocv.NewMat(), truth, err
		}
		if hm != nil {
			defer hm.alpha.Close()
			truth.Hand = hm.box
		}
	}
	for _, d := range list {
		truth.Dice = append(truth.Dice, st.dieTruth(d.cb, &d.geom, hm))
	}
	if mode == truthOnly {
		return gocv.NewMat(), truth, nil
	}
	var frame gocv.Mat
	if mode == drawTable {
		frame, st.table = st.table, gocv.NewMat()
	} else {
		frame = st.table.Clone()
	}
	data, err := frame.DataPtrUint8()
	if err != nil {
		frame.Close()
		return gocv.NewMat(), truth, err
	}
	cv := canvas{data: data, w: st.spec.Width, h: st.spec.Height}
	// Far dice first, so nearer (and lifted) dice cover them.
	order := append([]drawn(nil), list...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].dist > order[j].dist })
	if !st.spec.NoShadows {
		for _, d := range order {
			if err := st.drawShadow(&cv, d.cb, &d.geom); err != nil {
				frame.Close()
				return gocv.NewMat(), truth, err
			}
		}
	}
	for _, d := range order {
		if err := st.drawCube(&cv, d.cb, &d.geom); err != nil {
			frame.Close()
			return gocv.NewMat(), truth, err
		}
	}
	if hm != nil {
		if err := st.paintHand(&cv, fs.hand, hm); err != nil {
			frame.Close()
			return gocv.NewMat(), truth, err
		}
	}
	if err := st.finish(&frame, fs.noiseRng); err != nil {
		frame.Close()
		return gocv.NewMat(), truth, err
	}
	return frame, truth, nil
}

// dieTruth describes a drawn die.
func (st *stage) dieTruth(cb *cube, g *cubeGeom, hm *handMask) DieTruth {
	fr := image.Rect(0, 0, st.spec.Width, st.spec.Height)
	q := g.top.quad
	t := DieTruth{
		Index:  cb.index,
		Set:    cb.set.ID,
		Face:   g.top.face,
		Center: g.center.pixel(),
		Box:    g.box.Intersect(fr),
		Size:   g.topSide,
		Moving: cb.moving,
		Held:   cb.held,
	}
	if t.Face == "" {
		t.Face = cb.faces[0]
	}
	t.Value = faceValue(cb.set, t.Face)
	for i := range q {
		t.Corners[i] = q[i].pixel()
	}
	a := math.Atan2(q[1].Y-q[0].Y, q[1].X-q[0].X) * 180 / math.Pi
	t.Angle = math.Mod(a+360, 360)
	// Visible part of the top face, and whether the hand covers the die.
	topPoly := q[:]
	area := polyArea(topPoly)
	tb := bounds(topPoly).Intersect(fr)
	inFrame, covered := 0, 0
	for y := tb.Min.Y; y < tb.Max.Y; y++ {
		for x := tb.Min.X; x < tb.Max.X; x++ {
			if !pointInPoly(vec2{float64(x) + 0.5, float64(y) + 0.5}, topPoly) {
				continue
			}
			inFrame++
			if hm != nil && hm.at(x, y) >= 128 {
				covered++
			}
		}
	}
	if area > 0 {
		t.Visible = math.Min(1, float64(inFrame-covered)/area)
	}
	if hm != nil && g.box.Overlaps(hm.box) {
		hb := g.box.Intersect(hm.box)
		for y := hb.Min.Y; y < hb.Max.Y && !t.Occluded; y++ {
			for x := hb.Min.X; x < hb.Max.X; x++ {
				if hm.at(x, y) >= 64 && pointInPoly(vec2{float64(x) + 0.5, float64(y) + 0.5}, g.hull) {
					t.Occluded = true
					break
				}
			}
		}
	}
	return t
}

// finish applies lighting, glare, blur, noise and JPEG to a frame.
func (st *stage) finish(frame *gocv.Mat, noiseRng *rand.Rand) error {
	s := st.spec
	if !st.gain.Empty() {
		gocv.MultiplyWithParams(*frame, st.gain, frame, 1.0/255, -1)
	}
	if !st.tone.Empty() {
		gocv.LUT(*frame, st.tone, frame)
	}
	if st.glare.on {
		data, err := frame.DataPtrUint8()
		if err != nil {
			return err
		}
		cv := canvas{data: data, w: s.Width, h: s.Height}
		cv.glare(st.glare)
	}
	if s.Blur > 0 {
		gocv.GaussianBlur(*frame, frame, image.Pt(0, 0), s.Blur, s.Blur, gocv.BorderReflect101)
	}
	if s.MotionBlur.Length > 1 {
		k := motionKernel(vec2{math.Cos(s.MotionBlur.Angle * math.Pi / 180), math.Sin(s.MotionBlur.Angle * math.Pi / 180)}.scale(s.MotionBlur.Length))
		gocv.Filter2D(*frame, frame, -1, k, image.Pt(-1, -1), 0, gocv.BorderReflect101)
		k.Close()
	}
	if st.noise != nil && noiseRng != nil {
		if err := st.noise.apply(frame, &st.buf, noiseRng); err != nil {
			return err
		}
	}
	if s.JPEGQuality > 0 {
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, *frame, []int{gocv.IMWriteJpegQuality, s.JPEGQuality})
		if err != nil {
			return fmt.Errorf("synth: jpeg encode: %w", err)
		}
		dec, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
		buf.Close()
		if err != nil || dec.Empty() {
			dec.Close()
			return fmt.Errorf("synth: jpeg decode failed")
		}
		frame.Close()
		*frame = dec
	}
	return nil
}

// motionKernel returns a normalized line kernel (CV_32F) along v; the caller
// closes it.
func motionKernel(v vec2) gocv.Mat {
	l := v.len()
	k := int(math.Ceil(l)) | 1
	k = max(3, min(k+2, 201))
	m := gocv.NewMatWithSize(k, k, gocv.MatTypeCV32F)
	vals := make([]float32, k*k)
	c := float64(k-1) / 2
	n := max(2, int(l*4))
	for i := range n {
		t := float64(i)/float64(n-1) - 0.5
		x, y := c+v.X*t, c+v.Y*t
		x0, y0 := math.Floor(x), math.Floor(y)
		fx, fy := x-x0, y-y0
		for _, s := range [4][3]float64{{0, 0, (1 - fx) * (1 - fy)}, {1, 0, fx * (1 - fy)}, {0, 1, (1 - fx) * fy}, {1, 1, fx * fy}} {
			xi, yi := int(x0+s[0]), int(y0+s[1])
			if xi >= 0 && xi < k && yi >= 0 && yi < k {
				vals[yi*k+xi] += float32(s[2])
			}
		}
	}
	sum := float32(0)
	for _, v := range vals {
		sum += v
	}
	d, _ := m.DataPtrFloat32()
	for i := range vals {
		d[i] = vals[i] / sum
	}
	return m
}

// Render draws a scene and returns the frame (8-bit BGR, Width×Height; the
// caller closes it) with its truth. The same spec always gives the same
// bytes.
func Render(c *models.Content, spec Scene) (gocv.Mat, Truth, error) {
	return render(c, spec, false)
}

// RenderEmpty draws the scene's table, light and camera without dice or
// hand: the background reference frame a detector takes before the roll.
// Its sensor noise differs from Render's (it is another exposure).
func RenderEmpty(spec Scene) (gocv.Mat, error) {
	// The dice are laid out (for the glare) but not drawn: ids are enough.
	empty := &models.Content{}
	for _, d := range spec.Dice {
		i := -1
		for k, fs := range empty.FaceSets {
			if fs.ID == d.Set {
				i = k
			}
		}
		if i < 0 {
			empty.FaceSets = append(empty.FaceSets, models.FaceSet{ID: d.Set, Kind: models.KindSymbol, Faces: []models.Face{{ID: "?"}}})
			i = len(empty.FaceSets) - 1
		}
		if _, ok := empty.FaceSets[i].Face(d.Face); d.Face != "" && !ok {
			empty.FaceSets[i].Faces = append(empty.FaceSets[i].Faces, models.Face{ID: d.Face})
		}
	}
	m, _, err := render(empty, spec, true)
	return m, err
}

func render(c *models.Content, spec Scene, empty bool) (gocv.Mat, Truth, error) {
	s, err := spec.normalized(c)
	if err != nil {
		return gocv.NewMat(), Truth{}, err
	}
	st, err := newStage(c, s)
	if err != nil {
		return gocv.NewMat(), Truth{}, err
	}
	defer st.close()
	var fs frameState
	if !empty {
		dice, err := st.layout(rngFor(s.Seed, saltLayout))
		if err != nil {
			return gocv.NewMat(), Truth{}, err
		}
		for _, d := range dice {
			cb := d.cube
			fs.dice = append(fs.dice, &cb)
		}
		st.setGlare(dice)
		if s.Hand.Present {
			fs.hand = st.staticHand(dice, rngFor(s.Seed, saltHand))
		}
		fs.noiseRng = rngFor(s.Seed, saltNoise^0xfeed)
	} else {
		// The glare must sit where Render puts it: lay the dice out anyway.
		if len(s.Dice) > 0 {
			if dice, err := st.layout(rngFor(s.Seed, saltLayout)); err == nil {
				st.setGlare(dice)
			} else {
				st.setGlare(nil)
			}
		} else {
			st.setGlare(nil)
		}
		fs.noiseRng = rngFor(s.Seed, saltEmptyNoise)
	}
	m, t, err := st.render(fs, drawTable)
	if err != nil {
		m.Close()
		return gocv.NewMat(), Truth{}, err
	}
	return m, t, nil
}

// setGlare places the glare spot (over the first die when asked).
func (st *stage) setGlare(dice []*layoutDie) {
	l := st.spec.Lighting
	if l.Glare <= 0 {
		return
	}
	r := rngFor(st.spec.setupSeed(), saltLight^0x91a2)
	w, h := float64(st.spec.Width), float64(st.spec.Height)
	g := glare{on: true, strength: l.Glare, sigma: (0.03 + 0.04*r.Float64()) * math.Min(w, h)}
	g.at = vec2{w * (0.15 + 0.7*r.Float64()), h * (0.15 + 0.7*r.Float64())}
	if l.GlareOnDie && len(dice) > 0 {
		d := dice[r.IntN(len(dice))]
		gm := d.cube.geometry(&st.cam, st.light)
		off := vec2{r.Float64() - 0.5, r.Float64() - 0.5}.scale(0.4 * gm.topSide)
		g.at = gm.center.add(off)
		g.sigma = gm.topSide * (0.25 + 0.2*r.Float64())
	}
	st.glare = g
}

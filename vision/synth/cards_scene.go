package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// CardSpec is one card of a [CardScene]. Zero fields are chosen by the
// scene's seed.
type CardSpec struct {
	// Art is the card's art seed ([RenderCardArt]).
	Art int64
	// Sticker puts an ArUco marker sticker (the marker in its white quiet
	// zone) on the card; Marker is its id in the scene's dictionary.
	Sticker bool
	Marker  int
	// StickerSide is the marker's side as a fraction of the card width
	// (0: 0.24, a 15 mm marker on a 63 mm card).
	StickerSide float64
	// StickerAt is where the sticker sits: 1 top-left, 2 top-right,
	// 3 bottom-right, 4 bottom-left, 5 centre; 0 lets the seed choose.
	StickerAt int
	// Width is the card's width in frame pixels at its centre, before the
	// tilt foreshortens it; 0 takes one from CardScene.CardWidth.
	Width float64
	// Center is the card's centre in the frame; the zero point places the
	// card at random, inside the frame and clear of the other cards.
	Center image.Point
	// Angle is the card's rotation in the frame in degrees, clockwise; used
	// when FixAngle is set, random otherwise.
	Angle    float64
	FixAngle bool
	// Tilt is the angle in degrees between the card and the camera's image
	// plane (0 … 60): the card is held tilted about a random axis in its
	// plane.
	Tilt float64
	// Finger puts a thumb over one of the card's edges (clear of the
	// sticker) and the hand holding it behind that edge.
	Finger bool
}

// CardScene describes a synthetic frame of cards shown to the camera over
// the table. The zero value of every field but Cards is a sensible default.
type CardScene struct {
	// Seed decides every choice the spec leaves open.
	Seed int64
	// Width and Height of the frame (default 1280×720).
	Width, Height int
	// Cards shown, up to 8.
	Cards []CardSpec
	// CardWidth is the range of random card widths in frame pixels
	// (default 90 … 220 at 720p, scaled with the frame).
	CardWidth [2]float64
	// Dict is the dictionary of the stickers (zero value: DICT_4X4_50; the
	// product's default is DICT_4X4_250).
	Dict marker.Dict
	// Background is the table surface ("": wood).
	Background Background
	// Lighting of the room. Glare puts a glare spot on a card when
	// GlareOnDie is set (on a random card), anywhere otherwise.
	Lighting Lighting
	// Tilt of the camera in degrees (0 … 30), as in Scene.
	Tilt float64
	// Blur, MotionBlur, Noise and JPEGQuality degrade the frame as in Scene.
	Blur        float64
	MotionBlur  MotionBlur
	Noise       float64
	JPEGQuality int
	// NoShadows turns off the cards' and hands' shadows on the table.
	NoShadows bool
}

// CardTruth is the exact truth about one card in a frame.
type CardTruth struct {
	// Index is the card's index in CardScene.Cards.
	Index int
	// Art is the art seed, Family its family ([CardFamily]).
	Art    int64
	Family int
	// Marker is the sticker's marker id, -1 without a sticker.
	Marker int
	// Corners are the card's corners in the frame (pixel centres at integer
	// coordinates, like [vision.Marker]): the top-left, top-right,
	// bottom-right and bottom-left corner of the upright art. The drawn card
	// has slightly rounded corners.
	Corners [4]geom.Point
	// Box bounds the card in the frame (clipped to it).
	Box image.Rectangle
	// MarkerCorners are the corners of the marker's black square, in the
	// order of [vision.Marker]; MarkerSide their mean distance.
	MarkerCorners [4]geom.Point
	MarkerSide    float64
	// Angle is the in-frame rotation of the upright art, degrees clockwise
	// in [0, 360); Tilt the card's tilt against the image plane.
	Angle, Tilt float64
	// Width is the mean length in frame pixels of the card's short sides.
	Width float64
	// Visible is the fraction of the card face that is in the frame and
	// not under the thumb; Occluded is set when a thumb covers part of it.
	Visible  float64
	Occluded bool
}

// Defaults and limits of card scenes.
const (
	maxSceneCards             = 8
	defaultStickerSide        = 0.24
	maxCardTilt               = 60.0
	saltCardScene      uint64 = 0x5eed0c11
	saltCardPose       uint64 = 0x5eed0c12
	saltCardHand       uint64 = 0x5eed0c13
)

func (s CardScene) normalized() (CardScene, Scene, error) {
	base := Scene{
		Seed: s.Seed, Width: s.Width, Height: s.Height, Background: s.Background, Lighting: s.Lighting,
		Tilt: s.Tilt, Blur: s.Blur, MotionBlur: s.MotionBlur, Noise: s.Noise, JPEGQuality: s.JPEGQuality,
		NoShadows: s.NoShadows,
	}
	base.Lighting.GlareOnDie = false
	nb, err := base.normalized(&models.Content{})
	if err != nil {
		return s, nb, err
	}
	s.Width, s.Height = nb.Width, nb.Height
	if len(s.Cards) > maxSceneCards {
		return s, nb, specErr("%d cards, at most %d", len(s.Cards), maxSceneCards)
	}
	k := float64(min(s.Width, s.Height)) / 720
	if s.CardWidth == [2]float64{} {
		s.CardWidth = [2]float64{90 * k, 220 * k}
	}
	maxW := float64(min(s.Width, s.Height)) / 2.2
	if !(s.CardWidth[0] >= 24 && s.CardWidth[1] >= s.CardWidth[0] && s.CardWidth[1] <= maxW) {
		return s, nb, specErr("card width range %v outside 24…%.0f", s.CardWidth, maxW)
	}
	cards := make([]CardSpec, len(s.Cards))
	copy(cards, s.Cards)
	s.Cards = cards
	for i, c := range s.Cards {
		if c.Sticker {
			if c.Marker < 0 || c.Marker >= s.Dict.Size() {
				return s, nb, specErr("card %d: marker %d not in %v", i, c.Marker, s.Dict)
			}
			if c.StickerSide == 0 {
				s.Cards[i].StickerSide = defaultStickerSide
			}
			if !(s.Cards[i].StickerSide >= 0.1 && s.Cards[i].StickerSide <= 0.6) {
				return s, nb, specErr("card %d: sticker side %g outside 0.1…0.6", i, c.StickerSide)
			}
			if c.StickerAt < 0 || c.StickerAt > 5 {
				return s, nb, specErr("card %d: sticker place %d outside 0…5", i, c.StickerAt)
			}
		}
		if c.Width != 0 && !(c.Width >= 24 && c.Width <= maxW) {
			return s, nb, specErr("card %d: width %g outside 24…%.0f", i, c.Width, maxW)
		}
		if !(c.Tilt >= 0 && c.Tilt <= maxCardTilt) {
			return s, nb, specErr("card %d: tilt %g outside 0…%g", i, c.Tilt, maxCardTilt)
		}
		if math.IsNaN(c.Angle) || math.IsInf(c.Angle, 0) {
			return s, nb, specErr("card %d: bad angle", i)
		}
		if c.Center != (image.Point{}) && !c.Center.In(image.Rect(0, 0, s.Width, s.Height)) {
			return s, nb, specErr("card %d: centre %v outside the frame", i, c.Center)
		}
	}
	return s, nb, nil
}

// cardPose is a card placed in 3-D in front of the camera.
type cardPose struct {
	spec    CardSpec
	index   int
	centre  vec3 // table space
	u, v    vec3 // half the card's width and height along its art axes
	normal  vec3
	quad    [4]vec2 // projected corners: TL, TR, BR, BL (continuous coordinates)
	box     image.Rectangle
	sticker [4]vec2 // marker square in art coordinates (fractions)
	thumb   *cardThumb
	width   float64
}

// cardThumb is a thumb over a card edge and the hand behind it.
type cardThumb struct {
	base, tip vec2 // frame, continuous
	radius    float64
	palm      vec2
	palmAx    [2]float64
	palmAng   float64
}

func (cp *cardPose) artToFrame() (mat3, bool) {
	return homography([4]vec2{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, cp.quad)
}

// place computes the card's 3-D pose for a frame-space centre p.
func (cp *cardPose) place(cam *camera, p vec2, widthPx, angleDeg, tiltDeg, axisDeg, lift float64) {
	c := cam.unproject(p, lift)
	cp.centre = vec3{c.X, c.Y, lift}
	depth := cam.az.dot(cp.centre.sub(cam.pos))
	wt := widthPx * depth / cam.f // table units
	th := angleDeg * math.Pi / 180
	u := cam.ax.scale(math.Cos(th)).add(cam.ay.scale(math.Sin(th)))
	v := cam.ax.scale(-math.Sin(th)).add(cam.ay.scale(math.Cos(th)))
	ph := axisDeg * math.Pi / 180
	axis := u.scale(math.Cos(ph)).add(v.scale(math.Sin(ph))).unit()
	r := rotation(axis, tiltDeg*math.Pi/180)
	u, v = r.mulVec(u), r.mulVec(v)
	cp.u, cp.v = u.scale(wt/2), v.scale(wt*CardAspect/2)
	cp.normal = u.cross(v).unit()
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		cp.quad[i] = cam.project(cp.centre.add(cp.u.scale(s[0])).add(cp.v.scale(s[1])))
	}
	cp.box = bounds(cp.quad[:])
	cp.width = (cp.quad[1].sub(cp.quad[0]).len() + cp.quad[2].sub(cp.quad[3]).len()) / 2
}

// RenderCardScene draws a scene of cards and returns the frame (8-bit BGR,
// Width×Height; the caller closes it) and the truth of every card, in the
// order of spec.Cards. The same spec always gives the same bytes.
func RenderCardScene(spec CardScene) (gocv.Mat, []CardTruth, error) {
	s, base, err := spec.normalized()
	if err != nil {
		return gocv.NewMat(), nil, err
	}
	st, err := newStage(&models.Content{}, base)
	if err != nil {
		return gocv.NewMat(), nil, err
	}
	defer st.close()
	poses, err := layoutCards(st, s)
	if err != nil {
		return gocv.NewMat(), nil, err
	}
	placeCardGlare(st, s, poses)

	frame := st.table
	st.table = gocv.NewMat()
	data, err := frame.DataPtrUint8()
	if err != nil {
		frame.Close()
		return gocv.NewMat(), nil, err
	}
	cv := canvas{data: data, w: s.Width, h: s.Height}
	if !s.NoShadows {
		for _, cp := range poses {
			drawCardShadow(st, &cv, cp)
		}
	}
	for _, cp := range poses {
		if cp.thumb != nil {
			drawPalm(st, &cv, cp)
		}
	}
	for _, cp := range poses {
		if err := drawCard(st, &cv, s, cp); err != nil {
			frame.Close()
			return gocv.NewMat(), nil, err
		}
	}
	for _, cp := range poses {
		if cp.thumb != nil {
			if err := drawThumb(st, &cv, cp.thumb); err != nil {
				frame.Close()
				return gocv.NewMat(), nil, err
			}
		}
	}
	if err := st.finish(&frame, rngFor(s.Seed, saltNoise^0xc0ffee)); err != nil {
		frame.Close()
		return gocv.NewMat(), nil, err
	}
	truth := make([]CardTruth, len(poses))
	for i, cp := range poses {
		truth[i] = cardTruth(s, cp)
	}
	return frame, truth, nil
}

// RenderCardSceneEmpty draws the table of spec as the camera saw it
// before the cards arrived: the same table, camera and light (glare
// included), without cards, shadows or hands, as another exposure (its
// own sensor noise and an exposure up to 3% off). It is the reference of
// the empty table a live reader learns. The caller closes the Mat.
func RenderCardSceneEmpty(spec CardScene) (gocv.Mat, error) {
	s, base, err := spec.normalized()
	if err != nil {
		return gocv.NewMat(), err
	}
	st, err := newStage(&models.Content{}, base)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer st.close()
	poses, err := layoutCards(st, s)
	if err != nil {
		return gocv.NewMat(), err
	}
	placeCardGlare(st, s, poses)
	frame := st.table
	st.table = gocv.NewMat()
	r := rngFor(s.Seed, saltEmptyNoise^0xca4d)
	frame.MultiplyFloat(float32(0.97 + 0.06*r.Float64()))
	if err := st.finish(&frame, r); err != nil {
		frame.Close()
		return gocv.NewMat(), err
	}
	return frame, nil
}

// layoutCards resolves and places every card, clear of the others.
func layoutCards(st *stage, s CardScene) ([]*cardPose, error) {
	lay := rngFor(s.Seed, saltCardPose)
	fr := image.Rect(0, 0, s.Width, s.Height)
	margin := max(2, int(0.02*float64(min(s.Width, s.Height))))
	inner := fr.Inset(margin)
	var poses []*cardPose
	var boxes []image.Rectangle
	for i, c := range s.Cards {
		cp := &cardPose{spec: c, index: i}
		width := c.Width
		if width == 0 {
			width = s.CardWidth[0] + lay.Float64()*(s.CardWidth[1]-s.CardWidth[0])
		}
		angle := c.Angle
		if !c.FixAngle && c.Center == (image.Point{}) {
			angle = lay.Float64() * 360
		}
		axis := lay.Float64() * 360
		lift := 0.0
		if c.Tilt > 0 || lay.IntN(2) == 0 {
			lift = width * (0.3 + 2*lay.Float64())
		}
		if c.Sticker {
			cp.sticker = stickerQuad(c, lay)
		}
		hr := rngFor(s.Seed^int64(i+1)*0x2545f491, saltCardHand)
		placed := false
		for try := 0; try < 500 && !placed; try++ {
			p := vec2{float64(c.Center.X) + 0.5, float64(c.Center.Y) + 0.5}
			if c.Center == (image.Point{}) {
				p = vec2{float64(inner.Min.X) + lay.Float64()*float64(inner.Dx()), float64(inner.Min.Y) + lay.Float64()*float64(inner.Dy())}
			}
			cp.place(&st.cam, p, width, angle, c.Tilt, axis, lift)
			cp.thumb = nil
			if c.Finger {
				cp.thumb = placeThumb(cp, hr)
			}
			box := cp.box.Inset(-3)
			if c.Center != (image.Point{}) {
				placed = true
				break
			}
			if !box.In(inner) {
				continue
			}
			ok := true
			for _, b := range boxes {
				if box.Overlaps(b) {
					ok = false
					break
				}
			}
			placed = ok
		}
		if !placed {
			return nil, fmt.Errorf("%w: card %d (%.0f px wide) in a %d×%d frame with %d cards", ErrNoRoom, i, width, s.Width, s.Height, len(s.Cards))
		}
		boxes = append(boxes, cp.box.Inset(-3))
		poses = append(poses, cp)
	}
	return poses, nil
}

// stickerQuad places the sticker's marker square on the card, in art
// fractions, slightly rotated as a hand sticks it on.
func stickerQuad(c CardSpec, r *rand.Rand) [4]vec2 {
	at := c.StickerAt - 1
	if at < 0 {
		at = r.IntN(5)
	}
	side := c.StickerSide
	q := side / 6 // quiet zone of a 4x4 marker, about one module
	hs := side/2 + q
	// Centre of the sticker (u in widths, v in heights).
	m := 0.06 + hs
	cu := []float64{m, 1 - m, 1 - m, m, 0.5}[at]
	cv := []float64{m / CardAspect, m / CardAspect, 1 - m/CardAspect, 1 - m/CardAspect, 0.5}[at]
	cu += (r.Float64() - 0.5) * 0.04
	cv += (r.Float64() - 0.5) * 0.04
	a := (r.Float64() - 0.5) * 16 * math.Pi / 180
	var out [4]vec2
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		x, y := s[0]*side/2, s[1]*side/2
		xr, yr := x*math.Cos(a)-y*math.Sin(a), x*math.Sin(a)+y*math.Cos(a)
		out[i] = vec2{cu + xr, cv + yr/CardAspect}
	}
	return out
}

// placeThumb puts a thumb over one card edge, away from the sticker.
func placeThumb(cp *cardPose, r *rand.Rand) *cardThumb {
	h, ok := cp.artToFrame()
	if !ok {
		return nil
	}
	edges := r.Perm(4)
	for _, e := range edges {
		t := 0.2 + 0.6*r.Float64()
		// Edge point and inward direction in art fractions.
		var at, in vec2
		switch e {
		case 0:
			at, in = vec2{t, 0}, vec2{0, 1}
		case 1:
			at, in = vec2{1, t}, vec2{-1, 0}
		case 2:
			at, in = vec2{t, 1}, vec2{0, -1}
		default:
			at, in = vec2{0, t}, vec2{1, 0}
		}
		depth := 0.18 + 0.14*r.Float64() // in widths
		radius := 0.09 + 0.04*r.Float64()
		ang := (r.Float64() - 0.5) * 0.8
		dir := vec2{in.X*math.Cos(ang) - in.Y*math.Sin(ang), in.X*math.Sin(ang) + in.Y*math.Cos(ang)}
		tipA := at.add(vec2{dir.X * depth, dir.Y * depth / CardAspect})
		baseA := at.sub(vec2{dir.X * 0.35, dir.Y * 0.35 / CardAspect})
		if cp.spec.Sticker {
			// Keep the thumb (and a margin) off the sticker's quiet zone.
			var sc vec2
			for _, p := range cp.sticker {
				sc = sc.add(p.scale(0.25))
			}
			reach := cp.spec.StickerSide*(0.5+1.0/6)*math.Sqrt2 + radius + 0.05
			d := segDist(vec2{sc.X, sc.Y * CardAspect}, vec2{tipA.X, tipA.Y * CardAspect}, vec2{baseA.X, baseA.Y * CardAspect})
			if d < reach {
				continue
			}
		}
		tip, base := h.apply(tipA), h.apply(baseA)
		px := cp.width
		th := &cardThumb{base: base, tip: tip, radius: radius * px}
		// The palm behind the card, beyond the edge.
		out := h.apply(at.sub(vec2{in.X * 0.3, in.Y * 0.3 / CardAspect}))
		th.palm = out
		th.palmAx = [2]float64{0.55 * px, 0.4 * px}
		edgeDir := h.apply(at.add(vec2{in.Y, in.X})).sub(h.apply(at))
		th.palmAng = math.Atan2(edgeDir.Y, edgeDir.X) * 180 / math.Pi
		return th
	}
	return nil
}

func segDist(p, a, b vec2) float64 {
	ab := b.sub(a)
	t := 0.0
	if l := ab.dot(ab); l > 0 {
		t = math.Max(0, math.Min(1, p.sub(a).dot(ab)/l))
	}
	return p.sub(a.add(ab.scale(t))).len()
}

// placeCardGlare puts the glare spot on a card when asked.
func placeCardGlare(st *stage, s CardScene, poses []*cardPose) {
	st.setGlare(nil)
	if s.Lighting.Glare <= 0 || !s.Lighting.GlareOnDie || len(poses) == 0 {
		return
	}
	r := rngFor(s.Seed, saltLight^0x91a3)
	cp := poses[r.IntN(len(poses))]
	h, ok := cp.artToFrame()
	if !ok {
		return
	}
	st.glare.at = h.apply(vec2{0.2 + 0.6*r.Float64(), 0.2 + 0.6*r.Float64()})
	st.glare.sigma = cp.width * (0.2 + 0.25*r.Float64())
}

// drawCardShadow darkens the table under a lifted card.
func drawCardShadow(st *stage, cv *canvas, cp *cardPose) {
	lz := math.Max(0.25, st.light.Z)
	var poly []vec2
	for _, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		w := cp.centre.add(cp.u.scale(s[0])).add(cp.v.scale(s[1]))
		t := math.Max(0, w.Z) / lz
		poly = append(poly, st.cam.project(vec3{w.X - st.light.X*t, w.Y - st.light.Y*t, 0}))
	}
	// The lift in frame pixels widens the penumbra.
	liftPx := math.Max(0, cp.centre.Z) * cp.width / math.Max(1e-9, 2*math.Sqrt(cp.u.dot(cp.u)))
	sigma := math.Min(0.5*cp.width, math.Max(1, 0.03*cp.width+0.05*liftPx))
	pad := int(math.Ceil(3*sigma)) + 1
	roi := bounds(poly).Inset(-pad).Intersect(cv.rect())
	if roi.Dx() < 1 || roi.Dy() < 1 {
		return
	}
	m := gocv.Zeros(roi.Dy(), roi.Dx(), gocv.MatTypeCV8UC1)
	defer m.Close()
	strength := 0.45 / (1 + cp.centre.Z/(3*cp.width))
	v := uint8(math.Round(255 * strength))
	fillPolys(&m, [][]vec2{poly}, vec2{float64(roi.Min.X), float64(roi.Min.Y)}, color.RGBA{v, v, v, 255})
	softBlur(m, &m, sigma)
	if d, err := m.DataPtrUint8(); err == nil {
		cv.darken(roi, d)
	}
}

// drawCard renders the card's art (and sticker) and composites it into the
// frame through the card's homography.
func drawCard(st *stage, cv *canvas, s CardScene, cp *cardPose) error {
	roi := cp.box.Inset(-2).Intersect(cv.rect())
	if roi.Dx() < 1 || roi.Dy() < 1 {
		return nil
	}
	// Art at about 1.3× its size in the frame (at least 64 px wide).
	longest := 0.0
	for i := range 4 {
		longest = math.Max(longest, cp.quad[(i+1)%4].sub(cp.quad[i]).len())
	}
	aw := max(64, int(math.Ceil(1.3*longest/CardAspect)))
	aw = min(aw, 1024)
	ah := int(math.Round(float64(aw) * CardAspect))
	art, err := RenderCardArt(cp.spec.Art, aw, ah)
	if err != nil {
		return err
	}
	defer art.Close()
	if cp.spec.Sticker {
		if err := pasteSticker(&art, s.Dict, cp); err != nil {
			return err
		}
	}
	// Premultiplied BGRA with rounded corners.
	bgra := gocv.NewMat()
	defer bgra.Close()
	gocv.CvtColor(art, &bgra, gocv.ColorBGRToBGRA)
	mask := gocv.Zeros(ah, aw, gocv.MatTypeCV8UC1)
	defer mask.Close()
	rr := 0.045 * float64(aw)
	fillPolys(&mask, [][]vec2{polyline(roundRectPoly(0, 0, float64(aw), float64(ah), rr, rr))}, vec2{}, color.RGBA{255, 255, 255, 255})
	if err := premultiply(&bgra, mask); err != nil {
		return err
	}
	h, ok := cp.artToFrame()
	if !ok {
		return nil
	}
	toArt := mat3{{1 / float64(aw), 0, 0}, {0, 1 / float64(ah), 0}, {0, 0, 1}}
	hm := cvHomography(h.mul(toArt), vec2{float64(roi.Min.X), float64(roi.Min.Y)}).toMat()
	defer hm.Close()
	warped := gocv.NewMat()
	defer warped.Close()
	gocv.WarpPerspectiveWithParams(bgra, &warped, hm, roi.Size(), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	// Shade by the angle to the light: a card facing away from the light
	// is darker.
	n := cp.normal
	if n.dot(st.cam.pos.sub(cp.centre)) < 0 {
		n = n.scale(-1)
	}
	shade := math.Min(1.08, 0.78+0.3*math.Max(0, n.dot(st.light)))
	if shade != 1 {
		warped.MultiplyFloat(float32(shade))
	}
	wd, err := warped.DataPtrUint8()
	if err != nil || len(wd) != 4*roi.Dx()*roi.Dy() {
		return fmt.Errorf("synth: warped card does not match its bounds")
	}
	cv.composite4(roi, wd)
	return nil
}

// premultiply multiplies BGRA colours by mask and stores mask as alpha.
func premultiply(bgra *gocv.Mat, mask gocv.Mat) error {
	d, err1 := bgra.DataPtrUint8()
	a, err2 := mask.DataPtrUint8()
	if err1 != nil || err2 != nil || len(d) != 4*len(a) {
		return fmt.Errorf("synth: card buffers not continuous")
	}
	for i, v := range a {
		k := uint32(v)
		d[4*i] = uint8((uint32(d[4*i])*k + 127) / 255)
		d[4*i+1] = uint8((uint32(d[4*i+1])*k + 127) / 255)
		d[4*i+2] = uint8((uint32(d[4*i+2])*k + 127) / 255)
		d[4*i+3] = v
	}
	return nil
}

// pasteSticker draws the marker sticker (white quiet zone included) onto
// the art.
func pasteSticker(art *gocv.Mat, d marker.Dict, cp *cardPose) error {
	aw, ah := float64(art.Cols()), float64(art.Rows())
	side := cp.sticker[1].sub(cp.sticker[0]).len() * aw
	modules := d.Bits() + 2
	px := modules * max(2, int(math.Ceil(2*side/float64(modules))))
	mk, err := marker.Generate(d, cp.spec.Marker, px)
	if err != nil {
		return err
	}
	defer mk.Close()
	q := float64(marker.QuietZone(d, px))
	bgr := gocv.NewMat()
	defer bgr.Close()
	gocv.CvtColor(mk, &bgr, gocv.ColorGrayToBGR)
	// Marker-image continuous coordinates of the black square's corners →
	// art pixels.
	src := [4]vec2{{q, q}, {q + float64(px), q}, {q + float64(px), q + float64(px)}, {q, q + float64(px)}}
	var dst [4]vec2
	for i, p := range cp.sticker {
		dst[i] = vec2{p.X * aw, p.Y * ah}
	}
	h, ok := homography(src, dst)
	if !ok {
		return fmt.Errorf("synth: sticker homography")
	}
	n := float64(mk.Cols())
	outline := []vec2{h.apply(vec2{0, 0}), h.apply(vec2{n, 0}), h.apply(vec2{n, n}), h.apply(vec2{0, n})}
	roi := bounds(outline).Inset(-1).Intersect(image.Rect(0, 0, art.Cols(), art.Rows()))
	if roi.Dx() < 1 || roi.Dy() < 1 {
		return nil
	}
	hm := cvHomography(h, vec2{float64(roi.Min.X), float64(roi.Min.Y)}).toMat()
	defer hm.Close()
	bgra := gocv.NewMat()
	defer bgra.Close()
	gocv.CvtColor(bgr, &bgra, gocv.ColorBGRToBGRA)
	warped := gocv.NewMat()
	defer warped.Close()
	gocv.WarpPerspectiveWithParams(bgra, &warped, hm, roi.Size(), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	// Composite (the BGRA of an opaque image with BorderConstant zero is
	// premultiplied at its edges).
	wd, err1 := warped.DataPtrUint8()
	ad, err2 := art.DataPtrUint8()
	if err1 != nil || err2 != nil {
		return fmt.Errorf("synth: sticker buffers")
	}
	acv := canvas{data: ad, w: art.Cols(), h: art.Rows()}
	acv.composite4(roi, wd)
	return nil
}

// drawPalm draws the hand behind the card (under it).
func drawPalm(st *stage, cv *canvas, cp *cardPose) {
	th := cp.thumb
	r := image.Rect(int(th.palm.X-th.palmAx[0]-4), int(th.palm.Y-th.palmAx[0]-4), int(th.palm.X+th.palmAx[0]+4), int(th.palm.Y+th.palmAx[0]+4)).Intersect(cv.rect())
	if r.Dx() < 1 || r.Dy() < 1 {
		return
	}
	m := gocv.Zeros(r.Dy(), r.Dx(), gocv.MatTypeCV8UC1)
	defer m.Close()
	p := cvPoints([]vec2{th.palm}, vec2{float64(r.Min.X), float64(r.Min.Y)})[0]
	ax := image.Pt(int(th.palmAx[0]*(1<<shiftBits)), int(th.palmAx[1]*(1<<shiftBits)))
	gocv.EllipseWithParams(&m, p, ax, th.palmAng, 0, 360, color.RGBA{255, 255, 255, 255}, -1, gocv.LineAA, shiftBits)
	paintSkin(st, cv, r, m, 0.8)
}

// drawThumb draws the thumb over the card.
func drawThumb(st *stage, cv *canvas, th *cardThumb) error {
	poly := capsulePoly(th.base, th.tip, th.radius)
	r := bounds(poly).Inset(-3).Intersect(cv.rect())
	if r.Dx() < 1 || r.Dy() < 1 {
		return nil
	}
	m := gocv.Zeros(r.Dy(), r.Dx(), gocv.MatTypeCV8UC1)
	defer m.Close()
	fillPolys(&m, [][]vec2{poly}, vec2{float64(r.Min.X), float64(r.Min.Y)}, color.RGBA{255, 255, 255, 255})
	// The nail: a lighter ellipse near the tip.
	paintSkin(st, cv, r, m, 1)
	return nil
}

// paintSkin composites skin with soft shading over the coverage mask m of
// region r.
func paintSkin(st *stage, cv *canvas, r image.Rectangle, m gocv.Mat, light float64) {
	shade := gocv.NewMat()
	defer shade.Close()
	softBlur(m, &shade, math.Max(1, 0.12*float64(min(r.Dx(), r.Dy()))))
	md, err1 := m.DataPtrUint8()
	sd, err2 := shade.DataPtrUint8()
	if err1 != nil || err2 != nil || len(md) != len(sd) {
		return
	}
	col := make([]byte, 3*len(md))
	sk := [3]float64{float64(st.skin.B), float64(st.skin.G), float64(st.skin.R)}
	for i, v := range sd {
		k := light * (0.5 + 0.6*float64(v)/255)
		a := uint32(md[i])
		for ch := range 3 {
			col[3*i+ch] = uint8((uint32(math.Min(255, sk[ch]*k))*a + 127) / 255)
		}
	}
	cv.composite(r, col, md)
}

// cardTruth describes a drawn card.
func cardTruth(s CardScene, cp *cardPose) CardTruth {
	fr := image.Rect(0, 0, s.Width, s.Height)
	t := CardTruth{
		Index:  cp.index,
		Art:    cp.spec.Art,
		Family: CardFamily(cp.spec.Art),
		Marker: -1,
		Box:    cp.box.Intersect(fr),
		Tilt:   cp.spec.Tilt,
		Width:  (cp.quad[1].sub(cp.quad[0]).len() + cp.quad[2].sub(cp.quad[3]).len()) / 2,
	}
	for i, q := range cp.quad {
		t.Corners[i] = geom.Point{X: float32(q.X - 0.5), Y: float32(q.Y - 0.5)}
	}
	a := math.Atan2(cp.quad[1].Y-cp.quad[0].Y, cp.quad[1].X-cp.quad[0].X) * 180 / math.Pi
	t.Angle = math.Mod(a+360, 360)
	h, ok := cp.artToFrame()
	if cp.spec.Sticker && ok {
		t.Marker = cp.spec.Marker
		for i, p := range cp.sticker {
			q := h.apply(p)
			t.MarkerCorners[i] = geom.Point{X: float32(q.X - 0.5), Y: float32(q.Y - 0.5)}
		}
		for i := range 4 {
			a, b := t.MarkerCorners[i], t.MarkerCorners[(i+1)%4]
			t.MarkerSide += math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)) / 4
		}
	}
	// Visible fraction: sample the card face on a grid.
	if ok {
		const n = 24
		var poly []vec2
		if cp.thumb != nil {
			poly = capsulePoly(cp.thumb.base, cp.thumb.tip, cp.thumb.radius)
		}
		vis := 0
		for i := range n {
			for j := range n {
				p := h.apply(vec2{(float64(i) + 0.5) / n, (float64(j) + 0.5) / n})
				if !p.pixel().In(fr) {
					continue
				}
				if poly != nil && pointInPoly(p, poly) {
					t.Occluded = true
					continue
				}
				vis++
			}
		}
		t.Visible = float64(vis) / (n * n)
	}
	return t
}

// RandomCardScene returns a varied scene showing cards: every background,
// light, glare on a card, camera tilt, blur, noise and JPEG setting; each
// card at a random rotation, a tilt up to 45° (half of them), with a thumb
// over an edge (a third of them). The cards' art and stickers are the
// caller's; pose fields the caller set are kept. Scenes for tuning must come
// from TrainSeed*, scenes for held-out evaluation from EvalSeed*.
func RandomCardScene(seed int64, cards []CardSpec) CardScene {
	r := rngFor(seed, saltCardScene)
	s := CardScene{Seed: seed, Dict: marker.Dict4X4_250}
	s.Cards = make([]CardSpec, len(cards))
	copy(s.Cards, cards)
	bgs := Backgrounds()
	s.Background = bgs[r.IntN(len(bgs))]
	levels := []float64{0.45, 0.6, 0.8, 1, 1, 1, 1.2, 1.5}
	s.Lighting = Lighting{
		Level:       levels[r.IntN(len(levels))],
		Temperature: math.Round((r.Float64()*2-1)*0.8*100) / 100,
		Gradient:    math.Round(r.Float64()*0.7*100) / 100,
	}
	if r.Float64() < 0.25 {
		s.Lighting.Glare = 0.3 + 0.5*r.Float64()
		s.Lighting.GlareOnDie = r.IntN(3) > 0
	}
	if r.Float64() < 0.4 {
		s.Tilt = math.Round(r.Float64() * 25)
	}
	if r.Float64() < 0.3 {
		s.Blur = 0.4 + 0.8*r.Float64()
	}
	if r.Float64() < 0.08 {
		s.MotionBlur = MotionBlur{Length: 2 + 3*r.Float64(), Angle: r.Float64() * 180}
	}
	s.Noise = math.Round(r.Float64() * 6)
	if s.Lighting.Level < 0.7 {
		s.Noise += 2
	}
	if r.Float64() < 0.5 {
		s.JPEGQuality = 60 + r.IntN(36)
	}
	for i := range s.Cards {
		c := &s.Cards[i]
		if c.Tilt == 0 && r.IntN(2) == 0 {
			c.Tilt = math.Round(r.Float64() * 45)
		}
		if !c.Finger && r.Float64() < 0.33 {
			c.Finger = true
		}
	}
	return s
}

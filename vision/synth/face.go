package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"tablecam/models"
)

// artKind is how a face set is drawn.
type artKind int

const (
	artVATS    artKind = iota // body silhouette with regions, hit icons
	artAssist                 // hit and hurt icons (silhouette if regions)
	artCustom                 // any other symbol set: a hashed glyph plus icons
	artPips                   // d6
	artNumeral                // d10, d20 and any other numeric set
	artCombat                 // This War of Mine's combat dice (pieces.go)
	artToken                  // a flat two-sided token (pieces.go)
)

func kindOf(fs models.FaceSet) artKind {
	switch {
	case isCombatSet(fs.ID):
		return artCombat
	case fs.ID == SetLuckToken:
		return artToken
	case fs.ID == "vats":
		return artVATS
	case fs.ID == "assist":
		return artAssist
	case fs.ID == "d6":
		return artPips
	case fs.Kind == models.KindNumeric:
		return artNumeral
	}
	return artCustom
}

// artSpec is everything that decides a face image.
type artSpec struct {
	set     string
	face    string // "" draws a plain body (sides without art)
	kind    artKind
	look    DieLook
	symbols SymbolColors
	facet   []vec2 // facet polygon (fractions of the side); nil: none
	pattern uint64 // marbling seed
}

// artKey identifies a rendered face image for caching.
type artKey struct {
	set, face string
	look      DieLook
	pattern   uint64
	size      int
}

func (a artSpec) key(size int) artKey {
	p := a.pattern
	if a.look.Finish != FinishMarbled {
		p = 0
	}
	return artKey{a.set, a.face, a.look, p, size}
}

// faceArt is a face image: premultiplied BGRA (8UC4), size×size.
type faceArt struct {
	bgra gocv.Mat
}

func (f *faceArt) close() { f.bgra.Close() }

// contrastInk returns black or white, whichever reads better on body.
func contrastInk(body color.RGBA) color.RGBA {
	if luma(body) > 120 {
		return rgb(20, 20, 20)
	}
	return rgb(245, 245, 245)
}

// resolveArt decides colours and shapes of die faces for a set, a style, a
// die's Look override and a seeded pick (which d6 look).
func resolveArt(fs models.FaceSet, st *Style, over Look, pick int, pattern uint64) artSpec {
	a := artSpec{set: fs.ID, kind: kindOf(fs), pattern: pattern}
	switch a.kind {
	case artVATS:
		a.symbols = st.VATS
	case artAssist:
		a.symbols = st.Assist
	case artCustom:
		h := hash64("set", fs.ID)
		body := hsv(float64(h%360), 0.35+float64(h>>9%40)/100, 0.55+float64(h>>17%40)/100)
		ink := contrastInk(body)
		a.symbols = SymbolColors{Body: body, Ink: ink, Highlight: hsv(float64(h%360)+180, 0.9, 0.85), Hit: ink, Hurt: rgb(200, 30, 30)}
	case artPips:
		a.look = st.D6[(pick%len(st.D6)+len(st.D6))%len(st.D6)]
	case artNumeral:
		switch fs.ID {
		case "d10":
			a.look = st.D10
		case "d20":
			a.look = st.D20
		default:
			a.look = st.Numeric
		}
		if st.Facets {
			a.facet = facetShape(fs)
		}
	case artCombat, artToken:
		a.look = pieceLook(fs.ID)
	}
	if a.kind <= artCustom {
		a.look = DieLook{Body: a.symbols.Body, Ink: a.symbols.Ink, Finish: FinishSolid}
	}
	if over.Color.A != 0 {
		a.look.Body = over.Color
		if a.kind <= artCustom {
			a.symbols.Body = over.Color
		}
		if over.Pips.A == 0 && a.kind > artCustom {
			a.look.Ink = contrastInk(over.Color)
		}
	}
	if over.Pips.A != 0 {
		a.look.Ink = over.Pips
		if a.kind <= artCustom {
			a.symbols.Ink, a.symbols.Hit = over.Pips, over.Pips
		}
	}
	if over.Finish != FinishDefault {
		a.look.Finish = over.Finish
	}
	if a.look.Finish == FinishDefault {
		a.look.Finish = FinishSolid
	}
	if a.look.Finish == FinishMarbled && a.look.Accent.A == 0 {
		a.look.Accent = mixColor(a.look.Body, rgb(255, 255, 255), 0.55)
	}
	return a
}

// facetShape is the lighter facet drawn on numeric faces: a kite for ten
// faces, a triangle for 4, 8 and 20, a pentagon for 12.
func facetShape(fs models.FaceSet) []vec2 {
	switch len(fs.Faces) {
	case 10:
		return []vec2{{0.5, 0.04}, {0.93, 0.38}, {0.5, 0.97}, {0.07, 0.38}}
	case 4, 8, 20:
		return []vec2{{0.5, 0.1}, {0.96, 0.88}, {0.04, 0.88}}
	case 12:
		pts := make([]vec2, 5)
		for i := range pts {
			t := -math.Pi/2 + float64(i)*2*math.Pi/5
			pts[i] = vec2{0.5 + 0.46*math.Cos(t), 0.54 + 0.46*math.Sin(t)}
		}
		return pts
	}
	return nil
}

// RenderFace draws the canonical top face of face in face set set: an
// upright, square, size×size 8-bit BGR image in the style's default look for
// the set (the first d6 look for d6). The rounded corners show mid grey, and
// a translucent body is shown over mid grey. The caller closes the Mat.
func RenderFace(c *models.Content, set, face string, style Style, size int) (gocv.Mat, error) {
	return RenderFaceWith(c, set, face, style, Look{}, size)
}

// RenderFaceWith is RenderFace with a die's Look override.
func RenderFaceWith(c *models.Content, set, face string, style Style, look Look, size int) (gocv.Mat, error) {
	if c == nil {
		return gocv.NewMat(), specErr("no content")
	}
	if style.Name == "" {
		style = StyleDefault()
	}
	if err := style.validate(); err != nil {
		return gocv.NewMat(), err
	}
	fs, ok := c.FaceSet(set)
	if !ok {
		return gocv.NewMat(), specErr("unknown face set %q", set)
	}
	if _, ok := fs.Face(face); !ok {
		return gocv.NewMat(), specErr("face set %q has no face %q", set, face)
	}
	if size < 8 || size > 1024 {
		return gocv.NewMat(), specErr("face size %d outside 8…1024", size)
	}
	spec := resolveArt(fs, &style, look, 0, hash64(set, face))
	spec.face = face
	art, err := drawArt(fs, &style, spec, size)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer art.close()
	out := gocv.NewMatWithSize(size, size, gocv.MatTypeCV8UC3)
	dst, err := out.DataPtrUint8()
	if err != nil {
		out.Close()
		return gocv.NewMat(), err
	}
	src, err := art.bgra.DataPtrUint8()
	if err != nil || len(src) != 4*size*size {
		out.Close()
		return gocv.NewMat(), fmt.Errorf("synth: face art not continuous")
	}
	for i := range size * size {
		bg := uint32(128) * uint32(255-src[4*i+3]) / 255
		for ch := range 3 {
			dst[3*i+ch] = uint8(min(255, uint32(src[4*i+ch])+bg))
		}
	}
	return out, nil
}

// drawArt draws a face at size×size (premultiplied). It draws at a larger
// scale and shrinks with area interpolation, which anti-aliases everything.
func drawArt(fs models.FaceSet, st *Style, a artSpec, size int) (faceArt, error) {
	if size < 1 || size > 2048 {
		return faceArt{}, fmt.Errorf("synth: face size %d out of range", size)
	}
	// Drawn 1.6× larger (at least 72 px) and shrunk: smooth edges.
	d := size
	if size <= 256 {
		d = max(72, int(math.Ceil(1.6*float64(size))))
	}
	big := gocv.NewMatWithSize(d, d, gocv.MatTypeCV8UC3)
	bigA := gocv.NewMatWithSize(d, d, gocv.MatTypeCV8UC1)
	defer big.Close()
	defer bigA.Close()
	paint := paintBody
	if a.kind == artToken {
		paint = paintDisc
	}
	if err := paint(&big, &bigA, d, a, st); err != nil {
		return faceArt{}, err
	}
	p := painter{bgr: &big, alpha: &bigA, d: float64(d), inkAlpha: a.look.Finish == FinishTranslucent}
	if a.face != "" {
		f, _ := fs.Face(a.face)
		switch a.kind {
		case artVATS, artAssist:
			drawSymbols(&p, st, a.symbols, f, 0)
		case artCustom:
			drawSymbols(&p, st, a.symbols, f, hash64("face", fs.ID, f.ID)|1)
		case artPips:
			v, ok := models.NumericValue(fs, f.ID)
			if ok && v >= 1 && v <= 6 {
				drawPips(&p, st, a.look, v)
			} else {
				drawNumeral(&p, st, a, f.ID)
			}
		case artNumeral:
			drawNumeral(&p, st, a, f.ID)
		case artCombat:
			drawCombat(&p, a, fs, f)
		case artToken:
			drawTokenSide(&p, a, fs, f)
		}
	}
	small, smallA := gocv.NewMat(), gocv.NewMat()
	defer small.Close()
	defer smallA.Close()
	if d == size {
		big.CopyTo(&small)
		bigA.CopyTo(&smallA)
	} else {
		gocv.Resize(big, &small, image.Pt(size, size), 0, 0, gocv.InterpolationArea)
		gocv.Resize(bigA, &smallA, image.Pt(size, size), 0, 0, gocv.InterpolationArea)
	}
	out := faceArt{bgra: gocv.NewMatWithSize(size, size, gocv.MatTypeCV8UC4)}
	px, err1 := small.DataPtrUint8()
	al, err2 := smallA.DataPtrUint8()
	dst, err3 := out.bgra.DataPtrUint8()
	if err1 != nil || err2 != nil || err3 != nil || len(px) != 3*len(al) || len(dst) != 4*len(al) {
		out.close()
		return faceArt{}, fmt.Errorf("synth: face art not continuous")
	}
	for i, v := range al {
		k := uint32(v)
		dst[4*i] = uint8((uint32(px[3*i])*k + 127) / 255)
		dst[4*i+1] = uint8((uint32(px[3*i+1])*k + 127) / 255)
		dst[4*i+2] = uint8((uint32(px[3*i+2])*k + 127) / 255)
		dst[4*i+3] = v
	}
	return out, nil
}

// paintBody fills the face with the die's body: colour or marbling, darker
// rim, darker outer facets, rounded corners (alpha) and translucency.
func paintBody(bgr, alpha *gocv.Mat, d int, a artSpec, st *Style) error {
	px, err1 := bgr.DataPtrUint8()
	al, err2 := alpha.DataPtrUint8()
	if err1 != nil || err2 != nil || len(px) != 3*d*d || len(al) != d*d {
		return fmt.Errorf("synth: body canvas not continuous")
	}
	fd := float64(d)
	rc := st.Corner * fd
	bevel := st.Bevel * fd
	bodyA := 255.0
	if a.look.Finish == FinishTranslucent {
		bodyA = 150
	}
	// The rim's shade and opacity depend only on the distance to the
	// nearest edge, so they are tabled per row and per column: the pixel
	// takes the darker of its row's and its column's values.
	shadeAt := func(edge float64) (float64, float64) {
		if edge >= bevel {
			return 1, bodyA
		}
		sh := 0.74 + 0.26*math.Sqrt(math.Max(0, edge)/bevel)
		av := bodyA
		if bodyA < 255 {
			av += (255 - bodyA) * (1 - edge/bevel) * 0.6
		}
		return sh, av
	}
	shadeTab := make([]uint32, d) // ×256
	alphaTab := make([]uint8, d)
	for x := range d {
		fx := float64(x) + 0.5
		sh, av := shadeAt(math.Min(fx, fd-fx))
		shadeTab[x] = uint32(math.Round(sh * 256))
		alphaTab[x] = uint8(math.Round(av))
	}
	// On dark dice the neighbouring facets catch light instead of darkening.
	facetLift := uint32(0)
	if luma(a.look.Body) < 70 {
		facetLift = 26
	}
	var facet []vec2
	for _, q := range a.facet {
		facet = append(facet, q.scale(fd))
	}
	body := [3]uint32{uint32(a.look.Body.B), uint32(a.look.Body.G), uint32(a.look.Body.R)}
	marble := a.look.Finish == FinishMarbled
	var marbleAt func(fx, fy float64) [3]uint32
	if marble {
		lut := make([]float64, 1024)
		for i := range lut {
			lut[i] = math.Sin(float64(i) * 2 * math.Pi / 1024)
		}
		var ph [6]float64
		for i := range ph {
			ph[i] = float64(a.pattern>>(i*9)&511) / 512
		}
		sinL := func(turns float64) float64 { return lut[int(math.Floor(turns*1024))&1023] }
		acc := [3]float64{float64(a.look.Accent.B), float64(a.look.Accent.G), float64(a.look.Accent.R)}
		marbleAt = func(fx, fy float64) [3]uint32 {
			u, v := fx/fd, fy/fd
			t := u*(2.2+ph[0]) + 0.35*sinL(v*(1.3+ph[1])+ph[2]) + 0.2*sinL(u*3.1+v*2.3+ph[3])
			m := 0.5 + 0.5*sinL(t*2.5+ph[4])
			m = m * m * m
			var c [3]uint32
			for k := range c {
				c[k] = uint32(float64(body[k]) + (acc[k]-float64(body[k]))*m)
			}
			return c
		}
	}
	irc := int(math.Ceil(rc))
	for y := range d {
		fy := float64(y) + 0.5
		dy := math.Min(fy, fd-fy)
		rowShade, rowAlpha := shadeTab[y], alphaTab[y]
		// The facet's span on this row (facets are convex).
		fx0, fx1 := -1.0, fd+1
		if facet != nil {
			fx0, fx1 = convexSpan(facet, fy)
		}
		cornerRow := dy < rc
		prow := px[3*y*d : 3*(y+1)*d]
		arow := al[y*d : (y+1)*d]
		for x := range d {
			fx := float64(x) + 0.5
			sh, av := shadeTab[x], alphaTab[x]
			if rowShade < sh {
				sh = rowShade
			}
			if rowAlpha > av {
				av = rowAlpha
			}
			cov := uint32(256)
			if cornerRow && (x < irc || x >= d-irc) {
				dx := math.Min(fx, fd-fx)
				if dx < rc {
					r := math.Hypot(rc-dx, rc-dy)
					s, a := shadeAt(rc - r)
					sh, av = uint32(math.Round(s*256)), uint8(math.Round(a))
					cov = uint32(math.Round(256 * math.Min(1, math.Max(0, rc-r+0.5))))
				}
			}
			c := body
			if marble {
				c = marbleAt(fx, fy)
			}
			lift := uint32(0)
			if fx < fx0 || fx > fx1 {
				sh = sh * 184 >> 8 // ×0.72
				lift = facetLift
			}
			p := prow[3*x : 3*x+3 : 3*x+3]
			p[0] = uint8(min(255, (c[0]*sh)>>8+lift))
			p[1] = uint8(min(255, (c[1]*sh)>>8+lift))
			p[2] = uint8(min(255, (c[2]*sh)>>8+lift))
			arow[x] = uint8((uint32(av)*cov + 128) >> 8)
		}
	}
	return nil
}

// convexSpan returns the x range of a convex polygon on the line y (an
// empty range when the line misses it).
func convexSpan(poly []vec2, y float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		if (a.Y <= y) == (b.Y <= y) {
			continue
		}
		x := a.X + (y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// painter draws shapes given in fractions of the face side on the colour
// canvas, and on the alpha canvas too when the body is translucent (ink is
// opaque).
type painter struct {
	bgr, alpha *gocv.Mat
	d          float64
	inkAlpha   bool
}

const shiftBits = 3 // sub-pixel precision of drawing calls

func (p *painter) pt(v vec2) image.Point {
	return image.Pt(int(math.Round(v.X*p.d*(1<<shiftBits))), int(math.Round(v.Y*p.d*(1<<shiftBits))))
}

func (p *painter) poly(pts []vec2, c color.RGBA) {
	if len(pts) < 3 {
		return
	}
	ip := make([]image.Point, len(pts))
	for i, v := range pts {
		ip[i] = p.pt(v)
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{ip})
	defer pv.Close()
	gocv.FillPolyWithParams(p.bgr, pv, c, gocv.LineAA, shiftBits, image.Point{})
	if p.inkAlpha {
		gocv.FillPolyWithParams(p.alpha, pv, color.RGBA{255, 255, 255, 255}, gocv.LineAA, shiftBits, image.Point{})
	}
}

func (p *painter) circle(c vec2, r float64, col color.RGBA) {
	ri := int(math.Round(r * p.d * (1 << shiftBits)))
	if ri < 1 {
		return
	}
	gocv.CircleWithParams(p.bgr, p.pt(c), ri, col, -1, gocv.LineAA, shiftBits)
	if p.inkAlpha {
		gocv.CircleWithParams(p.alpha, p.pt(c), ri, color.RGBA{255, 255, 255, 255}, -1, gocv.LineAA, shiftBits)
	}
}

func (p *painter) ellipse(c vec2, ax, ay, angle float64, col color.RGBA) {
	axes := image.Pt(int(math.Round(ax*p.d*(1<<shiftBits))), int(math.Round(ay*p.d*(1<<shiftBits))))
	if axes.X < 1 || axes.Y < 1 {
		return
	}
	gocv.EllipseWithParams(p.bgr, p.pt(c), axes, angle, 0, 360, col, -1, gocv.LineAA, shiftBits)
	if p.inkAlpha {
		gocv.EllipseWithParams(p.alpha, p.pt(c), axes, angle, 0, 360, color.RGBA{255, 255, 255, 255}, -1, gocv.LineAA, shiftBits)
	}
}

// capsule fills a thick segment with round ends.
func (p *painter) capsule(a, b vec2, r float64, col color.RGBA) {
	p.poly(capsulePoly(a, b, r), col)
}

func capsulePoly(a, b vec2, r float64) []vec2 {
	d := b.sub(a).unit()
	base := math.Atan2(d.Y, d.X)
	pts := make([]vec2, 0, 18)
	for i := 0; i <= 8; i++ {
		t := base - math.Pi/2 + float64(i)*math.Pi/8
		pts = append(pts, b.add(vec2{math.Cos(t), math.Sin(t)}.scale(r)))
	}
	for i := 0; i <= 8; i++ {
		t := base + math.Pi/2 + float64(i)*math.Pi/8
		pts = append(pts, a.add(vec2{math.Cos(t), math.Sin(t)}.scale(r)))
	}
	return pts
}

// text draws s centred on c with its cap height h (fractions), no wider than
// maxW; underline adds a bar below it (for 6 and 9).
func (p *painter) text(s string, c vec2, h, maxW float64, font gocv.HersheyFont, weight float64, col color.RGBA, underline bool) {
	th := max(1, int(math.Round(weight*p.d)))
	sz := gocv.GetTextSize(s, font, 1, th)
	if sz.X <= 0 || sz.Y <= 0 {
		return
	}
	scale := math.Min(h*p.d/float64(sz.Y), maxW*p.d/float64(sz.X))
	sz = gocv.GetTextSize(s, font, scale, th)
	org := image.Pt(int(math.Round(c.X*p.d-float64(sz.X)/2)), int(math.Round(c.Y*p.d+float64(sz.Y)/2)))
	gocv.PutTextWithParams(p.bgr, s, org, font, scale, col, th, gocv.LineAA, false)
	if p.inkAlpha {
		gocv.PutTextWithParams(p.alpha, s, org, font, scale, color.RGBA{255, 255, 255, 255}, th, gocv.LineAA, false)
	}
	if underline {
		y := (float64(org.Y) + 0.09*p.d) / p.d
		x0 := (float64(org.X) + 0.1*float64(sz.X)) / p.d
		x1 := (float64(org.X) + 0.9*float64(sz.X)) / p.d
		hw := math.Max(0.022, weight*0.6)
		p.poly([]vec2{{x0, y - hw}, {x1, y - hw}, {x1, y + hw}, {x0, y + hw}}, col)
	}
}

// icon draws one hit or hurt icon of radius r centred on c.
func (p *painter) icon(shape Shape, c vec2, r float64, col color.RGBA) {
	switch shape {
	case ShapeDiamond:
		p.poly([]vec2{{c.X, c.Y - 1.3*r}, {c.X + r, c.Y}, {c.X, c.Y + 1.3*r}, {c.X - r, c.Y}}, col)
	case ShapeSquare:
		p.poly([]vec2{{c.X - 0.85*r, c.Y - 0.85*r}, {c.X + 0.85*r, c.Y - 0.85*r}, {c.X + 0.85*r, c.Y + 0.85*r}, {c.X - 0.85*r, c.Y + 0.85*r}}, col)
	case ShapeBolt:
		pts := []vec2{{0.3, -1.4}, {-0.7, 0.2}, {-0.05, 0.2}, {-0.35, 1.4}, {0.7, -0.25}, {0.05, -0.25}}
		for i := range pts {
			pts[i] = c.add(pts[i].scale(r))
		}
		p.poly(pts, col)
	case ShapeCross:
		p.capsule(vec2{c.X - r, c.Y - r}, vec2{c.X + r, c.Y + r}, 0.32*r, col)
		p.capsule(vec2{c.X - r, c.Y + r}, vec2{c.X + r, c.Y - r}, 0.32*r, col)
	default:
		p.circle(c, r, col)
	}
}

// drawSymbols draws a symbol face: the body figure with its highlighted
// regions, a hashed glyph for custom sets (glyph != 0), and the hit and
// hurt icons.
func drawSymbols(p *painter, st *Style, sc SymbolColors, f models.Face, glyph uint64) {
	figure := len(f.Regions) > 0
	icons := make([]Shape, 0, f.Hits+f.Hurt)
	cols := make([]color.RGBA, 0, f.Hits+f.Hurt)
	for range f.Hits {
		icons, cols = append(icons, st.HitShape), append(cols, sc.Hit)
	}
	for range f.Hurt {
		icons, cols = append(icons, st.HurtShape), append(cols, sc.Hurt)
	}
	if figure {
		drawFigure(p, st, sc, f)
	}
	if glyph != 0 {
		if figure {
			drawGlyph(p, sc, glyph, vec2{0.17, 0.17}, 0.1)
		} else if len(icons) == 0 {
			drawGlyph(p, sc, glyph, vec2{0.5, 0.5}, 0.3)
		} else {
			drawGlyph(p, sc, glyph, vec2{0.5, 0.34}, 0.2)
		}
		drawBits(p, sc, glyph)
	}
	if len(icons) == 0 {
		return
	}
	if figure || glyph != 0 {
		// Corner column or bottom row.
		n := len(icons)
		r, step := 0.068, 0.17
		if n > 4 {
			r, step = 0.048, 0.12
		}
		for i, s := range icons {
			var c vec2
			if st.Icons == IconsRow {
				x0 := 0.5 - step*float64(n-1)/2
				c = vec2{x0 + step*float64(i), 0.885}
			} else {
				c = vec2{0.83, 0.19 + step*float64(i)}
			}
			p.icon(s, c, r, cols[i])
		}
		return
	}
	// Icons alone: hits on one row, hurt icons on another, centred.
	rows := [][]int{}
	var hits, hurts []int
	for i := range icons {
		if i < f.Hits {
			hits = append(hits, i)
		} else {
			hurts = append(hurts, i)
		}
	}
	if len(hits) > 0 {
		rows = append(rows, hits)
	}
	if len(hurts) > 0 {
		rows = append(rows, hurts)
	}
	r := 0.1
	if st.Icons == IconsRow {
		r = 0.09
	}
	for ri, row := range rows {
		y := 0.5
		if len(rows) == 2 {
			y = 0.31 + 0.38*float64(ri)
		}
		step := 0.28
		if len(row) > 3 {
			step = 0.2
		}
		x0 := 0.5 - step*float64(len(row)-1)/2
		for k, i := range row {
			c := vec2{x0 + step*float64(k), y}
			if st.Icons == IconsRow && len(rows) == 1 && len(row) > 1 {
				// Alt layout: a diagonal instead of a row.
				c = vec2{x0 + step*float64(k), y + (float64(k)-float64(len(row)-1)/2)*0.16}
			}
			p.icon(icons[i], c, r, cols[i])
		}
	}
}

// figurePart is one part of the body silhouette.
type figurePart struct {
	region string
	draw   func(grow float64, col color.RGBA)
}

// drawFigure draws the silhouette: head, torso, two arms and two legs, the
// face's regions in the highlight colour.
func drawFigure(p *painter, st *Style, sc SymbolColors, f models.Face) {
	var parts []figurePart
	outline := 0.0
	if st.Figure == FigureStick {
		parts = []figurePart{
			{models.RegionLegs, func(g float64, c color.RGBA) {
				p.capsule(vec2{0.47, 0.52}, vec2{0.36, 0.76}, 0.036+g, c)
				p.capsule(vec2{0.53, 0.52}, vec2{0.64, 0.76}, 0.036+g, c)
			}},
			{models.RegionArms, func(g float64, c color.RGBA) {
				p.capsule(vec2{0.43, 0.29}, vec2{0.23, 0.46}, 0.032+g, c)
				p.capsule(vec2{0.57, 0.29}, vec2{0.77, 0.46}, 0.032+g, c)
			}},
			{models.RegionTorso, func(g float64, c color.RGBA) {
				p.poly([]vec2{{0.41 - g, 0.265 - g}, {0.59 + g, 0.265 - g}, {0.555 + g, 0.54 + g}, {0.445 - g, 0.54 + g}}, c)
			}},
			{models.RegionHead, func(g float64, c color.RGBA) { p.circle(vec2{0.5, 0.165}, 0.075+g, c) }},
		}
		outline = 0.018
	} else {
		cx := 0.4
		parts = []figurePart{
			{models.RegionLegs, func(g float64, c color.RGBA) {
				p.capsule(vec2{cx - 0.045, 0.57}, vec2{cx - 0.075, 0.85}, 0.046+g, c)
				p.capsule(vec2{cx + 0.045, 0.57}, vec2{cx + 0.075, 0.85}, 0.046+g, c)
			}},
			{models.RegionArms, func(g float64, c color.RGBA) {
				p.capsule(vec2{cx - 0.09, 0.33}, vec2{cx - 0.19, 0.57}, 0.041+g, c)
				p.capsule(vec2{cx + 0.09, 0.33}, vec2{cx + 0.19, 0.57}, 0.041+g, c)
			}},
			{models.RegionTorso, func(g float64, c color.RGBA) { p.ellipse(vec2{cx, 0.44}, 0.105+g, 0.15+g, 0, c) }},
			{models.RegionHead, func(g float64, c color.RGBA) { p.circle(vec2{cx, 0.195}, 0.087+g, c) }},
		}
		outline = 0.022
	}
	// Ink first, a little larger, so highlighted parts keep a dark outline.
	for _, part := range parts {
		part.draw(0, sc.Ink)
	}
	for _, part := range parts {
		if f.HasRegion(part.region) {
			part.draw(outline, sc.Ink)
		}
	}
	for _, part := range parts {
		if f.HasRegion(part.region) {
			part.draw(0, sc.Highlight)
		}
	}
}

// drawGlyph draws a hashed polygon or star for faces of custom symbol sets.
func drawGlyph(p *painter, sc SymbolColors, h uint64, c vec2, r float64) {
	n := 3 + int(h>>3%5)
	star := h>>7&1 == 1
	rot := float64(h>>8%360) * math.Pi / 180
	col := sc.Ink
	if h>>17&1 == 1 {
		col = sc.Highlight
	}
	var pts []vec2
	if star {
		for i := range 2 * n {
			rr := r
			if i%2 == 1 {
				rr = r * 0.45
			}
			t := rot + float64(i)*math.Pi/float64(n)
			pts = append(pts, c.add(vec2{math.Cos(t), math.Sin(t)}.scale(rr)))
		}
	} else {
		for i := range n {
			t := rot + float64(i)*2*math.Pi/float64(n)
			pts = append(pts, c.add(vec2{math.Cos(t), math.Sin(t)}.scale(r)))
		}
	}
	p.poly(pts, col)
	if h>>18&1 == 1 {
		p.circle(c, r*0.3, sc.Body)
	}
}

// drawBits draws a row of small squares along the top edge encoding hash
// bits: it separates faces whose glyphs look alike and marks "up".
func drawBits(p *painter, sc SymbolColors, h uint64) {
	p.poly([]vec2{{0.09, 0.07}, {0.15, 0.07}, {0.15, 0.13}, {0.09, 0.13}}, sc.Ink)
	for i := range 5 {
		if h>>(20+i)&1 == 0 {
			continue
		}
		x := 0.32 + 0.1*float64(i)
		p.poly([]vec2{{x, 0.07}, {x + 0.06, 0.07}, {x + 0.06, 0.13}, {x, 0.13}}, sc.Ink)
	}
}

// pipLayout returns the pip centres of a d6 face.
func pipLayout(v int, rows bool) []vec2 {
	a, m, b := 0.25, 0.5, 0.75
	var pts []vec2
	switch v {
	case 1:
		pts = []vec2{{m, m}}
	case 2:
		pts = []vec2{{b, a}, {a, b}}
	case 3:
		pts = []vec2{{b, a}, {m, m}, {a, b}}
	case 4:
		pts = []vec2{{a, a}, {b, a}, {a, b}, {b, b}}
	case 5:
		pts = []vec2{{a, a}, {b, a}, {m, m}, {a, b}, {b, b}}
	case 6:
		pts = []vec2{{a, a}, {a, m}, {a, b}, {b, a}, {b, m}, {b, b}}
		if rows {
			pts = []vec2{{a, a}, {m, a}, {b, a}, {a, b}, {m, b}, {b, b}}
		}
	}
	return pts
}

// drawPips draws the standard pip layout of value v.
func drawPips(p *painter, st *Style, look DieLook, v int) {
	r := st.PipSize
	ring := mixColor(look.Body, rgb(0, 0, 0), 0.3)
	if look.Finish == FinishTranslucent {
		ring = look.Ink
	}
	for _, c := range pipLayout(v, st.PipsRows) {
		ink, rr := look.Ink, r
		if v == 1 && st.BigOne {
			rr = 0.17
			if look.Body.R < 150 || look.Body.G > 110 {
				ink = rgb(210, 20, 30)
			}
		}
		p.circle(c, rr*1.14, ring)
		p.circle(c, rr, ink)
	}
}

// drawNumeral draws the face id as a numeral, on the facet when there is
// one; 6 and 9 are underlined.
func drawNumeral(p *painter, st *Style, a artSpec, text string) {
	c, h, w := vec2{0.5, 0.5}, 0.44, 0.72
	switch len(a.facet) {
	case 4: // kite
		c, h, w = vec2{0.5, 0.45}, 0.3, 0.5
	case 3: // triangle
		c, h, w = vec2{0.5, 0.6}, 0.3, 0.5
	case 5:
		c, h, w = vec2{0.5, 0.54}, 0.32, 0.5
	}
	under := text == "6" || text == "9"
	if under {
		c.Y -= 0.03
	}
	p.text(text, c, h, w, st.Numeral, st.NumeralWeight, a.look.Ink, under)
}

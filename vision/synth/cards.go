package synth

// Procedural card art. No game art is used: every card face is drawn here
// from a seed. Cards come in families (the same frame, colours, layout and
// title bar, like the cards of one deck) and differ in their title,
// illustration, text rows, badge number and icons.

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// CardAspect is a card's height over its width: a standard 63 × 88 mm card.
const CardAspect = 88.0 / 63.0

// CardFamilies is the number of card families. A card's family is a hash of
// its art seed, so any two seeds share a family with probability
// 1/CardFamilies: cards of one family share frame, colours and layout.
const CardFamilies = 48

// Random streams of the card art.
const (
	saltCardFamily uint64 = iota + 0x5eed0c01
	saltCardArt
	saltCardFamilyOf
)

// CardFamily returns the family of the card drawn from art seed seed.
func CardFamily(seed int64) int {
	return int(mix64(uint64(seed)^mix64(saltCardFamilyOf)) % CardFamilies)
}

// Card layouts of a family.
const (
	layoutPictureTop  = iota // title bar, picture, text box
	layoutTitleBottom        // picture, title band, text box
	layoutFullArt            // picture over the whole card, title and text boxes over it
	layoutIconPair           // title bar and two icon panels (like an activation card)
	layoutText               // title, a big number, many text rows (like a quest card)
	layoutCount
)

// cardFamilyStyle is what the cards of one family share.
type cardFamilyStyle struct {
	layout      int
	paper       color.RGBA // card stock inside the frame
	frame       color.RGBA // the border
	frameInner  color.RGBA // inner line or band of the border
	accent      color.RGBA // title bar, panels
	ink         color.RGBA // text on paper
	titleInk    color.RGBA // text on the title bar
	border      float64    // border width, fraction of the card width
	borderStyle int        // 0 solid, 1 with an inner line, 2 two bands
	radius      float64    // inner corner radius, fraction of the width
	titleFont   gocv.HersheyFont
	textFont    gocv.HersheyFont
	badge       int // badge corner: 0 top-left, 1 top-right, 2 bottom-right, 3 none
	ornament    int // 0 none, 1 corner diamonds, 2 side studs
	hue         float64
}

func cardFamilyStyleOf(family int) cardFamilyStyle {
	r := rngFor(int64(family), saltCardFamily)
	hue := r.Float64() * 360
	s := cardFamilyStyle{
		layout:      family % layoutCount,
		border:      0.035 + 0.05*r.Float64(),
		borderStyle: r.IntN(3),
		radius:      0.02 + 0.05*r.Float64(),
		badge:       r.IntN(4),
		ornament:    r.IntN(3),
		hue:         hue,
	}
	fonts := []gocv.HersheyFont{gocv.FontHersheyComplex, gocv.FontHersheyTriplex, gocv.FontHersheyDuplex, gocv.FontHersheySimplex}
	s.titleFont = fonts[r.IntN(len(fonts))]
	s.textFont = fonts[r.IntN(len(fonts))]
	switch r.IntN(4) {
	case 0: // dark frame, light paper
		s.frame = hsv(hue, 0.5+0.4*r.Float64(), 0.2+0.25*r.Float64())
		s.paper = hsv(hue+40*(r.Float64()-0.5), 0.05+0.15*r.Float64(), 0.85+0.12*r.Float64())
	case 1: // coloured frame, cream paper
		s.frame = hsv(hue, 0.6+0.35*r.Float64(), 0.45+0.4*r.Float64())
		s.paper = hsv(40+20*r.Float64(), 0.1+0.2*r.Float64(), 0.8+0.15*r.Float64())
	case 2: // light frame, tinted paper
		s.frame = hsv(hue, 0.1+0.2*r.Float64(), 0.8+0.18*r.Float64())
		s.paper = hsv(hue+180*r.Float64(), 0.2+0.3*r.Float64(), 0.6+0.3*r.Float64())
	default: // black frame, dark paper
		s.frame = hsv(hue, 0.2*r.Float64(), 0.08+0.1*r.Float64())
		s.paper = hsv(hue+90*(r.Float64()-0.5), 0.3+0.4*r.Float64(), 0.25+0.25*r.Float64())
	}
	s.frameInner = hsv(hue+60*(r.Float64()-0.5), 0.3+0.6*r.Float64(), 0.3+0.7*r.Float64())
	s.accent = hsv(hue+120*(r.Float64()-0.5), 0.4+0.5*r.Float64(), 0.3+0.6*r.Float64())
	s.ink = contrastInk(s.paper)
	s.titleInk = contrastInk(s.accent)
	return s
}

// cardPainter draws in card coordinates: u across the width, v down the
// height, both in [0, 1]; lengths in fractions of the width.
type cardPainter struct {
	m    *gocv.Mat
	w, h float64
}

func (p *cardPainter) pt(u, v float64) image.Point {
	return image.Pt(int(math.Round((u*p.w-0.5)*(1<<shiftBits))), int(math.Round((v*p.h-0.5)*(1<<shiftBits))))
}

func (p *cardPainter) poly(pts []vec2, c color.RGBA) {
	if len(pts) < 3 {
		return
	}
	ip := make([]image.Point, len(pts))
	for i, q := range pts {
		ip[i] = p.pt(q.X, q.Y)
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{ip})
	gocv.FillPolyWithParams(p.m, pv, c, gocv.LineAA, shiftBits, image.Point{})
	pv.Close()
}

func (p *cardPainter) rect(u0, v0, u1, v1 float64, c color.RGBA) {
	p.poly([]vec2{{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}}, c)
}

// roundRect fills a rectangle with corners rounded by r (fraction of the
// width).
func (p *cardPainter) roundRect(u0, v0, u1, v1, r float64, c color.RGBA) {
	p.poly(roundRectPoly(u0, v0, u1, v1, r, r*p.w/p.h), c)
}

func roundRectPoly(u0, v0, u1, v1, ru, rv float64) []vec2 {
	ru = math.Min(ru, (u1-u0)/2)
	rv = math.Min(rv, (v1-v0)/2)
	var pts []vec2
	corners := [4]struct{ cu, cv, a float64 }{{u1 - ru, v0 + rv, -90}, {u1 - ru, v1 - rv, 0}, {u0 + ru, v1 - rv, 90}, {u0 + ru, v0 + rv, 180}}
	for _, c := range corners {
		for k := 0; k <= 6; k++ {
			t := (c.a + 15*float64(k)) * math.Pi / 180
			pts = append(pts, vec2{c.cu + ru*math.Cos(t), c.cv + rv*math.Sin(t)})
		}
	}
	return pts
}

func (p *cardPainter) circle(u, v, r float64, c color.RGBA) {
	ri := int(math.Round(r * p.w * (1 << shiftBits)))
	if ri < 1 {
		return
	}
	gocv.CircleWithParams(p.m, p.pt(u, v), ri, c, -1, gocv.LineAA, shiftBits)
}

func (p *cardPainter) ring(u, v, r, width float64, c color.RGBA) {
	ri := int(math.Round(r * p.w * (1 << shiftBits)))
	th := max(1, int(math.Round(width*p.w)))
	if ri < 1 {
		return
	}
	gocv.CircleWithParams(p.m, p.pt(u, v), ri, c, th, gocv.LineAA, shiftBits)
}

func (p *cardPainter) line(u0, v0, u1, v1, width float64, c color.RGBA) {
	p.poly(polyline(capsulePoly(vec2{u0 * p.w, v0 * p.h}, vec2{u1 * p.w, v1 * p.h}, width*p.w/2)).scaleXY(1/p.w, 1/p.h), c)
}

// text draws s with its left end at u and its vertical centre at v, cap
// height h (fraction of the height), no wider than maxW (fraction of the
// width).
func (p *cardPainter) text(s string, u, v, h, maxW float64, font gocv.HersheyFont, weight float64, c color.RGBA, centre bool) {
	th := max(1, int(math.Round(weight*p.w)))
	sz := gocv.GetTextSize(s, font, 1, th)
	if sz.X <= 0 || sz.Y <= 0 {
		return
	}
	scale := math.Min(h*p.h/float64(sz.Y), maxW*p.w/float64(sz.X))
	if scale <= 0.05 {
		return
	}
	sz = gocv.GetTextSize(s, font, scale, th)
	x := u * p.w
	if centre {
		x -= float64(sz.X) / 2
	}
	org := image.Pt(int(math.Round(x)), int(math.Round(v*p.h+float64(sz.Y)/2)))
	gocv.PutTextWithParams(p.m, s, org, font, scale, c, th, gocv.LineAA, false)
}

type polyline []vec2

func (pl polyline) scaleXY(sx, sy float64) []vec2 {
	out := make([]vec2, len(pl))
	for i, q := range pl {
		out[i] = vec2{q.X * sx, q.Y * sy}
	}
	return out
}

// RenderCardArt draws the face of the card with art seed seed, w×h pixels
// (8-bit BGR; the caller closes it). The same seed and size always give the
// same bytes; the same seed at another size gives the same card. Any w and h
// from 16 to 4096 work; cards are meant to be drawn at CardAspect.
func RenderCardArt(seed int64, w, h int) (gocv.Mat, error) {
	if w < 16 || h < 16 || w > 4096 || h > 4096 {
		return gocv.NewMat(), specErr("card art size %d×%d outside 16…4096", w, h)
	}
	// Drawn at least 360 px wide and shrunk: small cards keep the layout
	// and anti-aliasing of large ones.
	dw, dh := w, h
	if w < 360 {
		dw = 360
		dh = max(16, int(math.Round(float64(h)*360/float64(w))))
	}
	m := gocv.NewMatWithSize(dh, dw, gocv.MatTypeCV8UC3)
	drawCardArt(&m, seed)
	if dw == w && dh == h {
		return m, nil
	}
	defer m.Close()
	out := gocv.NewMat()
	gocv.Resize(m, &out, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	return out, nil
}

var cardLetters = []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

func randomWord(r *rand.Rand, n int, lower bool) string {
	b := make([]byte, n)
	for i := range b {
		c := cardLetters[r.IntN(len(cardLetters))]
		if lower && i > 0 {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}

func drawCardArt(m *gocv.Mat, seed int64) {
	fam := cardFamilyStyleOf(CardFamily(seed))
	r := rngFor(seed, saltCardArt)
	p := &cardPainter{m: m, w: float64(m.Cols()), h: float64(m.Rows())}
	asp := p.h / p.w
	m.SetTo(gocv.NewScalar(float64(fam.frame.B), float64(fam.frame.G), float64(fam.frame.R), 0))

	bu := fam.border
	bv := bu / asp
	switch fam.borderStyle {
	case 1:
		p.roundRect(bu*0.45, bv*0.45, 1-bu*0.45, 1-bv*0.45, fam.radius, fam.frameInner)
		p.roundRect(bu*0.6, bv*0.6, 1-bu*0.6, 1-bv*0.6, fam.radius, fam.frame)
	case 2:
		p.roundRect(bu*0.5, bv*0.5, 1-bu*0.5, 1-bv*0.5, fam.radius, fam.frameInner)
	}
	// The paper inside the frame.
	u0, v0, u1, v1 := bu, bv, 1-bu, 1-bv
	p.roundRect(u0, v0, u1, v1, fam.radius, fam.paper)

	iw := u1 - u0
	title := randomWord(r, 4+r.IntN(5), true)
	if r.IntN(2) == 0 {
		title += " " + randomWord(r, 3+r.IntN(4), true)
	}
	switch fam.layout {
	case layoutPictureTop:
		tb := v0 + 0.09
		p.rect(u0, v0+0.01, u1, tb, fam.accent)
		p.text(title, u0+0.04, (v0+0.01+tb)/2, 0.04, iw-0.08, fam.titleFont, 0.008, fam.titleInk, false)
		drawPicture(p, r, u0+0.03, tb+0.015, u1-0.03, 0.6, fam)
		drawTextRows(p, r, u0+0.05, 0.63, u1-0.05, v1-0.03, fam, 3+r.IntN(4))
	case layoutTitleBottom:
		drawPicture(p, r, u0+0.02, v0+0.015, u1-0.02, 0.6, fam)
		p.roundRect(u0, 0.61, u1, 0.69, 0.02, fam.accent)
		p.text(title, 0.5, 0.65, 0.038, iw-0.1, fam.titleFont, 0.008, fam.titleInk, true)
		drawTextRows(p, r, u0+0.05, 0.71, u1-0.05, v1-0.03, fam, 2+r.IntN(4))
	case layoutFullArt:
		drawPicture(p, r, u0, v0, u1, v1, fam)
		p.roundRect(u0+0.04, v0+0.02, u1-0.04, v0+0.1, 0.03, fam.accent)
		p.text(title, 0.5, v0+0.06, 0.04, iw-0.14, fam.titleFont, 0.008, fam.titleInk, true)
		p.roundRect(u0+0.05, 0.7, u1-0.05, v1-0.025, 0.03, fam.paper)
		drawTextRows(p, r, u0+0.09, 0.72, u1-0.09, v1-0.04, fam, 2+r.IntN(3))
	case layoutIconPair:
		tb := v0 + 0.08
		p.rect(u0, v0+0.01, u1, tb, fam.accent)
		p.text(title, u0+0.04, (v0+0.01+tb)/2, 0.035, iw-0.08, fam.titleFont, 0.008, fam.titleInk, false)
		mid := (tb + v1) / 2
		for k, span := range [2][2]float64{{tb + 0.02, mid - 0.01}, {mid + 0.01, v1 - 0.02}} {
			drawPicture(p, r, u0+0.04, span[0], u1-0.04, span[1], fam)
			icon := r.IntN(len(cardIcons))
			cu, cv := 0.5+0.12*(r.Float64()-0.5), (span[0]+span[1])/2
			rad := 0.16 + 0.04*r.Float64()
			p.circle(cu, cv, rad*1.12, fam.paper)
			drawCardIcon(p, icon, cu, cv, rad, cardIconColor(icon, k))
		}
	default: // layoutText
		tb := v0 + 0.1
		p.text(title, 0.5, (v0+tb)/2+0.01, 0.045, iw-0.1, fam.titleFont, 0.009, fam.ink, true)
		p.line(u0+0.06, tb+0.005, u1-0.06, tb+0.005, 0.012, fam.accent)
		// A quest-like card: the number beside a picture, text below.
		n := 1 + r.IntN(150)
		cu, cv := u0+0.17, tb+0.12
		p.circle(cu, cv, 0.12, fam.accent)
		p.text(fmt.Sprint(n), cu, cv, 0.06, 0.17, gocv.FontHersheyDuplex, 0.012, fam.titleInk, true)
		drawPicture(p, r, u0+0.34, tb+0.03, u1-0.04, tb+0.45, fam)
		drawPicture(p, r, u0+0.04, tb+0.25, u0+0.3, tb+0.45, fam)
		drawTextRows(p, r, u0+0.05, tb+0.49, u1-0.05, v1-0.03, fam, 4+r.IntN(4))
	}

	// Badge with a number.
	if fam.badge < 3 && fam.layout != layoutText {
		cu := []float64{u0 + 0.08, u1 - 0.08, u1 - 0.08}[fam.badge]
		cv := []float64{v0 + 0.06, v0 + 0.06, v1 - 0.06}[fam.badge]
		p.circle(cu, cv, 0.075, fam.frame)
		p.ring(cu, cv, 0.075, 0.012, fam.frameInner)
		p.text(fmt.Sprint(1+r.IntN(12)), cu, cv, 0.035, 0.1, gocv.FontHersheyDuplex, 0.01, contrastInk(fam.frame), true)
	}
	switch fam.ornament {
	case 1:
		for _, c := range [4]vec2{{bu / 2, bv / 2}, {1 - bu/2, bv / 2}, {1 - bu/2, 1 - bv/2}, {bu / 2, 1 - bv/2}} {
			d := bu * 0.45
			p.poly([]vec2{{c.X, c.Y - d/asp}, {c.X + d, c.Y}, {c.X, c.Y + d/asp}, {c.X - d, c.Y}}, fam.frameInner)
		}
	case 2:
		for k := 1; k < 4; k++ {
			v := float64(k) / 4
			p.circle(bu/2, v, bu*0.3, fam.frameInner)
			p.circle(1-bu/2, v, bu*0.3, fam.frameInner)
		}
	}
}

// drawPicture fills a panel with an illustration: a two-colour gradient
// sky, a horizon shape and random shapes, clipped to the panel.
func drawPicture(p *cardPainter, r *rand.Rand, u0, v0, u1, v1 float64, fam cardFamilyStyle) {
	x0, y0 := int(math.Round(u0*p.w)), int(math.Round(v0*p.h))
	x1, y1 := int(math.Round(u1*p.w)), int(math.Round(v1*p.h))
	if x1-x0 < 2 || y1-y0 < 2 {
		return
	}
	roi := p.m.Region(image.Rect(x0, y0, x1, y1))
	defer roi.Close()
	sub := &cardPainter{m: &roi, w: float64(x1 - x0), h: float64(y1 - y0)}
	a := hsv(fam.hue+r.Float64()*180, 0.2+0.6*r.Float64(), 0.45+0.5*r.Float64())
	b := hsv(fam.hue+r.Float64()*180, 0.2+0.6*r.Float64(), 0.25+0.6*r.Float64())
	bands := 12
	for k := range bands {
		t := float64(k) / float64(bands-1)
		sub.rect(0, float64(k)/float64(bands), 1, float64(k+1)/float64(bands)+0.01, mixColor(a, b, t))
	}
	// Horizon: hills along the bottom.
	hc := hsv(fam.hue+r.Float64()*360, 0.3+0.5*r.Float64(), 0.2+0.5*r.Float64())
	var hill []vec2
	base := 0.55 + 0.3*r.Float64()
	for k := 0; k <= 8; k++ {
		hill = append(hill, vec2{float64(k) / 8, base - 0.2*r.Float64()})
	}
	hill = append(hill, vec2{1, 1.01}, vec2{0, 1.01})
	sub.poly(hill, hc)
	asp := sub.h / sub.w
	// The picture's subject: one large, bold shape of the card's own.
	{
		c := hsv(r.Float64()*360, 0.6+0.4*r.Float64(), 0.55+0.45*r.Float64())
		cu, cv := 0.3+0.4*r.Float64(), 0.3+0.4*r.Float64()
		sz := 0.3 + 0.15*r.Float64()
		switch r.IntN(3) {
		case 0:
			sub.circle(cu, cv, sz/2, c)
		case 1:
			sub.rect(cu-sz/2, cv-sz/2/asp, cu+sz/2, cv+sz/2/asp, c)
		default:
			sub.poly([]vec2{{cu, cv - sz/asp/1.6}, {cu + sz/1.6, cv + sz/asp/2.2}, {cu - sz/1.6, cv + sz/asp/2.2}}, c)
		}
	}
	for range 4 + r.IntN(7) {
		c := hsv(r.Float64()*360, 0.3+0.7*r.Float64(), 0.2+0.8*r.Float64())
		cu, cv := r.Float64(), r.Float64()
		s := 0.08 + 0.25*r.Float64()
		switch r.IntN(5) {
		case 0:
			sub.circle(cu, cv, s/2, c)
		case 1:
			n := 3 + r.IntN(4)
			pts := make([]vec2, n)
			for i := range pts {
				t := 2*math.Pi*float64(i)/float64(n) + r.Float64()*0.8
				pts[i] = vec2{cu + s*math.Cos(t)*(0.5+0.5*r.Float64()), cv + s/asp*math.Sin(t)*(0.5+0.5*r.Float64())}
			}
			sub.poly(pts, c)
		case 2:
			sub.line(cu, cv, cu+(r.Float64()-0.5)*0.8, cv+(r.Float64()-0.5)*0.8, 0.02+0.05*r.Float64(), c)
		case 3:
			sub.rect(cu-s/2, cv-s/2/asp, cu+s/2, cv+s/2/asp, c)
		default:
			pts := make([]vec2, 10)
			for i := range pts {
				rr := s / 2
				if i%2 == 1 {
					rr *= 0.45
				}
				t := math.Pi*float64(i)/5 - math.Pi/2
				pts[i] = vec2{cu + rr*math.Cos(t), cv + rr/asp*math.Sin(t)}
			}
			sub.poly(pts, c)
		}
	}
	// A thin frame around the picture.
	th := max(1, int(math.Round(0.008*p.w)))
	gocv.Rectangle(&roi, image.Rect(0, 0, x1-x0, y1-y0), fam.frame, th)
}

// drawTextRows fills a box with rows of text-like glyphs.
func drawTextRows(p *cardPainter, r *rand.Rand, u0, v0, u1, v1 float64, fam cardFamilyStyle, rows int) {
	dv := (v1 - v0) / float64(rows)
	capH := math.Min(0.028, dv*0.5)
	for k := range rows {
		v := v0 + (float64(k)+0.5)*dv
		u := u0
		width := (u1 - u0) * (0.6 + 0.4*r.Float64())
		if k == rows-1 {
			width *= 0.6
		}
		for u < u0+width {
			wlen := 2 + r.IntN(7)
			word := randomWord(r, wlen, true)
			ww := math.Min(float64(wlen)*capH*0.9*p.h/p.w, u0+width-u)
			if ww < 0.03 {
				break
			}
			p.text(word, u, v, capH, ww, fam.textFont, 0.004, fam.ink, false)
			u += ww + 0.025
		}
	}
}

// cardIcons are the enemy-like symbols of icon-pair cards.
var cardIcons = []string{"skull", "claw", "gear", "star", "drop", "bolt"}

func cardIconColor(icon, slot int) color.RGBA {
	cols := []color.RGBA{rgb(120, 150, 60), rgb(150, 60, 40), rgb(90, 100, 110), rgb(200, 160, 40), rgb(60, 120, 170), rgb(170, 50, 140)}
	c := cols[icon%len(cols)]
	if slot == 1 {
		c = mixColor(c, rgb(0, 0, 0), 0.25)
	}
	return c
}

// drawCardIcon draws one of cardIcons, radius r (fraction of the width).
func drawCardIcon(p *cardPainter, icon int, cu, cv, r float64, c color.RGBA) {
	asp := p.h / p.w
	rv := r / asp
	switch cardIcons[icon] {
	case "skull":
		p.circle(cu, cv-0.15*rv, 0.7*r, c)
		p.rect(cu-0.4*r, cv+0.3*rv, cu+0.4*r, cv+0.75*rv, c)
		p.circle(cu-0.28*r, cv-0.2*rv, 0.18*r, rgb(250, 250, 250))
		p.circle(cu+0.28*r, cv-0.2*rv, 0.18*r, rgb(250, 250, 250))
	case "claw":
		for k := -1; k <= 1; k++ {
			x := cu + float64(k)*0.35*r
			p.poly([]vec2{{x - 0.12*r, cv + 0.8*rv}, {x + 0.12*r, cv + 0.8*rv}, {x + 0.25*r, cv - 0.8*rv}}, c)
		}
	case "gear":
		for k := range 8 {
			t := float64(k) * math.Pi / 4
			p.line(cu, cv, cu+0.85*r*math.Cos(t), cv+0.85*rv*math.Sin(t), 0.25*r, c)
		}
		p.circle(cu, cv, 0.6*r, c)
		p.circle(cu, cv, 0.25*r, rgb(250, 250, 250))
	case "star":
		pts := make([]vec2, 10)
		for i := range pts {
			rr := r
			if i%2 == 1 {
				rr *= 0.42
			}
			t := math.Pi*float64(i)/5 - math.Pi/2
			pts[i] = vec2{cu + rr*math.Cos(t), cv + rr/asp*math.Sin(t)}
		}
		p.poly(pts, c)
	case "drop":
		p.circle(cu, cv+0.25*rv, 0.6*r, c)
		p.poly([]vec2{{cu - 0.55*r, cv + 0.15*rv}, {cu + 0.55*r, cv + 0.15*rv}, {cu, cv - 0.95*rv}}, c)
	default: // bolt
		pts := []vec2{{0.3, -1}, {-0.6, 0.15}, {-0.05, 0.15}, {-0.3, 1}, {0.6, -0.2}, {0.05, -0.2}}
		for i := range pts {
			pts[i] = vec2{cu + pts[i].X*r, cv + pts[i].Y*rv}
		}
		p.poly(pts, c)
	}
}

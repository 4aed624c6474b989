package synth

import (
	"hash/fnv"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// Finish is a die body's material.
type Finish int

// Die finishes. FinishDefault takes the style's choice.
const (
	FinishDefault     Finish = iota
	FinishSolid              // opaque plastic
	FinishTranslucent        // see-through: the table shows through the body
	FinishMarbled            // a procedural swirl of two colours
)

// Figure is how symbol faces draw the body silhouette.
type Figure int

// Silhouette styles.
const (
	FigureBlock Figure = iota // round head, oval torso, thick limbs, left of centre
	FigureStick               // a centred figure with a trapezoid torso and thin spread limbs
)

// Shape is an icon shape on symbol faces.
type Shape int

// Icon shapes.
const (
	ShapeDot     Shape = iota // a filled circle
	ShapeDiamond              // a filled rhombus
	ShapeSquare               // a filled square
	ShapeBolt                 // a lightning bolt
	ShapeCross                // a thick X
)

// IconLayout is where symbol faces put their hit and hurt icons.
type IconLayout int

// Icon layouts.
const (
	IconsColumn IconLayout = iota // a column in the top-right corner
	IconsRow                      // a row along the bottom edge
)

// SymbolColors are the colours of one symbol face set.
type SymbolColors struct {
	Body      color.RGBA // die colour
	Ink       color.RGBA // silhouette
	Highlight color.RGBA // highlighted body regions
	Hit       color.RGBA // hit icons
	Hurt      color.RGBA // hurt icons
}

// DieLook is a complete die colouring: body, ink and finish.
type DieLook struct {
	// Body is the die's colour.
	Body color.RGBA
	// Ink is the colour of pips and numerals.
	Ink color.RGBA
	// Finish is the body's material.
	Finish Finish
	// Accent is the second colour of a marbled body.
	Accent color.RGBA
}

// Style is a family of face art. Derive new styles by changing the fields of
// a preset.
type Style struct {
	// Name identifies the style; a Scene whose Style has no Name uses
	// StyleDefault().
	Name string
	// VATS and Assist colour the two symbol dice of the game.
	VATS, Assist SymbolColors
	// Figure is how symbol faces draw the body silhouette.
	Figure Figure
	// HitShape is the shape of hit icons.
	HitShape Shape
	// HurtShape is the shape of hurt icons (assist die).
	HurtShape Shape
	// Icons is where symbol faces with a figure put their icons.
	Icons IconLayout
	// D6 lists the looks a d6 may have; each d6 takes one (seeded) unless its
	// DieSpec sets a colour.
	D6 []DieLook
	// BigOne draws the single pip of a d6 large and red, as on Asian dice.
	BigOne bool
	// PipsRows lays the six of a d6 out in rows instead of columns.
	PipsRows bool
	// PipSize is the pip radius as a fraction of the face side.
	PipSize float64
	// D10 and D20 are the looks of numeric dice; Numeric colours any other
	// numeric set.
	D10, D20, Numeric DieLook
	// Numeral is the font of numerals.
	Numeral gocv.HersheyFont
	// NumeralWeight is the numerals' stroke thickness as a fraction of the
	// face side.
	NumeralWeight float64
	// Facets draws the d10 face as a kite and the d20 face as a triangle on
	// the square top (the neighbouring facets darker); otherwise numerals sit
	// on a plain square.
	Facets bool
	// Corner is the radius of the face's rounded corners and Bevel the width
	// of its darker rim, both as fractions of the side.
	Corner, Bevel float64
	// SideArt draws the faces' art on the visible sides of a die too (as on
	// real dice); otherwise the sides are plain.
	SideArt bool
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 255} }

// StyleDefault is the default art: yellow V.A.T.S. dice with a dark block
// figure, red highlights and a column of round hit dots; green assist dice
// with dots and lightning bolts; d6 in white, black, red, translucent blue
// and marbled; black d10 and blue d20 with facets.
func StyleDefault() Style {
	return Style{
		Name: "default",
		VATS: SymbolColors{
			Body: rgb(246, 200, 34), Ink: rgb(40, 34, 30), Highlight: rgb(214, 28, 28),
			Hit: rgb(40, 34, 30), Hurt: rgb(214, 28, 28),
		},
		Assist: SymbolColors{
			Body: rgb(52, 150, 64), Ink: rgb(20, 40, 22), Highlight: rgb(235, 225, 60),
			Hit: rgb(18, 26, 18), Hurt: rgb(250, 236, 120),
		},
		Figure: FigureBlock, HitShape: ShapeDot, HurtShape: ShapeBolt, Icons: IconsColumn,
		D6: []DieLook{
			{Body: rgb(240, 238, 230), Ink: rgb(25, 25, 25), Finish: FinishSolid},
			{Body: rgb(28, 28, 30), Ink: rgb(245, 245, 240), Finish: FinishSolid},
			{Body: rgb(200, 30, 36), Ink: rgb(250, 250, 250), Finish: FinishSolid},
			{Body: rgb(70, 120, 220), Ink: rgb(255, 255, 255), Finish: FinishTranslucent},
			{Body: rgb(60, 90, 150), Ink: rgb(235, 200, 80), Finish: FinishMarbled, Accent: rgb(210, 220, 235)},
			{Body: rgb(240, 238, 230), Ink: rgb(30, 60, 200), Finish: FinishSolid},
		},
		PipSize:       0.095,
		D10:           DieLook{Body: rgb(30, 30, 32), Ink: rgb(245, 245, 245), Finish: FinishSolid},
		D20:           DieLook{Body: rgb(40, 90, 190), Ink: rgb(250, 250, 250), Finish: FinishSolid},
		Numeric:       DieLook{Body: rgb(235, 235, 225), Ink: rgb(20, 20, 20), Finish: FinishSolid},
		Numeral:       gocv.FontHersheyDuplex,
		NumeralWeight: 0.035,
		Facets:        true,
		Corner:        0.13,
		Bevel:         0.07,
		SideArt:       true,
	}
}

// StyleAlt is a clearly different art: pale orange V.A.T.S. dice with a
// navy stick figure, magenta highlights and a row of diamond hit icons along
// the bottom; teal assist dice with white diamonds and red crosses; d6 with a
// big red one-pip and sixes in rows; orange d10 and white d20 on plain
// squares in a serif font.
func StyleAlt() Style {
	return Style{
		Name: "alt",
		VATS: SymbolColors{
			Body: rgb(250, 170, 60), Ink: rgb(26, 36, 92), Highlight: rgb(220, 30, 160),
			Hit: rgb(26, 36, 92), Hurt: rgb(220, 30, 160),
		},
		Assist: SymbolColors{
			Body: rgb(30, 140, 130), Ink: rgb(240, 240, 240), Highlight: rgb(250, 200, 40),
			Hit: rgb(248, 248, 248), Hurt: rgb(210, 30, 40),
		},
		Figure: FigureStick, HitShape: ShapeDiamond, HurtShape: ShapeCross, Icons: IconsRow,
		D6: []DieLook{
			{Body: rgb(250, 248, 240), Ink: rgb(20, 20, 70), Finish: FinishSolid},
			{Body: rgb(20, 70, 40), Ink: rgb(240, 210, 90), Finish: FinishSolid},
			{Body: rgb(230, 120, 30), Ink: rgb(20, 20, 20), Finish: FinishSolid},
			{Body: rgb(220, 60, 60), Ink: rgb(255, 255, 255), Finish: FinishTranslucent},
			{Body: rgb(120, 40, 40), Ink: rgb(250, 250, 250), Finish: FinishMarbled, Accent: rgb(230, 170, 120)},
		},
		BigOne:        true,
		PipsRows:      true,
		PipSize:       0.082,
		D10:           DieLook{Body: rgb(240, 130, 30), Ink: rgb(15, 15, 15), Finish: FinishSolid},
		D20:           DieLook{Body: rgb(245, 245, 240), Ink: rgb(150, 20, 20), Finish: FinishSolid},
		Numeric:       DieLook{Body: rgb(90, 40, 140), Ink: rgb(250, 250, 250), Finish: FinishSolid},
		Numeral:       gocv.FontHersheyTriplex,
		NumeralWeight: 0.028,
		Facets:        false,
		Corner:        0.06,
		Bevel:         0.04,
		SideArt:       false,
	}
}

// StyleWorn is StyleDefault on old dice: faded colours, duller contrast,
// larger rounded corners, plain sides.
func StyleWorn() Style {
	s := StyleDefault()
	s.Name = "worn"
	fade := func(c color.RGBA, k float64) color.RGBA {
		mix := func(v uint8) uint8 { return uint8(math.Round(float64(v)*(1-k) + 150*k)) }
		return color.RGBA{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
	}
	for _, sc := range []*SymbolColors{&s.VATS, &s.Assist} {
		sc.Body = fade(sc.Body, 0.18)
		sc.Ink = fade(sc.Ink, 0.25)
		sc.Highlight = fade(sc.Highlight, 0.3)
		sc.Hit = fade(sc.Hit, 0.25)
		sc.Hurt = fade(sc.Hurt, 0.3)
	}
	d6 := make([]DieLook, len(s.D6))
	for i, l := range s.D6 {
		l.Body, l.Ink = fade(l.Body, 0.15), fade(l.Ink, 0.25)
		d6[i] = l
	}
	s.D6 = d6
	s.Corner = 0.2
	s.Bevel = 0.1
	s.SideArt = false
	return s
}

// Styles lists the style presets.
func Styles() []Style { return []Style{StyleDefault(), StyleAlt(), StyleWorn()} }

func (s Style) validate() error {
	switch {
	case len(s.D6) == 0:
		return specErr("style %q has no d6 looks", s.Name)
	case !(s.PipSize > 0.02 && s.PipSize < 0.2):
		return specErr("style %q: pip size %g outside 0.02…0.2", s.Name, s.PipSize)
	case !(s.Corner >= 0 && s.Corner <= 0.3) || !(s.Bevel >= 0 && s.Bevel <= 0.2):
		return specErr("style %q: corner or bevel out of range", s.Name)
	case !(s.NumeralWeight > 0.005 && s.NumeralWeight < 0.15):
		return specErr("style %q: numeral weight %g outside 0.005…0.15", s.Name, s.NumeralWeight)
	}
	return nil
}

// hash64 is a stable hash of strings, used for seeds derived from names.
func hash64(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// hsv returns an opaque colour from hue (0..360), saturation and value (0..1).
func hsv(h, s, v float64) color.RGBA {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	q := func(f float64) uint8 { return uint8(math.Round(255 * math.Min(1, math.Max(0, f+m)))) }
	return color.RGBA{R: q(r), G: q(g), B: q(b), A: 255}
}

func luma(c color.RGBA) float64 { return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B) }

func mixColor(a, b color.RGBA, t float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{R: m(a.R, b.R), G: m(a.G, b.G), B: m(a.B, b.B), A: 255}
}

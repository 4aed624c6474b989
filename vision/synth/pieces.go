package synth

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gocv.io/x/gocv"

	"tablecam/models"
)

// The other games' pieces that the camera reads once a group teaches them:
// This War of Mine's combat dice and Wasteland Warfare's luck token. None of
// them is a face set of the content pack (their faces are taught by
// example), so the renderer draws them only in scenes that name their sets,
// with a content that has them (WithGamePieces); RandomScene's built-in mix
// never draws them.
//
// The art is structure only: a combat die is a cube in its colour whose
// faces show a number of wound symbols (an eight-pointed burst) or a mark
// (the fate face's "S" in a ring, a hatchet, a shotgun, a crossed-out
// cartridge for out of ammo); the luck token is a flat disc with a ring on
// both sides and a four-leaf clover on its luck side.
const (
	SetCombatGrey   = "twom-grey"   // This War of Mine's grey combat die (unarmed)
	SetCombatYellow = "twom-yellow" // the yellow combat die (melee weapons)
	SetCombatRed    = "twom-red"    // the red combat die (firearms)
	SetLuckToken    = "luck"        // Wasteland Warfare's luck token: sides luck and blank
)

// CombatSets lists the combat dice's face set ids.
func CombatSets() []string { return []string{SetCombatGrey, SetCombatYellow, SetCombatRed} }

func isCombatSet(id string) bool { return slices.Contains(CombatSets(), id) }

// tokenThickness is a token's thickness as a fraction of its diameter (a
// cardboard token); tokenMin and tokenMax bound its diameter in table
// pixels at 720p: a little larger than a die.
const (
	tokenThickness = 0.12
	tokenMin       = 54
	tokenMax       = 76
)

// GamePieceSets returns the face sets of the other games' pieces as the
// content pack's games describe them: each combat die of This War of Mine
// with its faces (a face's wound symbols as its hits), and Wasteland
// Warfare's luck token with its two sides. A game or piece the content
// lacks is left out.
func GamePieceSets(c *models.Content) []models.FaceSet {
	var out []models.FaceSet
	if g, ok := c.Game("twom"); ok {
		for _, d := range g.Dice {
			if !isCombatSet(d.Set) || len(d.Faces) == 0 {
				continue
			}
			fs := models.FaceSet{ID: d.Set, Name: d.ID + " combat die", Kind: models.KindSymbol, Assumed: d.Assumed,
				Note: "rendered stand-in; a group teaches its own die's faces"}
			for _, f := range d.Faces {
				fs.Faces = append(fs.Faces, models.Face{ID: f.ID, Hits: f.Symbols, Label: f.ID})
			}
			out = append(out, fs)
		}
	}
	if g, ok := c.Game("wasteland"); ok {
		if t, ok := g.Token(SetLuckToken); ok && len(t.Sides) == 2 {
			fs := models.FaceSet{ID: SetLuckToken, Name: "luck token", Kind: models.KindSymbol,
				Note: "rendered stand-in; a group teaches its own token's sides"}
			for _, s := range t.Sides {
				fs.Faces = append(fs.Faces, models.Face{ID: s, Label: s})
			}
			out = append(out, fs)
		}
	}
	return out
}

// WithGamePieces returns a copy of c with the face sets of GamePieceSets
// added (a set c already has is kept as it is). c is not changed.
func WithGamePieces(c *models.Content) *models.Content {
	cc := *c
	cc.FaceSets = slices.Clone(c.FaceSets)
	for _, fs := range GamePieceSets(c) {
		if _, ok := c.FaceSet(fs.ID); !ok {
			cc.FaceSets = append(cc.FaceSets, fs)
		}
	}
	return &cc
}

// pieceLook is the colouring of a game piece's set.
func pieceLook(set string) DieLook {
	switch set {
	case SetCombatGrey:
		return DieLook{Body: rgb(150, 150, 146), Ink: rgb(24, 24, 26), Finish: FinishSolid}
	case SetCombatYellow:
		return DieLook{Body: rgb(236, 194, 40), Ink: rgb(32, 26, 20), Finish: FinishSolid}
	case SetCombatRed:
		return DieLook{Body: rgb(184, 32, 36), Ink: rgb(250, 244, 232), Finish: FinishSolid}
	}
	return DieLook{Body: rgb(40, 74, 126), Ink: rgb(240, 222, 150), Finish: FinishSolid}
}

// rimColor is the colour of a token's edge: its body in shade.
func rimColor(l DieLook) color.RGBA {
	return mixColor(l.Body, rgb(0, 0, 0), 0.42)
}

// combatMark reports whether a combat die's face id is a special face.
func combatMark(id string) bool {
	switch id {
	case "fate", "hatchet", "shotgun", "out_of_ammo":
		return true
	}
	return false
}

// drawCombat draws a combat die's face: its wound symbols, its mark, or
// both (the mark above a row of symbols). A face that is neither (a face a
// group added) shows a glyph hashed from its id.
func drawCombat(p *painter, a artSpec, fs models.FaceSet, f models.Face) {
	n := f.Hits
	if v, err := strconv.Atoi(f.ID); n == 0 && err == nil && v > 0 {
		n = v
	}
	mark := ""
	if combatMark(f.ID) {
		mark = f.ID
	}
	ink, body := a.look.Ink, a.look.Body
	switch {
	case mark != "" && n > 0:
		drawMark(p, mark, vec2{0.5, 0.36}, 0.62, ink, body)
		step := 0.2
		x0 := 0.5 - step*float64(n-1)/2
		for i := range n {
			drawBurst(p, vec2{x0 + step*float64(i), 0.78}, 0.08, ink)
		}
	case mark != "":
		drawMark(p, mark, vec2{0.5, 0.5}, 1, ink, body)
	case n > 0 && n <= 6:
		r := []float64{0.17, 0.14, 0.12, 0.11, 0.1, 0.09}[n-1]
		for _, c := range pipLayout(n, false) {
			drawBurst(p, c, r, ink)
		}
	case n > 6:
		cols := int(math.Ceil(math.Sqrt(float64(n))))
		step := 0.7 / float64(cols)
		for i := range n {
			drawBurst(p, vec2{0.15 + step*(float64(i%cols)+0.5), 0.15 + step*(float64(i/cols)+0.5)}, 0.38*step, ink)
		}
	case f.ID != "0" && strings.TrimSpace(f.ID) != "":
		sc := SymbolColors{Body: body, Ink: ink, Highlight: ink, Hit: ink}
		drawGlyph(p, sc, hash64("face", fs.ID, f.ID)|1, vec2{0.5, 0.5}, 0.3)
	}
}

// drawBurst draws a wound symbol: an eight-pointed burst with a hole.
func drawBurst(p *painter, c vec2, r float64, ink color.RGBA) {
	const n = 8
	pts := make([]vec2, 0, 2*n)
	for i := range 2 * n {
		rr := r
		if i%2 == 1 {
			rr = 0.5 * r
		}
		t := -math.Pi/2 + float64(i)*math.Pi/n
		pts = append(pts, c.add(vec2{math.Cos(t), math.Sin(t)}.scale(rr)))
	}
	p.poly(pts, ink)
}

// drawMark draws a special face's mark centred on c at scale k (1: the
// mark fills most of the face).
func drawMark(p *painter, mark string, c vec2, k float64, ink, body color.RGBA) {
	at := func(x, y float64) vec2 { return vec2{c.X + (x-0.5)*k, c.Y + (y-0.5)*k} }
	pts := func(xy ...float64) []vec2 {
		out := make([]vec2, 0, len(xy)/2)
		for i := 0; i+1 < len(xy); i += 2 {
			out = append(out, at(xy[i], xy[i+1]))
		}
		return out
	}
	switch mark {
	case "fate":
		p.circle(c, 0.33*k, ink)
		p.circle(c, 0.27*k, body)
		p.text("S", c, 0.3*k, 0.3*k, gocv.FontHersheyDuplex, math.Max(0.02, 0.05*k), ink, false)
	case "hatchet":
		p.capsule(at(0.34, 0.86), at(0.58, 0.2), 0.045*k, ink)
		p.poly(pts(0.5, 0.14, 0.74, 0.08, 0.86, 0.2, 0.84, 0.42, 0.62, 0.4, 0.56, 0.3), ink)
	case "shotgun":
		p.poly(pts(0.1, 0.78, 0.28, 0.6, 0.4, 0.7, 0.22, 0.92), ink)
		p.capsule(at(0.3, 0.66), at(0.46, 0.52), 0.055*k, ink)
		p.capsule(at(0.4, 0.5), at(0.88, 0.12), 0.024*k, ink)
		p.capsule(at(0.45, 0.56), at(0.92, 0.18), 0.024*k, ink)
	case "out_of_ammo":
		p.poly(pts(0.41, 0.44, 0.44, 0.3, 0.5, 0.2, 0.56, 0.3, 0.59, 0.44), ink)
		p.poly(pts(0.41, 0.47, 0.59, 0.47, 0.59, 0.8, 0.41, 0.8), ink)
		p.poly(pts(0.38, 0.83, 0.62, 0.83, 0.62, 0.88, 0.38, 0.88), ink)
		p.capsule(at(0.2, 0.82), at(0.8, 0.18), 0.075*k, body)
		p.capsule(at(0.2, 0.82), at(0.8, 0.18), 0.04*k, ink)
	}
}

// drawTokenSide draws a side of the luck token: a ring near the edge on
// both sides, and a four-leaf clover on the luck side. Another side (a
// token a group added) shows a glyph hashed from its id.
func drawTokenSide(p *painter, a artSpec, fs models.FaceSet, f models.Face) {
	ink, body := a.look.Ink, a.look.Body
	c := vec2{0.5, 0.5}
	p.circle(c, 0.41, ink)
	p.circle(c, 0.375, body)
	switch f.ID {
	case "blank":
	case "luck":
		p.capsule(vec2{0.5, 0.52}, vec2{0.6, 0.76}, 0.025, ink)
		for _, d := range []vec2{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			p.circle(c.add(d.scale(0.085)), 0.1, ink)
		}
		p.circle(c, 0.03, body)
	default:
		sc := SymbolColors{Body: body, Ink: ink, Highlight: ink, Hit: ink}
		drawGlyph(p, sc, hash64("face", fs.ID, f.ID)|1, c, 0.24)
	}
}

// paintDisc fills a token's side: a round body with a darker bevel at its
// edge, transparent outside the circle.
func paintDisc(bgr, alpha *gocv.Mat, d int, a artSpec, st *Style) error {
	px, err1 := bgr.DataPtrUint8()
	al, err2 := alpha.DataPtrUint8()
	if err1 != nil || err2 != nil || len(px) != 3*d*d || len(al) != d*d {
		return fmt.Errorf("synth: body canvas not continuous")
	}
	fd := float64(d)
	r := fd / 2
	bevel := math.Max(1, 0.06*fd)
	body := [3]float64{float64(a.look.Body.B), float64(a.look.Body.G), float64(a.look.Body.R)}
	for y := range d {
		for x := range d {
			e := r - math.Hypot(float64(x)+0.5-r, float64(y)+0.5-r) // distance inside the edge
			cov := math.Min(1, math.Max(0, e+0.5))
			sh := 1.0
			if e < bevel {
				sh = 0.74 + 0.26*math.Sqrt(math.Max(0, e)/bevel)
			}
			i := y*d + x
			for ch := range 3 {
				px[3*i+ch] = uint8(math.Round(body[ch] * sh))
			}
			al[i] = uint8(math.Round(255 * cov))
		}
	}
	return nil
}

// discGeometry projects a token lying flat: its top side's square (the
// art's frame; the drawn side is the circle inside it), its rims and their
// hull.
func (c *cube) discGeometry(cam *camera, light vec3) cubeGeom {
	r := c.size / 2
	hz := c.flat * c.size
	yaw := rotation(vec3{0, 0, 1}, c.yaw*math.Pi/180)
	right, down := yaw.mulVec(vec3{1, 0, 0}), yaw.mulVec(vec3{0, 1, 0})
	top := vec3{c.base.X, c.base.Y, c.lift + hz}
	var g cubeGeom
	var q [4]vec2
	for j, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		q[j] = cam.project(top.add(right.scale(s[0] * r)).add(down.scale(s[1] * r)))
	}
	const n = 32
	pts := make([]vec2, 0, 2*n)
	for i := range n {
		t := float64(i) * 2 * math.Pi / n
		off := right.scale(r * math.Cos(t)).add(down.scale(r * math.Sin(t)))
		for _, z := range []float64{c.lift, c.lift + hz} {
			w := vec3{c.base.X + off.X, c.base.Y + off.Y, z}
			g.disc = append(g.disc, w)
			pts = append(pts, cam.project(w))
		}
	}
	g.hull = convexHull(pts)
	g.rim = g.hull
	g.box = bounds(g.hull)
	norm := 0.45 + 0.55*math.Max(0.2, light.Z)
	g.top = cubeFace{face: c.faces[0], quad: q, shade: math.Min(1.12, (0.45+0.55*math.Max(0, light.Z))/norm), up: 1}
	g.center = cam.project(top)
	g.visible = []cubeFace{g.top}
	g.topSide = (q[1].sub(q[0]).len() + q[2].sub(q[1]).len() + q[3].sub(q[2]).len() + q[0].sub(q[3]).len()) / 4
	return g
}

package synth

import (
	"errors"
	"image"
	"math"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
)

// The pieces' face sets come from the content's games: the combat dice with
// their faces (symbols as hits), the luck token with its two sides; c is
// not changed and a set it has already is kept.
func TestGamePieceSets(t *testing.T) {
	c := content(t)
	n := len(c.FaceSets)
	pc := WithGamePieces(c)
	if len(c.FaceSets) != n {
		t.Fatal("WithGamePieces changed its content")
	}
	want := map[string][]string{
		SetCombatGrey:   {"0", "1", "2", "fate"},
		SetCombatYellow: {"0", "1", "2", "hatchet", "fate"},
		SetCombatRed:    {"0", "1", "2", "shotgun", "out_of_ammo", "fate"},
		SetLuckToken:    {"luck", "blank"},
	}
	for id, faces := range want {
		if _, ok := c.FaceSet(id); ok {
			t.Errorf("the content pack has %s: the renderer's random mix could draw it", id)
		}
		fs, ok := pc.FaceSet(id)
		if !ok || !slices.Equal(fs.FaceIDs(), faces) {
			t.Errorf("%s: faces %v, want %v", id, fs.FaceIDs(), faces)
		}
	}
	if f, _ := mustSet(t, pc, SetCombatRed).Face("2"); f.Hits != 2 {
		t.Errorf("the red die's 2 has %d hits", f.Hits)
	}
	if again := WithGamePieces(pc); len(again.FaceSets) != len(pc.FaceSets) {
		t.Errorf("WithGamePieces twice: %d sets, want %d", len(again.FaceSets), len(pc.FaceSets))
	}
}

// The built-in random mix never draws a game piece, even from a content
// that has them, except in its "anything of the content pack" branch.
func TestGamePiecesNotInDefaultMix(t *testing.T) {
	c := content(t)
	for seed := int64(0); seed < 300; seed++ {
		for _, d := range RandomScene(c, seed).Dice {
			if isCombatSet(d.Set) || d.Set == SetLuckToken {
				t.Fatalf("seed %d draws %s", seed, d.Set)
			}
		}
	}
}

// Every face of every piece differs from the others of its set, in every
// style, and the dice show their colours.
func TestGamePieceFacesDistinct(t *testing.T) {
	c := WithGamePieces(content(t))
	for _, st := range Styles() {
		for _, fs := range GamePieceSets(c) {
			var faces []gocv.Mat
			for _, f := range fs.Faces {
				m, err := RenderFace(c, fs.ID, f.ID, st, 64)
				if err != nil {
					t.Fatal(err)
				}
				faces = append(faces, m)
			}
			for i := range faces {
				for j := range i {
					if n := differingPixels(faces[i], faces[j]); n < 41 {
						t.Errorf("style %s, %s: faces %s and %s look alike (%d pixels differ)", st.Name, fs.ID, fs.Faces[j].ID, fs.Faces[i].ID, n)
					}
				}
			}
			for _, m := range faces {
				m.Close()
			}
		}
	}
	px := func(set, face string, x, y float64) [3]uint8 {
		m, err := RenderFace(c, set, face, StyleDefault(), 100)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		v := m.GetVecbAt(int(y*100), int(x*100))
		return [3]uint8{v[0], v[1], v[2]}
	}
	dark := func(v [3]uint8) bool { return int(v[0])+int(v[1])+int(v[2]) < 150 }
	light := func(v [3]uint8) bool { return int(v[0])+int(v[1])+int(v[2]) > 600 }
	// BGR: the red die is red, the yellow die yellow, the grey die grey.
	if v := px(SetCombatRed, "0", 0.5, 0.5); v[2] < 150 || v[1] > 60 || v[0] > 60 {
		t.Errorf("red die body %v", v)
	}
	if v := px(SetCombatYellow, "0", 0.5, 0.5); v[2] < 200 || v[1] < 160 || v[0] > 80 {
		t.Errorf("yellow die body %v", v)
	}
	if v := px(SetCombatGrey, "0", 0.5, 0.5); math.Abs(float64(v[2])-float64(v[0])) > 10 || v[1] < 120 || v[1] > 170 {
		t.Errorf("grey die body %v", v)
	}
	// One symbol in the middle; two on the diagonal, none in the middle.
	if !dark(px(SetCombatGrey, "1", 0.5, 0.5)) || dark(px(SetCombatGrey, "2", 0.5, 0.5)) || !dark(px(SetCombatGrey, "2", 0.75, 0.25)) {
		t.Error("the grey die's wound symbols are not where they belong")
	}
	if !light(px(SetCombatRed, "1", 0.5, 0.5)) {
		t.Error("the red die's symbol is not light on red")
	}
	// The luck side has its clover in the middle; the blank side has none.
	if !light(px(SetLuckToken, "luck", 0.43, 0.43)) || light(px(SetLuckToken, "blank", 0.43, 0.43)) {
		t.Error("luck token sides")
	}
}

// A token is a flat disc: round (the table shows at its square's corners),
// a little larger than a die, its truth at its centre, and the empty table
// where it lies shows no token.
func TestTokenIsRound(t *testing.T) {
	c := WithGamePieces(content(t))
	s := Scene{Seed: 41, Background: BackgroundPaper, NoShadows: true,
		Dice: []DieSpec{{Set: SetLuckToken, Face: "luck", Center: image.Pt(640, 360)}, {Set: SetCombatRed, Face: "2", Center: image.Pt(300, 300)}}}
	m, tr := renderT(t, c, s)
	defer m.Close()
	e, err := RenderEmpty(s)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tok := tr.Dice[0]
	if tok.Set != SetLuckToken || tok.Face != "luck" || tok.Value != 0 || tok.Visible < 0.99 {
		t.Fatalf("token truth %+v", tok)
	}
	if d := tok.Center.Sub(image.Pt(640, 360)); d.X*d.X+d.Y*d.Y > 2 {
		t.Errorf("token centre %v, placed at (640,360)", tok.Center)
	}
	if tok.Size < tokenMin*0.95 || tok.Size > tokenMax*1.1 {
		t.Errorf("token size %.1f outside %d…%d", tok.Size, tokenMin, tokenMax)
	}
	// The box is about the disc (with its edge), not a cube's.
	if w, h := tok.Box.Dx(), tok.Box.Dy(); math.Abs(float64(w)-tok.Size) > 0.25*tok.Size || math.Abs(float64(h)-tok.Size) > 0.25*tok.Size {
		t.Errorf("token box %v for a %.0f px token", tok.Box, tok.Size)
	}
	// Just inside each corner of the square the table shows; halfway to
	// the centre the token does.
	ctr := vec2{float64(tok.Center.X) + 0.5, float64(tok.Center.Y) + 0.5}
	for _, q := range tok.Corners {
		qc := vec2{float64(q.X) + 0.5, float64(q.Y) + 0.5}
		in := qc.lerp(ctr, 0.08).pixel()
		if d := meanDiff(m, e, image.Rect(in.X-1, in.Y-1, in.X+2, in.Y+2)); d > 3 {
			t.Errorf("corner %v of the token's square: %.1f from the table", q, d)
		}
		mid := qc.lerp(ctr, 0.5).pixel()
		if d := meanDiff(m, e, image.Rect(mid.X-1, mid.Y-1, mid.X+2, mid.Y+2)); d < 30 {
			t.Errorf("inside the token at %v: %.1f from the table", mid, d)
		}
	}
	// The die beside it is a cube as before: its square's corner is die.
	die := tr.Dice[1]
	in := vec2{float64(die.Corners[0].X) + 0.5, float64(die.Corners[0].Y) + 0.5}.lerp(vec2{float64(die.Center.X), float64(die.Center.Y)}, 0.15).pixel()
	if d := meanDiff(m, e, image.Rect(in.X-1, in.Y-1, in.X+2, in.Y+2)); d < 30 {
		t.Errorf("the die's corner shows the table (%.1f)", d)
	}
	// Truth alone agrees with the drawn frame's.
	_, tr2, err := renderTruthOnly(c, s)
	if err != nil {
		t.Fatal(err)
	}
	if tr2.Dice[0] != tok {
		t.Errorf("truth only %+v, drawn %+v", tr2.Dice[0], tok)
	}
}

// A token is thrown as a die is: it slides in flipping over (its sides
// alternate) and lands flat showing the side asked for. A throw of Count
// dice leaves the others off the table until a later throw: the token
// comes after the die.
func TestTokenThrownInSequence(t *testing.T) {
	c := WithGamePieces(content(t))
	seq, err := NewSequence(c, SequenceSpec{Scene: Scene{Seed: 3, Width: 640, Height: 360,
		Dice: []DieSpec{{Set: SetCombatRed, Face: "2"}, {Set: SetLuckToken, Face: "blank"}}},
		Script: []Step{{Kind: StepThrow, Count: 1}, {Kind: StepWait, Frames: 10}, {Kind: StepThrow}, {Kind: StepWait, Frames: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	settles := seq.Settles()
	if len(settles) != 2 {
		t.Fatalf("settles %v, want the die's and the token's", settles)
	}
	first := seq.Truth(settles[0])
	if len(first.Dice) != 1 || first.Dice[0].Set != SetCombatRed {
		t.Errorf("after the first throw: %+v, want the red die alone", first.Dice)
	}
	sides := map[string]bool{}
	for i := settles[0]; i < settles[1]; i++ {
		for _, d := range seq.Truth(i).Dice {
			if d.Set == SetLuckToken && d.Moving {
				sides[d.Face] = true
			}
		}
	}
	if !sides["luck"] || !sides["blank"] {
		t.Errorf("the thrown token showed %v, want both sides while it flips", sides)
	}
	last := seq.Truth(seq.Len() - 1)
	if len(last.Dice) != 2 || last.Dice[1].Face != "blank" || last.Dice[1].Moving || last.Dice[1].Visible < 0.99 {
		t.Errorf("at rest: %+v, want the token lying on its blank side beside the die", last.Dice)
	}
	m, _, err := seq.Frame(seq.Len() - 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if _, err := NewSequence(c, SequenceSpec{Scene: Scene{Seed: 1, Dice: []DieSpec{{Set: SetLuckToken}}},
		Script: []Step{{Kind: StepThrow, Count: -1}}}); !errors.Is(err, ErrSpec) {
		t.Errorf("a negative count: %v", err)
	}
}

func mustSet(t *testing.T, c *models.Content, id string) models.FaceSet {
	t.Helper()
	fs, ok := c.FaceSet(id)
	if !ok {
		t.Fatalf("no face set %s", id)
	}
	return fs
}

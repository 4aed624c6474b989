package vision

import (
	"testing"

	"tablecam/models"
)

// drawAssistFace paints a 32×32 patch: green body, a dark dot at (dx, dy) (patch
// pixels) and, with bolt, a pale yellow bar across the lower part.
func drawAssistFace(dx, dy int, bolt bool) *facePatch {
	var p facePatch
	for y := range facePatchSize {
		for x := range facePatchSize {
			b, g, r := byte(64), byte(150), byte(52)
			if (x-dx)*(x-dx)+(y-dy)*(y-dy) <= 9 {
				b, g, r = 20, 26, 18
			}
			if bolt && y >= 21 && y <= 27 && x >= 14 && x <= 18 {
				b, g, r = 120, 236, 250
			}
			o := 3 * (y*facePatchSize + x)
			p[o], p[o+1], p[o+2] = b, g, r
		}
	}
	return &p
}

// A face that differs from another by a small symbol (a dot, and the dot
// higher up with a bolt below) is read with conflict when the query lacks
// the symbol, however well the rest fits; a query that shows it has none.
func TestConflictWhereTwoFacesDiffer(t *testing.T) {
	r := &faceReader{faces: []string{"hit", "hit-hurt"}, augByFace: [][]int{{0}, {1}}, baseFace: []int{0, 1}, augFace: []int{0, 1}}
	var fa, fb featVec
	drawAssistFace(16, 16, false).features(&fa)
	drawAssistFace(16, 10, true).features(&fb)
	r.base = []featVec{fa, fb}
	r.aug = []featVec{fa, fb}
	var tmp [3]featVec
	read := func(p *facePatch) (faceMatch, float64) {
		var ps patchScratch
		ps.patch = *p
		ps.queryFeatures()
		m := r.match(&ps)
		return m, r.conflict(&ps, m, &tmp)
	}
	// The dot high and no bolt: the overall score leans to
	// "hit-hurt", but the bolt's place speaks for "hit".
	m, c := read(drawAssistFace(16, 11, false))
	if r.faces[m.face] != "hit-hurt" {
		t.Fatalf("a high dot without a bolt reads %s; the test wants the misreading", r.faces[m.face])
	}
	if c < maxConflict {
		t.Errorf("conflict %.2f for a hit-hurt reading with no bolt, want ≥ %.2f", c, maxConflict)
	}
	// The bolt there, the dot a little low: hit-hurt without conflict.
	if m, c := read(drawAssistFace(16, 12, true)); r.faces[m.face] != "hit-hurt" || c >= maxConflict {
		t.Errorf("a dot with a bolt reads %s with conflict %.2f, want hit-hurt below %.2f", r.faces[m.face], c, maxConflict)
	}
	// Turned a quarter: the same (templates are turned to the query).
	var turned featVec
	drawAssistFace(16, 12, true).features(&fa)
	rotFeat(&turned, &fa)
	var ps patchScratch
	ps.feat[0] = turned
	for k := 1; k < 4; k++ {
		rotFeat(&ps.feat[k], &ps.feat[k-1])
	}
	if m := r.match(&ps); r.faces[m.face] != "hit-hurt" || r.conflict(&ps, m, &tmp) >= maxConflict {
		t.Errorf("turned: %s, conflict %.2f", r.faces[m.face], r.conflict(&ps, m, &tmp))
	}
	if m, c := read(drawAssistFace(16, 16, false)); r.faces[m.face] != "hit" || c >= maxConflict {
		t.Errorf("a centred dot reads %s with conflict %.2f, want hit below %.2f", r.faces[m.face], c, maxConflict)
	}
}

// A blank face read from a patch with art is not sure; one with a faint
// gradient is, and so is a dot face without conflict.
func TestDoubtful(t *testing.T) {
	var fa, fb, fc featVec
	drawAssistFace(16, 16, false).features(&fa)
	drawAssistFace(16, 10, true).features(&fb)
	blank := drawAssistFace(-10, -10, false)
	blank.features(&fc)
	r := &faceReader{faces: []string{"hit", "hit-hurt", "blank"}, augByFace: [][]int{{0}, {1}, {2}}, baseFace: []int{0, 1, 2}, augFace: []int{0, 1, 2},
		base: []featVec{fa, fb, fc}, aug: []featVec{fa, fb, fc}, flat: []bool{false, false, true}, faintArt: drawAssistFace(16, 16, false).contrast()}
	var tmp [3]featVec
	ps := &patchScratch{patch: *drawAssistFace(16, 16, false)}
	ps.queryFeatures()
	if m := r.match(ps); r.faces[m.face] != "hit" || r.doubtful(ps, m.face, &tmp) {
		t.Errorf("a centred dot reads %s, doubtful, want a sure hit", r.faces[m.face])
	}
	if !r.doubtful(ps, 2, &tmp) {
		t.Errorf("a dot read as blank (contrast %.3f, faintest art %.3f): sure, want doubtful", ps.patch.contrast(), r.faintArt)
	}
	grad := *blank
	for y := range facePatchSize {
		for x := range facePatchSize {
			grad[3*(y*facePatchSize+x)+1] += byte(y / 4)
		}
	}
	ps = &patchScratch{patch: grad}
	ps.queryFeatures()
	if r.doubtful(ps, 2, &tmp) {
		t.Errorf("a blank face with a gradient (contrast %.3f, faintest art %.3f): doubtful, want sure", grad.contrast(), r.faintArt)
	}
}

// A die whose best faces in two sets score alike (a V.A.T.S. "1h" and a d6
// "1" are both one dot) is read as the set its body colour belongs to, and
// surely only when its colour is none of the other set's bodies.
func TestPickSetByBody(t *testing.T) {
	yellow := DieColour{RG: 0.19, YB: 0.77, Value: 246}
	blue := colourOf(220, 120, 70)
	vats := &faceReader{body: []DieColour{yellow}, threshold: 0.5}
	d6 := &faceReader{body: []DieColour{blue}, threshold: 0.5}
	d6yellow := &faceReader{body: []DieColour{blue, yellow}, threshold: 0.5}
	patch := func(b, g, r byte) *facePatch {
		var p facePatch
		for i := 0; i < facePatchSize*facePatchSize; i++ {
			p[3*i], p[3*i+1], p[3*i+2] = b, g, r
		}
		return &p
	}
	scored := func(s float64) faceMatch { return faceMatch{face: 0, score: s, margin: 0.4} }
	for _, c := range []struct {
		name     string
		p        *facePatch
		br, ru   *faceReader
		bs, rs   float64
		want     *faceReader
		wantSure bool
	}{
		{"yellow die, d6 scores higher", patch(34, 200, 246), d6, vats, 0.97, 0.96, vats, true},
		{"yellow die, V.A.T.S. scores higher", patch(34, 200, 246), vats, d6, 0.97, 0.96, vats, true},
		{"white die: no set's body, not yellow", patch(230, 238, 240), d6, vats, 0.97, 0.96, d6, true},
		{"yellow die, d6 taught yellow too", patch(34, 200, 246), d6yellow, vats, 0.97, 0.96, d6yellow, false},
		{"clear margin: the score decides", patch(34, 200, 246), d6, vats, 0.97, 0.5, d6, true},
	} {
		got, _, sure := pickSet(c.p, c.br, scored(c.bs), c.ru, scored(c.rs))
		if got != c.want || sure != c.wantSure {
			t.Errorf("%s: picked the other set or sure=%v, want sure=%v", c.name, sure, c.wantSure)
		}
	}
}

// Combat dice of three colours whose faces look alike (a symbol on the
// grey, the yellow and the red die) are told apart by the die's colour,
// also when one set keeps no body colour (grey bodies are not kept): the
// grey die's set is then compared by its tones, not taken as near to every
// die. A yellow or red die is never the grey die's, whichever set's face
// scores higher, and a grey die is the grey die's; each surely.
func TestPickSetCombatColours(t *testing.T) {
	grey, yellow, red := colourOf(146, 150, 150), colourOf(40, 194, 236), colourOf(36, 32, 184)
	reader := func(id string, tone DieColour, body bool) *faceReader {
		r := &faceReader{set: models.FaceSet{ID: id}, threshold: 0.5, tones: []DieColour{tone}}
		if body {
			r.body = []DieColour{tone}
		}
		return r
	}
	g, y, r := reader("twom-grey", grey, false), reader("twom-yellow", yellow, true), reader("twom-red", red, true)
	patch := func(b, gr, rd byte) *facePatch {
		var p facePatch
		for i := 0; i < facePatchSize*facePatchSize; i++ {
			p[3*i], p[3*i+1], p[3*i+2] = b, gr, rd
		}
		return &p
	}
	scored := func(s float64) faceMatch { return faceMatch{face: 0, score: s, margin: 0.4} }
	for _, c := range []struct {
		name   string
		p      *facePatch
		br, ru *faceReader
		want   *faceReader
	}{
		{"yellow die, yellow scores higher", patch(40, 194, 236), y, g, y},
		{"yellow die, grey scores higher", patch(40, 194, 236), g, y, y},
		{"red die, red scores higher", patch(36, 32, 184), r, g, r},
		{"red die, grey scores higher", patch(36, 32, 184), g, r, r},
		{"grey die, yellow scores higher", patch(146, 150, 150), y, g, g},
		{"grey die, red scores higher", patch(146, 150, 150), r, g, g},
		{"grey die, grey scores higher", patch(146, 150, 150), g, y, g},
	} {
		got, _, sure := pickSet(c.p, c.br, scored(0.97), c.ru, scored(0.96))
		if got != c.want || !sure {
			t.Errorf("%s: read as %s (sure %v), want %s, sure", c.name, got.set.ID, sure, c.want.set.ID)
		}
	}
}

// A blank face is the blank face of the set whose body colour it shows,
// also when another set with a blank face has a white, grey or black body
// (which is kept for telling sets apart, not for finding dice): a yellow or
// red combat die with no symbol is not the grey die's. A colour two sets'
// bodies share makes the reading unsure.
func TestBlankFaceByBodyColour(t *testing.T) {
	blank := func(id string, tones ...DieColour) *faceReader {
		var body []DieColour
		for _, c := range tones {
			if c.RG*c.RG+c.YB*c.YB >= 0.25*0.25 {
				body = append(body, c)
			}
		}
		return &faceReader{set: models.FaceSet{ID: id, Faces: []models.Face{{ID: "0"}}}, values: []int{0},
			flatFace: 0, threshold: 0.5, body: body, tones: tones}
	}
	grey, yellow, red := colourOf(146, 150, 150), colourOf(40, 194, 236), colourOf(36, 32, 184)
	d := &DiceDetector{dieFinder: dieFinder{hasRef: true}, readers: []*faceReader{
		blank("twom-grey", grey), blank("twom-yellow", yellow), blank("twom-red", red)}}
	fill := func(b, g, r byte) {
		for i := 0; i < facePatchSize*facePatchSize; i++ {
			d.ps.patch[3*i], d.ps.patch[3*i+1], d.ps.patch[3*i+2] = b, g, r
		}
	}
	rect := dieRect{C: diePt{50, 50}, U: diePt{1, 0}, HU: 15, HV: 15}
	for _, c := range []struct {
		name    string
		b, g, r byte
		want    string
		sure    bool
	}{
		{"grey", 140, 144, 144, "twom-grey", true},
		{"yellow", 44, 190, 230, "twom-yellow", true},
		{"red, dimmer", 30, 28, 150, "twom-red", true},
	} {
		fill(c.b, c.g, c.r)
		die, ok := d.readBlank(dieImage{}, 0, rect, dieCandidate{rect: rect})
		if !ok || die.Set != c.want || die.Uncertain == c.sure {
			t.Errorf("%s blank face: %s (ok %v, uncertain %v), want %s sure %v", c.name, die.Set, ok, die.Uncertain, c.want, c.sure)
		}
	}
	// A second yellow set: a yellow blank face is either.
	d.readers = append(d.readers, blank("other-yellow", colourOf(50, 200, 240)))
	fill(44, 190, 230)
	if die, ok := d.readBlank(dieImage{}, 0, rect, dieCandidate{rect: rect}); !ok || !die.Uncertain {
		t.Errorf("a yellow blank face among two yellow sets: %+v, want it unsure", die)
	}
	// The grey die's tones come from its examples though its body is not kept.
	ex := []DieExample{{Face: "0", Crop: make([]byte, 3*exampleCrop*exampleCrop)}}
	for i := 0; i < exampleCrop*exampleCrop; i++ {
		ex[0].Crop[3*i], ex[0].Crop[3*i+1], ex[0].Crop[3*i+2] = 146, 150, 150
	}
	if len(bodyColours(ex)) != 0 || len(exampleColours(ex, true)) != 1 {
		t.Errorf("a grey die: body %v, tones %v; want no body and one tone", bodyColours(ex), exampleColours(ex, true))
	}
}

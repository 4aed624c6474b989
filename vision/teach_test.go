package vision_test

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/defaults"
	"tablecam/vision/evaluate"
	"tablecam/vision/synth"
)

// diceWriteExamples writes teaching pictures of set (frames with one die,
// rendered on training seeds without a reference frame) to
// dir/<face>/<n>.png.
func diceWriteExamples(t testing.TB, c *models.Content, set string, style synth.Style, perFace int, seed int64, dir string) {
	t.Helper()
	// Pictures on the plain tables: on a plaid cloth or a busy playmat a
	// picture without a reference frame of the table may hold several
	// die-like things (teaching then names the picture and stops).
	ex, err := defaults.Examples(c, set, defaults.Options{Style: style, PerFace: perFace, Seed: seed, NoBackground: true,
		Tables: []synth.Background{synth.BackgroundWood, synth.BackgroundFelt, synth.BackgroundSlate, synth.BackgroundPaper}})
	if err != nil {
		t.Fatal(err)
	}
	defer defaults.Release(ex)
	for i, e := range ex {
		d := filepath.Join(dir, e.Face)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if !gocv.IMWrite(filepath.Join(d, fmt.Sprintf("%03d.png", i)), e.Image) {
			t.Fatal("cannot write an example")
		}
	}
}

// diceCustomContent is the content pack with a face set the reader has
// never seen (the renderer draws its faces as hashed glyphs).
func diceCustomContent(t testing.TB) *models.Content {
	t.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	err = c.MergeYAML("runes.yaml", []byte(`
face_sets:
  - id: runes
    name: rune die
    kind: symbol
    faces:
      - {id: sun, hits: 1}
      - {id: moon}
      - {id: star, hurt: 1}
      - {id: tree, regions: [torso]}
      - {id: river}
      - {id: stone, hits: 2}
`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTeachDiceNewStyle is the teaching target: V.A.T.S. dice drawn with
// art the reader has never seen (synth.StyleAlt), taught from five pictures
// per face (frames without a reference, on the plain tables), are read at
// 99% or better per die on held-out scenes (100; -eval-scenes N for
// another count) on every table, in varied light and tilt.
func TestTeachDiceNewStyle(t *testing.T) {
	c, _ := diceDefaultProfiles(t)
	dir := t.TempDir()
	diceWriteExamples(t, c, "vats", synth.StyleAlt(), 5, synth.TrainSeedMin+300000, dir)
	var lines []string
	p, sc, err := vision.TeachDice(c, "vats", dir, func(s string) { lines = append(lines, s) })
	if err != nil {
		t.Fatal(err)
	}
	log := strings.Join(lines, "\n")
	if !strings.Contains(log, "self-check") || !strings.Contains(log, "closest:") {
		t.Errorf("progress lacks the self-check:\n%s", log)
	}
	t.Logf("teaching: %d examples kept; %s", len(p.Examples), strings.TrimSpace(sc.String()))
	if p.Custom {
		t.Error("vats is in the content pack, not custom")
	}
	if sc.Accuracy() < 0.9 {
		t.Errorf("self-check accuracy %.2f", sc.Accuracy())
	}
	// The default run: 100 scenes; -eval-scenes 300 for the full measure.
	scenes := positiveOr(*evalScenes, 100)
	if testing.Short() {
		scenes = 40
	}
	var rs []evaluate.Result
	for _, ref := range []bool{true, false} {
		r, err := evaluate.Run(c, []*vision.DiceProfile{p}, evaluate.Spec{Set: "vats", Condition: evaluate.Varied(), Scenes: scenes,
			Seed: synth.EvalSeedMin + 400000, Style: synth.StyleAlt(), Reference: ref})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	t.Logf("taught StyleAlt V.A.T.S. (5 pictures per face), held-out scenes:\n%s", evaluate.Table(rs))
	if a := rs[0].Accuracy(); a < 0.99 {
		t.Errorf("taught style read at %.2f%% per die with a reference frame, want ≥ 99%%", 100*a)
	}
	for _, r := range rs {
		if w := r.WrongConfidentRate(); w > 0.005 {
			t.Errorf("ref=%v: %.2f%% wrong but confident", r.Reference, 100*w)
		}
	}
}

// TestTeachDiceCustomSet teaches a set the content pack does not have: the
// directory names become its faces.
func TestTeachDiceCustomSet(t *testing.T) {
	custom := diceCustomContent(t)
	plain, _ := diceDefaultProfiles(t)
	dir := t.TempDir()
	diceWriteExamples(t, custom, "runes", synth.StyleDefault(), 5, synth.TrainSeedMin+310000, dir)
	p, sc, err := vision.TeachDice(plain, "runes", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Custom || p.Set.Kind != models.KindSymbol || len(p.Set.Faces) != 6 {
		t.Fatalf("custom set: custom %v kind %q with %d faces", p.Custom, p.Set.Kind, len(p.Set.Faces))
	}
	t.Logf("%s", strings.TrimSpace(sc.String()))
	// Stored and loaded, it reads new scenes (the renderer needs the
	// content that knows the set; the reader does not).
	data := t.TempDir()
	if err := p.Save(vision.ProfileDir(data, "runes")); err != nil {
		t.Fatal(err)
	}
	loaded, err := vision.LoadDiceProfile(vision.ProfileDir(data, "runes"))
	if err != nil {
		t.Fatal(err)
	}
	det, err := vision.NewDiceDetector(plain, []*vision.DiceProfile{loaded}, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	right, total := 0, 0
	for i := range 30 {
		sc := synth.Scene{Seed: synth.EvalSeedMin + 410000 + int64(i), Noise: 2, Background: synth.Backgrounds()[i%6],
			Dice: []synth.DieSpec{{Set: "runes"}, {Set: "runes"}, {Set: "runes"}}}
		img, bg, truth := diceRender(t, custom, sc)
		det.SetBackground(bg)
		rd, err := det.Read(img)
		img.Close()
		bg.Close()
		if err != nil {
			t.Fatal(err)
		}
		m := diceMatchTruth(truth.Dice, rd.Dice)
		for k, tr := range truth.Dice {
			total++
			if m[k] < 0 {
				continue
			}
			d := rd.Dice[m[k]]
			if d.Face == tr.Face && !d.Uncertain {
				right++
			}
			if d.Face != tr.Face && !d.Uncertain {
				t.Errorf("scene %d: %s read as %s, certain", i, tr.Face, d.Face)
			}
		}
	}
	if float64(right) < 0.95*float64(total) {
		t.Errorf("custom set: %d of %d dice read right", right, total)
	}
}

func TestTeachDiceErrors(t *testing.T) {
	c, _ := diceDefaultProfiles(t)
	// A face the set does not have.
	dir := t.TempDir()
	diceWriteExamples(t, c, "assist", synth.StyleDefault(), 1, synth.TrainSeedMin+320000, dir)
	if err := os.Mkdir(filepath.Join(dir, "crit"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := vision.TeachDice(c, "assist", dir, nil); err == nil || !strings.Contains(err.Error(), "crit") {
		t.Errorf("unknown face: error %v", err)
	}
	os.Remove(filepath.Join(dir, "crit"))
	// A picture without a die, and one with two dice.
	empty, err := synth.RenderEmpty(synth.Scene{Seed: 5, Background: synth.BackgroundPaper})
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "blank", "empty-table.png")
	gocv.IMWrite(bad, empty)
	empty.Close()
	_, _, err = vision.TeachDice(c, "assist", dir, nil)
	if err == nil || !strings.Contains(err.Error(), "empty-table.png") || !strings.Contains(err.Error(), "no die") {
		t.Errorf("picture without a die: error %v", err)
	}
	two, _, err := synth.Render(c, synth.Scene{Seed: 6, Background: synth.BackgroundPaper,
		Dice: []synth.DieSpec{{Set: "assist", Face: "blank"}, {Set: "assist", Face: "blank"}}})
	if err != nil {
		t.Fatal(err)
	}
	gocv.IMWrite(bad, two)
	two.Close()
	_, _, err = vision.TeachDice(c, "assist", dir, nil)
	if err == nil || !strings.Contains(err.Error(), "empty-table.png") || !strings.Contains(err.Error(), "exactly one") {
		t.Errorf("picture with two dice: error %v", err)
	}
	// A face without pictures.
	os.RemoveAll(filepath.Join(dir, "blank"))
	if _, _, err := vision.TeachDice(c, "assist", dir, nil); err == nil || !strings.Contains(err.Error(), "blank") {
		t.Errorf("face without pictures: error %v", err)
	}
	// Not a directory of faces.
	if _, _, err := vision.TeachDice(c, "assist", t.TempDir(), nil); err == nil {
		t.Error("empty directory: want an error")
	}
	if _, _, err := vision.TeachDice(c, "../x", dir, nil); err == nil {
		t.Error("bad set name: want an error")
	}
}

// TestTeachDiceFromCrops teaches from crops around the die instead of
// whole frames. The crops are taken on tables of another colour than the
// green die: a crop of a green die on green felt or a green patch of the
// playmat has no edge to find it by ("no die found", naming the picture).
func TestTeachDiceFromCrops(t *testing.T) {
	c, _ := diceDefaultProfiles(t)
	fs, _ := c.FaceSet("assist")
	dir := t.TempDir()
	i := 0
	for _, f := range fs.Faces {
		for range 3 {
			tables := []synth.Background{synth.BackgroundWood, synth.BackgroundCloth, synth.BackgroundSlate, synth.BackgroundPaper}
			sc := synth.Scene{Seed: synth.TrainSeedMin + 330000 + int64(i), Background: tables[i%len(tables)], Noise: 2,
				Dice: []synth.DieSpec{{Set: "assist", Face: f.ID}}}
			img, truth, err := synth.Render(c, sc)
			if err != nil {
				t.Fatal(err)
			}
			box := truth.Dice[0].Box.Inset(-12).Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
			crop := img.Region(box)
			d := filepath.Join(dir, f.ID)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			gocv.IMWrite(filepath.Join(d, fmt.Sprintf("%d.png", i)), crop)
			crop.Close()
			img.Close()
			i++
		}
	}
	p, sc, err := vision.TeachDice(c, "assist", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Accuracy() < 0.9 {
		t.Errorf("self-check from crops: %s", sc.String())
	}
	r, err := evaluate.Run(c, []*vision.DiceProfile{p}, evaluate.Spec{Set: "assist", Condition: evaluate.Conditions()[0], Scenes: 40,
		Seed: synth.EvalSeedMin + 420000, Reference: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("taught from crops:\n%s", evaluate.Table([]evaluate.Result{r}))
	if r.Accuracy() < 0.95 {
		t.Errorf("taught from crops: %.1f%% per die", 100*r.Accuracy())
	}
}

package card

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
	"tablecam/vision/synth"
)

func TestCardReadingJSON(t *testing.T) {
	id := 7
	r := Reading{ID: "activation-8", Marker: &id, Dictionary: "DICT_4X4_250", Method: MethodMarker,
		Box: image.Rect(10, 20, 110, 160), Confidence: 0.98765, Kind: marker.KindActivation}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"activation-8","marker":7,"dictionary":"DICT_4X4_250","method":"marker","box":[10,20,110,160],"confidence":0.988}`
	if string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	l := Reading{ID: Unknown, Method: MethodLearned, Box: image.Rect(1, 2, 3, 4), Confidence: 0.5}
	b, _ = json.Marshal([]Reading{l})
	if string(b) != `[{"id":"unknown","method":"learned","box":[1,2,3,4],"confidence":0.5}]` {
		t.Errorf("learned JSON %s", b)
	}
	var back Reading
	if err := json.Unmarshal([]byte(want), &back); err != nil {
		t.Fatal(err)
	}
	if back.ID != r.ID || *back.Marker != 7 || back.Box != r.Box || back.Method != r.Method {
		t.Errorf("round trip %+v", back)
	}
}

func TestCardReaderInputs(t *testing.T) {
	if _, err := NewReader(Options{MinCardWidth: 300, MaxCardWidth: 100}); err == nil {
		t.Error("empty width range accepted")
	}
	if _, err := NewReader(Options{MinMarkerSide: -1}); err == nil {
		t.Error("negative size accepted")
	}
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	empty := gocv.NewMat()
	defer empty.Close()
	if _, err := r.ReadCards(empty); err == nil {
		t.Error("empty image read")
	}
	tiny := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV8UC3)
	defer tiny.Close()
	if _, err := r.ReadCards(tiny); err == nil {
		t.Error("tiny image read")
	}
	f32 := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV32F)
	defer f32.Close()
	if _, err := r.ReadCards(f32); err == nil {
		t.Error("float image read")
	}
	// Grey, BGRA and non-continuous (a region) inputs work.
	s := synth.CardScene{Seed: 1, Dict: marker.Dict4X4_250, Background: synth.BackgroundWood,
		Cards: []synth.CardSpec{{Art: 1, Sticker: true, Marker: 3, Width: 150, Center: image.Pt(400, 360)}}}
	m, _, err := synth.RenderCardScene(s)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	grey, bgra := gocv.NewMat(), gocv.NewMat()
	defer grey.Close()
	defer bgra.Close()
	gocv.CvtColor(m, &grey, gocv.ColorBGRToGray)
	gocv.CvtColor(m, &bgra, gocv.ColorBGRToBGRA)
	region := m.Region(image.Rect(100, 50, 800, 700))
	defer region.Close()
	for name, img := range map[string]gocv.Mat{"bgr": m, "grey": grey, "bgra": bgra, "region": region} {
		got, err := r.ReadCards(img)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != 1 || got[0].ID != "activation-4" || got[0].Marker == nil || *got[0].Marker != 3 || got[0].Dictionary != "DICT_4X4_250" {
			t.Errorf("%s: %+v", name, got)
		}
	}
	r.Close()
	r.Close()
	if _, err := r.ReadCards(m); err == nil {
		t.Error("closed reader read")
	}
}

// TestCardReaderScene reads a scene with stickered and taught cards and an
// untaught one, and checks boxes and the top-left corner of each card.
func TestCardReaderScene(t *testing.T) {
	ix, _ := cardsTeachAll(t, 6, 2)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := synth.CardScene{Seed: cardsEvalSeed + 1, Dict: marker.Dict4X4_250, Background: synth.BackgroundSlate,
		Cards: []synth.CardSpec{
			{Art: 2, Width: 160, Center: image.Pt(250, 250), Angle: 20},
			{Art: 4, Width: 150, Center: image.Pt(650, 450), Angle: 200, Tilt: 25},
			{Art: cardsUntaughtEval + 5, Sticker: true, Marker: 9, Width: 140, Center: image.Pt(1050, 250), Angle: 95},
			{Art: cardsUntaughtEval + 6, Width: 140, Center: image.Pt(1050, 560), Angle: 10},
		}}
	m, truth, err := synth.RenderCardScene(s)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	got, err := r.ReadCards(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{cardsID(2), cardsID(4), "ghoul-2", Unknown}
	for i, tr := range truth {
		var g *Reading
		for k := range got {
			c := image.Pt((got[k].Box.Min.X+got[k].Box.Max.X)/2, (got[k].Box.Min.Y+got[k].Box.Max.Y)/2)
			if c.In(tr.Box) {
				g = &got[k]
			}
		}
		if g == nil {
			t.Errorf("card %d (%s) not found in %+v", i, want[i], got)
			continue
		}
		if g.ID != want[i] {
			t.Errorf("card %d read as %q, want %q", i, g.ID, want[i])
		}
		inter := g.Box.Intersect(tr.Box)
		if float64(inter.Dx()*inter.Dy()) < 0.8*float64(tr.Box.Dx()*tr.Box.Dy()) {
			t.Errorf("card %d: box %v, true box %v", i, g.Box, tr.Box)
		}
		if g.ID != Unknown && cardsCornerDist(g.Corners[0], tr.Corners[0]) > 0.15*tr.Width {
			t.Errorf("card %d: top-left corner %v, truth %v", i, g.Corners[0], tr.Corners[0])
		}
	}
	hide, _ := NewReader(Options{Index: ix, HideUnknown: true})
	defer hide.Close()
	got2, _ := hide.ReadCards(m)
	for _, g := range got2 {
		if g.ID == Unknown {
			t.Errorf("HideUnknown: %+v", g)
		}
	}
}

func cardsCornerDist(a, b geom.Point) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}

// TestTeachCardsDir teaches from a folder per card, saves, loads and reads.
func TestTeachCardsDir(t *testing.T) {
	dir := t.TempDir()
	for a := range int64(4) {
		id := fmt.Sprintf("goal-%d", a+1)
		os.MkdirAll(filepath.Join(dir, id), 0o755)
		for ex := range 2 {
			s := cardsTeachScene(a, ex)
			s.Background = cardsPlain[ex]
			m, _, err := synth.RenderCardScene(s)
			if err != nil {
				t.Fatal(err)
			}
			synth.WritePNG(filepath.Join(dir, id, fmt.Sprintf("photo%d.png", ex)), m)
			m.Close()
		}
	}
	// A crop: the card's art alone.
	os.MkdirAll(filepath.Join(dir, "goal-9"), 0o755)
	art, _ := synth.RenderCardArt(9, 252, 352)
	synth.WritePNG(filepath.Join(dir, "goal-9", "crop.png"), art)
	art.Close()
	// Things to skip: a folder without pictures, a broken picture, a file.
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	os.WriteFile(filepath.Join(dir, "goal-1", "broken.jpg"), []byte("not a jpeg"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	var log []string
	ix, err := index.TeachFolder(dir, func(s string) { log = append(log, s) })
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(log, "\n")
	for _, w := range []string{"goal-1: broken.jpg: skipped: not a readable PNG", "goal-1: taught from 2 of 3 pictures", "goal-9: taught from 1 of 1", "empty: no pictures"} {
		if !strings.Contains(text, w) {
			t.Errorf("progress lacks %q:\n%s", w, text)
		}
	}
	if !reflect.DeepEqual(ix.Cards(), []string{"goal-1", "goal-2", "goal-3", "goal-4", "goal-9"}) {
		t.Errorf("cards %v", ix.Cards())
	}
	ix.Threshold, ix.Ratio = 0.25, 0.7
	save := filepath.Join(t.TempDir(), "profiles", "cards")
	if err := ix.Save(save); err != nil {
		t.Fatal(err)
	}
	back, err := index.Load(save)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Cards(), ix.Cards()) || back.Len() != ix.Len() || back.Threshold != 0.25 || back.Ratio != 0.7 {
		t.Errorf("loaded %v (%d), threshold %v ratio %v", back.Cards(), back.Len(), back.Threshold, back.Ratio)
	}
	man, _ := os.ReadFile(filepath.Join(save, "index.json"))
	if !strings.Contains(string(man), fmt.Sprintf(`"version": %d`, index.Version)) || !strings.Contains(string(man), `"id": "goal-9"`) {
		t.Errorf("manifest:\n%s", man)
	}
	// The loaded index reads a new photo of goal-3 (art 2).
	r, err := NewReader(Options{Index: back})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := synth.CardScene{Seed: cardsEvalSeed + 2, Background: synth.BackgroundSlate, Cards: []synth.CardSpec{{Art: 2, Width: 180, Tilt: 15}}}
	m, _, err := synth.RenderCardScene(s)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	// The loaded index finds goal-3 nearest (whether it is sure enough to
	// name it is the evaluation's business) and names no other card.
	best, bestDist := "", 0.0
	r.traceMatchesForTest(func(_ image.Rectangle, id string, dist, _ float64) { best, bestDist = id, dist })
	got, err := r.ReadCards(m)
	r.traceMatchesForTest(nil)
	if err != nil || len(got) != 1 || (got[0].ID != "goal-3" && got[0].ID != Unknown) || best != "goal-3" || bestDist > 0.5 {
		t.Errorf("read %+v, %v; nearest %s at %.2f", got, err, best, bestDist)
	}

	// Damaged or foreign indexes are refused with a reason.
	os.WriteFile(filepath.Join(save, "descriptors.bin"), []byte("TCCARDS1 short"), 0o644)
	if _, err := index.Load(save); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged data: %v", err)
	}
	os.WriteFile(filepath.Join(save, "index.json"), []byte(`{"format":"tablecam-card-index","version":99,"descriptor":"x"}`), 0o644)
	if _, err := index.Load(save); err == nil || !strings.Contains(err.Error(), "teach the cards again") {
		t.Errorf("other version: %v", err)
	}
	if _, err := index.Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing index loaded")
	}
	if _, err := index.TeachFolder(filepath.Join(dir, "empty"), nil); err == nil {
		t.Error("nothing to teach accepted")
	}
	if err := index.New().AddExample("unknown", m); err == nil {
		t.Error("the id unknown accepted")
	}
}

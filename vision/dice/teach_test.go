package dice

import (
	"math"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// A view is read as the taught face whose prototype (the mean of its
// pictures) is nearest; a view like no taught face is no face; two faces
// about as near make a reading unsure.
func TestTaughtReadsNearestPrototype(t *testing.T) {
	tt := NewTaught("coin")
	add := func(face string, value int, v ...float32) {
		t.Helper()
		if err := tt.Add(face, value, unit(v)); err != nil {
			t.Fatal(err)
		}
	}
	add("heads", 1, 1, 0.1, 0)
	add("heads", 1, 1, -0.1, 0)
	add("tails", 2, 0, 1, 0)
	if tt.Faces[0].Views != 2 || math.Abs(float64(tt.Faces[0].Proto[0])-1) > 1e-6 {
		t.Fatalf("heads prototype %v from %d views, want (1,0,0) from 2", tt.Faces[0].Proto, tt.Faces[0].Views)
	}
	r := tt.Read(unit([]float32{0.9, 0.2, 0}))
	if r.Face != "heads" || r.Value != 1 || r.Confidence < 0.99 {
		t.Errorf("a view near heads read %+v", r)
	}
	r = tt.Read(unit([]float32{0, 0.1, 1}))
	if r.Face != "" || r.Confidence != 0 {
		t.Errorf("a view like no taught face read %+v", r)
	}
	r = tt.Read(unit([]float32{1, 1, 0}))
	if r.Face == "" || r.Confidence > 0.6 {
		t.Errorf("a view halfway between heads and tails read %+v, want a low confidence", r)
	}
	if err := tt.Add("heads", 1, []float32{1, 0}); err == nil || !strings.Contains(err.Error(), "2 values") {
		t.Errorf("an embedding of another length: %v", err)
	}
	if r := NewTaught("none").Read(unit([]float32{1, 0, 0})); r.Face != "" {
		t.Errorf("an empty set read %+v", r)
	}
}

// A taught set saved and loaded reads as before and can be taught more; a
// damaged file is an error that names it and says to teach again.
func TestTaughtSaveLoad(t *testing.T) {
	tt := NewTaught("coin")
	tt.Model = "abc"
	for _, v := range [][]float32{{1, 0.1, 0}, {1, -0.1, 0}} {
		if err := tt.Add("heads", 1, unit(v)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tt.Add("tails", 2, unit([]float32{0, 1, 0})); err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/coin.json"
	if err := tt.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadTaught(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Set != "coin" || got.Model != "abc" || len(got.Faces) != 2 || got.Faces[0].Views != 2 {
		t.Fatalf("loaded %+v", got)
	}
	view := unit([]float32{0.2, 1, 0.1})
	if a, b := tt.Read(view), got.Read(view); a != b || b.Face != "tails" {
		t.Errorf("read %+v after loading, %+v before", b, a)
	}
	if err := got.Add("heads", 1, unit([]float32{1, 0, 0})); err != nil || got.Faces[0].Views != 3 {
		t.Errorf("teaching a loaded set more: %v, %d views", err, got.Faces[0].Views)
	}
	for name, body := range map[string]string{
		"not json":    "{",
		"no faces":    `{"version":1,"set":"coin","scale":16,"min_similarity":0.5,"faces":[]}`,
		"ragged":      `{"version":1,"set":"coin","scale":16,"min_similarity":0.5,"faces":[{"face":"a","views":1,"sum":[1,0]},{"face":"b","views":1,"sum":[1]}]}`,
		"new version": `{"version":2,"set":"coin","scale":16,"faces":[{"face":"a","views":1,"sum":[1]}]}`,
	} {
		bad := t.TempDir() + "/bad.json"
		if err := os.WriteFile(bad, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadTaught(bad)
		if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "teach it again") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Faces of several sets are read as one pool: the nearest face names its
// set, and a face of another set that is about as near lowers the
// confidence.
func TestTaughtPoolAcrossSets(t *testing.T) {
	a, b := NewTaught("a"), NewTaught("b")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(a.Add("x", 0, unit([]float32{1, 0, 0})))
	must(b.Add("y", 0, unit([]float32{0, 1, 0})))
	must(b.Add("z", 0, unit([]float32{0.99, 0.14, 0})))
	set, r := readPool([]*Taught{a, b}, unit([]float32{0, 1, 0.1}))
	if set != b || r.Face != "y" || r.Confidence < 0.99 {
		t.Errorf("read %v %+v, want b's y", set, r)
	}
	set, r = readPool([]*Taught{a, b}, unit([]float32{1, 0.07, 0}))
	if set == nil || r.Confidence > 0.7 {
		t.Errorf("between a's x and b's z: %v %+v, want a low confidence", set, r)
	}
}

// A set taught with another face model is refused, naming the set.
func TestReadTaughtRefusesAnotherModel(t *testing.T) {
	r, err := NewReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tt := NewTaught("coin")
	tt.Model = "another"
	if err := tt.Add("heads", 1, unit([]float32{1, 0})); err != nil {
		t.Fatal(err)
	}
	frame := gocv.NewMatWithSize(64, 64, gocv.MatTypeCV8UC3)
	defer frame.Close()
	_, err = r.ReadTaught(frame, []*Taught{tt})
	if err == nil || !strings.Contains(err.Error(), "coin was taught with another face model") {
		t.Errorf("err = %v", err)
	}
	if len(r.FacesModel()) != 64 {
		t.Errorf("FacesModel() = %q, want a SHA-256 in hex", r.FacesModel())
	}
}

// The built-in reader and one loaded from a folder start with the same
// settings: a sure reading at DefaultMinConfidence, marks dropped as no top
// face at DefaultNoTopFace (a reader with 0 there would drop every mark).
func TestReadersStartWithTheDefaults(t *testing.T) {
	built, err := NewReader()
	if err != nil {
		t.Fatal(err)
	}
	defer built.Close()
	loaded, err := LoadReader("models")
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	for name, r := range map[string]*Reader{"NewReader": built, "LoadReader": loaded} {
		if r.minConf != DefaultMinConfidence || r.noTop != DefaultNoTopFace || r.faces.turns != 4 {
			t.Errorf("%s: min confidence %v, no top face %v, turns %d; want %v, %v, 4", name, r.minConf, r.noTop, r.faces.turns, DefaultMinConfidence, DefaultNoTopFace)
		}
	}
	if built.FacesModel() != loaded.FacesModel() {
		t.Errorf("the built-in face model %s differs from models/%s (%s)", built.FacesModel(), FacesFile, loaded.FacesModel())
	}
}

package dice

import (
	"math"
	"os"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// regressionPhotos is the committed real photos and a reader of the
// built-in models, closed when the test ends.
func regressionPhotos(t *testing.T) ([]Photo, *Reader) {
	t.Helper()
	photos, err := LabelledDir("testdata/real")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return photos, r
}

// The built-in models on 60 real photos they never trained on
// (testdata/real: webcam and phone rigs held out whole, and held-out
// source photos of three other rigs), at the reader's default confidence
// floor. The floors sit a few dice under what the committed models read
// (their figures are in models/MODELS.md), leaving room for another
// CPU's rounding: a change that reads worse fails here.
func TestRealPhotosRegression(t *testing.T) {
	photos, r := regressionPhotos(t)
	rp, err := EvaluateReal(r, photos)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	WriteRealReport(&b, rp)
	t.Log("\n" + b.String())
	all := rp.All()
	const (
		minFound = 80.0
		minRight = 26.0
		maxWrong = 4.5
	)
	if f := pct(all.Found, all.Dice); f < minFound {
		t.Errorf("found %.1f%% of %d dice, floor %.0f%%", f, all.Dice, minFound)
	}
	if f := pct(all.Right, all.Dice); f < minRight {
		t.Errorf("read %.1f%% right, floor %.0f%%", f, minRight)
	}
	if f := pct(all.Wrong, all.Dice); f > maxWrong {
		t.Errorf("read %.1f%% wrong with confidence, ceiling %.0f%%", f, maxWrong)
	}
}

// The same photo gives the same marks and faces, bit for bit, every time.
func TestReaderIsDeterministic(t *testing.T) {
	photos, r := regressionPhotos(t)
	img := gocv.IMRead(photos[0].Path, gocv.IMReadColor)
	defer img.Close()
	read := func() ([]Found, []Face) {
		found, err := r.Find(img)
		if err != nil {
			t.Fatal(err)
		}
		var faces []Face
		for _, f := range found {
			face, err := r.Face(img, f)
			if err != nil {
				t.Fatal(err)
			}
			faces = append(faces, face)
		}
		return found, faces
	}
	f0, c0 := read()
	if len(f0) == 0 {
		t.Fatal("nothing found in", photos[0].Path)
	}
	for range 3 {
		f1, c1 := read()
		if len(f1) != len(f0) {
			t.Fatalf("%d marks, then %d", len(f0), len(f1))
		}
		for i := range f0 {
			if f0[i] != f1[i] || c0[i].Value != c1[i].Value || math.Float64bits(c0[i].Confidence) != math.Float64bits(c1[i].Confidence) {
				t.Fatalf("mark %d: %+v %v, then %+v %v", i, f0[i], c0[i].Confidence, f1[i], c1[i].Confidence)
			}
			for j := range c0[i].Embedding {
				if math.Float32bits(c0[i].Embedding[j]) != math.Float32bits(c1[i].Embedding[j]) {
					t.Fatalf("mark %d: embedding differs", i)
				}
			}
		}
	}
}

// A damaged built-in model is refused by its checksum, naming the file and
// how to get it back; a model that OpenCV cannot read is an error too.
func TestDamagedModelIsNamed(t *testing.T) {
	read := func(name string) []byte {
		b, err := builtIn.ReadFile("models/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	facesONNX, modelSums := read(FacesFile), read("SHA256SUMS")
	bad := read(FinderFile)
	bad[len(bad)/2] ^= 0xff
	_, err := newReaderFrom(map[string][]byte{FinderFile: bad, FacesFile: facesONNX}, modelSums)
	if err == nil || !strings.Contains(err.Error(), "vision/dice/models/finder.onnx is damaged") || !strings.Contains(err.Error(), "git checkout") || !strings.Contains(err.Error(), "make train") {
		t.Errorf("damaged finder: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/"+FinderFile, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/"+FacesFile, facesONNX, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadReader(dir); err == nil || !strings.Contains(err.Error(), FinderFile) {
		t.Errorf("unreadable finder: %v", err)
	}
	if _, err := LoadReader(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is missing") {
		t.Errorf("missing models: %v", err)
	}
}

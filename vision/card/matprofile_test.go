//go:build matprofile

package card

// Run with: go test -tags matprofile -run NoLeak ./vision/card/
// Teaching, reading (stickers, taught, untaught cards, every input type),
// the watcher, saving and loading leave no Mat alive.

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/synth"
)

func cardsCheckNoLeak(t *testing.T, start int) {
	t.Helper()
	if n := gocv.MatProfile.Count(); n != start {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats leaked:\n%s", n-start, b.String())
	}
}

func TestCardsNoLeak(t *testing.T) {
	// Build the codebook and other once-only state before counting.
	warm, _ := NewReader(Options{})
	warm.Close()
	start := gocv.MatProfile.Count()

	dir := t.TempDir()
	for a := range int64(3) {
		id := fmt.Sprintf("goal-%d", a+1)
		os.MkdirAll(filepath.Join(dir, id), 0o755)
		for ex := range 2 {
			s := cardsTeachScene(a, ex)
			m, _, err := synth.RenderCardScene(s)
			if err != nil {
				t.Fatal(err)
			}
			synth.WritePNG(filepath.Join(dir, id, fmt.Sprintf("p%d.png", ex)), m)
			m.Close()
		}
	}
	os.WriteFile(filepath.Join(dir, "goal-1", "broken.png"), []byte("x"), 0o644)
	ix, err := index.TeachFolder(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Save(filepath.Join(dir, "index")); err != nil {
		t.Fatal(err)
	}
	if ix, err = index.Load(filepath.Join(dir, "index")); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	// The whole-frame search (tablecam card) keeps Mats of its own.
	rw, err := NewReader(Options{Index: ix, SearchWholeFrame: true})
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher(r, TrackerConfig{})
	frame := 0
	for seed := range int64(20) {
		cards := []synth.CardSpec{{Art: seed % 3}, {Art: cardsUntaughtEval + seed, Sticker: true, Marker: int(seed)}, {Art: cardsUntaughtEval + 100 + seed}}
		s := synth.RandomCardScene(cardsEvalSeed+seed, cards)
		m, _, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			continue
		}
		for range 3 {
			if _, err := w.Observe(frame, m); err != nil {
				t.Fatal(err)
			}
			frame++
		}
		grey, bgra := gocv.NewMat(), gocv.NewMat()
		gocv.CvtColor(m, &grey, gocv.ColorBGRToGray)
		gocv.CvtColor(m, &bgra, gocv.ColorBGRToBGRA)
		region := m.Region(image.Rect(10, 10, 900, 700))
		for _, img := range []gocv.Mat{grey, bgra, region} {
			if _, err := r.ReadCards(img); err != nil {
				t.Fatal(err)
			}
			if _, err := rw.ReadCards(img); err != nil {
				t.Fatal(err)
			}
		}
		region.Close()
		grey.Close()
		bgra.Close()
		m.Close()
	}
	// Errors do not leak either.
	empty := gocv.NewMat()
	r.ReadCards(empty)
	rw.ReadCards(empty)
	empty.Close()
	r.Close()
	rw.Close()
	cardsCheckNoLeak(t, start)
}

// Reading against the empty table (and its errors, a frame of another
// size, references of every input type, cards followed) leaves no Mat
// alive.
func TestCardsRefNoLeak(t *testing.T) {
	ix, _ := cardsTeachAll(t, 3, 2)
	warm, _ := NewReader(Options{})
	warm.Close()
	start := gocv.MatProfile.Count()
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	followed := 0 // frames whose cards were followed
	for seed := range int64(8) {
		cards := []synth.CardSpec{{Art: seed % 3}, {Art: cardsUntaughtEval + seed, Sticker: true, Marker: int(seed)}, {Art: cardsUntaughtEval + 100 + seed}}
		s := synth.RandomCardScene(cardsCalibSeed+seed, cards)
		m, _, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			continue
		}
		e, err := synth.RenderCardSceneEmpty(s)
		if err != nil {
			t.Fatal(err)
		}
		ref := e
		conv := gocv.NewMat()
		switch seed % 3 {
		case 1:
			gocv.CvtColor(e, &conv, gocv.ColorBGRToGray)
			ref = conv
		case 2:
			gocv.CvtColor(e, &conv, gocv.ColorBGRToBGRA)
			ref = conv
		}
		if _, err := r.ReadCards(m); err != nil { // the frames' size again
			t.Fatal(err)
		}
		if err := r.SetBackground(ref); err != nil {
			t.Fatal(err)
		}
		// Read in full, then its cards followed (stickers read again
		// where they lie).
		for range 3 {
			if _, err := r.ReadCards(m); err != nil {
				t.Fatal(err)
			}
			if r.followedForTest() {
				followed++
			}
		}
		// A frame of another size (the reference dropped), then a
		// reference of the wrong size (refused).
		region := m.Region(image.Rect(10, 10, 900, 700))
		if _, err := r.ReadCards(region); err != nil {
			t.Fatal(err)
		}
		if err := r.SetBackground(e); err == nil {
			t.Fatal("a 1280×720 reference for 890×690 frames was taken")
		}
		region.Close()
		conv.Close()
		e.Close()
		m.Close()
	}
	r.Close()
	cardsCheckNoLeak(t, start)
	if followed == 0 {
		t.Error("no frame's cards were followed")
	}
}

package live_test

import (
	"context"
	"image"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/card"
	"tablecam/vision/marker"
	"tablecam/vision/synth"
)

// frames plays a fixed list of pictures (shared, cloned per read).
type frames struct {
	mats []gocv.Mat
	i    int
}

func (f *frames) Read(ctx context.Context) (frame.Frame, error) {
	if f.i >= len(f.mats) {
		return frame.Frame{}, io.EOF
	}
	fr := frame.Frame{Mat: f.mats[f.i].Clone(), Index: f.i, Time: time.Duration(f.i) * time.Second / 30}
	f.i++
	return fr, nil
}
func (f *frames) Close() error { return nil }

// A card with an ID sticker held up to the real card reader becomes one
// "card" event (issue 4 §3) that carries the frame it was read from, and
// activates the enemies; the preview labels it.
func TestLiveCardShownOnceWithProof(t *testing.T) {
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, _ := tracker.NewCatalog("en")
	sess, err := tracker.OpenSession(context.Background(), st, c, cat, "", "live")
	if err != nil {
		t.Fatal(err)
	}
	ev, _, err := tracker.ParseLine(c, "setup commonwealth loyal railroad survivors alice bob")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Submit(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	mm := marker.DefaultMap()
	id, ok := mm.MarkerFor("activation-4")
	if !ok {
		t.Fatal("no marker for activation-4")
	}
	seed := synth.EvalSeedMin + 31337
	empty, err := synth.RenderEmpty(synth.Scene{Seed: seed, Width: 960, Height: 540})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	shown, _, err := synth.RenderCardScene(synth.CardScene{Seed: seed, Width: 960, Height: 540, Dict: mm.Dict(),
		Cards: []synth.CardSpec{{Art: 4242, Sticker: true, Marker: id, Width: 200, Center: image.Pt(480, 270), Tilt: 10, Finger: true}}})
	if err != nil {
		t.Fatal(err)
	}
	defer shown.Close()
	// Empty table, the card for 25 frames, empty for 20, the card again.
	var list []gocv.Mat
	for i := range 90 {
		m := empty
		if (i >= 5 && i < 30) || i >= 50 && i < 75 {
			m = shown
		}
		list = append(list, m)
	}
	cr, err := card.NewReader(card.Options{Markers: mm})
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	rec := &recorder{}
	proof := t.TempDir()
	var cardLabels []live.Label
	previews := 0
	stats, err := live.Run(context.Background(), live.Options{
		Source: &frames{mats: list}, Session: sess, Announce: rec, FramesDir: proof,
		Dice:  func(gocv.Mat) (vision.Reading, error) { return vision.Reading{}, nil },
		Cards: card.NewWatcher(cr, card.TrackerConfig{StableFrames: 8, GoneFrames: 10}),
		Preview: func(p live.PreviewFrame) {
			previews++
			for _, l := range p.Labels {
				if l.Kind == live.LabelCard {
					cardLabels = append(cardLabels, l)
				}
			}
		},
		PreviewFPS: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Cards != 2 {
		t.Fatalf("%d card events, want 2 (shown, taken away, shown again)", stats.Cards)
	}
	found := 0
	for _, le := range sess.Events() {
		e := le.Event
		if e.Type == tracker.EvCard && e.Card == "activation-4" {
			found++
			if e.Source != "camera" || e.Frame == "" {
				t.Errorf("card event without camera source or frame: %+v", e)
			} else if _, err := os.Stat(filepath.Join(proof, e.Frame)); err != nil {
				t.Errorf("card proof frame: %v", err)
			}
		}
	}
	if found == 0 {
		t.Error("no card event in the session")
	}
	if previews == 0 {
		t.Fatal("no preview")
	}
	if len(cardLabels) == 0 {
		t.Fatal("no preview frame labels the card")
	}
	for _, l := range cardLabels {
		if l.Text != "activation-4" || !l.Box.Overlaps(image.Rect(470, 260, 490, 280)) {
			t.Errorf("card label %+v: want activation-4 around the card's centre (480,270)", l)
		}
	}
}

package background_test

import (
	"errors"
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/card"
	"tablecam/vision/synth"
)

// The background Reader hands the empty table it learns to the card reader
// and takes it back when it drops it or is closed.
func TestBackgroundReaderSharesTheReference(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats")
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	cr, err := card.NewReader(card.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	var sizes []image.Point
	b := background.New(det, background.Config{LearnFrames: 2, RefreshFrames: 3, Share: func(ref gocv.Mat) error {
		sizes = append(sizes, image.Pt(ref.Cols(), ref.Rows()))
		return cr.SetBackground(ref)
	}})
	sc := synth.Scene{Seed: synth.TrainSeedMin + 3_900_000, Noise: 2, Background: synth.BackgroundWood}
	empty, err := synth.RenderEmpty(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	bgFeed(t, b, empty, b.Config().LearnFrames+1)
	if !b.HasBackground() || !cr.HasBackground() || len(sizes) != 1 || sizes[0] != image.Pt(empty.Cols(), empty.Rows()) {
		t.Fatalf("after learning: background %v, card reader %v, shared %v", b.HasBackground(), cr.HasBackground(), sizes)
	}
	bgFeed(t, b, empty, b.Config().RefreshFrames)
	if b.Stats().Refreshed != 1 || len(sizes) != 2 {
		t.Errorf("a refresh shared %v (stats %+v)", sizes, b.Stats())
	}
	b.Close()
	if cr.HasBackground() || len(sizes) != 3 || sizes[2] != (image.Point{}) {
		t.Errorf("after Close: card reader has a reference %v, shared %v", cr.HasBackground(), sizes)
	}
}

// A reference the card reader refuses does not fail the dice: the dice
// keep it, the card reader is cleared, the failure is counted, and an
// explicit SetBackground returns the error.
func TestBackgroundReaderShareRefused(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats")
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	var shared []image.Point
	refuse := errors.New("refused")
	b := background.New(det, background.Config{LearnFrames: 2, Share: func(ref gocv.Mat) error {
		shared = append(shared, image.Pt(ref.Cols(), ref.Rows()))
		if ref.Empty() {
			return nil
		}
		return refuse
	}})
	defer b.Close()
	empty, err := synth.RenderEmpty(synth.Scene{Seed: synth.TrainSeedMin + 3_900_001, Noise: 2, Background: synth.BackgroundFelt})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	bgFeed(t, b, empty, b.Config().LearnFrames+1) // fails the test if Read fails
	if !b.HasBackground() || b.Stats().ShareFailed != 1 {
		t.Fatalf("after a refused share: background %v, stats %+v", b.HasBackground(), b.Stats())
	}
	if len(shared) != 2 || shared[1] != (image.Point{}) {
		t.Errorf("the refused reference was not cleared on the other side: shared %v", shared)
	}
	if err := b.SetBackground(empty); !errors.Is(err, refuse) {
		t.Errorf("SetBackground with a refused share: err %v, want %v", err, refuse)
	}
	if !b.HasBackground() || b.Stats().ShareFailed != 2 {
		t.Errorf("after SetBackground: background %v, stats %+v", b.HasBackground(), b.Stats())
	}
}

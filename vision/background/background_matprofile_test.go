//go:build matprofile

package background_test

import (
	"bytes"
	"context"
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/motion"
	"tablecam/vision/rolls"
	"tablecam/vision/synth"
)

// Run with: go test -tags matprofile -run TestNoMatLeakBackgroundPipeline ./vision/background/
// The whole per-frame path (motion.Detector, background.Reader over a DiceDetector,
// rolls.Tracker) over a rolling sequence, with the reference learned,
// refreshed, set by hand, dropped and repaired: no Mat may be left alive.
func TestNoMatLeakBackgroundPipeline(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats", "assist")
	start := gocv.MatProfile.Count()
	sc := synth.Scene{Seed: synth.EvalSeedMin + 3_900_100, Noise: 2, Background: synth.BackgroundFelt,
		Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "assist"}}}
	seq, err := synth.NewSequence(c, synth.SequenceSpec{Scene: sc, Script: []synth.Step{
		{Kind: synth.StepWait, Frames: 15}, {Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20},
		{Kind: synth.StepReroll, Die: 1}, {Kind: synth.StepWait, Frames: 10}, {Kind: synth.StepHandPass},
		{Kind: synth.StepPickUp, Die: 0}, {Kind: synth.StepPickUp, Die: 1}, {Kind: synth.StepPickUp, Die: 2},
		{Kind: synth.StepWait, Frames: 45},
	}})
	if err != nil {
		t.Fatal(err)
	}
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	bg := background.New(det, background.Config{})
	m := motion.New(motion.Config{})
	p := rolls.NewPipeline(seq, m, bg.Read, rolls.NewTracker(rolls.Config{}))
	nRolls := 0
	if err := p.Run(context.Background(), func(s *rolls.Step) error {
		for _, e := range s.Events {
			if _, ok := e.(rolls.Roll); ok {
				nRolls++
			}
		}
		return s.ReadErr
	}); err != nil {
		t.Fatal(err)
	}
	if st := bg.Stats(); st.Learned == 0 || nRolls == 0 {
		t.Errorf("learned %d references, %d rolls: the test does not exercise the path", st.Learned, nRolls)
	}
	// By hand, a size change, a reset, dice there from the start.
	img, _, err := seq.Frame(seq.Len() - 1)
	if err != nil {
		t.Fatal(err)
	}
	bg.SetBackground(img)
	small := gocv.NewMat()
	gocv.Resize(img, &small, image.Pt(img.Cols()/2, img.Rows()/2), 0, 0, gocv.InterpolationArea)
	bg.Read(small)
	bg.Reset()
	withDice, _, err := seq.Frame(60)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 * bg.Config().LearnFrames {
		bg.Read(withDice)
	}
	for range 2 * bg.Config().LearnFrames {
		bg.Read(img)
	}
	empty := gocv.NewMat()
	bg.SetBackground(empty)
	empty.Close()
	img.Close()
	small.Close()
	withDice.Close()
	bg.Close()
	m.Close()
	det.Close()
	seq.Close()
	if n := gocv.MatProfile.Count(); n != start {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats leaked:\n%s", n-start, b.String())
	}
}

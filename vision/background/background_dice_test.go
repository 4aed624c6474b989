package background_test

import (
	"errors"
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/synth"
)

// With BackgroundConfig.Dice, the detector keeps the empty table and sees
// hands, while the other reader names the dice: it is asked once per
// settled scene (on still, unoccluded frames only), its reading is reused
// while the picture stays, and the table is learned only where it reads no
// die.
func TestBackgroundReaderDiceReaderReadsOncePerStillScene(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats")
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	sc := synth.Scene{Seed: synth.EvalSeedMin + 3_900_000, Noise: 2, Background: synth.BackgroundWood,
		Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}}}
	var box image.Rectangle // where the first die of sc lies
	render := func(sc synth.Scene) gocv.Mat {
		t.Helper()
		img, truth, err := synth.Render(c, sc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { img.Close() })
		if box.Empty() && len(truth.Dice) > 0 {
			box = truth.Dice[0].Box
		}
		return img
	}
	withDice := render(sc)
	other := sc
	other.Seed++
	moved := render(other)
	hsc := sc
	hsc.Hand = synth.Hand{Present: true, Cover: true}
	withHand := render(hsc)
	empty, err := synth.RenderEmpty(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()

	// The stand-in reader knows the pictures by their mean: one die (where
	// the first die of sc lies) on each picture with dice, none on the
	// empty table.
	mean := func(m gocv.Mat) float64 { return m.Mean().Val1 }
	emptyMean := mean(empty)
	calls := 0
	var fail error
	read := func(img gocv.Mat) ([]vision.Die, error) {
		calls++
		if fail != nil {
			return nil, fail
		}
		if mean(img) == emptyMean {
			return nil, nil
		}
		return []vision.Die{{Set: "d6", Face: "4", Value: 4, Box: box, Center: box.Min.Add(box.Size().Div(2)), Confidence: 0.95}}, nil
	}
	b := background.New(det, background.Config{Dice: read})
	defer b.Close()

	// Dice thrown (the first frame differs from the empty table: moving,
	// no dice and no call), then lying still: read once, the reading
	// reused on every further still frame.
	bgFeed(t, b, empty, 1)
	if rd := bgFeed(t, b, withDice, 1); len(rd.Dice) != 0 || calls != 0 {
		t.Fatalf("a first frame and a moving one: %d dice, %d calls; want none", len(rd.Dice), calls)
	}
	rd := bgFeed(t, b, withDice, 20)
	if calls != 1 || len(rd.Dice) != 1 || rd.Dice[0].Face != "4" {
		t.Fatalf("20 still frames with dice: %d calls, dice %+v; want 1 call and the stand-in's die", calls, rd.Dice)
	}
	rd.Dice[0].Face = "x" // the caller's copy: the kept reading is not changed
	if rd := bgFeed(t, b, withDice, 1); rd.Dice[0].Face != "4" {
		t.Fatalf("the reused reading was changed through a returned slice: %+v", rd.Dice)
	}
	if st := b.Stats(); st.DiceReads != 1 || st.DiceReused != 20 {
		t.Errorf("stats %+v: want 1 read, 20 reused", st)
	}
	if b.HasBackground() {
		t.Fatal("learned the table while the dice reader reads a die on it")
	}
	// The empty table: read once, then learned after LearnFrames.
	bgFeed(t, b, empty, 2+b.Config().LearnFrames)
	if !b.HasBackground() {
		t.Fatalf("no reference after %d frames of the empty table (stats %+v)", 2+b.Config().LearnFrames, b.Stats())
	}
	// A still hand: occluded, no dice, no call.
	before := calls
	if rd := bgFeed(t, b, withHand, 10); !rd.Occluded || len(rd.Dice) != 0 || calls != before {
		t.Errorf("still hand: occluded %v, %d dice, %d calls; want occluded, none, none", rd.Occluded, len(rd.Dice), calls-before)
	}
	// Other dice: read anew once they lie still.
	before = calls
	if rd := bgFeed(t, b, moved, 5); len(rd.Dice) != 1 || calls != before+1 {
		t.Errorf("dice thrown again: %d dice, %d calls; want 1 die, 1 call", len(rd.Dice), calls-before)
	}
	// Reset forgets the reading.
	b.Reset()
	before = calls
	bgFeed(t, b, moved, 3)
	if calls != before+1 {
		t.Errorf("after Reset: %d calls on 3 frames of the same scene, want 1", calls-before)
	}
	// A failing reader: the error comes back, nothing is kept.
	fail = errors.New("model gone")
	bgFeed(t, b, withDice, 1)
	if _, err := b.Read(withDice); !errors.Is(err, fail) {
		t.Fatalf("failing dice reader: err %v, want it wrapped", err)
	}
	fail = nil
	before = calls
	if rd := bgFeed(t, b, withDice, 2); len(rd.Dice) != 1 || calls != before+1 {
		t.Errorf("after a failure: %d dice, %d calls on two frames; want 1, 1", len(rd.Dice), calls-before)
	}
}

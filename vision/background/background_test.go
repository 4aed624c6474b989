package background_test

import (
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/synth"
)

// bgFeed reads n copies of img through b and returns the last reading.
func bgFeed(t *testing.T, b *background.Reader, img gocv.Mat, n int) vision.Reading {
	t.Helper()
	var rd vision.Reading
	for range n {
		var err error
		if rd, err = b.Read(img); err != nil {
			t.Fatal(err)
		}
	}
	return rd
}

func TestBackgroundReaderLearnsTheEmptyTable(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats")
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	b := background.New(det, background.Config{})
	defer b.Close()
	sc := synth.Scene{Seed: synth.EvalSeedMin + 3_900_000, Noise: 2, Background: synth.BackgroundWood,
		Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}}}
	withDice, _, err := synth.Render(c, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer withDice.Close()
	empty, err := synth.RenderEmpty(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	hsc := sc
	hsc.Hand = synth.Hand{Present: true, Cover: true}
	withHand, htruth, err := synth.Render(c, hsc)
	if err != nil {
		t.Fatal(err)
	}
	if htruth.Hand.Empty() {
		t.Fatal("the scene has no hand")
	}
	defer withHand.Close()

	// Dice thrown onto the table (they arrive after the first frame) and
	// lying still: never taken as the reference.
	bgFeed(t, b, empty, 1)
	rd := bgFeed(t, b, withDice, 40)
	if b.HasBackground() || b.Stats().Learned != 0 {
		t.Fatalf("learned a reference from a table with dice (%d dice read)", len(rd.Dice))
	}
	if len(rd.Dice) == 0 {
		t.Fatal("no dice read without a reference: the test needs the colour mode to see them")
	}
	// The empty table: the first frame differs from the dice (not quiet),
	// then LearnFrames quiet, empty frames make the reference.
	n := b.Config().LearnFrames
	bgFeed(t, b, empty, n)
	if b.HasBackground() {
		t.Fatalf("reference after %d frames, want it after %d", n, n+1)
	}
	bgFeed(t, b, empty, 1)
	if st := b.Stats(); !b.HasBackground() || st.Learned != 1 || st.LearnedAt != 41+n || st.StaticLearned != 0 {
		t.Fatalf("no reference after %d empty frames: %+v", n+1, st)
	}
	// With the reference the dice are read, and a still hand is seen:
	// neither frame refreshes it, nor drops it before StuckFrames.
	if rd := bgFeed(t, b, withDice, 40); len(rd.Dice) != 3 || rd.Occluded {
		t.Errorf("with the reference: %d dice, occluded %v; want 3, false", len(rd.Dice), rd.Occluded)
	}
	if rd := bgFeed(t, b, withHand, 40); !rd.Occluded {
		t.Error("a hand over the table is not marked occluded with the learned reference")
	}
	if st := b.Stats(); st.Refreshed != 0 || st.DroppedStuck+st.DroppedChanged != 0 || !b.HasBackground() {
		t.Errorf("dice or a hand changed the reference: %+v", st)
	}
	// Still empty table: refreshed every RefreshFrames frames.
	bgFeed(t, b, empty, 1+2*b.Config().RefreshFrames)
	if st := b.Stats(); st.Refreshed != 2 || st.Learned != 1 {
		t.Errorf("after %d still empty frames: %+v, want 2 refreshes", 1+2*b.Config().RefreshFrames, st)
	}
	// A hand that stays still for StuckFrames: the reference is given up.
	bgFeed(t, b, withHand, b.Config().StuckFrames+1)
	if st := b.Stats(); st.DroppedStuck != 1 {
		t.Errorf("a hand still for %d frames: %+v, want the reference dropped", b.Config().StuckFrames+1, st)
	}
}

// Dice at rest from the first frame on cannot be told from a table the
// detector misreads: they are taken into the reference, and when they are
// taken away the spots are repaired, so that dice put there again are read.
func TestBackgroundReaderRepairsDiceThatWereThereFromTheStart(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats")
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	b := background.New(det, background.Config{})
	defer b.Close()
	sc := synth.Scene{Seed: synth.EvalSeedMin + 3_900_020, Noise: 2, Background: synth.BackgroundCloth,
		Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}}}
	withDice, _, err := synth.Render(c, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer withDice.Close()
	empty, err := synth.RenderEmpty(sc)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	n := b.Config().LearnFrames
	bgFeed(t, b, withDice, n+1)
	if st := b.Stats(); st.StaticLearned != 1 || !b.HasBackground() {
		t.Fatalf("dice at rest from the start: %+v, want them taken into the reference", st)
	}
	if rd := bgFeed(t, b, empty, 2*n+2); len(rd.Dice) != 0 {
		t.Errorf("dice taken away: %d dice read, want none", len(rd.Dice))
	}
	if st := b.Stats(); st.Repaired == 0 {
		t.Errorf("dice taken away: %+v, want the spots repaired", st)
	}
	if rd := bgFeed(t, b, withDice, 5); len(rd.Dice) != 2 {
		t.Errorf("dice put back: %d dice read, want 2", len(rd.Dice))
	}
	// StrictLearn: no reference while any die is seen.
	strict := background.New(det, background.Config{StrictLearn: true})
	defer strict.Close()
	strict.Reset()
	bgFeed(t, strict, withDice, 3*n)
	if strict.HasBackground() {
		t.Error("StrictLearn: learned a reference with dice in it")
	}
}

func TestBackgroundReaderFollowsTheLight(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats")
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	b := background.New(det, background.Config{})
	defer b.Close()
	sc := synth.Scene{Seed: synth.EvalSeedMin + 3_900_010, Noise: 2, Background: synth.BackgroundFelt,
		Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}}}
	render := func(level float64, dice bool) gocv.Mat {
		s := sc
		s.Lighting.Level = level
		var m gocv.Mat
		var err error
		if dice {
			m, _, err = synth.Render(c, s)
		} else {
			m, err = synth.RenderEmpty(s)
		}
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	empty := render(1, false)
	defer empty.Close()
	if err := b.SetBackground(empty); err != nil {
		t.Fatal(err)
	}
	// The light switched much brighter: the old reference is dropped at
	// once (every frame would look occluded), and the new light learned.
	bright := render(1.6, false)
	defer bright.Close()
	rd := bgFeed(t, b, bright, 1)
	if st := b.Stats(); st.DroppedChanged != 1 || rd.Occluded {
		t.Fatalf("light switched: %+v, occluded %v; want the reference dropped", st, rd.Occluded)
	}
	bgFeed(t, b, bright, b.Config().LearnFrames+1)
	if !b.HasBackground() || b.Stats().Learned != 1 {
		t.Fatalf("no reference learned in the new light: %+v", b.Stats())
	}
	brightDice := render(1.6, true)
	defer brightDice.Close()
	if rd := bgFeed(t, b, brightDice, 5); len(rd.Dice) != 2 || rd.Occluded {
		t.Errorf("in the new light: %d dice, occluded %v; want 2, false", len(rd.Dice), rd.Occluded)
	}
	// A frame size change drops the reference.
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(empty, &small, image.Pt(empty.Cols()/2, empty.Rows()/2), 0, 0, gocv.InterpolationArea)
	bgFeed(t, b, small, 1)
	if st := b.Stats(); st.DroppedSize != 1 {
		t.Errorf("frame size changed: %+v, want the reference dropped", st)
	}
	b.Close()
	b.Close()
	if _, err := b.Read(empty); err == nil {
		t.Error("Read after Close: want an error")
	}
}

//go:build matprofile

package vision_test

import (
	"bytes"
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/defaults"
	"tablecam/vision/synth"
)

func diceCheckNoLeak(t *testing.T, start int) {
	t.Helper()
	if n := gocv.MatProfile.Count(); n != start {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats leaked:\n%s", n-start, b.String())
	}
}

// Run with: go test -tags matprofile -run 'TestDiceNoMatLeak' ./vision/
// Reading 200 frames (with and without a reference frame, hands in some,
// a frame that is a region of a larger Mat) leaves no Mat alive.
func TestDiceNoMatLeakRead(t *testing.T) {
	c, profs := diceDefaultProfiles(t, "vats", "assist", "d6")
	var frames, bgs []gocv.Mat
	defer func() {
		for i := range frames {
			frames[i].Close()
			bgs[i].Close()
		}
	}()
	for i := range 10 {
		sc := synth.Scene{Seed: synth.EvalSeedMin + 95000 + int64(i), Noise: 2, Background: synth.Backgrounds()[i%6],
			Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "assist"}, {Set: "d6"}}, Hand: synth.Hand{Present: i%3 == 0}}
		img, bg, _ := diceRender(t, c, sc)
		frames = append(frames, img)
		bgs = append(bgs, bg)
	}
	start := gocv.MatProfile.Count()
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	none := gocv.NewMat()
	for i := range 200 {
		if i%2 == 0 {
			det.SetBackground(bgs[i%len(bgs)])
		} else {
			det.SetBackground(none)
		}
		if _, err := det.Read(frames[i%len(frames)]); err != nil {
			t.Fatal(err)
		}
	}
	region := frames[0].Region(image.Rect(100, 100, 900, 600))
	if _, err := det.Read(region); err != nil {
		t.Fatal(err)
	}
	region.Close()
	none.Close()
	det.Close()
	diceCheckNoLeak(t, start)
}

// Teaching (frames with and without a reference frame, crops) leaves no
// Mat alive either.
func TestDiceNoMatLeakTeach(t *testing.T) {
	c, _ := diceDefaultProfiles(t)
	start := gocv.MatProfile.Count()
	fs, _ := c.FaceSet("assist")
	for _, nobg := range []bool{false, true} {
		ex, err := defaults.Examples(c, "assist", defaults.Options{PerFace: 4, Seed: synth.TrainSeedMin + 340000, NoBackground: nobg})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := vision.TeachDiceProfile(fs, false, ex, vision.TeachOptions{SkipBad: true}, nil); err != nil {
			t.Fatal(err)
		}
		defaults.Release(ex)
	}
	diceCheckNoLeak(t, start)
}

package dice

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/dnn"
	"tablecam/vision/synth"
)

// BenchmarkFind720p: the finder on one 720p frame (letterbox, model,
// decoding), on the models in -models.
func BenchmarkFind720p(b *testing.B) {
	net, err := dnn.Load(filepath.Join(*evalModels, FinderFile), "heat", "box")
	if err != nil {
		b.Skip(err)
	}
	defer net.Close()
	f := newFinder(net)
	frame := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer frame.Close()
	gocv.Rectangle(&frame, image.Rect(600, 300, 640, 340), color.RGBA{R: 255, G: 255, B: 255, A: 255}, -1)
	b.ResetTimer()
	for range b.N {
		if _, err := f.find(frame); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadDice720p: a settled 720p frame with six d6 read whole (the
// finder, then the face reader with its quarter turns on every die found),
// on a rendered scene of the renderer's held-out seeds.
func BenchmarkReadDice720p(b *testing.B) {
	c, err := models.DefaultContent()
	if err != nil {
		b.Fatal(err)
	}
	spec := synth.RandomScene(c, synth.EvalSeedMin)
	spec.Width, spec.Height = 1280, 720
	spec.Dice = nil
	for range 6 {
		spec.Dice = append(spec.Dice, synth.DieSpec{Set: "d6"})
	}
	frame, _, err := synth.Render(c, spec)
	if err != nil {
		b.Fatal(err)
	}
	defer frame.Close()
	r, err := LoadReader(*evalModels)
	if err != nil {
		b.Skip(err)
	}
	defer r.Close()
	b.ResetTimer()
	for range b.N {
		if _, err := r.ReadDice(frame); err != nil {
			b.Fatal(err)
		}
	}
}

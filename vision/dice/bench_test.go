package dice

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/dnn"
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

// Command render writes scenes of the project's renderer (vision/synth) as
// training photos for the dice models: NAME.jpg and NAME.txt per scene,
// one line per die whose top face shows at least half:
//
//	set face value cx cy w h
//
// with the box (top face and sides) in 0..1 of the picture, as the real
// photos' YOLO labels are. Scenes come from synth.RandomScene with seeds
// of the training range only, and never in the held-out style, so that the
// renderer's held-out seeds and that style stay unseen by the models.
//
//	go run ./train/render -out DIR -n 2000 [-first 0] [-hold-out worn]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"log/slog"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/synth"
)

func main() {
	out := flag.String("out", "", "folder to write the scenes to")
	n := flag.Int("n", 1000, "how many scenes")
	first := flag.Int64("first", synth.TrainSeedMin, "the first seed")
	holdOut := flag.String("hold-out", synth.StyleWorn().Name, "the name of the style no scene uses")
	flag.Parse()
	if err := run(*out, *n, *first, *holdOut); err != nil {
		slog.Error("render", "err", err)
		os.Exit(1)
	}
}

// styleName is the name of a scene's style; a scene without one is drawn
// in the default style.
func styleName(s synth.Style) string {
	if s.Name == "" {
		return synth.StyleDefault().Name
	}
	return s.Name
}

func run(out string, n int, first int64, holdOut string) error {
	if out == "" {
		return fmt.Errorf("no -out folder")
	}
	if first+int64(n) > synth.TrainSeedMax || first < synth.TrainSeedMin {
		return fmt.Errorf("seeds %d..%d leave the training range [%d, %d)", first, first+int64(n), synth.TrainSeedMin, synth.TrainSeedMax)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	c, err := models.DefaultContent()
	if err != nil {
		return err
	}
	written := 0
	for seed := first; written < n && seed < synth.TrainSeedMax; seed++ {
		spec := synth.RandomScene(c, seed)
		if styleName(spec.Style) == holdOut {
			continue
		}
		name := filepath.Join(out, fmt.Sprintf("scene-%07d", seed))
		if _, err := os.Stat(name + ".txt"); err == nil {
			written++
			continue
		}
		if err := writeScene(c, spec, name); err != nil {
			return fmt.Errorf("scene %d: %w", seed, err)
		}
		written++
	}
	return nil
}

func writeScene(c *models.Content, spec synth.Scene, name string) error {
	frame, truth, err := synth.Render(c, spec)
	if err != nil {
		return err
	}
	defer frame.Close()
	if !gocv.IMWrite(name+".jpg", frame) {
		return fmt.Errorf("write %s.jpg", name)
	}
	w, h := float64(frame.Cols()), float64(frame.Rows())
	// The label file is written last and whole: a scene with a label file
	// is complete, so a stopped run resumes where it was.
	tmp := name + ".txt.tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	for _, d := range truth.Dice {
		if d.Visible < 0.5 || d.Occluded {
			continue
		}
		b := d.Box.Intersect(image.Rect(0, 0, frame.Cols(), frame.Rows()))
		fmt.Fprintf(bw, "%s %s %d %.6f %.6f %.6f %.6f\n", d.Set, d.Face, d.Value,
			(float64(b.Min.X)+float64(b.Dx())/2)/w, (float64(b.Min.Y)+float64(b.Dy())/2)/h, float64(b.Dx())/w, float64(b.Dy())/h)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, name+".txt")
}

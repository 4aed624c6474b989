package vision_test

import (
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/evaluate"
	"tablecam/vision/synth"
)

// TestD6Debug is a diagnostic, not a check: it explains the d6 dice read
// wrong, uncertain or not at all in the evaluation scenes of one condition
// (the top faces found near each, their template match and pip count, and
// the same on the true top face), and with TABLECAM_D6_DEBUG_DIR writes a
// crop of each with its face patches. It runs only when asked:
//
//	TABLECAM_D6_DEBUG=dim TABLECAM_EVAL_SCENES=30 TABLECAM_D6_DEBUG_DIR=/tmp/d6 go test -run TestD6Debug -v ./vision/
func TestD6Debug(t *testing.T) {
	cond := os.Getenv("TABLECAM_D6_DEBUG")
	if cond == "" {
		t.Skip("TABLECAM_D6_DEBUG not set")
	}
	n, _ := strconv.Atoi(os.Getenv("TABLECAM_EVAL_SCENES"))
	if n <= 0 {
		n = 20
	}
	dir := os.Getenv("TABLECAM_D6_DEBUG_DIR")
	ref := os.Getenv("TABLECAM_EVAL_REF") != "no"
	c, profs := diceDefaultProfiles(t, "d6")
	var cd evaluate.Condition
	for _, x := range append(evaluate.Conditions(), evaluate.Varied()) {
		if x.Name == cond {
			cd = x
		}
	}
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{Sets: []string{"d6"}})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	spec := evaluate.Spec{Set: "d6", Condition: cd, Scenes: n, Seed: synth.EvalSeedMin + 1000, Reference: ref}
	for i := range n {
		sc := evaluate.SceneFor(spec, i)
		img, truth, err := synth.Render(c, sc)
		if err != nil {
			t.Fatal(err)
		}
		if ref {
			bg, _ := synth.RenderEmpty(sc)
			det.SetBackground(bg)
			bg.Close()
		} else {
			det.SetBackground(gocv.NewMat())
		}
		rd, err := det.Read(img)
		if err != nil {
			t.Fatal(err)
		}
		for k, tr := range truth.Dice {
			var got *vision.Die
			for j := range rd.Dice {
				d := &rd.Dice[j]
				if math.Hypot(float64(d.Center.X-tr.Center.X), float64(d.Center.Y-tr.Center.Y)) < 0.5*float64(tr.Box.Dx()) {
					got = d
				}
			}
			if got != nil && got.Face == tr.Face && !got.Uncertain {
				continue
			}
			what := "missed"
			if got != nil {
				what = fmt.Sprintf("read %s conf %.2f uncertain %v", got.Face, got.Confidence, got.Uncertain)
			}
			var patches []image.Image
			ex, err := det.D6ExplainForTest(img, tr.Center, 0.6*float64(tr.Box.Dx()), tr.Corners, &patches)
			if err != nil {
				t.Fatal(err)
			}
			side := math.Hypot(float64(tr.Corners[1].X-tr.Corners[0].X), float64(tr.Corners[1].Y-tr.Corners[0].Y))
			name := fmt.Sprintf("s%d-%d", sc.Seed-synth.EvalSeedMin, k)
			t.Logf("%s %s face %s side %.0f bg %s: %s\n%s", name, cond, tr.Face, side, sc.Background, what, ex)
			if dir != "" {
				writeDebug(t, filepath.Join(dir, name+".png"), img, tr.Box, patches)
			}
		}
		img.Close()
	}
}

func writeDebug(t *testing.T, path string, img gocv.Mat, box image.Rectangle, patches []image.Image) {
	box = box.Inset(-8).Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
	roi := img.Region(box)
	crop, err := roi.ToImage()
	roi.Close()
	if err != nil {
		t.Fatal(err)
	}
	const k = 4
	w := box.Dx()*k + len(patches)*(32*k+4)
	h := max(box.Dy()*k, 32*k)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	scaleInto(out, crop, image.Pt(0, 0), k)
	for i, p := range patches {
		scaleInto(out, p, image.Pt(box.Dx()*k+4+i*(32*k+4), 0), k)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	png.Encode(f, out)
}

func scaleInto(dst draw.Image, src image.Image, at image.Point, k int) {
	b := src.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := src.At(x, y)
			for j := 0; j < k; j++ {
				for i := 0; i < k; i++ {
					dst.Set(at.X+(x-b.Min.X)*k+i, at.Y+(y-b.Min.Y)*k+j, c)
				}
			}
		}
	}
}

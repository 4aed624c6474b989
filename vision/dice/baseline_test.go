package dice_test

import (
	"flag"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/defaults"
	"tablecam/vision/dice"
)

var baselineData = flag.String("baseline-data", "", "the shared dice-real folder: measure the hand-tuned reader on its held-out photos")

// handTuned adapts the hand-tuned reader (built-in d6 profile, no
// teaching, no empty-table picture) to dice.DiceReader.
type handTuned struct{ d *vision.DiceDetector }

func (h handTuned) ReadDice(frame gocv.Mat) ([]dice.Reading, error) {
	r, err := h.d.Read(frame)
	if err != nil {
		return nil, err
	}
	out := make([]dice.Reading, 0, len(r.Dice))
	for _, d := range r.Dice {
		out = append(out, dice.Reading{Center: d.Center, Value: d.Value, Sure: !d.Uncertain})
	}
	return out, nil
}

// TestEvalRealBaseline prints the hand-tuned reader's figures on the same
// held-out photos as TestEvalReal, when -baseline-data names them.
func TestEvalRealBaseline(t *testing.T) {
	if *baselineData == "" {
		t.Skip("no -baseline-data folder")
	}
	photos, err := dice.RealPhotos(*baselineData)
	if err != nil {
		t.Fatal(err)
	}
	var val []dice.Photo
	for _, p := range photos {
		if p.Split == "val" {
			val = append(val, p)
		}
	}
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	profs, _, err := defaults.Load(c, t.TempDir(), []string{"d6"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{Sets: []string{"d6"}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	stats, err := dice.EvaluateReal(handTuned{d}, val)
	if err != nil {
		t.Fatal(err)
	}
	dice.WriteRealReport(os.Stdout, stats)
}

package dice

import (
	"flag"
	"os"
	"testing"
)

var (
	evalData   = flag.String("real-data", "", "the shared dice-real folder: measure the reader on its held-out photos")
	evalModels = flag.String("models", "models", "the folder of the models to measure")
	evalConf   = flag.Float64("min-conf", 0.9, "readings below this confidence count as uncertain")
	evalTurns  = flag.Int("turns", 4, "quarter turns of each die's view the face reader averages")
	evalFind   = flag.Float64("find", DefaultFindThreshold, "the least finder score a die is kept at")
)

// TestEvalReal prints the reader's figures on the held-out real photos,
// per rig, when -real-data names the shared photos.
func TestEvalReal(t *testing.T) {
	if *evalData == "" {
		t.Skip("no -real-data folder")
	}
	photos, err := RealPhotos(*evalData)
	if err != nil {
		t.Fatal(err)
	}
	var val []Photo
	for _, p := range photos {
		if p.Split == "val" {
			val = append(val, p)
		}
	}
	stats, err := EvaluateReal(evalReader(t), val)
	if err != nil {
		t.Fatal(err)
	}
	WriteRealReport(os.Stdout, stats)
}

// evalReader is a reader of the models in -models with the settings of
// the flags, closed when the test ends.
func evalReader(t *testing.T) *Reader {
	t.Helper()
	r, err := LoadReader(*evalModels)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	r.SetMinConfidence(*evalConf)
	r.SetTurns(*evalTurns)
	r.SetFindThreshold(*evalFind)
	return r
}

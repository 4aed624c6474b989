package vision_test

import (
	"io"
	"strings"
	"testing"

	"tablecam/vision"
	"tablecam/vision/evaluate"
	"tablecam/vision/synth"
)

// TestDiceAccuracy measures the dice reader on held-out scenes (synth
// evaluation seeds, disjoint from the training seeds the default profiles
// were taught and calibrated on) per face set and condition, with and
// without a reference frame of the empty table, and logs the table.
//
// The default run is short: V.A.T.S. at normal conditions on 200 scenes
// (the targets: ≥ 99.5% per die, ≥ 99% whole rolls, ≤ 0.1% wrong
// but confident, with the reference frame), the other conditions but the
// single tables with a reference frame on 8 scenes each, and the
// no-reference normal rows (with floors for V.A.T.S., assist and d6).
// -eval-scenes N runs N scenes per row (N=100: about 8 minutes on two
// cores). d6 scenes hold dice 25–40 px wide per 640 px of frame, as the
// issue asks (evaluate.D6Size). -eval-sets, -eval-conditions
// (comma-separated names) and -eval-ref (yes or no) pick rows;
// -eval-failures logs every die read wrong, uncertain or missed.
// -eval-detect (comma-separated sets, e.g. vats,assist as the product's
// vision.dice_sets) reads every row's scenes with a detector of those sets
// instead of the row's set alone; a die read as another set's face counts
// as wrong. -eval-strict also asserts ≤ 0.1% wrong-but-confident on every
// row; one die decides a row at 100 scenes, so it is not the default. The
// d10 rows run only with -eval-scenes (the default run checks d10 in
// TestD10NumeralsHeldOut).
//
//	go test -run TestDiceAccuracy -v -timeout 60m ./vision/ -args -eval-scenes 300
//	go test -run TestDiceAccuracy -v -timeout 60m ./vision/ -args -eval-sets d10 -eval-scenes 30
//	go test -run 'TestDiceAccuracy$' -v -timeout 60m ./vision/ -args -eval-sets vats -eval-detect vats,assist -eval-scenes 100
func TestDiceAccuracy(t *testing.T) {
	full, strict := *evalScenes, *evalStrict
	var detect []string
	if v := *evalDetect; v != "" {
		detect = strings.Split(v, ",")
	}
	var failures io.Writer
	if *evalFailures {
		failures = &testLogWriter{t: t}
	}
	c, profs := diceDefaultProfiles(t, "vats", "assist", "d6", "d10")
	// Evaluation seeds only, and none of them used for teaching or
	// calibration.
	const seed = synth.EvalSeedMin + 1000
	if !synth.IsEvalSeed(seed) || synth.IsTrainSeed(seed) {
		t.Fatal("evaluation seeds overlap the training seeds")
	}
	type row struct {
		set  string
		cond evaluate.Condition
		ref  bool
		n    int
	}
	var rows []row
	for _, set := range []string{"vats", "assist", "d6", "d10"} {
		if !flagList(*evalSets, set) {
			continue
		}
		for _, cd := range append(evaluate.Conditions(), evaluate.Varied()) {
			if !flagList(*evalConditions, cd.Name) {
				continue
			}
			for _, ref := range []bool{true, false} {
				if v := *evalRef; v != "" && (v == "yes") != ref {
					continue
				}
				n := full
				if n <= 0 {
					switch {
					case set == "vats" && cd.Name == "normal" && ref:
						n = 200
					case testing.Short() || set == "d10" || !ref && cd.Name != "normal" || strings.HasPrefix(cd.Name, "table-"):
						continue
					default:
						n = 8
					}
				}
				rows = append(rows, row{set, cd, ref, n})
			}
		}
	}
	var results []evaluate.Result
	for _, r := range rows {
		res, err := evaluate.Run(c, profs, evaluate.Spec{Set: r.set, Condition: r.cond, Scenes: r.n, Seed: seed, Reference: r.ref, Detect: detect, Failures: failures})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	t.Logf("dice reader on held-out scenes (per-die = read right and certain; wrong! = wrong but certain, incl. certain readings of no die):\n%s", evaluate.Table(results))
	for _, r := range results {
		if r.Set == "vats" && r.Condition == "normal" && r.Reference {
			if a := r.Accuracy(); a < 0.995 {
				t.Errorf("V.A.T.S. normal: %.2f%% per die, target ≥ 99.5%%", 100*a)
			}
			if a := r.RollAccuracy(); a < 0.99 {
				t.Errorf("V.A.T.S. normal: %.2f%% whole rolls, target ≥ 99%%", 100*a)
			}
			if w := r.WrongConfidentRate(); w > 0.001 {
				t.Errorf("V.A.T.S. normal: %.2f%% wrong but confident, target ≤ 0.1%%", 100*w)
			}
		}
		// Without the reference the table is estimated from the frame;
		// floors well under the held-out figures at N=100
		// (docs/figures.md), so that 8 scenes do not fail by chance, and
		// above what assist and d6 read without the estimate.
		if floor, ok := map[string]float64{"vats": 0.9, "assist": 0.55, "d6": 0.55}[r.Set]; ok && !r.Reference && r.Condition == "normal" && r.Accuracy() < floor {
			t.Errorf("%s normal without the reference: %.2f%% per die, want ≥ %.0f%%", r.Set, 100*r.Accuracy(), 100*floor)
		}
		if strict && r.WrongConfidentRate() > 0.001 {
			t.Errorf("%s %s ref=%v: %.2f%% wrong but confident, target ≤ 0.1%%", r.Set, r.Condition, r.Reference, 100*r.WrongConfidentRate())
		}
	}
	_ = vision.DefaultDiceThreshold
}

// testLogWriter logs each write as a line of the test's log.
type testLogWriter struct{ t *testing.T }

func (w *testLogWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

package vision_test

import (
	"flag"
	"slices"
	"strings"
)

// The measurements' knobs. make test runs every test with the defaults;
// a measurement's command line gives them after -args:
//
//	go test ./vision -run 'TestDiceAccuracy$' -v -timeout 60m -args -eval-scenes 100 -eval-sets vats
//
// docs/figures.md lists the measurements and the commands that give them.
var (
	// TestDiceAccuracy, TestTeachDiceNewStyle, TestGamePiecesAccuracy.
	evalScenes     = flag.Int("eval-scenes", 0, "TestDiceAccuracy, TestTeachDiceNewStyle, TestGamePiecesAccuracy: scenes per row (0: the short run)")
	evalSets       = flag.String("eval-sets", "", "TestDiceAccuracy, TestGamePiecesAccuracy: only these face sets (comma-separated)")
	evalConditions = flag.String("eval-conditions", "", "TestDiceAccuracy, TestGamePiecesAccuracy: only these conditions (comma-separated)")
	evalDetect     = flag.String("eval-detect", "", "TestDiceAccuracy: read every row with a detector of these sets (comma-separated)")
	evalFailures   = flag.Bool("eval-failures", false, "TestDiceAccuracy, TestGamePiecesAccuracy: log every die read wrong, uncertain or missed")
	evalStrict     = flag.Bool("eval-strict", false, "TestDiceAccuracy: also assert ≤ 0.1% wrong-but-confident on every row")

	// TestDiceAccuracy, TestGamePiecesAccuracy.
	evalRef = flag.String("eval-ref", "", "with the empty table's reference (yes), without (no), or the test's default (empty)")

	// TestSequenceEval.
	evalSequences   = flag.Int("eval-sequences", 0, "TestSequenceEval: run sequences 0 … N-1 at every frame size")
	evalSequenceIDs = flag.String("eval-sequence-ids", "", "TestSequenceEval: run just these sequences (comma-separated numbers)")
	evalSeqReader   = flag.String("eval-reader", "tuned", "TestSequenceEval: the dice reader: tuned (its built-in profiles), or learned (d6 by its built-in pips, the other sets taught to it from 5 rendered pictures per face in the sequences' style)")
	evalSeqStyle    = flag.String("eval-style", "default", "TestSequenceEval: the renderer's style of the dice (default, alt, worn: worn is never trained on)")
)

// flagList reports whether name is in the comma-separated list v; an
// empty list holds every name.
func flagList(v, name string) bool {
	return v == "" || slices.Contains(strings.Split(v, ","), name)
}

// positiveOr returns v when it is positive, def otherwise.
func positiveOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

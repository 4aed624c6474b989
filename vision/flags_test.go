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

	// TestDiceAccuracy, the card evaluations, TestCardsTrainLearned.
	evalRef = flag.String("eval-ref", "", "with the empty table's reference (yes), without (no), or the test's default (empty)")

	// The card evaluations (cards_eval_test.go).
	evalFull        = flag.Bool("eval-full", false, "card evaluations: the full run, with tables")
	evalCond        = flag.String("eval-cond", "", "TestCardsEvalMarkers: only the conditions whose name holds this text")
	evalTeachPhotos = flag.Int("eval-teach-photos", 3, "TestCardsEvalLearned: teaching photos per card")
	evalWholeFrame  = flag.Bool("eval-whole-frame", false, "TestCardsEvalLearned: read single pictures (SearchWholeFrame), as tablecam card does")
	confirmN        = flag.Int("confirm-n", 0, "TestCardsConfirmCalibrate: cards taught (0: the run's default)")
	confirmDump     = flag.String("confirm-dump", "", "TestCardsConfirmCalibrate: write every verification to this file, one a line")

	// TestCardsTrainLearned.
	evalTrain         = flag.Bool("eval-train", false, "TestCardsTrainLearned: run the training diagnostic")
	evalTrainN        = flag.Int("eval-train-n", 100, "TestCardsTrainLearned: cards taught")
	evalTrainScenes   = flag.Int("eval-train-scenes", 36, "TestCardsTrainLearned: scenes per condition (at most 1000)")
	evalTrainUntaught = flag.Int("eval-train-untaught", 300, "TestCardsTrainLearned: scenes of untaught cards")

	// TestCardsReal*.
	evalReal  = flag.Bool("eval-real", false, "TestCardsReal*: a missing photo fails the test, and every reading is logged")
	opencvDoc = flag.String("opencv-doc", "", "TestCardsReal*: the folder of OpenCV's tutorial photos (make eval-real fills .cache/opencv-doc)")

	// TestSequenceEval.
	evalSequences   = flag.Int("eval-sequences", 0, "TestSequenceEval: run sequences 0 … N-1 at every frame size")
	evalSequenceIDs = flag.String("eval-sequence-ids", "", "TestSequenceEval: run just these sequences (comma-separated numbers)")
	evalSeqReader   = flag.String("eval-reader", "tuned", "TestSequenceEval: the dice reader: tuned (its built-in profiles), or learned (d6 by its built-in pips, the other sets taught to it from 5 rendered pictures per face in the sequences' style)")
	evalSeqStyle    = flag.String("eval-style", "default", "TestSequenceEval: the renderer's style of the dice (default, alt, worn: worn is never trained on)")

	// TestCardsNewFrameBreakdown, TestCardsNewFrameCPU.
	cardBreakdown = flag.String("card-breakdown", "", "TestCardsNewFrameBreakdown: time the parts of a new frame's reading (new) or of held cards' (held)")
	cardCPU       = flag.Bool("card-cpu", false, "TestCardsNewFrameCPU: measure the CPU time of BenchmarkReadCards720pNew's frames")
	cardRounds    = flag.Int("card-rounds", 0, "TestCardsNewFrameBreakdown, TestCardsNewFrameCPU: rounds (0: the test's default)")
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

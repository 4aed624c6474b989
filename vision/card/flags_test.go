package card

import (
	"flag"
	"testing"

	"tablecam/vision"
)

// The card measurements' knobs. make test runs every test with the
// defaults; a measurement's command line gives them after -args:
//
//	go test ./vision/card -run 'TestCardsEvalLearned$' -v -args -eval-full
//
// docs/figures.md lists the measurements and the commands that give them.
var (
	// The card evaluations, TestCardsTrainLearned.
	evalRef = flag.String("eval-ref", "", "with the empty table's reference (yes), without (no), or the test's default (empty)")

	// The card evaluations (eval_test.go).
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

	// TestCardsNewFrameBreakdown, TestCardsNewFrameCPU.
	cardBreakdown = flag.String("card-breakdown", "", "TestCardsNewFrameBreakdown: time the parts of a new frame's reading (new) or of held cards' (held)")
	cardCPU       = flag.Bool("card-cpu", false, "TestCardsNewFrameCPU: measure the CPU time of BenchmarkReadCards720pNew's frames")
	cardRounds    = flag.Int("card-rounds", 0, "TestCardsNewFrameBreakdown, TestCardsNewFrameCPU: rounds (0: the test's default)")
)

// positiveOr returns v when it is positive, def otherwise.
func positiveOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// benchOneThread runs b's OpenCV calls on one thread (as the CLI does),
// restoring the thread count after b.
func benchOneThread(b *testing.B) {
	before := vision.OpenCVThreads()
	vision.SetOpenCVThreads(1)
	b.Cleanup(func() { vision.SetOpenCVThreads(before) })
}

package background

import (
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
)

// fakeDetector finds nothing and keeps the estimate setting it is given.
type fakeDetector struct{ estimate bool }

func (d *fakeDetector) Read(gocv.Mat) (vision.Reading, error) { return vision.Reading{}, nil }
func (d *fakeDetector) SetBackground(gocv.Mat) error          { return nil }
func (d *fakeDetector) HasBackground() bool                   { return false }
func (d *fakeDetector) EstimateTable(on bool) bool {
	was := d.estimate
	d.estimate = on
	return was
}

// TestReaderGivesEstimateBack: the background reader turns its detector's
// table estimate off while it is open (it learns the empty table from
// frames read by body colour) and Close gives it back, so the caller's
// detector reads single pictures as before.
func TestReaderGivesEstimateBack(t *testing.T) {
	for _, before := range []bool{true, false} {
		det := &fakeDetector{estimate: before}
		b := New(det, Config{})
		if det.estimate {
			t.Errorf("estimate %v: still on while the reader is open", before)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if det.estimate != before {
			t.Errorf("estimate %v: %v after Close", before, det.estimate)
		}
	}
}

// TestDiceDetectorEstimateTable: the dice detector is a Detector whose
// EstimateTable reports the setting it replaces.
func TestDiceDetectorEstimateTable(t *testing.T) {
	var det Detector = &vision.DiceDetector{}
	if was := det.EstimateTable(true); was {
		t.Error("a zero DiceDetector's estimate was on")
	}
	if was := det.EstimateTable(false); !was {
		t.Error("EstimateTable(true) did not turn it on")
	}
}

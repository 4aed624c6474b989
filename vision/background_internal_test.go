package vision

import "testing"

// TestBackgroundReaderGivesEstimateBack: the background reader turns its
// detector's table estimate off while it is open (it learns the empty
// table from frames read by body colour) and Close gives it back, so the
// caller's detector reads single pictures as before.
func TestBackgroundReaderGivesEstimateBack(t *testing.T) {
	for _, before := range []bool{true, false} {
		det := &DiceDetector{}
		det.estimate = before
		b := NewBackgroundReader(det, BackgroundConfig{})
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

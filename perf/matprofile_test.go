//go:build matprofile

package perf_test

import (
	"context"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/perf"
)

// Two plays of the recorded scene through the whole pipeline (video
// decode, motion, dice detector, roll tracker, card reader, proof frames
// off) leave no gocv Mat open: the count after each loop is the same.
func TestPipelineNoMatLeak(t *testing.T) {
	r := newRig(t)
	start := gocv.MatProfile.Count()
	rep, err := perf.Run(context.Background(), r.options(2))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	for i, m := range rep.Memory {
		if m.Mats != start {
			t.Errorf("after loop %d: %d live Mats, %d before the run", i, m.Mats, start)
		}
	}
	if rep.Rolls != 2*r.rec.Rolls {
		t.Errorf("rolls %d, want %d", rep.Rolls, 2*r.rec.Rolls)
	}
}

package card

import (
	"testing"

	"tablecam/vision/card/index"
)

// TestCardRefVerifiedSpread checks the band's rule of keypoints spread
// over the card (refSpreadShare, refSpreadCells,
// refSpreadDistinct) and that it does not take a match the other
// rules would not when any of the three falls short.
func TestCardRefVerifiedSpread(t *testing.T) {
	cellsOf := func(n int) uint64 { return 1<<n - 1 }
	spread := index.Verified{Found: 40, Taught: 200, DistinctFound: 9, DistinctTaught: 120, // 20%: 4.5%
		Cells: cellsOf(refSpreadCells), DistinctCells: cellsOf(refSpreadDistinct)}
	if !refVerified(false, spread) {
		t.Errorf("a band match spread over %d cells (%d distinct) at 20%% does not stand", refSpreadCells, refSpreadDistinct)
	}
	for name, v := range map[string]index.Verified{
		"one cell fewer":          {Found: 40, Taught: 200, Cells: cellsOf(refSpreadCells - 1), DistinctCells: cellsOf(refSpreadDistinct)},
		"one distinct cell fewer": {Found: 40, Taught: 200, Cells: cellsOf(refSpreadCells), DistinctCells: cellsOf(refSpreadDistinct - 1)},
		"a smaller share":         {Found: 39, Taught: 200, Cells: cellsOf(refSpreadCells), DistinctCells: cellsOf(refSpreadDistinct)},
		"too few found":           {Found: refBandFound - 1, Taught: 100, Cells: cellsOf(16), DistinctCells: cellsOf(16)},
	} {
		if refVerified(false, v) {
			t.Errorf("%s: the band match stands", name)
		}
	}
}

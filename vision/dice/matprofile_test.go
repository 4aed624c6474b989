//go:build matprofile

package dice

import (
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestReaderNoMatLeak: finding and reading the dice of real photos leaves
// no Mat open.
func TestReaderNoMatLeak(t *testing.T) {
	photos, r := regressionPhotos(t)
	start := gocv.MatProfile.Count()
	if _, err := EvaluateReal(r, photos[:10]); err != nil {
		t.Fatal(err)
	}
	if n := gocv.MatProfile.Count(); n != start {
		var b strings.Builder
		gocv.MatProfile.WriteTo(&b, 1)
		t.Errorf("%d Mats left open:\n%s", n-start, b.String())
	}
}

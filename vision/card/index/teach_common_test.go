package index

import (
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// TestCardCommonWhole: the keypoints common to a card's teaching photos,
// spread over the card, make its outline whole; not its panel (half of
// them left out), nor the card doubled into the table (half its cells
// empty); too few keypoints test nothing.
func TestCardCommonWhole(t *testing.T) {
	card := [4]geom.Point{{X: 100, Y: 100}, {X: 200, Y: 100}, {X: 200, Y: 240}, {X: 100, Y: 240}}
	var pts []gocv.Point2f
	for y := 105; y < 240; y += 10 {
		for x := 105; x < 200; x += 10 {
			pts = append(pts, gocv.Point2f{X: float32(x), Y: float32(y)})
		}
	}
	panel := [4]geom.Point{{X: 100, Y: 100}, {X: 200, Y: 100}, {X: 200, Y: 170}, {X: 100, Y: 170}}
	doubled := [4]geom.Point{{X: 100, Y: 100}, {X: 200, Y: 100}, {X: 200, Y: 380}, {X: 100, Y: 380}}
	for _, c := range []struct {
		name        string
		q           [4]geom.Point
		pts         []gocv.Point2f
		whole, test bool
	}{
		{"the card", card, pts, true, true},
		{"its panel", panel, pts, false, true},
		{"doubled into the table", doubled, pts, false, true},
		{"too few keypoints", panel, pts[:commonMin-1], true, false},
	} {
		whole, tested := commonWhole(c.q, c.pts)
		if whole != c.whole || tested != c.test {
			t.Errorf("%s: whole %v tested %v, want %v %v", c.name, whole, tested, c.whole, c.test)
		}
	}
}

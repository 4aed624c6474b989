package vision_test

import (
	"image"
	"math"
	"testing"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// TestCardKeySearchSmall searches the place of a small taught card (50–70
// px across, tilted up to 45°) for the keypoints of every taught card, as
// a changed blob is searched with the reference: the place is enlarged
// first when the card is narrower than the upright card the keypoints
// were taught on, or ORB (whose pyramid only shrinks) finds few of them
// (16 taught: 29 of 32 found, 25 without enlarging).
func TestCardKeySearchSmall(t *testing.T) {
	const n, scenes = 16, 32
	ix, _ := cardsTeachAll(t, n, 3)
	r, err := vision.NewCardReader(vision.CardReaderOptions{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	found, plain, cards := 0, 0, 0
	for k := range int64(scenes) {
		seed := cardsSmallSeed + k
		s := synth.RandomCardScene(seed, []synth.CardSpec{{Art: seed % n, Width: 50 + float64(k%5)*5, Tilt: float64(k%4) * 15}})
		s.Lighting = synth.Lighting{}
		s.Cards[0].Finger = false
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			continue
		}
		c := truth[0].Corners
		side := func(a, b vision.Point2f) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }
		short := min(side(c[0], c[1])+side(c[2], c[3]), side(c[1], c[2])+side(c[3], c[0])) / 2
		place := truth[0].Box.Inset(-truth[0].Box.Dx() / 3).Intersect(image.Rect(0, 0, m.Cols(), m.Rows()))
		want := cardsID(truth[0].Art)
		read := func(short float64) bool {
			got, err := vision.SearchPlaceKeysForTest(r, m, place, short)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				if g.ID == want {
					return true
				}
			}
			return false
		}
		cards++
		if read(short) {
			found++
		}
		if read(0) {
			plain++
		}
		m.Close()
	}
	t.Logf("small cards: %d of %d found by their keypoints, %d without enlarging the place", found, cards, plain)
	if cards < scenes*3/4 || 10*found < 8*cards || found <= plain {
		t.Errorf("found %d of %d small cards (%d without enlarging; want at least 80%% and more than without)", found, cards, plain)
	}
}

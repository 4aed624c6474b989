package vision_test

import (
	"image"
	"testing"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// TestCardKeySearchDim searches the place of a taught card in a dark room
// (the light at 0.2 of normal) for the keypoints of every taught card, as
// a changed blob is searched with the reference: its grey is stretched
// first, or the art's contrasts fall below ORB's corner threshold (32 of
// 32 cards found stretched, 24 not).
func TestCardKeySearchDim(t *testing.T) {
	const n, scenes = 16, 32
	ix, _ := cardsTeachAll(t, n, 3)
	r, err := vision.NewCardReader(vision.CardReaderOptions{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	found, cards := 0, 0
	for k := range int64(scenes) {
		seed := cardsDimSeed + k
		s := synth.RandomCardScene(seed, []synth.CardSpec{{Art: seed % n}})
		s.Lighting = synth.Lighting{Level: 0.2}
		s.Cards[0].Tilt = 40
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			continue
		}
		place := truth[0].Box.Inset(-truth[0].Box.Dx() / 3).Intersect(image.Rect(0, 0, m.Cols(), m.Rows()))
		got, err := vision.SearchPlaceKeysForTest(r, m, place, 0)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		cards++
		for _, g := range got {
			if g.ID == cardsID(truth[0].Art) {
				found++
				break
			}
		}
	}
	t.Logf("dark room, tilted 40°: %d of %d cards found by their keypoints", found, cards)
	if cards < scenes*3/4 || 10*found < 9*cards {
		t.Errorf("found %d of %d cards in a dark room (want at least 90%%)", found, cards)
	}
}

package card

import (
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
	"tablecam/vision/synth"
)

// cardsKeySearchN is the number of cards taught for the tests of the
// keypoint search in a blob's place.
const cardsKeySearchN = 16

// cardsKeySearch renders scenes of one card each (taught among
// cardsKeySearchN, seeds from seed, set changing each scene) and calls
// search with a reader, the frame, the card's place (its box and a third
// around it) and the card; it returns the scenes rendered.
func cardsKeySearch(t *testing.T, seed int64, scenes int, set func(k int64, s *synth.CardScene),
	search func(r *Reader, m gocv.Mat, place image.Rectangle, tr synth.CardTruth)) int {
	t.Helper()
	ix, _ := cardsTeachAll(t, cardsKeySearchN, 3)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cards := 0
	for k := range int64(scenes) {
		s := synth.RandomCardScene(seed+k, []synth.CardSpec{{Art: (seed + k) % cardsKeySearchN}})
		set(k, &s)
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			continue
		}
		place := truth[0].Box.Inset(-truth[0].Box.Dx() / 3).Intersect(image.Rect(0, 0, m.Cols(), m.Rows()))
		search(r, m, place, truth[0])
		m.Close()
		cards++
	}
	return cards
}

// cardsKeySearchFinds reports whether searching place of m for keypoints
// (the card's short side short, 0 if not known) reads card tr.
func cardsKeySearchFinds(t *testing.T, r *Reader, m gocv.Mat, place image.Rectangle, short float64, tr synth.CardTruth) bool {
	t.Helper()
	got, err := searchPlaceKeysForTest(r, m, place, short)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		if g.ID == cardsID(tr.Art) {
			return true
		}
	}
	return false
}

// TestCardKeySearchDim searches the place of a taught card in a dark room
// (the light at 0.2 of normal) for the keypoints of every taught card, as
// a changed blob is searched with the reference: its grey is stretched
// first, or the art's contrasts fall below ORB's corner threshold (32 of
// 32 cards found stretched, 24 not).
func TestCardKeySearchDim(t *testing.T) {
	const scenes = 32
	found := 0
	cards := cardsKeySearch(t, cardsDimSeed, scenes, func(k int64, s *synth.CardScene) {
		s.Lighting = synth.Lighting{Level: 0.2}
		s.Cards[0].Tilt = 40
	}, func(r *Reader, m gocv.Mat, place image.Rectangle, tr synth.CardTruth) {
		if cardsKeySearchFinds(t, r, m, place, 0, tr) {
			found++
		}
	})
	t.Logf("dark room, tilted 40°: %d of %d cards found by their keypoints", found, cards)
	if cards < scenes*3/4 || 10*found < 9*cards {
		t.Errorf("found %d of %d cards in a dark room (want at least 90%%)", found, cards)
	}
}

// TestCardKeySearchSmall searches the place of a small taught card (50–70
// px across, tilted up to 45°) for the keypoints of every taught card, as
// a changed blob is searched with the reference: the place is enlarged
// first when the card is narrower than the upright card the keypoints
// were taught on, or ORB (whose pyramid only shrinks) finds few of them
// (16 taught: 29 of 32 found, 26 without enlarging).
func TestCardKeySearchSmall(t *testing.T) {
	const scenes = 32
	found, plain := 0, 0
	cards := cardsKeySearch(t, cardsSmallSeed, scenes, func(k int64, s *synth.CardScene) {
		s.Cards[0].Width, s.Cards[0].Tilt = 50+float64(k%5)*5, float64(k%4)*15
		s.Lighting = synth.Lighting{}
		s.Cards[0].Finger = false
	}, func(r *Reader, m gocv.Mat, place image.Rectangle, tr synth.CardTruth) {
		c := tr.Corners
		side := func(a, b geom.Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }
		short := min(side(c[0], c[1])+side(c[2], c[3]), side(c[1], c[2])+side(c[3], c[0])) / 2
		if cardsKeySearchFinds(t, r, m, place, short, tr) {
			found++
		}
		if cardsKeySearchFinds(t, r, m, place, 0, tr) {
			plain++
		}
	})
	t.Logf("small cards: %d of %d found by their keypoints, %d without enlarging the place", found, cards, plain)
	if cards < scenes*3/4 || 10*found < 8*cards || found <= plain {
		t.Errorf("found %d of %d small cards (%d without enlarging; want at least 80%% and more than without)", found, cards, plain)
	}
}

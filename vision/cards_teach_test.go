package vision_test

import (
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// Card art 21 (training seeds) is dark green, and its art panel meets its
// text panel in a line across its middle: on a dark table the outline
// finder takes each half for a card (half a card is in a card's
// proportions). Taught from its three teaching photos, the card is taught
// whole: its true outline in each photo matches it closely.
func TestCardTeachHalfCardDoubled(t *testing.T) {
	const art = 21
	var ms []gocv.Mat
	var truths [][4]vision.Point2f
	defer func() {
		for _, m := range ms {
			m.Close()
		}
	}()
	for ex := range 3 {
		s := cardsTeachScene(art, ex)
		s.Background = cardsPlain[(art+ex)%len(cardsPlain)]
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		truths = append(truths, truth[0].Corners)
	}
	ix := vision.NewCardIndex()
	if err := ix.Teach(cardsID(art), ms...); err != nil {
		t.Fatal(err)
	}
	for ex, m := range ms {
		c, err := vision.CanonicalCardForTest(m, truths[ex], 64)
		if err != nil {
			t.Fatal(err)
		}
		id, d, _, err := vision.CardMatchCanonicalForTest(ix, c)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if id != cardsID(art) || d > 0.15 {
			t.Errorf("photo %d: the card's true outline is %.3f from what was taught (%s), want ≤ 0.15", ex, d, id)
		}
	}
}

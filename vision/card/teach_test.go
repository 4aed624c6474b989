package card

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
	"tablecam/vision/synth"
)

// Card art 21 (training seeds) is dark green, and its art panel meets its
// text panel in a line across its middle: on a dark table the outline
// finder takes each half for a card (half a card is in a card's
// proportions). Taught from its three teaching photos, the card is taught
// whole: its true outline in each photo matches it closely.
func TestCardTeachHalfCardDoubled(t *testing.T) {
	cardsTeachTruthNear(t, 21, 3, 0.15)
}

// cardsTeachTruthNear teaches card art from its first `photos` teaching
// photos (cardsTeachScene on cardsPlain) and checks that its true outline
// in each photo matches what was taught within limit.
func cardsTeachTruthNear(t *testing.T, art int64, photos int, limit float64) {
	t.Helper()
	var ms []gocv.Mat
	var truths [][4]geom.Point
	defer func() {
		for _, m := range ms {
			m.Close()
		}
	}()
	for ex := range photos {
		s := cardsTeachScene(art, ex)
		s.Background = cardsPlain[(int(art)+ex)%len(cardsPlain)]
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		truths = append(truths, truth[0].Corners)
	}
	ix := index.New()
	if err := ix.Teach(cardsID(art), ms...); err != nil {
		t.Fatal(err)
	}
	for ex, m := range ms {
		c, err := canonicalCardForTest(m, truths[ex], 64)
		if err != nil {
			t.Fatal(err)
		}
		id, d, _, err := matchCanonicalForTest(ix, c)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if id != cardsID(art) || d > limit {
			t.Errorf("art %d, photo %d of %d: the card's true outline is %.3f from what was taught (%s), want ≤ %v", art, ex, photos, d, id, limit)
		}
	}
}

// TestCardTeachCropRepeating: a card whose art repeats (a chessboard),
// taught from crops (the whole picture is the card), is taught as the
// whole picture, not doubled beyond it (half border fill, half the
// pattern, alike in every crop of a repeating pattern).
func TestCardTeachCropRepeating(t *testing.T) {
	var crops []gocv.Mat
	defer func() {
		for _, m := range crops {
			m.Close()
		}
	}()
	for k, sq := range []int{20, 22, 24} {
		w, h := 9*sq, 6*sq+2*k
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(235, 235, 235, 0), h, w, gocv.MatTypeCV8UC3)
		for y := 0; y*sq < h; y++ {
			for x := 0; x*sq < w; x++ {
				if (x+y)%2 == 0 {
					gocv.Rectangle(&m, image.Rect(x*sq, y*sq, (x+1)*sq, (y+1)*sq), color.RGBA{25, 25, 25, 0}, -1)
				}
			}
		}
		crops = append(crops, m)
	}
	ix := index.New()
	if err := ix.Teach("board", crops...); err != nil {
		t.Fatal(err)
	}
	for k, m := range crops {
		w, h := float32(m.Cols()), float32(m.Rows())
		whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: w - 0.5, Y: -0.5}, {X: w - 0.5, Y: h - 0.5}, {X: -0.5, Y: h - 0.5}}
		c, err := canonicalCardForTest(m, whole, 64)
		if err != nil {
			t.Fatal(err)
		}
		id, d, _, err := matchCanonicalForTest(ix, c)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if id != "board" || d > 0.15 {
			t.Errorf("crop %d: the whole crop is %.3f from what was taught (%s), want ≤ 0.15", k, d, id)
		}
	}
}

// Taught from two photos, cards whose pictures are alike in the same
// wrong way (art 21: dark green, its text panel alone an outline in both;
// art 78: doubled across its width into the table in both; art 45) are
// taught as the card: the outline chosen must hold the keypoints common to
// the photos (index/teach_common.go). The card's true outline in each
// photo then matches what was taught within the match threshold
// (index.DefaultThreshold); chosen by likeness alone, it was 1.36–1.43 away.
func TestCardTeachCommonKeys(t *testing.T) {
	for _, art := range []int64{21, 45, 78} {
		cardsTeachTruthNear(t, art, 2, index.DefaultThreshold)
	}
}

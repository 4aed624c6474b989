package card

import (
	"math"
	"testing"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
	"tablecam/vision/synth"
)

// An outline found off on one side (its bottom a tenth of the card's
// length too high: a thumb over the edge, an inner frame) is fitted back to
// its card: the card comes nearer, near enough to be taken for it (3 of 4
// cards). Its corners need not come nearer: the descriptor likes an
// outline off by a little on both ends better than by more on one.
func TestCardReaderFitsOutlineToCard(t *testing.T) {
	ix, _ := cardsTeachAll(t, 8, 2)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	off := func(a, b []geom.Point) float64 {
		d := 0.0
		for k := range a {
			d = max(d, math.Hypot(float64(a[k].X-b[k].X), float64(a[k].Y-b[k].Y)))
		}
		return d
	}
	taken := 0
	for k := range int64(4) {
		s := synth.RandomCardScene(synth.TrainSeedMin+987_000+k, []synth.CardSpec{{Art: k, Width: 160}})
		s.Lighting = synth.Lighting{}
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			t.Fatal(err)
		}
		c := truth[0].Corners
		q := c
		for _, i := range [2][2]int{{3, 0}, {2, 1}} { // bottom corners 10% up
			q[i[0]].X += 0.1 * (c[i[1]].X - c[i[0]].X)
			q[i[0]].Y += 0.1 * (c[i[1]].Y - c[i[0]].Y)
		}
		fq, id, before, after, err := r.fitOutlineForTest(m, q)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		if id != cardsID(k) || after >= before {
			t.Errorf("seed %d: fitted to %s, distance %.3f → %.3f; want %s and nearer", s.Seed, id, before, after, cardsID(k))
		}
		if after <= index.DefaultThreshold {
			taken++
		}
		t.Logf("seed %d: %.3f → %.3f, corners %.1f → %.1f px off", s.Seed, before, after, off(q[:], c[:]), off(fq[:], c[:]))
	}
	if taken < 3 {
		t.Errorf("%d of 4 fitted outlines near enough to be taken for their card (≤ %.2f), want at least 3", taken, index.DefaultThreshold)
	}
}

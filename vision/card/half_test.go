package card

import (
	"testing"

	"tablecam/vision/geom"
	"tablecam/vision/synth"
)

// TestCardReadHalfOutline: an outline around half of a taught card, cut
// across its length (in a card's proportions too: an art panel meeting a
// text panel, a card half in shade), is read as the whole card; a quarter
// of a card is not read as any.
func TestCardReadHalfOutline(t *testing.T) {
	const n = 16
	ix, seeds := cardsTeachAll(t, n, 3)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	mid := func(a, b geom.Point) geom.Point {
		return geom.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
	}
	read, tried := 0, 0
	for k := range int64(8) {
		seed := synth.TrainSeedMin + 640_000 + k
		seeds = append(seeds, seed)
		s := synth.RandomCardScene(seed, []synth.CardSpec{{Art: k, Width: 160}})
		s.Lighting, s.Tilt, s.Blur, s.Noise, s.JPEGQuality = synth.Lighting{}, 0, 0, 0, 0
		s.Cards[0].Tilt, s.Cards[0].Finger = 0, false
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			t.Fatal(err)
		}
		c := truth[0].Corners // top-left first, clockwise
		top := [4]geom.Point{c[0], c[1], mid(c[1], c[2]), mid(c[3], c[0])}
		bottom := [4]geom.Point{mid(c[3], c[0]), mid(c[1], c[2]), c[2], c[3]}
		for _, half := range [][4]geom.Point{top, bottom} {
			rd, err := readOutlineForTest(r, m, half)
			if err != nil {
				t.Fatal(err)
			}
			tried++
			if rd.ID == cardsID(k) {
				read++
			} else if rd.ID != Unknown {
				t.Errorf("scene %d: half of %s read as %s", seed, cardsID(k), rd.ID)
			}
		}
		quarter := [4]geom.Point{c[0], mid(c[0], c[1]), mid(mid(c[0], c[1]), mid(c[3], c[2])), mid(c[0], c[3])}
		if rd, err := readOutlineForTest(r, m, quarter); err != nil || rd.ID != Unknown {
			t.Errorf("scene %d: a quarter of %s read as %q (%v)", seed, cardsID(k), rd.ID, err)
		}
		m.Close()
	}
	cardsCheckSeeds(t, seeds, nil)
	t.Logf("halves read as their card: %d of %d", read, tried)
	if read < tried*3/4 {
		t.Errorf("halves read as their card: %d of %d, want ≥ 3/4", read, tried)
	}
}

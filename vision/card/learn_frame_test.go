package card

import (
	"testing"

	"tablecam/vision/synth"
)

// TestCardsWholeFrame: on busy plaid cloth, where the outlines of some
// taught cards are missed (training scenes chosen so), the whole-frame
// keypoint search reads every taught card right, and it takes no untaught
// card for a taught one.
func TestCardsWholeFrame(t *testing.T) {
	const n = 16
	ix, teach := cardsTeachAll(t, n, 3)
	plain, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	whole, err := NewReader(Options{Index: ix, SearchWholeFrame: true})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	want := func(tr synth.CardTruth) string { return cardsID(tr.Art) }
	seeds := []int64{synth.TrainSeedMin + 950_002, synth.TrainSeedMin + 950_011, synth.TrainSeedMin + 950_019}
	var untaught []int64
	for k := range int64(12) {
		untaught = append(untaught, synth.TrainSeedMin+951_000+k)
	}
	cardsCheckSeeds(t, append(append(teach, seeds...), untaught...), nil)
	var sp, sw cardsScore
	for _, seed := range seeds {
		s := cardsLearnedScene(seed, n, true, 0)
		s.Background = synth.BackgroundCloth
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			t.Fatal(err)
		}
		gp, err := plain.ReadCards(m)
		if err != nil {
			t.Fatal(err)
		}
		gw, err := whole.ReadCards(m)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		sp.add(cardsMatch(gp, truth, want))
		sc := cardsMatch(gw, truth, want)
		sw.add(sc)
		if sc.right != sc.cards {
			t.Errorf("seed %d: %d of %d taught cards read right with the whole-frame search (%d unknown, %d wrong, %d missed)",
				seed, sc.right, sc.cards, sc.unknown, sc.wrong, sc.missed)
		}
	}
	t.Logf("taught cards on cloth: %d of %d read right without the whole-frame search, %d with it", sp.right, sp.cards, sw.right)
	if sp.right >= sp.cards {
		t.Errorf("the reader without the whole-frame search reads all %d cards: the scenes no longer test the search", sp.cards)
	}
	for _, seed := range untaught {
		s := cardsLearnedScene(seed, n, false, cardsUntaughtCalib)
		s.Background = synth.BackgroundCloth
		m, _, err := synth.RenderCardScene(s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := whole.ReadCards(m)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range got {
			if g.ID != Unknown {
				t.Errorf("seed %d: an untaught card read as %s", seed, g.ID)
			}
		}
	}
}

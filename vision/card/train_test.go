package card

// The taught-card evaluation on training seeds, for tuning: the held-out
// evaluation (TestCardsEvalLearned) must never be what a change is chosen
// on. TestCardsTrainLearned reads the conditions of cardsLearnedConds on
// scenes of training seeds and logs every card it does not read right with
// what the reader saw there, so that losses can be sorted by cause:
//
//	go test ./vision/card -run 'TestCardsTrainLearned$' -v -timeout 60m -args -eval-train
//
// -eval-train-scenes sets the scenes per condition (default 36: about
// 2,000 cards), -eval-train-n the taught cards (default 100),
// -eval-train-untaught the scenes of untaught cards (default 300),
// -eval-ref no reads without the empty table.

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"tablecam/vision/synth"
)

// cardsTrainSeed is the first scene seed of TestCardsTrainLearned (+
// 1,000·condition + scene; untaught scenes from + 90,000).
const cardsTrainSeed = synth.TrainSeedMin + 850_000

func TestCardsTrainLearned(t *testing.T) {
	if !*evalTrain {
		t.Skip("-args -eval-train runs the training diagnostic")
	}
	n := positiveOr(*evalTrainN, 100)
	scenes := min(positiveOr(*evalTrainScenes, 36), 1000)
	untaught := positiveOr(*evalTrainUntaught, 300)
	ref := *evalRef != "no"
	ix, teachSeeds := cardsTeachAll(t, n, 3)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	type trace struct {
		box          image.Rectangle
		id           string
		dist, second float64
	}
	var traces []trace
	r.traceMatchesForTest(func(box image.Rectangle, id string, dist, second float64) {
		traces = append(traces, trace{box, id, dist, second})
	})
	type confirm struct {
		box image.Rectangle
		id  string
		c   confirmKeysForTest
	}
	var confirms []confirm
	r.traceConfirmKeysForTest(func(box image.Rectangle, id string, c confirmKeysForTest) {
		confirms = append(confirms, confirm{box, id, c})
	})
	var seeds []int64
	var total cardsScore
	var lines []string
	for ci, c := range cardsLearnedConds() {
		var sc cardsScore
		for k := range scenes {
			seed := cardsTrainSeed + int64(ci)*1000 + int64(k)
			seeds = append(seeds, seed)
			s := cardsLearnedScene(seed, n, true, 0)
			c.set(&s)
			m, truth, err := synth.RenderCardScene(s)
			if err != nil {
				m.Close()
				continue
			}
			traces, confirms = traces[:0], confirms[:0]
			got, _, err := cardsRead(r, s, m, ref)
			if err != nil {
				m.Close()
				t.Fatal(err)
			}
			for _, tr := range truth {
				one := cardsMatch(got, []synth.CardTruth{tr}, func(tr synth.CardTruth) string { return cardsID(tr.Art) })
				sc.add(one)
				if one.right == 1 {
					continue
				}
				// What the reader saw over this card: its readings and the
				// best matches of the outlines mostly on it.
				var b strings.Builder
				spec := s.Cards[tr.Index]
				fmt.Fprintf(&b, "%s | scene %d card %s tilt %.0f angle %.0f box %v finger %v:", c.name, seed, cardsID(tr.Art), spec.Tilt, tr.Angle, tr.Box, spec.Finger)
				for _, g := range got {
					if in := g.Box.Intersect(tr.Box); in.Dx()*in.Dy() > 0 {
						fmt.Fprintf(&b, " read %s %v (%.2f);", g.ID, g.Box, g.Confidence)
					}
				}
				for _, x := range traces {
					if p := cardsTraceTruth(x.box, []synth.CardTruth{tr}); p != nil {
						fmt.Fprintf(&b, " outline %v nearest %s %.3f / %.3f;", x.box, x.id, x.dist, x.second)
					}
				}
				for _, x := range confirms {
					if p := cardsTraceTruth(x.box, []synth.CardTruth{tr}); p != nil {
						fmt.Fprintf(&b, " keys %s accepted %v found %d/%d distinct %d/%d cells %d/%d/%d stands %v;", x.id, x.c.Accepted, x.c.Found, x.c.Taught,
							x.c.DistinctFound, x.c.DistinctTaught, x.c.Cells, x.c.DistinctCells, x.c.TaughtCells, x.c.Stands)
					}
				}
				// The card on its true outline: is the outline or the
				// match at fault?
				if cm, err := canonicalCardForTest(m, tr.Corners, 64); err == nil {
					id, d, sec, _ := matchCanonicalForTest(ix, cm)
					fmt.Fprintf(&b, " TRUE outline: %s %.3f / %.3f;", id, d, sec)
					cm.Close()
				}
				lines = append(lines, b.String())
			}
			m.Close()
		}
		total.add(sc)
		t.Logf("%-28s %4d cards %6.2f%% right, %d unknown, %d wrong, %d missed", c.name, sc.cards, 100*sc.rate(), sc.unknown, sc.wrong, sc.missed)
	}
	falseIDs, untaughtCards := 0, 0
	for k := range untaught {
		seed := cardsTrainSeed + 90_000 + int64(k)
		seeds = append(seeds, seed)
		got, truth, ok := cardsReadUntaught(t, r, seed, n, cardsUntaughtCalib, ref)
		if !ok {
			continue
		}
		untaughtCards += len(truth)
		for _, g := range cardsFalseIDs(got) {
			falseIDs++
			t.Logf("untaught scene %d: read %s at %v", seed, g.ID, g.Box)
		}
	}
	cardsCheckSeeds(t, append(teachSeeds, seeds...), nil)
	for _, l := range lines {
		t.Log("lost: " + l)
	}
	t.Logf("training scenes, %d taught, %s: %d of %d cards right (%.2f%%), %d unknown, %d wrong, %d missed; untaught: %d false ids on %d cards",
		n, cardsRefName(ref), total.right, total.cards, 100*total.rate(), total.unknown, total.wrong, total.missed, falseIDs, untaughtCards)
}

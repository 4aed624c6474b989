package twom

// The odds are checked against a brute force written differently: it walks
// the black die's printed faces "1"–"9" and "0" as strings and applies the
// seed 004 rules coded again here, counting with math/big.

import (
	"math/big"
	"strconv"
	"testing"

	"tablecam/engine/dice"
)

func countFaces(t *testing.T, ok func(v int) bool) *big.Rat {
	t.Helper()
	n := 0
	faces := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}
	for _, s := range faces {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		if s == "0" {
			v = 10
		}
		if ok(v) {
			n++
		}
	}
	return big.NewRat(int64(n), int64(len(faces)))
}

func same(t *testing.T, what string, got dice.Ratio, want *big.Rat) {
	t.Helper()
	if got.Rat().Cmp(want) != 0 {
		t.Errorf("%s = %s, want %s", what, got, want.RatString())
	}
}

// seed 004 "Lärmanzeiger setzen" (line 304): encounter at or under the
// noise; "Tod von Feinden" (line 538) and "Der Tod wandelt unter uns"
// (line 455): at or under the empathy.
func TestSeed004Odds_MatchBruteForce(t *testing.T) {
	for n := -1; n <= 12; n++ {
		level := n
		same(t, "NoiseOdds("+strconv.Itoa(n)+")", NoiseOdds(n), countFaces(t, func(v int) bool { return !(v > level) }))
		same(t, "EmpathyOdds("+strconv.Itoa(n)+")", EmpathyOdds(n), countFaces(t, func(v int) bool { return !(v > level) }))
	}
	// Hand-checked: noise 3 meets someone on 1, 2 or 3: 3/10; at noise 10
	// and above always.
	same(t, "NoiseOdds(3)", NoiseOdds(3), big.NewRat(3, 10))
	same(t, "NoiseOdds(11)", NoiseOdds(11), big.NewRat(1, 1))
	// line 196–198: 4–10 opens.
	same(t, "LockpickOdds", LockpickOdds(), countFaces(t, func(v int) bool { return !(v < 4) }))
	same(t, "LockpickOdds", LockpickOdds(), big.NewRat(7, 10))
	// line 220–222: 1–5 hunger, 6–10 misery.
	h, m := ThirstOdds()
	same(t, "ThirstOdds hunger", h, big.NewRat(1, 2))
	same(t, "ThirstOdds misery", m, countFaces(t, func(v int) bool { return v >= 6 }))
}

// The odds agree with the rule functions themselves: the chance is the
// share of faces for which NoiseTest reports an encounter.
func TestSeed004Odds_AgreeWithNoiseTest(t *testing.T) {
	g, _ := advanceTo(t, newGame(t, 1, 0), StepNoise)
	for noise := 1; noise <= 10; noise++ {
		g.Noise = noise
		hits := 0
		for face := 0; face <= 9; face++ {
			_, out, err := NoiseTest(g, face)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range out {
				if o.Kind == KindEncounter {
					hits++
				}
			}
		}
		same(t, "NoiseOdds vs NoiseTest at "+strconv.Itoa(noise), NoiseOdds(noise), big.NewRat(int64(hits), 10))
	}
}

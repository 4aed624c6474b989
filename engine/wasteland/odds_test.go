package wasteland

// The odds are checked against a brute force written differently: it walks
// every face of a test die and both sides of every token as integers and
// applies the seed 001 rules coded again here.

import (
	"math/big"
	"testing"
)

// testDie is a twenty-faced fixture for the tests, not the real skill die
// (its face counts are unconfirmed): one Critical, one AP, numbers 2–10,
// three X.
var testDie = func() []SkillFace {
	f := []SkillFace{{Kind: Critical}, {Kind: AP}}
	for _, v := range []int{2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10} {
		f = append(f, SkillFace{Kind: Number, Value: v})
	}
	return append(f, SkillFace{Kind: X}, SkillFace{Kind: X}, SkillFace{Kind: X})
}()

// reading: Critical and AP count 1, X has none (-1 here).
func reading(f SkillFace) int {
	switch f.Kind {
	case Critical, AP:
		return 1
	case X:
		return -1
	}
	return f.Value
}

// brute counts (face, accuracy coin, dodge coin) outcomes that end in a
// pass, over len(faces)*4.
func brute(faces []SkillFace, skill int, acc, dodge bool) *big.Rat {
	pass := 0
	for _, f := range faces {
		for accCoin := 0; accCoin < 2; accCoin++ {
			for dodgeCoin := 0; dodgeCoin < 2; dodgeCoin++ {
				v := reading(f)
				ok := v >= 0 && v <= skill
				if !ok && acc && v >= 0 && f.Kind != Critical && accCoin == 1 {
					v -= 2 // seed 001 line 15; line 19: no luck changes a critical
					ok = v <= skill
				}
				if ok && dodge && f.Kind != Critical && dodgeCoin == 1 {
					ok = v+2 <= skill // seed 001 line 18–19
				}
				if ok {
					pass++
				}
			}
		}
	}
	return big.NewRat(int64(pass), int64(len(faces)*4))
}

// seed 001 "Genauigkeit" and "Ausweichen": exact chances of a skill test
// and an attack, with and without tokens, for every skill value.
func TestSeed001Odds_MatchBruteForce(t *testing.T) {
	for skill := 0; skill <= 12; skill++ {
		for _, p := range []Policy{{}, {Accuracy: true}, {Dodge: true}, {Accuracy: true, Dodge: true}} {
			got, err := SkillOdds(testDie, skill, p)
			if err != nil {
				t.Fatal(err)
			}
			if want := brute(testDie, skill, p.Accuracy, p.Dodge); got.Rat().Cmp(want) != 0 {
				t.Errorf("SkillOdds(skill %d, %+v) = %s, want %s", skill, p, got, want.RatString())
			}
		}
	}
	// Hand-checked on the fixture, skill 5: faces reading ≤ 5 are crit, AP
	// and 2,2,3,3,4,4,5,5 = 10 of 20; accuracy adds half of the 6,6,7,7
	// faces: 2 more, so 12/20.
	got, _ := SkillOdds(testDie, 5, Policy{})
	if got.String() != "1/2" {
		t.Errorf("SkillOdds(5) = %s, want 1/2", got)
	}
	got, _ = SkillOdds(testDie, 5, Policy{Accuracy: true})
	if got.String() != "3/5" {
		t.Errorf("SkillOdds(5, accuracy) = %s, want 3/5", got)
	}
	if _, err := SkillOdds(nil, 5, Policy{}); err == nil {
		t.Error("SkillOdds accepted a die without faces")
	}
}

package wasteland

import (
	"fmt"
	"math/big"

	"tablecam/engine/dice"
)

// Exact odds by enumeration: every face of the skill die (as listed, so a
// face printed twice is listed twice) and both sides of each luck token
// thrown, each side with chance 1/2.

// Policy says which tokens are thrown whenever they are legal.
type Policy struct {
	// Accuracy: the tester throws a token after a failed roll.
	Accuracy bool `json:"accuracy,omitempty"`
	// Dodge: the target throws a token after a successful attack roll.
	Dodge bool `json:"dodge,omitempty"`
}

// SkillOdds is the chance that a test on the skill value passes with the
// die's faces, throwing the tokens the policy names whenever legal (seed
// 001 "Genauigkeit", "Ausweichen"). With a Dodge policy the test is an
// attack on a target holding a token.
func SkillOdds(faces []SkillFace, skill int, p Policy) (dice.Ratio, error) {
	if len(faces) == 0 {
		return dice.Ratio{}, fmt.Errorf("skill odds: the die has no faces")
	}
	total := new(big.Rat)
	each := big.NewRat(1, int64(len(faces)))
	for _, f := range faces {
		if f.Kind == Number && f.Value < 1 {
			return dice.Ratio{}, fmt.Errorf("skill odds: number face %d below 1", f.Value)
		}
		var r Roll
		if p.Dodge {
			r = NewAttack(skill, f, Unit{LUC: 1, Tokens: 1}, Unit{LUC: 1, Tokens: 1})
		} else {
			r = NewTest(skill, f, Unit{LUC: 1, Tokens: 1})
		}
		total.Add(total, new(big.Rat).Mul(each, passChance(r, p)))
	}
	return dice.FromRat(total)
}

// passChance follows the policy from a roll: each legal token thrown
// splits the chance in two halves.
func passChance(r Roll, p Policy) *big.Rat {
	for _, u := range []Use{Accuracy, Dodge} {
		if (u == Accuracy && !p.Accuracy) || (u == Dodge && !p.Dodge) || legal(r, u) != nil {
			continue
		}
		shown, _, _ := Apply(r, u, true)
		blank, _, _ := Apply(r, u, false)
		sum := new(big.Rat).Add(passChance(shown, p), passChance(blank, p))
		return sum.Mul(sum, big.NewRat(1, 2))
	}
	if r.Success() {
		return big.NewRat(1, 1)
	}
	return new(big.Rat)
}

package warfare

import (
	"tablecam/engine/dice"
)

// Exact odds by enumeration of the ten d10 faces: every chance is the
// number of faces that satisfy the rule over 10 (or over 100 for 2d10).

// TestOdds is the chance of a roll-under test with the modifier added to
// the roll (seed 002 ch. 1 "Riguardo ai Dadi").
func TestOdds(stat, mod int) dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return judge(stat, mod, v).Success })
}

// AttackOdds are the chances of an attack roll.
type AttackOdds struct {
	Hit       dice.Ratio `json:"hit"`
	KnockDown dice.Ratio `json:"knock_down"`
}

// MeleeOdds is the chance that a melee attack hits and that it knocks the
// target down (seed 002 ch. 4 "Attacchi in Mischia").
func MeleeOdds(m Melee) AttackOdds {
	return attackOdds(func(v int) Result {
		r, _ := MeleeAttack(m, v)
		return r
	})
}

// RangedOdds is the chance that a ranged attack hits and that it knocks the
// target down (seed 002 ch. 4 "Attacchi a Distanza").
func RangedOdds(r Ranged) AttackOdds {
	return attackOdds(func(v int) Result {
		res, _ := RangedAttack(r, v)
		return res
	})
}

func attackOdds(roll func(v int) Result) AttackOdds {
	vals := dice.D10Values()
	return AttackOdds{
		Hit:       dice.Count(vals, func(v int) bool { return roll(v).Success }),
		KnockDown: dice.Count(vals, func(v int) bool { return roll(v).KnockDown }),
	}
}

// SaveOdds is the chance that a hit unit saves: Endurance test with the
// weapon's save modifier (seed 002 ch. 4 "Danno e Morte").
func SaveOdds(endurance, saveMod int) dice.Ratio { return TestOdds(endurance, saveMod) }

// LightOdds is the chance of each light level at setup on 2d10 (seed 002
// ch. 6 "Livello di Luce"), over the 100 ordered pairs of faces.
func LightOdds() map[Light]dice.Ratio {
	counts := map[Light]int64{}
	for _, a := range dice.D10Values() {
		for _, b := range dice.D10Values() {
			counts[lightForSum(a+b)]++
		}
	}
	out := map[Light]dice.Ratio{}
	for _, l := range []Light{Dawn, Day, Dusk, Darkness} {
		out[l], _ = dice.NewRatio(counts[l], 100)
	}
	return out
}

// InitiativeOdds is the chance that side a, and that side b, becomes this
// turn's attacker, counting the rerolls of unbroken ties: rerolls repeat
// the same contest, so each side's chance is its share of the decided
// outcomes of one roll (seed 002 ch. 4 "Tirare per l'Iniziativa"). The
// faces of a and b are ignored.
func InitiativeOdds(a, b InitiativeRoll) (pa, pb dice.Ratio) {
	var wa, wb int64
	for _, va := range dice.D10Values() {
		for _, vb := range dice.D10Values() {
			switch initiative(va, vb, a, b).Winner {
			case SideA:
				wa++
			case SideB:
				wb++
			}
		}
	}
	pa, _ = dice.NewRatio(wa, wa+wb)
	pb, _ = dice.NewRatio(wb, wa+wb)
	return pa, pb
}

// InitiativeRerollOdds is the chance that one initiative roll ties with no
// Luck to break it, so both sides roll again (seed 002 ch. 4 "Tirare per
// l'Iniziativa"), over the 100 ordered pairs of faces.
func InitiativeRerollOdds(a, b InitiativeRoll) dice.Ratio {
	var n int64
	for _, va := range dice.D10Values() {
		for _, vb := range dice.D10Values() {
			if initiative(va, vb, a, b).Reroll {
				n++
			}
		}
	}
	r, _ := dice.NewRatio(n, 100)
	return r
}

// MineDamageOdds is the chance of each damage of a mine's damage roll,
// 1d10 − 5 and at least 1 (seed 002 ch. 6 "Far Brillare le Mine"): index k
// is k damage, over the ten faces.
func MineDamageOdds() []dice.Ratio {
	out := make([]dice.Ratio, 6)
	for k := range out {
		out[k] = dice.Count(dice.D10Values(), func(v int) bool {
			d, _ := MineDamage(v)
			return d == k
		})
	}
	return out
}

// MineOdds are the chances for a unit caught by an exploding mine.
type MineOdds struct {
	// Save is the chance that its Endurance save, with the mine's save
	// modifier, succeeds.
	Save dice.Ratio `json:"save"`
	// Damage[k] is the chance that it takes k damage: Damage[0] is the
	// save; a failed save takes the damage roll's 1d10 − 5, at least 1.
	Damage []dice.Ratio `json:"damage"`
}

// MineOddsFor is MineOdds for a unit of this Endurance (seed 002 ch. 6
// "Far Brillare le Mine"), over the 100 ordered pairs of the save's and the
// damage roll's faces.
func MineOddsFor(endurance int) MineOdds {
	counts := make([]int64, 6)
	for _, s := range dice.D10Values() {
		for _, d := range dice.D10Values() {
			if r, _ := MineSave(endurance, s); r.Success {
				counts[0]++
				continue
			}
			k, _ := MineDamage(d)
			counts[k]++
		}
	}
	o := MineOdds{Save: TestOdds(endurance, MineSaveMod)}
	for _, n := range counts {
		r, _ := dice.NewRatio(n, 100)
		o.Damage = append(o.Damage, r)
	}
	return o
}

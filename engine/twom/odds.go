package twom

import (
	"fmt"

	"tablecam/engine/dice"
)

// Exact odds by enumeration: the black-die tests over its ten faces, a
// combat roll over the faces of its die.

// NoiseOdds is the chance that a noise test at this noise level starts an
// encounter (seed 004 "Lärmanzeiger setzen").
func NoiseOdds(noise int) dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return v <= noise })
}

// EmpathyOdds is the chance that an empathy test (a kill, or "death walks
// among us") raises the misery of a character with this empathy (seed 004
// "Tod von Feinden", "Der Tod wandelt unter uns").
func EmpathyOdds(empathy int) dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return v <= empathy })
}

// LockpickOdds is the chance that a lockpick opens a locked door (seed 004
// "Schloss knacken").
func LockpickOdds() dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return v >= LockpickOpens })
}

// ThirstOdds is the chance that a character without water gains hunger,
// and that it gains misery (seed 004 "Durst").
func ThirstOdds() (hunger, misery dice.Ratio) {
	vals := dice.D10Values()
	return dice.Count(vals, func(v int) bool { return v <= 5 }), dice.Count(vals, func(v int) bool { return v > 5 })
}

// CombatOdds are the chances of a combat roll's outcomes.
type CombatOdds struct {
	// Wounds[k] is the chance of exactly k wounds (on guard in a night
	// raid: k damage or wounds cancelled); special faces and the fate face
	// count no symbols.
	Wounds []dice.Ratio `json:"wounds"`
	// Kills is the chance that the shotgun's face with a shotgun or the
	// hatchet's face with a hatchet shows: the opponent dies outright, and
	// in a night raid the card is ignored.
	Kills dice.Ratio `json:"kills"`
	// Fate is the chance that the fate face shows: a miss unless the group
	// trusts fate.
	Fate dice.Ratio `json:"fate"`
	// OutOfAmmo is the chance that an enemy's firearm runs empty.
	OutOfAmmo dice.Ratio `json:"out_of_ammo"`
}

// CombatRollOdds enumerates a combat roll with weapon w on a die with these
// faces (as printed: a face printed twice is listed twice): one roll, or
// shots 2 for the assault rifle's two rolls with their symbols added (seed
// 004 "Waffen", "Wachen und Waffen"). enemy is an enemy's roll. Each roll
// is judged by Roll; with two rolls Kills, Fate and OutOfAmmo count rolls
// where either die shows the face.
func CombatRollOdds(w Weapon, faces []CombatFace, shots int, enemy bool) (CombatOdds, error) {
	if len(faces) == 0 {
		return CombatOdds{}, fmt.Errorf("combat odds: the die has no faces")
	}
	if enemy && shots != 1 {
		return CombatOdds{}, fmt.Errorf("combat odds: an enemy rolls once")
	}
	if _, err := AmmoCost(w, shots); err != nil {
		return CombatOdds{}, fmt.Errorf("combat odds: %w", err)
	}
	strikes := make([]Strike, len(faces))
	for i, f := range faces {
		s, err := Roll(w, f, enemy)
		if err != nil {
			return CombatOdds{}, fmt.Errorf("combat odds: %w", err)
		}
		strikes[i] = s
	}
	wounds := map[int]int64{}
	var kills, fate, empty, total int64
	var walk func(k int, acc Strike)
	walk = func(k int, acc Strike) {
		if k == shots {
			total++
			wounds[acc.Wounds]++
			kills += b2i(acc.Kills)
			fate += b2i(acc.Fate)
			empty += b2i(acc.OutOfAmmo)
			return
		}
		for _, s := range strikes {
			walk(k+1, Strike{Wounds: acc.Wounds + s.Wounds, Kills: acc.Kills || s.Kills, Fate: acc.Fate || s.Fate, OutOfAmmo: acc.OutOfAmmo || s.OutOfAmmo})
		}
	}
	walk(0, Strike{})
	var o CombatOdds
	most := 0
	for k := range wounds {
		most = max(most, k)
	}
	for k := 0; k <= most; k++ {
		r, _ := dice.NewRatio(wounds[k], total)
		o.Wounds = append(o.Wounds, r)
	}
	o.Kills, _ = dice.NewRatio(kills, total)
	o.Fate, _ = dice.NewRatio(fate, total)
	o.OutOfAmmo, _ = dice.NewRatio(empty, total)
	return o, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

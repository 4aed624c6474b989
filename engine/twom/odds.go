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

// A roll an enemy keeps without a reroll although it deals no wounds: a
// kill outright, an empty firearm (its marker moves to another row
// instead, seed 004 "Waffengebrauch im Kampf") and the fate face (the group
// decides, "Schicksalssymbol"). Only a plain miss is the "0 wounds" of
// "Stärke im Kampf" that enemies reroll.
func enemyKeeps(s Strike) bool { return s.Wounds > 0 || s.Kills || s.OutOfAmmo || s.Fate }

// EnemyRerollOdds enumerates an enemy's combat roll with its strength's
// automatic rerolls: a roll of 0 wounds is rolled again while rerolls are
// left, and the last roll stands (seed 004 "Stärke im Kampf"). A kill
// outright, an empty firearm and the fate face are kept (enemyKeeps). The
// odds are those of the roll that stands.
func EnemyRerollOdds(w Weapon, faces []CombatFace, strength int) (CombatOdds, error) {
	if strength < 0 || strength > MaxStrength {
		return CombatOdds{}, fmt.Errorf("combat odds: strength %d must be 0 … %d", strength, MaxStrength)
	}
	single, err := CombatRollOdds(w, faces, 1, true)
	if err != nil {
		return CombatOdds{}, err
	}
	strikes := make([]Strike, len(faces))
	for i, f := range faces {
		strikes[i], _ = Roll(w, f, true)
	}
	// Each face of the roll that stands is reached by rolling plain misses
	// before it; a plain miss stands only on the last roll. With n faces
	// and m plain misses, a kept face stands with weight
	// n^S + m·n^(S-1) + … + m^S over n^(S+1), a plain miss with m^(S+1).
	n, m := int64(len(faces)), int64(0)
	for _, s := range strikes {
		if !enemyKeeps(s) {
			m++
		}
	}
	total := pow(n, strength+1)
	var kept int64
	for k := 0; k <= strength; k++ {
		kept += pow(m, k) * pow(n, strength-k)
	}
	wounds := make([]int64, len(single.Wounds))
	var kills, fate, empty int64
	for _, s := range strikes {
		wt := kept
		if !enemyKeeps(s) {
			wt = pow(m, strength)
		}
		wounds[s.Wounds] += wt
		kills += wt * b2i(s.Kills)
		fate += wt * b2i(s.Fate)
		empty += wt * b2i(s.OutOfAmmo)
	}
	var o CombatOdds
	for _, c := range wounds {
		r, err := dice.NewRatio(c, total)
		if err != nil {
			return CombatOdds{}, fmt.Errorf("combat odds: %w", err)
		}
		o.Wounds = append(o.Wounds, r)
	}
	o.Kills, _ = dice.NewRatio(kills, total)
	o.Fate, _ = dice.NewRatio(fate, total)
	o.OutOfAmmo, _ = dice.NewRatio(empty, total)
	return o, nil
}

// ReachOdds are a character's chances with its strength's rerolls (seed 004
// "Stärke im Kampf", "Stärke während des nächtlichen Überfalls": a
// character need not use them all, and the last roll stands). Reach[k] is
// the chance of at least k wounds (k symbols against a raid) or a kill
// outright, when every roll short of that is rolled again while rerolls
// are left; Reach[0] is 1. The fate face counts as a miss there: a group
// that trusts fate keeps the roll instead.
func ReachOdds(w Weapon, faces []CombatFace, strength int) ([]dice.Ratio, error) {
	if strength < 0 || strength > MaxStrength {
		return nil, fmt.Errorf("combat odds: strength %d must be 0 … %d", strength, MaxStrength)
	}
	single, err := CombatRollOdds(w, faces, 1, false)
	if err != nil {
		return nil, err
	}
	n := int64(len(faces))
	total := pow(n, strength+1)
	var reach []dice.Ratio
	for k := range single.Wounds {
		var short int64
		for _, f := range faces {
			s, _ := Roll(w, f, false)
			if s.Wounds < k && !s.Kills {
				short++
			}
		}
		// The goal is missed only when every roll falls short.
		r, err := dice.NewRatio(total-pow(short, strength+1), total)
		if err != nil {
			return nil, fmt.Errorf("combat odds: %w", err)
		}
		reach = append(reach, r)
	}
	return reach, nil
}

// MaxStrength bounds the strength the odds take (the count of rolls stays
// small enough to count exactly).
const MaxStrength = 10

// pow is b^e for small non-negative e.
func pow(b int64, e int) int64 {
	r := int64(1)
	for range e {
		r *= b
	}
	return r
}

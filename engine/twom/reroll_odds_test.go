package twom

// The odds with rerolls are checked against a brute force written
// differently: it walks every sequence of Strength+1 rolls of the die's
// printed faces (an odometer over face indices), plays the seed 004 rule
// coded again here from the face itself (not through Roll), and counts the
// roll that stands with math/big.

import (
	"fmt"
	"math/big"
	"testing"
)

// rerollDice are dice as a group lists them, a face printed twice listed
// twice, with the weapons they are rolled for.
var rerollDice = []struct {
	weapon Weapon
	faces  []CombatFace
}{
	{Unarmed, []CombatFace{{}, {}, {}, {Symbols: 1}, {Symbols: 1}, {Symbols: 2}}},
	{Unarmed, []CombatFace{{}, {}, {Symbols: 1}, {Symbols: 1}, {Mark: MarkFate}, {Symbols: 2}}},
	{Hatchet, []CombatFace{{}, {Symbols: 1}, {Symbols: 1}, {Symbols: 2}, {Mark: MarkAxe}, {Mark: MarkFate}}},
	{Knife, []CombatFace{{}, {Symbols: 1}, {Symbols: 1}, {Symbols: 2}, {Mark: MarkAxe}, {Mark: MarkFate}}},
	{Shotgun, []CombatFace{{}, {Symbols: 1}, {Symbols: 2}, {Symbols: 2}, {Mark: MarkShot}, {Mark: MarkNoAmmo}, {Mark: MarkFate}}},
	{Pistol, []CombatFace{{}, {Symbols: 1}, {Symbols: 2}, {Symbols: 2}, {Mark: MarkShot}, {Mark: MarkNoAmmo}, {Mark: MarkFate}}},
}

// sequences calls f with every sequence of rolls rolls of n faces.
func sequences(n, rolls int, f func(seq []int)) {
	seq := make([]int, rolls)
	for {
		f(seq)
		i := 0
		for ; i < rolls; i++ {
			seq[i]++
			if seq[i] < n {
				break
			}
			seq[i] = 0
		}
		if i == rolls {
			return
		}
	}
}

// kills: line 528–530, the shotgun's face with a shotgun, the hatchet's
// with a hatchet.
func bruteKills(w Weapon, f CombatFace) bool {
	return f.Mark == MarkShot && w == Shotgun || f.Mark == MarkAxe && w == Hatchet
}

// seed 004 "Stärke im Kampf" (line 502): enemies use their strength
// automatically and reroll only a result of 0 wounds; the last roll stands.
// A kill, an empty firearm (line 524: its marker moves instead) and the
// fate face (line 536: the group decides) are kept.
func TestSeed004EnemyRerollOdds_MatchBruteForce(t *testing.T) {
	for _, d := range rerollDice {
		for strength := 0; strength <= 3; strength++ {
			got, err := EnemyRerollOdds(d.weapon, d.faces, strength)
			if err != nil {
				t.Fatal(err)
			}
			wounds := map[int]int64{}
			var kills, fate, empty, total int64
			sequences(len(d.faces), strength+1, func(seq []int) {
				total++
				var f CombatFace
				for i, k := range seq {
					f = d.faces[k]
					noAmmo := f.Mark == MarkNoAmmo && (d.weapon == Pistol || d.weapon == Shotgun || d.weapon == AssaultRifle)
					if f.Symbols > 0 || bruteKills(d.weapon, f) || noAmmo || f.Mark == MarkFate || i == strength {
						if noAmmo {
							empty++
						}
						break
					}
				}
				wounds[f.Symbols]++
				if bruteKills(d.weapon, f) {
					kills++
				}
				if f.Mark == MarkFate {
					fate++
				}
			})
			what := fmt.Sprintf("%s strength %d", d.weapon, strength)
			if len(got.Wounds) != 3 {
				t.Fatalf("%s: %d wound counts, want 0–2", what, len(got.Wounds))
			}
			for k, p := range got.Wounds {
				same(t, fmt.Sprintf("%s: %d wounds", what, k), p, big.NewRat(wounds[k], total))
			}
			same(t, what+": kills", got.Kills, big.NewRat(kills, total))
			same(t, what+": fate", got.Fate, big.NewRat(fate, total))
			same(t, what+": out of ammo", got.OutOfAmmo, big.NewRat(empty, total))
		}
	}
	// Hand-checked: a die of three blanks, two 1s and a 2 at strength 1
	// misses only twice in a row (1/4), deals 1 on 2/6 of the first roll
	// and of the half of rerolls (1/2).
	got, err := EnemyRerollOdds(Unarmed, rerollDice[0].faces, 1)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "strength 1: 0 wounds", got.Wounds[0], big.NewRat(1, 4))
	same(t, "strength 1: 1 wound", got.Wounds[1], big.NewRat(1, 2))
	same(t, "strength 1: 2 wounds", got.Wounds[2], big.NewRat(1, 4))
	// Strength 0 is the roll alone.
	one, err := CombatRollOdds(Pistol, rerollDice[5].faces, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := EnemyRerollOdds(Pistol, rerollDice[5].faces, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := range one.Wounds {
		same(t, fmt.Sprintf("strength 0: %d wounds", k), zero.Wounds[k], one.Wounds[k].Rat())
	}
	if _, err := EnemyRerollOdds(Pistol, rerollDice[5].faces, -1); err == nil {
		t.Error("strength -1 accepted")
	}
}

// seed 004 "Stärke im Kampf" (line 500) and "Stärke während des
// nächtlichen Überfalls" (line 395): a character has its strength's
// rerolls, need not use them all, and the last roll stands. Reach[k] is
// the chance of k wounds or more (or a kill outright) when the character
// rerolls every roll short of that.
func TestSeed004CharacterReachOdds_MatchBruteForce(t *testing.T) {
	for _, d := range rerollDice {
		for strength := 0; strength <= 3; strength++ {
			got, err := ReachOdds(d.weapon, d.faces, strength)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 {
				t.Fatalf("%s: %d goals, want 0–2 wounds", d.weapon, len(got))
			}
			for goal := range got {
				var hit, total int64
				sequences(len(d.faces), strength+1, func(seq []int) {
					total++
					for _, k := range seq {
						if f := d.faces[k]; f.Symbols >= goal || bruteKills(d.weapon, f) {
							hit++
							return
						}
					}
				})
				same(t, fmt.Sprintf("%s strength %d: %d wounds or more", d.weapon, strength, goal), got[goal], big.NewRat(hit, total))
			}
		}
	}
	// Hand-checked: three blanks, two 1s and a 2 at strength 1: a wound
	// unless both rolls miss (3/4); 2 wounds unless both fall short
	// (1 − 25/36).
	got, err := ReachOdds(Unarmed, rerollDice[0].faces, 1)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "strength 1: a wound", got[1], big.NewRat(3, 4))
	same(t, "strength 1: 2 wounds", got[2], big.NewRat(11, 36))
}

package warfare

// The odds are checked against a brute force written differently: it walks
// the printed faces "0"–"9" as strings, reads them with strconv, and applies
// the seed 002 rules coded again here, counting with math/big.

import (
	"math/big"
	"strconv"
	"testing"

	"tablecam/engine/dice"
)

// printedFaces are the ten faces as printed on a d10.
var printedFaces = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

func faceValue(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		n = 10 // seed 002 line 128
	}
	return n
}

// bruteTest: seed 002 lines 124–138, coded independently.
func bruteTest(t *testing.T, stat, mod int, want func(v int) bool) *big.Rat {
	t.Helper()
	hits := 0
	for _, s := range printedFaces {
		v := faceValue(t, s)
		if s != "0" && v+mod <= stat && want(v) {
			hits++
		}
	}
	return big.NewRat(int64(hits), int64(len(printedFaces)))
}

func sameRat(t *testing.T, what string, got dice.Ratio, want *big.Rat) {
	t.Helper()
	if got.Rat().Cmp(want) != 0 {
		t.Errorf("%s = %s, want %s", what, got, want.RatString())
	}
}

func anyRoll(int) bool { return true }

// seed 002 ch. 1 "Riguardo ai Dadi" (lines 124–138): exact chance of a test
// for every stat and modifier in range.
func TestSeed002Odds_TestMatchesBruteForce(t *testing.T) {
	for stat := 0; stat <= 12; stat++ {
		for mod := -6; mod <= 8; mod++ {
			sameRat(t, "TestOdds("+strconv.Itoa(stat)+","+strconv.Itoa(mod)+")", TestOdds(stat, mod), bruteTest(t, stat, mod, anyRoll))
		}
	}
	// A hand-checked value: stat 10, any modifier that would let every face
	// pass still leaves the 10 failing (line 134): 9/10.
	sameRat(t, "TestOdds(10,-9)", TestOdds(10, -9), big.NewRat(9, 10))
}

// seed 002 ch. 4 "Attacchi in Mischia" and "Attacchi a Distanza": hit and
// knock-down chances with the seed's modifiers.
func TestSeed002Odds_AttacksMatchBruteForce(t *testing.T) {
	melee := []Melee{
		{Strength: 7, TargetAC: 2},
		{Strength: 7, TargetAC: 2, FromBehind: true},
		{Strength: 9, TargetAC: 1, Charge: true},
		{Strength: 10},
	}
	for _, m := range melee {
		mod := m.TargetAC
		if m.FromBehind {
			mod-- // line 1016–1018
		}
		if m.Charge {
			mod += 4 // line 905–907
		}
		o := MeleeOdds(m)
		sameRat(t, "melee hit", o.Hit, bruteTest(t, m.Strength, mod, anyRoll))
		sameRat(t, "melee knock-down", o.KnockDown, bruteTest(t, m.Strength, mod, func(v int) bool { return v == 1 || v == 2 }))
	}
	ranged := []struct {
		r   Ranged
		mod int // written out by hand from lines 1053–1065, 895, 1919–1951
	}{
		{Ranged{Agility: 8, TargetAC: 1}, 1},
		{Ranged{Agility: 8, TargetAC: 1, Cover: true, Flying: true}, 3},
		{Ranged{Agility: 8, TargetAC: 2, Light: Darkness, MoveAndFire: true}, 8},
		{Ranged{Agility: 8, TargetAC: 2, AreaEffect: true, Light: Dusk, Shooter: ShooterSuperMutant}, 0},
	}
	for _, r := range ranged {
		o := RangedOdds(r.r)
		sameRat(t, "ranged hit", o.Hit, bruteTest(t, r.r.Agility, r.mod, anyRoll))
		sameRat(t, "ranged knock-down", o.KnockDown, bruteTest(t, r.r.Agility, r.mod, func(v int) bool { return v == 1 }))
	}
	// Hand-checked: Strength 7 against AC 2 hits on 1–5: 1/2; knocks down
	// on 1–2: 1/5.
	o := MeleeOdds(Melee{Strength: 7, TargetAC: 2})
	sameRat(t, "melee S7 AC2 hit", o.Hit, big.NewRat(1, 2))
	sameRat(t, "melee S7 AC2 knock-down", o.KnockDown, big.NewRat(1, 5))
}

// seed 002 ch. 6 "Livello di Luce" (lines 1967–1975): the 2d10 table's
// chances, against a count over the 100 pairs of printed faces.
func TestSeed002Odds_LightTable(t *testing.T) {
	counts := map[Light]int64{}
	for _, a := range printedFaces {
		for _, b := range printedFaces {
			sum := faceValue(t, a) + faceValue(t, b)
			var l Light
			if sum >= 19 {
				l = Darkness
			} else if sum >= 17 {
				l = Dusk
			} else if sum >= 6 {
				l = Day
			} else {
				l = Dawn
			}
			counts[l]++
		}
	}
	got := LightOdds()
	for l, n := range counts {
		sameRat(t, "LightOdds["+string(l)+"]", got[l], big.NewRat(n, 100))
	}
	// Hand-checked: sums 2–5 come from 1+2+3+4 = 10 pairs.
	sameRat(t, "LightOdds[dawn]", got[Dawn], big.NewRat(10, 100))
}

// seed 002 ch. 4 "Tirare per l'Iniziativa" (lines 626–648): the chance of
// becoming the attacker, with rerolls of unbroken ties.
func TestSeed002Odds_Initiative(t *testing.T) {
	// Equal sides without heroes: 1/2 each.
	pa, pb := InitiativeOdds(InitiativeRoll{}, InitiativeRoll{})
	sameRat(t, "even a", pa, big.NewRat(1, 2))
	sameRat(t, "even b", pb, big.NewRat(1, 2))
	// Last attacker +2, no heroes: pairs with va+2 > vb over pairs with
	// va+2 != vb.
	win, decided := int64(0), int64(0)
	for _, sa := range printedFaces {
		for _, sb := range printedFaces {
			va, vb := faceValue(t, sa)+2, faceValue(t, sb)
			if va != vb {
				decided++
				if va > vb {
					win++
				}
			}
		}
	}
	pa, pb = InitiativeOdds(InitiativeRoll{LastAttacker: true}, InitiativeRoll{})
	sameRat(t, "bonus a", pa, big.NewRat(win, decided))
	sameRat(t, "bonus b", pb, big.NewRat(decided-win, decided))
	// With a luckier hero on b, b also wins every tie: a's chance is the
	// share of strictly higher rolls over 100.
	pa, _ = InitiativeOdds(InitiativeRoll{}, InitiativeRoll{HasHero: true, HeroLuck: 3})
	sameRat(t, "luck b", pa, big.NewRat(45, 100))
}

// seed 002 ch. 4 "Tirare per l'Iniziativa" (lines 626–640): the chance that
// one roll ties with no Luck to break it and is rolled again, counted over
// the printed faces for every bonus and hero combination.
func TestSeed002Odds_InitiativeReroll(t *testing.T) {
	luck := func(has bool, l int) InitiativeRoll { return InitiativeRoll{HasHero: has, HeroLuck: l} }
	for _, tc := range []struct {
		a, b InitiativeRoll
	}{
		{InitiativeRoll{}, InitiativeRoll{}},
		{InitiativeRoll{LastAttacker: true}, InitiativeRoll{}},
		{InitiativeRoll{}, InitiativeRoll{LastAttacker: true}},
		{luck(true, 4), luck(true, 4)},
		{luck(true, 4), luck(true, 5)},
		{luck(true, 0), InitiativeRoll{}},
	} {
		tied := int64(0)
		for _, sa := range printedFaces {
			for _, sb := range printedFaces {
				va, vb := faceValue(t, sa), faceValue(t, sb)
				if tc.a.LastAttacker {
					va += 2
				}
				if tc.b.LastAttacker {
					vb += 2
				}
				// A tie is broken by the hero of higher Luck; a side without
				// a hero loses to one with any; no heroes or equal Luck
				// rolls again.
				broken := (tc.a.HasHero || tc.b.HasHero) && !(tc.a.HasHero && tc.b.HasHero && tc.a.HeroLuck == tc.b.HeroLuck)
				if va == vb && !broken {
					tied++
				}
			}
		}
		sameRat(t, "InitiativeRerollOdds", InitiativeRerollOdds(tc.a, tc.b), big.NewRat(tied, 100))
	}
	// Hand-checked: no bonus, no heroes: the 10 doubles of 100 pairs.
	sameRat(t, "even reroll", InitiativeRerollOdds(InitiativeRoll{}, InitiativeRoll{}), big.NewRat(1, 10))
	// +2 for a: a tie needs vb = va+2, 8 pairs.
	sameRat(t, "bonus reroll", InitiativeRerollOdds(InitiativeRoll{LastAttacker: true}, InitiativeRoll{}), big.NewRat(8, 100))
}

// seed 002 ch. 6 "Far Brillare le Mine" (lines 1876–1898): "Il modificatore
// salvezza è -2, il danno è 1d10-5, il danno minimo è 1". The brute force
// walks the printed faces of the save's and the damage roll's d10s.
func TestSeed002Odds_Mine(t *testing.T) {
	// Damage roll alone: 1 … 6 give 1 (six faces), 7 … 0 give 2 … 5.
	dmg := MineDamageOdds()
	for k := range 6 {
		n := 0
		for _, s := range printedFaces {
			d := faceValue(t, s) - 5
			if d < 1 {
				d = 1
			}
			if d == k {
				n++
			}
		}
		sameRat(t, "MineDamageOdds["+strconv.Itoa(k)+"]", dmg[k], big.NewRat(int64(n), 10))
	}
	sameRat(t, "MineDamageOdds[1]", dmg[1], big.NewRat(3, 5))
	sameRat(t, "MineDamageOdds[5]", dmg[5], big.NewRat(1, 10))
	for end := 0; end <= 12; end++ {
		o := MineOddsFor(end)
		counts := make([]int64, 6)
		for _, s := range printedFaces {
			// The save: the roll with −2 at or under Endurance; a printed
			// 0 (a 10) always fails.
			saved := s != "0" && faceValue(t, s)-2 <= end
			for _, d := range printedFaces {
				if saved {
					counts[0]++
					continue
				}
				counts[max(1, faceValue(t, d)-5)]++
			}
		}
		sameRat(t, "MineOddsFor("+strconv.Itoa(end)+").Save", o.Save, big.NewRat(counts[0], 100))
		for k, n := range counts {
			sameRat(t, "MineOddsFor("+strconv.Itoa(end)+").Damage["+strconv.Itoa(k)+"]", o.Damage[k], big.NewRat(n, 100))
		}
	}
	// Hand-checked: Endurance 4 saves on 1 … 6 (6 − 2 = 4), 3/5; a failed
	// save (2/5) takes 1 damage with chance 3/5: 6/25.
	o := MineOddsFor(4)
	sameRat(t, "MineOddsFor(4).Save", o.Save, big.NewRat(3, 5))
	sameRat(t, "MineOddsFor(4).Damage[1]", o.Damage[1], big.NewRat(6, 25))
}

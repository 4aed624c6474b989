package main

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"testing"
)

// The warfare odds of `tablecam odds` are checked against a count of their
// own: the ten printed faces "0"–"9" (0 reads 10), the seed 002 rules and
// modifiers written out by hand per case, counted with math/big.

var d10Printed = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

func d10Read(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		return 10 // seed 002 ch. 1 "Riguardo ai Dadi": the 0 is a 10
	}
	return n
}

func ratString(r *big.Rat) string { return fmt.Sprintf("%s/%s", r.Num(), r.Denom()) }

// oddsLine finds "P(label) = N/D" in out.
func oddsLine(t *testing.T, out, label string) string {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta("P("+label+")") + ` *= (\d+/\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no P(%s) in\n%s", label, out)
	}
	return m[1]
}

// seed 002 ch. 4 "Attacchi in Mischia" (a Strength roll with the target's
// AC added, from behind −1, a 10 fails, a 1 or 2 that hits knocks down),
// "Attacchi a Distanza" (Agility with the AC, +1 by a wall or rough ground,
// +2 dark, +1 flying, a 1 that hits knocks down), "Movimento e Fuoco" and
// "Carica" (−4 to the attack: +4 on the roll), ch. 6 "Livello di Luce"
// (+2 at dawn and dusk except robots, ghouls and super mutants; +2 in the
// dark except ghouls and super mutants).
func TestSeed002OddsCommandAttacks(t *testing.T) {
	data := t.TempDir()
	for _, tc := range []struct {
		args  []string
		stat  int
		mod   int // the seed's modifiers, summed by hand
		knock []int
	}{
		{[]string{"--melee", "7", "--ac", "2"}, 7, 2, []int{1, 2}},
		{[]string{"--melee", "7", "--ac", "2", "--behind"}, 7, 1, []int{1, 2}},
		{[]string{"--melee", "9", "--ac", "1", "--charge"}, 9, 5, []int{1, 2}},
		{[]string{"--melee", "10", "--ac", "0", "--behind"}, 10, -1, []int{1, 2}},
		{[]string{"--shoot", "8", "--ac", "1"}, 8, 1, []int{1}},
		{[]string{"--shoot", "8", "--ac", "1", "--cover", "--flying"}, 8, 3, []int{1}},
		{[]string{"--shoot", "8", "--ac", "2", "--light", "darkness", "--moving"}, 8, 8, []int{1}},
		{[]string{"--shoot", "8", "--ac", "2", "--light", "dusk", "--shooter", "robot"}, 8, 2, []int{1}},
		{[]string{"--shoot", "9", "--ac", "3", "--light", "darkness", "--shooter", "robot", "--area"}, 9, 2, []int{1}},
		{[]string{"--shoot", "6", "--ac", "0", "--light", "dawn", "--shooter", "ghoul"}, 6, 0, []int{1}},
	} {
		out, _, err := runIn(t, data, append([]string{"odds", "--game", "warfare"}, tc.args...)...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		var hit, knock int64
		for _, s := range d10Printed {
			v := d10Read(t, s)
			if v == 10 || v+tc.mod > tc.stat {
				continue
			}
			hit++
			for _, k := range tc.knock {
				if v == k {
					knock++
				}
			}
		}
		if got, want := oddsLine(t, out, "hit"), ratString(big.NewRat(hit, 10)); got != want {
			t.Errorf("%v: P(hit) = %s, want %s\n%s", tc.args, got, want, out)
		}
		if got, want := oddsLine(t, out, "knock down"), ratString(big.NewRat(knock, 10)); got != want {
			t.Errorf("%v: P(knock down) = %s, want %s\n%s", tc.args, got, want, out)
		}
	}
	// Hand-checked: Strength 7 against AC 2 from behind hits on 1–6 (3/5)
	// and knocks down on 1–2 (1/5).
	out, _, err := runIn(t, data, "odds", "--game", "warfare", "--melee", "7", "--ac", "2", "--behind")
	if err != nil || oddsLine(t, out, "hit") != "3/5" || oddsLine(t, out, "knock down") != "1/5" {
		t.Errorf("melee 7 AC 2 from behind: %v\n%s", err, out)
	}
	for _, bad := range [][]string{
		{"--melee", "7", "--cover"},
		{"--shoot", "7", "--behind"},
		{"--melee", "7", "--shoot", "7"},
		{"--shoot", "7", "--light", "night"},
		{"--shoot", "7", "--shooter", "dog"},
		{"--melee", "0", "--ac", "2"},
	} {
		if _, _, err := runIn(t, data, append([]string{"odds", "--game", "warfare"}, bad...)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// seed 002 ch. 4 "Tirare per l'Iniziativa": 1d10 each, +2 for last turn's
// attacker, the higher total attacks, a tie goes to the hero of higher Luck,
// else both roll again. A side's chance counts the rerolls: its wins over
// the rolls that decide.
func TestSeed002OddsCommandInitiative(t *testing.T) {
	data := t.TempDir()
	for _, tc := range []struct {
		args         []string
		bonusA       int
		bonusB       int
		luckA, luckB int // -1: no hero
	}{
		{[]string{"--initiative"}, 0, 0, -1, -1},
		{[]string{"--initiative", "--last-attacker", "a"}, 2, 0, -1, -1},
		{[]string{"--initiative", "--last-attacker", "b", "--luck-a", "3"}, 0, 2, 3, -1},
		{[]string{"--initiative", "--luck-a", "4", "--luck-b", "4"}, 0, 0, 4, 4},
		{[]string{"--initiative", "--last-attacker", "a", "--luck-a", "2", "--luck-b", "5"}, 2, 0, 2, 5},
	} {
		out, _, err := runIn(t, data, append([]string{"odds", "--game", "warfare"}, tc.args...)...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		var winA, winB, again int64
		for _, sa := range d10Printed {
			for _, sb := range d10Printed {
				ta, tb := d10Read(t, sa)+tc.bonusA, d10Read(t, sb)+tc.bonusB
				switch {
				case ta > tb, ta == tb && tc.luckA > tc.luckB:
					winA++
				case tb > ta, ta == tb && tc.luckB > tc.luckA:
					winB++
				default:
					again++
				}
			}
		}
		for _, c := range []struct {
			label string
			want  *big.Rat
		}{
			{"a attacks", big.NewRat(winA, winA+winB)},
			{"b attacks", big.NewRat(winB, winA+winB)},
			{"rolled again", big.NewRat(again, 100)},
		} {
			if got := oddsLine(t, out, c.label); got != ratString(c.want) {
				t.Errorf("%v: P(%s) = %s, want %s\n%s", tc.args, c.label, got, ratString(c.want), out)
			}
		}
	}
	// Hand-checked: last turn's attacker a (+2) against no bonus: a wins
	// 64 of the 100 pairs (2 + 3 + … + 9 + 10 + 10 faces of b below a's
	// total), b 28, 8 tie; a's chance is 64/92 = 16/23.
	out, _, err := runIn(t, data, "odds", "--game", "warfare", "--initiative", "--last-attacker", "a")
	if err != nil || oddsLine(t, out, "a attacks") != "16/23" {
		t.Errorf("initiative with a's +2: %v\n%s", err, out)
	}
	if _, _, err := runIn(t, data, "odds", "--game", "warfare", "--initiative", "--last-attacker", "c"); err == nil {
		t.Error("--last-attacker c: no error")
	}
}

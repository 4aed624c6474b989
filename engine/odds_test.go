package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"tablecam/models"
)

// oddsVATS mirrors the default V.A.T.S. face set of models/content/dice.yaml:
// per die P(0 hits) = 2/6, P(1 hit) = 3/6, P(2 hits) = 1/6.
func oddsVATS() models.FaceSet {
	return models.FaceSet{ID: "vats", Kind: models.KindSymbol, Faces: []models.Face{
		{ID: "head", Regions: []string{models.RegionHead}, Hits: 1},
		{ID: "arms", Regions: []string{models.RegionArms}},
		{ID: "legs", Regions: []string{models.RegionLegs}, Hits: 1},
		{ID: "torso", Regions: []string{models.RegionTorso}},
		{ID: "1h", Hits: 1},
		{ID: "2h", Hits: 2},
	}}
}

// oddsAssist mirrors the default assist die of models/content/dice.yaml.
func oddsAssist() models.FaceSet {
	return models.FaceSet{ID: "assist", Kind: models.KindSymbol, Faces: []models.Face{
		{ID: "hit", Hits: 1},
		{ID: "2h", Hits: 2},
		{ID: "hurt", Hurt: 1},
		{ID: "hit-hurt", Hits: 1, Hurt: 1},
		{ID: "2h-hurt", Hits: 2, Hurt: 1},
		{ID: "blank"},
	}}
}

// oddsHalf is a six-sided die with three one-hit faces.
func oddsHalf() models.FaceSet {
	return models.FaceSet{ID: "half", Kind: models.KindSymbol, Faces: []models.Face{
		{ID: "a", Hits: 1}, {ID: "b", Hits: 1}, {ID: "c", Hits: 1},
		{ID: "x"}, {ID: "y"}, {ID: "z"},
	}}
}

// oddsRules are the content pack defaults of models/content/rules.yaml.
func oddsRules() models.Rules {
	return models.Rules{EnemyArmor: models.ArmorNegateHit, Radiated: models.RadiatedInstead,
		AssistHits: models.AssistHitsSurvivor, RangedBonus: 1}
}

// Tokens from models/content/enemies.yaml.
var (
	tokGhoul1 = models.EnemyToken{ID: "ghoul-1", Level: 1, Vulnerable: []string{"head", "arms"},
		Abilities: []string{"radiated"}}
	tokGhoul2 = models.EnemyToken{ID: "ghoul-2", Level: 2, Vulnerable: []string{"head", "legs"},
		Abilities: []string{"radiated", "aggressive"}}
	tokMutant2 = models.EnemyToken{ID: "super-mutant-2", Level: 2, Vulnerable: []string{"head", "legs"},
		Abilities: []string{"aggressive", "armor"}, Armor: 1}
	tokCreature1 = models.EnemyToken{ID: "creature-1", Level: 1, Vulnerable: []string{"arms", "legs"},
		Abilities: []string{"fast"}}
	tokRaider1 = models.EnemyToken{ID: "raider-1", Level: 1, Vulnerable: []string{"head", "legs"},
		Abilities: []string{"ranged", "caps"}}
	tokRobot3 = models.EnemyToken{ID: "robot-3", Level: 3, Vulnerable: []string{"head", "arms", "legs"},
		Abilities: []string{"ranged", "armor", "caps"}, Armor: 1}
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

func checkP(t *testing.T, what string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s = %.15f, want %.15f", what, got, want)
	}
}

func checkDist(t *testing.T, what string, got, want map[int]float64) {
	t.Helper()
	sum := 0.0
	for _, p := range got {
		sum += p
	}
	if !near(sum, 1) {
		t.Errorf("%s sums to %.15f", what, sum)
	}
	for k, p := range want {
		if !near(got[k], p) {
			t.Errorf("%s[%d] = %.15f, want %.15f", what, k, got[k], p)
		}
	}
	for k, p := range got {
		if _, ok := want[k]; !ok && p > 1e-15 {
			t.Errorf("%s[%d] = %.15f, want 0", what, k, p)
		}
	}
}

// seed 000 "Proben ablegen": success if hits >= difficulty; matching
// S.P.E.C.I.A.L. token = one reroll of any dice.
func TestTestOddsKnownValues(t *testing.T) {
	cube := func(x float64) float64 { return x * x * x }
	cases := []struct {
		fs                  models.FaceSet
		dice, diff, rerolls int
		want                float64
	}{
		{oddsHalf(), 1, 1, 0, 0.5},
		{oddsHalf(), 1, 1, 1, 0.75},
		{oddsHalf(), 1, 1, 2, 0.875},
		{oddsHalf(), 2, 2, 0, 0.25},
		{oddsHalf(), 2, 2, 1, 0.75 * 0.75}, // reroll every blank die: each die independent
		{oddsVATS(), 3, 0, 0, 1},
		{oddsVATS(), 3, 1, 0, 1 - cube(1.0/3)},
		{oddsVATS(), 3, 1, 1, 1 - cube(1.0/9)},
		{oddsVATS(), 3, 6, 0, cube(1.0 / 6)},
		{oddsVATS(), 3, 6, 1, cube(1 - 25.0/36)},
		{oddsVATS(), 3, 6, 3, cube(1 - math.Pow(5.0/6, 4))},
		{oddsVATS(), 3, 7, 3, 0},
		// 3 dice, 2 hits, 0 rerolls: 1 - P(0) - P(1) = 1 - 1/27 - 3*(1/2)(1/3)^2 = 43/54.
		{oddsVATS(), 3, 2, 0, 43.0 / 54},
		// "Well rested" adds one more reroll of any dice: 8 dice all showing 2 hits.
		{oddsVATS(), 8, 16, 3, math.Pow(1-math.Pow(5.0/6, 4), 8)},
	}
	for _, c := range cases {
		o, err := TestOdds(c.fs, c.dice, c.diff, c.rerolls)
		if err != nil {
			t.Fatal(err)
		}
		checkP(t, fmt.Sprintf("%s %d dice difficulty %d rerolls %d", c.fs.ID, c.dice, c.diff, c.rerolls), o.P, c.want)
		if len(o.PByRerolls) != c.rerolls+1 || !near(o.PByRerolls[c.rerolls], o.P) {
			t.Errorf("PByRerolls %v does not end with P %v", o.PByRerolls, o.P)
		}
		if o.Damage != nil || o.DamageKind != "" {
			t.Errorf("test odds report damage: %+v", o)
		}
	}
}

// bruteOptimal computes, without the multiset reduction, the lexicographic
// optimum (success probability, then lowest expected harm) over ordered dice
// (and the assist die as one more position) by expectimax over every subset
// of positions: independent of the planner's W/U recursion.
func bruteOptimal(fs models.FaceSet, dice int, assist *models.FaceSet, rerolls int,
	stop func(faces []models.Face, extra *models.Face) (float64, float64)) []struct{ p, h float64 } {
	sizes := make([]int, dice)
	for i := range sizes {
		sizes[i] = len(fs.Faces)
	}
	if assist != nil {
		sizes = append(sizes, len(assist.Faces))
	}
	total := 1
	for _, s := range sizes {
		total *= s
	}
	decode := func(st int) []int {
		d := make([]int, len(sizes))
		for i, s := range sizes {
			d[i] = st % s
			st /= s
		}
		return d
	}
	encode := func(d []int) int {
		st, mul := 0, 1
		for i, s := range sizes {
			st += d[i] * mul
			mul *= s
		}
		return st
	}
	type val struct{ p, h float64 }
	cur := make([]val, total)
	stops := make([]val, total)
	for st := range total {
		d := decode(st)
		faces := make([]models.Face, dice)
		for i := range dice {
			faces[i] = fs.Faces[d[i]]
		}
		var extra *models.Face
		if assist != nil {
			extra = &assist.Faces[d[dice]]
		}
		p, h := stop(faces, extra)
		stops[st] = val{p, h}
	}
	copy(cur, stops)
	lexBetter := func(a, b val) bool {
		if math.Abs(a.p-b.p) > 1e-12 {
			return a.p > b.p
		}
		return a.h < b.h-1e-12
	}
	for range rerolls {
		next := make([]val, total)
		for st := range total {
			best := stops[st]
			d := decode(st)
			for mask := 1; mask < 1<<len(sizes); mask++ {
				var sum val
				n := 0
				var rec func(i int, e []int)
				rec = func(i int, e []int) {
					if i == len(sizes) {
						v := cur[encode(e)]
						sum.p += v.p
						sum.h += v.h
						n++
						return
					}
					if mask&(1<<i) == 0 {
						rec(i+1, e)
						return
					}
					for f := range sizes[i] {
						e[i] = f
						rec(i+1, e)
					}
					e[i] = d[i]
				}
				rec(0, slices.Clone(d))
				v := val{sum.p / float64(n), sum.h / float64(n)}
				if lexBetter(v, best) {
					best = v
				}
			}
			next[st] = best
		}
		cur = next
	}
	out := make([]struct{ p, h float64 }, total)
	for i, v := range cur {
		out[i] = struct{ p, h float64 }{v.p, v.h}
	}
	return out
}

func bruteMean(vals []struct{ p, h float64 }) (float64, float64) {
	var p, h float64
	for _, v := range vals {
		p += v.p
		h += v.h
	}
	return p / float64(len(vals)), h / float64(len(vals))
}

// seed 000 "Proben ablegen": each reroll rerolls any number of dice once;
// the planner's optimum equals a brute-force expectimax over ordered dice
// (with 0 rerolls: plain enumeration of every outcome).
func TestTestOddsMatchesBruteForce(t *testing.T) {
	for _, fs := range []models.FaceSet{oddsVATS(), oddsHalf()} {
		for dice := 1; dice <= 3; dice++ {
			for diff := 0; diff <= 2*dice+1; diff++ {
				g := TestGoal{Difficulty: diff}
				stop := func(faces []models.Face, extra *models.Face) (float64, float64) {
					if g.Success(faces, extra) {
						return 1, 0
					}
					return 0, 0
				}
				for rerolls := 0; rerolls <= 2; rerolls++ {
					o, err := TestOdds(fs, dice, diff, rerolls)
					if err != nil {
						t.Fatal(err)
					}
					want, _ := bruteMean(bruteOptimal(fs, dice, nil, rerolls, stop))
					checkP(t, fmt.Sprintf("%s %d dice difficulty %d rerolls %d", fs.ID, dice, diff, rerolls), o.P, want)
					for r := 1; r <= rerolls; r++ {
						if o.PByRerolls[r] < o.PByRerolls[r-1]-1e-15 {
							t.Errorf("P falls with more rerolls: %v", o.PByRerolls)
						}
					}
				}
			}
		}
	}
}

// seed 000 "Proben ablegen": the optimal policy is at least as good as the
// fixed policy "reroll every die that shows no hit" (enumerated exactly),
// and equal to it for difficulty 1.
func TestTestOddsBeatsFixedPolicy(t *testing.T) {
	fs := oddsVATS()
	m := len(fs.Faces)
	for dice := 1; dice <= 3; dice++ {
		for diff := 1; diff <= 2*dice; diff++ {
			// Enumerate the first roll, then every outcome of the rerolled dice.
			total := int(math.Pow(float64(m), float64(dice)))
			fixed := 0.0
			for st := range total {
				roll := make([]int, dice)
				for i, x := 0, st; i < dice; i, x = i+1, x/m {
					roll[i] = x % m
				}
				var blanks []int
				for i, f := range roll {
					if fs.Faces[f].Hits == 0 {
						blanks = append(blanks, i)
					}
				}
				outs := int(math.Pow(float64(m), float64(len(blanks))))
				succ := 0
				for o := range outs {
					r := slices.Clone(roll)
					for j, x := 0, o; j < len(blanks); j, x = j+1, x/m {
						r[blanks[j]] = x % m
					}
					h := 0
					for _, f := range r {
						h += fs.Faces[f].Hits
					}
					if h >= diff {
						succ++
					}
				}
				fixed += float64(succ) / float64(outs) / float64(total)
			}
			o, err := TestOdds(fs, dice, diff, 1)
			if err != nil {
				t.Fatal(err)
			}
			if o.P < fixed-1e-12 {
				t.Errorf("%d dice difficulty %d: optimal %.15f < fixed policy %.15f", dice, diff, o.P, fixed)
			}
			if diff == 1 {
				checkP(t, fmt.Sprintf("%d dice difficulty 1 vs fixed policy", dice), o.P, fixed)
			}
		}
	}
}

// seed 000 "[V] Kampf": every die showing a vulnerable region scores a hit;
// killed if hits >= level; a ranged weapon against a target without the
// ranged icon scores 1 extra hit; each enemy hit icon deals damage equal to
// its level, each survivor armor icon negates 1 damage; a radiated enemy's
// damage is dealt as rads (switch "instead").
func TestFightOddsKnownValues(t *testing.T) {
	fs := oddsVATS()
	rules := oddsRules()
	// ghoul-1 (level 1, head/arms): P(vulnerable die) = 1/3.
	o, err := FightOdds(fs, 3, FightGoal{Token: tokGhoul1, Rules: rules}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "ghoul-1 kill", o.P, 19.0/27)
	if o.DamageKind != DamageKindRads || o.Rads != nil || o.AssistDamage != nil {
		t.Errorf("ghoul-1 with radiated=instead: kind %q rads %v assist %v", o.DamageKind, o.Rads, o.AssistDamage)
	}
	checkP(t, "ghoul-1 expected rads", o.ExpectedDamage, 2.5) // 3 dice × (1/2 + 2/6)
	// Sum of hits of 3 dice: generating function (2 + 3x + x^2)^3 / 216.
	checkDist(t, "ghoul-1 rads", o.Damage, map[int]float64{
		0: 8.0 / 216, 1: 36.0 / 216, 2: 66.0 / 216, 3: 63.0 / 216, 4: 33.0 / 216, 5: 9.0 / 216, 6: 1.0 / 216})

	// Survivor armor 1 negates one point: E[max(H-1, 0)] = E[H] - P(H >= 1).
	o, err = FightOdds(fs, 3, FightGoal{Token: tokGhoul1, Armor: 1, Rules: rules}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "ghoul-1 armor 1 expected rads", o.ExpectedDamage, 2.5-26.0/27)

	// One reroll: stop on a kill, else reroll all three: 1 - (8/27)^2.
	o, err = FightOdds(fs, 3, FightGoal{Token: tokGhoul1, Rules: rules}, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "ghoul-1 kill, 1 reroll", o.P, 1-64.0/729)

	// super-mutant-2 (level 2, head/legs, armor 1): negate-hit needs 3 vulnerable dice.
	for _, armorRule := range []string{models.ArmorNegateHit, models.ArmorExtraHit} {
		r := rules
		r.EnemyArmor = armorRule
		o, err = FightOdds(fs, 3, FightGoal{Token: tokMutant2, Rules: r}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checkP(t, armorRule+" super-mutant-2", o.P, 1.0/27)
		if armorRule == models.ArmorExtraHit && o.Needed != 3 {
			t.Errorf("extra-hit: needed %d, want 3", o.Needed)
		}
		if o.DamageKind != DamageKindHP {
			t.Errorf("super-mutant-2 damage kind %q", o.DamageKind)
		}
		// Ranged weapon: +1 hit, so 2 vulnerable dice suffice: 3·(1/3)²·(2/3) + 1/27.
		o, err = FightOdds(fs, 3, FightGoal{Token: tokMutant2, Ranged: true, Rules: r}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checkP(t, armorRule+" super-mutant-2 ranged", o.P, 7.0/27)
	}

	// raider-1 has the ranged icon: no bonus. creature-1 without it: the bonus alone kills.
	o, err = FightOdds(fs, 3, FightGoal{Token: tokRaider1, Ranged: true, Rules: rules}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "raider-1 ranged", o.P, 19.0/27)
	o, err = FightOdds(fs, 3, FightGoal{Token: tokCreature1, Ranged: true, Rules: rules}, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "creature-1 ranged", o.P, 1)
	if o.ExpectedRerollsUsed < 1 {
		// The kill is certain, so the planner rerolls hit icons away to save HP.
		t.Errorf("creature-1 ranged: expected rerolls used %v, want >= 1", o.ExpectedRerollsUsed)
	}

	// Radiated "additional": normal damage plus rads = level when it deals damage.
	r := rules
	r.Radiated = models.RadiatedAdditional
	o, err = FightOdds(fs, 3, FightGoal{Token: tokGhoul2, Armor: 1, Rules: r}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if o.DamageKind != DamageKindHP {
		t.Errorf("additional: kind %q", o.DamageKind)
	}
	// Damage 2H-1 for H >= 1 (H = 0: none).
	checkDist(t, "ghoul-2 damage", o.Damage, map[int]float64{
		0: 8.0 / 216, 1: 36.0 / 216, 3: 66.0 / 216, 5: 63.0 / 216, 7: 33.0 / 216, 9: 9.0 / 216, 11: 1.0 / 216})
	checkDist(t, "ghoul-2 rads", o.Rads, map[int]float64{0: 8.0 / 216, 2: 208.0 / 216})
}

// seed 003 "Assisting": the assist die's hits add to the roll; the assistant
// takes damage equal to the enemy level for each hurt icon.
func TestFightOddsAssist(t *testing.T) {
	fs, as := oddsVATS(), oddsAssist()
	rules := oddsRules()
	// 1 die vs ghoul-1: kill unless the die misses (2/3) and the assist die shows no hit (1/3).
	o, err := FightOdds(fs, 1, FightGoal{Token: tokGhoul1, Rules: rules}, &as, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "assisted kill", o.P, 7.0/9)
	checkP(t, "assistant hurt", o.PAssistHurt, 0.5)
	checkDist(t, "assist damage", o.AssistDamage, map[int]float64{0: 0.5, 1: 0.5})

	// assist_hits "enemy": the assist hits join the enemy's attack instead.
	r := rules
	r.AssistHits = models.AssistHitsEnemy
	o, err = FightOdds(fs, 1, FightGoal{Token: tokGhoul1, Rules: r}, &as, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkP(t, "assist to enemy: kill", o.P, 1.0/3)
	checkP(t, "assist to enemy: expected rads", o.ExpectedDamage, 5.0/6+1) // die 5/6 + assist 1
}

// The planner's kill probability and expected harm (its tie-break) equal a
// brute-force expectimax over ordered dice, with and without the assist die;
// with 0 rerolls the damage distributions equal plain enumeration.
func TestFightOddsMatchesBruteForce(t *testing.T) {
	fs, as := oddsVATS(), oddsAssist()
	base := oddsRules()
	extra := base
	extra.EnemyArmor = models.ArmorExtraHit
	extra.Radiated = models.RadiatedAdditional
	extra.AssistHits = models.AssistHitsEnemy
	goals := []FightGoal{
		{Token: tokGhoul1, Rules: base},
		{Token: tokGhoul2, Armor: 1, Rules: extra},
		{Token: tokMutant2, Ranged: true, Rules: base},
		{Token: tokMutant2, Armor: 2, Rules: extra},
		{Token: tokRobot3, Ranged: true, Rules: base},
		{Token: tokCreature1, Ranged: true, Rules: base},
	}
	for _, g := range goals {
		for _, withAssist := range []bool{false, true} {
			var ap *models.FaceSet
			maxDice := 3
			if withAssist {
				ap = &as
			}
			for dice := 1; dice <= maxDice; dice++ {
				maxR := 2
				if withAssist && dice == 3 {
					maxR = 1
				}
				stop := func(faces []models.Face, extra *models.Face) (float64, float64) {
					r := g.Resolve(faces, extra)
					p := 0.0
					if r.Killed {
						p = 1
					}
					return p, float64(r.Damage + r.Rads + r.AssistDamage)
				}
				for rerolls := 0; rerolls <= maxR; rerolls++ {
					name := fmt.Sprintf("%s armor %d ranged %v %s assist %v dice %d rerolls %d",
						g.Token.ID, g.Armor, g.Ranged, g.Rules.EnemyArmor, withAssist, dice, rerolls)
					o, err := FightOdds(fs, dice, g, ap, rerolls)
					if err != nil {
						t.Fatal(err)
					}
					wantP, wantH := bruteMean(bruteOptimal(fs, dice, ap, rerolls, stop))
					checkP(t, name+" P", o.P, wantP)
					gotH := o.ExpectedDamage + o.ExpectedRads + o.ExpectedAssistDamage
					if math.Abs(gotH-wantH) > 1e-9 {
						t.Errorf("%s expected harm = %.12f, want %.12f", name, gotH, wantH)
					}
					checkDistSum(t, name, o)
					if rerolls == 0 {
						checkEnumeration(t, name, fs, dice, ap, g, o)
					}
				}
			}
		}
	}
}

func checkDistSum(t *testing.T, name string, o Odds) {
	t.Helper()
	for what, d := range map[string]map[int]float64{"damage": o.Damage, "rads": o.Rads, "assist": o.AssistDamage} {
		if d == nil {
			continue
		}
		sum, mean := 0.0, 0.0
		for k, p := range d {
			sum += p
			mean += float64(k) * p
		}
		if !near(sum, 1) {
			t.Errorf("%s: %s distribution sums to %.15f", name, what, sum)
		}
		want := map[string]float64{"damage": o.ExpectedDamage, "rads": o.ExpectedRads, "assist": o.ExpectedAssistDamage}[what]
		if !near(mean, want) {
			t.Errorf("%s: %s mean %.15f, expected field %.15f", name, what, mean, want)
		}
	}
}

// checkEnumeration compares 0-reroll fight odds with a plain enumeration of
// every ordered outcome.
func checkEnumeration(t *testing.T, name string, fs models.FaceSet, dice int, assist *models.FaceSet, g FightGoal, o Odds) {
	t.Helper()
	m := len(fs.Faces)
	na := 1
	if assist != nil {
		na = len(assist.Faces)
	}
	total := int(math.Pow(float64(m), float64(dice))) * na
	p := 0.0
	dmg, assistDmg := map[int]float64{}, map[int]float64{}
	for st := range total {
		x := st
		faces := make([]models.Face, dice)
		for i := range faces {
			faces[i] = fs.Faces[x%m]
			x /= m
		}
		var extra *models.Face
		if assist != nil {
			extra = &assist.Faces[x]
		}
		r := g.Resolve(faces, extra)
		w := 1 / float64(total)
		if r.Killed {
			p += w
		}
		if o.DamageKind == DamageKindRads {
			dmg[r.Rads] += w
		} else {
			dmg[r.Damage] += w
		}
		assistDmg[r.AssistDamage] += w
	}
	checkP(t, name+" enumerated P", o.P, p)
	checkDist(t, name+" enumerated damage", o.Damage, dmg)
	if assist != nil {
		checkDist(t, name+" enumerated assist damage", o.AssistDamage, assistDmg)
	}
}

// seed 000 "[V] Kampf": survivor hits count dice (not regions) showing a
// vulnerable region, +1 for a ranged weapon against a target without the
// ranged icon, minus the enemy's armor icons (switch "negate-hit").
func TestFightHits(t *testing.T) {
	fs := oddsVATS()
	face := func(id string) models.Face { f, _ := fs.Face(id); return f }
	two := models.Face{ID: "two", Regions: []string{"head", "legs"}}
	roll := []models.Face{face("head"), face("legs"), face("2h"), two}
	rules := oddsRules()
	if h := FightHits(roll, tokMutant2, false, rules); h != 2 { // 3 vulnerable dice - 1 armor
		t.Errorf("super-mutant-2 hits = %d, want 2", h)
	}
	if h := FightHits(roll, tokMutant2, true, rules); h != 3 {
		t.Errorf("super-mutant-2 ranged hits = %d, want 3", h)
	}
	if h := FightHits(roll, tokRaider1, true, rules); h != 3 { // raider-1 is ranged: no bonus
		t.Errorf("raider-1 ranged hits = %d, want 3", h)
	}
	if h := FightHits([]models.Face{face("torso")}, tokMutant2, false, rules); h != 0 {
		t.Errorf("hits never below 0, got %d", h)
	}
	if h := HitsOf(roll); h != 4 {
		t.Errorf("HitsOf = %d, want 4", h)
	}
	g := FightGoal{Token: tokMutant2, Rules: models.Rules{}} // empty switches: content defaults
	if g.Needed() != 2 || g.Hits(roll, nil) != 2 {
		t.Errorf("default rules: needed %d hits %d, want 2 and 2", g.Needed(), g.Hits(roll, nil))
	}
}

// seed 000 "Proben ablegen" / "[V] Kampf": advice for a roll on the table.
func TestRerollAdvice(t *testing.T) {
	fs, as := oddsVATS(), oddsAssist()
	face := func(id string) models.Face { f, _ := fs.Face(id); return f }
	// Difficulty 2, roll arms/torso/head, 1 reroll: keep the head (1 hit), reroll the two
	// blanks for >= 1 hit: 1 - (1/3)^2 = 8/9 (rerolling all three: 43/54).
	adv, err := RerollAdvice(fs, []models.Face{face("arms"), face("torso"), face("head")}, nil, nil,
		TestGoal{Difficulty: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(adv.Reroll, []int{0, 1}) || adv.RerollAssist {
		t.Errorf("advice rerolls %v (assist %v), want [0 1]", adv.Reroll, adv.RerollAssist)
	}
	checkP(t, "advice P", adv.P, 8.0/9)
	checkP(t, "advice PIfReroll", adv.PIfReroll, 8.0/9)
	checkP(t, "advice PIfKeep", adv.PIfKeep, 0)

	// Already passed: keep.
	adv, err = RerollAdvice(fs, []models.Face{face("2h"), face("torso"), face("head")}, nil, nil,
		TestGoal{Difficulty: 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(adv.Reroll) != 0 || adv.P != 1 || adv.PIfKeep != 1 {
		t.Errorf("passed roll: %+v", adv)
	}

	// No reroll left: keep, PIfReroll = PIfKeep.
	adv, err = RerollAdvice(fs, []models.Face{face("torso")}, nil, nil, TestGoal{Difficulty: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(adv.Reroll) != 0 || adv.P != 0 || adv.PIfReroll != 0 {
		t.Errorf("no reroll left: %+v", adv)
	}

	// Fight vs ghoul-1 (head/arms): head, 2h, arms already kill (3 rads). Keeping the arms
	// die keeps the kill certain; rerolling head and 2h cuts the expected rads to 2·(5/6)
	// (rerolling the 2h die alone: 1 + 5/6).
	adv, err = RerollAdvice(fs, []models.Face{face("head"), face("2h"), face("arms")}, nil, nil,
		FightGoal{Token: tokGhoul1, Rules: oddsRules()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(adv.Reroll, []int{0, 1}) || adv.P != 1 {
		t.Errorf("harm advice %+v, want reroll [0 1] with P 1", adv)
	}
	checkP(t, "harm if keep", adv.HarmIfKeep, 3)
	checkP(t, "harm if reroll", adv.HarmIfReroll, 5.0/3)

	// seed 003 "Assisting": 1 die (torso) + assist die (hurt) vs ghoul-1: rerolling both
	// kills with 1 - (2/3)(1/3) = 7/9 (die alone 1/3, assist alone 2/3).
	hurt, _ := as.Face("hurt")
	adv, err = RerollAdvice(fs, []models.Face{face("torso")}, &as, &hurt,
		FightGoal{Token: tokGhoul1, Rules: oddsRules()}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(adv.Reroll, []int{0}) || !adv.RerollAssist {
		t.Errorf("assist advice %+v, want reroll [0] and the assist die", adv)
	}
	checkP(t, "assist advice P", adv.P, 7.0/9)

	// Duplicate faces: the later die of a pair is the one named.
	adv, err = RerollAdvice(fs, []models.Face{face("torso"), face("2h"), face("torso")}, nil, nil,
		TestGoal{Difficulty: 3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(adv.Reroll, []int{0, 2}) {
		t.Errorf("duplicate faces: reroll %v, want [0 2]", adv.Reroll)
	}
}

func TestOddsErrors(t *testing.T) {
	fs := oddsVATS()
	as := oddsAssist()
	d6 := models.FaceSet{ID: "d6", Kind: models.KindNumeric, Faces: []models.Face{{ID: "1", Value: 1}}}
	g := FightGoal{Token: tokGhoul1, Rules: oddsRules()}
	bad := func(name string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, want)
		}
	}
	_, err := TestOdds(fs, 0, 1, 0)
	bad("zero dice", err, "1 to 8 dice")
	_, err = TestOdds(fs, 9, 1, 0)
	bad("nine dice", err, "got 9")
	_, err = TestOdds(models.FaceSet{ID: "none"}, 3, 1, 0)
	bad("empty face set", err, "no faces")
	_, err = TestOdds(d6, 3, 1, 0)
	bad("numeric face set", err, "numeric")
	_, err = TestOdds(fs, 3, 1, -1)
	bad("negative rerolls", err, "rerolls must be")
	_, err = TestOdds(fs, 3, -1, 0)
	bad("negative difficulty", err, "difficulty")
	_, err = FightOdds(fs, 3, FightGoal{Token: models.EnemyToken{ID: "x"}}, nil, 0)
	bad("level 0", err, "level 0")
	r := oddsRules()
	r.EnemyArmor = "bogus"
	_, err = FightOdds(fs, 3, FightGoal{Token: tokGhoul1, Rules: r}, nil, 0)
	bad("unknown rule", err, "bogus")
	_, err = FightOdds(fs, 3, FightGoal{Token: tokGhoul1, Armor: -1}, nil, 0)
	bad("negative armor", err, "armor")
	_, err = FightOdds(fs, 3, g, &models.FaceSet{ID: "empty"}, 0)
	bad("empty assist", err, "assist face set")
	_, err = RerollAdvice(fs, []models.Face{{ID: "nope"}}, nil, nil, g, 1)
	bad("unknown face", err, `"nope"`)
	_, err = RerollAdvice(fs, nil, nil, nil, g, 1)
	bad("no dice", err, "got 0")
	_, err = RerollAdvice(fs, fs.Faces[:1], &as, nil, g, 1)
	bad("assist without face", err, "together")
	_, err = RerollAdvice(fs, fs.Faces[:1], nil, nil, nil, 1)
	bad("nil goal", err, "no goal")
}

// The planner stays fast for the largest roll it accepts.
func TestOddsEightDiceFast(t *testing.T) {
	start := time.Now()
	as := oddsAssist()
	o, err := FightOdds(oddsVATS(), MaxOddsDice, FightGoal{Token: tokRobot3, Rules: oddsRules()}, &as, 3)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("8 dice + assist, 3 rerolls took %v", d)
	}
	if o.P <= 0 || o.P > 1 {
		t.Errorf("P = %v", o.P)
	}
}

func BenchmarkTestOdds(b *testing.B) {
	fs := oddsVATS()
	for r := 0; r <= 3; r++ {
		b.Run(fmt.Sprintf("rerolls=%d", r), func(b *testing.B) {
			for b.Loop() {
				if _, err := TestOdds(fs, 3, 3, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFightOdds(b *testing.B) {
	fs, as := oddsVATS(), oddsAssist()
	g := FightGoal{Token: tokGhoul2, Armor: 1, Ranged: true, Rules: oddsRules()}
	for _, withAssist := range []bool{false, true} {
		var ap *models.FaceSet
		name := "rerolls=%d"
		if withAssist {
			ap, name = &as, "assist/rerolls=%d"
		}
		for r := 0; r <= 3; r++ {
			b.Run(fmt.Sprintf(name, r), func(b *testing.B) {
				for b.Loop() {
					if _, err := FightOdds(fs, 3, g, ap, r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

package engine

// One test (or table row) per rule of docs/rules-fallout-bg.md that the
// engine implements. Every test cites its source:
//   seed 000 = ../shared/seeds/000_b729d94265ea645e.txt (German player aid)
//   seed 003 = ../shared/seeds/003_20c6ebc451d9290a.txt (Atomic Bonds rulebook)
// Values the rules document marks unconfirmed are content data or rule
// switches (models/content/rules.yaml); tests that depend on one set it
// explicitly on c.Rules / st.Rules so they do not rely on the shipped default.

import (
	"slices"
	"testing"

	"tablecam/models"
)

// ---------------------------------------------------------------------------
// Tests (seed 000 "Proben ablegen")

// seed 000 "Proben ablegen": roll 3 V.A.T.S. dice, count the hit icons;
// success if hits >= difficulty; regions are ignored.
func TestSeed000ProbenAblegen_TestResult(t *testing.T) {
	c := rtContent(t)
	rows := []struct {
		name       string
		faces      []string
		difficulty int
		hits       int
		passed     bool
	}{
		// seed 000 "Proben ablegen": success with exactly the difficulty.
		{"seed 000 Proben ablegen: hits equal to difficulty pass", []string{"head", "legs", "arms"}, 2, 2, true},
		// seed 000 "Proben ablegen": "mindestens den Schwierigkeitswert".
		{"seed 000 Proben ablegen: hits above difficulty pass", []string{"2h", "1h", "head"}, 2, 4, true},
		// seed 000 "Proben ablegen": one hit short fails.
		{"seed 000 Proben ablegen: hits below difficulty fail", []string{"head", "arms", "torso"}, 2, 1, false},
		// seed 000 "Proben ablegen": only hit icons count, regions are ignored.
		{"seed 000 Proben ablegen: regions without hit icons score nothing", []string{"arms", "torso", "arms"}, 1, 0, false},
		// seed 000 "Proben ablegen": a face with two hit icons counts two.
		{"seed 000 Proben ablegen: two-hit face counts two", []string{"2h", "arms", "torso"}, 2, 2, true},
		// seed 000 "Proben ablegen": difficulty 0 always passes.
		{"seed 000 Proben ablegen: difficulty zero passes", []string{"arms", "arms", "arms"}, 0, 0, true},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := Test(rtVATS(t, c, r.faces...), r.difficulty)
			want := TestResult{Hits: r.hits, Difficulty: r.difficulty, Passed: r.passed}
			if got != want {
				t.Errorf("Test(%v, %d) = %+v, want %+v", r.faces, r.difficulty, got, want)
			}
		})
	}
	// seed 000 "Proben ablegen": regions are ignored — the same hit icons on
	// different regions give the same result.
	t.Run("seed 000 Proben ablegen: region of a hit does not matter", func(t *testing.T) {
		a := Test(rtVATS(t, c, "head", "head", "arms"), 2)
		custom := []models.Face{{ID: "x", Hits: 1}, {ID: "y", Regions: []string{models.RegionTorso}, Hits: 1}, {ID: "z", Regions: []string{models.RegionLegs}}}
		b := Test(custom, 2)
		if a != b || !a.Passed {
			t.Errorf("Test differs by region: %+v vs %+v", a, b)
		}
	})
}

// seed 000 "Proben ablegen": one reroll per matching S.P.E.C.I.A.L. token
// the survivor owns; seed 000 "Eigenschaften": Well Rested may be discarded
// for one more reroll.
func TestSeed000ProbenAblegen_Rerolls(t *testing.T) {
	rows := []struct {
		name    string
		special string
		rested  bool
		letters string
		want    int
	}{
		// seed 000 "Proben ablegen": no matching token, no reroll.
		{"seed 000 Proben ablegen: no matching token", "SPE", false, "CI", 0},
		// seed 000 "Proben ablegen": one matching token, one reroll.
		{"seed 000 Proben ablegen: one matching token", "SPE", false, "S", 1},
		// seed 000 "Proben ablegen": two tokens named and owned, two rerolls.
		{"seed 000 Proben ablegen: two matching tokens", "SAL", false, "AL", 2},
		// seed 000 "Proben ablegen": a named token the survivor lacks adds nothing.
		{"seed 000 Proben ablegen: only owned tokens count", "S", false, "SA", 1},
		// seed 000 "Proben ablegen": letters match case-insensitively.
		{"seed 000 Proben ablegen: lower-case letters match", "SA", false, "sa", 2},
		// seed 000 "Eigenschaften": Well Rested adds one reroll.
		{"seed 000 Eigenschaften: well rested adds one", "SA", true, "S", 2},
		// seed 000 "Eigenschaften": Well Rested alone gives one reroll.
		{"seed 000 Eigenschaften: well rested without matching token", "", true, "E", 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			s := SurvivorState{Survivor: models.Survivor{ID: "s", Special: r.special}, WellRested: r.rested}
			if got := TestRerolls(s, r.letters); got != r.want {
				t.Errorf("TestRerolls(special %q, rested %v, test %q) = %d, want %d", r.special, r.rested, r.letters, got, r.want)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Fights: the arithmetic (seed 000 "[V] Kampf", "Waffen & Kleidung",
// "Gegnereigenschaften"; seed 003 "Assisting")

// seed 000 "[V] Kampf" 01: each hit icon deals damage equal to the enemy
// level; seed 000 "Waffen & Kleidung": each armor icon negates 1 damage.
func TestSeed000Kampf_EnemyDamage(t *testing.T) {
	c := rtContent(t)
	rows := []struct {
		name    string
		level   int
		faces   []string
		armor   int
		hits    int
		damage  int
		blocked int
	}{
		// seed 000 "[V] Kampf" 01: damage = hits x level.
		{"seed 000 Kampf: damage is hits times level", 2, []string{"head", "legs", "2h"}, 0, 4, 8, 0},
		{"seed 000 Kampf: level 3 enemy one hit deals 3", 3, []string{"1h", "torso", "arms"}, 0, 1, 3, 0},
		{"seed 000 Kampf: no hit icons no damage", 3, []string{"arms", "torso", "arms"}, 0, 0, 0, 0},
		// seed 000 "Waffen & Kleidung": "Ruestungssymbole negieren automatisch je 1 Schaden".
		{"seed 000 Waffen und Kleidung: one armor icon negates 1 damage", 2, []string{"head", "legs", "2h"}, 1, 4, 7, 1},
		{"seed 000 Waffen und Kleidung: three armor icons negate 3 damage", 2, []string{"head", "legs", "2h"}, 3, 4, 5, 3},
		{"seed 000 Waffen und Kleidung: armor cannot make damage negative", 2, []string{"head", "arms", "torso"}, 10, 1, 0, 2},
		{"seed 000 Waffen und Kleidung: armor without damage blocks nothing", 2, []string{"arms", "torso", "arms"}, 2, 0, 0, 0},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			tok := rtTok(r.level, []string{models.RegionTorso})
			res := FightMath(c.Rules, tok, r.armor, false, rtVATS(t, c, r.faces...), nil)
			if res.EnemyHits != r.hits || res.Damage != r.damage || res.ArmorBlocked != r.blocked || res.Rads != 0 {
				t.Errorf("enemy hits/damage/blocked/rads = %d/%d/%d/%d, want %d/%d/%d/0",
					res.EnemyHits, res.Damage, res.ArmorBlocked, res.Rads, r.hits, r.damage, r.blocked)
			}
		})
	}
}

// seed 000 "Gegnereigenschaften" Verstrahlt: damage from a radiated enemy is
// dealt as rads equal to its level; the exact interaction is the "radiated"
// switch (rules-fallout-bg.md "Fights" 1): "instead" = the damage becomes rads,
// "additional" = normal damage plus rads = level when it deals damage.
func TestSeed000Gegnereigenschaften_Radiated(t *testing.T) {
	c := rtContent(t)
	rows := []struct {
		name   string
		mode   string
		faces  []string
		armor  int
		damage int
		rads   int
	}{
		// seed 000 "Verstrahlt", switch "instead": 2 hits x level 2 = 4 rads, no damage.
		{"seed 000 Verstrahlt radiated=instead: damage dealt as rads", models.RadiatedInstead, []string{"head", "1h", "torso"}, 0, 0, 4},
		{"seed 000 Verstrahlt radiated=instead: no hits no rads", models.RadiatedInstead, []string{"arms", "torso", "arms"}, 0, 0, 0},
		// seed 000 "Verstrahlt", switch "additional": normal damage plus rads = level.
		{"seed 000 Verstrahlt radiated=additional: damage plus rads equal to level", models.RadiatedAdditional, []string{"head", "1h", "torso"}, 0, 4, 2},
		{"seed 000 Verstrahlt radiated=additional: armor reduces damage, rads still level", models.RadiatedAdditional, []string{"head", "1h", "torso"}, 1, 3, 2},
		// seed 000 "Verstrahlt": "Fuegt dir dieser Gegner Schaden zu" — no damage dealt, no rads.
		{"seed 000 Verstrahlt radiated=additional: fully blocked damage gives no rads", models.RadiatedAdditional, []string{"head", "1h", "torso"}, 4, 0, 0},
		{"seed 000 Verstrahlt radiated=additional: no hits no rads", models.RadiatedAdditional, []string{"arms", "torso", "arms"}, 0, 0, 0},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			rules := c.Rules
			rules.Radiated = r.mode
			tok := rtTok(2, []string{models.RegionArms}, models.AbilityRadiated)
			res := FightMath(rules, tok, r.armor, false, rtVATS(t, c, r.faces...), nil)
			if res.Damage != r.damage || res.Rads != r.rads {
				t.Errorf("damage/rads = %d/%d, want %d/%d", res.Damage, res.Rads, r.damage, r.rads)
			}
		})
	}
	// seed 000 "Verstrahlt" applied to the survivor through Fight, both switch values.
	for _, mode := range []string{models.RadiatedInstead, models.RadiatedAdditional} {
		t.Run("seed 000 Verstrahlt via Fight radiated="+mode, func(t *testing.T) {
			st := rtGame(t, c)
			st.Rules.Radiated = mode
			st, id := rtAdd(t, c, st, EnemySpec{Type: "ghoul", Token: "ghoul-2", With: []string{"ann"}})
			// ghoul-2: level 2, vulnerable head+legs, radiated. 2 hit icons.
			st, _, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "1h", "1h", "torso")})
			ann := rtSurv(t, st, "ann")
			wantDmg, wantRads := 0, 4
			if mode == models.RadiatedAdditional {
				wantDmg, wantRads = 4, 2
			}
			if ann.Damage != wantDmg || ann.Rads != wantRads {
				t.Errorf("Ann damage/rads = %d/%d, want %d/%d", ann.Damage, ann.Rads, wantDmg, wantRads)
			}
			rtVar(t, rtMust(t, out, KindFightEnemy), "rads", wantRads)
		})
	}
}

// seed 000 "[V] Kampf" 02: the survivor uses the same roll; every die showing
// a region where the enemy is vulnerable scores a hit; killed if hits >=
// level.
func TestSeed000Kampf_SurvivorHits(t *testing.T) {
	c := rtContent(t)
	headLegs := []models.Face{{ID: "hl", Regions: []string{models.RegionHead, models.RegionLegs}}}
	rows := []struct {
		name   string
		tok    models.EnemyToken
		faces  []models.Face
		hits   int
		killed bool
	}{
		// seed 000 "[V] Kampf" 02: one hit per die on a vulnerable region.
		{"seed 000 Kampf: two vulnerable dice kill level 2", rtTok(2, []string{"head", "legs"}), rtVATS(t, c, "head", "legs", "arms"), 2, true},
		{"seed 000 Kampf: one vulnerable die does not kill level 2", rtTok(2, []string{"head", "legs"}), rtVATS(t, c, "head", "arms", "torso"), 1, false},
		// seed 000 "[V] Kampf" 02: "erreicht oder uebersteigt" — hits equal to level kill.
		{"seed 000 Kampf: hits equal to level 3 kill", rtTok(3, []string{"head", "legs"}), rtVATS(t, c, "head", "legs", "head"), 3, true},
		{"seed 000 Kampf: hits above level kill", rtTok(1, []string{"head", "legs"}), rtVATS(t, c, "head", "legs", "head"), 3, true},
		// seed 000 "[V] Kampf" 02: hit icons without a vulnerable region are not survivor hits.
		{"seed 000 Kampf: hit icons are not survivor hits", rtTok(1, []string{"head", "legs"}), rtVATS(t, c, "1h", "2h", "1h"), 0, false},
		// seed 000 "[V] Kampf" 02: counted per die, not per highlighted region.
		{"seed 000 Kampf: die with two vulnerable regions counts once", rtTok(2, []string{"head", "legs"}), append(headLegs, rtVATS(t, c, "arms", "torso")...), 1, false},
		{"seed 000 Kampf: torso vulnerability", rtTok(2, []string{"torso"}), rtVATS(t, c, "torso", "torso", "arms"), 2, true},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			res := FightMath(c.Rules, r.tok, 0, false, r.faces, nil)
			if res.SurvivorHits != r.hits || res.Killed != r.killed || res.Needed != r.tok.Level {
				t.Errorf("survivor hits/needed/killed = %d/%d/%v, want %d/%d/%v",
					res.SurvivorHits, res.Needed, res.Killed, r.hits, r.tok.Level, r.killed)
			}
		})
	}
	// seed 000 "[V] Kampf" 02: "Du wuerfelst nicht neu" — one roll serves both sides.
	t.Run("seed 000 Kampf: one roll gives both sides", func(t *testing.T) {
		res := FightMath(c.Rules, rtTok(2, []string{"head"}), 0, false, rtVATS(t, c, "head", "2h", "arms"), nil)
		if res.EnemyHits != 3 || res.Damage != 6 || res.SurvivorHits != 1 {
			t.Errorf("got %+v, want enemy hits 3, damage 6, survivor hits 1", res)
		}
	})
}

// seed 000 "Waffen & Kleidung": a ranged weapon against a target without the
// ranged icon scores 1 extra hit (ranged_bonus = 1, seed 000).
func TestSeed000WaffenUndKleidung_RangedBonus(t *testing.T) {
	c := rtContent(t)
	if c.Rules.RangedBonus != 1 {
		t.Fatalf("content ranged_bonus = %d, seed 000 says 1", c.Rules.RangedBonus)
	}
	faces := rtVATS(t, c, "head", "arms", "torso") // one vulnerable die (head)
	rows := []struct {
		name   string
		ranged bool
		target []string
		hits   int
		killed bool
	}{
		{"seed 000 Waffen und Kleidung: ranged weapon vs non-ranged target +1", true, nil, 2, true},
		{"seed 000 Waffen und Kleidung: ranged weapon vs ranged target +0", true, []string{models.AbilityRanged}, 1, false},
		{"seed 000 Waffen und Kleidung: melee weapon +0", false, nil, 1, false},
		{"seed 000 Waffen und Kleidung: melee weapon vs ranged target +0", false, []string{models.AbilityRanged}, 1, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			res := FightMath(c.Rules, rtTok(2, []string{"head"}, r.target...), 0, r.ranged, faces, nil)
			if res.SurvivorHits != r.hits || res.Killed != r.killed {
				t.Errorf("survivor hits/killed = %d/%v, want %d/%v", res.SurvivorHits, res.Killed, r.hits, r.killed)
			}
		})
	}
	// seed 000 "Waffen & Kleidung" via Fight: the survivor's Ranged flag is used.
	t.Run("seed 000 Waffen und Kleidung: Fight uses the survivor's ranged weapon", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[st.Survivor("ann")].Ranged = true
		st, id := rtAdd(t, c, st, EnemySpec{Type: "ghoul", Token: "ghoul-2", Adjacent: []string{"ann"}})
		_, res, _ := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso")})
		if res.SurvivorHits != 2 || !res.Killed {
			t.Errorf("survivor hits/killed = %d/%v, want 2/true", res.SurvivorHits, res.Killed)
		}
	})
}

// seed 000 "Gegnereigenschaften" Ruestung: enemy armor negates 1 per icon
// ("negate-hit", seed 000); a secondary source says it needs +1 hit to kill
// ("extra-hit"). Both are values of the enemy_armor switch.
func TestSeed000Gegnereigenschaften_EnemyArmor(t *testing.T) {
	c := rtContent(t)
	armored := func(armor int) models.EnemyToken {
		tok := rtTok(2, []string{"head", "legs"}, models.AbilityArmor)
		tok.Armor = armor
		return tok
	}
	rows := []struct {
		name   string
		mode   string
		armor  int
		ranged bool
		faces  []string
		hits   int
		needed int
		killed bool
	}{
		// seed 000 "Ruestung: Negiert automatisch je 1 Schadenspunkt".
		{"seed 000 Ruestung enemy_armor=negate-hit: one icon cancels one hit", models.ArmorNegateHit, 1, false, []string{"head", "legs", "head"}, 2, 2, true},
		{"seed 000 Ruestung enemy_armor=negate-hit: one icon saves the enemy", models.ArmorNegateHit, 1, false, []string{"head", "legs", "arms"}, 1, 2, false},
		{"seed 000 Ruestung enemy_armor=negate-hit: two icons cancel two hits", models.ArmorNegateHit, 2, false, []string{"head", "legs", "head"}, 1, 2, false},
		{"seed 000 Ruestung enemy_armor=negate-hit: hits never negative", models.ArmorNegateHit, 2, false, []string{"head", "arms", "torso"}, 0, 2, false},
		{"seed 000 Ruestung enemy_armor=negate-hit: ranged bonus hit can be cancelled", models.ArmorNegateHit, 1, true, []string{"head", "legs", "arms"}, 2, 2, true},
		// secondary source (rules-fallout-bg.md "Fights" 2): armored enemy needs one more hit.
		{"rules doc Fights enemy_armor=extra-hit: needs level+1", models.ArmorExtraHit, 1, false, []string{"head", "legs", "arms"}, 2, 3, false},
		{"rules doc Fights enemy_armor=extra-hit: level+1 hits kill", models.ArmorExtraHit, 1, false, []string{"head", "legs", "head"}, 3, 3, true},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			rules := c.Rules
			rules.EnemyArmor = r.mode
			res := FightMath(rules, armored(r.armor), 0, r.ranged, rtVATS(t, c, r.faces...), nil)
			if res.SurvivorHits != r.hits || res.Needed != r.needed || res.Killed != r.killed {
				t.Errorf("hits/needed/killed = %d/%d/%v, want %d/%d/%v", res.SurvivorHits, res.Needed, res.Killed, r.hits, r.needed, r.killed)
			}
		})
	}
	// Without the armor ability the switch does not matter.
	for _, mode := range []string{models.ArmorNegateHit, models.ArmorExtraHit} {
		t.Run("seed 000 Ruestung: unarmored enemy unaffected enemy_armor="+mode, func(t *testing.T) {
			rules := c.Rules
			rules.EnemyArmor = mode
			res := FightMath(rules, rtTok(2, []string{"head", "legs"}), 0, false, rtVATS(t, c, "head", "legs", "arms"), nil)
			if res.SurvivorHits != 2 || res.Needed != 2 || !res.Killed {
				t.Errorf("got %+v, want 2 hits, needed 2, killed", res)
			}
		})
	}
}

// seed 003 "Assisting": the assist die's hits are combined with the roll
// (side per the assist_hits switch); the assistant suffers damage equal to the
// enemy level for each hurt icon.
func TestSeed003Assisting_FightMath(t *testing.T) {
	c := rtContent(t)
	faces := rtVATS(t, c, "head", "arms", "torso") // 1 hit icon, 1 head region
	rows := []struct {
		name       string
		mode       string
		level      int
		assist     string
		enemyHits  int
		survHits   int
		killed     bool
		assistDmg  int
		damageToSv int
	}{
		{"seed 003 Assisting assist_hits=survivor: one assist hit joins the survivor", models.AssistHitsSurvivor, 2, "hit", 1, 2, true, 0, 2},
		{"seed 003 Assisting assist_hits=survivor: two assist hits and hurt", models.AssistHitsSurvivor, 2, "2h-hurt", 1, 3, true, 2, 2},
		{"seed 003 Assisting assist_hits=survivor: blank adds nothing", models.AssistHitsSurvivor, 2, "blank", 1, 1, false, 0, 2},
		{"seed 003 Assisting assist_hits=enemy: assist hits join the enemy", models.AssistHitsEnemy, 2, "2h", 3, 1, false, 0, 6},
		{"seed 003 Assisting: hurt icon deals enemy level to the assistant", models.AssistHitsSurvivor, 3, "hurt", 1, 1, false, 3, 3},
		{"seed 003 Assisting: hit and hurt level 1", models.AssistHitsSurvivor, 1, "hit-hurt", 1, 2, true, 1, 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			rules := c.Rules
			rules.AssistHits = r.mode
			res := FightMath(rules, rtTok(r.level, []string{"head"}), 0, false, faces, rtAssist(t, c, r.assist))
			if res.EnemyHits != r.enemyHits || res.SurvivorHits != r.survHits || res.Killed != r.killed ||
				res.AssistDamage != r.assistDmg || res.Damage != r.damageToSv {
				t.Errorf("enemy hits/survivor hits/killed/assist dmg/damage = %d/%d/%v/%d/%d, want %d/%d/%v/%d/%d",
					res.EnemyHits, res.SurvivorHits, res.Killed, res.AssistDamage, res.Damage,
					r.enemyHits, r.survHits, r.killed, r.assistDmg, r.damageToSv)
			}
		})
	}
	t.Run("seed 003 Assisting: no assist die no assist damage", func(t *testing.T) {
		res := FightMath(c.Rules, rtTok(2, []string{"head"}), 0, false, faces, nil)
		if res.AssistDamage != 0 || res.SurvivorHits != 1 {
			t.Errorf("got %+v", res)
		}
	})
}

// ---------------------------------------------------------------------------
// Fights applied to the game state (seed 000 "[V] Kampf" 03, seed 003
// "Assisting")

// seed 000 "[V] Kampf" 03: a kill gives XP = level; Caps icon gives caps =
// level; Loot icon draws loot; the token is discarded and a new facedown
// token of that type is placed (inactive, a replacement).
func TestSeed000Kampf_Kill(t *testing.T) {
	c := rtContent(t)
	t.Run("seed 000 Kampf 03: XP = level, caps ability caps = level, replacement facedown", func(t *testing.T) {
		st := rtGame(t, c)
		// robot-2: level 2, vulnerable head+legs, ranged, caps.
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
		st2, res, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "arms")})
		if !res.Killed || res.SurvivorHits != 2 {
			t.Fatalf("result %+v, want killed with 2 hits", res)
		}
		ann := rtSurv(t, st2, "ann")
		// seed 000 "[V] Kampf" 01: the enemy attacks first: 2 hit icons x level 2.
		if ann.Damage != 4 {
			t.Errorf("Ann damage = %d, want 4", ann.Damage)
		}
		// seed 000 "Erfahrungspunkte": XP = enemy level.
		if ann.XP != 2 {
			t.Errorf("Ann XP = %d, want 2 (level)", ann.XP)
		}
		// seed 000 "Gegnereigenschaften" Kronkorken: caps = level.
		if ann.Caps != 2 {
			t.Errorf("Ann caps = %d, want 2 (level)", ann.Caps)
		}
		k := rtMust(t, out, KindFightKilled)
		rtVar(t, k, "xp", 2)
		rtVar(t, k, "caps", 2)
		rtVar(t, k, "loot", false)
		if rtAt(out, KindDamage) > rtAt(out, KindFightKilled) {
			t.Errorf("enemy damage must come first (seed 000 Kampf 01): %v", rtKinds(out))
		}
		// seed 000 "[V] Kampf" 03: token discarded, a new facedown token of the type placed.
		if st2.Enemy(id) >= 0 {
			t.Errorf("killed enemy %s still on the map", id)
		}
		if len(st2.Enemies) != 1 {
			t.Fatalf("enemies = %+v, want exactly the replacement", st2.Enemies)
		}
		r := st2.Enemies[0]
		if r.ID == id || r.Type != "robot" || r.Active || !r.Replacement || r.Faction != "" || r.Token != "" {
			t.Errorf("replacement = %+v, want a new facedown robot marked Replacement", r)
		}
		rtVar(t, rtMust(t, out, KindFightReplace), "id", r.ID)
		// The caller's state is not changed (pure function).
		if len(st.Enemies) != 1 || st.Enemies[0].ID != id || st.Survivors[0].XP != 0 {
			t.Errorf("Fight changed its input state")
		}
	})
	t.Run("seed 000 Gegnereigenschaften Beute: loot flag on kill, no caps without caps icon", func(t *testing.T) {
		st := rtGame(t, c)
		// raider-2: level 2, vulnerable arms+legs, retreat, loot.
		st, id := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-2", With: []string{"ann"}})
		st, res, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "arms", "legs", "torso")})
		if !res.Killed {
			t.Fatalf("not killed: %+v", res)
		}
		k := rtMust(t, out, KindFightKilled)
		rtVar(t, k, "loot", true)
		rtVar(t, k, "caps", 0)
		if ann := rtSurv(t, st, "ann"); ann.Caps != 0 || ann.XP != 2 || ann.Damage != 2 {
			t.Errorf("Ann caps/xp/damage = %d/%d/%d, want 0/2/2", ann.Caps, ann.XP, ann.Damage)
		}
		// seed 000 "Rueckzug" only applies when not killed.
		rtNone(t, out, KindFightRetreat)
		rtMust(t, out, KindFightReplace)
	})
	t.Run("seed 000 Waffen und Kleidung: survivor armor applies in Fight", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[st.Survivor("ann")].Armor = 1
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
		st, _, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "arms")})
		if d := rtSurv(t, st, "ann").Damage; d != 3 {
			t.Errorf("Ann damage = %d, want 4-1 = 3", d)
		}
		rtVar(t, rtMust(t, out, KindFightEnemy), "blocked", 1)
	})
}

// seed 000 "[V] Kampf" 03: an enemy not killed stays active and hits do not
// carry over; "Gegnereigenschaften" Rueckzug: if not killed it turns facedown.
func TestSeed000Kampf_NotKilled(t *testing.T) {
	c := rtContent(t)
	t.Run("seed 000 Kampf 03: not killed stays active, no XP", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
		st, res, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "arms", "torso", "2h")})
		if res.Killed {
			t.Fatalf("killed: %+v", res)
		}
		e := rtEnemy(t, st, id)
		if !e.Active || e.Replacement || len(st.Enemies) != 1 {
			t.Errorf("enemy after a failed fight = %+v (of %d), want the same active token", e, len(st.Enemies))
		}
		ann := rtSurv(t, st, "ann")
		if ann.XP != 0 || ann.Caps != 0 || ann.Damage != 4 {
			t.Errorf("Ann xp/caps/damage = %d/%d/%d, want 0/0/4", ann.XP, ann.Caps, ann.Damage)
		}
		rtMust(t, out, KindFightSurvived)
		rtNone(t, out, KindFightKilled)
		rtNone(t, out, KindFightReplace)
		rtNone(t, out, KindFightRetreat)
	})
	t.Run("seed 000 Kampf 03: hits do not carry over to the next fight", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
		for i := 0; i < 2; i++ {
			var res FightResult
			st, res, _ = rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso")})
			if res.Killed || res.SurvivorHits != 1 {
				t.Errorf("fight %d: %+v, want 1 hit and not killed", i+1, res)
			}
		}
		if !rtEnemy(t, st, id).Active {
			t.Errorf("enemy should still be active")
		}
	})
	t.Run("seed 000 Gegnereigenschaften Rueckzug: not killed turns facedown", func(t *testing.T) {
		st := rtGame(t, c)
		// raider-2: level 2, vulnerable arms+legs, retreat.
		st, id := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-2", With: []string{"ann"}})
		st, res, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "torso", "1h")})
		if res.Killed {
			t.Fatalf("killed: %+v", res)
		}
		e := rtEnemy(t, st, id)
		if e.Active || e.Replacement {
			t.Errorf("retreated enemy = %+v, want facedown (inactive), not a replacement", e)
		}
		rtMust(t, out, KindFightRetreat)
	})
}

// seed 000 "[V] Kampf": "ziehen und bekaempfen" — a drawn token is always
// discarded after the fight, never replaced.
func TestSeed000Kampf_DrawAndFight(t *testing.T) {
	c := rtContent(t)
	base := rtGame(t, c)
	base, _ = rtAdd(t, c, base, EnemySpec{Type: "robot", Token: "robot-1"})
	tok := rtToken(t, c, "raider-2") // level 2, arms+legs, retreat, loot
	rows := []struct {
		name   string
		faces  []string
		killed bool
	}{
		{"seed 000 Kampf ziehen und bekaempfen: killed, discarded, not replaced", []string{"arms", "legs", "torso"}, true},
		{"seed 000 Kampf ziehen und bekaempfen: not killed, discarded, no retreat", []string{"head", "torso", "torso"}, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			st, res, out := rtFight(t, c, base, FightInput{Survivor: "ann", Token: tok, TypeID: "raider", DrawAndFight: true,
				Faces: rtVATS(t, c, r.faces...)})
			if res.Killed != r.killed {
				t.Fatalf("killed = %v, want %v", res.Killed, r.killed)
			}
			rtMust(t, out, KindFightDiscarded)
			rtNone(t, out, KindFightReplace)
			rtNone(t, out, KindFightRetreat)
			if len(st.Enemies) != 1 || st.Enemies[0].ID != base.Enemies[0].ID || st.NextEnemy != base.NextEnemy {
				t.Errorf("map changed by a draw-and-fight: %+v", st.Enemies)
			}
			wantXP := 0
			if r.killed {
				wantXP = 2 // seed 000 "Erfahrungspunkte": XP = level still applies
			}
			if xp := rtSurv(t, st, "ann").XP; xp != wantXP {
				t.Errorf("Ann XP = %d, want %d", xp, wantXP)
			}
		})
	}
	t.Run("seed 000 Kampf ziehen und bekaempfen: a drawn enemy is not an enemy on the map", func(t *testing.T) {
		_, _, _, err := Fight(c, base, FightInput{Survivor: "ann", Enemy: base.Enemies[0].ID, Token: tok, TypeID: "raider",
			DrawAndFight: true, Faces: rtVATS(t, c, "arms", "legs", "torso")})
		if err == nil {
			t.Errorf("draw-and-fight naming a map enemy: want an error")
		}
	})
}

// seed 003 "Assisting" (seed 000 "Unterstuetzen"): the assist die's hits add
// to the roll, the assistant takes damage = level per hurt icon, gains 1 XP
// only if the enemy dies; only another survivor can assist.
func TestSeed003Assisting_Fight(t *testing.T) {
	c := rtContent(t)
	setup := func(t *testing.T) (State, string) {
		st := rtGame(t, c)
		// robot-2: level 2, vulnerable head+legs.
		return rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann", "ben"}})
	}
	t.Run("seed 003 Assisting: kill, assistant hurt = level per icon, +1 XP to assistant", func(t *testing.T) {
		st, id := setup(t)
		st.Rules.AssistHits = models.AssistHitsSurvivor
		st, res, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso"),
			Assistant: "ben", AssistFace: rtAssist(t, c, "hit-hurt")})
		if !res.Killed || res.SurvivorHits != 2 {
			t.Fatalf("result %+v, want killed with 1 + 1 assist hits", res)
		}
		ann, ben := rtSurv(t, st, "ann"), rtSurv(t, st, "ben")
		if ann.XP != 2 || ann.Damage != 2 {
			t.Errorf("Ann xp/damage = %d/%d, want 2/2", ann.XP, ann.Damage)
		}
		if ben.XP != 1 || ben.Damage != 2 {
			t.Errorf("Ben (assistant) xp/damage = %d/%d, want 1/2", ben.XP, ben.Damage)
		}
		rtVar(t, rtMust(t, out, KindAssistXP), "xp", 1)
		rtVar(t, rtMust(t, out, KindAssistHurt), "damage", 2)
		if c.Rules.AssistXP != 1 {
			t.Errorf("content assist_xp = %d, seed 003 says 1", c.Rules.AssistXP)
		}
	})
	t.Run("seed 003 Assisting: no kill, no XP for the assistant, hurt still applies", func(t *testing.T) {
		st, id := setup(t)
		st.Rules.AssistHits = models.AssistHitsSurvivor
		st, res, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "torso", "arms", "torso"),
			Assistant: "ben", AssistFace: rtAssist(t, c, "hit-hurt")})
		if res.Killed {
			t.Fatalf("killed: %+v", res)
		}
		if ben := rtSurv(t, st, "ben"); ben.XP != 0 || ben.Damage != 2 {
			t.Errorf("Ben xp/damage = %d/%d, want 0/2", ben.XP, ben.Damage)
		}
		rtNone(t, out, KindAssistXP)
	})
	t.Run("seed 003 Assisting assist_hits=enemy: assist hits hurt the fighter", func(t *testing.T) {
		st, id := setup(t)
		st.Rules.AssistHits = models.AssistHitsEnemy
		st, res, _ := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso"),
			Assistant: "ben", AssistFace: rtAssist(t, c, "2h")})
		if res.Killed || res.EnemyHits != 3 {
			t.Errorf("result %+v, want 3 enemy hits, not killed", res)
		}
		if d := rtSurv(t, st, "ann").Damage; d != 6 {
			t.Errorf("Ann damage = %d, want 3 x 2", d)
		}
		if d := rtSurv(t, st, "ben").Damage; d != 0 {
			t.Errorf("Ben damage = %d, want 0 (no hurt icon)", d)
		}
	})
	t.Run("seed 003 Assisting: level 3 enemy hurts the assistant 3", func(t *testing.T) {
		st, id := setup(t)
		st, _, _ = rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Token: rtToken(t, c, "robot-3"),
			Faces: rtVATS(t, c, "torso", "torso", "torso"), Assistant: "ben", AssistFace: rtAssist(t, c, "hurt")})
		if d := rtSurv(t, st, "ben").Damage; d != 3 {
			t.Errorf("Ben damage = %d, want 3", d)
		}
	})
	// seed 003 "Assisting": "a survivor can assist ... the survivor who is fighting" — another survivor.
	for _, a := range []string{"ann", "Ann"} {
		t.Run("seed 003 Assisting: the fighter cannot assist themself ("+a+")", func(t *testing.T) {
			st, id := setup(t)
			_, _, _, err := Fight(c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso"),
				Assistant: a, AssistFace: rtAssist(t, c, "hit")})
			if err == nil {
				t.Errorf("want an error")
			}
		})
	}
	t.Run("seed 003 Assisting: an assistant needs the assist die", func(t *testing.T) {
		st, id := setup(t)
		if _, _, _, err := Fight(c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso"), Assistant: "ben"}); err == nil {
			t.Errorf("want an error")
		}
	})
}

// ---------------------------------------------------------------------------
// Survivors (seed 000 "Trefferpunkte & Strahlung", seed 003 "Killed",
// "Mutations")

// seed 000 "Trefferpunkte & Strahlung": dead when the pegs meet or rads pass
// HP; respawn with all HP, rads stay; out of the game at max rads; seed 003
// "Killed": the opposing faction advances 1.
func TestSeed000TrefferpunkteStrahlung_Death(t *testing.T) {
	c := rtContent(t)
	rows := []struct {
		name              string
		preDamage, preRad int
		damage, rads      int
		dead, out         bool
		wantDamage        int
		wantRads          int
	}{
		// seed 000: "Treffen sich beide Marker ... stirbst Du" — damage 7 + rads 3 = max HP 10.
		{"seed 000 Trefferpunkte: pegs meet, dead and respawn", 0, 0, 7, 3, true, false, 0, 3},
		{"seed 000 Trefferpunkte: one short of meeting, alive", 0, 0, 6, 3, false, false, 6, 3},
		{"seed 000 Trefferpunkte: damage alone to 0 HP, dead", 0, 0, 10, 0, true, false, 0, 0},
		{"seed 000 Trefferpunkte: overkill dies once", 0, 0, 25, 0, true, false, 0, 0},
		// seed 000: "oder uebersteigt der gruene den roten Marker".
		{"seed 000 Trefferpunkte: rads pass HP, dead, rads kept", 8, 0, 0, 3, true, false, 0, 3},
		{"seed 000 Trefferpunkte: damage meets existing rads", 0, 4, 6, 0, true, false, 0, 4},
		// seed 000: "Ist deine Strahlung nun auf Maximalwert scheidest Du aus dem Spiel aus".
		{"seed 000 Trefferpunkte: rads at maximum, out of the game", 0, 9, 0, 1, true, true, 0, 10},
		{"seed 000 Trefferpunkte: rads beyond maximum capped, out", 0, 9, 0, 5, true, true, 0, 10},
		{"seed 000 Trefferpunkte: rads one below maximum respawn", 0, 9, 1, 0, true, false, 0, 9},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			st := rtGame(t, c)
			i := st.Survivor("ann")
			st.Survivors[i].Damage, st.Survivors[i].Rads = r.preDamage, r.preRad
			st.Survivors[i].Mutated = true // keep mutation out of this test
			st, out, err := Hurt(c, st, "ann", r.damage, r.rads)
			if err != nil {
				t.Fatal(err)
			}
			ann := rtSurv(t, st, "ann")
			if ann.Damage != r.wantDamage || ann.Rads != r.wantRads || ann.Out != r.out {
				t.Errorf("Ann damage/rads/out = %d/%d/%v, want %d/%d/%v", ann.Damage, ann.Rads, ann.Out, r.wantDamage, r.wantRads, r.out)
			}
			if !r.dead {
				if ann.Deaths != 0 || st.Power != 0 {
					t.Errorf("alive: deaths %d power %d, want 0/0", ann.Deaths, st.Power)
				}
				rtNone(t, out, KindKilled)
				return
			}
			if ann.Deaths != 1 || rtCount(out, KindKilled) != 1 {
				t.Errorf("deaths = %d, killed outcomes = %d, want 1/1", ann.Deaths, rtCount(out, KindKilled))
			}
			// seed 000 "Die verfeindete Fraktion erhaelt 1 Macht", seed 003 "Killed".
			if st.Power != 1 {
				t.Errorf("power = %d, want 1 (opposing faction +1 on death)", st.Power)
			}
			rtVar(t, rtMust(t, out, KindPower), "reason", "killed")
			if r.out {
				rtMust(t, out, KindOut)
				rtNone(t, out, KindRespawn)
			} else {
				// seed 000: respawn, "regenerierst all deine Trefferpunkte"; rads stay.
				if ann.HP() != ann.MaxHP {
					t.Errorf("respawn HP = %d, want full %d", ann.HP(), ann.MaxHP)
				}
				rtVar(t, rtMust(t, out, KindRespawn), "rads", r.wantRads)
				rtNone(t, out, KindOut)
			}
		})
	}
	t.Run("seed 003 Killed: power reaching the last space loses the game", func(t *testing.T) {
		st := rtGame(t, c)
		st.Power = st.LastSpace() - 1
		st, out, _ := Hurt(c, st, "ann", 10, 0)
		if st.Result != ResultLost || st.Power != st.LastSpace() {
			t.Errorf("result %q power %d, want lost at %d", st.Result, st.Power, st.LastSpace())
		}
		rtMust(t, out, KindGameLost)
	})
	t.Run("seed 000 Trefferpunkte: dead survivor leaves the enemy's space", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"ann", "ben"}, Adjacent: []string{"ann", "cat"}})
		st, _, _ = Hurt(c, st, "ann", 10, 0)
		e := rtEnemy(t, st, id)
		if !slices.Equal(e.With, []string{"ben"}) || !slices.Equal(e.Adjacent, []string{"cat"}) {
			t.Errorf("enemy with %v adjacent %v, want [ben] and [cat]", e.With, e.Adjacent)
		}
	})
	t.Run("seed 000 Trefferpunkte: a survivor out of the game takes no more harm", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[0].Out, st.Survivors[0].Rads = true, 10
		st2, out, _ := Hurt(c, st, "ann", 5, 5)
		if len(out) != 0 || st2.Power != st.Power || st2.Survivors[0].Deaths != 0 {
			t.Errorf("out survivor harmed: %v", rtKinds(out))
		}
	})
	t.Run("seed 000 Trefferpunkte: death from a fight", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[0].Damage = 8
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
		st, _, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "1h", "torso", "arms")})
		ann := rtSurv(t, st, "ann")
		if ann.Deaths != 1 || ann.Damage != 0 || st.Power != 1 {
			t.Errorf("Ann deaths/damage = %d/%d power %d, want 1/0 and 1", ann.Deaths, ann.Damage, st.Power)
		}
		rtMust(t, out, KindRespawn)
		if e := rtEnemy(t, st, id); len(e.With) != 0 {
			t.Errorf("enemy still with %v", e.With)
		}
	})
}

// seed 000 "Mutationen" / seed 003 "Mutations": at 5 rads the mutation
// triggers, once, and stays even if rads drop.
func TestSeed003Mutations(t *testing.T) {
	c := rtContent(t)
	if c.Rules.MutationRads != 5 {
		t.Fatalf("content mutation_rads = %d, seeds say 5", c.Rules.MutationRads)
	}
	rows := []struct {
		name    string
		preRads int
		mutated bool // already mutated before the change
		delta   int  // rads gained (Hurt) or, if negative, recovered (Adjust)
		trigger bool
	}{
		{"seed 003 Mutations: 4 rads no mutation", 0, false, 4, false},
		// seed 003: "If a survivor's green peg reaches the fifth hole ... immediately activate".
		{"seed 003 Mutations: reaching 5 rads triggers", 4, false, 1, true},
		// seed 000 "Mutationen": "Immer wenn ein Ueberlebender 5 Rads erreicht".
		{"seed 000 Mutationen: jumping past 5 triggers", 3, false, 4, true},
		// seed 000: "Die Mutation kann nicht mehr abgelegt werden" — triggers once.
		{"seed 003 Mutations: 6 rads no second trigger", 5, true, 1, false},
		{"seed 003 Mutations: back to 5 after recovering no second trigger", 3, true, 2, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			st := rtGame(t, c)
			st.Survivors[0].Rads, st.Survivors[0].Mutated = r.preRads, r.mutated
			st, out, err := Hurt(c, st, "ann", 0, r.delta)
			if err != nil {
				t.Fatal(err)
			}
			if got := rtCount(out, KindMutation) == 1; got != r.trigger {
				t.Errorf("mutation triggered = %v, want %v (%d -> %d rads)", got, r.trigger, r.preRads, st.Survivors[0].Rads)
			}
			if r.trigger && !st.Survivors[0].Mutated {
				t.Errorf("survivor not marked mutated")
			}
		})
	}
	// seed 003 "Mutations": "in effect for the duration of the game, even if
	// that survivor recovers rads".
	t.Run("seed 003 Mutations: recovering rads keeps the mutation", func(t *testing.T) {
		st := rtGame(t, c)
		st, _, _ = Hurt(c, st, "ann", 0, 5)
		st, _, err := Adjust(c, st, "ann", "rads", -3)
		if err != nil {
			t.Fatal(err)
		}
		if s := st.Survivors[0]; !s.Mutated || s.Rads != 2 {
			t.Errorf("after recovering: mutated %v rads %d, want true/2", s.Mutated, s.Rads)
		}
	})
}

// ---------------------------------------------------------------------------
// Loyalty (seed 000 "Loyalitaet")

// seed 000 "Loyalitaet": enemies of the faction a survivor is loyal to ignore
// them when activated; the survivor may not attack those enemies.
func TestSeed000Loyalitaet(t *testing.T) {
	c := rtContent(t)
	loyalCat := func(t *testing.T) State {
		st := rtGame(t, c)
		st, err := SetSurvivorFlag(c, st, "cat", "loyal", "institute")
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	t.Run("seed 000 Loyalitaet: loyal survivor may not fight its faction's enemies", func(t *testing.T) {
		st := loyalCat(t)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"cat"}})
		if _, _, _, err := Fight(c, st, FightInput{Survivor: "cat", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "arms")}); err == nil {
			t.Errorf("want an error")
		}
		// A survivor not loyal to the Institute may.
		if _, _, _, err := Fight(c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "arms")}); err != nil {
			t.Errorf("Ann fights: %v", err)
		}
	})
	t.Run("seed 000 Loyalitaet: activated faction enemy ignores the loyal survivor", func(t *testing.T) {
		st := loyalCat(t)
		st.Survivors[st.Survivor("cat")].Damage = 5 // Cat would be the priority target
		st, id := rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"cat", "ann"}})
		_, act, _ := rtActivate(t, c, st, "activation-2") // icon b = Institute (opposing)
		if got := rtAttacks(act); !slices.Equal(got, []string{id + ">ann"}) {
			t.Errorf("attacks = %v, want [%s>ann]", got, id)
		}
	})
	t.Run("seed 000 Loyalitaet: only loyal survivors in reach, it moves toward the others", func(t *testing.T) {
		st := loyalCat(t)
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"cat"}})
		_, act, out := rtActivate(t, c, st, "activation-2")
		if len(act.Attacks) != 0 {
			t.Errorf("attacks = %v, want none", rtAttacks(act))
		}
		rtVar(t, rtMust(t, out, KindEnemyMove), "priority", []string{"Ann", "Ben"})
	})
	t.Run("seed 000 Loyalitaet: everyone loyal, the faction enemy does nothing", func(t *testing.T) {
		st := rtGame(t, c)
		for _, id := range []string{"ann", "ben", "cat"} {
			st, _ = SetSurvivorFlag(c, st, id, "loyal", "institute")
		}
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"cat"}})
		_, act, out := rtActivate(t, c, st, "activation-2")
		if len(act.Attacks) != 0 {
			t.Errorf("attacks = %v", rtAttacks(act))
		}
		rtMust(t, out, KindEnemyIdle)
	})
	t.Run("seed 000 Loyalitaet: standard enemies do not ignore loyal survivors", func(t *testing.T) {
		st := loyalCat(t)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"cat"}})
		_, act, _ := rtActivate(t, c, st, "activation-3") // robot, ghoul
		if got := rtAttacks(act); !slices.Equal(got, []string{id + ">cat"}) {
			t.Errorf("attacks = %v, want [%s>cat]", got, id)
		}
	})
}

// ---------------------------------------------------------------------------
// The enemy turn (seed 000 "Ende der Runde", seed 003 "Activation cards")

// seed 003 "Activation cards" 1: the card's two enemy types activate top,
// then bottom.
func TestSeed003ActivationCards_TopThenBottom(t *testing.T) {
	c := rtContent(t)
	card, _ := c.Card("activation-3")
	st := rtGame(t, c)
	st, ghoul := rtAdd(t, c, st, EnemySpec{Type: card.Types[1], With: []string{"ann"}})
	st, top := rtAdd(t, c, st, EnemySpec{Type: card.Types[0], With: []string{"ben"}})
	_, act, out := rtActivate(t, c, st, card.ID)
	if got := rtAttacks(act); !slices.Equal(got, []string{top + ">ben", ghoul + ">ann"}) {
		t.Errorf("attacks = %v, want the top type (%s) first, then the bottom (%s)", got, card.Types[0], card.Types[1])
	}
	var types []any
	for _, o := range out {
		if o.Kind == KindActivateType {
			types = append(types, o.Vars["type"])
		}
	}
	want := []any{TypeName(c, card.Types[0], true), TypeName(c, card.Types[1], true)}
	if !slices.Equal(types, want) {
		t.Errorf("activated types = %v, want %v", types, want)
	}
	o := rtMust(t, out, KindActivationCard)
	rtVar(t, o, "first", want[0])
	rtVar(t, o, "second", want[1])
}

// seed 000 "Ende der Runde" 1: each active enemy that is, before moving, in a
// survivor's space (or adjacent, if Ranged) attacks; otherwise it moves 1
// space (Fast: up to 2, seed 000 "Gegnereigenschaften") toward the nearest
// survivor.
func TestSeed000EndeDerRunde_EnemyActions(t *testing.T) {
	c := rtContent(t)
	t.Run("seed 000 Ende der Runde: attacks a survivor in its space", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"ann"}})
		st, act, out := rtActivate(t, c, st, "activation-3")
		if got := rtAttacks(act); !slices.Equal(got, []string{id + ">ann"}) {
			t.Errorf("attacks = %v", got)
		}
		a := rtMust(t, out, KindEnemyAttack)
		rtVar(t, a, "survivor", "Ann")
		rtVar(t, a, "ranged", false)
		if e := rtEnemy(t, st, id); !slices.Equal(e.With, []string{"ann"}) {
			t.Errorf("attacking enemy moved: with %v", e.With)
		}
		rtNone(t, out, KindEnemyMove)
		rtNone(t, out, KindEnemyMoveTo)
	})
	t.Run("seed 000 Ende der Runde: ranged enemy attacks an adjacent survivor", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", Adjacent: []string{"ben"}})
		st, act, out := rtActivate(t, c, st, "activation-3")
		if got := rtAttacks(act); !slices.Equal(got, []string{id + ">ben"}) {
			t.Errorf("attacks = %v", got)
		}
		rtVar(t, rtMust(t, out, KindEnemyAttack), "ranged", true)
		if e := rtEnemy(t, st, id); len(e.With) != 0 || !slices.Equal(e.Adjacent, []string{"ben"}) {
			t.Errorf("ranged attacker moved: %+v", e)
		}
	})
	t.Run("seed 000 Ende der Runde: non-ranged enemy with adjacent survivors moves into the priority target's space", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[st.Survivor("ben")].Damage = 3
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", Adjacent: []string{"ann", "ben"}})
		st, act, out := rtActivate(t, c, st, "activation-3")
		if len(act.Attacks) != 0 {
			t.Errorf("an enemy that was not in reach before moving attacked: %v", rtAttacks(act))
		}
		rtVar(t, rtMust(t, out, KindEnemyMoveTo), "survivor", "Ben")
		if e := rtEnemy(t, st, id); !slices.Equal(e.With, []string{"ben"}) || len(e.Adjacent) != 0 {
			t.Errorf("enemy with %v adjacent %v, want with [ben]", e.With, e.Adjacent)
		}
	})
	t.Run("seed 000 Ende der Runde: no survivor in reach, moves 1 toward the nearest", func(t *testing.T) {
		st := rtGame(t, c)
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1"})
		_, act, out := rtActivate(t, c, st, "activation-3")
		if len(act.Attacks) != 0 {
			t.Errorf("attacks = %v", rtAttacks(act))
		}
		rtVar(t, rtMust(t, out, KindEnemyMove), "steps", 1)
	})
	t.Run("seed 000 Gegnereigenschaften Schnell: fast enemy moves up to 2", func(t *testing.T) {
		st := rtGame(t, c)
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "creature", Token: "creature-1"})
		_, _, out := rtActivate(t, c, st, "activation-8") // creature, robot
		rtVar(t, rtMust(t, out, KindEnemyMove), "steps", 2)
	})
	t.Run("seed 000 Gegnereigenschaften Schnell: fast enemy next to a survivor enters that space", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "creature", Token: "creature-1", Adjacent: []string{"cat"}})
		st, act, out := rtActivate(t, c, st, "activation-8")
		if len(act.Attacks) != 0 {
			t.Errorf("attacks = %v", rtAttacks(act))
		}
		m := rtMust(t, out, KindEnemyMoveTo)
		rtVar(t, m, "survivor", "Cat")
		rtVar(t, m, "aggressive", false)
		if e := rtEnemy(t, st, id); !slices.Equal(e.With, []string{"cat"}) {
			t.Errorf("with %v, want [cat]", e.With)
		}
	})
	t.Run("seed 000 Gegnereigenschaften Aggressiv: entering a survivor's space is flagged aggressive", func(t *testing.T) {
		st := rtGame(t, c)
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "creature", Token: "creature-2", Adjacent: []string{"cat"}})
		_, _, out := rtActivate(t, c, st, "activation-8")
		rtVar(t, rtMust(t, out, KindEnemyMoveTo), "aggressive", true)
	})
	t.Run("seed 000 Ende der Runde: ranged enemy chooses among space and adjacent by priority", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[st.Survivor("ben")].Damage = 4
		st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}, Adjacent: []string{"ben"}})
		_, act, _ := rtActivate(t, c, st, "activation-3")
		if got := rtAttacks(act); !slices.Equal(got, []string{id + ">ben"}) {
			t.Errorf("attacks = %v, want [%s>ben] (fewer HP)", got, id)
		}
	})
	t.Run("seed 000 Trefferpunkte: survivors out of the game are not targets", func(t *testing.T) {
		st := rtGame(t, c)
		for i := range st.Survivors {
			st.Survivors[i].Out = true
		}
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"ann"}})
		_, act, out := rtActivate(t, c, st, "activation-3")
		if len(act.Attacks) != 0 {
			t.Errorf("attacks = %v", rtAttacks(act))
		}
		rtMust(t, out, KindEnemyIdle)
	})
	t.Run("seed 000 Ende der Runde: facedown enemies do not act", func(t *testing.T) {
		st := rtGame(t, c)
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", Inactive: true, With: []string{"ann"}})
		_, act, out := rtActivate(t, c, st, "activation-3")
		if len(act.Attacks) != 0 {
			t.Errorf("a facedown enemy attacked: %v", rtAttacks(act))
		}
		rtNone(t, out, KindEnemyMove)
		rtNone(t, out, KindEnemyMoveTo)
	})
}

// seed 000 "Ende der Runde": several possible targets — fewer HP first, then
// player order (counted from the first player).
func TestSeed000EndeDerRunde_TargetPriority(t *testing.T) {
	c := rtContent(t)
	rows := []struct {
		name   string
		first  int
		damage [3]int // ann, ben, cat
		with   []string
		want   string
	}{
		{"seed 000 Ende der Runde: fewer HP first", 0, [3]int{0, 3, 0}, []string{"ann", "ben", "cat"}, "ben"},
		{"seed 000 Ende der Runde: fewer HP beats player order", 0, [3]int{2, 0, 5}, []string{"ann", "ben", "cat"}, "cat"},
		{"seed 000 Ende der Runde: tie goes to the first player", 0, [3]int{1, 1, 1}, []string{"ann", "ben", "cat"}, "ann"},
		{"seed 000 Ende der Runde: tie, player order from first player Ben", 1, [3]int{0, 0, 0}, []string{"ann", "ben", "cat"}, "ben"},
		{"seed 000 Ende der Runde: tie, order wraps after the last player", 1, [3]int{0, 0, 0}, []string{"ann", "cat"}, "cat"},
		{"seed 000 Ende der Runde: tie, first player Cat", 2, [3]int{4, 4, 6}, []string{"ann", "ben"}, "ann"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			st := rtGame(t, c)
			st.FirstPlayer = r.first
			for i, d := range r.damage {
				st.Survivors[i].Damage = d
			}
			st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: r.with})
			_, act, _ := rtActivate(t, c, st, "activation-3")
			if got := rtAttacks(act); !slices.Equal(got, []string{id + ">" + r.want}) {
				t.Errorf("attacks = %v, want [%s>%s]", got, id, r.want)
			}
		})
	}
	t.Run("seed 000 Ende der Runde: adjacent target priority, player order from first player", func(t *testing.T) {
		st := rtGame(t, c)
		st.FirstPlayer = 2
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", Adjacent: []string{"ann", "ben"}})
		_, _, out := rtActivate(t, c, st, "activation-3")
		rtVar(t, rtMust(t, out, KindEnemyMoveTo), "survivor", "Ann")
	})
	t.Run("seed 000 Ende der Runde: move priority lists all targets in order", func(t *testing.T) {
		st := rtGame(t, c)
		st.FirstPlayer = 1
		st.Survivors[2].Damage = 2
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1"})
		_, _, out := rtActivate(t, c, st, "activation-3")
		rtVar(t, rtMust(t, out, KindEnemyMove), "priority", []string{"Cat", "Ben", "Ann"})
	})
}

// seed 000 "Ende der Runde" 1: after all active enemies of a type have acted,
// the type's inactive enemies turn faceup (and do not act), except
// replacements placed facedown this round; EndRound clears that mark.
func TestSeed000EndeDerRunde_FlipInactive(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, down := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", Inactive: true, With: []string{"ann"}})
	st, raider := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-2", Inactive: true})
	// A kill this round places a facedown replacement ghoul.
	st, ghoul := rtAdd(t, c, st, EnemySpec{Type: "ghoul", Token: "ghoul-1", With: []string{"ben"}})
	st, _, _ = rtFight(t, c, st, FightInput{Survivor: "ben", Enemy: ghoul, Faces: rtVATS(t, c, "head", "torso", "torso")})
	repl := st.Enemies[len(st.Enemies)-1]
	if repl.Type != "ghoul" || !repl.Replacement || repl.Active {
		t.Fatalf("replacement = %+v", repl)
	}

	st, act, out := rtActivate(t, c, st, "activation-3") // robot, ghoul
	t.Run("seed 000 Ende der Runde: inactive enemy of the type turns faceup", func(t *testing.T) {
		if !rtEnemy(t, st, down).Active {
			t.Errorf("facedown robot did not turn faceup")
		}
		f := rtMust(t, out, KindEnemyFlip)
		rtVar(t, f, "n", 1)
		rtVar(t, f, "type", TypeName(c, "robot", true))
	})
	t.Run("seed 000 Ende der Runde: a flipped enemy does not act this activation", func(t *testing.T) {
		if len(act.Attacks) != 0 {
			t.Errorf("attacks = %v", rtAttacks(act))
		}
	})
	t.Run("seed 000 Ende der Runde: this round's replacement stays facedown", func(t *testing.T) {
		if e := rtEnemy(t, st, repl.ID); e.Active || !e.Replacement {
			t.Errorf("replacement = %+v, want still facedown", e)
		}
		if rtCount(out, KindEnemyFlip) != 1 {
			t.Errorf("flips = %d, want only the robot", rtCount(out, KindEnemyFlip))
		}
	})
	t.Run("seed 000 Ende der Runde: other types stay facedown", func(t *testing.T) {
		if rtEnemy(t, st, raider).Active {
			t.Errorf("raider flipped by a robot/ghoul card")
		}
	})
	st, rout, err := EndRound(c, st)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("seed 000 Ende der Runde: EndRound clears replacement marks", func(t *testing.T) {
		if st.Round != 2 {
			t.Errorf("round = %d, want 2", st.Round)
		}
		for _, e := range st.Enemies {
			if e.Replacement {
				t.Errorf("enemy %s still marked replacement", e.ID)
			}
		}
		rtVar(t, rtMust(t, rout, KindRound), "round", 2)
	})
	st, _, _ = rtActivate(t, c, st, "activation-6") // ghoul, raider
	t.Run("seed 000 Ende der Runde: last round's replacement turns faceup next round", func(t *testing.T) {
		if !rtEnemy(t, st, repl.ID).Active {
			t.Errorf("old replacement did not turn faceup")
		}
		if !rtEnemy(t, st, raider).Active {
			t.Errorf("facedown raider did not turn faceup")
		}
	})
}

// seed 003 "Activation cards" 2 (seed 000 "Verfeindete Fraktionen
// aktivieren"): loyal icon — nothing; opposing icon — its enemies activate,
// its power token advances 1, then the scenario's activation effect for the
// number of opposing-faction enemies on the map; the last space loses.
func TestSeed003ActivationCards_FactionIcon(t *testing.T) {
	c := rtContent(t)
	if c.Rules.ActivationPower != 1 {
		t.Fatalf("content activation_power = %d, seed 003 says 1", c.Rules.ActivationPower)
	}
	t.Run("seed 003 Activation cards: loyal faction icon, nothing happens", func(t *testing.T) {
		st := rtGame(t, c)
		st.Survivors[0].Loyal = "" // even a survivor not loyal to it is not attacked
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "railroad", Token: "railroad-2", With: []string{"ann"}})
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "railroad", Token: "railroad-2", Inactive: true})
		st2, act, out := rtActivate(t, c, st, "activation-1") // icon a = Railroad (loyal)
		rtMust(t, out, KindLoyalIcon)
		rtNone(t, out, KindOpposingIcon)
		rtNone(t, out, KindPower)
		rtNone(t, out, KindActivationRow)
		if st2.Power != 0 || len(act.Attacks) != 0 || st2.Enemies[1].Active {
			t.Errorf("power %d attacks %v enemies %+v, want nothing", st2.Power, rtAttacks(act), st2.Enemies)
		}
	})
	t.Run("seed 003 Activation cards: no icon, no faction step", func(t *testing.T) {
		st := rtGame(t, c)
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"ann"}})
		st2, act, out := rtActivate(t, c, st, "activation-3")
		for _, k := range []string{KindLoyalIcon, KindOpposingIcon, KindPower, KindActivationRow} {
			rtNone(t, out, k)
		}
		if st2.Power != 0 || len(act.Attacks) != 0 {
			t.Errorf("power %d attacks %v", st2.Power, rtAttacks(act))
		}
	})
	t.Run("seed 003 Activation cards: opposing icon activates, advances 1, resolves the row, in order", func(t *testing.T) {
		st := rtGame(t, c)
		st, id := rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"ann"}})
		st, down := rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", Inactive: true})
		st, act, out := rtActivate(t, c, st, "activation-2") // icon b = Institute (opposing)
		if got := rtAttacks(act); !slices.Equal(got, []string{id + ">ann"}) {
			t.Errorf("attacks = %v", got)
		}
		if st.Power != 1 {
			t.Errorf("power = %d, want 1", st.Power)
		}
		if !rtEnemy(t, st, down).Active {
			t.Errorf("facedown faction enemy did not turn faceup after the faction acted")
		}
		rtVar(t, rtMust(t, out, KindPower), "reason", "activation")
		row := rtMust(t, out, KindActivationRow)
		rtVar(t, row, "enemies", 2)
		rtVar(t, row, "label", "effect row 2")
		seq := []int{rtAt(out, KindOpposingIcon), rtAt(out, KindEnemyAttack), rtAt(out, KindPower), rtAt(out, KindActivationRow)}
		if !slices.IsSorted(seq) || seq[0] < 0 {
			t.Errorf("order icon/attack/power/row = %v in %v", seq, rtKinds(out))
		}
		if rtAt(out, KindActivateType) > seq[0] {
			t.Errorf("enemy types must activate before the faction step: %v", rtKinds(out))
		}
	})
	// seed 003: "resolve the Activation effect on the scenario sheet that
	// matches that number" — rows are content data (commonwealth, Institute
	// side: 0-1, 2-3, 4+).
	sc, _ := c.Scenario("commonwealth")
	side, _ := sc.Side("institute")
	for n := 0; n <= 5; n++ {
		var want string
		for _, r := range side.Activation {
			if r.Matches(n) {
				want = r.Label
				break
			}
		}
		t.Run("seed 003 Activation cards: effect row for "+string(rune('0'+n))+" opposing enemies", func(t *testing.T) {
			st := rtGame(t, c)
			for i := 0; i < n; i++ {
				st, _ = rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", Inactive: i%2 == 1})
			}
			st, _ = rtAdd(t, c, st, EnemySpec{Type: "railroad", Token: "railroad-2"}) // other faction: not counted
			_, _, out := rtActivate(t, c, st, "activation-2")
			row := rtMust(t, out, KindActivationRow)
			rtVar(t, row, "enemies", n)
			rtVar(t, row, "label", want)
		})
	}
	t.Run("seed 003 Ending the game: power reaching the last space loses, nothing after", func(t *testing.T) {
		st := rtGame(t, c)
		st.Power = st.LastSpace() - 1
		st, _ = rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2"})
		st, _, out := rtActivate(t, c, st, "activation-2")
		if st.Result != ResultLost || st.Power != st.LastSpace() {
			t.Errorf("result %q power %d", st.Result, st.Power)
		}
		rtMust(t, out, KindGameLost)
		rtNone(t, out, KindActivationRow)
		if out[len(out)-1].Kind != KindGameLost {
			t.Errorf("outcomes after the loss: %v", rtKinds(out))
		}
		if _, _, err := Activate(c, st, "activation-3"); err == nil {
			t.Errorf("activation after the game ended: want an error")
		}
	})
}

// ---------------------------------------------------------------------------
// Power track and the end of the game (seed 003 "Factions", "Ending the
// game", "Goals")

func TestSeed003PowerTrack(t *testing.T) {
	c := rtContent(t)
	t.Run("seed 003 Factions: quest reward advances the opposing faction", func(t *testing.T) {
		st := rtGame(t, c)
		st, out, err := Power(c, st, "institute", 2, "")
		if err != nil || st.Power != 2 {
			t.Fatalf("power %d err %v, want 2", st.Power, err)
		}
		rtVar(t, rtMust(t, out, KindPower), "reason", "reward")
		st, _, _ = Power(c, st, "", 1, "") // "" = the opposing faction
		if st.Power != 3 {
			t.Errorf("power = %d, want 3", st.Power)
		}
	})
	t.Run("seed 003 Factions: reward for the loyal faction resolves the + effect instead", func(t *testing.T) {
		st := rtGame(t, c)
		sc, _ := c.Scenario("commonwealth")
		plus, _ := sc.Side("railroad")
		st2, out, err := Power(c, st, "railroad", 2, "")
		if err != nil {
			t.Fatal(err)
		}
		if st2.Power != 0 {
			t.Errorf("loyal reward moved the power token to %d", st2.Power)
		}
		// Default recipient: the first player.
		if xp := st2.Survivors[st.FirstPlayer].XP; xp != plus.Plus.XP*2 {
			t.Errorf("first player XP = %d, want %d", xp, plus.Plus.XP*2)
		}
		rtMust(t, out, KindLoyalPlus)
		rtNone(t, out, KindPower)
		st3, _, _ := Power(c, st, "railroad", 1, "ben")
		if st3.Survivors[1].XP != plus.Plus.XP || st3.Survivors[0].XP != 0 {
			t.Errorf("named recipient: XP %d/%d", st3.Survivors[0].XP, st3.Survivors[1].XP)
		}
	})
	t.Run("seed 003 Factions: + effect caps and C.A.M.P. tokens are data", func(t *testing.T) {
		c := rtContent(t)
		for i := range c.Scenarios {
			if c.Scenarios[i].ID == "commonwealth" {
				c.Scenarios[i].Factions[0].Plus = models.LoyalPlus{Caps: 3, Camps: 1, Label: "test"}
			}
		}
		st := rtGame(t, c)
		st, _, _ = Power(c, st, "railroad", 2, "cat")
		if st.Survivors[2].Caps != 6 || st.Camps != 3 || st.Power != 0 {
			t.Errorf("caps %d camps %d power %d, want 6, 1+2, 0", st.Survivors[2].Caps, st.Camps, st.Power)
		}
	})
	t.Run("seed 003 Factions: a faction not on the sheet is refused", func(t *testing.T) {
		if _, _, err := Power(c, rtGame(t, c), "enclave", 1, ""); err == nil {
			t.Errorf("want an error")
		}
	})
	t.Run("seed 003 Goals: retreat, not below the first space", func(t *testing.T) {
		st := rtGame(t, c)
		st.Power = 3
		st, out := Retreat(c, st, 2, "test")
		if st.Power != 1 {
			t.Errorf("power = %d, want 1", st.Power)
		}
		rtMust(t, out, KindPowerRetreat)
		st, _ = Retreat(c, st, 2, "test")
		if st.Power != 0 {
			t.Errorf("power = %d, want 0 (first space)", st.Power)
		}
	})
	t.Run("seed 003 Ending the game: reaching the last space loses", func(t *testing.T) {
		st := rtGame(t, c)
		st, out, _ := Power(c, st, "institute", 10, "")
		if st.Power != st.LastSpace() || st.Result != ResultLost {
			t.Errorf("power %d result %q, want %d lost", st.Power, st.Result, st.LastSpace())
		}
		rtMust(t, out, KindGameLost)
		if st2, out := Retreat(c, st, 2, "late"); st2.Power != st.Power || len(out) != 0 {
			t.Errorf("retreat after the game ended")
		}
	})
	t.Run("seed 003 Ending the game: one short of the last space is not lost", func(t *testing.T) {
		st := rtGame(t, c)
		st, _, _ = Power(c, st, "institute", st.LastSpace()-1, "")
		if st.Over() {
			t.Errorf("lost at space %d of %d", st.Power+1, st.PowerTrack)
		}
	})
}

// seed 003 "Goals": goals count one by one (two identical goals count
// separately); a goal completed after the required number is reached retreats
// the power token 2; the victory switch decides whether reaching the
// required goals wins at once ("goals") or needs the group's confirmation
// ("confirm").
func TestSeed003Goals(t *testing.T) {
	c := rtContent(t)
	if c.Rules.SurplusGoalRetreat != 2 {
		t.Fatalf("content surplus_goal_retreat = %d, seed 003 says 2", c.Rules.SurplusGoalRetreat)
	}
	t.Run("seed 003 Goals victory=confirm: reaching the goals does not win by itself", func(t *testing.T) {
		st := rtGame(t, c)
		st.Rules.Victory = models.VictoryConfirm
		for i := 1; i < st.GoalsRequired; i++ {
			st, _ = CompleteGoal(c, st)
			if _, _, err := Win(c, st); err == nil {
				t.Errorf("Win with %d of %d goals: want an error", st.Goals, st.GoalsRequired)
			}
		}
		st, out := CompleteGoal(c, st)
		rtMust(t, out, KindGoalsReached)
		rtNone(t, out, KindGameWon)
		if st.Over() {
			t.Fatalf("game over at %d goals under victory=confirm", st.Goals)
		}
		st, out, err := Win(c, st)
		if err != nil || st.Result != ResultWon {
			t.Errorf("Win: %v result %q", err, st.Result)
		}
		rtMust(t, out, KindGameWon)
	})
	t.Run("seed 003 Goals victory=goals: the last required goal wins at once", func(t *testing.T) {
		st := rtGame(t, c)
		st.Rules.Victory = models.VictoryGoals
		for i := 1; i < st.GoalsRequired; i++ {
			st, _ = CompleteGoal(c, st)
			if st.Over() {
				t.Fatalf("won after %d goals", st.Goals)
			}
		}
		st, out := CompleteGoal(c, st)
		if st.Result != ResultWon {
			t.Errorf("result %q, want won", st.Result)
		}
		rtMust(t, out, KindGameWon)
	})
	t.Run("seed 003 Goals: two identical goals count separately", func(t *testing.T) {
		st := rtGame(t, c)
		st, _ = CompleteGoal(c, st)
		st, _ = CompleteGoal(c, st)
		if st.Goals != 2 {
			t.Errorf("goals = %d, want 2", st.Goals)
		}
	})
	t.Run("seed 003 Goals: goal after the required number retreats the power token 2", func(t *testing.T) {
		st := rtGame(t, c)
		st.Rules.Victory = models.VictoryConfirm
		st.Goals = st.GoalsRequired
		st.Power = 4
		st, out := CompleteGoal(c, st)
		if st.Power != 2 || st.Goals != st.GoalsRequired+1 {
			t.Errorf("power %d goals %d, want 2 and %d", st.Power, st.Goals, st.GoalsRequired+1)
		}
		rtMust(t, out, KindGoalSurplus)
		rtMust(t, out, KindPowerRetreat)
		rtNone(t, out, KindGoalsReached)
		st, _ = CompleteGoal(c, st)
		if st.Power != 0 {
			t.Errorf("power = %d, want 0 (not below the first space)", st.Power)
		}
	})
	t.Run("seed 003 Goals: a goal that reaches the required number does not retreat", func(t *testing.T) {
		st := rtGame(t, c)
		st.Goals = st.GoalsRequired - 1
		st.Power = 4
		st, out := CompleteGoal(c, st)
		if st.Power != 4 {
			t.Errorf("power = %d, want 4", st.Power)
		}
		rtNone(t, out, KindGoalSurplus)
	})
}

// ---------------------------------------------------------------------------
// Setup, activation deck and first player (seed 003 "Setup", "Activation
// cards" 3)

// seed 003 "Setup": loyal faction chosen, power token of the non-loyal
// faction on the top space, activation deck of 8 cards, one C.A.M.P. token
// at Crossroads Camp; track length and required goals per sheet (data).
func TestSeed003Setup(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	sc, _ := c.Scenario("commonwealth")
	t.Run("seed 003 Setup: loyal and opposing factions", func(t *testing.T) {
		if st.Loyal != "railroad" || st.Opposing != "institute" {
			t.Errorf("loyal %q opposing %q", st.Loyal, st.Opposing)
		}
		st2, _, err := New(c, Setup{Scenario: "commonwealth", Loyal: "institute", Survivors: []models.Survivor{{ID: "x"}}})
		if err != nil || st2.Opposing != "railroad" {
			t.Errorf("loyal institute: opposing %q err %v", st2.Opposing, err)
		}
		if _, _, err := New(c, Setup{Scenario: "commonwealth", Loyal: "enclave", Survivors: []models.Survivor{{ID: "x"}}}); err == nil {
			t.Errorf("a faction not on the sheet: want an error")
		}
	})
	t.Run("seed 003 Setup: power token on the topmost space", func(t *testing.T) {
		if st.Power != 0 || st.Over() {
			t.Errorf("power %d result %q", st.Power, st.Result)
		}
	})
	t.Run("seed 003 Setup: track and goals from the scenario sheet", func(t *testing.T) {
		if st.PowerTrack != sc.PowerTrack || st.GoalsRequired != sc.GoalsRequired || st.LastSpace() != sc.PowerTrack-1 {
			t.Errorf("track %d goals %d", st.PowerTrack, st.GoalsRequired)
		}
	})
	t.Run("seed 003 Setup: activation deck of 8 cards, empty discard", func(t *testing.T) {
		if len(st.Deck) != 8 || len(st.Discard) != 0 {
			t.Errorf("deck %d discard %d", len(st.Deck), len(st.Discard))
		}
	})
	t.Run("seed 003 Setup: one C.A.M.P. token at Crossroads Camp", func(t *testing.T) {
		if st.Camps != 1 {
			t.Errorf("camps = %d", st.Camps)
		}
	})
	t.Run("seed 000 Trefferpunkte: survivors start with full HP and no rads", func(t *testing.T) {
		for _, s := range st.Survivors {
			if s.HP() != s.MaxHP || s.Rads != 0 {
				t.Errorf("%s HP %d rads %d", s.ID, s.HP(), s.Rads)
			}
		}
	})
}

// seed 003 "Activation cards": the first player reveals the top card; the
// deck and its discard pile travel together. An empty deck follows the
// deck_empty switch (rules-fallout-bg.md assumption: reshuffle).
func TestSeed003ActivationDeck(t *testing.T) {
	c := rtContent(t)
	t.Run("seed 003 Activation cards: a drawn card moves from the deck to the discard", func(t *testing.T) {
		st := rtGame(t, c)
		st2, out, err := Draw(c, st, "activation-3")
		if err != nil {
			t.Fatal(err)
		}
		if len(st2.Deck) != 7 || slices.Contains(st2.Deck, "activation-3") || !slices.Equal(st2.Discard, []string{"activation-3"}) {
			t.Errorf("deck %v discard %v", st2.Deck, st2.Discard)
		}
		if len(out) != 0 {
			t.Errorf("outcomes %v, want none", rtKinds(out))
		}
		if len(st.Deck) != 8 {
			t.Errorf("Draw changed its input state")
		}
	})
	t.Run("rules doc Round structure deck_empty=reshuffle: the discard becomes the deck", func(t *testing.T) {
		st := rtGame(t, c)
		st.Rules.DeckEmpty = models.DeckReshuffle
		st.Discard, st.Deck = st.Deck, nil
		st, out, err := Draw(c, st, "activation-5")
		if err != nil {
			t.Fatal(err)
		}
		rtVar(t, rtMust(t, out, KindDeckReshuffled), "n", 8)
		if len(st.Deck) != 7 || slices.Contains(st.Deck, "activation-5") || !slices.Equal(st.Discard, []string{"activation-5"}) {
			t.Errorf("deck %v discard %v", st.Deck, st.Discard)
		}
	})
	t.Run("rules doc Round structure deck_empty=stop: drawing from an empty deck fails", func(t *testing.T) {
		st := rtGame(t, c)
		st.Rules.DeckEmpty = models.DeckStop
		st.Discard, st.Deck = st.Deck, nil
		st2, out, err := Draw(c, st, "activation-5")
		if err == nil {
			t.Fatalf("want an error")
		}
		rtMust(t, out, KindDeckEmpty)
		if len(st2.Deck) != 0 || len(st2.Discard) != 8 {
			t.Errorf("deck %d discard %d, want unchanged 0/8", len(st2.Deck), len(st2.Discard))
		}
		if _, _, err := Activate(c, st, "activation-5"); err == nil {
			t.Errorf("Activate on an empty deck under stop: want an error")
		}
	})
	t.Run("seed 003 Activation cards: a card already in the discard is redrawn with a warning", func(t *testing.T) {
		st := rtGame(t, c)
		st, _, _ = Draw(c, st, "activation-3")
		st, out, err := Draw(c, st, "activation-3")
		if err != nil {
			t.Fatal(err)
		}
		rtVar(t, rtMust(t, out, KindDeckRedrawn), "card", "activation-3")
		if len(st.Deck) != 7 || !slices.Equal(st.Discard, []string{"activation-3"}) {
			t.Errorf("deck %d discard %v", len(st.Deck), st.Discard)
		}
	})
	t.Run("seed 003 Activation cards: an unknown card is refused", func(t *testing.T) {
		if _, _, err := Draw(c, rtGame(t, c), "activation-9"); err == nil {
			t.Errorf("want an error")
		}
	})
	t.Run("seed 003 Activation cards: Activate draws the card", func(t *testing.T) {
		st, _, out := rtActivate(t, c, rtGame(t, c), "activation-8")
		if !slices.Equal(st.Discard, []string{"activation-8"}) || len(st.Deck) != 7 {
			t.Errorf("deck %d discard %v", len(st.Deck), st.Discard)
		}
		rtVar(t, rtMust(t, out, KindActivationCard), "card", "activation-8")
	})
}

// seed 003 "Activation cards" 3 (seed 000 "Startspieler bestimmen"): the first
// player stays or passes the role, with the activation deck and its discard.
func TestSeed003ChooseFirstPlayer(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, _, _ = Draw(c, st, "activation-1")
	t.Run("seed 003 Choose first player: a new first player takes the deck and discard", func(t *testing.T) {
		st2, out, err := SetFirstPlayer(c, st, "cat")
		if err != nil {
			t.Fatal(err)
		}
		if st2.FirstPlayer != 2 || !slices.Equal(st2.Deck, st.Deck) || !slices.Equal(st2.Discard, st.Discard) {
			t.Errorf("first %d deck %v discard %v", st2.FirstPlayer, st2.Deck, st2.Discard)
		}
		rtVar(t, rtMust(t, out, KindFirstPlayer), "survivor", "Cat")
		_, rout, err := EndRound(c, st2)
		if err != nil {
			t.Fatal(err)
		}
		rtVar(t, rtMust(t, rout, KindRound), "first", "Cat")
	})
	t.Run("seed 003 Choose first player: by name, and staying first player", func(t *testing.T) {
		st2, _, err := SetFirstPlayer(c, st, "Ben")
		if err != nil || st2.FirstPlayer != 1 {
			t.Errorf("first %d err %v", st2.FirstPlayer, err)
		}
		st3, _, err := SetFirstPlayer(c, st, "ann")
		if err != nil || st3.FirstPlayer != 0 {
			t.Errorf("first %d err %v", st3.FirstPlayer, err)
		}
	})
	t.Run("seed 003 Choose first player: unknown survivor refused", func(t *testing.T) {
		if _, _, err := SetFirstPlayer(c, st, "zed"); err == nil {
			t.Errorf("want an error")
		}
	})
}

// ---------------------------------------------------------------------------
// Known bugs: these expect what the seeds say and fail until the engine is
// fixed (see the report).

// seed 003 "Assisting": the assist die is rolled by an assisting survivor, who
// "suffers an amount of damage equal to the enemy's level for each [hurt]
// icon". Fight accepts an AssistFace without an Assistant: the die's hits
// count but its hurt icons harm nobody. It should refuse (or ignore the die).
func TestSeed003Assisting_AssistDieNeedsAssistant(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st.Rules.AssistHits = models.AssistHitsSurvivor
	st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
	_, res, _, err := Fight(c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "arms", "torso"),
		AssistFace: rtAssist(t, c, "2h-hurt")})
	if err == nil && res.SurvivorHits != 1 {
		t.Errorf("seed 003 Assisting: assist die without an assistant counted (%d survivor hits, killed %v, nobody hurt); want an error or the die ignored",
			res.SurvivorHits, res.Killed)
	}
}

// seed 000 "Trefferpunkte & Strahlung": "Ist deine Strahlung nun auf
// Maximalwert scheidest Du aus dem Spiel aus" — a survivor out of the game
// takes no part in fights. Fight lets an Out survivor fight (and gain XP and
// caps) or assist (and gain XP).
func TestSeed000TrefferpunkteStrahlung_OutSurvivorCannotFightOrAssist(t *testing.T) {
	c := rtContent(t)
	base := rtGame(t, c)
	base.Survivors[1].Out, base.Survivors[1].Rads = true, 10 // Ben is out
	base, id := rtAdd(t, c, base, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
	t.Run("seed 000 Trefferpunkte: out survivor fights", func(t *testing.T) {
		if _, _, _, err := Fight(c, base, FightInput{Survivor: "ben", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "arms")}); err == nil {
			t.Errorf("a survivor out of the game fought: want an error")
		}
	})
	t.Run("seed 000 Trefferpunkte: out survivor assists", func(t *testing.T) {
		if _, _, _, err := Fight(c, base, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "arms"),
			Assistant: "ben", AssistFace: rtAssist(t, c, "hit")}); err == nil {
			t.Errorf("a survivor out of the game assisted: want an error")
		}
	})
}

// seed 000 "Proben ablegen": "Fuer jeden uebereinstimmenden S.P.E.C.I.A.L.-
// Marker in deinem Besitz" — one reroll per token owned. TestRerolls counts
// per letter of the test string, so a letter given twice (the tracker accepts
// "SS") counts one owned token twice.
func TestSeed000ProbenAblegen_EachOwnedTokenOnce(t *testing.T) {
	s := SurvivorState{Survivor: models.Survivor{ID: "s", Special: "S"}}
	if got := TestRerolls(s, "SS"); got != 1 {
		t.Errorf("seed 000 Proben ablegen: TestRerolls(owns S, test SS) = %d, want 1 (one S token owned)", got)
	}
}

// seed 003 "ENDING THE GAME": "they lose together when the opposing
// faction's power token reaches the last space on the power track". A
// survivor killed in a fight with the token one space short loses the game
// there: the rest of the fight (the enemy's retreat, XP for a kill) is not
// resolved.
func TestSeed003EndingTheGame_LostInAFightEndsIt(t *testing.T) {
	c := rtContent(t)
	for _, faces := range [][]string{{"head", "torso", "1h"}, {"arms", "legs", "2h"}} {
		st := rtGame(t, c)
		st.Power = st.LastSpace() - 1
		st.Survivors[st.Survivor("ann")].Damage = 9
		// raider-2: level 2, vulnerable arms+legs, retreat.
		st, id := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-2", With: []string{"ann"}})
		st, _, out := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, faces...)})
		if st.Result != ResultLost {
			t.Fatalf("%v: result %q, want lost", faces, st.Result)
		}
		if out[len(out)-1].Kind != KindGameLost {
			t.Errorf("%v: the fight goes on after the game is lost: %v", faces, rtKinds(out))
		}
		rtNone(t, out, KindFightRetreat)
		rtNone(t, out, KindFightSurvived)
		rtNone(t, out, KindFightKilled)
		if ann := rtSurv(t, st, "ann"); ann.XP != 0 {
			t.Errorf("%v: Ann gained %d XP in a lost game", faces, ann.XP)
		}
		if !rtEnemy(t, st, id).Active {
			t.Errorf("%v: the raider turned facedown after the game ended", faces)
		}
	}
}

package warfare

// One test (or table) per rule of seed 002 that the package implements.
// Every test cites its source by chapter, section and line:
//   seed 002 = ../shared/seeds/002_f5c6adf2203d09de.txt (Fallout: Stato di Guerra)

import (
	"testing"
)

// seed 002 ch. 1 "Riguardo ai Dadi" (lines 124–138): success on a roll at
// most the stat; the face 0 reads 10; a 10 always fails whatever the
// modifiers.
func TestSeed002Dadi_RollUnder(t *testing.T) {
	rows := []struct {
		name      string
		stat, mod int
		face      int
		success   bool
		total     int
	}{
		{"roll equal to the stat succeeds (line 128–130)", 6, 0, 6, true, 6},
		{"roll one above the stat fails (line 128–130)", 6, 0, 7, false, 7},
		{"modifier added to the roll makes it fail", 6, 2, 5, false, 7},
		{"negative modifier makes it succeed", 6, -1, 7, true, 6},
		{"face 0 reads 10 and fails (line 128, 134)", 10, 0, 0, false, 10},
		{"a 10 fails even with -5 (line 134–138)", 10, -5, 10, false, 5},
		{"a 1 succeeds against stat 1", 1, 0, 1, true, 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := Test(r.stat, r.mod, r.face)
			if err != nil {
				t.Fatal(err)
			}
			if got.Success != r.success || got.Total != r.total {
				t.Errorf("Test(%d, %d, %d) = %+v, want success %v total %d", r.stat, r.mod, r.face, got, r.success, r.total)
			}
		})
	}
	// seed 002 line 128: faces are 0–9 (or 1–10); 11 is no d10 face.
	if _, err := Test(5, 0, 11); err == nil {
		t.Error("Test accepted face 11")
	}
}

// seed 002 ch. 4 "Tirare per l'Iniziativa" (lines 626–648): 1d10 each, +2
// for last turn's attacker, a tie goes to the hero with more Luck, else
// reroll.
func TestSeed002Iniziativa(t *testing.T) {
	rows := []struct {
		name   string
		a, b   InitiativeRoll
		winner Side
		byLuck bool
		reroll bool
	}{
		{"higher roll attacks (line 628–634)", InitiativeRoll{Face: 7}, InitiativeRoll{Face: 4}, SideA, false, false},
		{"face 0 reads 10 and beats 9", InitiativeRoll{Face: 9}, InitiativeRoll{Face: 0}, SideB, false, false},
		{"last attacker +2 wins 6+2 over 7 (line 630–632)", InitiativeRoll{Face: 6, LastAttacker: true}, InitiativeRoll{Face: 7}, SideA, false, false},
		{"tie after the bonus goes to more Luck (line 638–642)", InitiativeRoll{Face: 5, LastAttacker: true, HasHero: true, HeroLuck: 4},
			InitiativeRoll{Face: 7, HasHero: true, HeroLuck: 6}, SideB, true, false},
		{"tie, equal Luck: reroll (line 644)", InitiativeRoll{Face: 3, HasHero: true, HeroLuck: 5}, InitiativeRoll{Face: 3, HasHero: true, HeroLuck: 5}, SideNone, false, true},
		{"tie, no heroes: reroll (line 642–644)", InitiativeRoll{Face: 8}, InitiativeRoll{Face: 8}, SideNone, false, true},
		{"tie, only one side has a hero: that side", InitiativeRoll{Face: 2}, InitiativeRoll{Face: 2, HasHero: true, HeroLuck: 1}, SideB, true, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := Initiative(r.a, r.b)
			if err != nil {
				t.Fatal(err)
			}
			if got.Winner != r.winner || got.ByLuck != r.byLuck || got.Reroll != r.reroll {
				t.Errorf("Initiative(%+v, %+v) = %+v, want winner %q byLuck %v reroll %v", r.a, r.b, got, r.winner, r.byLuck, r.reroll)
			}
		})
	}
	if _, err := Initiative(InitiativeRoll{Face: 1, LastAttacker: true}, InitiativeRoll{Face: 1, LastAttacker: true}); err == nil {
		t.Error("Initiative accepted two last attackers")
	}
}

// seed 002 ch. 4 "Attacchi in Mischia" (lines 994–1028), "Carica" (897–907),
// "Movimento e Fuoco" (881–895): Strength test with the target's AC added,
// −1 from behind, +4 on a charge, a successful 1 or 2 knocks down, 10 fails.
func TestSeed002Mischia(t *testing.T) {
	rows := []struct {
		name      string
		m         Melee
		face      int
		hit, down bool
	}{
		{"AC added to the roll: 4+2 = 6 <= 6 hits (line 996–1002)", Melee{Strength: 6, TargetAC: 2}, 4, true, false},
		{"AC added to the roll: 5+2 = 7 > 6 misses", Melee{Strength: 6, TargetAC: 2}, 5, false, false},
		{"from behind -1: 5+2-1 = 6 hits (line 1014–1018)", Melee{Strength: 6, TargetAC: 2, FromBehind: true}, 5, true, false},
		{"charge +4: 3+4 = 7 > 6 misses (line 905–907)", Melee{Strength: 6, Charge: true}, 3, false, false},
		{"successful 2 knocks down (line 1020–1028)", Melee{Strength: 6, TargetAC: 1}, 2, true, true},
		{"successful 1 knocks down", Melee{Strength: 6}, 1, true, true},
		{"a 2 that fails does not knock down", Melee{Strength: 6, TargetAC: 5}, 2, false, false},
		{"successful 3 does not knock down", Melee{Strength: 6}, 3, true, false},
		{"a 10 fails even from behind vs AC 0 with Strength 10 (line 1020)", Melee{Strength: 10, FromBehind: true}, 0, false, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := MeleeAttack(r.m, r.face)
			if err != nil {
				t.Fatal(err)
			}
			if got.Success != r.hit || got.KnockDown != r.down {
				t.Errorf("MeleeAttack(%+v, %d) = %+v, want hit %v knock-down %v", r.m, r.face, got, r.hit, r.down)
			}
		})
	}
}

// seed 002 ch. 4 "Attacchi a Distanza" (lines 1046–1097), ch. 6 "Livello di
// Luce" (1904–1957): Agility test with AC, +1 cover, +2 dark, +1 flying,
// +4 move and fire; area effect ignores AC; a successful 1 knocks down.
func TestSeed002Distanza(t *testing.T) {
	rows := []struct {
		name      string
		r         Ranged
		mod       int
		face      int
		hit, down bool
	}{
		{"AC only (line 1053–1055)", Ranged{Agility: 7, TargetAC: 2}, 2, 5, true, false},
		{"cover +1 (line 1057–1061)", Ranged{Agility: 7, TargetAC: 2, Cover: true}, 3, 5, false, false},
		{"dark +2 (line 1063)", Ranged{Agility: 7, Light: Darkness}, 2, 6, false, false},
		{"flying +1 (line 1065)", Ranged{Agility: 7, Flying: true}, 1, 7, false, false},
		{"move and fire +4 (line 895)", Ranged{Agility: 7, MoveAndFire: true}, 4, 3, true, false},
		{"area effect ignores AC (line 1093–1097)", Ranged{Agility: 7, TargetAC: 4, AreaEffect: true}, 0, 7, true, false},
		{"a ghoul ignores darkness (line 1943–1951)", Ranged{Agility: 7, Light: Darkness, Shooter: ShooterGhoul}, 0, 7, true, false},
		{"a robot is penalised in darkness", Ranged{Agility: 7, Light: Darkness, Shooter: ShooterRobot}, 2, 6, false, false},
		{"a robot ignores dusk (line 1931–1937)", Ranged{Agility: 7, Light: Dusk, Shooter: ShooterRobot}, 0, 7, true, false},
		{"others are penalised at dawn (line 1919–1925)", Ranged{Agility: 7, Light: Dawn}, 2, 6, false, false},
		{"a successful 1 knocks down (line 1083–1091)", Ranged{Agility: 7, TargetAC: 3}, 3, 1, true, true},
		{"a successful 2 does not knock down at range", Ranged{Agility: 7}, 0, 2, true, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			if got := r.r.Mod(); got != r.mod {
				t.Errorf("Mod() = %d, want %d", got, r.mod)
			}
			got, err := RangedAttack(r.r, r.face)
			if err != nil {
				t.Fatal(err)
			}
			if got.Success != r.hit || got.KnockDown != r.down {
				t.Errorf("RangedAttack(%+v, %d) = %+v, want hit %v knock-down %v", r.r, r.face, got, r.hit, r.down)
			}
		})
	}
	// seed 002 line 1077: a squad's AC is its members' lowest.
	if ac, err := SquadAC([]int{3, 1, 2}); err != nil || ac != 1 {
		t.Errorf("SquadAC(3,1,2) = %d, %v; want 1", ac, err)
	}
	if _, err := SquadAC(nil); err == nil {
		t.Error("SquadAC accepted an empty squad")
	}
}

// seed 002 ch. 4 "Danno e Morte" (lines 1255–1300): the save modifier is
// added to the Endurance roll, a 10 fails; 0 HP is unconscious, below 0 dead.
func TestSeed002DannoEMorte(t *testing.T) {
	saves := []struct {
		name               string
		end, saveMod, face int
		saved              bool
	}{
		{"save modifier +3 added: 4+3 = 7 > 6 fails (line 1273–1279)", 6, 3, 4, false},
		{"save modifier -1 added: 7-1 = 6 saves", 6, -1, 7, true},
		{"a 10 fails the save (line 1281–1283)", 10, -2, 0, false},
	}
	for _, r := range saves {
		t.Run(r.name, func(t *testing.T) {
			got, err := Save(r.end, r.saveMod, r.face)
			if err != nil {
				t.Fatal(err)
			}
			if got.Success != r.saved {
				t.Errorf("Save(%d, %d, %d) = %+v, want saved %v", r.end, r.saveMod, r.face, got, r.saved)
			}
		})
	}
	hps := []struct {
		hp, dmg, left int
		cond          Condition
	}{
		{3, 2, 1, Standing},    // line 1297–1300: 1 HP or more acts normally
		{2, 2, 0, Unconscious}, // line 1283–1285: 0 HP is unconscious
		{1, 2, -1, Dead},       // line 1287–1289: below 0 is dead
	}
	for _, r := range hps {
		left, cond, err := ApplyDamage(r.hp, r.dmg)
		if err != nil || left != r.left || cond != r.cond {
			t.Errorf("ApplyDamage(%d, %d) = %d, %q, %v; want %d, %q", r.hp, r.dmg, left, cond, err, r.left, r.cond)
		}
	}
	if _, _, err := ApplyDamage(3, -1); err == nil {
		t.Error("ApplyDamage accepted negative damage")
	}
}

// seed 002 ch. 4 "Effetti Ambientali" (lines 729–811): the order, poison
// (1 damage on a failed Endurance roll), unconscious (fail dies), radiation
// (fail falls unconscious, immune units do not roll), smoke clears on 5+.
func TestSeed002EffettiAmbientali(t *testing.T) {
	order := EnvironmentOrder()
	want := []Effect{EffectPoison, EffectKnockDown, EffectUnconscious, EffectRadiation, EffectSmoke}
	if len(order) != len(want) {
		t.Fatalf("EnvironmentOrder() = %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Errorf("EnvironmentOrder()[%d] = %q, want %q (line 733–737)", i, order[i], want[i])
		}
	}

	// line 739–743: poison.
	if p, _ := Poison(5, 6); p.Success || p.Damage != 1 {
		t.Errorf("Poison(5, 6) = %+v, want failure with 1 damage", p)
	}
	if p, _ := Poison(5, 5); !p.Success || p.Damage != 0 {
		t.Errorf("Poison(5, 5) = %+v, want success with no damage", p)
	}
	// line 755–767: unconscious.
	if u, _ := UnconsciousCheck(5, 0); !u.Dies {
		t.Errorf("UnconsciousCheck(5, 10) = %+v, want dies", u)
	}
	if u, _ := UnconsciousCheck(5, 3); u.Dies {
		t.Errorf("UnconsciousCheck(5, 3) = %+v, want survives unconscious", u)
	}
	// line 769–797: radiation.
	if r, _ := Radiation(5, 7, false); !r.Unconscious || r.GainsRadiation {
		t.Errorf("Radiation(5, 7) = %+v, want unconscious", r)
	}
	if r, _ := Radiation(5, 4, false); r.Unconscious || !r.GainsRadiation {
		t.Errorf("Radiation(5, 4) = %+v, want gains radiation", r)
	}
	if r, _ := Radiation(1, 0, true); !r.Immune || r.Unconscious || r.GainsRadiation {
		t.Errorf("Radiation(immune) = %+v, want immune and nothing else", r)
	}
	// line 799–805: smoke clears on 5 or more.
	for face, clears := range map[int]bool{4: false, 5: true, 9: true, 0: true, 1: false} {
		got, err := SmokeClears(face)
		if err != nil || got != clears {
			t.Errorf("SmokeClears(%d) = %v, %v; want %v", face, got, err, clears)
		}
	}
}

// seed 002 ch. 6 "Livello di Luce" (lines 1904–1976): the 2d10 table at
// setup; at dawn or dusk a 10 at the end of a turn changes the light.
func TestSeed002LivelloDiLuce(t *testing.T) {
	setups := []struct {
		a, b int
		want Light
	}{
		{1, 1, Dawn}, {2, 3, Dawn}, // 2–5 (line 1969)
		{3, 3, Day}, {7, 9, Day}, // 6–16 (line 1971)
		{8, 9, Dusk}, {9, 9, Dusk}, // 17–18 (line 1973)
		{9, 0, Darkness}, {0, 0, Darkness}, // 19–20 (line 1975); face 0 reads 10
	}
	for _, r := range setups {
		got, err := LightAtSetup(r.a, r.b)
		if err != nil || got != r.want {
			t.Errorf("LightAtSetup(%d, %d) = %q, %v; want %q", r.a, r.b, got, err, r.want)
		}
	}
	changes := []struct {
		from Light
		face int
		want Light
	}{
		{Dawn, 0, Day},       // line 1925–1929
		{Dawn, 9, Dawn},      // only a 10 changes it
		{Dusk, 10, Darkness}, // line 1937–1941
		{Day, 10, Day},       // day does not change
		{Darkness, 10, Darkness},
	}
	for _, r := range changes {
		got, err := LightAfterTurn(r.from, r.face)
		if err != nil || got != r.want {
			t.Errorf("LightAfterTurn(%q, %d) = %q, %v; want %q", r.from, r.face, got, err, r.want)
		}
	}
}

// seed 002 ch. 6 "Far Brillare le Mine" (lines 1876–1898): save modifier
// −2, damage 1d10−5 with a minimum of 1.
func TestSeed002Mine(t *testing.T) {
	for face, want := range map[int]int{1: 1, 5: 1, 6: 1, 7: 2, 9: 4, 0: 5} {
		got, err := MineDamage(face)
		if err != nil || got != want {
			t.Errorf("MineDamage(%d) = %d, %v; want %d", face, got, err, want)
		}
	}
	// Endurance 4: a 6 with the mine's −2 totals 4 and saves; a 7 does not.
	if r, _ := MineSave(4, 6); !r.Success || r.Total != 4 {
		t.Errorf("MineSave(4, 6) = %+v, want saved at total 4", r)
	}
	if r, _ := MineSave(4, 7); r.Success {
		t.Errorf("MineSave(4, 7) = %+v, want not saved", r)
	}
	if r, _ := MineSave(10, 0); r.Success {
		t.Errorf("MineSave(10, 10) = %+v, want a natural 10 to fail", r)
	}
}

// seed 002 ch. 4 "Ritirata" (lines 1361–1383), "Vittoria!" (1385–1406):
// own survivors plus destroyed enemies; retreat by a friendly edge is worth
// half, by a wrong edge counts as killed; a difference of 10 or less draws.
func TestSeed002Vittoria(t *testing.T) {
	rows := []struct {
		name   string
		a, b   []Unit
		sa, sb float64
		winner Side
		draw   bool
	}{
		{"survivors plus destroyed enemies (line 1387–1392)",
			[]Unit{{50, Alive}, {30, Destroyed}}, []Unit{{40, Alive}, {20, Destroyed}}, 70, 70, SideNone, true},
		{"difference of exactly 10 is a draw (line 1402–1406)",
			[]Unit{{60, Alive}}, []Unit{{50, Alive}}, 60, 50, SideNone, true},
		{"difference of 11 wins",
			[]Unit{{61, Alive}}, []Unit{{50, Alive}}, 61, 50, SideA, false},
		{"retreat is worth half (line 1373–1377)",
			[]Unit{{40, Retreated}, {20, Alive}}, []Unit{{10, Alive}}, 40, 10, SideA, false},
		{"retreat by a wrong edge counts as destroyed (line 1379–1383)",
			[]Unit{{30, RetreatedWrongEdge}}, []Unit{{25, Alive}}, 0, 55, SideB, false},
		{"half points are kept: 10.5 against 0 wins by more than 10",
			[]Unit{{21, Retreated}}, nil, 10.5, 0, SideA, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := Victory(r.a, r.b)
			if err != nil {
				t.Fatal(err)
			}
			if got.ScoreA != r.sa || got.ScoreB != r.sb || got.Winner != r.winner || got.Draw != r.draw {
				t.Errorf("Victory = %+v, want %v–%v winner %q draw %v", got, r.sa, r.sb, r.winner, r.draw)
			}
		})
	}
	if _, err := Victory([]Unit{{10, "fled"}}, nil); err == nil {
		t.Error("Victory accepted an unknown fate")
	}
}

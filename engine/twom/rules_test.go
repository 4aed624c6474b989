package twom

// One test (or table) per rule of the Journal that the package implements.
// Every test cites its source by section and line:
//   seed 004 = ../shared/seeds/004_7ca834d24cb6e115.txt (the Journal, German)

import (
	"slices"
	"testing"
)

func threeChars() []Character {
	return []Character{
		{Name: "anna", Empathy: 4, Strength: 2, Inventory: 5},
		{Name: "bruno", Empathy: 7, Strength: 3, Inventory: 4},
		{Name: "cveta", Empathy: 2, Strength: 1, Inventory: 6},
	}
}

func newGame(t *testing.T, players, leader int) Game {
	t.Helper()
	g, _, err := NewGame(players, leader, threeChars())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// advanceTo advances until the current step is id.
func advanceTo(t *testing.T, g Game, id string) (Game, []Outcome) {
	t.Helper()
	var all []Outcome
	for i := 0; i < 2*len(Journal()); i++ {
		if g.Current().ID == id {
			return g, all
		}
		var out []Outcome
		var err error
		g, out, err = Advance(g)
		if err != nil {
			t.Fatalf("advance towards %s: %v", id, err)
		}
		all = append(all, out...)
	}
	t.Fatalf("step %s never reached", id)
	return g, nil
}

func kinds(out []Outcome) []string {
	var k []string
	for _, o := range out {
		k = append(k, o.Kind)
	}
	return k
}

func char(t *testing.T, g Game, name string) Character {
	t.Helper()
	i := g.index(name)
	if i < 0 {
		t.Fatalf("no character %s", name)
	}
	return g.Characters[i]
}

// seed 004 "Spielaufbau" (lines 16–32): a random leader (given), every
// starting character at hunger 2 on guard; "Das 4-Charaktere-Limit"
// (lines 107–109).
func TestSeed004Spielaufbau(t *testing.T) {
	g, out, err := NewGame(2, 1, threeChars())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range g.Characters {
		if c.Level(Hunger) != StartHunger || c.Task != Guard {
			t.Errorf("%s starts at hunger %d task %q, want 2 and guard (lines 30–32)", c.Name, c.Level(Hunger), c.Task)
		}
	}
	if g.Leader != 1 || g.Day != 1 || g.Current().ID != "morning.event" {
		t.Errorf("start: leader %d day %d step %s, want 1, 1, morning.event", g.Leader, g.Day, g.Current().ID)
	}
	if last := out[len(out)-1]; last.Kind != KindStep || last.Vars["step"] != "morning.event" {
		t.Errorf("last setup outcome = %+v, want the morning event step", last)
	}
	g, err = Join(g, Character{Name: "dora"})
	if err != nil {
		t.Fatalf("a fourth character cannot join: %v", err)
	}
	if _, err := Join(g, Character{Name: "emil"}); err == nil {
		t.Error("a fifth character joined (line 109)")
	}
	if _, _, err := NewGame(2, 2, threeChars()); err == nil {
		t.Error("NewGame accepted a leader seat outside the players")
	}
}

// seed 004 "Tagebuch" (line 5: 7 phases in order) and "Gemeinsames
// Spielerlebnis" (line 103): the Journal passes left at each "NÄCHSTER
// SPIELER" (lines 134, 242, 274, 411, 436, 442); "Spielstand sichern" ends
// the round (lines 467–469).
func TestSeed004Tagebuch_PhasesAndLeader(t *testing.T) {
	g := newGame(t, 3, 0)
	var phases []Phase
	passes := 0
	for i := 0; i < len(Journal()); i++ {
		if len(phases) == 0 || phases[len(phases)-1] != g.Phase() {
			phases = append(phases, g.Phase())
		}
		next, out, err := Advance(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			if o.Kind == KindJournal {
				passes++
			}
		}
		g = next
	}
	want := []Phase{Morning, Day, Dusk, Evening, Scavenging, NightRaid, Dawn}
	if !slices.Equal(phases, want) {
		t.Errorf("phases = %v, want %v", phases, want)
	}
	if passes != 6 {
		t.Errorf("Journal passed %d times in a round, want 6 (the six marks)", passes)
	}
	if g.Day != 2 || g.Current().ID != "morning.event" || g.Leader != 6%3 {
		t.Errorf("after a round: day %d step %s leader %d, want 2, morning.event, 0", g.Day, g.Current().ID, g.Leader)
	}
	// The save reminder is the last step, citing script 10.
	last := Journal()[len(Journal())-1]
	if last.ID != StepSave || last.Script != 10 || last.Phase != Dawn {
		t.Errorf("last step = %+v, want the Dawn save step with script 10", last)
	}
	// Passing from the last seat goes back to seat 0.
	g.Leader = 2
	g, o := PassJournal(g)
	if g.Leader != 0 || o.Vars["leader"] != 0 {
		t.Errorf("PassJournal from seat 2 of 3 = %d, want 0", g.Leader)
	}
}

// seed 004 "Drei Aktionen" (lines 156–172): 3 actions, black dots strike
// the third, then the second, then all.
func TestSeed004DreiAktionen(t *testing.T) {
	for dots, want := range map[int][]bool{
		0: {true, true, true},
		1: {true, true, false},
		2: {true, false, false},
		3: {false, false, false},
	} {
		for step := 1; step <= 3; step++ {
			if got := ActionAllowed(step, dots); got != want[step-1] {
				t.Errorf("ActionAllowed(step %d, %d dots) = %v, want %v", step, dots, got, want[step-1])
			}
		}
	}
}

// seed 004 "Sonnenuntergang — Durst" (lines 214–222) and "Hunger" (lines
// 224–240).
func TestSeed004Sonnenuntergang(t *testing.T) {
	if _, _, err := Thirst(newGame(t, 1, 0), "anna", false, 3); err == nil {
		t.Error("thirst rolled in the morning (line 212: at Dusk)")
	}
	g, _ := advanceTo(t, newGame(t, 1, 0), "dusk.thirst")
	rows := []struct {
		name           string
		drank          bool
		roll           int
		hunger, misery int
	}{
		{"drank: nothing changes (line 216)", true, 1, 2, 0},
		{"no water, 1: hunger +1 (line 220)", false, 1, 3, 0},
		{"no water, 5: hunger +1 (line 220)", false, 5, 3, 0},
		{"no water, 6: misery +1 (line 222)", false, 6, 2, 1},
		{"no water, 0 reads 10: misery +1 (line 222)", false, 0, 2, 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, _, err := Thirst(g, "anna", r.drank, r.roll)
			if err != nil {
				t.Fatal(err)
			}
			c := char(t, got, "anna")
			if c.Level(Hunger) != r.hunger || c.Level(Misery) != r.misery {
				t.Errorf("hunger %d misery %d, want %d and %d", c.Level(Hunger), c.Level(Misery), r.hunger, r.misery)
			}
		})
	}
	if char(t, g, "anna").Level(Hunger) != 2 {
		t.Error("Thirst changed the game it was given")
	}
	meals := []struct {
		ate    bool
		change int
		want   int
	}{
		{true, -2, 0}, {true, -1, 1}, {true, 0, 2}, // lines 230–238
		{false, 0, 3}, // line 240: no food, hunger +1
	}
	for _, m := range meals {
		got, _, err := Eat(g, "anna", m.ate, m.change)
		if err != nil {
			t.Fatal(err)
		}
		if h := char(t, got, "anna").Level(Hunger); h != m.want {
			t.Errorf("Eat(ate %v, %d) hunger = %d, want %d", m.ate, m.change, h, m.want)
		}
	}
	if _, _, err := Eat(g, "anna", true, -3); err == nil {
		t.Error("Eat accepted food that lowers hunger by 3")
	}
}

// seed 004 "Statusmarker" (lines 89–95): levels 1–4, level 4 markers print
// consequences.
func TestSeed004Statusmarker_Level4(t *testing.T) {
	g := newGame(t, 1, 0)
	g, out, err := ChangeStatus(g, "bruno", Wounds, 5)
	if err != nil {
		t.Fatal(err)
	}
	if w := char(t, g, "bruno").Level(Wounds); w != MaxLevel {
		t.Errorf("wounds = %d, want capped at 4", w)
	}
	if !slices.Contains(kinds(out), KindStatusMax) {
		t.Errorf("outcomes %v lack the level-4 prompt (line 95)", kinds(out))
	}
	g, out, _ = ChangeStatus(g, "bruno", Wounds, -1)
	if char(t, g, "bruno").Level(Wounds) != 3 || slices.Contains(kinds(out), KindStatusMax) {
		t.Errorf("lowering from 4: level %d outcomes %v, want 3 and no level-4 prompt", char(t, g, "bruno").Level(Wounds), kinds(out))
	}
}

// seed 004 "Abend" (lines 248–272): bed fatigue 0 (one per bed), floor −2,
// guard +1, scavenge +1 (at most 3); nobody on guard: script 333.
func TestSeed004Abend(t *testing.T) {
	if _, _, err := AssignTasks(newGame(t, 1, 0), map[string]Task{"anna": Bed, "bruno": Guard, "cveta": Guard}, 1); err == nil {
		t.Error("tasks given in the morning (line 246: in the Evening)")
	}
	g, _ := advanceTo(t, newGame(t, 1, 0), "evening.tasks")
	for _, n := range []string{"anna", "bruno", "cveta"} {
		g, _, _ = ChangeStatus(g, n, Fatigue, 3)
	}
	got, out, err := AssignTasks(g, map[string]Task{"anna": Bed, "bruno": Floor, "cveta": Scavenge}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"anna": 0, "bruno": 1, "cveta": 4} {
		if f := char(t, got, name).Level(Fatigue); f != want {
			t.Errorf("%s fatigue = %d, want %d", name, f, want)
		}
	}
	if !slices.ContainsFunc(out, func(o Outcome) bool { return o.Kind == KindScript && o.Vars["script"] == 333 }) {
		t.Errorf("no guard, outcomes %v lack script 333 (line 266)", kinds(out))
	}
	_, out, _ = AssignTasks(g, map[string]Task{"anna": Guard, "bruno": Floor, "cveta": Scavenge}, 0)
	if slices.Contains(kinds(out), KindScript) {
		t.Error("script 333 prompted although someone stands guard")
	}
	if _, _, err := AssignTasks(g, map[string]Task{"anna": Bed, "bruno": Bed, "cveta": Guard}, 1); err == nil {
		t.Error("two characters in one bed (line 254)")
	}
	four, _ := Join(g, Character{Name: "dora"})
	if _, _, err := AssignTasks(four, map[string]Task{"anna": Scavenge, "bruno": Scavenge, "cveta": Scavenge, "dora": Scavenge}, 0); err == nil {
		t.Error("four scavengers (line 271: up to 3)")
	}
	if _, _, err := AssignTasks(g, map[string]Task{"anna": Guard}, 0); err == nil {
		t.Error("a character without a task was accepted")
	}
}

// seed 004 "Lärmanzeiger setzen" (lines 294–310): the marker starts at 1;
// encounter when the black die is at or under the noise, then noise 1.
func TestSeed004Laerm(t *testing.T) {
	g, out := advanceTo(t, newGame(t, 1, 0), StepNoise)
	if g.Noise != 1 || !slices.Contains(kinds(out), KindNoise) {
		t.Fatalf("noise step: noise %d, outcomes %v; want 1 (line 298)", g.Noise, kinds(out))
	}
	g, _, _ = ChangeNoise(g, 3)
	rows := []struct {
		roll      int
		encounter bool
		after     int
	}{
		{4, true, 1},  // at the noise level (line 304)
		{3, true, 1},  // under it
		{5, false, 4}, // over it: noise stays
	}
	for _, r := range rows {
		got, out, err := NoiseTest(g, r.roll)
		if err != nil {
			t.Fatal(err)
		}
		if got.Noise != r.after || slices.Contains(kinds(out), KindEncounter) != r.encounter {
			t.Errorf("NoiseTest(noise 4, %d): noise %d outcomes %v, want noise %d encounter %v", r.roll, got.Noise, kinds(out), r.after, r.encounter)
		}
	}
	low, _, _ := ChangeNoise(g, -10)
	if low.Noise != 1 {
		t.Errorf("noise lowered below the track: %d", low.Noise)
	}
	if _, _, err := NoiseTest(newGame(t, 1, 0), 1); err == nil {
		t.Error("a noise test outside scavenging was accepted")
	}
}

// seed 004 "Schloss knacken" (lines 192–198): 1–3 nothing, 4–10 opens.
func TestSeed004SchlossKnacken(t *testing.T) {
	for roll, opens := range map[int]bool{1: false, 3: false, 4: true, 9: true, 0: true} {
		o, err := Lockpick(roll)
		if err != nil {
			t.Fatal(err)
		}
		if o.Vars["opens"] != opens {
			t.Errorf("Lockpick(%d) opens = %v, want %v", roll, o.Vars["opens"], opens)
		}
	}
	if _, err := Lockpick(11); err == nil {
		t.Error("Lockpick accepted 11")
	}
}

// seed 004 "Sachen wählen" (lines 335–341): the scavengers' inventory slots
// sum to the weight they carry.
func TestSeed004SachenWaehlen(t *testing.T) {
	g, _ := advanceTo(t, newGame(t, 1, 0), "evening.tasks")
	g, _, _ = AssignTasks(g, map[string]Task{"anna": Scavenge, "bruno": Guard, "cveta": Scavenge}, 0)
	if got := CarryLimit(g); got != 11 {
		t.Errorf("CarryLimit = %d, want 5 + 6 = 11", got)
	}
	if ok, _ := CanCarry(g, []int{3, 4, 4, 0}); !ok {
		t.Error("weight 11 does not fit 11 slots")
	}
	if ok, _ := CanCarry(g, []int{6, 6}); ok {
		t.Error("weight 12 fits 11 slots")
	}
}

// seed 004 "Nächtlicher Überfall" (lines 362–399): each symbol and each
// board cancels 1 damage or 1 wound; a shotgun's or hatchet's mark ignores
// the card (lines 389–391).
func TestSeed004NaechtlicherUeberfall(t *testing.T) {
	rows := []struct {
		name   string
		raid   Raid
		def    Defence
		toW    int
		damage int
		wounds int
	}{
		{"symbols cancel damage (line 380)", Raid{3, 2}, Defence{Symbols: 2}, 0, 1, 2},
		{"symbols split between wounds and damage", Raid{3, 2}, Defence{Symbols: 2, Boards: 1}, 2, 2, 0},
		{"boards count like symbols (line 399)", Raid{1, 1}, Defence{Boards: 2}, 1, 0, 0},
		{"more cancellations than harm leave 0", Raid{1, 0}, Defence{Symbols: 3}, 0, 0, 0},
		{"special face ignores the card (line 389)", Raid{5, 3}, Defence{CardIgnored: true}, 0, 0, 0},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := ResolveRaid(r.raid, r.def, r.toW)
			if err != nil {
				t.Fatal(err)
			}
			if got.Damage != r.damage || got.Wounds != r.wounds {
				t.Errorf("ResolveRaid = %+v, want damage %d wounds %d", got, r.damage, r.wounds)
			}
		})
	}
	if _, err := ResolveRaid(Raid{2, 2}, Defence{Symbols: 1}, 2); err == nil {
		t.Error("ResolveRaid sent more cancellations to wounds than were rolled")
	}
}

// seed 004 "Kampfregeln" and "Waffen" (lines 478–536): symbols are wounds;
// the shotgun's and hatchet's marks kill outright only with that weapon;
// an enemy's out-of-ammo mark; the fate mark; ammunition and rerolls.
func TestSeed004Kampf(t *testing.T) {
	rows := []struct {
		name  string
		w     Weapon
		f     CombatFace
		enemy bool
		want  Strike
	}{
		{"two symbols, two wounds (line 486)", Knife, CombatFace{Symbols: 2}, false, Strike{Wounds: 2}},
		{"shotgun mark with a shotgun kills (line 528)", Shotgun, CombatFace{Mark: MarkShot}, false, Strike{Kills: true}},
		{"shotgun mark with a pistol misses (line 532)", Pistol, CombatFace{Mark: MarkShot}, false, Strike{}},
		{"hatchet mark with a hatchet kills (line 530)", Hatchet, CombatFace{Mark: MarkAxe}, true, Strike{Kills: true}},
		{"hatchet mark with a knife misses (line 532)", Knife, CombatFace{Mark: MarkAxe}, false, Strike{}},
		{"enemy firearm out of ammo (line 524)", Pistol, CombatFace{Mark: MarkNoAmmo}, true, Strike{OutOfAmmo: true}},
		{"fate mark prompts fate (line 536)", Unarmed, CombatFace{Mark: MarkFate}, false, Strike{Fate: true}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, err := Roll(r.w, r.f, r.enemy)
			if err != nil {
				t.Fatal(err)
			}
			if got != r.want {
				t.Errorf("Roll(%s, %+v, enemy %v) = %+v, want %+v", r.w, r.f, r.enemy, got, r.want)
			}
		})
	}
	// line 376–378: die colours.
	for w, d := range map[Weapon]Die{Unarmed: Grey, Knife: Yellow, Hatchet: Yellow, Pistol: Red, AssaultRifle: Red, Shotgun: Red} {
		if got, _ := DieFor(w); got != d {
			t.Errorf("DieFor(%s) = %s, want %s", w, got, d)
		}
	}
	// lines 522, 526: 1 ammo per shot, two shots only with the assault rifle.
	if n, err := AmmoCost(AssaultRifle, 2); err != nil || n != 2 {
		t.Errorf("AmmoCost(assault rifle, 2) = %d, %v; want 2", n, err)
	}
	if _, err := AmmoCost(Pistol, 2); err == nil {
		t.Error("a pistol shot twice")
	}
	// line 502: enemies reroll only on 0 wounds, up to their strength.
	if !EnemyRerolls(2, 1, 0) || EnemyRerolls(2, 1, 1) || EnemyRerolls(2, 2, 0) {
		t.Error("EnemyRerolls does not follow 'only on 0 wounds, up to strength'")
	}
	// line 500: a character's rerolls are its strength per round.
	if RerollsLeft(3, 1) != 2 || RerollsLeft(1, 2) != 0 {
		t.Error("RerollsLeft is not strength less used")
	}
}

// seed 004 "Tod von Feinden" (line 538): killing someone except a thug,
// the black die at or under a present character's empathy: misery +1.
func TestSeed004TodVonFeinden(t *testing.T) {
	g := newGame(t, 1, 0)
	got, out, err := Kill(g, []string{"anna", "bruno", "cveta"}, false, 4)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"anna": 1, "bruno": 1, "cveta": 0} {
		if m := char(t, got, name).Level(Misery); m != want {
			t.Errorf("%s misery = %d, want %d (roll 4 vs empathy)", name, m, want)
		}
	}
	if out[0].Kind != KindEmpathyTest {
		t.Errorf("first outcome = %s, want the empathy test", out[0].Kind)
	}
	thug, out, _ := Kill(g, []string{"anna"}, true, 1)
	if char(t, thug, "anna").Level(Misery) != 0 || len(out) != 0 {
		t.Error("killing a thug raised misery")
	}
	// Only the characters present are tested.
	got, _, _ = Kill(g, []string{"bruno"}, false, 1)
	if char(t, got, "anna").Level(Misery) != 0 || char(t, got, "bruno").Level(Misery) != 1 {
		t.Error("a character not at the fight was tested")
	}
}

// seed 004 "Der Tod wandelt unter uns" (line 455): if a character died or
// left this day, the black die at or under each character's empathy:
// misery +2; Dawn does not end without the roll.
func TestSeed004DerTodWandeltUnterUns(t *testing.T) {
	g := newGame(t, 1, 0)
	g, _, err := Lose(g, "cveta")
	if err != nil {
		t.Fatal(err)
	}
	g, _ = advanceTo(t, g, StepDeath)
	if _, _, err := Advance(g); err == nil {
		t.Fatal("Dawn ended without the death roll")
	}
	got, _, err := DeathWalks(g, 5)
	if err != nil {
		t.Fatal(err)
	}
	if char(t, got, "anna").Level(Misery) != 0 || char(t, got, "bruno").Level(Misery) != 2 {
		t.Errorf("roll 5: anna (empathy 4) misery %d, bruno (empathy 7) misery %d; want 0 and 2",
			char(t, got, "anna").Level(Misery), char(t, got, "bruno").Level(Misery))
	}
	if char(t, got, "cveta").Level(Misery) != 0 {
		t.Error("the character who died was tested")
	}
	if _, _, err := DeathWalks(got, 5); err == nil {
		t.Error("a second death roll on the same day was accepted")
	}
	got, out, err := Advance(got)
	if err != nil || got.Current().ID != StepSave {
		t.Fatalf("after the roll: step %s, %v; want the save step", got.Current().ID, err)
	}
	if out[0].Vars["script"] != 10 {
		t.Errorf("save step outcome %+v lacks script 10 (line 469)", out[0])
	}
	// A day without a death: no roll, Dawn ends.
	quiet, _ := advanceTo(t, newGame(t, 1, 0), StepDeath)
	if _, _, err := DeathWalks(quiet, 1); err == nil {
		t.Error("a death roll without a death was accepted")
	}
	if _, _, err := Advance(quiet); err != nil {
		t.Errorf("a quiet Dawn cannot end: %v", err)
	}
}

// seed 004 "Alkohol" (lines 446–451): spirits fatigue +2 misery −1; pure
// alcohol fatigue +1 misery −1; drunk at Dawn.
func TestSeed004Alkohol(t *testing.T) {
	g := newGame(t, 1, 0)
	if _, _, err := Alcohol(g, "anna", Spirits); err == nil {
		t.Error("alcohol drunk in the morning")
	}
	g, _ = advanceTo(t, g, "dawn.alcohol")
	g, _, _ = ChangeStatus(g, "anna", Misery, 2)
	g, _, _ = ChangeStatus(g, "bruno", Misery, 2)
	g, _, _ = Alcohol(g, "anna", Spirits)
	g, _, _ = Alcohol(g, "bruno", PureAlcohol)
	a, b := char(t, g, "anna"), char(t, g, "bruno")
	if a.Level(Fatigue) != 2 || a.Level(Misery) != 1 || b.Level(Fatigue) != 1 || b.Level(Misery) != 1 {
		t.Errorf("spirits: fatigue %d misery %d; pure: fatigue %d misery %d; want 2 1 1 1",
			a.Level(Fatigue), a.Level(Misery), b.Level(Fatigue), b.Level(Misery))
	}
}

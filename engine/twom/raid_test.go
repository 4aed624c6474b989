package twom

// Rules tests of the night raid as a sequence (arm, card, guards' dice,
// defence) and of carrying home. seed 004 = ../shared/seeds/004_7ca834d24cb6e115.txt.

import (
	"strings"
	"testing"
)

// raidNight is a game at the night raid's arming step with anna (strength
// 2) and bruno (strength 3) on guard and cveta scavenging.
func raidNight(t *testing.T) Game {
	t.Helper()
	g := newGame(t, 1, 0)
	g, _ = advanceTo(t, g, "evening.tasks")
	g, _, err := AssignTasks(g, map[string]Task{"anna": Guard, "bruno": Guard, "cveta": Scavenge}, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, _ = advanceTo(t, g, "raid.arm")
	return g
}

// ok fails the test on an error and passes the game and outcomes on.
func ok(t *testing.T) func(Game, []Outcome, error) (Game, []Outcome) {
	return func(g Game, out []Outcome, err error) (Game, []Outcome) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return g, out
	}
}

// seed 004 "Wachen bewaffnen" (lines 356–358): weapons go to characters on
// guard, one each; "Wachen und Waffen" (lines 370–379): each guard rolls
// the combat die of its weapon, grey unarmed, yellow melee, red firearms.
func TestSeed004Raid_ArmAndDice(t *testing.T) {
	g := raidNight(t)
	if _, _, err := Arm(g, "cveta", Knife); err == nil {
		t.Error("a scavenger was armed for the raid (line 358: the guards)")
	}
	g, out := ok(t)(Arm(g, "bruno", Knife))
	if out[0].Vars["die"] != "yellow" {
		t.Errorf("knife rolls %v, want yellow (line 376)", out[0].Vars["die"])
	}
	g, _ = ok(t)(Arm(g, "bruno", Pistol)) // one weapon: the pistol replaces the knife
	if _, _, err := DrawRaid(g, Raid{Damage: 3}); err == nil {
		t.Error("the raid card was drawn at the arming step (line 360: the step after it)")
	}
	g, _ = advanceTo(t, g, StepRaidCard)
	g, out = ok(t)(DrawRaid(g, Raid{Damage: 3, Wounds: 2}))
	if got := out[0].Vars["dice"].([]string); strings.Join(got, ",") != "grey,red" {
		t.Errorf("guards' dice %v, want grey (anna unarmed) and red (bruno's pistol) (lines 374–378)", got)
	}
	if _, _, err := Arm(g, "anna", Hatchet); err == nil {
		t.Error("a guard was armed after the raid card was drawn (line 356: before it)")
	}
}

// seed 004 "Nächtlicher Überfall" (lines 360–368) and "Wachen und Waffen"
// (line 379: each symbol cancels 1 damage or wound), "Bretter auf Löchern"
// (lines 397–399: each board cancels 1 wound or damage): damage 3 and
// wounds 2 against 2 symbols and a board, wounds first, leave 2 stolen.
func TestSeed004Raid_SymbolsAndBoardsCancel(t *testing.T) {
	g := raidNight(t)
	g, _ = advanceTo(t, g, StepRaidCard)
	g, _ = ok(t)(DrawRaid(g, Raid{Damage: 3, Wounds: 2}))
	if _, _, err := Defend(g, 0, nil); err == nil {
		t.Error("defended before the guards rolled (line 372: a die per guard)")
	}
	g, _ = ok(t)(GuardRoll(g, "anna", CombatFace{Symbols: 1}, false))
	g, _ = ok(t)(GuardRoll(g, "bruno", CombatFace{Symbols: 1}, false))
	res, out := ok(t)(Defend(g, 1, nil))
	v := out[0].Vars
	if v["symbols"] != 2 || v["stolen"] != 2 || v["wounds"] != 0 {
		t.Errorf("defence %v, want 2 symbols, 2 stolen, 0 wounds", v)
	}
	// The group may send the cancellations to damage instead.
	two := 0
	_, out = ok(t)(Defend(g, 1, &two))
	if v := out[0].Vars; v["stolen"] != 0 || v["wounds"] != 2 {
		t.Errorf("all to damage: %v, want 0 stolen and 2 wounds", v)
	}
	if _, _, err := Advance(g); err == nil {
		t.Error("the night went on with the raid card drawn and not defended")
	}
	if _, _, err := Advance(res); err != nil {
		t.Errorf("the night does not go on after the defence: %v", err)
	}
}

// seed 004 "Waffengebrauch während des nächtlichen Überfalls" (lines
// 383–391): a pistol spends 1 ammunition; an assault rifle may spend 2 for
// two rolls whose symbols add up; a shotgun's and a hatchet's special face
// ignore the raid card; with other weapons those faces are misses.
func TestSeed004Raid_Weapons(t *testing.T) {
	g := raidNight(t)
	g, _ = ok(t)(Arm(g, "anna", AssaultRifle))
	g, _ = ok(t)(Arm(g, "bruno", Knife))
	g, _ = advanceTo(t, g, StepRaidCard)
	g, _ = ok(t)(DrawRaid(g, Raid{Damage: 4, Wounds: 1}))
	g, out := ok(t)(GuardRoll(g, "anna", CombatFace{Symbols: 2}, false))
	if out[0].Vars["ammo"] != 1 {
		t.Errorf("the rifle's shot spends %v ammunition, want 1 (line 387)", out[0].Vars["ammo"])
	}
	g, out = ok(t)(GuardRoll(g, "anna", CombatFace{Symbols: 1}, true))
	if out[0].Vars["ammo"] != 1 || out[0].Vars["total"] != 3 {
		t.Errorf("second shot %v, want 1 more ammunition and 3 symbols in all (line 387)", out[0].Vars)
	}
	if _, _, err := GuardRoll(g, "bruno", CombatFace{Symbols: 1}, true); err == nil {
		t.Error("a knife shot twice")
	}
	// The shotgun's face with a knife is a miss (line 391).
	g2, out := ok(t)(GuardRoll(g, "bruno", CombatFace{Mark: MarkShot}, false))
	if out[0].Vars["ignores"] != false || out[0].Vars["symbols"] != 0 {
		t.Errorf("shotgun face on a knife: %v, want a miss", out[0].Vars)
	}
	_, out = ok(t)(Defend(g2, 0, nil))
	if v := out[0].Vars; v["stolen"] != 2 || v["wounds"] != 0 || v["ignored"] != false {
		t.Errorf("3 symbols against damage 4, wounds 1: %v, want 2 stolen, 0 wounds", v)
	}
	// The hatchet's face with a hatchet ignores the card (line 389).
	h := raidNight(t)
	h, _ = ok(t)(Arm(h, "bruno", Hatchet))
	h, _ = advanceTo(t, h, StepRaidCard)
	h, _ = ok(t)(DrawRaid(h, Raid{Damage: 5, Wounds: 3}))
	h, _ = ok(t)(GuardRoll(h, "anna", CombatFace{}, false))
	h, _ = ok(t)(GuardRoll(h, "bruno", CombatFace{Mark: MarkAxe}, false))
	_, out = ok(t)(Defend(h, 0, nil))
	if v := out[0].Vars; v["ignored"] != true || v["stolen"] != 0 || v["wounds"] != 0 {
		t.Errorf("hatchet face with a hatchet: %v, want the card ignored", v)
	}
}

// seed 004 "Stärke während des nächtlichen Überfalls" (lines 393–395): a
// guard's Strength is its rerolls; the last roll stands.
func TestSeed004Raid_StrengthRerolls(t *testing.T) {
	g := raidNight(t)
	g, _ = advanceTo(t, g, StepRaidCard)
	g, _ = ok(t)(DrawRaid(g, Raid{Damage: 2}))
	g, _ = ok(t)(GuardRoll(g, "anna", CombatFace{Symbols: 1}, false))
	g, out := ok(t)(GuardRoll(g, "anna", CombatFace{}, false))
	if v := out[0].Vars; v["reroll"] != true || v["rerolls_left"] != 1 || v["total"] != 0 {
		t.Errorf("first reroll %v, want a reroll, 1 left, the last roll (0) standing", v)
	}
	g, _ = ok(t)(GuardRoll(g, "anna", CombatFace{Symbols: 2}, false))
	if _, _, err := GuardRoll(g, "anna", CombatFace{Symbols: 2}, false); err == nil {
		t.Error("anna (strength 2) rerolled a third time")
	}
	g, _ = ok(t)(GuardRoll(g, "bruno", CombatFace{}, false))
	_, out = ok(t)(Defend(g, 0, nil))
	if out[0].Vars["stolen"] != 0 {
		t.Errorf("the last roll (2 symbols) against damage 2: %v stolen, want 0", out[0].Vars["stolen"])
	}
}

// seed 004 "Sachen wählen" (lines 331–345): the weight carried home is at
// most the sum of the scavengers' inventory slots.
func TestSeed004Carry(t *testing.T) {
	g := raidNight(t) // cveta (inventory 6) scavenges
	if _, err := Carry(g, []int{1}); err == nil {
		t.Error("carry judged in the night raid (line 331: the end of scavenging)")
	}
	g = newGame(t, 1, 0)
	g, _ = advanceTo(t, g, "evening.tasks")
	g, _, _ = AssignTasks(g, map[string]Task{"anna": Scavenge, "bruno": Guard, "cveta": Scavenge}, 0)
	g, _ = advanceTo(t, g, "scavenging.items")
	o, err := Carry(g, []int{3, 4, 0, 4})
	if err != nil || o.Vars["weight"] != 11 || o.Vars["limit"] != 11 || o.Vars["fits"] != true {
		t.Errorf("11 of anna's 5 and cveta's 6 slots: %v %v", o.Vars, err)
	}
	o, _ = Carry(g, []int{3, 4, 5})
	if o.Vars["fits"] != false {
		t.Errorf("weight 12 of 11 fits: %v (line 343: leave the rest)", o.Vars)
	}
}

package engine

import (
	"slices"
	"testing"
)

// The enemy turn one enemy at a time (seed 000 "1. Gegneraktivierung"): each
// enemy acts, and fights, in turn; the next enemy chooses its target from
// the state after the fights before it.

// seed 000 "1. Gegneraktivierung" with "Trefferpunkte & Strahlung": a
// survivor killed by the first attacker is back at Crossroads Camp, so an
// enemy that shared her space attacks no one there and chooses again.
func TestSeed000Gegneraktivierung_KilledSurvivorNotAttackedAgain(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st.Survivors[st.Survivor("ann")].Damage = 6 // 4 HP: the priority target
	st, e1 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
	st, e2 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann", "ben"}})
	// robot-2 is level 2: 2h 2h head is 5 hits, 10 damage; Ann is killed.
	st, act, out := rtTurn(t, c, st, "activation-3", []string{"2h", "2h", "head"}, []string{"torso", "torso", "torso"})
	if got := rtAttacks(act); !slices.Equal(got, []string{e1 + ">ann", e2 + ">ben"}) {
		t.Errorf("attacks = %v, want [%s>ann %s>ben]: the second robot attacks Ben, not the respawned Ann", got, e1, e2)
	}
	if a := rtSurv(t, st, "ann"); a.Deaths != 1 || a.HP() != a.MaxHP {
		t.Errorf("Ann deaths %d HP %d, want killed once and respawned", a.Deaths, a.HP())
	}
	// The second attack is announced after the first fight's death.
	if k, a := rtAt(out, KindKilled), lastAt(out, KindEnemyAttack); k < 0 || a < k {
		t.Errorf("second attack at %d, death at %d: %v", a, k, rtKinds(out))
	}
	if st.Turn != nil {
		t.Errorf("turn still open: %+v", st.Turn)
	}
}

// seed 000 "1. Gegneraktivierung" ("Mehrere Ziele möglich? Weniger TP >
// Spielerreihenfolge"): the priority target is chosen when the enemy acts,
// from the HP left after the fights before it.
func TestSeed000Gegneraktivierung_TargetFromStateAfterEarlierFight(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st.Survivors[st.Survivor("ben")].Damage = 1 // Ben 9 HP, Ann 10
	st, e1 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
	st, e2 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann", "ben"}})
	// The first robot deals 2 damage (one hit, level 2): Ann has 8 HP, fewer than Ben.
	_, act, out := rtTurn(t, c, st, "activation-3", []string{"1h", "torso", "torso"}, []string{"torso", "torso", "torso"})
	if got := rtAttacks(act); !slices.Equal(got, []string{e1 + ">ann", e2 + ">ann"}) {
		t.Errorf("attacks = %v, want [%s>ann %s>ann] (Ann has fewer HP after the first fight)", got, e1, e2)
	}
	var hp []any
	for _, o := range out {
		if o.Kind == KindEnemyAttack {
			hp = append(hp, o.Vars["hp"])
		}
	}
	if !slices.Equal(hp, []any{10, 8}) {
		t.Errorf("target HP when attacked = %v, want [10 8]", hp)
	}
}

// seed 000 "1. Gegneraktivierung": the turn waits for each fight; the next
// enemy acts only after ResumeTurn, and nothing of the card's later steps
// happens before.
func TestSeed000Gegneraktivierung_TurnWaitsForEachFight(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, e1 := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-1", With: []string{"ann"}})
	st, e2 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"ben"}})
	st, out, err := Activate(c, st, "activation-5") // raider, robot; Institute icon
	if err != nil {
		t.Fatal(err)
	}
	a, ok := st.Waiting()
	if !ok || a.Enemy != e1 || a.Survivor != "ann" {
		t.Fatalf("waiting = %+v %v, want %s>ann", a, ok, e1)
	}
	for _, k := range []string{KindOpposingIcon, KindPower, KindActivationRow} {
		rtNone(t, out, k)
	}
	if rtCount(out, KindEnemyAttack) != 1 || rtCount(out, KindActivateType) != 1 {
		t.Errorf("before the first fight: %v, want the raiders' group and one attack", rtKinds(out))
	}
	if st.Power != 0 {
		t.Errorf("power advanced before the fight: %d", st.Power)
	}
	t.Run("seed 003 Activation cards: no second card while a turn waits", func(t *testing.T) {
		if _, _, err := Activate(c, st, "activation-3"); err == nil {
			t.Error("want an error")
		}
	})
	t.Run("seed 003 Activation cards: the round does not end while a turn waits", func(t *testing.T) {
		if _, _, err := EndRound(c, st); err == nil {
			t.Error("want an error")
		}
	})
	t.Run("seed 003 Activation cards 3: the first player is chosen after the turn", func(t *testing.T) {
		if _, _, err := SetFirstPlayer(c, st, "ben"); err == nil {
			t.Error("want an error")
		}
	})
	st, _, _ = rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: e1, Faces: rtVATS(t, c, "torso", "torso", "torso")})
	st, out, err = ResumeTurn(c, st)
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := st.Waiting(); !ok || a.Enemy != e2 || a.Survivor != "ben" {
		t.Fatalf("waiting = %+v %v, want %s>ben", a, ok, e2)
	}
	st, _, _ = rtFight(t, c, st, FightInput{Survivor: "ben", Enemy: e2, Faces: rtVATS(t, c, "torso", "torso", "torso")})
	st, out, err = ResumeTurn(c, st)
	if err != nil {
		t.Fatal(err)
	}
	if st.Turn != nil || st.Power != 1 {
		t.Errorf("turn %+v power %d, want finished and advanced 1", st.Turn, st.Power)
	}
	rtMust(t, out, KindOpposingIcon)
	rtMust(t, out, KindActivationRow)
	if _, _, err := ResumeTurn(c, st); err == nil {
		t.Error("ResumeTurn with no waiting turn: want an error")
	}
}

// seed 000 "Gegnereigenschaften" Aggressiv: "Trifft dieser Gegner auf dich,
// beginnt sofort ein Kampf (keine Aktion!)": an aggressive enemy that moves
// into a survivor's space fights at once; a non-aggressive one only moves.
func TestSeed000Gegnereigenschaften_AggressiveMoveStartsFight(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, id := rtAdd(t, c, st, EnemySpec{Type: "creature", Token: "creature-2", Adjacent: []string{"cat"}}) // fast, aggressive
	st2, out, err := Activate(c, st, "activation-8")                                                       // creature, robot
	if err != nil {
		t.Fatal(err)
	}
	a, ok := st2.Waiting()
	if !ok || a.Enemy != id || a.Survivor != "cat" {
		t.Fatalf("waiting = %+v %v, want %s>cat", a, ok, id)
	}
	if m, g := rtAt(out, KindEnemyMoveTo), rtAt(out, KindEnemyAggressive); m < 0 || g < m {
		t.Errorf("move at %d, aggressive fight at %d: %v", m, g, rtKinds(out))
	}
	rtVar(t, rtMust(t, out, KindEnemyAggressive), "survivor", "Cat")
	rtNone(t, out, KindEnemyAttack)
	if e := rtEnemy(t, st2, id); !slices.Equal(e.With, []string{"cat"}) {
		t.Errorf("with %v, want [cat]", e.With)
	}
	// The fight is fought like any other: Cat takes the damage.
	_, act, _ := rtTurn(t, c, st, "activation-8", []string{"1h", "torso", "torso"})
	if got := rtAttacks(act); !slices.Equal(got, []string{id + ">cat"}) {
		t.Errorf("attacks = %v", got)
	}

	st = rtGame(t, c)
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "creature", Token: "creature-1", Adjacent: []string{"cat"}}) // fast, not aggressive
	st, out, _ = Activate(c, st, "activation-8")
	if _, ok := st.Waiting(); ok || st.Turn != nil {
		t.Errorf("a non-aggressive enemy that moved in attacks: %+v", st.Turn)
	}
	rtNone(t, out, KindEnemyAggressive)
}

// seed 000 "Gegnereigenschaften" Rückzug and "1. Gegneraktivierung": an
// enemy that retreats (turns facedown) in a fight during its own type's
// activation is inactive when the type's inactive enemies turn faceup after
// all active ones acted, and it is no replacement: it turns faceup.
func TestSeed000Gegneraktivierung_RetreatedEnemyFlipsAfterItsType(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, id := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-2", With: []string{"ann"}}) // retreat
	st, down := rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-1", Inactive: true})
	st, _, out := rtTurn(t, c, st, "activation-6", []string{"torso", "torso", "torso"}) // ghoul, raider
	if r, f := rtAt(out, KindFightRetreat), rtAt(out, KindEnemyFlip); r < 0 || f < r {
		t.Fatalf("retreat at %d, flip at %d: %v", r, f, rtKinds(out))
	}
	rtVar(t, rtMust(t, out, KindEnemyFlip), "n", 2)
	if !rtEnemy(t, st, id).Active || !rtEnemy(t, st, down).Active {
		t.Errorf("raiders %+v, want both faceup", st.Enemies)
	}
}

// seed 000 "[V] Kampf" 03 and "1. Gegneraktivierung": a kill during the
// type's activation places a facedown replacement, which does not turn
// faceup with that type's inactive enemies ("Außer denen, die verdeckt als
// Ersatz ins Spiel gekommen sind").
func TestSeed000Gegneraktivierung_ReplacementFromTurnStaysFacedown(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, id := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-2", With: []string{"ann"}})
	// robot-2: level 2, vulnerable head and legs: two region hits kill it.
	st, _, out := rtTurn(t, c, st, "activation-3", []string{"head", "legs", "torso"})
	rtMust(t, out, KindFightKilled)
	repl := rtEnemy(t, st, ReplacementID(id))
	if repl.Active || !repl.Replacement {
		t.Errorf("replacement %+v, want facedown", repl)
	}
	rtNone(t, out, KindEnemyFlip)
}

// seed 003 "Activation cards" 2 (seed 000 "Verfeindete Fraktionen
// aktivieren"): the faction's enemies act and fight first, then its power
// token advances, then the effect row for its enemies on the map as they
// are after those fights.
func TestSeed003ActivationCards_FactionFightsBeforePower(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st, id := rtAdd(t, c, st, EnemySpec{Type: "institute", Token: "institute-2", With: []string{"ann"}})
	st, out, _ := Activate(c, st, "activation-2") // super mutant, raider; Institute icon
	if a, ok := st.Waiting(); !ok || a.Enemy != id {
		t.Fatalf("waiting %+v %v, want %s", a, ok, id)
	}
	rtNone(t, out, KindPower)
	// institute-2: level 2, vulnerable head and legs: killed.
	st, _, o := rtFight(t, c, st, FightInput{Survivor: "ann", Enemy: id, Faces: rtVATS(t, c, "head", "legs", "torso")})
	out = append(out, o...)
	st, o, _ = ResumeTurn(c, st)
	out = append(out, o...)
	seq := []int{rtAt(out, KindEnemyAttack), rtAt(out, KindFightKilled), rtAt(out, KindPower), rtAt(out, KindActivationRow)}
	if !slices.IsSorted(seq) || seq[0] < 0 {
		t.Errorf("order attack/kill/power/row = %v in %v", seq, rtKinds(out))
	}
	rtVar(t, rtMust(t, out, KindActivationRow), "enemies", 1) // the facedown replacement
	if e := rtEnemy(t, st, ReplacementID(id)); e.Active {
		t.Errorf("the faction's replacement turned faceup in the same turn")
	}
}

// seed 003 "Killed" and "Ending the game": a survivor killed in the enemy
// turn advances the power token; reaching the last space ends the game and
// the turn with it.
func TestSeed003EndingTheGame_LostInTheEnemyTurn(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	st.Power = st.LastSpace() - 1
	st.Survivors[st.Survivor("ann")].Damage = 6
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-1", With: []string{"ann"}})
	st, _ = rtAdd(t, c, st, EnemySpec{Type: "raider", Token: "raider-1", With: []string{"ben"}})
	// raider-1 is level 1: five hits kill Ann (4 HP).
	st, act, out := rtTurn(t, c, st, "activation-6", []string{"2h", "2h", "1h"}) // ghoul, raider; Railroad icon
	if st.Result != ResultLost || st.Turn != nil {
		t.Errorf("result %q turn %+v, want lost and no turn", st.Result, st.Turn)
	}
	if len(act.Attacks) != 1 {
		t.Errorf("attacks %v: the second raider acted after the loss", rtAttacks(act))
	}
	rtMust(t, out, KindGameLost)
	for _, k := range []string{KindEnemyMove, KindEnemyFlip, KindLoyalIcon} {
		rtNone(t, out, k)
	}
}

// A change while the turn waits (an enemy removed or moved, seed 000 "1.
// Gegneraktivierung": the enemy acts from the state as it is) drops an
// attack that can no longer happen; that enemy acts again and the turn goes
// on. An attack still possible is kept.
func TestSeed000Gegneraktivierung_RecheckWaitingAttack(t *testing.T) {
	c := rtContent(t)
	start := func(t *testing.T) (State, string, string) {
		st := rtGame(t, c)
		st, e1 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"ann"}})
		st, e2 := rtAdd(t, c, st, EnemySpec{Type: "robot", Token: "robot-1", With: []string{"ben"}})
		st, _, err := Activate(c, st, "activation-3")
		if err != nil {
			t.Fatal(err)
		}
		return st, e1, e2
	}
	t.Run("attack still possible: kept", func(t *testing.T) {
		st, e1, _ := start(t)
		st, _, _ = Adjust(c, st, "cat", "xp", 1)
		st2, out := RecheckTurn(c, st)
		if a, _ := st2.Waiting(); a.Enemy != e1 || len(out) != 0 {
			t.Errorf("waiting %+v, outcomes %v", a, rtKinds(out))
		}
	})
	t.Run("enemy removed: dropped, the next enemy acts", func(t *testing.T) {
		st, e1, e2 := start(t)
		st, _, _ = RemoveEnemy(c, st, e1)
		st, out := RecheckTurn(c, st)
		rtVar(t, rtMust(t, out, KindAttackDropped), "id", e1)
		if a, ok := st.Waiting(); !ok || a.Enemy != e2 || a.Survivor != "ben" {
			t.Errorf("waiting %+v %v, want %s>ben", a, ok, e2)
		}
	})
	t.Run("enemy moved next to the survivor: it acts again and moves in", func(t *testing.T) {
		st, e1, e2 := start(t)
		st, _, err := PlaceEnemy(c, st, e1, Placement{Adjacent: []string{"ann"}})
		if err != nil {
			t.Fatal(err)
		}
		st, out := RecheckTurn(c, st)
		if d, m := rtAt(out, KindAttackDropped), rtAt(out, KindEnemyMoveTo); d < 0 || m < d {
			t.Errorf("dropped at %d, moved at %d: %v", d, m, rtKinds(out))
		}
		if a, ok := st.Waiting(); !ok || a.Enemy != e2 {
			t.Errorf("waiting %+v %v, want %s", a, ok, e2)
		}
	})
}

// lastAt is the position of the last outcome of a kind, or -1.
func lastAt(out []Outcome, kind string) int {
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Kind == kind {
			return i
		}
	}
	return -1
}

package tracker

import (
	"context"
	"strings"
	"testing"

	"tablecam/engine"
	"tablecam/models"
)

// The enemy turn in a session: one enemy at a time, each fight rolled and
// applied before the next enemy acts (seed 000 "1. Gegneraktivierung").

// prompts returns the fight prompts of announcements as "survivor>enemy
// id" (the id under enemy_id: "id" is the name the group types).
func prompts(as []models.Announcement) []string {
	var out []string
	for _, a := range as {
		if a.Kind == KindFightPrompt {
			out = append(out, a.Data["survivor"].(string)+">"+a.Data["enemy_id"].(string))
		}
	}
	return out
}

// pendingFight is the pending fight as "survivor>enemy", or "".
func (h *historySession) pendingFight() string {
	h.t.Helper()
	p := h.s.Game().Pending
	if p == nil || p.Context.Kind != CtxFight {
		return ""
	}
	return p.Context.Survivor + ">" + p.Context.Enemy
}

// seed 000 "1. Gegneraktivierung": Alice, killed by the first raider, is
// back at Crossroads Camp; the second raider that shared her space is not
// prompted against her: it acts from the state after the fight and moves.
func TestEnemyTurn_KilledSurvivorNotAttackedAgain(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"enemy add raider-2 with alice", // e1, level 2
		"enemy add raider-2 with alice", // e2
	)
	as := h.must("card activation-6") // ghoul, raider; Railroad icon
	if got := prompts(as); len(got) != 1 || got[0] != "Alice>e1" {
		t.Fatalf("prompts %v, want only Alice>e1 before the first fight", got)
	}
	// 6 hits x level 2 = 12 damage: Alice (12 HP) is killed.
	as = h.must("roll 2h 2h 2h")
	if got := prompts(as); len(got) != 0 {
		t.Errorf("prompts after Alice's death: %v, want none (kinds %v)", got, kinds(as))
	}
	if h.survivor("alice").Deaths != 1 {
		t.Fatalf("alice deaths %d, want 1", h.survivor("alice").Deaths)
	}
	m, ok := find(as, engine.KindEnemyMove)
	if !ok || m.Data["id"] != "e2" {
		t.Errorf("e2 should move toward the nearest survivor: %v", kinds(as))
	}
	if _, ok := find(as, engine.KindLoyalIcon); !ok {
		t.Errorf("the turn did not reach the faction icon: %v", kinds(as))
	}
	if f := h.pendingFight(); f != "" {
		t.Errorf("pending fight %s after the turn", f)
	}
	h.checkReplay()
}

// seed 000 "Gegnereigenschaften" Aggressiv: an aggressive enemy that moves
// into a survivor's space starts a fight at once.
func TestEnemyTurn_AggressiveMoveStartsFight(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "enemy add creature-2 adjacent bob") // fast, aggressive
	as := h.must("card activation-8")                      // creature, robot
	if got := prompts(as); len(got) != 1 || got[0] != "Bob>e1" {
		t.Fatalf("prompts %v, want Bob>e1 (kinds %v)", got, kinds(as))
	}
	if f := h.pendingFight(); f != "bob>e1" {
		t.Errorf("pending fight %q, want bob>e1", f)
	}
	h.checkReplay()
}

// seed 003 "Assisting": "Only one survivor can assist per fight."
func TestParseFight_OneAssistantOnly(t *testing.T) {
	c := testContent(t)
	_, _, err := ParseLine(c, "fight alice e4 assist bob assist carol")
	if err == nil || !strings.Contains(err.Error(), "only one survivor may assist") {
		t.Fatalf("error %v, want one saying only one survivor may assist", err)
	}
	ev, ok, err := ParseLine(c, "fight alice e4 assist bob")
	if err != nil || !ok || ev.Context.Assistant != "bob" {
		t.Errorf("one assistant: %+v %v %v", ev.Context, ok, err)
	}
}

// waitingTurn sets up two raiders (e1 with Alice, e2 with Bob) and shows a
// raider card: the turn waits for Alice's fight against e1.
func waitingTurn(t *testing.T) *historySession {
	h := newHistorySession(t)
	h.must(histSetup,
		"enemy add raider-1 with alice", // e1
		"enemy add raider-1 with bob",   // e2
		"card activation-6",             // ghoul, raider; Railroad icon
	)
	if f := h.pendingFight(); f != "alice>e1" {
		t.Fatalf("pending fight %q, want alice>e1", f)
	}
	return h
}

// A session reopened from its log while the enemy turn waits resumes the
// same wait, and the turn goes on from there.
func TestEnemyTurn_ResumeMidTurn(t *testing.T) {
	h := waitingTurn(t)
	h.checkReplay()
	if sum := h.s.Game().Summary(h.c); !strings.Contains(sum, "Enemy turn activation-6 waits for Alice's fight against Raider e1") {
		t.Errorf("summary does not show the waiting turn:\n%s", sum)
	}
	cat, _ := NewCatalog("en")
	again, err := OpenSession(context.Background(), h.st, h.c, cat, h.s.ID(), "")
	if err != nil {
		t.Fatal(err)
	}
	if canonJSON(again.Game()) != canonJSON(h.s.Game()) {
		t.Fatalf("reopened state differs: %s", jsonDiff(canonJSON(h.s.Game()), canonJSON(again.Game())))
	}
	h.s = again
	as := h.must("roll torso torso torso")
	if got := prompts(as); len(got) != 1 || got[0] != "Bob>e2" {
		t.Fatalf("prompts %v, want Bob>e2 after Alice's fight (kinds %v)", got, kinds(as))
	}
	as = h.must("roll torso torso torso")
	if _, ok := find(as, engine.KindLoyalIcon); !ok || h.pendingFight() != "" {
		t.Errorf("turn not finished after the last fight: %v, pending %q", kinds(as), h.pendingFight())
	}
	h.checkReplay()
}

// Undo and redo in the middle of the enemy turn: undoing the first fight's
// roll goes back to waiting for it; a correction of that roll changes whom
// the next enemy attacks.
func TestEnemyTurn_UndoAndCorrectMidTurn(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"hp bob -1",                         // 2: Bob 11 HP
		"enemy add raider-1 with alice",     // 3: e1, level 1
		"enemy add raider-1 with alice,bob", // 4: e2
		"card activation-6",                 // 5: e1 attacks Alice
	)
	// 6: one hit, Alice 11 HP: tied with Bob, the first player Alice is the target.
	as := h.must("roll 1h torso torso")
	if got := prompts(as); len(got) != 1 || got[0] != "Alice>e2" {
		t.Fatalf("prompts %v, want Alice>e2", got)
	}
	h.must("undo")
	if f := h.pendingFight(); f != "alice>e1" {
		t.Fatalf("after undo: pending %q, want alice>e1 again", f)
	}
	h.checkReplay()
	h.must("redo")
	if f := h.pendingFight(); f != "alice>e2" {
		t.Fatalf("after redo: pending %q, want alice>e2", f)
	}
	// The reading was a miss: Alice keeps 12 HP and Bob (11) is the target.
	as = h.must("correct 6 torso torso torso")
	if f := h.pendingFight(); f != "bob>e2" {
		t.Errorf("after the correction: pending %q, want bob>e2 (announced %v)", f, kinds(as))
	}
	h.checkReplay()
	// Rolling Bob's fight ends the turn.
	h.must("roll torso torso torso")
	if f := h.pendingFight(); f != "" {
		t.Errorf("pending %q after the turn", f)
	}
	h.checkReplay()
}

// While the turn waits for a fight, the steps after the enemy turn and
// other rolls are refused with a clear error; the same fight with an
// assistant is accepted.
func TestEnemyTurn_WaitingRefusesLaterSteps(t *testing.T) {
	h := waitingTurn(t)
	for _, line := range []string{"card activation-3", "round", "first bob"} {
		h.rejects(line, "enemy turn of activation-6 is not finished")
	}
	for _, line := range []string{"test alice 2", "nocontext", "fight bob e2", "fight alice raider draw"} {
		h.rejects(line, "the enemy turn waits for Alice's fight against Raider e1")
	}
	h.must("fight alice e1 assist bob")
	as := h.must("roll torso torso torso assist blank")
	if got := prompts(as); len(got) != 1 || got[0] != "Bob>e2" {
		t.Errorf("prompts %v, want Bob>e2", got)
	}
	h.checkReplay()
}

// An enemy removed while the turn waits for its fight no longer attacks;
// the next enemy acts.
func TestEnemyTurn_RemovedAttackerDropped(t *testing.T) {
	h := waitingTurn(t)
	as := h.must("enemy remove e1")
	if _, ok := find(as, engine.KindAttackDropped); !ok {
		t.Errorf("no dropped attack announced: %v", kinds(as))
	}
	if got := prompts(as); len(got) != 1 || got[0] != "Bob>e2" {
		t.Errorf("prompts %v, want Bob>e2", got)
	}
	h.checkReplay()
}

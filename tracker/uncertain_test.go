package tracker

import (
	"context"
	"testing"

	"tablecam/engine"
)

// An uncertain camera reading is announced as such and waits for the
// group: with no rerolls left it does not resolve until "done" (confirm)
// or a correction; a certain reading resolves at once.
func TestUncertainCameraReadingWaitsForConfirmation(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	ctx := context.Background()
	runScript(t, s, c, "setup commonwealth loyal railroad survivors alice bob\ntest alice 1\n")
	as, err := s.Submit(ctx, Event{Type: EvRoll, Faces: []string{"head", "arms", "torso"}, Source: "camera", Frame: "f1.jpg", Uncertain: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, a := range as {
		kinds[a.Kind] = true
	}
	if !kinds[KindUncertain] || kinds[engine.KindTestResult] {
		t.Fatalf("uncertain roll announced %v; want roll.uncertain and no result yet", as)
	}
	if g := s.Game(); g.Pending == nil || !g.Pending.Rolled {
		t.Fatal("the uncertain roll must stay pending")
	}
	as, err = s.Submit(ctx, Event{Type: EvDone})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) == 0 || as[0].Kind != engine.KindTestResult || as[0].Data["passed"] != true {
		t.Fatalf("confirm announced %+v, want the test result", as)
	}
	if g := s.Game(); g.Pending != nil || g.Rolls[0].Frame != "f1.jpg" || g.Rolls[0].Source != "camera" {
		t.Fatalf("after confirm: pending %+v, rolls %+v", g.Pending, g.Rolls)
	}
	// A certain reading with no rerolls resolves at once.
	runScript(t, s, c, "test bob 2\n")
	as, err = s.Submit(ctx, Event{Type: EvRoll, Faces: []string{"2h", "arms", "torso"}, Source: "camera"})
	if err != nil {
		t.Fatal(err)
	}
	if as[len(as)-1].Kind != engine.KindTestResult {
		t.Fatalf("certain roll announced %+v, want the result at once", as)
	}
	if _, err := s.Submit(ctx, Event{Type: EvRoll, Faces: []string{"head"}, Uncertain: []int{4}}); err == nil {
		t.Error("an uncertain index outside the roll must be rejected")
	}
}

// Dice read before any game is set up are announced with their faces and
// hits (tablecam used as a plain dice reader); every other event still
// needs a game.
func TestRollBeforeSetupAnnouncesFaces(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	ctx := context.Background()
	as, err := s.Submit(ctx, Event{Type: EvRoll, Faces: []string{"head", "2h", "arms"}, Source: "camera"})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Kind != engine.KindRollFaces || as[0].Data["hits"] != 3 {
		t.Fatalf("roll before setup announced %+v, want the faces and 3 hits", as)
	}
	if _, err := s.Submit(ctx, Event{Type: EvCard, Card: "activation-1"}); err == nil {
		t.Error("a card before setup was accepted")
	}
}

package engine

import (
	"slices"
	"testing"

	"tablecam/models"
)

// Helpers for rules_test.go. Every helper works on a fresh copy of the
// embedded content pack, so a test may change c.Rules or other data without
// affecting any other test.

// rtContent returns a fresh copy of the embedded content pack.
func rtContent(t *testing.T) *models.Content {
	t.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatalf("DefaultContent: %v", err)
	}
	return c
}

// rtGame starts "The Commonwealth" loyal to the Railroad (opposing: the
// Institute, icon "b" on activation cards) with three survivors Ann, Ben and
// Cat in player order, each with 10 HP, first player Ann.
func rtGame(t *testing.T, c *models.Content) State {
	t.Helper()
	st, _, err := New(c, Setup{Scenario: "commonwealth", Loyal: "railroad", Survivors: []models.Survivor{
		{ID: "ann", Name: "Ann", MaxHP: 10},
		{ID: "ben", Name: "Ben", MaxHP: 10},
		{ID: "cat", Name: "Cat", MaxHP: 10},
	}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st
}

// rtAdd puts an enemy on the map and returns the new state and its id.
func rtAdd(t *testing.T, c *models.Content, st State, sp EnemySpec) (State, string) {
	t.Helper()
	st, _, err := AddEnemy(c, st, sp)
	if err != nil {
		t.Fatalf("AddEnemy(%+v): %v", sp, err)
	}
	return st, st.Enemies[len(st.Enemies)-1].ID
}

// rtVATS returns V.A.T.S. faces of the content pack by id.
func rtVATS(t *testing.T, c *models.Content, ids ...string) []models.Face {
	t.Helper()
	return rtFaces(t, c, "vats", ids...)
}

// rtAssist returns one assist die face of the content pack by id.
func rtAssist(t *testing.T, c *models.Content, id string) *models.Face {
	t.Helper()
	f := rtFaces(t, c, "assist", id)[0]
	return &f
}

func rtFaces(t *testing.T, c *models.Content, set string, ids ...string) []models.Face {
	t.Helper()
	fs, ok := c.FaceSet(set)
	if !ok {
		t.Fatalf("no face set %q", set)
	}
	out := make([]models.Face, 0, len(ids))
	for _, id := range ids {
		f, ok := fs.Face(id)
		if !ok {
			t.Fatalf("face set %q has no face %q", set, id)
		}
		out = append(out, f)
	}
	return out
}

// rtToken returns a printed token of the content pack.
func rtToken(t *testing.T, c *models.Content, id string) models.EnemyToken {
	t.Helper()
	_, tok, ok := c.Token(id)
	if !ok {
		t.Fatalf("no token %q", id)
	}
	return tok
}

// rtTok builds a token for FightMath tests.
func rtTok(level int, vulnerable []string, abilities ...string) models.EnemyToken {
	return models.EnemyToken{ID: "test", Level: level, Vulnerable: vulnerable, Abilities: abilities}
}

func rtKinds(out []Outcome) []string {
	k := make([]string, len(out))
	for i, o := range out {
		k[i] = o.Kind
	}
	return k
}

// rtFind returns the first outcome of a kind.
func rtFind(out []Outcome, kind string) (Outcome, bool) {
	for _, o := range out {
		if o.Kind == kind {
			return o, true
		}
	}
	return Outcome{}, false
}

func rtCount(out []Outcome, kind string) int {
	n := 0
	for _, o := range out {
		if o.Kind == kind {
			n++
		}
	}
	return n
}

// rtAt is the position of the first outcome of a kind, or -1.
func rtAt(out []Outcome, kind string) int {
	for i, o := range out {
		if o.Kind == kind {
			return i
		}
	}
	return -1
}

// rtMust fails unless an outcome of kind is present, and returns it.
func rtMust(t *testing.T, out []Outcome, kind string) Outcome {
	t.Helper()
	o, ok := rtFind(out, kind)
	if !ok {
		t.Fatalf("no %s outcome in %v", kind, rtKinds(out))
	}
	return o
}

// rtNone fails if an outcome of kind is present.
func rtNone(t *testing.T, out []Outcome, kind string) {
	t.Helper()
	if rtCount(out, kind) > 0 {
		t.Errorf("unexpected %s outcome in %v", kind, rtKinds(out))
	}
}

// rtVar checks one variable of an outcome.
func rtVar(t *testing.T, o Outcome, key string, want any) {
	t.Helper()
	got, ok := o.Vars[key]
	if !ok {
		t.Errorf("%s: no var %q (vars %v)", o.Kind, key, o.Vars)
		return
	}
	if gs, ok := got.([]string); ok {
		if ws, ok := want.([]string); ok {
			if !slices.Equal(gs, ws) {
				t.Errorf("%s: %s = %v, want %v", o.Kind, key, gs, ws)
			}
			return
		}
	}
	if got != want {
		t.Errorf("%s: %s = %v (%T), want %v (%T)", o.Kind, key, got, got, want, want)
	}
}

// rtSurv returns the survivor with id.
func rtSurv(t *testing.T, st State, id string) SurvivorState {
	t.Helper()
	i := st.Survivor(id)
	if i < 0 {
		t.Fatalf("no survivor %q", id)
	}
	return st.Survivors[i]
}

// rtEnemy returns the enemy with id.
func rtEnemy(t *testing.T, st State, id string) Enemy {
	t.Helper()
	i := st.Enemy(id)
	if i < 0 {
		t.Fatalf("no enemy %q on the map", id)
	}
	return st.Enemies[i]
}

// rtActivation lists the attacks an enemy turn made, in order.
type rtActivation struct {
	Attacks []Attack
}

// rtAttacks formats an activation's attacks as "enemy>survivor".
func rtAttacks(a rtActivation) []string {
	out := make([]string, len(a.Attacks))
	for i, x := range a.Attacks {
		out[i] = x.Enemy + ">" + x.Survivor
	}
	return out
}

// rtActivate resolves an activation card to its end and fails on error.
// Each attack is recorded and the turn resumed without a fight, so the
// state changes only by the enemies' own actions (rtTurn fights them).
func rtActivate(t *testing.T, c *models.Content, st State, card string) (State, rtActivation, []Outcome) {
	t.Helper()
	st, out, err := Activate(c, st, card)
	if err != nil {
		t.Fatalf("Activate(%s): %v", card, err)
	}
	var act rtActivation
	for {
		a, ok := st.Waiting()
		if !ok {
			return st, act, out
		}
		act.Attacks = append(act.Attacks, a)
		var o []Outcome
		st, o, err = ResumeTurn(c, st)
		if err != nil {
			t.Fatalf("ResumeTurn after %+v: %v", a, err)
		}
		out = append(out, o...)
	}
}

// rtTurn resolves an activation card to its end, fighting each attack with
// the next roll of faces (V.A.T.S. face ids) and resuming the turn after
// it. It fails if the turn attacks more or fewer times than rolls given.
func rtTurn(t *testing.T, c *models.Content, st State, card string, rolls ...[]string) (State, rtActivation, []Outcome) {
	t.Helper()
	st, out, err := Activate(c, st, card)
	if err != nil {
		t.Fatalf("Activate(%s): %v", card, err)
	}
	var act rtActivation
	for {
		a, ok := st.Waiting()
		if !ok {
			break
		}
		act.Attacks = append(act.Attacks, a)
		if len(act.Attacks) > len(rolls) {
			t.Fatalf("attack %d (%s>%s) but only %d rolls; outcomes %v", len(act.Attacks), a.Enemy, a.Survivor, len(rolls), rtKinds(out))
		}
		var o []Outcome
		st, _, o = rtFight(t, c, st, FightInput{Survivor: a.Survivor, Enemy: a.Enemy, Faces: rtVATS(t, c, rolls[len(act.Attacks)-1]...)})
		out = append(out, o...)
		st, o, err = ResumeTurn(c, st)
		if err != nil {
			t.Fatalf("ResumeTurn after %+v: %v", a, err)
		}
		out = append(out, o...)
	}
	if len(act.Attacks) != len(rolls) {
		t.Fatalf("attacks %v, want %d", rtAttacks(act), len(rolls))
	}
	return st, act, out
}

// rtFight resolves a fight and fails on error.
func rtFight(t *testing.T, c *models.Content, st State, in FightInput) (State, FightResult, []Outcome) {
	t.Helper()
	st, res, out, err := Fight(c, st, in)
	if err != nil {
		t.Fatalf("Fight(%+v): %v", in, err)
	}
	return st, res, out
}

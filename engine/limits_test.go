package engine

import (
	"strings"
	"testing"
)

// Counters a group changes by hand stay within their bounds: a change that
// would pass one is refused with the bound named, and the state is kept,
// whatever the event log holds (typed lines are bounded earlier, by the
// parser; events stored as JSON reach the engine unchecked).
func TestLimitsRefuseAndKeepState(t *testing.T) {
	c := rtContent(t)
	st := rtGame(t, c)
	refused := func(name string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error with %q, got %v", name, want, err)
		}
	}
	_, _, err := SetEnemyCount(c, st, "ghoul", 100000000)
	refused("enemies ghoul 100000000", err, "0 … 60")
	_, _, err = SetGoals(c, st, 999999999999)
	refused("setgoals 999999999999", err, "0 … 50")
	_, _, err = Adjust(c, st, "ann", "hp", -1<<62)
	refused("hp -2^62", err, "-1000 … 1000")
	_, _, err = AddCamps(c, st, 1<<40)
	refused("camps 2^40", err, "-1000 … 1000")
	_, _, err = Power(c, st, "railroad", 1<<40, "")
	refused("power railroad 2^40", err, "0 … 1000")

	// XP added in allowed steps stops at the most kept instead of wrapping.
	for range MaxXP/MaxStep + 1 {
		next, _, err := Adjust(c, st, "ann", "xp", MaxStep)
		if err != nil {
			refused("xp past the most kept", err, "99999")
			break
		}
		st = next
	}
	if ann := st.Survivors[st.Survivor("ann")]; ann.XP > MaxXP || ann.XP < MaxXP-MaxStep {
		t.Errorf("Ann has %d XP, want just under %d", ann.XP, MaxXP)
	}

	// Enemies: a count up to the bound is kept; one token more is refused.
	st, _, err = SetEnemyCount(c, st, "ghoul", MaxEnemies)
	if err != nil || len(st.Enemies) != MaxEnemies {
		t.Fatalf("enemies ghoul %d: %v (%d on the map)", MaxEnemies, err, len(st.Enemies))
	}
	_, _, err = AddEnemy(c, st, EnemySpec{Type: "ghoul"})
	refused("one enemy past the bound", err, "60 enemies")
	_, _, err = SetEnemyCount(c, st, "raider", 1)
	refused("another type past the bound", err, "more than the 60")
}

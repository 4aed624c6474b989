package tracker

import (
	"slices"
	"strings"
	"testing"

	"tablecam/engine/warfare"
)

// seed 002 ch. 6 "Livello di Luce" (lines 1904–1943): at dawn and dusk
// "Tirare 1d10 alla fine di ogni turno", a 10 changes the light; day and
// darkness roll nothing. So the end of turn — the dashboard's "endturn"
// button sends the line without a reading — waits for the camera's d10 only
// at dawn and dusk; at day and in darkness the turn ends at once.
func TestSeed002EndTurnRollsOnlyAtDawnAndDusk(t *testing.T) {
	c := testContent(t)
	for _, tc := range []struct {
		light string
		rolls bool
	}{{"", false}, {"light day", false}, {"light darkness", false}, {"light dawn", true}, {"light dusk", true}} {
		t.Run("setup warfare "+tc.light, func(t *testing.T) {
			_, s := newSession(t, c, "en")
			submitLines(t, s, strings.TrimSpace("setup warfare "+tc.light))
			if got := s.Game().Suggested(c); !slices.Contains(got, "endturn") {
				t.Fatalf("the dashboard offers %v", got)
			}
			got := submitLines(t, s, "endturn")
			if !tc.rolls {
				if s.Game().Pending != nil || s.Game().Warfare.Turn != 2 || len(got[0]) != 1 || !strings.HasPrefix(got[0][0], "Turn 2.") || strings.Contains(got[0][0], "light") {
					t.Fatalf("endturn: %q, pending %+v, turn %d", got[0], s.Game().Pending, s.Game().Warfare.Turn)
				}
				// A d10 the camera sees now is no light roll: it is
				// announced by its face, and the light stays.
				before := s.Game().Warfare.Light
				submitLines(t, s, "roll d10 0")
				if s.Game().Warfare.Light != before || s.Game().Warfare.Turn != 2 {
					t.Errorf("a stray d10 changed the light to %q (turn %d)", s.Game().Warfare.Light, s.Game().Warfare.Turn)
				}
				return
			}
			if w := got[0]; len(w) != 1 || w[0] != "Roll the d10 for endturn." || s.Game().Pending == nil || s.Game().Warfare.Turn != 1 {
				t.Fatalf("endturn at %s: %q, pending %+v", tc.light, w, s.Game().Pending)
			}
			got = submitLines(t, s, "roll d10 0")
			want := map[string]warfare.Light{"light dawn": warfare.Day, "light dusk": warfare.Darkness}[tc.light]
			if s.Game().Warfare.Light != want || s.Game().Warfare.Turn != 2 || !strings.Contains(got[0][0], "The light changes") {
				t.Errorf("a 10 at %s: %q, light %q", tc.light, got[0], s.Game().Warfare.Light)
			}
			if r := Replay(c, s.Events()); !sameGame(r, s.Game()) {
				t.Error("clean replay differs from the live session")
			}
		})
	}
	// A typed reading is taken at any light; at day it changes nothing.
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup warfare", "endturn 0")
	if g := s.Game().Warfare; g.Turn != 2 || g.Light != warfare.Day {
		t.Errorf("endturn 0 at day: turn %d, light %q", g.Turn, g.Light)
	}
	// The engine's guard: at dusk the end of turn without its d10 is refused
	// rather than read as a 10.
	_, s = newSession(t, c, "en")
	submitLines(t, s, "setup warfare light dusk")
	ev, _, _ := ParseLine(c, "endturn")
	if _, _, err := applyMove(s.Game(), ev); err == nil || !strings.Contains(err.Error(), "d10 for the light") {
		t.Errorf("endturn at dusk without a reading: %v", err)
	}
}

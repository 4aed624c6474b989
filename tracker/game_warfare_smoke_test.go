package tracker

import (
	"slices"
	"strings"
	"testing"
)

// seed 002 ch. 4 "Fumo" (lines 799–803): "Tirare 1d10 per ogni nuvola
// presente sul tabellone. Con un tiro di 5 o più, la nuvola sparisce."
// The clouds the group places (clouds N; a smoke grenade places 2, or 3:
// Appendix C "Granata, Fumogena") are counted down as they clear; the smoke
// roll is offered while one is on the table and waits for the camera's d10;
// undo gives a cleared cloud back; the German sentences say the same.
func TestSeed002SmokeCloudsClear(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup warfare a vault b raiders")
	if slices.Contains(s.Game().Suggested(c), "smoke") {
		t.Fatalf("smoke offered without a cloud: %v", s.Game().Suggested(c))
	}
	got := submitLines(t, s, "clouds 3", "smoke 4", "smoke")
	want := [][]string{
		{"Smoke clouds on the table: 3. In the environment phase a d10 for each: 5 or more clears it."},
		{"Smoke: 4, the cloud stays; smoke clouds left: 3."},
		{"Roll the d10 for smoke."},
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if st := s.Summary(); !strings.Contains(st, "Smoke      clouds on the table: 3") {
		t.Errorf("the state does not show the clouds:\n%s", st)
	}
	// The camera's d10: a 0 reads 10 and clears the cloud.
	if got := submitLines(t, s, "roll d10 0"); got[0][0] != "Smoke: 10, the cloud clears; smoke clouds left: 2." {
		t.Errorf("the camera's 0: %q", got)
	}
	submitLines(t, s, "smoke 5", "smoke 7")
	if g := s.Game().Warfare; g.Clouds != 0 || slices.Contains(s.Game().Suggested(c), "smoke") {
		t.Errorf("after three clear: %d clouds, offered %v", g.Clouds, s.Game().Suggested(c))
	}
	submitLines(t, s, "undo")
	if g := s.Game().Warfare; g.Clouds != 1 || !slices.Contains(s.Game().Suggested(c), "smoke") {
		t.Errorf("undo: %d clouds, offered %v", g.Clouds, s.Game().Suggested(c))
	}
	if r := Replay(c, s.Events()); !sameGame(r, s.Game()) {
		t.Error("clean replay differs from the live session")
	}
	// A smoke roll the group makes without counting the clouds is said as
	// before, and tracks nothing.
	_, s = newSession(t, c, "en")
	if got := submitLines(t, s, "setup warfare", "smoke 2"); got[1][0] != "Smoke: 2, the cloud stays." || s.Game().Warfare.Clouds != 0 {
		t.Errorf("untracked smoke: %q, %d clouds", got[1], s.Game().Warfare.Clouds)
	}
	_, s = newSession(t, c, "de")
	got = submitLines(t, s, "setup warfare", "clouds 2", "smoke 6", "smoke 9")
	wantDE := []string{"Rauchwolken auf dem Tisch: 2. In der Umweltphase ein W10 für jede: ab 5 verzieht sie sich.",
		"Rauch: 6, die Wolke verzieht sich; noch 1 Rauchwolke.", "Rauch: 9, die Wolke verzieht sich; kein Rauch mehr."}
	for i, w := range wantDE {
		if got[i+1][0] != w {
			t.Errorf("de: %q, want %q", got[i+1][0], w)
		}
	}
}

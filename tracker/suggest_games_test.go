package tracker

import (
	"slices"
	"strings"
	"testing"
)

// The dashboard's buttons of another game follow the game: the step's
// rolls and the next step in This War of Mine (seed 004 "Sonnenuntergang —
// Durst", "Lärmanzeiger setzen", "Der Tod wandelt unter uns": Dawn does not
// end before its roll), the turn's rolls in Warfare (seed 002 ch. 4 "Tirare
// per l'Iniziativa"; the smoke roll only while clouds are on the table), the luck uses legal now in Wasteland Warfare (seed
// 001 "Genauigkeit": after a failed test only). Every suggested line
// parses.
func TestSuggestedLines(t *testing.T) {
	c := testContent(t)
	for _, tc := range []struct {
		script string
		want   []string
		not    []string
	}{
		{"setup twom players 1 anna:4 bruno:7\nnext\nnext\nnext\nnext\n", []string{"thirst anna", "thirst bruno", "next"}, []string{"noisetest"}},
		{"setup twom players 1 anna:4 bruno:7\n" + strings.Repeat("next\n", 9), []string{"noisetest", "noise +1", "next"}, []string{"thirst anna"}},
		{"setup twom players 1 anna:4 bruno:7\nlose bruno\n" + strings.Repeat("next\n", 20), []string{"deathwalks"}, []string{"next"}},
		{"setup warfare a vault b raiders\n", []string{"lightroll", "initiative", "endturn"}, nil},
		{"setup warfare a vault b raiders\ninitiative 7 4\n", []string{"endturn"}, []string{"initiative", "lightroll", "smoke"}},
		// seed 002 ch. 4 "Fumo" (lines 799–803): a d10 for each cloud on
		// the table, 5 or more clears it; no roll without a cloud.
		{"setup warfare a vault b raiders\nclouds 2\n", []string{"smoke", "endturn"}, nil},
		{"setup warfare a vault b raiders\nclouds 2\nsmoke 5\n", []string{"smoke"}, nil},
		{"setup warfare a vault b raiders\nclouds 2\nsmoke 5\nsmoke 4\nsmoke 9\n", []string{"endturn"}, []string{"smoke"}},
		{"setup warfare a vault b raiders\nclouds 2\nclouds 0\n", nil, []string{"smoke"}},
		{"setup wasteland nora:2 raider:1\nskill nora 5 7\n", []string{"luck accuracy luck", "luck accuracy blank", "done"}, []string{"luck dodge luck"}},
		{"setup wasteland nora:2 raider:1\n", nil, []string{"done"}},
	} {
		_, s := newSession(t, c, "en")
		runScript(t, s, c, tc.script)
		got := s.Game().Suggested(c)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: suggested %v, want %q", tc.script, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("%q: suggested %v, not %q", tc.script, got, w)
			}
		}
		for _, line := range got {
			if _, _, err := ParseLine(c, line); err != nil {
				t.Errorf("suggested %q does not parse: %v", line, err)
			}
		}
	}
}

// With the combat dice taught, the raid's buttons offer each guard's roll
// until it is in (seed 004 "Wachen und Waffen": a die per guard).
func TestSuggestedGuardRolls(t *testing.T) {
	c := withCombatSets(t)
	_, s := newSession(t, c, "en")
	lines := []string{"setup twom players 1 anna:4:1 bruno:7:1"}
	lines = append(lines, strings.Split(strings.Repeat("next\n", 6), "\n")[:6]...)
	lines = append(lines, "tasks anna:guard bruno:guard")
	lines = append(lines, strings.Split(strings.Repeat("next\n", 7), "\n")[:7]...)
	lines = append(lines, "raid 2 1", "guardroll anna 1")
	submitLines(t, s, lines...)
	got := s.Game().Suggested(c)
	if !slices.Contains(got, "guardroll bruno") || slices.Contains(got, "guardroll anna") || !slices.Contains(got, "defend") {
		t.Errorf("raid buttons %v, want bruno's roll and defend", got)
	}
	if got := s.Game().Suggested(testContent(t)); slices.Contains(got, "guardroll bruno") {
		t.Errorf("a guard's roll offered without the combat dice taught: %v", got)
	}
}

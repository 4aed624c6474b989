package tracker

import (
	"strings"
	"testing"
)

// seed 004 "Kampfregeln": an enemy's wounds go on the fighting characters
// as the group chooses, raising their wounds status; a character's go on
// the enemies' markers. combat … enemy on NAME applies the first.
func TestSeed004CombatWoundsOnACharacter(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	got := submitLines(t, s, "setup twom players 1 anna:4:1 bruno:7:1", "combat pistol 2 enemy on bruno")
	if w := got[1]; len(w) != 2 || w[1] != "bruno: wounds up to 2." {
		t.Errorf("an enemy's 2 wounds on bruno: %q", w)
	}
	for line, want := range map[string]string{
		"combat knife 1 on bruno":       "a character's wounds go on the enemies",
		"combat knife 1 enemy on carla": "carla",
	} {
		ev, _, err := ParseLine(c, line)
		if err == nil {
			_, err = s.Submit(t.Context(), ev)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
	// A character's wounds move the enemies' markers on the combat table.
	got = submitLines(t, s, "combat knife 2")
	if w := got[0]; len(w) != 1 || w[0] != "2 wounds: each moves an enemy's marker one column right on the combat table." {
		t.Errorf("a character's 2 wounds: %q", w)
	}
	// No symbols: nothing changes for the character.
	got = submitLines(t, s, "combat knife 0 enemy on anna")
	if w := got[0]; len(w) != 1 {
		t.Errorf("a miss on anna: %q", w)
	}
}

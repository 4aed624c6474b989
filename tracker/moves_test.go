package tracker

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every game command's name is its own: a line parses without knowing the
// session's game.
func TestGameCommandNamesAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, c := range Commands() {
		if prev, ok := seen[c.Name]; ok {
			t.Errorf("%s is a command twice (%q, %q)", c.Name, prev, c.Usage)
		}
		seen[c.Name] = c.Usage
	}
}

// A bad line of another game names what is wrong and the syntax.
func TestGameLineErrors(t *testing.T) {
	c := testContent(t)
	for line, want := range map[string]string{
		"noisetest 11":             `noisetest: roll: a d10 reads 0 to 10 (0 is 10), got "11"`,
		"check":                    "check: STAT is missing: usage: check STAT ROLL [mod +N|-N]",
		"lightroll 9":              "lightroll: give all 2 readings, or none for the camera to read: usage: lightroll ROLL1 ROLL2",
		"empathy 11 anna":          `empathy: roll: a d10 reads 0 to 10 (0 is 10), got "11"`,
		"status anna joy +1":       `status: marker must be fatigue, wounds, misery, hunger, illness, got "joy"`,
		"melee 6 2 2 sideways":     `melee: unexpected "sideways": usage: melee STRENGTH AC ROLL [behind] [charge] [moving]`,
		"skill nora 5 y":           `skill: skill die face "y": want a number 1–20, ap, crit or x`,
		"setup twom anna":          `setup: character "anna": want NAME:EMPATHY[:STRENGTH[:INVENTORY]]`,
		"setup wasteland nora:11":  "setup: unit nora: LUC must be 0 … 10, got 11",
		"victory 100,20:gone 50":   `victory: unit "20:gone": fate "gone" is not alive, retreated, destroyed or wrongedge`,
		"tasks anna:sleep":         `tasks: task "anna:sleep": want NAME:bed|floor|guard|scavenge`,
		"check 7 3 mod +2 mod +1":  "check: mod given twice: usage: check STAT ROLL [mod +N|-N]",
		"initiative 3 4 luck_a":    "initiative: luck_a needs a value: usage: initiative ROLL_A ROLL_B [luck_a N] [luck_b N]",
		"luck accuracy maybe":      "luck: a luck token shows luck or blank, got \"maybe\"",
		"setup warfare light dark": "setup: light must be dawn, day, dusk, darkness, got \"dark\"",
	} {
		_, _, err := ParseLine(c, line)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", line, err, want)
		}
	}
}

// The history writes a move back as the line that makes it.
func TestMoveLineRoundTrips(t *testing.T) {
	c := testContent(t)
	for _, g := range []string{"twom", "warfare", "wasteland"} {
		evs, err := ParseFile(c, g, strings.NewReader(readFile(t, filepath.Join("..", "testdata", "games", g+".events"))))
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.Move == nil {
				continue
			}
			back, _, err := ParseLine(c, moveLine(ev))
			if err != nil || !reflect.DeepEqual(back, ev) {
				t.Errorf("%q parses to %+v (%v), want %+v", moveLine(ev), back, err, ev)
			}
		}
	}
}

// A correction of another game replaces the move's die reading, and only a
// move that reads a die can be corrected.
func TestGameCorrections(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	runScript(t, s, c, "setup warfare\ncheck 7 3\nlight dusk\n")
	for line, want := range map[string]string{
		"correct 3 4":   "correct: light reads no die",
		"correct 2 4 5": "correct: check reads 1 die; give 1",
		"correct 2 11":  `correct: a d10 reads 0 to 10 (0 is 10), got "11"`,
	} {
		ev, _, err := ParseLine(c, line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Submit(context.Background(), ev); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", line, err, want)
		}
	}
	out := runScript(t, s, c, "correct 2 0\n")
	if len(out) != 2 || out[1] != "Test: rolled 10 against 7: failure (a 10 always fails)." {
		t.Errorf("correction announced %q", out)
	}
}

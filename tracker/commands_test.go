package tracker

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tablecam/engine"
)

// Every command of the table parses its examples, and the event written
// back as a line parses to the same event; an alias parses as its command.
func TestCommandsRoundTrip(t *testing.T) {
	c := testContent(t)
	for _, x := range commands() {
		if !strings.HasPrefix(x.usage, x.name) {
			t.Errorf("%s: usage %q does not start with the command", x.name, x.usage)
		}
		if len(x.examples) == 0 {
			t.Errorf("%s: no example", x.name)
		}
		for _, line := range x.examples {
			ev, ok, err := ParseLine(c, line)
			if err != nil || !ok {
				t.Errorf("%q: ok %v, %v", line, ok, err)
				continue
			}
			back := eventLine(ev)
			if w := strings.Fields(back)[0]; w != x.name {
				t.Errorf("%q is written back as %q, a line of %s", line, back, w)
			}
			again, ok, err := ParseLine(c, back)
			if err != nil || !ok || !reflect.DeepEqual(again, ev) {
				t.Errorf("%q → %q parses to %+v (%v), want %+v", line, back, again, err, ev)
			}
			for _, a := range x.aliases {
				alias := a + strings.TrimPrefix(line, x.name)
				if got, _, err := ParseLine(c, alias); err != nil || !reflect.DeepEqual(got, ev) {
					t.Errorf("%q parses to %+v (%v), want %+v as %q does", alias, got, err, ev, line)
				}
			}
		}
	}
}

// The help lists every command of the table with its usage and a summary
// in each language, before the other games' commands.
func TestHelpListsTheCommandTable(t *testing.T) {
	table := commands()
	for _, lang := range []string{"en", "de"} {
		cat, err := NewCatalog(lang)
		if err != nil {
			t.Fatal(err)
		}
		help := cat.Commands()
		if len(help) < len(table) {
			t.Fatalf("%s: help lists %d commands, the table has %d", lang, len(help), len(table))
		}
		for i, x := range table {
			if h := help[i]; h.Name != x.name || h.Usage != x.usage || h.Summary == "" {
				t.Errorf("%s: help line %d is %+v, want %s %q with a summary", lang, i, h, x.name, x.usage)
			}
		}
	}
}

// A bad line gets the same error as the command's own checks give it, in
// English and in German: the shape of the arguments, then each value.
func TestCommandErrors(t *testing.T) {
	c := testContent(t)
	de, err := NewCatalog("de")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, en, de string }{
		{"bogus 1", "bogus: unknown command (type help for the list)", "bogus: unbekannter Befehl (help listet die Befehle)"},
		{"done now", "done: usage: done", "done: Aufruf: done"},
		{"fertig now", "done: usage: done", "done: Aufruf: done"},
		{"nocontext now", "nocontext: usage: nocontext", "nocontext: Aufruf: nocontext"},
		{"card", "card: usage: card CARD-ID", "card: Aufruf: card CARD-ID"},
		{"first a b", "first: usage: first SURVIVOR", "first: Aufruf: first SURVIVOR"},
		{"test alice", "test: usage: test SURVIVOR DIFFICULTY [LETTERS] [rerolls N]",
			"test: Aufruf: test SURVIVOR DIFFICULTY [LETTERS] [rerolls N]"},
		{"test alice 31", "test: difficulty must be 0 … 30, got 31", "test: die Schwierigkeit muss 0 … 30 sein, nicht 31"},
		{"test alice x", `test: difficulty must be a whole number, got "x"`, "test: die Schwierigkeit muss eine ganze Zahl sein, nicht \"x\""},
		{"fight a e1 rerolls 11", "fight: rerolls must be 0 … 10, got 11", "fight: die Zahl der Neuwürfe muss 0 … 10 sein, nicht 11"},
		{"fight a e1 assist", "fight: usage: fight SURVIVOR ENEMY [assist SURVIVOR] [draw] [rerolls N]",
			"fight: Aufruf: fight SURVIVOR ENEMY [assist SURVIVOR] [draw] [rerolls N]"},
		{"roll", "roll: no faces: usage: roll [SET] FACE... [assist FACE] [frame REF]",
			"roll: keine Würfelseiten; Aufruf: roll [SET] FACE... [assist FACE] [frame REF]"},
		{"roll head frame", "roll: frame needs a value", "roll: frame braucht einen Wert"},
		{"correct 0 head", `correct: SEQ must be an event number, got "0"`, "correct: SEQ muss eine Ereignisnummer sein, nicht \"0\""},
		{"reroll", "reroll: usage: reroll DIE:FACE... (DIE 1..n, 0 = assist die)",
			"reroll: Aufruf: reroll DIE:FACE... (DIE 1..n, 0 = assist die)"},
		{"reroll head", `reroll: "head" is not DIE:FACE (e.g. 2:legs)`, "reroll: \"head\" ist nicht WÜRFEL:SEITE (z. B. 2:legs)"},
		{"power a b c", "power: usage: power [FACTION] +N", "power: Aufruf: power [FACTION] +N"},
		{"power x", `power: power must be a whole number, got "x"`, "power: die Zahl der Felder muss eine ganze Zahl sein, nicht \"x\""},
		{"setgoals 99", fmt.Sprintf("setgoals: setgoals must be 0 … %d, got 99", engine.MaxGoals),
			fmt.Sprintf("setgoals: setgoals muss 0 … %d sein, nicht 99", engine.MaxGoals)},
		{"hp alice 0", "hp: a change of 0 changes nothing", "hp: eine Änderung um 0 ändert nichts"},
		{"xp alice", "xp: usage: xp SURVIVOR +N|-N", "xp: Aufruf: xp SURVIVOR +N|-N"},
		{"set alice", "set: usage: set SURVIVOR rested|loyal|special|armor|ranged VALUE",
			"set: Aufruf: set SURVIVOR rested|loyal|special|armor|ranged VALUE"},
		{"enemies raider -1", fmt.Sprintf("enemies: the enemy count must be 0 … %d, got -1", engine.MaxEnemies),
			fmt.Sprintf("enemies: die Zahl der Gegner muss 0 … %d sein, nicht -1", engine.MaxEnemies)},
		{"enemy remove e1 active", "enemy: usage: enemy remove ENEMY", "enemy: Aufruf: enemy remove ENEMY"},
		{"enemy add raider as", "enemy: as needs a value", "enemy: as braucht einen Wert"},
		{"setup x loyal y survivors", "setup: usage: setup SCENARIO loyal FACTION survivors ID[:HP[:SPECIAL]]... [first ID]",
			"setup: Aufruf: setup SCENARIO loyal FACTION survivors ID[:HP[:SPECIAL]]... [first ID]"},
		{"setup x loyal y survivors a first", "setup: first needs a survivor id", "setup: first braucht die Kennung eines Überlebenden"},
	} {
		ev, ok, err := ParseLine(c, tc.line)
		if err == nil || ok || !reflect.DeepEqual(ev, Event{}) {
			t.Errorf("%q: %+v, ok %v, err %v; want no event and an error", tc.line, ev, ok, err)
			continue
		}
		if err.Error() != tc.en {
			t.Errorf("%q:\n got  %s\n want %s", tc.line, err, tc.en)
		}
		if got := de.Error(err); got != tc.de {
			t.Errorf("%q in German:\n got  %s\n want %s", tc.line, got, tc.de)
		}
	}
}

package models

import (
	"strings"
	"testing"
)

// The content pack holds the three other games' dice, tokens and phases
// (issue 42 "The shape": a game's content as data).
func TestGamesContentLoads(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"twom", "warfare", "wasteland"} {
		g, ok := c.Game(id)
		if !ok || len(g.Dice) == 0 || g.Seed == "" {
			t.Errorf("game %q: %+v", id, g)
		}
	}
	twom, _ := c.Game("twom")
	black, _ := twom.Die("black")
	if ids := black.FaceIDs(c); len(ids) != 10 {
		t.Errorf("the black die shows the d10's faces, got %v", ids)
	}
	if red, _ := twom.Die("red"); len(red.FaceIDs(c)) < 2 || red.Note == "" {
		t.Errorf("the red combat die inherits the note of the YAML anchor: %+v", red)
	}
}

// An override replaces a game whole and is checked: ids unique, a die with
// a set or faces, table rows without gaps.
func TestGamesContentValidates(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"games:\n  - {id: g, dice: [{id: a, set: d10}, {id: a, set: d10}]}\n", `die "a" appears twice`},
		{"games:\n  - {id: g, dice: [{id: a}]}\n", "give its face set or at least 2 faces"},
		{"games:\n  - id: g\n    dice: [{id: a, set: d10}]\n    tables: [{id: t, roll: 2d10, rows: [{id: x, from: 2, to: 5}, {id: y, from: 7, to: 9}]}]\n", "without a gap"},
	} {
		c, err := DefaultContent()
		if err != nil {
			t.Fatal(err)
		}
		err = c.MergeYAML("override.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.want)
		}
	}
	c, _ := DefaultContent()
	if err := c.MergeYAML("o.yaml", []byte("games:\n  - {id: twom, dice: [{id: black, set: d10}]}\n")); err != nil {
		t.Fatal(err)
	}
	if g, _ := c.Game("twom"); len(g.Dice) != 1 || len(g.Phases) != 0 {
		t.Errorf("the override did not replace the game whole: %+v", g)
	}
}

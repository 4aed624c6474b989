package tracker

import (
	"slices"
	"strings"
	"testing"

	"tablecam/models"
)

// withCombatSets is the content with the combat dice taught under their
// set names, faces as the content's games.yaml lists them.
func withCombatSets(t *testing.T) *models.Content {
	t.Helper()
	base := testContent(t)
	c := *base
	c.FaceSets = slices.Clone(base.FaceSets)
	g, _ := base.Game(GameTwom)
	for _, colour := range []string{"grey", "yellow", "red"} {
		d, _ := g.Die(colour)
		fs := models.FaceSet{ID: d.Set, Name: colour + " combat die", Kind: models.KindSymbol}
		for _, f := range d.Faces {
			fs.Faces = append(fs.Faces, models.Face{ID: f.ID, Hits: f.Symbols})
		}
		c.FaceSets = append(c.FaceSets, fs)
	}
	return &c
}

// A combat die typed without its face waits for the camera's die of the
// weapon's colour (seed 004 "Wachen und Waffen": grey unarmed, yellow melee,
// red firearms); the face read resolves it as the typed face would: the
// hatchet's face with a hatchet kills outright (seed 004 "Waffen"), a
// guard's pistol reads the red die in the night raid.
func TestSeed004CombatDiceReadByTheCamera(t *testing.T) {
	c := withCombatSets(t)
	if d, _ := mustGame(t, c).Die("red"); d.Set != SetCombatPrefix+"red" {
		t.Fatalf("the red die's set is %q", d.Set)
	}
	if sets := GameDiceSets(c, GameTwom); !slices.Equal(sets, []string{SetD10, "twom-grey", "twom-yellow", "twom-red"}) {
		t.Errorf("the camera looks for %v in This War of Mine", sets)
	}
	_, s := newSession(t, c, "en")
	got := submitLines(t, s, "setup twom players 1 anna:4:1 bruno:7:1", "combat hatchet", "roll twom-yellow hatchet")
	_, ref := newSession(t, c, "en")
	want := submitLines(t, ref, "setup twom players 1 anna:4:1 bruno:7:1", "combat hatchet hatchet")
	if w := got[1]; len(w) != 1 || w[0] != "Roll the yellow combat die for combat hatchet." {
		t.Errorf("waiting: %q", w)
	}
	if strings.Join(got[2], "|") != strings.Join(want[1], "|") || !strings.Contains(want[1][0], "kill outright") {
		t.Errorf("camera %q\ntyped %q", got[2], want[1])
	}
	raid := []string{"setup twom players 1 anna:4:1 bruno:7:1"}
	for range 6 {
		raid = append(raid, "next")
	}
	raid = append(raid, "tasks anna:guard bruno:scavenge")
	for range 6 {
		raid = append(raid, "next")
	}
	raid = append(raid, "arm anna pistol", "next", "raid 1 1", "guardroll anna")
	_, s = newSession(t, c, "en")
	got = submitLines(t, s, raid...)
	if w := got[len(got)-1]; len(w) != 1 || w[0] != "Roll the red combat die for guardroll anna." {
		t.Errorf("guard waiting: %q", w)
	}
	got = submitLines(t, s, "roll twom-red 2", "defend")
	if len(got[0]) != 1 || !strings.HasPrefix(got[0][0], "anna (discard 1 ammunition): 2 symbols") {
		t.Errorf("guard's roll: %q", got[0])
	}
	if len(got[1]) != 1 || !strings.Contains(got[1][0], "nothing stolen, no wounds") {
		t.Errorf("defence: %q", got[1])
	}
	// A correction of the read face works as for any reading.
	if err := checkMoveFaces(&Move{Cmd: "guardroll"}, []string{"shotgun"}); err != nil {
		t.Errorf("correct to the shotgun face: %v", err)
	}
	if err := checkMoveFaces(&Move{Cmd: "guardroll"}, []string{"7"}); err == nil {
		t.Error("a combat face of 7 symbols")
	}
}

// Without a taught combat die, the line asks for the face typed.
func TestCombatDieWithoutASetAsksForTheFace(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup twom players 1 anna:4")
	ev, _, err := ParseLine(c, "combat knife")
	if err == nil {
		_, err = s.Submit(t.Context(), ev)
	}
	if err == nil || !strings.Contains(err.Error(), `"twom-yellow" face set`) {
		t.Errorf("combat knife without a yellow set: %v", err)
	}
	// A combat line stored before the face was a reading still applies.
	old := Event{Type: EvMove, Move: &Move{Game: GameTwom, Cmd: "combat", Args: map[string]string{"weapon": "knife", "symbols": "2", "enemy": "yes"}}}
	if line := moveLine(old); line != "combat knife 2 enemy" {
		t.Errorf("stored line writes back as %q", line)
	}
	if _, o, err := applyMove(s.Game(), old); err != nil || len(o) != 1 || o[0].Vars["wounds"] != 2 {
		t.Errorf("stored line applies as %v %v", o, err)
	}
}

func mustGame(t *testing.T, c *models.Content) models.GameContent {
	t.Helper()
	g, ok := c.Game(GameTwom)
	if !ok {
		t.Fatal("no twom in the content")
	}
	return g
}

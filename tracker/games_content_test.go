package tracker

// The other games' pieces in the content pack (models/content/games.yaml)
// are the ones their engines and command tables use: the Journal's steps,
// the weapons' combat dice, the status markers and tasks (seed 004), the
// light table and the d10 (seed 002), the skill die's faces and the luck
// token (seed 001).

import (
	"fmt"
	"slices"
	"testing"

	"tablecam/engine/twom"
	"tablecam/engine/warfare"
	"tablecam/engine/wasteland"
	"tablecam/models"
)

func contentGame(t *testing.T, c *models.Content, id string) models.GameContent {
	t.Helper()
	g, ok := c.Game(id)
	if !ok {
		t.Fatalf("content has no game %q", id)
	}
	return g
}

func contentToken(t *testing.T, g models.GameContent, id string) models.GameToken {
	t.Helper()
	tk, ok := g.Token(id)
	if !ok {
		t.Fatalf("game %s has no token %q", g.ID, id)
	}
	return tk
}

// seed 004 "Tagebuch" (7 phases, the steps from "Morgen" to "Spielstand
// sichern", "NÄCHSTER SPIELER" marks, script 10), "Wachen und Waffen"
// (grey unarmed, yellow melee, red firearms), "Statusmarker" (levels 1–4),
// "Abend" (4 tasks), "Lärmanzeiger setzen" (the marker starts at 1).
func TestSeed004ContentMatchesEngine(t *testing.T) {
	c := testContent(t)
	g := contentGame(t, c, GameTwom)
	var phases []string
	for _, p := range g.Phases {
		phases = append(phases, p.ID)
	}
	var engineSteps []models.GameStep
	var enginePhases []string
	for _, s := range twom.Journal() {
		engineSteps = append(engineSteps, models.GameStep{ID: s.ID, PassAfter: s.PassAfter, Script: s.Script})
		if !slices.Contains(enginePhases, string(s.Phase)) {
			enginePhases = append(enginePhases, string(s.Phase))
		}
	}
	if !slices.Equal(phases, enginePhases) || len(phases) != 7 {
		t.Errorf("content phases %v, engine %v (seed 004 line 5: 7 phases)", phases, enginePhases)
	}
	for i, p := range g.Phases {
		for _, s := range p.Steps {
			if j := slices.IndexFunc(twom.Journal(), func(x twom.Step) bool { return x.ID == s.ID }); j < 0 || string(twom.Journal()[j].Phase) != p.ID {
				t.Errorf("step %s is in content phase %d (%s), not the engine's", s.ID, i, p.ID)
			}
		}
	}
	if !slices.Equal(g.Steps(), engineSteps) {
		t.Errorf("content steps\n%v\nengine\n%v", g.Steps(), engineSteps)
	}
	weapons := contentToken(t, g, "weapon")
	for _, w := range weapons.Kinds {
		die, err := twom.DieFor(twom.Weapon(w))
		if err != nil || weapons.Dice[w] != string(die) {
			t.Errorf("weapon %s rolls %q in the content, %q (%v) in the engine", w, weapons.Dice[w], die, err)
		}
		if _, ok := g.Die(weapons.Dice[w]); !ok {
			t.Errorf("weapon %s rolls die %q that the content does not list", w, weapons.Dice[w])
		}
	}
	if !slices.Equal(weapons.Kinds, twomWeapons) {
		t.Errorf("content weapons %v, commands take %v", weapons.Kinds, twomWeapons)
	}
	status := contentToken(t, g, "status")
	if status.Levels != twom.MaxLevel || !slices.Equal(status.Kinds, twomStatuses) {
		t.Errorf("status markers %+v, engine levels to %d of %v", status, twom.MaxLevel, twomStatuses)
	}
	tasks := contentToken(t, g, "task")
	if !slices.Equal(tasks.Kinds, []string{string(twom.Bed), string(twom.Floor), string(twom.Guard), string(twom.Scavenge)}) {
		t.Errorf("tasks %v", tasks.Kinds)
	}
	if n := contentToken(t, g, "noise"); n.Start != 1 {
		t.Errorf("noise marker starts at %d, want 1 (line 298)", n.Start)
	}
	// Every combat face is one the engine judges: its symbols and mark.
	for _, id := range []string{"grey", "yellow", "red"} {
		d, _ := g.Die(id)
		if len(d.Faces) == 0 || !d.Assumed {
			t.Errorf("combat die %s: faces %v assumed %v (the per-face table is unconfirmed)", id, d.Faces, d.Assumed)
		}
		for _, f := range d.Faces {
			if f.Mark != "" && !slices.Contains(twomMarks, f.Mark) {
				t.Errorf("die %s face %s: mark %q is not one of %v", id, f.ID, f.Mark, twomMarks)
			}
			if _, err := twom.Roll(twom.Unarmed, twom.CombatFace{Symbols: f.Symbols, Mark: twom.Mark(f.Mark)}, false); err != nil {
				t.Errorf("die %s face %s: %v", id, f.ID, err)
			}
		}
	}
	if d, _ := g.Die("black"); d.Set != SetD10 {
		t.Errorf("the black die reads as %q, want the d10", d.Set)
	}
}

// seed 002 ch. 6 "Livello di Luce" (lines 1967–1975: 2–5 dawn, 6–16 day,
// 17–18 dusk, 19–20 darkness) and ch. 1 "Riguardo ai Dadi" (d10s only).
func TestSeed002ContentMatchesEngine(t *testing.T) {
	c := testContent(t)
	g := contentGame(t, c, GameWarfare)
	if len(g.Tables) != 1 || g.Tables[0].ID != "light" || g.Tables[0].Roll != "2d10" {
		t.Fatalf("tables %+v", g.Tables)
	}
	rows := g.Tables[0].Rows
	if rows[0].From != 2 || rows[len(rows)-1].To != 20 {
		t.Errorf("the 2d10 table covers %d … %d, want 2 … 20", rows[0].From, rows[len(rows)-1].To)
	}
	for _, r := range rows {
		for sum := r.From; sum <= r.To; sum++ {
			a := min(sum-1, 10)
			l, err := warfare.LightAtSetup(a%10, (sum-a)%10)
			if err != nil || lightName(l) != r.ID {
				t.Errorf("2d10 = %d: content %s, engine %q (%v)", sum, r.ID, lightName(l), err)
			}
		}
	}
	if light := contentToken(t, g, "light"); !slices.Equal(light.Kinds, warfareLights) {
		t.Errorf("light levels %v, commands take %v", light.Kinds, warfareLights)
	}
	if sets := GameDiceSets(c, GameWarfare); !slices.Equal(sets, []string{SetD10}) {
		t.Errorf("the camera looks for %v in Warfare, want the d10", sets)
	}
}

// seed 001 (the luck token: two sides, luck and blank; uses accuracy,
// dodge, toughness, extra critical) and rules-other-games.md (the skill die:
// 2–10, AP and Critical read 1, X fails).
func TestSeed001ContentMatchesEngine(t *testing.T) {
	c := testContent(t)
	g := contentGame(t, c, GameWasteland)
	d, ok := g.Die("skill")
	if !ok || d.Set != SetSkill || !d.Assumed {
		t.Fatalf("skill die %+v", d)
	}
	for _, f := range d.Faces {
		sf, err := wasteland.ParseFace(f.ID)
		if err != nil {
			t.Errorf("face %s: %v", f.ID, err)
			continue
		}
		v, passes := sf.Reads()
		if f.Value != v || passes != (f.Mark != "x") {
			t.Errorf("face %s: content value %d mark %q, engine reads %d (%v)", f.ID, f.Value, f.Mark, v, passes)
		}
	}
	luck := contentToken(t, g, "luck")
	if !slices.Equal(luck.Sides, []string{"luck", "blank"}) {
		t.Errorf("luck token sides %v", luck.Sides)
	}
	spec, _ := findSpec("luck")
	if got := fmt.Sprint(luck.Kinds); got != fmt.Sprint(spec.Args[0].Choices) {
		t.Errorf("luck uses %s, the luck command takes %v", got, spec.Args[0].Choices)
	}
	// No built-in skill face set: the camera reads the skill die once taught.
	if sets := GameDiceSets(c, GameWasteland); len(sets) != 0 {
		t.Errorf("the camera looks for %v without a skill set", sets)
	}
}

// `tablecam list GAME` shows the content's ids: the dice's faces, the
// tokens, the steps and the light table.
func TestGameIDsFromContent(t *testing.T) {
	c := testContent(t)
	find := func(game, what string) []string {
		for _, l := range GameIDs(c, game) {
			if l.What == what {
				return l.IDs
			}
		}
		t.Errorf("%s: no %q list in %v", game, what, GameIDs(c, game))
		return nil
	}
	if got := find(GameTwom, "red (twom-red)"); !slices.Contains(got, "out_of_ammo") {
		t.Errorf("red die faces %v", got)
	}
	if got := find(GameTwom, "journal steps"); len(got) != len(twom.Journal()) {
		t.Errorf("journal steps %v", got)
	}
	if got := find(GameWarfare, "light (2d10)"); !slices.Contains(got, "dusk 17-18") {
		t.Errorf("light table %v", got)
	}
	if got := find(GameWasteland, "skill"); !slices.Contains(got, "crit") {
		t.Errorf("skill faces %v", got)
	}
	// A list the content gave is not repeated under a command's word.
	seen := map[string]string{}
	for _, l := range GameIDs(c, GameTwom) {
		k := fmt.Sprint(l.IDs)
		if w, dup := seen[k]; dup {
			t.Errorf("%v listed as %s and %s", l.IDs, w, l.What)
		}
		seen[k] = l.What
	}
}

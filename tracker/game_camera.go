package tracker

import (
	"fmt"
	"slices"

	"tablecam/engine"
	"tablecam/models"
)

// A command of another game typed without its die readings waits for the
// camera, as a Fallout test or fight does: the move becomes the pending
// roll's context (CtxMove), and the next roll of its face set supplies the
// readings and resolves it through the game's engine.

// Face sets the other games' readings are read from.
const (
	// SetD10 is the numbered d10 of This War of Mine and Fallout: Warfare.
	SetD10 = "d10"
	// SetSkill is Wasteland Warfare's skill die: faces 2–10, ap, crit, x.
	// It is no built-in set; a group that teaches or adds it under this
	// id has its skill tests read by the camera.
	SetSkill = "skill"
	// SetCombatPrefix and a colour (grey, yellow, red) name This War of
	// Mine's combat dice: no built-in sets either; a group teaches each
	// under its name, faces 0, 1, 2, … and the special faces.
	SetCombatPrefix = "twom-"
	// SetLuck is Wasteland Warfare's luck token, sides luck and blank: no
	// built-in set either; a group that teaches its token under this id
	// has the side it shows read by the camera.
	SetLuck = "luck"
)

// Tracker-level outcome kinds of a move waiting for the camera.
const (
	KindMoveWaiting   = "move.waiting"   // vars line, set, dice
	KindMoveUncertain = "move.uncertain" // vars faces, seq
)

// GameDiceSets lists the face sets the camera looks for in a game (a game
// id of Games(); "" is Fallout: The Board Game): the sets of the game's
// dice in the content pack that the content has (Wasteland's skill die
// only once a group adds or teaches it), and of its two-sided tokens,
// whose face set is named by the token's id (Wasteland's luck token, once
// taught).
func GameDiceSets(c *models.Content, game string) []string {
	gc, ok := c.Game(game)
	if game == GameFallout || !ok {
		return []string{"vats", "assist"}
	}
	var sets []string
	add := func(set string) {
		if _, have := c.FaceSet(set); set != "" && have && !slices.Contains(sets, set) {
			sets = append(sets, set)
		}
	}
	for _, d := range gc.Dice {
		add(d.Set)
	}
	for _, t := range gc.Tokens {
		if len(t.Sides) == 2 {
			add(t.ID)
		}
	}
	return sets
}

// waitsForCamera reports whether a move reads dice but none were given
// (as readings, or in Args by an event stored before they were readings).
func waitsForCamera(ev Event) (moveSpec, bool) {
	if ev.Type != EvMove || ev.Move == nil || len(ev.Faces) > 0 {
		return moveSpec{}, false
	}
	s, ok := findSpec(ev.Move.Cmd)
	if !ok {
		return moveSpec{}, false
	}
	for _, a := range s.Args {
		if _, stored := ev.Move.Args[a.Name]; stored && isReading(a) {
			return moveSpec{}, false
		}
	}
	n, _ := s.readings()
	return s, n > 0
}

// readingSet is the face set a command's readings come from: a combat
// die's is that of the weapon's colour.
func readingSet(g Game, m *Move, s moveSpec) string {
	switch _, kind := s.readings(); kind {
	case argSkill:
		return SetSkill
	case argCombat:
		return combatSet(g, m)
	case argLuck:
		return SetLuck
	}
	return SetD10
}

// waitForRoll makes a move without its readings the pending roll, after
// checking the rest of it with stand-in readings (an unknown character is
// said now, not when the dice land).
func waitForRoll(c *models.Content, g Game, ev Event, s moveSpec) (Game, outs, error) {
	set := readingSet(g, ev.Move, s)
	if _, ok := c.FaceSet(set); !ok {
		return g, nil, fmt.Errorf("%s: the content has no %q face set for the camera to read; give the reading: usage: %s", s.Cmd, set, s.usage())
	}
	n, kind := s.readings()
	try := ev
	try.Faces = nil
	for range n {
		switch kind {
		case argSkill:
			try.Faces = append(try.Faces, "2")
		case argCombat:
			try.Faces = append(try.Faces, "0")
		case argLuck:
			try.Faces = append(try.Faces, "luck")
		default:
			try.Faces = append(try.Faces, "1")
		}
	}
	if _, _, err := applyMove(g, try); err != nil {
		return g, nil, err
	}
	g.Pending = &Pending{Context: RollContext{Kind: CtxMove, Move: ev.Move}, Set: set}
	return g, one(KindMoveWaiting, engine.Vars{"line": moveLine(ev), "set": set, "dice": n}), nil
}

// waitingMove is the move the pending roll completes, if any.
func waitingMove(g Game) (*Move, string, bool) {
	p := g.Pending
	if p == nil || p.Context.Kind != CtxMove || p.Context.Move == nil {
		return nil, "", false
	}
	return p.Context.Move, p.Set, true
}

// resolveMove applies the waiting move with the roll's faces as its
// readings. The roll is kept for the roll-proof trail like any other.
func resolveMove(c *models.Content, g Game, seq int64, ev Event, m *Move, set string) (Game, outs, error) {
	s, ok := findSpec(m.Cmd)
	if !ok {
		return g, nil, fmt.Errorf("unknown command %q", m.Cmd)
	}
	n, _ := s.readings()
	fs, err := faces(c, set, ev.Faces)
	if err != nil {
		return g, nil, err
	}
	if len(fs) != n {
		return g, nil, fmt.Errorf("%s reads %d %s, the roll has %d", m.Cmd, n, plural(n, "die", "dice"), len(fs))
	}
	g.Rolls = append(g.Rolls, RollRecord{Seq: seq, Set: set, Faces: ev.Faces, Source: ev.Source, Frame: ev.Frame})
	g.Pending = nil
	g, o, err := applyMove(g, Event{Type: EvMove, Move: m, Faces: ev.Faces})
	if err != nil {
		return g, nil, err
	}
	if len(ev.Uncertain) > 0 {
		var which []string
		for _, u := range ev.Uncertain {
			if u < 1 || u > len(fs) {
				return g, nil, fmt.Errorf("roll: uncertain die %d is not in the roll", u)
			}
			which = append(which, faceLabels(fs[u-1 : u])[0])
		}
		o = append(o, one(KindMoveUncertain, engine.Vars{"faces": which, "seq": seq})...)
	}
	return g, o, nil
}

// moveWaitMessages are the sentences of a move waiting for the camera.
func moveWaitMessages() map[string]map[string]string {
	return map[string]map[string]string{
		"en": {
			KindMoveWaiting: `{{if eq .set "` + SetLuck + `"}}Throw the luck token{{else}}Roll {{if gt .dice 1}}{{.dice}} × {{else}}the {{end}}` + pick("set", map[string]string{SetD10: "d10", SetSkill: "skill die",
				SetCombatPrefix + "grey": "grey combat die", SetCombatPrefix + "yellow": "yellow combat die", SetCombatPrefix + "red": "red combat die"}) + `{{end}} for {{.line}}.`,
			KindMoveUncertain: `Not sure of {{list .faces}}: correct reading {{.seq}} if it is wrong.`,
		},
		"de": {
			KindMoveWaiting: `{{if eq .set "` + SetLuck + `"}}Werft den Glücksmarker{{else}}Würfelt {{if gt .dice 1}}{{.dice}} × {{else}}den {{end}}` + pick("set", map[string]string{SetD10: "W10", SetSkill: "Fertigkeitswürfel",
				SetCombatPrefix + "grey": "grauen Kampfwürfel", SetCombatPrefix + "yellow": "gelben Kampfwürfel", SetCombatPrefix + "red": "roten Kampfwürfel"}) + `{{end}} für {{.line}}.`,
			KindMoveUncertain: `Unsicher: {{list .faces}}. Falls falsch, korrigiert Wurf {{.seq}}.`,
		},
	}
}

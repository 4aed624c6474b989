package tracker

import (
	"fmt"
	"strings"

	"tablecam/engine"
	"tablecam/models"
)

// entry is one logged event with its sequence number.
type entry struct {
	Seq int64
	Ev  Event
}

// Effective computes which logged events are in force: undo takes back the
// latest event still in force, redo restores the latest undone one, and any
// new event clears what could be redone. Corrections stay in the list; fold
// applies them to their target.
func Effective(log []entry) []entry {
	var applied, redo []int
	undone := make([]bool, len(log))
	for i, e := range log {
		switch e.Ev.Type {
		case EvUndo:
			undone[i] = true
			if len(applied) > 0 {
				k := applied[len(applied)-1]
				applied = applied[:len(applied)-1]
				undone[k] = true
				redo = append(redo, k)
			}
		case EvRedo:
			undone[i] = true
			if len(redo) > 0 {
				k := redo[len(redo)-1]
				redo = redo[:len(redo)-1]
				undone[k] = false
				applied = append(applied, k)
			}
		default:
			applied = append(applied, i)
			redo = redo[:0]
		}
	}
	out := make([]entry, 0, len(log))
	for i, e := range log {
		if !undone[i] {
			out = append(out, e)
		}
	}
	return out
}

// folded is the result of replaying a log.
type folded struct {
	Game Game
	// Out holds each applied event's outcomes by sequence number.
	Out map[int64]outs
	// Skipped holds events that no longer apply after a correction or undo.
	Skipped map[int64]error
}

// fold replays the effective events from an empty game (pure).
func fold(c *models.Content, eff []entry) folded {
	fixes := map[int64]Event{}
	for _, e := range eff {
		if e.Ev.Type == EvCorrect {
			fixes[e.Ev.Target] = e.Ev
		}
	}
	r := folded{Out: map[int64]outs{}, Skipped: map[int64]error{}}
	for _, e := range eff {
		ev := e.Ev
		if ev.Type == EvCorrect {
			continue
		}
		if f, ok := fixes[e.Seq]; ok {
			ev.Faces = f.Faces
			if f.Assist != "" {
				ev.Assist = f.Assist
			}
		}
		g, o, err := safeApply(c, r.Game, e.Seq, ev)
		if err != nil {
			r.Skipped[e.Seq] = err
			continue
		}
		r.Game, r.Out[e.Seq] = g, o
	}
	return r
}

// checkCorrection validates a correction against the log: the target must be
// a roll or reroll still in force, and the new faces must be readable.
func checkCorrection(c *models.Content, eff []entry, ev Event) error {
	for _, e := range eff {
		if e.Seq != ev.Target {
			continue
		}
		if e.Ev.Move != nil {
			return checkMoveFaces(e.Ev.Move, ev.Faces)
		}
		if e.Ev.Type != EvRoll && e.Ev.Type != EvReroll {
			return fmt.Errorf("correct: event %d is a %s, not a roll", ev.Target, e.Ev.Type)
		}
		set := e.Ev.Set
		if set == "" {
			set = "vats"
		}
		if e.Ev.Type == EvReroll && len(ev.Faces) != len(e.Ev.Faces) {
			return fmt.Errorf("correct: reroll %d changed %d dice; give %d faces", ev.Target, len(e.Ev.Faces), len(e.Ev.Faces))
		}
		if _, err := faces(c, set, ev.Faces); err != nil {
			return fmt.Errorf("correct: %w", err)
		}
		if ev.Assist != "" {
			if _, err := faces(c, "assist", []string{ev.Assist}); err != nil {
				return fmt.Errorf("correct: %w", err)
			}
		}
		return nil
	}
	return fmt.Errorf("correct: no roll %d in force (see the log for roll numbers)", ev.Target)
}

// describe is a short neutral description of an event for undo/redo, in
// the command syntax of the manual prompt.
func describe(ev Event) engine.Vars {
	what := ev.Type
	if ev.Move != nil {
		return engine.Vars{"type": ev.Type, "what": moveLine(ev)}
	}
	switch ev.Type {
	case EvRoll:
		what += " " + strings.Join(ev.Faces, " ")
		if ev.Assist != "" {
			what += " assist " + ev.Assist
		}
	case EvReroll:
		for i, d := range ev.Dice {
			what += fmt.Sprintf(" %d:%s", d, ev.Faces[i])
		}
	case EvCard:
		what += " " + ev.Card
	case EvAdjust:
		what = fmt.Sprintf("%s %s %+d", ev.Field, ev.Survivor, ev.N)
	case EvSet:
		what += " " + ev.Survivor + " " + ev.Field + " " + ev.Value
	case EvFirst:
		what += " " + ev.Survivor
	case EvPower:
		what = strings.TrimSpace(fmt.Sprintf("power %s +%d", ev.Faction, ev.N))
	case EvRetreat, EvSetPower, EvSetGoals, EvCamps:
		what += fmt.Sprintf(" %d", ev.N)
	case EvEnemy:
		what += " " + ev.Op + " " + ev.Enemy
		if ev.Name != "" {
			what += " as " + ev.Name
		}
	case EvEnemies:
		what += fmt.Sprintf(" %s %d", ev.Enemy, ev.N)
	case EvCorrect:
		what += fmt.Sprintf(" %d %s", ev.Target, strings.Join(ev.Faces, " "))
	case EvContext:
		if ev.Context != nil && ev.Context.Kind != "" {
			what = ev.Context.Kind + " " + ev.Context.Survivor
		}
	}
	return engine.Vars{"type": ev.Type, "what": what}
}

// safeApply is apply with a panic turned into an error, so one bad event
// can never make a stored log unreplayable.
func safeApply(c *models.Content, g Game, seq int64, ev Event) (ng Game, o outs, err error) {
	defer func() {
		if r := recover(); r != nil {
			ng, o, err = g, nil, fmt.Errorf("internal error applying %s: %v", ev.Type, r)
		}
	}()
	return apply(c, g, seq, ev)
}

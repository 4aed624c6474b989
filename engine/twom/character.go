package twom

import (
	"fmt"
	"maps"
)

// Status is a kind of status marker.
type Status string

// Status markers (seed 004 "Statusmarker": Erschöpfung, Verletzung,
// Traurigkeit, Hunger, Krankheit).
const (
	Fatigue Status = "fatigue"
	Wounds  Status = "wounds"
	Misery  Status = "misery"
	Hunger  Status = "hunger"
	Illness Status = "illness"
)

// MaxLevel is the highest status marker level; level 4 markers print
// special consequences (seed 004 "Statusmarker").
const MaxLevel = 4

// Task is what a character does at night (seed 004 "Abend").
type Task string

// Evening tasks.
const (
	Bed      Task = "bed"      // sleep in a bed: fatigue to 0
	Floor    Task = "floor"    // sleep on the floor: fatigue −2
	Guard    Task = "guard"    // stand guard: fatigue +1
	Scavenge Task = "scavenge" // go scavenging: fatigue +1
)

// Character is one character and its status levels.
type Character struct {
	Name      string `json:"name"`
	Empathy   int    `json:"empathy"`
	Strength  int    `json:"strength"`
	Inventory int    `json:"inventory"`
	// Levels holds the level (0–4) of each status marker; absent is 0.
	Levels map[Status]int `json:"levels,omitempty"`
	Task   Task           `json:"task,omitempty"`
	// Gone: died or left the group.
	Gone bool `json:"gone,omitempty"`
}

// Level is the character's level of a status.
func (c Character) Level(s Status) int { return c.Levels[s] }

func cloneLevels(m map[Status]int) map[Status]int {
	if m == nil {
		return nil
	}
	return maps.Clone(m)
}

// changeStatus raises or lowers a status by delta within 0–4; a rise that
// ends at level 4 prompts the level-4 marker's consequence.
func changeStatus(c Character, s Status, delta int) (Character, []Outcome) {
	from := c.Level(s)
	to := min(MaxLevel, max(0, from+delta))
	c.Levels = cloneLevels(c.Levels)
	if c.Levels == nil {
		c.Levels = map[Status]int{}
	}
	c.Levels[s] = to
	var out []Outcome
	if to != from {
		out = append(out, Outcome{Kind: KindStatus, Vars: map[string]any{"character": c.Name, "status": string(s), "from": from, "to": to}})
	}
	if delta > 0 && to == MaxLevel {
		out = append(out, Outcome{Kind: KindStatusMax, Vars: map[string]any{"character": c.Name, "status": string(s)}})
	}
	return c, out
}

// setStatus sets a status to a level.
func setStatus(c Character, s Status, level int) (Character, []Outcome) {
	return changeStatus(c, s, level-c.Level(s))
}

// ChangeStatus applies an effect that raises or lowers a character's status
// by delta (seed 004 "Statusmarker").
func ChangeStatus(g Game, name string, s Status, delta int) (Game, []Outcome, error) {
	return update(g, name, func(c Character) (Character, []Outcome, error) {
		c, out := changeStatus(c, s, delta)
		return c, out, nil
	})
}

// update applies f to one present character of a copy of the game.
func update(g Game, name string, f func(Character) (Character, []Outcome, error)) (Game, []Outcome, error) {
	i := g.index(name)
	if i < 0 || g.Characters[i].Gone {
		return g, nil, fmt.Errorf("no character %q in the group", name)
	}
	c, out, err := f(g.Characters[i])
	if err != nil {
		return g, nil, fmt.Errorf("%s: %w", name, err)
	}
	g = g.clone()
	g.Characters[i] = c
	return g, out, nil
}

// ActionsAvailable is the number of day actions a character may take: 3,
// less the black dots on its status markers; the dots strike the last
// actions first (seed 004 "Drei Aktionen"). dots is the most black dots on
// any one of the character's markers.
func ActionsAvailable(dots int) int { return max(0, 3-max(0, dots)) }

// ActionAllowed reports whether a character with that many black dots may
// take action step (1–3) (seed 004 "Drei Aktionen": one dot strikes the
// third, two the second and third, three all).
func ActionAllowed(step, dots int) bool { return step >= 1 && step <= ActionsAvailable(dots) }

// Thirst applies the Dusk thirst rule to a character: one who drinks water
// is fine; for one who does not, the black die reads 1–5 hunger +1, 6–10
// misery +1 (seed 004 "Sonnenuntergang — Durst"). roll is ignored when the
// character drank.
func Thirst(g Game, name string, drank bool, roll int) (Game, []Outcome, error) {
	if g.Phase() != Dusk {
		return g, nil, fmt.Errorf("thirst %s: at Dusk, not in the %s phase", name, g.Phase())
	}
	return update(g, name, func(c Character) (Character, []Outcome, error) {
		if drank {
			return c, nil, nil
		}
		v, err := blackDie(roll)
		if err != nil {
			return c, nil, fmt.Errorf("thirst: %w", err)
		}
		if v <= 5 {
			c, out := changeStatus(c, Hunger, 1)
			return c, out, nil
		}
		c, out := changeStatus(c, Misery, 1)
		return c, out, nil
	})
}

// Eat applies the Dusk hunger rule: the food eaten lowers hunger by what it
// prints (2, 1 or 0: change −2, −1 or 0); no food raises it by 1 (seed 004
// "Sonnenuntergang — Hunger"). change is ignored when the character ate
// nothing.
func Eat(g Game, name string, ate bool, change int) (Game, []Outcome, error) {
	if g.Phase() != Dusk {
		return g, nil, fmt.Errorf("eat %s: at Dusk, not in the %s phase", name, g.Phase())
	}
	return update(g, name, func(c Character) (Character, []Outcome, error) {
		if !ate {
			c, out := changeStatus(c, Hunger, 1)
			return c, out, nil
		}
		if change < -2 || change > 0 {
			return c, nil, fmt.Errorf("eat: food changes hunger by −2, −1 or 0, not %d", change)
		}
		c, out := changeStatus(c, Hunger, change)
		return c, out, nil
	})
}

// MaxScavengers is the most characters who go scavenging (seed 004 "Abend
// — Plündern").
const MaxScavengers = 3

// NoGuardScript is the script to resolve when nobody stands guard (seed
// 004 "Abend — Wachestehen").
const NoGuardScript = 333

// AssignTasks gives every present character its night task and applies the
// fatigue: bed to 0, floor −2, guard and scavenge +1; at most one character
// per bed card and three scavengers; nobody on guard prompts script 333
// (seed 004 "Abend").
func AssignTasks(g Game, tasks map[string]Task, beds int) (Game, []Outcome, error) {
	if g.Phase() != Evening {
		return g, nil, fmt.Errorf("evening: the tasks are given in the Evening, not in the %s phase", g.Phase())
	}
	counts := map[Task]int{}
	for _, i := range g.present() {
		t, ok := tasks[g.Characters[i].Name]
		if !ok {
			return g, nil, fmt.Errorf("evening: no task for %s", g.Characters[i].Name)
		}
		counts[t]++
	}
	for name := range tasks {
		if i := g.index(name); i < 0 || g.Characters[i].Gone {
			return g, nil, fmt.Errorf("evening: no character %q in the group", name)
		}
	}
	switch {
	case counts[Bed] > beds:
		return g, nil, fmt.Errorf("evening: %d characters in %d beds", counts[Bed], beds)
	case counts[Scavenge] > MaxScavengers:
		return g, nil, fmt.Errorf("evening: %d scavengers; at most %d", counts[Scavenge], MaxScavengers)
	}
	g = g.clone()
	var out []Outcome
	for _, i := range g.present() {
		c := g.Characters[i]
		c.Task = tasks[c.Name]
		var o []Outcome
		switch c.Task {
		case Bed:
			c, o = setStatus(c, Fatigue, 0)
		case Floor:
			c, o = changeStatus(c, Fatigue, -2)
		case Guard, Scavenge:
			c, o = changeStatus(c, Fatigue, 1)
		default:
			return g, nil, fmt.Errorf("evening: unknown task %q for %s", c.Task, c.Name)
		}
		g.Characters[i] = c
		out = append(out, o...)
	}
	if counts[Guard] == 0 {
		out = append(out, Outcome{Kind: KindScript, Vars: map[string]any{"script": NoGuardScript}})
	}
	return g, out, nil
}

// Drink is a kind of alcohol (seed 004 "Alkohol").
type Drink string

// Drinks.
const (
	Spirits     Drink = "spirits"      // Schnaps: fatigue +2, misery −1
	PureAlcohol Drink = "pure_alcohol" // reiner Alkohol: fatigue +1, misery −1
)

// Alcohol applies a drink at Dawn (seed 004 "Sonnenaufgang — Alkohol").
func Alcohol(g Game, name string, d Drink) (Game, []Outcome, error) {
	if g.Phase() != Dawn {
		return g, nil, fmt.Errorf("alcohol: drunk at Dawn, not in the %s phase", g.Phase())
	}
	return update(g, name, func(c Character) (Character, []Outcome, error) {
		var fat int
		switch d {
		case Spirits:
			fat = 2
		case PureAlcohol:
			fat = 1
		default:
			return c, nil, fmt.Errorf("alcohol: unknown drink %q", d)
		}
		c, out := changeStatus(c, Fatigue, fat)
		c, o := changeStatus(c, Misery, -1)
		return c, append(out, o...), nil
	})
}

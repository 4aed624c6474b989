package models

import (
	"fmt"
	"strings"
)

// GameContent is one game other than Fallout: The Board Game as data: its
// dice, tokens and phases by id, with the numbers the rules use (face
// values and symbols, token sides and levels, table ranges). No rules
// text: what each piece does is the engine's.
type GameContent struct {
	ID   string `yaml:"id" json:"id"`
	Name string `yaml:"name" json:"name"`
	// Seed names the source document the game's rules come from.
	Seed   string      `yaml:"seed" json:"seed"`
	Dice   []GameDie   `yaml:"dice" json:"dice"`
	Tokens []GameToken `yaml:"tokens,omitempty" json:"tokens,omitempty"`
	Phases []GamePhase `yaml:"phases,omitempty" json:"phases,omitempty"`
	// Tables are number ranges that name an outcome (Warfare's light level
	// on 2d10).
	Tables []GameTable `yaml:"tables,omitempty" json:"tables,omitempty"`
}

// GameDie is one die of a game: a face set the camera reads (Set), or its
// own faces, or both.
type GameDie struct {
	ID string `yaml:"id" json:"id"`
	// Set is the face set the camera reads the die with: a built-in set
	// (d10), or the id a group teaches the die under.
	Set   string    `yaml:"set,omitempty" json:"set,omitempty"`
	Faces []DieFace `yaml:"faces,omitempty" json:"faces,omitempty"`
	// Rolled names what the die is rolled for (ids of the game's commands).
	Rolled  []string `yaml:"rolled,omitempty" json:"rolled,omitempty"`
	Assumed bool     `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note    string   `yaml:"note,omitempty" json:"note,omitempty"`
}

// DieFace is one kind of face of a game's die: a number, symbols, or a
// special mark.
type DieFace struct {
	ID      string `yaml:"id" json:"id"`
	Value   int    `yaml:"value,omitempty" json:"value,omitempty"`
	Symbols int    `yaml:"symbols,omitempty" json:"symbols,omitempty"`
	Mark    string `yaml:"mark,omitempty" json:"mark,omitempty"`
}

// GameToken is a kind of token or marker: its sides (a two-sided token) or
// levels (a status marker 1–4), and the ids it comes in.
type GameToken struct {
	ID    string   `yaml:"id" json:"id"`
	Sides []string `yaml:"sides,omitempty" json:"sides,omitempty"`
	// Levels: the highest level (levels run 1 … Levels); Start: the
	// level or position it starts at.
	Levels int `yaml:"levels,omitempty" json:"levels,omitempty"`
	Start  int `yaml:"start,omitempty" json:"start,omitempty"`
	// Kinds are the ids the token comes in (status markers, weapons).
	Kinds []string `yaml:"kinds,omitempty" json:"kinds,omitempty"`
	// Dice maps a kind to the die it rolls (a weapon's combat die).
	Dice map[string]string `yaml:"dice,omitempty" json:"dice,omitempty"`
}

// GamePhase is one phase of a round and its steps in order.
type GamePhase struct {
	ID    string     `yaml:"id" json:"id"`
	Steps []GameStep `yaml:"steps,omitempty" json:"steps,omitempty"`
}

// GameStep is one step of a phase.
type GameStep struct {
	ID string `yaml:"id" json:"id"`
	// PassAfter: the lead passes to the next player after the step.
	PassAfter bool `yaml:"pass_after,omitempty" json:"pass_after,omitempty"`
	// Script is a script number the step names.
	Script int `yaml:"script,omitempty" json:"script,omitempty"`
}

// GameTable maps ranges of a roll to outcome ids.
type GameTable struct {
	ID   string     `yaml:"id" json:"id"`
	Roll string     `yaml:"roll" json:"roll"`
	Rows []TableRow `yaml:"rows" json:"rows"`
}

// TableRow is one range of a table: From … To (inclusive) gives ID.
type TableRow struct {
	ID   string `yaml:"id" json:"id"`
	From int    `yaml:"from" json:"from"`
	To   int    `yaml:"to" json:"to"`
}

// Game returns the game with the given id.
func (c *Content) Game(id string) (GameContent, bool) {
	for _, g := range c.Games {
		if g.ID == id {
			return g, true
		}
	}
	return GameContent{}, false
}

// Die returns the game's die with the given id.
func (g GameContent) Die(id string) (GameDie, bool) {
	for _, d := range g.Dice {
		if d.ID == id {
			return d, true
		}
	}
	return GameDie{}, false
}

// Token returns the game's token with the given id.
func (g GameContent) Token(id string) (GameToken, bool) {
	for _, t := range g.Tokens {
		if t.ID == id {
			return t, true
		}
	}
	return GameToken{}, false
}

// Steps lists the steps of every phase in order.
func (g GameContent) Steps() []GameStep {
	var out []GameStep
	for _, p := range g.Phases {
		out = append(out, p.Steps...)
	}
	return out
}

// FaceIDs lists the die's face ids: its own faces, else those of its set
// in c.
func (d GameDie) FaceIDs(c *Content) []string {
	var ids []string
	for _, f := range d.Faces {
		ids = append(ids, f.ID)
	}
	if len(ids) == 0 && d.Set != "" {
		if fs, ok := c.FaceSet(d.Set); ok {
			ids = fs.FaceIDs()
		}
	}
	return ids
}

// validateGames checks the games' ids are present and unique within their
// lists, face sets named exist unless taught, and table ranges are in
// order.
func (c *Content) validateGames() error {
	bad := func(entry, format string, args ...any) error {
		return &ValidationError{Entry: entry, Problem: fmt.Sprintf(format, args...)}
	}
	for _, g := range c.Games {
		e := fmt.Sprintf("games %q", g.ID)
		ids := map[string]bool{}
		unique := func(what, id string) error {
			if id == "" || strings.ContainsAny(id, " \t,") {
				return bad(e, "%s id %q is empty or holds spaces or commas", what, id)
			}
			if ids[what+id] {
				return bad(e, "%s %q appears twice", what, id)
			}
			ids[what+id] = true
			return nil
		}
		for _, d := range g.Dice {
			if err := unique("die", d.ID); err != nil {
				return err
			}
			if d.Set == "" && len(d.Faces) < 2 {
				return bad(e, "die %q: give its face set or at least 2 faces", d.ID)
			}
			for _, f := range d.Faces {
				if err := unique("face "+d.ID+"/", f.ID); err != nil {
					return err
				}
				if f.Value < 0 || f.Symbols < 0 {
					return bad(e, "die %q face %q: value and symbols must not be negative", d.ID, f.ID)
				}
			}
		}
		for _, t := range g.Tokens {
			if err := unique("token", t.ID); err != nil {
				return err
			}
		}
		for _, p := range g.Phases {
			if err := unique("phase", p.ID); err != nil {
				return err
			}
			for _, s := range p.Steps {
				if err := unique("step", s.ID); err != nil {
					return err
				}
			}
		}
		for _, tb := range g.Tables {
			if err := unique("table", tb.ID); err != nil {
				return err
			}
			for i, r := range tb.Rows {
				if r.From > r.To || (i > 0 && r.From != tb.Rows[i-1].To+1) {
					return bad(e, "table %q: row %q must follow the row before without a gap (%d … %d)", tb.ID, r.ID, r.From, r.To)
				}
			}
		}
	}
	return nil
}

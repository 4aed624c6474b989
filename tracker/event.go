// Package tracker keeps a game session: it applies recognitions (rolls,
// shown cards) and the group's corrections to the game state through the
// rules in engine/, persists every event in an append-only SQLite log before
// it is announced, derives the state by replaying that log (undo, redo and
// corrections are events too), and turns the rules' outcomes into
// announcements in the session's language.
package tracker

import (
	"encoding/json"
	"fmt"

	"tablecam/engine"
)

// Event types. Every state change is one of these, stored as JSON.
const (
	EvSetup    = "setup"
	EvRoll     = "roll"     // dice observed (manual or camera)
	EvReroll   = "reroll"   // some dice of the pending roll rerolled
	EvDone     = "done"     // accept the pending roll as final
	EvContext  = "context"  // what the next roll is for
	EvCard     = "card"     // an activation card shown: the enemy turn
	EvRound    = "round"    // end of round: next round starts
	EvFirst    = "first"    // first player change
	EvGoal     = "goal"     // a goal completed
	EvWin      = "win"      // the sheet's Victory condition confirmed
	EvPower    = "power"    // quest reward: a faction advances n
	EvRetreat  = "retreat"  // power token back n
	EvAdjust   = "adjust"   // survivor value +/- (hp, rads, xp, caps)
	EvSet      = "set"      // survivor setting (rested, loyal, special, armor, ranged)
	EvSetPower = "setpower" // power token placed by hand
	EvSetGoals = "setgoals" // goals count set by hand
	EvCamps    = "camps"    // C.A.M.P. tokens +/-
	EvEnemy    = "enemy"    // enemy add/remove/place
	EvEnemies  = "enemies"  // enemy count per type or faction
	EvCorrect  = "correct"  // replace one earlier reading
	EvUndo     = "undo"
	EvRedo     = "redo"
	EvMove     = "move" // a command of another game (Move)
)

// Roll context kinds.
const (
	CtxNone  = ""
	CtxTest  = "test"
	CtxFight = "fight"
	// CtxMove: a command of another game typed without its die readings
	// waits for the camera's roll (RollContext.Move).
	CtxMove = "move"
)

// RollContext says what a roll is for.
type RollContext struct {
	Kind       string `json:"kind"`
	Survivor   string `json:"survivor,omitempty"`
	Difficulty int    `json:"difficulty,omitempty"`
	// Special lists the test's S.P.E.C.I.A.L. letters.
	Special string `json:"special,omitempty"`
	// Enemy is an enemy id on the map, an enemy type, faction or token id.
	Enemy     string `json:"enemy,omitempty"`
	Draw      bool   `json:"draw,omitempty"`
	Assistant string `json:"assistant,omitempty"`
	// Rerolls overrides the computed number of rerolls (weapon effects,
	// traits); nil = computed from S.P.E.C.I.A.L. and Well Rested.
	Rerolls *int `json:"rerolls,omitempty"`
	// Move is the command of another game that the roll completes.
	Move *Move `json:"move,omitempty"`
}

// Event is one entry of the session log.
type Event struct {
	Type string `json:"type"`

	Setup *engine.Setup `json:"setup,omitempty"`
	// Move is a command of another game than Fallout: The Board Game (a
	// setup of one too); its die readings are Faces.
	Move *Move `json:"move,omitempty"`

	// Rolls: Set is the face set (default vats), Faces the face ids, Assist
	// the assist die's face; Dice are 1-based positions for a reroll.
	Set    string   `json:"set,omitempty"`
	Faces  []string `json:"faces,omitempty"`
	Assist string   `json:"assist,omitempty"`
	Dice   []int    `json:"dice,omitempty"`
	Source string   `json:"source,omitempty"` // manual | camera
	Frame  string   `json:"frame,omitempty"`  // frame reference (roll proof)
	// Uncertain lists the 1-based positions of dice the camera could not
	// read with confidence (0 = the assist die): the roll waits for the
	// group to confirm (done) or correct it.
	Uncertain []int `json:"uncertain,omitempty"`

	Context *RollContext `json:"context,omitempty"`
	Card    string       `json:"card,omitempty"`

	Survivor string `json:"survivor,omitempty"`
	Faction  string `json:"faction,omitempty"`
	Field    string `json:"field,omitempty"`
	Value    string `json:"value,omitempty"`
	N        int    `json:"n,omitempty"`

	// Enemy events: Op is add|remove|place.
	Op    string `json:"op,omitempty"`
	Enemy string `json:"enemy,omitempty"`
	Token string `json:"token,omitempty"`
	// Name is the name the group writes on the token (enemy add/place ... as NAME).
	Name     string   `json:"name,omitempty"`
	With     []string `json:"with,omitempty"`
	Adjacent []string `json:"adjacent,omitempty"`
	Active   *bool    `json:"active,omitempty"`

	// Target is the sequence number a correction replaces.
	Target int64 `json:"target,omitempty"`
}

// Mutating reports whether the event changes the game (undo applies to it).
func (e Event) Mutating() bool {
	return e.Type != EvUndo && e.Type != EvRedo
}

// Marshal encodes the event for the store.
func (e Event) Marshal() (json.RawMessage, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode %s event: %w", e.Type, err)
	}
	return b, nil
}

// DecodeEvent decodes a stored event.
func DecodeEvent(b []byte) (Event, error) {
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		return e, fmt.Errorf("decode event: %w", err)
	}
	if e.Type == "" {
		return e, fmt.Errorf("decode event: no type")
	}
	return e, nil
}

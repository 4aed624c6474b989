// Package engine holds the rules of the Fallout: The Board Game cooperative
// mode (Atomic Bonds) as pure, deterministic functions: tests, fights,
// survivors' health, enemy activation, the power track, the activation deck
// and exact odds. It does no I/O and reads no clock; every function takes the
// content pack and a state and returns a new state plus typed outcomes that
// the tracker turns into announcements.
package engine

import (
	"fmt"
	"sort"

	"tablecam/models"
)

// Game results.
const (
	ResultNone = ""
	ResultWon  = "won"
	ResultLost = "lost"
)

// SurvivorState is a survivor with its tracked values.
type SurvivorState struct {
	models.Survivor
	Damage int `json:"damage"`
	Rads   int `json:"rads"`
	XP     int `json:"xp"`
	Caps   int `json:"caps"`
	// Loyal is the faction whose enemies ignore this survivor.
	Loyal   string `json:"loyal,omitempty"`
	Mutated bool   `json:"mutated,omitempty"`
	Out     bool   `json:"out,omitempty"`
	Deaths  int    `json:"deaths,omitempty"`
	// WellRested: may discard for one more reroll (seed 000 "Eigenschaften").
	WellRested bool `json:"well_rested,omitempty"`
}

// HP is the survivor's remaining hit points (red peg position).
func (s SurvivorState) HP() int { return s.MaxHP - s.Damage }

// Enemy is one enemy token on the map.
type Enemy struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Token is the printed token id once known (scanned or typed); "" = a
	// token of Type whose face is not known (level from TypeLevel).
	Token string `json:"token,omitempty"`
	// Name is what the group wrote on the token ("" = none): announcements
	// use it, and commands take it in place of the id (EnemyName, FindEnemy).
	Name    string `json:"name,omitempty"`
	Faction string `json:"faction,omitempty"`
	Active  bool   `json:"active"`
	// Replacement marks a token placed facedown this round after a kill; it
	// does not turn faceup at this round's activation (seed 000).
	Replacement bool `json:"replacement,omitempty"`
	// With lists survivors in the enemy's space; Adjacent those one space
	// away. Both are set by the group (or the camera) and may be empty when
	// the position is not tracked.
	With     []string `json:"with,omitempty"`
	Adjacent []string `json:"adjacent,omitempty"`
}

// State is the whole tracked game.
type State struct {
	Scenario      string          `json:"scenario"`
	Loyal         string          `json:"loyal"`
	Opposing      string          `json:"opposing"`
	Players       int             `json:"players"`
	Round         int             `json:"round"`
	FirstPlayer   int             `json:"first_player"`
	Power         int             `json:"power"`
	PowerTrack    int             `json:"power_track"`
	Goals         int             `json:"goals"`
	GoalsRequired int             `json:"goals_required"`
	Camps         int             `json:"camps"`
	Survivors     []SurvivorState `json:"survivors"`
	Enemies       []Enemy         `json:"enemies"`
	Deck          []string        `json:"deck"`
	Discard       []string        `json:"discard"`
	// NextEnemy counts enemies placed (not replacements): ids e1, e2, ...
	NextEnemy int    `json:"next_enemy"`
	Result    string `json:"result,omitempty"`
	// Turn is the enemy turn in progress: set while an activation card waits
	// for a fight, nil otherwise.
	Turn *EnemyTurn `json:"turn,omitempty"`
	// Rules are the content rule switches in force for this game.
	Rules models.Rules `json:"rules"`
}

// Clone returns a deep copy, so actions never alias the caller's state.
func (s State) Clone() State {
	c := s
	c.Survivors = append([]SurvivorState(nil), s.Survivors...)
	for i := range c.Survivors {
		c.Survivors[i].Survivor = s.Survivors[i].Survivor
	}
	c.Enemies = nil
	if s.Enemies != nil {
		c.Enemies = make([]Enemy, len(s.Enemies))
	}
	for i, e := range s.Enemies {
		e.With = append([]string(nil), e.With...)
		e.Adjacent = append([]string(nil), e.Adjacent...)
		c.Enemies[i] = e
	}
	c.Deck = append([]string(nil), s.Deck...)
	c.Discard = append([]string(nil), s.Discard...)
	if s.Turn != nil {
		c.Turn = s.Turn.clone()
	}
	return c
}

// Survivor returns the index of the survivor with id or name, or -1.
func (s *State) Survivor(id string) int {
	for i, v := range s.Survivors {
		if v.ID == id {
			return i
		}
	}
	for i, v := range s.Survivors {
		if v.Name == id {
			return i
		}
	}
	return -1
}

// Enemy returns the index of the enemy with id, or -1. A reference the
// group typed (a name, token or level) is found with FindEnemy.
func (s *State) Enemy(id string) int {
	for i, e := range s.Enemies {
		if e.ID == id {
			return i
		}
	}
	return -1
}

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Result != ResultNone }

// LastSpace is the power track's final space (reaching it loses the game).
func (s *State) LastSpace() int { return s.PowerTrack - 1 }

// CountEnemies counts enemies on the map of the given type ("" = any) and
// faction ("" = any).
func (s *State) CountEnemies(typ, faction string) int {
	n := 0
	for _, e := range s.Enemies {
		if (typ == "" || e.Type == typ) && (faction == "" || e.Faction == faction) {
			n++
		}
	}
	return n
}

// Setup describes a new game.
type Setup struct {
	Scenario  string            `json:"scenario"`
	Loyal     string            `json:"loyal"`
	Survivors []models.Survivor `json:"survivors"`
	// Players defaults to the number of survivors.
	Players int `json:"players,omitempty"`
	// FirstPlayer is the index of the first player (default 0).
	FirstPlayer int `json:"first_player,omitempty"`
}

// New starts a game: scenario sheet, loyal faction, survivors in player
// order, the activation deck shuffled (tracked as a set: the physical deck
// is the order), one C.A.M.P. token at Crossroads Camp (seed 003 "Setup").
func New(c *models.Content, su Setup) (State, []Outcome, error) {
	sc, ok := c.Scenario(su.Scenario)
	if !ok {
		return State{}, nil, fmt.Errorf("setup: unknown scenario %q (known: %s)", su.Scenario, scenarioIDs(c))
	}
	side, ok := sc.Side(su.Loyal)
	if !ok {
		return State{}, nil, fmt.Errorf("setup: faction %q is not on scenario %q (choose %s or %s)",
			su.Loyal, sc.ID, sc.Factions[0].Faction, sc.Factions[1].Faction)
	}
	opp := sc.Factions[0].Faction
	if opp == side.Faction {
		opp = sc.Factions[1].Faction
	}
	if len(su.Survivors) == 0 || len(su.Survivors) > 4 {
		return State{}, nil, fmt.Errorf("setup: %d survivors; the game takes 1 to 4", len(su.Survivors))
	}
	st := State{
		Scenario: sc.ID, Loyal: side.Faction, Opposing: opp,
		Players: su.Players, Round: 1, FirstPlayer: su.FirstPlayer,
		PowerTrack: sc.PowerTrack, GoalsRequired: sc.GoalsRequired,
		Camps: 1, Rules: c.Rules,
	}
	if st.Players == 0 {
		st.Players = len(su.Survivors)
	}
	if st.FirstPlayer < 0 || st.FirstPlayer >= len(su.Survivors) {
		return State{}, nil, fmt.Errorf("setup: first player %d out of range 0..%d", st.FirstPlayer, len(su.Survivors)-1)
	}
	seen := map[string]bool{}
	for i, s := range su.Survivors {
		if s.ID == "" {
			return State{}, nil, fmt.Errorf("setup: survivor %d has no id", i+1)
		}
		if seen[s.ID] {
			return State{}, nil, fmt.Errorf("setup: survivor %q listed twice", s.ID)
		}
		seen[s.ID] = true
		if s.Name == "" {
			s.Name = s.ID
		}
		if s.MaxHP == 0 {
			s.MaxHP = c.Rules.SurvivorMaxHP
		}
		if s.MaxHP < 1 {
			return State{}, nil, fmt.Errorf("setup: survivor %q: max HP %d", s.ID, s.MaxHP)
		}
		sv := SurvivorState{Survivor: s}
		if c.Rules.StartLoyal {
			sv.Loyal = side.Faction
		}
		st.Survivors = append(st.Survivors, sv)
	}
	st.Deck = c.CardIDs()
	sort.Strings(st.Deck)
	out := []Outcome{{Kind: KindSetup, Vars: Vars{
		"scenario": sc.Name, "loyal": factionName(c, side.Faction), "opposing": factionName(c, opp),
		"survivors": st.survivorNames(), "track": sc.PowerTrack, "goals": sc.GoalsRequired,
	}}}
	return st, out, nil
}

func (s *State) survivorNames() []string {
	n := make([]string, len(s.Survivors))
	for i, v := range s.Survivors {
		n[i] = v.Name
	}
	return n
}

func scenarioIDs(c *models.Content) string {
	ids := ""
	for i, s := range c.Scenarios {
		if i > 0 {
			ids += ", "
		}
		ids += s.ID
	}
	return ids
}

func factionName(c *models.Content, id string) string {
	if f, ok := c.Faction(id); ok {
		return f.Name
	}
	return id
}

// TypeName returns the spoken plural (or singular) name of an enemy type.
func TypeName(c *models.Content, id string, plural bool) string {
	t, ok := c.EnemyType(id)
	if !ok {
		return id
	}
	if plural && t.Plural != "" {
		return t.Plural
	}
	return t.Name
}

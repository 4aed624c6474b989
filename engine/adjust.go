package engine

import (
	"fmt"

	"tablecam/models"
)

// EnemySpec describes an enemy to put on the map.
type EnemySpec struct {
	// Type is an enemy type id, or a faction id (its faction enemies).
	Type string `json:"type"`
	// Token is the printed token id when known.
	Token string `json:"token,omitempty"`
	// Name is what the group writes on the token ("" = none).
	Name     string   `json:"name,omitempty"`
	Inactive bool     `json:"inactive,omitempty"`
	With     []string `json:"with,omitempty"`
	Adjacent []string `json:"adjacent,omitempty"`
}

// resolveType maps a type, token or faction id to (type, faction, token).
func resolveType(c *models.Content, id string) (typ, faction, token string, err error) {
	if _, ok := c.EnemyType(id); ok {
		for _, f := range c.Factions {
			if f.Enemy == id {
				return id, f.ID, "", nil
			}
		}
		return id, "", "", nil
	}
	if f, ok := c.Faction(id); ok && f.Enemy != "" {
		return f.Enemy, f.ID, "", nil
	}
	if t, tok, ok := c.Token(id); ok {
		_, fac, _, err := resolveType(c, t.ID)
		if err != nil {
			return "", "", "", fmt.Errorf("token %q: %w", id, err)
		}
		return t.ID, fac, tok.ID, nil
	}
	return "", "", "", fmt.Errorf("unknown enemy type, faction or token %q", id)
}

func (st *State) checkSurvivors(ids []string) error {
	for _, id := range ids {
		if st.Survivor(id) < 0 {
			return fmt.Errorf("unknown survivor %q", id)
		}
	}
	return nil
}

// canonical maps survivor names to ids.
func (st *State) canonical(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, st.Survivors[st.Survivor(id)].ID)
	}
	return out
}

// AddEnemy places an enemy token on the map (faceup unless Inactive).
func AddEnemy(c *models.Content, st State, sp EnemySpec) (State, []Outcome, error) {
	st = st.Clone()
	typ, fac, tok, err := resolveType(c, sp.Type)
	if err != nil {
		return st, nil, err
	}
	if len(st.Enemies) >= MaxEnemies {
		return st, nil, fmt.Errorf("%d enemies are on the map already, the most tablecam tracks; remove one first", len(st.Enemies))
	}
	if sp.Token != "" {
		t, _ := c.EnemyType(typ)
		if _, ok := t.Token(sp.Token); !ok {
			return st, nil, fmt.Errorf("enemy type %q has no token %q", typ, sp.Token)
		}
		tok = sp.Token
	}
	if err := st.checkSurvivors(append(append([]string(nil), sp.With...), sp.Adjacent...)); err != nil {
		return st, nil, err
	}
	if sp.Name != "" {
		if err := checkEnemyName(c, &st, -1, sp.Name); err != nil {
			return st, nil, err
		}
	}
	st.NextEnemy++
	e := Enemy{ID: fmt.Sprintf("e%d", st.NextEnemy), Type: typ, Token: tok, Name: sp.Name, Faction: fac, Active: !sp.Inactive,
		With: st.canonical(sp.With), Adjacent: st.canonical(sp.Adjacent)}
	st.Enemies = append(st.Enemies, e)
	v := st.enemyVars(c, len(st.Enemies)-1, Vars{"enemy": TypeName(c, typ, false), "active": e.Active})
	return st, []Outcome{{Kind: KindEnemyAdded, Vars: v}}, nil
}

// RemoveEnemy takes an enemy off the map; ref is its id, name, token or
// level (FindEnemy).
func RemoveEnemy(c *models.Content, st State, ref string) (State, []Outcome, error) {
	st = st.Clone()
	i, err := st.FindEnemy(c, ref)
	if err != nil {
		return st, nil, err
	}
	e := st.Enemies[i]
	v := st.enemyVars(c, i, Vars{"enemy": TypeName(c, e.Type, false)})
	st.Enemies = append(st.Enemies[:i], st.Enemies[i+1:]...)
	return st, []Outcome{{Kind: KindEnemyRemoved, Vars: v}}, nil
}

// Placement is what the group says of an enemy on the map: the survivors
// in its space and adjacent to it, and optionally its side (Active), its
// scanned token and the name written on it.
type Placement struct {
	With     []string
	Adjacent []string
	Active   *bool
	Token    string
	Name     string
}

// PlaceEnemy records which survivors share the enemy's space and which are
// adjacent, and optionally flips it, scans its token or names it; ref is
// its id, name, token or level (FindEnemy).
func PlaceEnemy(c *models.Content, st State, ref string, p Placement) (State, []Outcome, error) {
	st = st.Clone()
	i, err := st.FindEnemy(c, ref)
	if err != nil {
		return st, nil, err
	}
	if err := st.checkSurvivors(append(append([]string(nil), p.With...), p.Adjacent...)); err != nil {
		return st, nil, err
	}
	e := &st.Enemies[i]
	if p.Token != "" {
		t, _ := c.EnemyType(e.Type)
		if _, ok := t.Token(p.Token); !ok {
			return st, nil, fmt.Errorf("enemy type %q has no token %q", e.Type, p.Token)
		}
		e.Token = p.Token
	}
	if p.Name != "" {
		if err := checkEnemyName(c, &st, i, p.Name); err != nil {
			return st, nil, err
		}
		e.Name = p.Name
	}
	e.With, e.Adjacent = st.canonical(p.With), st.canonical(p.Adjacent)
	if p.Active != nil {
		e.Active = *p.Active
	}
	v := st.enemyVars(c, i, Vars{"enemy": TypeName(c, e.Type, false),
		"with": names(&st, idxOf(&st, e.With)), "adjacent": names(&st, idxOf(&st, e.Adjacent)), "active": e.Active})
	return st, []Outcome{{Kind: KindEnemyPlaced, Vars: v}}, nil
}

func idxOf(st *State, ids []string) []int {
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		out = append(out, st.Survivor(id))
	}
	return out
}

// SetEnemyCount makes the number of enemies of a type (or faction) on the
// map equal n: it adds faceup tokens with no tracked position, or removes
// the most recently placed ones.
func SetEnemyCount(c *models.Content, st State, id string, n int) (State, []Outcome, error) {
	st = st.Clone()
	if err := inRange("the enemy count", n, 0, MaxEnemies); err != nil {
		return st, nil, err
	}
	typ, fac, _, err := resolveType(c, id)
	if err != nil {
		return st, nil, err
	}
	have := 0
	for _, e := range st.Enemies {
		if e.Type == typ {
			have++
		}
	}
	if others := len(st.Enemies) - have; others+n > MaxEnemies {
		return st, nil, fmt.Errorf("%d more enemies would make %d on the map, more than the %d tablecam tracks", n, others+n, MaxEnemies)
	}
	for ; have < n; have++ {
		st.NextEnemy++
		st.Enemies = append(st.Enemies, Enemy{ID: fmt.Sprintf("e%d", st.NextEnemy), Type: typ, Faction: fac, Active: true})
	}
	for i := len(st.Enemies) - 1; i >= 0 && have > n; i-- {
		if st.Enemies[i].Type == typ {
			st.Enemies = append(st.Enemies[:i], st.Enemies[i+1:]...)
			have--
		}
	}
	return st, []Outcome{{Kind: KindEnemyCount, Vars: Vars{"enemy": TypeName(c, typ, true), "n": n}}}, nil
}

// Adjust changes one tracked survivor value by delta: "hp" (heal with a
// positive delta, damage with a negative one), "rads", "xp", "caps". Damage
// and rads go through the death rules; healing stops at full HP.
func Adjust(c *models.Content, st State, survivor, field string, delta int) (State, []Outcome, error) {
	st = st.Clone()
	i := st.Survivor(survivor)
	if i < 0 {
		return st, nil, fmt.Errorf("unknown survivor %q", survivor)
	}
	s := &st.Survivors[i]
	if err := inRange("a change of "+field, delta, -MaxStep, MaxStep); err != nil {
		return st, nil, err
	}
	switch field {
	case "hp":
		if delta < 0 {
			st, out := hurt(c, st, i, -delta, 0)
			return st, out, nil
		}
		heal := delta
		if heal > s.Damage {
			heal = s.Damage
		}
		s.Damage -= heal
		return st, []Outcome{{Kind: KindHeal, Vars: Vars{"survivor": s.Name, "n": heal, "hp": s.HP()}}}, nil
	case "rads":
		if delta > 0 {
			st, out := hurt(c, st, i, 0, delta)
			return st, out, nil
		}
		s.Rads += delta
		if s.Rads < 0 {
			s.Rads = 0
		}
		return st, []Outcome{{Kind: KindRads, Vars: Vars{"survivor": s.Name, "rads": delta, "total": s.Rads}}}, nil
	case "xp":
		if s.XP+delta > MaxXP {
			return st, nil, fmt.Errorf("%s would have %d XP, more than the %d tablecam keeps", s.Name, s.XP+delta, MaxXP)
		}
		s.XP += delta
		if s.XP < 0 {
			s.XP = 0
		}
		return st, []Outcome{{Kind: KindXP, Vars: Vars{"survivor": s.Name, "n": delta, "total": s.XP}}}, nil
	case "caps":
		if s.Caps+delta > MaxCaps {
			return st, nil, fmt.Errorf("%s would have %d caps, more than the %d tablecam keeps", s.Name, s.Caps+delta, MaxCaps)
		}
		s.Caps += delta
		if s.Caps < 0 {
			return st, nil, fmt.Errorf("%s has only %d caps", s.Name, s.Caps-delta)
		}
		return st, []Outcome{{Kind: KindCaps, Vars: Vars{"survivor": s.Name, "n": delta, "total": s.Caps}}}, nil
	}
	return st, nil, fmt.Errorf("unknown survivor value %q (hp, rads, xp, caps)", field)
}

// SetSurvivorFlag sets a survivor's flags: "rested" (Well Rested), "loyal"
// (to a faction; "" clears), "special" (S.P.E.C.I.A.L. letters), "armor",
// "ranged".
func SetSurvivorFlag(c *models.Content, st State, survivor, flag, value string) (State, error) {
	st = st.Clone()
	i := st.Survivor(survivor)
	if i < 0 {
		return st, fmt.Errorf("unknown survivor %q", survivor)
	}
	s := &st.Survivors[i]
	switch flag {
	case "rested":
		s.WellRested = value == "true" || value == "yes" || value == "on"
	case "loyal":
		if value != "" {
			if _, ok := c.Faction(value); !ok {
				return st, fmt.Errorf("unknown faction %q", value)
			}
		}
		s.Loyal = value
	case "special":
		s.Special = value
	case "armor":
		var n int
		if _, err := fmt.Sscanf(value, "%d", &n); err != nil || n < 0 {
			return st, fmt.Errorf("armor must be a whole number >= 0, got %q", value)
		}
		s.Armor = n
	case "ranged":
		s.Ranged = value == "true" || value == "yes" || value == "on"
	default:
		return st, fmt.Errorf("unknown survivor setting %q (rested, loyal, special, armor, ranged)", flag)
	}
	return st, nil
}

// SetPower puts the power token on a space (0-based) by hand.
func SetPower(c *models.Content, st State, space int) (State, []Outcome, error) {
	st = st.Clone()
	if space < 0 || space > st.LastSpace() {
		return st, nil, fmt.Errorf("power space %d out of range 1..%d", space+1, st.PowerTrack)
	}
	st.Power = space
	out := []Outcome{{Kind: KindPowerSet, Vars: Vars{"faction": factionName(c, st.Opposing), "space": space + 1, "track": st.PowerTrack}}}
	if space == st.LastSpace() && !st.Over() {
		st.Result = ResultLost
		out = append(out, Outcome{Kind: KindGameLost, Vars: Vars{"faction": factionName(c, st.Opposing)}})
	}
	return st, out, nil
}

// SetGoals sets the number of completed goals by hand (no retreat, no win).
func SetGoals(c *models.Content, st State, n int) (State, []Outcome, error) {
	st = st.Clone()
	if err := inRange("goals", n, 0, MaxGoals); err != nil {
		return st, nil, err
	}
	st.Goals = n
	return st, []Outcome{{Kind: KindGoalsSet, Vars: Vars{"goals": n, "required": st.GoalsRequired}}}, nil
}

// AddCamps changes the group's C.A.M.P. tokens by delta.
func AddCamps(c *models.Content, st State, delta int) (State, []Outcome, error) {
	st = st.Clone()
	if err := inRange("a change of C.A.M.P. tokens", delta, -MaxStep, MaxStep); err != nil {
		return st, nil, err
	}
	if st.Camps+delta > MaxCamps {
		return st, nil, fmt.Errorf("the group would have %d C.A.M.P. tokens, more than the %d tablecam keeps", st.Camps+delta, MaxCamps)
	}
	if st.Camps+delta < 0 {
		return st, nil, fmt.Errorf("the group has only %d C.A.M.P. tokens", st.Camps)
	}
	st.Camps += delta
	return st, []Outcome{{Kind: KindCamps, Vars: Vars{"n": delta, "total": st.Camps}}}, nil
}

// Package models holds tablecam's domain types and the embedded content
// pack: dice face sets, enemy types, factions, activation cards, scenarios
// and the rule switches for everything the sources leave unconfirmed.
//
// Content is structure, numbers and IDs only. No rules text or art from any
// game ships; labels are short neutral names that a group may replace in an
// override file. Every entry the rules documents mark as unconfirmed carries
// Assumed: true and a Note saying what was assumed.
package models

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Face set kinds.
const (
	KindSymbol  = "symbol"  // faces carry regions, hits and hurt icons (V.A.T.S., assist)
	KindNumeric = "numeric" // faces carry a number (d6, d10, d20)
)

// Body regions shown highlighted on V.A.T.S. faces.
const (
	RegionHead  = "head"
	RegionTorso = "torso"
	RegionArms  = "arms"
	RegionLegs  = "legs"
)

// Face is one side of a die.
type Face struct {
	ID      string   `yaml:"id" json:"id"`
	Regions []string `yaml:"regions,omitempty" json:"regions,omitempty"`
	Hits    int      `yaml:"hits,omitempty" json:"hits,omitempty"`
	// Hurt counts icons that damage the assisting survivor (assist die).
	Hurt int `yaml:"hurt,omitempty" json:"hurt,omitempty"`
	// Value is the number a numeric face reads as (a d10's "0" reads 10).
	Value int `yaml:"value,omitempty" json:"value,omitempty"`
	// Label is a short neutral name for speech and the dashboard.
	Label string `yaml:"label,omitempty" json:"label,omitempty"`
	// Names holds the label in other languages, keyed by language code.
	Names map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
}

// HasRegion reports whether the face highlights region r.
func (f Face) HasRegion(r string) bool {
	for _, x := range f.Regions {
		if x == r {
			return true
		}
	}
	return false
}

// FaceSet describes one kind of die: every face it can show.
type FaceSet struct {
	ID      string `yaml:"id" json:"id"`
	Name    string `yaml:"name" json:"name"`
	Kind    string `yaml:"kind" json:"kind"`
	Faces   []Face `yaml:"faces" json:"faces"`
	Assumed bool   `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note    string `yaml:"note,omitempty" json:"note,omitempty"`
	// Names holds Name in other languages: key "de".
	Names map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
}

// Face returns the face with the given id.
func (fs FaceSet) Face(id string) (Face, bool) {
	for _, f := range fs.Faces {
		if f.ID == id {
			return f, true
		}
	}
	return Face{}, false
}

// FaceIDs lists the face ids in content order.
func (fs FaceSet) FaceIDs() []string {
	ids := make([]string, len(fs.Faces))
	for i, f := range fs.Faces {
		ids[i] = f.ID
	}
	return ids
}

// Enemy abilities (seed 000 "Gegnereigenschaften").
const (
	AbilityAggressive = "aggressive"
	AbilityLoot       = "loot"
	AbilityRanged     = "ranged"
	AbilityRetreat    = "retreat"
	AbilityArmor      = "armor"
	AbilityRadiated   = "radiated"
	AbilityFast       = "fast"
	AbilityCaps       = "caps"
)

// KnownAbilities lists every ability the engine understands.
func KnownAbilities() []string {
	return []string{AbilityAggressive, AbilityLoot, AbilityRanged, AbilityRetreat,
		AbilityArmor, AbilityRadiated, AbilityFast, AbilityCaps}
}

// EnemyToken is one printed enemy token (or one level of a type).
type EnemyToken struct {
	ID         string   `yaml:"id" json:"id"`
	Level      int      `yaml:"level" json:"level"`
	Vulnerable []string `yaml:"vulnerable" json:"vulnerable"`
	Abilities  []string `yaml:"abilities,omitempty" json:"abilities,omitempty"`
	// Armor is the number of armor icons (only meaningful with AbilityArmor).
	Armor int `yaml:"armor,omitempty" json:"armor,omitempty"`
}

// Has reports whether the token has ability a.
func (t EnemyToken) Has(a string) bool {
	for _, x := range t.Abilities {
		if x == a {
			return true
		}
	}
	return false
}

// VulnerableTo reports whether region r is a vulnerable region.
func (t EnemyToken) VulnerableTo(r string) bool {
	for _, x := range t.Vulnerable {
		if x == r {
			return true
		}
	}
	return false
}

// EnemyType is one of the standard enemy types, or a faction's enemies.
type EnemyType struct {
	ID     string `yaml:"id" json:"id"`
	Name   string `yaml:"name" json:"name"`
	Plural string `yaml:"plural,omitempty" json:"plural,omitempty"`
	// Names holds Name and Plural in other languages: keys "de", "de_plural".
	Names   map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
	Tokens  []EnemyToken      `yaml:"tokens" json:"tokens"`
	Assumed bool              `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note    string            `yaml:"note,omitempty" json:"note,omitempty"`
}

// Token returns the token with the given id.
func (e EnemyType) Token(id string) (EnemyToken, bool) {
	for _, t := range e.Tokens {
		if t.ID == id {
			return t, true
		}
	}
	return EnemyToken{}, false
}

// Faction is a faction of a scenario; its enemies are an enemy type.
type Faction struct {
	ID    string `yaml:"id" json:"id"`
	Name  string `yaml:"name" json:"name"`
	Enemy string `yaml:"enemy" json:"enemy"` // enemy type id of its faction tokens
	// Names holds Name in other languages, keyed by language code.
	Names   map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
	Assumed bool              `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note    string            `yaml:"note,omitempty" json:"note,omitempty"`
}

// ActivationCard activates two enemy types (top, then bottom) and may show a
// faction icon. Icon is "" (none) or one of the scenario's icon ids.
type ActivationCard struct {
	ID      string    `yaml:"id" json:"id"`
	Types   [2]string `yaml:"types" json:"types"`
	Icon    string    `yaml:"icon,omitempty" json:"icon,omitempty"`
	Label   string    `yaml:"label,omitempty" json:"label,omitempty"`
	Assumed bool      `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note    string    `yaml:"note,omitempty" json:"note,omitempty"`
}

// EffectRow is one row of a scenario's activation-effect table; it applies
// when the number of opposing-faction enemies on the map is in [Min, Max]
// (Max < 0: no upper bound).
type EffectRow struct {
	Min   int    `yaml:"min" json:"min"`
	Max   int    `yaml:"max" json:"max"`
	Label string `yaml:"label" json:"label"`
	// Text is what the row makes the group do, as their scenario sheet
	// says it; the sheets' text does not ship, so the embedded rows have
	// none and a group writes its own in a content override.
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
	// Names holds Label in other languages, keyed by language code, and
	// Text keyed by language code + "_text" (de_text).
	Names map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
}

// Matches reports whether the row applies to n enemies.
func (r EffectRow) Matches(n int) bool {
	return n >= r.Min && (r.Max < 0 || n <= r.Max)
}

// LoyalPlus is the "+" effect a loyal faction's advancement resolves instead.
type LoyalPlus struct {
	XP    int    `yaml:"xp,omitempty" json:"xp,omitempty"`
	Caps  int    `yaml:"caps,omitempty" json:"caps,omitempty"`
	Camps int    `yaml:"camps,omitempty" json:"camps,omitempty"`
	Label string `yaml:"label,omitempty" json:"label,omitempty"`
	// Names holds Label in other languages, keyed by language code.
	Names map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
}

// ScenarioFaction is one side of a scenario sheet.
type ScenarioFaction struct {
	Faction string `yaml:"faction" json:"faction"`
	// Icon is the faction icon id that activation cards show for it.
	Icon string `yaml:"icon" json:"icon"`
	// Plus applies when this faction is loyal.
	Plus LoyalPlus `yaml:"plus" json:"plus"`
	// Activation rows apply when this faction is the opposing one.
	Activation []EffectRow `yaml:"activation" json:"activation"`
}

// Scenario is a scenario sheet of the cooperative mode.
type Scenario struct {
	ID        string `yaml:"id" json:"id"`
	Name      string `yaml:"name" json:"name"`
	Expansion string `yaml:"expansion,omitempty" json:"expansion,omitempty"`
	// Names holds Name in other languages, keyed by language code.
	Names map[string]string `yaml:"names,omitempty" json:"names,omitempty"`
	// Factions are the two factions on the sheet.
	Factions []ScenarioFaction `yaml:"factions" json:"factions"`
	// PowerTrack is the number of spaces; the token starts on space 0 and
	// reaching space PowerTrack-1 ends the game as a loss.
	PowerTrack    int    `yaml:"power_track" json:"power_track"`
	GoalsRequired int    `yaml:"goals_required" json:"goals_required"`
	Assumed       bool   `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note          string `yaml:"note,omitempty" json:"note,omitempty"`
}

// Side returns the scenario side for faction id.
func (s Scenario) Side(faction string) (ScenarioFaction, bool) {
	for _, f := range s.Factions {
		if f.Faction == faction {
			return f, true
		}
	}
	return ScenarioFaction{}, false
}

// Rule switch values.
const (
	ArmorNegateHit = "negate-hit" // each enemy armor icon cancels one survivor hit (seed 000)
	ArmorExtraHit  = "extra-hit"  // an armored enemy needs one more hit to die (secondary source)

	RadiatedInstead    = "instead"    // a radiated enemy's damage is dealt as rads = level
	RadiatedAdditional = "additional" // normal damage, plus rads = level when it deals damage

	DeckReshuffle = "reshuffle" // empty activation deck: shuffle the discard into a new deck
	DeckStop      = "stop"      // empty activation deck: no more activations until reset

	AssistHitsSurvivor = "survivor" // assist die hits add to the survivor's hits on the enemy
	AssistHitsEnemy    = "enemy"    // assist die hits add to the enemy's hits on the survivor

	VictoryConfirm = "confirm" // the group confirms the sheet's Victory condition once the goals are done
	VictoryGoals   = "goals"   // completing the required goals wins at once
)

// Rules are the switches for rules the sources leave unconfirmed. Each is
// data with a documented default in the content pack.
type Rules struct {
	EnemyArmor         string `yaml:"enemy_armor" json:"enemy_armor"`
	Radiated           string `yaml:"radiated" json:"radiated"`
	DeckEmpty          string `yaml:"deck_empty" json:"deck_empty"`
	AssistHits         string `yaml:"assist_hits" json:"assist_hits"`
	RangedBonus        int    `yaml:"ranged_bonus" json:"ranged_bonus"`
	MutationRads       int    `yaml:"mutation_rads" json:"mutation_rads"`
	SurvivorMaxHP      int    `yaml:"survivor_max_hp" json:"survivor_max_hp"`
	KilledPower        int    `yaml:"killed_power" json:"killed_power"`
	SurplusGoalRetreat int    `yaml:"surplus_goal_retreat" json:"surplus_goal_retreat"`
	ActivationPower    int    `yaml:"activation_power" json:"activation_power"`
	AssistXP           int    `yaml:"assist_xp" json:"assist_xp"`
	Victory            string `yaml:"victory" json:"victory"`
	StartLoyal         bool   `yaml:"start_loyal" json:"start_loyal"`
	Assumed            bool   `yaml:"assumed,omitempty" json:"assumed,omitempty"`
	Note               string `yaml:"note,omitempty" json:"note,omitempty"`
}

// Content is the whole content pack after overrides are merged.
type Content struct {
	FaceSets        []FaceSet        `yaml:"face_sets" json:"face_sets"`
	EnemyTypes      []EnemyType      `yaml:"enemy_types" json:"enemy_types"`
	Factions        []Faction        `yaml:"factions" json:"factions"`
	ActivationCards []ActivationCard `yaml:"activation_cards" json:"activation_cards"`
	Scenarios       []Scenario       `yaml:"scenarios" json:"scenarios"`
	Rules           Rules            `yaml:"rules" json:"rules"`
	// Standard lists the five standard enemy type ids (activation cards name these).
	Standard []string `yaml:"standard_enemies" json:"standard_enemies"`
	// Games are the other games' dice, tokens and phases (games.yaml).
	Games []GameContent `yaml:"games,omitempty" json:"games,omitempty"`
}

// FaceSet returns the face set with the given id.
func (c *Content) FaceSet(id string) (FaceSet, bool) {
	for _, f := range c.FaceSets {
		if f.ID == id {
			return f, true
		}
	}
	return FaceSet{}, false
}

// EnemyType returns the enemy type with the given id.
func (c *Content) EnemyType(id string) (EnemyType, bool) {
	for _, e := range c.EnemyTypes {
		if e.ID == id {
			return e, true
		}
	}
	return EnemyType{}, false
}

// Faction returns the faction with the given id.
func (c *Content) Faction(id string) (Faction, bool) {
	for _, f := range c.Factions {
		if f.ID == id {
			return f, true
		}
	}
	return Faction{}, false
}

// Card returns the activation card with the given id.
func (c *Content) Card(id string) (ActivationCard, bool) {
	for _, a := range c.ActivationCards {
		if a.ID == id {
			return a, true
		}
	}
	return ActivationCard{}, false
}

// Scenario returns the scenario with the given id.
func (c *Content) Scenario(id string) (Scenario, bool) {
	for _, s := range c.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return Scenario{}, false
}

// Token finds an enemy token by id across all enemy types.
func (c *Content) Token(id string) (EnemyType, EnemyToken, bool) {
	for _, e := range c.EnemyTypes {
		if t, ok := e.Token(id); ok {
			return e, t, true
		}
	}
	return EnemyType{}, EnemyToken{}, false
}

// CardIDs lists activation card ids in content order.
func (c *Content) CardIDs() []string {
	ids := make([]string, len(c.ActivationCards))
	for i, a := range c.ActivationCards {
		ids[i] = a.ID
	}
	return ids
}

// Survivor is a player's character in a game.
type Survivor struct {
	ID   string `yaml:"id" json:"id"`
	Name string `yaml:"name" json:"name"`
	// MaxHP is the length of the HP track (red peg's start).
	MaxHP int `yaml:"max_hp" json:"max_hp"`
	// Special lists the S.P.E.C.I.A.L. letters the survivor owns (e.g. "SA").
	Special string `yaml:"special,omitempty" json:"special,omitempty"`
	// Armor is the number of armor icons on the survivor's apparel.
	Armor int `yaml:"armor,omitempty" json:"armor,omitempty"`
	// Ranged is true when the equipped weapon has the ranged icon.
	Ranged bool `yaml:"ranged,omitempty" json:"ranged,omitempty"`
}

// NumericValue parses a numeric face id; ok is false when it is not a number.
func NumericValue(fs FaceSet, id string) (int, bool) {
	if f, ok := fs.Face(id); ok && f.Value > 0 {
		return f.Value, true
	}
	n, err := strconv.Atoi(id)
	if err != nil {
		return 0, false
	}
	return n, true
}

// SortedKeys returns the keys of m in order (for deterministic output).
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ValidationError is a content problem tied to a file, an entry, the key
// in the entry and the line.
type ValidationError struct {
	File  string
	Line  int    // 0 when the file does not hold the entry
	Entry string // `face_sets "vats"`, "rules", "document"
	// Key is the key in the entry the problem is of ("faces", "power_track",
	// "faces[1].hits"); "" when it is the entry's as a whole.
	Key     string
	Problem string
}

func (e *ValidationError) Error() string {
	what := e.Entry
	if e.Key != "" && !strings.HasPrefix(e.Problem, e.Key) {
		// A problem that does not start with its key is told after it.
		what += ": " + e.Key
	}
	switch {
	case e.File == "":
		return fmt.Sprintf("content %s: %s", what, e.Problem)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, what, e.Problem)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, what, e.Problem)
}

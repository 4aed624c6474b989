package models

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"tablecam/internal/yamlpos"
)

//go:embed content/*.yaml
var embedded embed.FS

// DefaultContent returns the embedded content pack, validated.
func DefaultContent() (*Content, error) {
	return LoadContent("")
}

// LoadContent returns the embedded content pack with every *.yaml file in
// overrideDir (if not empty) merged over it, in file-name order. An entry
// whose id already exists replaces the earlier one whole; a new id is added;
// keys under "rules" replace only the switches they name. Errors name the
// file, the entry and the problem.
func LoadContent(overrideDir string) (*Content, error) {
	c := &Content{}
	names, err := fs.Glob(embedded, "content/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("list embedded content: %w", err)
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := embedded.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("read embedded %s: %w", n, err)
		}
		if err := c.merge("embedded:"+n, data, false); err != nil {
			return nil, err
		}
	}
	if overrideDir != "" {
		entries, err := os.ReadDir(overrideDir)
		if err != nil {
			return nil, fmt.Errorf("read content directory %s: %w", overrideDir, err)
		}
		for _, e := range entries {
			if e.IsDir() || !(strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
				continue
			}
			p := filepath.Join(overrideDir, e.Name())
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, fmt.Errorf("read content override %s: %w", p, err)
			}
			if err := c.merge(p, data, true); err != nil {
				return nil, err
			}
		}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// MergeYAML merges one YAML document (named file in errors) over c and
// validates the result. It is what LoadContent does for each override file.
func (c *Content) MergeYAML(file string, data []byte) error {
	return c.merge(file, data, true)
}

// part is one content file: like Content, but rules decoded separately.
type part struct {
	FaceSets        []FaceSet        `yaml:"face_sets"`
	EnemyTypes      []EnemyType      `yaml:"enemy_types"`
	Factions        []Faction        `yaml:"factions"`
	ActivationCards []ActivationCard `yaml:"activation_cards"`
	Scenarios       []Scenario       `yaml:"scenarios"`
	Rules           yaml.Node        `yaml:"rules"`
	Standard        []string         `yaml:"standard_enemies"`
	Games           []GameContent    `yaml:"games"`
}

func (c *Content) merge(file string, data []byte, validate bool) error {
	root, err := yamlpos.Parse(data)
	if err != nil {
		return decodeError(file, nil, err)
	}
	if root == nil {
		return nil // empty file
	}
	var p part
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		return decodeError(file, root, err)
	}
	for _, x := range p.FaceSets {
		if x.ID == "" {
			return &ValidationError{File: file, Entry: "face_sets", Problem: "entry without id"}
		}
		c.FaceSets = upsert(c.FaceSets, x, func(a FaceSet) string { return a.ID })
	}
	for _, x := range p.EnemyTypes {
		if x.ID == "" {
			return &ValidationError{File: file, Entry: "enemy_types", Problem: "entry without id"}
		}
		c.EnemyTypes = upsert(c.EnemyTypes, x, func(a EnemyType) string { return a.ID })
	}
	for _, x := range p.Factions {
		if x.ID == "" {
			return &ValidationError{File: file, Entry: "factions", Problem: "entry without id"}
		}
		c.Factions = upsert(c.Factions, x, func(a Faction) string { return a.ID })
	}
	for _, x := range p.ActivationCards {
		if x.ID == "" {
			return &ValidationError{File: file, Entry: "activation_cards", Problem: "entry without id"}
		}
		c.ActivationCards = upsert(c.ActivationCards, x, func(a ActivationCard) string { return a.ID })
	}
	for _, x := range p.Scenarios {
		if x.ID == "" {
			return &ValidationError{File: file, Entry: "scenarios", Problem: "entry without id"}
		}
		c.Scenarios = upsert(c.Scenarios, x, func(a Scenario) string { return a.ID })
	}
	for _, x := range p.Games {
		if x.ID == "" {
			return &ValidationError{File: file, Entry: "games", Problem: "entry without id"}
		}
		c.Games = upsert(c.Games, x, func(a GameContent) string { return a.ID })
	}
	if len(p.Standard) > 0 {
		c.Standard = p.Standard
	}
	if p.Rules.Kind != 0 {
		if err := p.Rules.Decode(&c.Rules); err != nil {
			return decodeError(file, root, err)
		}
	}
	if !validate {
		return nil
	}
	// Validate the merged content now so the error names this file.
	if err := c.Validate(); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) && ve.File == "" {
			ve.File, ve.Line = file, lineOf(root, ve.Entry, ve.Key)
			return ve
		}
		return err
	}
	return nil
}

func upsert[T any](list []T, x T, id func(T) string) []T {
	for i := range list {
		if id(list[i]) == id(x) {
			list[i] = x
			return list
		}
	}
	return append(list, x)
}

func knownRegion(r string) bool {
	switch r {
	case RegionHead, RegionTorso, RegionArms, RegionLegs:
		return true
	}
	return false
}

// Validate checks the whole content pack for consistency. Errors are
// *ValidationError values naming the entry and the problem.
func (c *Content) Validate() error {
	bad := func(entry, format string, args ...any) error {
		return &ValidationError{Entry: entry, Problem: fmt.Sprintf(format, args...)}
	}
	// badKey is a problem of one key of the entry: its line is the key's.
	badKey := func(entry, key, format string, args ...any) error {
		return &ValidationError{Entry: entry, Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	for _, s := range c.FaceSets {
		e := fmt.Sprintf("face_sets %q", s.ID)
		if s.Kind != KindSymbol && s.Kind != KindNumeric {
			return badKey(e, "kind", "kind must be %q or %q, got %q", KindSymbol, KindNumeric, s.Kind)
		}
		if len(s.Faces) < 2 {
			return badKey(e, "faces", "needs at least 2 faces, has %d", len(s.Faces))
		}
		seen := map[string]bool{}
		for _, f := range s.Faces {
			if f.ID == "" {
				return badKey(e, "faces", "a face has no id")
			}
			if strings.ContainsAny(f.ID, " \t,") {
				return badKey(e, "faces", "face id %q must not contain spaces or commas", f.ID)
			}
			if seen[f.ID] {
				return badKey(e, "faces", "face id %q appears twice", f.ID)
			}
			seen[f.ID] = true
			if f.Hits < 0 || f.Hurt < 0 {
				return badKey(e, "faces", "face %q: hits and hurt must not be negative", f.ID)
			}
			if s.Kind == KindNumeric && f.Value <= 0 {
				return badKey(e, "faces", "face %q: a numeric face needs a value > 0", f.ID)
			}
			for _, r := range f.Regions {
				if !knownRegion(r) {
					return badKey(e, "faces", "face %q: unknown region %q (head, torso, arms, legs)", f.ID, r)
				}
			}
		}
	}
	types := map[string]bool{}
	for _, t := range c.EnemyTypes {
		e := fmt.Sprintf("enemy_types %q", t.ID)
		types[t.ID] = true
		if len(t.Tokens) == 0 {
			return badKey(e, "tokens", "needs at least one token")
		}
		for _, tok := range t.Tokens {
			if tok.ID == "" {
				return badKey(e, "tokens", "a token has no id")
			}
			if tok.Level < 1 {
				return badKey(e, "tokens", "token %q: level must be at least 1, got %d", tok.ID, tok.Level)
			}
			if tok.Armor < 0 {
				return badKey(e, "tokens", "token %q: armor must not be negative", tok.ID)
			}
			for _, r := range tok.Vulnerable {
				if !knownRegion(r) {
					return badKey(e, "tokens", "token %q: unknown region %q (head, torso, arms, legs)", tok.ID, r)
				}
			}
			for _, a := range tok.Abilities {
				if !contains(KnownAbilities(), a) {
					return badKey(e, "tokens", "token %q: unknown ability %q (one of %s)", tok.ID, a, strings.Join(KnownAbilities(), ", "))
				}
			}
		}
	}
	for _, s := range c.Standard {
		if !types[s] {
			return bad("standard_enemies", "unknown enemy type %q", s)
		}
	}
	factions := map[string]bool{}
	for _, f := range c.Factions {
		factions[f.ID] = true
		if f.Enemy != "" && !types[f.Enemy] {
			return badKey(fmt.Sprintf("factions %q", f.ID), "enemy", "unknown enemy type %q", f.Enemy)
		}
	}
	for _, a := range c.ActivationCards {
		e := fmt.Sprintf("activation_cards %q", a.ID)
		for _, t := range a.Types {
			if !types[t] {
				return badKey(e, "types", "unknown enemy type %q", t)
			}
		}
	}
	for _, s := range c.Scenarios {
		e := fmt.Sprintf("scenarios %q", s.ID)
		if len(s.Factions) != 2 {
			return badKey(e, "factions", "needs exactly 2 factions, has %d", len(s.Factions))
		}
		if s.Factions[0].Icon == s.Factions[1].Icon {
			return badKey(e, "factions", "both factions use icon %q", s.Factions[0].Icon)
		}
		if s.PowerTrack < 2 {
			return badKey(e, "power_track", "power_track must be at least 2 spaces, got %d", s.PowerTrack)
		}
		if s.GoalsRequired < 1 {
			return badKey(e, "goals_required", "goals_required must be at least 1, got %d", s.GoalsRequired)
		}
		for _, f := range s.Factions {
			if !factions[f.Faction] {
				return badKey(e, "factions", "unknown faction %q", f.Faction)
			}
			for _, r := range f.Activation {
				if r.Min < 0 || (r.Max >= 0 && r.Max < r.Min) {
					return badKey(e, "factions", "faction %q: activation row [%d, %d] is empty", f.Faction, r.Min, r.Max)
				}
			}
		}
	}
	r := c.Rules
	switch {
	case r.EnemyArmor != ArmorNegateHit && r.EnemyArmor != ArmorExtraHit:
		return badKey("rules", "enemy_armor", "enemy_armor must be %q or %q, got %q", ArmorNegateHit, ArmorExtraHit, r.EnemyArmor)
	case r.Radiated != RadiatedInstead && r.Radiated != RadiatedAdditional:
		return badKey("rules", "radiated", "radiated must be %q or %q, got %q", RadiatedInstead, RadiatedAdditional, r.Radiated)
	case r.DeckEmpty != DeckReshuffle && r.DeckEmpty != DeckStop:
		return badKey("rules", "deck_empty", "deck_empty must be %q or %q, got %q", DeckReshuffle, DeckStop, r.DeckEmpty)
	case r.AssistHits != AssistHitsSurvivor && r.AssistHits != AssistHitsEnemy:
		return badKey("rules", "assist_hits", "assist_hits must be %q or %q, got %q", AssistHitsSurvivor, AssistHitsEnemy, r.AssistHits)
	case r.Victory != VictoryConfirm && r.Victory != VictoryGoals:
		return badKey("rules", "victory", "victory must be %q or %q, got %q", VictoryConfirm, VictoryGoals, r.Victory)
	case r.SurvivorMaxHP < 1:
		return badKey("rules", "survivor_max_hp", "survivor_max_hp must be at least 1, got %d", r.SurvivorMaxHP)
	case r.MutationRads < 1:
		return badKey("rules", "mutation_rads", "mutation_rads must be at least 1, got %d", r.MutationRads)
	case r.RangedBonus < 0 || r.KilledPower < 0 || r.SurplusGoalRetreat < 0 || r.ActivationPower < 0 || r.AssistXP < 0:
		return bad("rules", "ranged_bonus, killed_power, surplus_goal_retreat, activation_power and assist_xp must not be negative")
	}
	return c.validateGames()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// AddTaughtSet makes a face set that was taught from pictures (a set the
// content pack does not define) known to the rules, so that rolls of it are
// accepted and announced by its face labels. When the content (or a user's
// override file) already defines a set with that id, the content's face
// table wins: each taught face id must then be one of its faces, or the
// readings could not be scored.
func (c *Content) AddTaughtSet(fs FaceSet) error {
	if have, ok := c.FaceSet(fs.ID); ok {
		for _, f := range fs.Faces {
			if _, ok := have.Face(f.ID); !ok {
				return &ValidationError{Entry: fmt.Sprintf("face_sets %q", fs.ID),
					Problem: fmt.Sprintf("the taught face %q is not a face of the content's set (faces: %s); name the face folders after them and teach again, or add the face to the set", f.ID, strings.Join(have.FaceIDs(), ", "))}
			}
		}
		return nil
	}
	fs.Faces = append([]Face(nil), fs.Faces...)
	next := *c
	next.FaceSets = append(append([]FaceSet(nil), c.FaceSets...), fs)
	if err := next.Validate(); err != nil {
		return err
	}
	c.FaceSets = next.FaceSets
	return nil
}

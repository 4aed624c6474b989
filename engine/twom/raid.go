package twom

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Outcome kinds of the night raid and of carrying home.
const (
	KindArmed      = "twom.armed"       // vars character, weapon, die
	KindRaidCard   = "twom.raid_card"   // vars damage, wounds, guards, dice
	KindGuardRoll  = "twom.guard_roll"  // vars character, die, symbols, total, ignores, fate, ammo, reroll, rerolls_left, shot
	KindRaidResult = "twom.raid_result" // vars symbols, boards, ignored, stolen, wounds, guards
	KindCarry      = "twom.carry"       // vars weight, limit, fits, over
)

// RaidState is the night raid in progress: the guards' weapons, the raid
// card and the guards' combat dice.
type RaidState struct {
	// Weapons of the guards who were armed; a guard without one fights
	// unarmed.
	Weapons map[string]Weapon `json:"weapons,omitempty"`
	// Card is the night raid card drawn; nil before it is drawn.
	Card *Raid `json:"card,omitempty"`
	// Dice are each guard's dice as they stand (two for an assault rifle
	// that shoots twice).
	Dice map[string][]CombatFace `json:"dice,omitempty"`
	// Rerolls counts the rerolls each guard used this raid.
	Rerolls map[string]int `json:"rerolls,omitempty"`
	// Resolved: the guards' defence is applied.
	Resolved bool `json:"resolved,omitempty"`
}

func (r *RaidState) clone() *RaidState {
	if r == nil {
		return nil
	}
	c := *r
	c.Weapons = maps.Clone(r.Weapons)
	c.Dice = maps.Clone(r.Dice)
	for k, v := range c.Dice {
		c.Dice[k] = slices.Clone(v)
	}
	c.Rerolls = maps.Clone(r.Rerolls)
	if r.Card != nil {
		card := *r.Card
		c.Card = &card
	}
	return &c
}

// guards lists the present characters on guard, in the group's order.
func (g Game) guards() []Character {
	var out []Character
	for _, i := range g.present() {
		if c := g.Characters[i]; c.Task == Guard {
			out = append(out, c)
		}
	}
	return out
}

func (g Game) guard(name string) (Character, error) {
	for _, c := range g.guards() {
		if c.Name == name {
			return c, nil
		}
	}
	return Character{}, fmt.Errorf("%s is not standing guard", name)
}

// GuardWeapon is what a guard fights the night raid with: the weapon it
// was armed with, else unarmed (seed 004 "Wachen bewaffnen").
func (g Game) GuardWeapon(name string) Weapon { return g.weapon(name) }

// weapon is what a guard fights the raid with.
func (g Game) weapon(name string) Weapon {
	if g.Raid != nil {
		if w, ok := g.Raid.Weapons[name]; ok {
			return w
		}
	}
	return Unarmed
}

func (g Game) raidPhase(what string) error {
	if g.Phase() != NightRaid {
		return fmt.Errorf("%s: made in the night raid, not in the %s phase", what, g.Phase())
	}
	return nil
}

// Arm gives a guard a weapon from the storage for the night raid: one
// weapon per character, a new one replaces it (seed 004 "Wachen
// bewaffnen"). Unarmed takes the weapon back.
func Arm(g Game, name string, w Weapon) (Game, []Outcome, error) {
	if err := g.raidPhase("arm"); err != nil {
		return g, nil, err
	}
	die, err := DieFor(w)
	if err != nil {
		return g, nil, fmt.Errorf("arm: %w", err)
	}
	if _, err := g.guard(name); err != nil {
		return g, nil, fmt.Errorf("arm: %w", err)
	}
	if g.Raid != nil && g.Raid.Card != nil {
		return g, nil, fmt.Errorf("arm: the raid card is drawn; the guards are armed before it")
	}
	g = g.clone()
	if g.Raid == nil {
		g.Raid = &RaidState{}
	}
	if g.Raid.Weapons == nil {
		g.Raid.Weapons = map[string]Weapon{}
	}
	g.Raid.Weapons[name] = w
	return g, []Outcome{{Kind: KindArmed, Vars: map[string]any{"character": name, "weapon": string(w), "die": string(die)}}}, nil
}

// DrawRaid records the night raid card: the damage (tokens or resources
// stolen) and the wound levels it deals; each guard then rolls the combat
// die of its weapon (seed 004 "Nächtlicher Überfall", "Wachen und
// Waffen").
func DrawRaid(g Game, r Raid) (Game, []Outcome, error) {
	if g.Current().ID != StepRaidCard {
		return g, nil, fmt.Errorf("raid: the night raid card is drawn at its step (%s), not at %s", StepRaidCard, g.Current().ID)
	}
	if r.Damage < 0 || r.Wounds < 0 {
		return g, nil, fmt.Errorf("raid: damage %d and wounds %d must be 0 or more", r.Damage, r.Wounds)
	}
	if g.Raid != nil && g.Raid.Card != nil {
		return g, nil, fmt.Errorf("raid: tonight's raid card is drawn already")
	}
	g = g.clone()
	if g.Raid == nil {
		g.Raid = &RaidState{}
	}
	g.Raid.Card = &r
	var names, dice []string
	for _, c := range g.guards() {
		d, _ := DieFor(g.weapon(c.Name))
		names, dice = append(names, c.Name), append(dice, string(d))
	}
	return g, []Outcome{{Kind: KindRaidCard, Vars: map[string]any{"damage": r.Damage, "wounds": r.Wounds, "guards": names, "dice": dice}}}, nil
}

// GuardRoll records a guard's combat die against the raid (seed 004
// "Wachen und Waffen", "Waffengebrauch während des nächtlichen
// Überfalls", "Stärke während des nächtlichen Überfalls"):
//   - each symbol cancels 1 damage or 1 wound;
//   - a firearm spends 1 ammunition; an assault rifle may spend a second
//     for a second shot (second), whose symbols add up;
//   - the shotgun's mark with a shotgun and the hatchet's mark with a
//     hatchet ignore the raid card; any other mark is a miss, and the fate
//     face is a miss unless the group trusts fate;
//   - another roll of the same die is a reroll: the guard's Strength is
//     its rerolls for the raid, and the last roll stands.
func GuardRoll(g Game, name string, f CombatFace, second bool) (Game, []Outcome, error) {
	if err := g.raidPhase("guard roll"); err != nil {
		return g, nil, err
	}
	if g.Raid == nil || g.Raid.Card == nil || g.Raid.Resolved {
		return g, nil, fmt.Errorf("guard roll: draw the night raid card first (raid DAMAGE WOUNDS)")
	}
	c, err := g.guard(name)
	if err != nil {
		return g, nil, fmt.Errorf("guard roll: %w", err)
	}
	w := g.weapon(name)
	s, err := Roll(w, f, false)
	if err != nil {
		return g, nil, fmt.Errorf("guard roll: %w", err)
	}
	g = g.clone()
	dice := g.Raid.Dice[name]
	ammo, reroll := 0, false
	switch {
	case second:
		if len(dice) != 1 {
			return g, nil, fmt.Errorf("guard roll: %s's second shot follows the first", name)
		}
		if _, err := AmmoCost(w, 2); err != nil {
			return g, nil, fmt.Errorf("guard roll: %w", err)
		}
		dice, ammo = append(dice, f), 1
	case len(dice) == 0:
		dice = []CombatFace{f}
		if Firearm(w) {
			ammo = 1
		}
	default:
		if RerollsLeft(c.Strength, g.Raid.Rerolls[name]) == 0 {
			return g, nil, fmt.Errorf("guard roll: %s has no rerolls left (strength %d); the last roll stands", name, c.Strength)
		}
		if g.Raid.Rerolls == nil {
			g.Raid.Rerolls = map[string]int{}
		}
		g.Raid.Rerolls[name]++
		dice[len(dice)-1], reroll = f, true
	}
	if g.Raid.Dice == nil {
		g.Raid.Dice = map[string][]CombatFace{}
	}
	g.Raid.Dice[name] = dice
	total, _ := guardDefence(w, dice)
	die, _ := DieFor(w)
	return g, []Outcome{{Kind: KindGuardRoll, Vars: map[string]any{
		"character": name, "die": string(die), "weapon": string(w), "symbols": f.Symbols, "total": total,
		"ignores": s.Kills, "fate": s.Fate, "ammo": ammo, "reroll": reroll, "shot": len(dice),
		"rerolls_left": RerollsLeft(c.Strength, g.Raid.Rerolls[name]),
	}}}, nil
}

// guardDefence sums a guard's symbols and says whether a die ignores the
// raid card.
func guardDefence(w Weapon, dice []CombatFace) (symbols int, ignores bool) {
	for _, f := range dice {
		s, _ := Roll(w, f, false)
		symbols += s.Wounds
		ignores = ignores || s.Kills
	}
	return symbols, ignores
}

// Defend applies the guards' dice and the boards on holes to the raid card:
// every symbol and every board cancels 1 damage or 1 wound; toWounds of
// them go to wounds (nil: wounds first), the rest to damage; a shotgun's
// or hatchet's special face ignores the card. What is left is stolen from
// the storage and spread as wound levels over the guards (seed 004
// "Nächtlicher Überfall", "Bretter auf Löchern").
func Defend(g Game, boards int, toWounds *int) (Game, []Outcome, error) {
	if err := g.raidPhase("defend"); err != nil {
		return g, nil, err
	}
	if g.Raid == nil || g.Raid.Card == nil || g.Raid.Resolved {
		return g, nil, fmt.Errorf("defend: draw the night raid card first (raid DAMAGE WOUNDS)")
	}
	d := Defence{Boards: boards}
	var names, waiting []string
	for _, c := range g.guards() {
		dice := g.Raid.Dice[c.Name]
		if len(dice) == 0 {
			waiting = append(waiting, c.Name)
			continue
		}
		n, ig := guardDefence(g.weapon(c.Name), dice)
		d.Symbols += n
		d.CardIgnored = d.CardIgnored || ig
		names = append(names, c.Name)
	}
	if len(waiting) > 0 {
		return g, nil, fmt.Errorf("defend: every guard rolls a combat die first; not rolled yet: %s", strings.Join(waiting, ", "))
	}
	card := *g.Raid.Card
	cw := min(d.Symbols+d.Boards, card.Wounds)
	if toWounds != nil {
		cw = *toWounds
	}
	left, err := ResolveRaid(card, d, cw)
	if err != nil {
		return g, nil, fmt.Errorf("defend: %w", err)
	}
	g = g.clone()
	g.Raid.Resolved = true
	return g, []Outcome{{Kind: KindRaidResult, Vars: map[string]any{
		"symbols": d.Symbols, "boards": d.Boards, "ignored": d.CardIgnored,
		"stolen": left.Damage, "wounds": left.Wounds, "guards": names,
	}}}, nil
}

// Carry checks what the scavengers bring home against their inventory
// slots: the weights summed (a token without a weight icon weighs 0), the
// limit the sum of the scavengers' inventory slots; what does not fit is
// left behind (seed 004 "Sachen wählen").
func Carry(g Game, weights []int) (Outcome, error) {
	if g.Phase() != Scavenging {
		return Outcome{}, fmt.Errorf("carry: chosen at the end of scavenging, not in the %s phase", g.Phase())
	}
	fits, err := CanCarry(g, weights)
	if err != nil {
		return Outcome{}, err
	}
	total := 0
	for _, w := range weights {
		total += w
	}
	limit := CarryLimit(g)
	return Outcome{Kind: KindCarry, Vars: map[string]any{"weight": total, "limit": limit, "fits": fits, "over": max(0, total-limit)}}, nil
}

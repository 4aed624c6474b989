package twom

import (
	"fmt"

	"tablecam/engine/dice"
)

// blackDie reads the black die: a d10 reading 1–10.
func blackDie(roll int) (int, error) {
	v, err := dice.ReadD10(roll)
	if err != nil {
		return 0, fmt.Errorf("black die: %w", err)
	}
	return v, nil
}

// Encounter reports whether a noise test meets someone: the black die at or
// under the noise level (seed 004 "Lärmanzeiger setzen").
func Encounter(noise, roll int) (bool, error) {
	v, err := blackDie(roll)
	if err != nil {
		return false, err
	}
	return v <= noise, nil
}

// ChangeNoise moves the noise marker by delta during scavenging; it never
// goes below 1 (seed 004 "Lärmanzeiger setzen").
func ChangeNoise(g Game, delta int) (Game, []Outcome, error) {
	if g.Phase() != Scavenging {
		return g, nil, fmt.Errorf("noise: the noise track is used while scavenging, not in the %s phase", g.Phase())
	}
	g.Noise = max(1, g.Noise+delta)
	return g, []Outcome{{Kind: KindNoise, Vars: map[string]any{"noise": g.Noise}}}, nil
}

// NoiseTest rolls the black die against the noise level: at or under it an
// encounter starts at once — the noise marker goes back to 1 and the top
// encounter card is drawn and resolved; scavenging goes on afterwards (seed
// 004 "Lärmanzeiger setzen").
func NoiseTest(g Game, roll int) (Game, []Outcome, error) {
	if g.Phase() != Scavenging {
		return g, nil, fmt.Errorf("noise test: made while scavenging, not in the %s phase", g.Phase())
	}
	enc, err := Encounter(g.Noise, roll)
	if err != nil {
		return g, nil, fmt.Errorf("noise test: %w", err)
	}
	v, _ := blackDie(roll)
	out := []Outcome{{Kind: KindNoiseTest, Vars: map[string]any{"roll": v, "noise": g.Noise, "encounter": enc}}}
	if enc {
		g.Noise = 1
		out = append(out, Outcome{Kind: KindNoise, Vars: map[string]any{"noise": 1}},
			Outcome{Kind: KindEncounter})
	}
	return g, out, nil
}

// LockpickOpens is the lowest black die that opens a locked door.
const LockpickOpens = 4

// Lockpick judges picking a locked door with a lockpick: 1–3 nothing
// happens; 4–10 the lockpick is discarded and the card's back is resolved
// (seed 004 "Schloss knacken").
func Lockpick(roll int) (Outcome, error) {
	v, err := blackDie(roll)
	if err != nil {
		return Outcome{}, fmt.Errorf("lockpick: %w", err)
	}
	return Outcome{Kind: KindLockpick, Vars: map[string]any{"roll": v, "opens": v >= LockpickOpens}}, nil
}

// CarryLimit is the total weight the scavengers can bring home: the sum of
// their inventory slots (seed 004 "Sachen wählen").
func CarryLimit(g Game) int {
	n := 0
	for _, i := range g.present() {
		if c := g.Characters[i]; c.Task == Scavenge {
			n += c.Inventory
		}
	}
	return n
}

// CanCarry reports whether items of these weights fit the scavengers'
// inventory slots; a token without a weight icon weighs 0 (seed 004
// "Sachen wählen").
func CanCarry(g Game, weights []int) (bool, error) {
	total := 0
	for _, w := range weights {
		if w < 0 {
			return false, fmt.Errorf("carry: weight %d must be 0 or more", w)
		}
		total += w
	}
	return total <= CarryLimit(g), nil
}

// Raid is what a night raid card does before the guards defend.
type Raid struct {
	// Damage: tokens or resources stolen from the storage.
	Damage int `json:"damage"`
	// Wounds: wound levels spread over the guards.
	Wounds int `json:"wounds"`
}

// Defence is what the guards and the shelter put up against a raid.
type Defence struct {
	// Symbols rolled on the guards' combat dice.
	Symbols int `json:"symbols"`
	// Boards on holes.
	Boards int `json:"boards,omitempty"`
	// CardIgnored: a shotgun or hatchet rolled its special face.
	CardIgnored bool `json:"card_ignored,omitempty"`
}

// ResolveRaid applies the guards' defence: each symbol and each board
// cancels 1 damage or 1 wound, as the group chooses (cancelWounds of them
// go to wounds, the rest to damage); a shotgun's or hatchet's special face
// ignores the card (seed 004 "Nächtlicher Überfall").
func ResolveRaid(r Raid, d Defence, cancelWounds int) (Raid, error) {
	if r.Damage < 0 || r.Wounds < 0 || d.Symbols < 0 || d.Boards < 0 {
		return r, fmt.Errorf("raid: negative damage, wounds, symbols or boards")
	}
	if d.CardIgnored {
		return Raid{}, nil
	}
	cancel := d.Symbols + d.Boards
	if cancelWounds < 0 || cancelWounds > cancel {
		return r, fmt.Errorf("raid: %d of %d cancellations cannot go to wounds", cancelWounds, cancel)
	}
	toWounds := min(cancelWounds, r.Wounds)
	left := cancel - toWounds
	return Raid{Damage: max(0, r.Damage-left), Wounds: r.Wounds - toWounds}, nil
}

// Weapon is what a character or an enemy fights with.
type Weapon string

// Weapons (seed 004 "Wachen und Waffen", "Waffen").
const (
	Unarmed      Weapon = "unarmed"
	Knife        Weapon = "knife"
	Hatchet      Weapon = "hatchet"
	Pistol       Weapon = "pistol"
	AssaultRifle Weapon = "assault_rifle"
	Shotgun      Weapon = "shotgun"
)

// Die is a combat die colour.
type Die string

// Combat dice.
const (
	Grey   Die = "grey"   // unarmed
	Yellow Die = "yellow" // melee weapons
	Red    Die = "red"    // firearms
)

// DieFor is the combat die a weapon rolls (seed 004 "Wachen und Waffen").
func DieFor(w Weapon) (Die, error) {
	switch w {
	case Unarmed:
		return Grey, nil
	case Knife, Hatchet:
		return Yellow, nil
	case Pistol, AssaultRifle, Shotgun:
		return Red, nil
	}
	return "", fmt.Errorf("unknown weapon %q", w)
}

// Firearm reports whether a weapon shoots: it uses ammunition and shoots
// first in combat (seed 004 "Waffengebrauch im Kampf").
func Firearm(w Weapon) bool { return w == Pistol || w == AssaultRifle || w == Shotgun }

// AmmoCost is the ammunition a character spends: 1 per shot with a
// firearm; only the assault rifle may shoot twice for 2 (seed 004
// "Waffengebrauch"). Enemies use no ammunition tokens.
func AmmoCost(w Weapon, shots int) (int, error) {
	switch {
	case !Firearm(w):
		if shots != 1 {
			return 0, fmt.Errorf("ammo: %s attacks once, not %d times", w, shots)
		}
		return 0, nil
	case shots == 1, shots == 2 && w == AssaultRifle:
		return shots, nil
	}
	return 0, fmt.Errorf("ammo: %s cannot shoot %d times", w, shots)
}

// Mark is a special face of a combat die.
type Mark string

// Combat die marks (seed 004 "Waffen", "Schicksalssymbol").
const (
	NoMark     Mark = ""
	MarkShot   Mark = "shotgun"     // kills outright with a shotgun
	MarkAxe    Mark = "hatchet"     // kills outright with a hatchet
	MarkNoAmmo Mark = "out_of_ammo" // an enemy's firearm is empty
	MarkFate   Mark = "fate"        // "S": a miss, or trust fate
)

// CombatFace is one face of a combat die: its wound symbols and mark.
type CombatFace struct {
	Symbols int  `json:"symbols"`
	Mark    Mark `json:"mark,omitempty"`
}

// Strike is what one combat die roll does.
type Strike struct {
	// Wounds dealt: one per symbol.
	Wounds int `json:"wounds"`
	// Kills: the shotgun's or hatchet's special face kills the opponent
	// outright (in a night raid: the raid card is ignored).
	Kills bool `json:"kills,omitempty"`
	// OutOfAmmo: an enemy's firearm is empty; move its marker to the row of
	// its other weapon or unarmed.
	OutOfAmmo bool `json:"out_of_ammo,omitempty"`
	// Fate: the group chooses a miss or draws a fate card and checks its
	// dice row for this die's colour.
	Fate bool `json:"fate,omitempty"`
}

// Roll judges one combat die roll (seed 004 "Kampfregeln", "Waffen",
// "Schicksalssymbol"): each symbol is a wound; the shotgun's mark with a
// shotgun and the hatchet's mark with a hatchet kill outright and count as
// misses with any other weapon; an enemy's out-of-ammo mark empties its
// firearm; the fate mark is a miss unless the group trusts fate.
func Roll(w Weapon, f CombatFace, enemy bool) (Strike, error) {
	if _, err := DieFor(w); err != nil {
		return Strike{}, fmt.Errorf("combat roll: %w", err)
	}
	if f.Symbols < 0 {
		return Strike{}, fmt.Errorf("combat roll: %d symbols", f.Symbols)
	}
	s := Strike{Wounds: f.Symbols}
	switch f.Mark {
	case MarkShot:
		s.Kills = w == Shotgun
	case MarkAxe:
		s.Kills = w == Hatchet
	case MarkNoAmmo:
		s.OutOfAmmo = enemy && Firearm(w)
	case MarkFate:
		s.Fate = true
	case NoMark:
	default:
		return Strike{}, fmt.Errorf("combat roll: unknown mark %q", f.Mark)
	}
	return s, nil
}

// EnemyRerolls reports whether an enemy rerolls: enemies use their
// strength's rerolls automatically, and only on 0 wounds (seed 004 "Stärke
// im Kampf").
func EnemyRerolls(strength, used, wounds int) bool { return wounds == 0 && used < strength }

// RerollsLeft is the rerolls a character has left this combat round (or
// night raid): its strength less those used; the last roll stands (seed 004
// "Stärke im Kampf", "Stärke während des nächtlichen Überfalls").
func RerollsLeft(strength, used int) int { return max(0, strength-used) }

// Kill applies the empathy test after the group kills someone other than a
// thug: the black die at or under a present character's empathy raises its
// misery by 1 (seed 004 "Tod von Feinden"). present names the characters
// at the fight.
func Kill(g Game, present []string, thug bool, roll int) (Game, []Outcome, error) {
	if thug {
		return g, nil, nil
	}
	return empathyTest(g, present, roll, 1, "kill")
}

// DeathWalks applies "death walks among us" at the end of Dawn: if a
// character died or left this day, the black die at or under a character's
// empathy raises its misery by 2 (seed 004 "Der Tod wandelt unter uns").
func DeathWalks(g Game, roll int) (Game, []Outcome, error) {
	switch {
	case g.Current().ID != StepDeath:
		return g, nil, fmt.Errorf("death walks among us: rolled at its Dawn step, not at %s", g.Current().ID)
	case !g.DeathToday:
		return g, nil, fmt.Errorf("death walks among us: nobody died or left today; no roll")
	case g.DeathTested:
		return g, nil, fmt.Errorf("death walks among us: already rolled today")
	}
	var names []string
	for _, i := range g.present() {
		names = append(names, g.Characters[i].Name)
	}
	g, out, err := empathyTest(g, names, roll, 2, "death")
	if err != nil {
		return g, nil, err
	}
	g.DeathTested = true
	return g, out, nil
}

func empathyTest(g Game, names []string, roll, misery int, reason string) (Game, []Outcome, error) {
	v, err := blackDie(roll)
	if err != nil {
		return g, nil, fmt.Errorf("empathy test: %w", err)
	}
	var hit []string
	var out []Outcome
	for _, n := range names {
		var o []Outcome
		g, o, err = update(g, n, func(c Character) (Character, []Outcome, error) {
			if v > c.Empathy {
				return c, nil, nil
			}
			hit = append(hit, c.Name)
			c, o := changeStatus(c, Misery, misery)
			return c, o, nil
		})
		if err != nil {
			return g, nil, fmt.Errorf("empathy test: %w", err)
		}
		out = append(out, o...)
	}
	head := Outcome{Kind: KindEmpathyTest, Vars: map[string]any{"roll": v, "reason": reason, "affected": hit}}
	return g, append([]Outcome{head}, out...), nil
}

package warfare

import (
	"fmt"

	"tablecam/engine/dice"
)

// Effect is one step of the environment phase.
type Effect string

// Environment effects, in the order the seed resolves them.
const (
	EffectPoison      Effect = "poison"
	EffectKnockDown   Effect = "knock_down"
	EffectUnconscious Effect = "unconscious"
	EffectRadiation   Effect = "radiation"
	EffectSmoke       Effect = "smoke"
)

// EnvironmentOrder lists the environment effects in the order they are
// resolved once every unit has an action token (seed 002 ch. 4 "Effetti
// Ambientali": veleno, colpo violento, incoscienza, radiazioni, fumo).
func EnvironmentOrder() []Effect {
	return []Effect{EffectPoison, EffectKnockDown, EffectUnconscious, EffectRadiation, EffectSmoke}
}

// PoisonResult is a poisoned character's Endurance roll.
type PoisonResult struct {
	Result
	// Damage is the hit points lost: 1 on a failed roll.
	Damage int `json:"damage"`
}

// Poison judges a poisoned character's Endurance roll: on a failure it takes
// 1 damage (seed 002 ch. 4 "Veleno").
func Poison(endurance, face int) (PoisonResult, error) {
	r, err := Test(endurance, 0, face)
	if err != nil {
		return PoisonResult{}, fmt.Errorf("poison: %w", err)
	}
	res := PoisonResult{Result: r}
	if !r.Success {
		res.Damage = 1
	}
	return res, nil
}

// UnconsciousResult is a dying character's Endurance roll.
type UnconsciousResult struct {
	Result
	// Dies on a failure; on a success the character stays unconscious
	// until healed.
	Dies bool `json:"dies"`
}

// UnconsciousCheck judges an unconscious (face-down) character's Endurance roll:
// a failure dies, a success stays unconscious until healed and cannot act
// (seed 002 ch. 4 "Svenimento").
func UnconsciousCheck(endurance, face int) (UnconsciousResult, error) {
	r, err := Test(endurance, 0, face)
	if err != nil {
		return UnconsciousResult{}, fmt.Errorf("unconscious: %w", err)
	}
	return UnconsciousResult{Result: r, Dies: !r.Success}, nil
}

// RadiationResult is the roll of a character ending its turn in a
// radiation zone.
type RadiationResult struct {
	Result
	// Immune: environmental armour or an immunity; no roll is made.
	Immune bool `json:"immune,omitempty"`
	// Unconscious on a failure: the character is laid face down.
	Unconscious bool `json:"unconscious,omitempty"`
	// GainsRadiation on a success: it takes some radiation and acts on.
	GainsRadiation bool `json:"gains_radiation,omitempty"`
}

// Radiation judges a character in a radiation zone: an immune one (Ghouls,
// Super Mutants, Paladins, Robots, some beasts, environmental armour) makes
// no roll; otherwise an Endurance failure falls unconscious and a success
// gains some radiation (seed 002 ch. 4 "Radiazioni"). face is ignored for an
// immune character.
func Radiation(endurance, face int, immune bool) (RadiationResult, error) {
	if immune {
		return RadiationResult{Immune: true}, nil
	}
	r, err := Test(endurance, 0, face)
	if err != nil {
		return RadiationResult{}, fmt.Errorf("radiation: %w", err)
	}
	return RadiationResult{Result: r, Unconscious: !r.Success, GainsRadiation: r.Success}, nil
}

// SmokeClearsAt is the lowest d10 that clears a smoke cloud.
const SmokeClearsAt = 5

// SmokeClears reports whether a smoke cloud disappears: one d10 per cloud,
// 5 or more clears it (seed 002 ch. 4 "Fumo").
func SmokeClears(face int) (bool, error) {
	v, err := dice.ReadD10(face)
	if err != nil {
		return false, fmt.Errorf("smoke: %w", err)
	}
	return v >= SmokeClearsAt, nil
}

// Light is the light level of a battle.
type Light string

// Light levels (seed 002 ch. 6 "Livello di Luce"). The zero value is Day,
// the level the seed uses when the players disagree.
const (
	Day      Light = ""
	Dawn     Light = "dawn"
	Dusk     Light = "dusk"
	Darkness Light = "darkness"
)

// LightPenalty is the number added to a ranged attack roll for the light:
// +2 at dawn and dusk except for Robots, Ghouls and Super Mutants; +2 in
// darkness except for Ghouls and Super Mutants; nothing by day (seed 002
// ch. 4 "Attacchi a Distanza", ch. 6 "Livello di Luce"). Melee is unaffected.
func LightPenalty(l Light, s Shooter) int {
	switch l {
	case Dawn, Dusk:
		if s == ShooterRobot || s == ShooterGhoul || s == ShooterSuperMutant {
			return 0
		}
		return 2
	case Darkness:
		if s == ShooterGhoul || s == ShooterSuperMutant {
			return 0
		}
		return 2
	}
	return 0
}

// LightAtSetup reads the random light level from the sum of 2d10: 2–5 dawn,
// 6–16 day, 17–18 dusk, 19–20 darkness (seed 002 ch. 6 "Livello di Luce",
// table "Tiro 2d10").
func LightAtSetup(face1, face2 int) (Light, error) {
	a, err := dice.ReadD10(face1)
	if err != nil {
		return Day, fmt.Errorf("light level: %w", err)
	}
	b, err := dice.ReadD10(face2)
	if err != nil {
		return Day, fmt.Errorf("light level: %w", err)
	}
	return lightForSum(a + b), nil
}

func lightForSum(sum int) Light {
	switch {
	case sum <= 5:
		return Dawn
	case sum <= 16:
		return Day
	case sum <= 18:
		return Dusk
	}
	return Darkness
}

// LightChanges reports whether the light level rolls the d10 at the end of
// each turn: at dawn and dusk; day and darkness stay (seed 002 ch. 6
// "Livello di Luce").
func LightChanges(l Light) bool { return l == Dawn || l == Dusk }

// LightAfterTurn is the light level after the end-of-turn d10: at dawn a 10
// makes it day, at dusk a 10 makes it dark; day and darkness do not change
// (seed 002 ch. 6 "Livello di Luce").
func LightAfterTurn(l Light, face int) (Light, error) {
	v, err := dice.ReadD10(face)
	if err != nil {
		return l, fmt.Errorf("light change: %w", err)
	}
	if v != 10 {
		return l, nil
	}
	switch l {
	case Dawn:
		return Day, nil
	case Dusk:
		return Darkness, nil
	}
	return l, nil
}

// Mines (seed 002 ch. 6 "Mine", "Far Brillare le Mine").
const (
	// MineRadiusCM: an exploding mine hits every unit within 10 cm.
	MineRadiusCM = 10
	// MineSaveMod is the save modifier of a mine.
	MineSaveMod = -2
	// MineRevealCM: a unit within 5 cm of a face-down mine reveals it.
	MineRevealCM = 5
)

// MineDamage is the damage of a mine on a failed save: 1d10 − 5, at least 1
// (seed 002 ch. 6 "Far Brillare le Mine").
func MineDamage(face int) (int, error) {
	v, err := dice.ReadD10(face)
	if err != nil {
		return 0, fmt.Errorf("mine damage: %w", err)
	}
	return max(1, v-5), nil
}

// MineSave judges the Endurance roll of a unit caught by a mine, with the
// mine's save modifier (seed 002 ch. 6 "Far Brillare le Mine").
func MineSave(endurance, face int) (Result, error) {
	r, err := Save(endurance, MineSaveMod, face)
	if err != nil {
		return Result{}, fmt.Errorf("mine: %w", err)
	}
	return r, nil
}

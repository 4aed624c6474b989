package warfare

import (
	"fmt"

	"tablecam/engine/dice"
)

// NaturalFail is the roll that fails every test whatever the modifiers
// (seed 002 ch. 1 "Riguardo ai Dadi": "un 10 è sempre un fallimento").
const NaturalFail = 10

// Result is one judged d10 test.
type Result struct {
	// Roll is the d10 as read (1–10; the face 0 reads 10).
	Roll int `json:"roll"`
	// Mod is the sum of the modifiers added to the roll.
	Mod int `json:"mod"`
	// Total is Roll + Mod, compared with Target.
	Total int `json:"total"`
	// Target is the stat (or skill level) rolled under.
	Target  int  `json:"target"`
	Success bool `json:"success"`
	// KnockDown: a successful attack that knocks the target down (face up).
	KnockDown bool `json:"knock_down,omitempty"`
}

// Test judges a roll-under test: success when the roll plus the modifiers is
// at most the stat, and never on a natural 10 (seed 002 ch. 1 "Riguardo ai
// Dadi"). face is the d10 face as printed (0–9) or read (1–10).
func Test(stat, mod, face int) (Result, error) {
	v, err := dice.ReadD10(face)
	if err != nil {
		return Result{}, fmt.Errorf("warfare test: %w", err)
	}
	return judge(stat, mod, v), nil
}

func judge(stat, mod, roll int) Result {
	total := roll + mod
	return Result{Roll: roll, Mod: mod, Total: total, Target: stat,
		Success: roll != NaturalFail && total <= stat}
}

// Melee is a melee attack (seed 002 ch. 4 "Attacchi in Mischia", "Carica",
// "Movimento e Fuoco").
type Melee struct {
	Strength int `json:"strength"`
	// TargetAC is the target's armour class, added to the roll.
	TargetAC int `json:"target_ac"`
	// FromBehind: the attack comes from the target's rear 180°: −1.
	FromBehind bool `json:"from_behind,omitempty"`
	// Charge: the attack ends a charge move: +4.
	Charge bool `json:"charge,omitempty"`
	// MoveAndFire: the attack ends a move-and-fire action: +4.
	MoveAndFire bool `json:"move_and_fire,omitempty"`
}

// Mod is the sum of the melee modifiers added to the roll.
func (m Melee) Mod() int {
	mod := m.TargetAC
	if m.FromBehind {
		mod--
	}
	if m.Charge {
		mod += 4
	}
	if m.MoveAndFire {
		mod += 4
	}
	return mod
}

// MeleeAttack judges a melee attack: Strength test with the target's armour
// class added; a successful roll of 1 or 2 knocks the target down (seed 002
// ch. 4 "Attacchi in Mischia").
func MeleeAttack(m Melee, face int) (Result, error) {
	r, err := Test(m.Strength, m.Mod(), face)
	if err != nil {
		return Result{}, fmt.Errorf("melee attack: %w", err)
	}
	r.KnockDown = r.Success && r.Roll <= 2
	return r, nil
}

// Shooter is the kind of unit firing, for the light-level exemptions.
type Shooter string

// Shooters named by the light-level rules; any other unit is ShooterOther.
const (
	ShooterOther       Shooter = ""
	ShooterRobot       Shooter = "robot"
	ShooterGhoul       Shooter = "ghoul"
	ShooterSuperMutant Shooter = "super_mutant"
)

// Ranged is a ranged attack (seed 002 ch. 4 "Attacchi a Distanza",
// "Movimento e Fuoco"; ch. 6 "Livello di Luce").
type Ranged struct {
	Agility int `json:"agility"`
	// TargetAC is the target's armour class (a squad's is its lowest, see
	// SquadAC); area-effect attacks ignore it.
	TargetAC   int  `json:"target_ac"`
	AreaEffect bool `json:"area_effect,omitempty"`
	// Cover: the target is next to a wall or rough ground the shooter is
	// not in: +1.
	Cover bool `json:"cover,omitempty"`
	// Flying target: +1.
	Flying bool `json:"flying,omitempty"`
	// MoveAndFire: the attack ends a move-and-fire action: +4.
	MoveAndFire bool    `json:"move_and_fire,omitempty"`
	Light       Light   `json:"light"`
	Shooter     Shooter `json:"shooter,omitempty"`
}

// Mod is the sum of the ranged modifiers added to the roll.
func (r Ranged) Mod() int {
	mod := 0
	if !r.AreaEffect {
		mod += r.TargetAC
	}
	if r.Cover {
		mod++
	}
	if r.Flying {
		mod++
	}
	if r.MoveAndFire {
		mod += 4
	}
	return mod + LightPenalty(r.Light, r.Shooter)
}

// RangedAttack judges a ranged attack: Agility test with the modifiers of
// Ranged.Mod; a successful roll of 1 knocks the target down (seed 002 ch. 4
// "Attacchi a Distanza").
func RangedAttack(r Ranged, face int) (Result, error) {
	res, err := Test(r.Agility, r.Mod(), face)
	if err != nil {
		return Result{}, fmt.Errorf("ranged attack: %w", err)
	}
	res.KnockDown = res.Success && res.Roll == 1
	return res, nil
}

// SquadAC is the armour class of a squad: the lowest of its members' (seed
// 002 ch. 4 "Attacchi a Distanza").
func SquadAC(members []int) (int, error) {
	if len(members) == 0 {
		return 0, fmt.Errorf("squad armour class: the squad has no members")
	}
	low := members[0]
	for _, ac := range members[1:] {
		low = min(low, ac)
	}
	return low, nil
}

// Save judges the Endurance roll against a hit: the weapon's save modifier
// is added to the roll; a natural 10 fails (seed 002 ch. 4 "Danno e Morte").
func Save(endurance, saveMod, face int) (Result, error) {
	r, err := Test(endurance, saveMod, face)
	if err != nil {
		return Result{}, fmt.Errorf("save: %w", err)
	}
	return r, nil
}

// Condition is what a unit's hit points say about it.
type Condition string

// Conditions after damage (seed 002 ch. 4 "Danno e Morte").
const (
	Standing    Condition = "standing"    // 1 or more HP: acts normally
	Unconscious Condition = "unconscious" // exactly 0 HP: face down
	Dead        Condition = "dead"        // below 0 HP: removed, its points go to the opponent
)

// ApplyDamage subtracts a failed save's damage from the hit points and says
// what the unit is now (seed 002 ch. 4 "Danno e Morte").
func ApplyDamage(hp, damage int) (int, Condition, error) {
	if damage < 0 {
		return hp, "", fmt.Errorf("damage %d must be 0 or more", damage)
	}
	hp -= damage
	switch {
	case hp > 0:
		return hp, Standing, nil
	case hp == 0:
		return hp, Unconscious, nil
	}
	return hp, Dead, nil
}

// Side names one of the two players.
type Side string

// Sides.
const (
	SideNone Side = ""
	SideA    Side = "a"
	SideB    Side = "b"
)

// InitiativeRoll is one side's initiative roll.
type InitiativeRoll struct {
	// Face is the d10 face (0–9 as printed or 1–10 as read).
	Face int `json:"face"`
	// LastAttacker: this side was the attacker last turn: +2.
	LastAttacker bool `json:"last_attacker,omitempty"`
	// HasHero and HeroLuck: the side's hero with the highest Luck, for ties.
	HasHero  bool `json:"has_hero,omitempty"`
	HeroLuck int  `json:"hero_luck,omitempty"`
}

// InitiativeResult is the outcome of the initiative roll.
type InitiativeResult struct {
	TotalA int `json:"total_a"`
	TotalB int `json:"total_b"`
	// Winner is the attacker of this turn; SideNone when Reroll.
	Winner Side `json:"winner"`
	// ByLuck: a tie broken by the heroes' Luck.
	ByLuck bool `json:"by_luck,omitempty"`
	// Reroll: a tie with no hero or equal Luck: both sides roll again.
	Reroll bool `json:"reroll,omitempty"`
}

// LastAttackerBonus is added to the initiative roll of last turn's attacker.
const LastAttackerBonus = 2

// Initiative judges the initiative roll: 1d10 each, +2 for last turn's
// attacker (no bonus on the first turn), the higher total attacks; a tie goes
// to the side whose hero has the higher Luck, else both roll again (seed 002
// ch. 4 "Tirare per l'Iniziativa"). The winner may act with two units.
func Initiative(a, b InitiativeRoll) (InitiativeResult, error) {
	if a.LastAttacker && b.LastAttacker {
		return InitiativeResult{}, fmt.Errorf("initiative: only one side can have been last turn's attacker")
	}
	va, err := dice.ReadD10(a.Face)
	if err != nil {
		return InitiativeResult{}, fmt.Errorf("initiative side a: %w", err)
	}
	vb, err := dice.ReadD10(b.Face)
	if err != nil {
		return InitiativeResult{}, fmt.Errorf("initiative side b: %w", err)
	}
	return initiative(va, vb, a, b), nil
}

func initiative(va, vb int, a, b InitiativeRoll) InitiativeResult {
	if a.LastAttacker {
		va += LastAttackerBonus
	}
	if b.LastAttacker {
		vb += LastAttackerBonus
	}
	res := InitiativeResult{TotalA: va, TotalB: vb}
	switch {
	case va > vb:
		res.Winner = SideA
	case vb > va:
		res.Winner = SideB
	default:
		res.Winner = luckWinner(a, b)
		res.ByLuck = res.Winner != SideNone
		res.Reroll = res.Winner == SideNone
	}
	return res
}

// luckWinner breaks an initiative tie by the heroes' Luck.
func luckWinner(a, b InitiativeRoll) Side {
	if !a.HasHero && !b.HasHero {
		return SideNone
	}
	la, lb := -1, -1
	if a.HasHero {
		la = a.HeroLuck
	}
	if b.HasHero {
		lb = b.HeroLuck
	}
	switch {
	case la > lb:
		return SideA
	case lb > la:
		return SideB
	}
	return SideNone
}

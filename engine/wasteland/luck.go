package wasteland

import (
	"fmt"
	"strconv"
	"strings"
)

// FaceKind is what a skill die face shows.
type FaceKind string

// Skill die face kinds (rules-other-games.md "Dice", likely).
const (
	Number   FaceKind = "number"   // a printed number
	AP       FaceKind = "ap"       // action-point icon: reads 1
	Critical FaceKind = "critical" // critical icon: reads 1, no luck changes it
	X        FaceKind = "x"        // always fails; not a number, no luck changes it
)

// SkillFace is one face of the skill die.
type SkillFace struct {
	Kind FaceKind `json:"kind"`
	// Value is the printed number of a Number face.
	Value int `json:"value,omitempty"`
}

// Reads returns the number the face counts as; ok is false for X.
func (f SkillFace) Reads() (int, bool) {
	switch f.Kind {
	case Number:
		return f.Value, true
	case AP, Critical:
		return 1, true
	}
	return 0, false
}

// ParseFace reads a face id of a taught skill die: a number ("2"–"20"),
// "ap", "crit"/"critical" or "x".
func ParseFace(id string) (SkillFace, error) {
	switch s := strings.ToLower(strings.TrimSpace(id)); s {
	case "ap":
		return SkillFace{Kind: AP}, nil
	case "crit", "critical":
		return SkillFace{Kind: Critical}, nil
	case "x":
		return SkillFace{Kind: X}, nil
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 20 {
			return SkillFace{}, fmt.Errorf("skill die face %q: want a number 1–20, ap, crit or x", id)
		}
		return SkillFace{Kind: Number, Value: n}, nil
	}
}

// SkillPasses judges a skill test: the face's number plus the luck
// modifier is at most the skill value; X always fails and a Critical reads
// 1 whatever the modifier (seed 001 "Genauigkeit", "Ausweichen").
func SkillPasses(skill int, f SkillFace, mod int) bool {
	v, ok := f.Reads()
	if !ok {
		return false
	}
	if f.Kind == Critical {
		mod = 0
	}
	return v+mod <= skill
}

// Unit is a model's luck: its LUC value and the tokens it holds.
type Unit struct {
	Name   string `json:"name,omitempty"`
	LUC    int    `json:"luc"`
	Tokens int    `json:"tokens"`
}

// SetupTokens is the number of tokens a unit gets at setup: its LUC value
// (seed 001, first paragraph). Several luck symbols on its cards give no
// more.
func SetupTokens(luc int) int { return max(0, luc) }

// GainTokens gives a unit n tokens, never more than its LUC in all (seed
// 001: "Ein Modell kann nie mehr Glücksmarken besitzen, als seinem
// LUC-Wert entspricht").
func GainTokens(u Unit, n int) Unit {
	u.Tokens = min(max(0, u.LUC), u.Tokens+max(0, n))
	return u
}

// Use is what a luck token is thrown for; it is declared before the flip.
type Use string

// Luck uses (seed 001).
const (
	Accuracy      Use = "accuracy"       // after a failed test: skill die −2
	Dodge         Use = "dodge"          // after a hit, before damage: attacker's roll +2
	Toughness     Use = "toughness"      // damage computed after armour: −1
	ExtraCritical Use = "extra_critical" // after a successful attack: +1 critical point
)

// Role says who throws the token.
type Role string

// Roles in a Roll.
const (
	Actor  Role = "actor"  // the unit taking the test (the attacker)
	Target Role = "target" // the attacked unit
)

// Option is one luck use legal now.
type Option struct {
	Use Use  `json:"use"`
	By  Role `json:"by"`
}

// Stage is how far a Roll has come.
type Stage string

// Stages of a Roll.
const (
	StageRoll     Stage = "roll"     // the die is read: accuracy and dodge
	StageResolved Stage = "resolved" // the roll is final: extra critical
	StageDamage   Stage = "damage"   // damage after armour is known: toughness
)

// Roll is one skill test (or attack) and the luck thrown on it.
type Roll struct {
	Skill int       `json:"skill"`
	Face  SkillFace `json:"face"`
	// Attack: the test is an attack on Defender (dodge, toughness and
	// extra critical apply).
	Attack bool `json:"attack,omitempty"`
	// Simulator: the Vault-Tec Simulator variant, without luck tokens.
	Simulator bool  `json:"simulator,omitempty"`
	Stage     Stage `json:"stage"`
	Tester    Unit  `json:"tester"`
	Defender  Unit  `json:"defender"`
	// Mod is the sum of the luck modifiers on the skill die (−2, +2).
	Mod int `json:"mod,omitempty"`
	// Used records each use thrown, shown or not.
	Used map[Use]bool `json:"used,omitempty"`
	// Dodged: the target's dodge showed luck and turned the hit into a miss;
	// the attacker may throw no more luck on this attack.
	Dodged bool `json:"dodged,omitempty"`
	// Damage is the damage after armour (StageDamage), after toughness.
	Damage int `json:"damage,omitempty"`
	// ExtraCP is the critical points added by luck.
	ExtraCP int `json:"extra_cp,omitempty"`
}

// NewTest starts a skill test that is not an attack.
func NewTest(skill int, f SkillFace, tester Unit) Roll {
	return Roll{Skill: skill, Face: f, Tester: tester, Stage: StageRoll}
}

// NewAttack starts an attack: a skill test against a target.
func NewAttack(skill int, f SkillFace, attacker, target Unit) Roll {
	return Roll{Skill: skill, Face: f, Attack: true, Tester: attacker, Defender: target, Stage: StageRoll}
}

// Success reports whether the test passes with the luck thrown so far.
func (r Roll) Success() bool { return SkillPasses(r.Skill, r.Face, r.Mod) }

// Legal lists the luck uses that may be declared now, in the order the
// seed names them.
func Legal(r Roll) []Option {
	var out []Option
	for _, o := range []Option{{Accuracy, Actor}, {Dodge, Target}, {Toughness, Target}, {ExtraCritical, Actor}} {
		if legal(r, o.Use) == nil {
			out = append(out, o)
		}
	}
	return out
}

// legal explains why a use is not allowed now, or returns nil.
func legal(r Roll, u Use) error {
	if r.Simulator {
		return fmt.Errorf("the Vault-Tec Simulator has no luck tokens")
	}
	if r.Used[u] {
		return fmt.Errorf("one token per result: %s was already thrown", u)
	}
	if u != Accuracy && !r.Attack {
		return fmt.Errorf("%s needs an attack", u)
	}
	holder := r.Tester
	if u == Dodge || u == Toughness {
		holder = r.Defender
	}
	if holder.Tokens < 1 {
		return fmt.Errorf("%s: no luck token left", u)
	}
	switch u {
	case Accuracy:
		return accuracyLegal(r)
	case Dodge:
		return dodgeLegal(r)
	case Toughness:
		if r.Stage != StageDamage || r.Damage < 1 {
			return fmt.Errorf("toughness comes after the damage is computed, and needs damage")
		}
	case ExtraCritical:
		if r.Stage == StageRoll || !r.Success() {
			return fmt.Errorf("extra critical comes after a successful attack's final roll")
		}
	default:
		return fmt.Errorf("unknown luck use %q", u)
	}
	return nil
}

// accuracyLegal: seed 001 "Genauigkeit": after a failed test, one token per
// test, not on the X face, never to improve a success; seed 001
// "Ausweichen": not after the target dodged successfully, and no luck
// changes a critical.
func accuracyLegal(r Roll) error {
	switch {
	case r.Stage != StageRoll:
		return fmt.Errorf("accuracy comes right after the roll")
	case r.Dodged:
		return fmt.Errorf("the target dodged: the attacker may throw no luck on this attack")
	case r.Face.Kind == X:
		return fmt.Errorf("accuracy cannot change an X")
	case r.Face.Kind == Critical:
		return fmt.Errorf("no luck changes a critical")
	case r.Success():
		return fmt.Errorf("accuracy cannot improve a success")
	}
	return nil
}

// dodgeLegal: seed 001 "Ausweichen": after a successful attack roll, before
// damage; a critical cannot be dodged.
func dodgeLegal(r Roll) error {
	switch {
	case r.Stage != StageRoll:
		return fmt.Errorf("dodge comes before the damage")
	case r.Face.Kind == Critical:
		return fmt.Errorf("a critical cannot be dodged")
	case !r.Success():
		return fmt.Errorf("dodge needs a successful attack roll")
	}
	return nil
}

// LuckResult is one thrown token.
type LuckResult struct {
	Use Use  `json:"use"`
	By  Role `json:"by"`
	// Shown: the token showed the luck symbol and its effect applies.
	Shown bool `json:"shown"`
	// Success is the test's result after the token.
	Success bool `json:"success"`
}

// Apply throws a token: the holder loses it whatever it shows; if it shows
// the luck symbol (shown) its effect applies — accuracy −2 on the skill die,
// dodge +2, toughness −1 damage, extra critical +1 critical point (seed 001).
func Apply(r Roll, u Use, shown bool) (Roll, LuckResult, error) {
	if err := legal(r, u); err != nil {
		return r, LuckResult{}, fmt.Errorf("luck: %w", err)
	}
	r.Used = cloneUsed(r.Used)
	r.Used[u] = true
	by := Actor
	if u == Dodge || u == Toughness {
		by = Target
		r.Defender.Tokens--
	} else {
		r.Tester.Tokens--
	}
	if shown {
		switch u {
		case Accuracy:
			r.Mod -= 2
		case Dodge:
			r.Mod += 2
			r.Dodged = !r.Success()
		case Toughness:
			r.Damage--
		case ExtraCritical:
			r.ExtraCP++
		}
	}
	return r, LuckResult{Use: u, By: by, Shown: shown, Success: r.Success()}, nil
}

func cloneUsed(m map[Use]bool) map[Use]bool {
	out := make(map[Use]bool, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Resolve makes the roll final: no more accuracy or dodge.
func Resolve(r Roll) Roll {
	if r.Stage == StageRoll {
		r.Stage = StageResolved
	}
	return r
}

// SetDamage records the damage of a successful attack after armour, ready
// for a toughness token (seed 001 "Zähigkeit"); it makes the roll final.
func SetDamage(r Roll, damage int) (Roll, error) {
	switch {
	case !r.Attack:
		return r, fmt.Errorf("damage: the test is not an attack")
	case !r.Success():
		return r, fmt.Errorf("damage: the attack missed")
	case damage < 0:
		return r, fmt.Errorf("damage %d must be 0 or more", damage)
	case r.Stage == StageDamage:
		return r, fmt.Errorf("damage is already set")
	}
	r.Stage = StageDamage
	r.Damage = damage
	return r, nil
}

// ToughnessDamage reduces damage from any source by 1 when the token shows luck,
// after armour and before the damage is applied (seed 001 "Zähigkeit").
func ToughnessDamage(damage int, shown bool) int {
	if shown && damage > 0 {
		return damage - 1
	}
	return damage
}

package tracker

import (
	"fmt"
	"slices"
	"strings"

	"tablecam/engine"
	"tablecam/engine/wasteland"
)

// Fallout: Wasteland Warfare's skill tests and luck tokens, applied through
// engine/wasteland.

const wastelandSetupUsage = "setup wasteland [simulator] NAME:LUC..."

// WastelandGame is the state of a Wasteland Warfare game that the tracker
// keeps: the units' luck and the skill test in progress.
type WastelandGame struct {
	// Simulator: the Vault-Tec Simulator variant, without luck tokens.
	Simulator bool             `json:"simulator,omitempty"`
	Units     []wasteland.Unit `json:"units"`
	// Roll is the skill test or attack in progress; its units' tokens are
	// the units' own, written back after every token thrown.
	Roll *wasteland.Roll `json:"roll,omitempty"`
}

// Tracker-level outcome kinds of Wasteland Warfare.
const (
	KindWastelandSetup   = "wasteland.setup"   // vars units, simulator
	KindWastelandSkill   = "wasteland.skill"   // vars unit, target, skill, face, reads, success, critical, x
	KindWastelandLuck    = "wasteland.luck"    // vars use, unit, shown, success, tokens, damage, extra_cp
	KindWastelandDamage  = "wasteland.damage"  // vars target, damage
	KindWastelandFinal   = "wasteland.final"   // vars unit, success, extra_cp, damage
	KindWastelandOptions = "wasteland.options" // vars accuracy, dodge, toughness, extra: the units that may throw
	KindWastelandTokens  = "wasteland.tokens"  // vars unit, tokens, luc
)

func wastelandSetupSpec() moveSpec {
	return moveSpec{Game: GameWasteland, Cmd: "setup", Args: []argSpec{
		{Name: "simulator", Kind: argFlag},
		{Name: "units", Kind: argRest, Check: checkWastelandUnit},
	}}
}

var luckUses = map[string]wasteland.Use{"accuracy": wasteland.Accuracy, "dodge": wasteland.Dodge,
	"toughness": wasteland.Toughness, "extra": wasteland.ExtraCritical}

func wastelandSpecs() []moveSpec {
	sum := func(en, de string) map[string]string { return map[string]string{"en": en, "de": de} }
	return []moveSpec{
		{Game: GameWasteland, Cmd: "skill", Args: []argSpec{{Name: "unit", Kind: argWord}, {Name: "skill", Kind: argInt, Lo: 0, Hi: 20},
			{Name: "face", Kind: argSkill}, {Name: "vs", Kind: argWord, Opt: true}},
			Summary: sum("Wasteland: a skill test on the skill die's face (2–10, ap, crit, x); vs TARGET makes it an attack", "Wasteland: eine Fertigkeitsprobe mit der Seite des Fertigkeitswürfels (2–10, ap, crit, x); vs ZIEL macht sie zum Angriff")},
		{Game: GameWasteland, Cmd: "luck", Args: []argSpec{{Name: "use", Kind: argOneOf, Choices: []string{"accuracy", "dodge", "toughness", "extra"}},
			{Name: "side", Kind: argLuck}},
			Summary: sum("Wasteland: a luck token thrown for a use, and the side it shows (without the side, the camera reads it)", "Wasteland: ein Glücksmarker für einen Zweck geworfen, und die Seite, die er zeigt (ohne die Seite liest die Kamera sie)")},
		{Game: GameWasteland, Cmd: "damage", Args: []argSpec{{Name: "damage", Kind: argInt, Lo: 0, Hi: 50}},
			Summary: sum("Wasteland: the attack's damage after armour (before toughness)", "Wasteland: der Schaden des Angriffs nach der Rüstung (vor Zähigkeit)")},
		{Game: GameWasteland, Cmd: "tokens", Args: []argSpec{{Name: "unit", Kind: argWord}, {Name: "gain", Kind: argInt, Lo: 1, Hi: 10}},
			Summary: sum("Wasteland: a unit gains luck tokens (never more than its LUC)", "Wasteland: eine Einheit erhält Glücksmarker (nie mehr als ihr LUC-Wert)")},
	}
}

func parseWastelandUnit(w string) (wasteland.Unit, error) {
	n, l, ok := strings.Cut(w, ":")
	if !ok || n == "" {
		return wasteland.Unit{}, fmt.Errorf("unit %q: want NAME:LUC", w)
	}
	luc, err := num(l, "LUC", 0, 10)
	if err != nil {
		return wasteland.Unit{}, fmt.Errorf("unit %s: %w", n, err)
	}
	return wasteland.Unit{Name: n, LUC: luc, Tokens: wasteland.SetupTokens(luc)}, nil
}

func checkWastelandUnit(w string) error { _, err := parseWastelandUnit(w); return err }

// parseLuckSide reads the side a luck token shows, as typed or read: luck
// (the token's effect applies) or blank (it is spent for nothing).
func parseLuckSide(w string) (bool, error) {
	switch strings.ToLower(w) {
	case "luck":
		return true, nil
	case "blank":
		return false, nil
	}
	return false, fmt.Errorf("a luck token shows luck or blank, got %q", w)
}

// luckShown is the side of a luck line: its reading. An event stored
// before the side was a reading has it in Args.
func luckShown(ev Event) (bool, error) {
	w := ev.Move.str("side")
	if len(ev.Faces) > 0 {
		w = ev.Faces[0]
	}
	shown, err := parseLuckSide(w)
	if err != nil {
		return false, fmt.Errorf("luck: %w", err)
	}
	return shown, nil
}

func setupWasteland(ev Event) (Game, outs, error) {
	m := ev.Move
	wg := WastelandGame{Simulator: m.has("simulator")}
	var names []string
	for _, w := range m.words("units") {
		u, err := parseWastelandUnit(w)
		if err != nil {
			return Game{}, nil, err
		}
		if wg.unit(u.Name) >= 0 {
			return Game{}, nil, fmt.Errorf("unit %s is named twice", u.Name)
		}
		if wg.Simulator {
			u.Tokens = 0
		}
		wg.Units = append(wg.Units, u)
		names = append(names, fmt.Sprintf("%s %d", u.Name, u.Tokens))
	}
	o := one(KindWastelandSetup, engine.Vars{"units": names, "simulator": wg.Simulator})
	return Game{Started: true, Kind: GameWasteland, Wasteland: &wg}, o, nil
}

func (wg WastelandGame) unit(name string) int {
	return slices.IndexFunc(wg.Units, func(u wasteland.Unit) bool { return u.Name == name })
}

// unitNames lists the units for an error.
func (wg WastelandGame) unitNames() string {
	var n []string
	for _, u := range wg.Units {
		n = append(n, u.Name)
	}
	return strings.Join(n, ", ")
}

// options says who may throw luck now.
func (wg WastelandGame) options(r wasteland.Roll) outs {
	v := engine.Vars{}
	for _, o := range wasteland.Legal(r) {
		who := r.Tester.Name
		if o.By == wasteland.Target {
			who = r.Defender.Name
		}
		key := string(o.Use)
		if o.Use == wasteland.ExtraCritical {
			key = "extra"
		}
		v[key] = who
	}
	if len(v) == 0 {
		return nil
	}
	return one(KindWastelandOptions, v)
}

// syncTokens writes the roll's token counts back to the units.
func (wg *WastelandGame) syncTokens(r wasteland.Roll) {
	wg.Units = slices.Clone(wg.Units)
	for _, u := range []wasteland.Unit{r.Tester, r.Defender} {
		if i := wg.unit(u.Name); i >= 0 && u.Name != "" {
			wg.Units[i].Tokens = u.Tokens
		}
	}
}

func applyWasteland(g Game, ev Event) (Game, outs, error) {
	wg := *g.Wasteland
	var o outs
	if ev.Type == EvDone {
		if wg.Roll == nil {
			return g, nil, fmt.Errorf("done: no skill test is waiting")
		}
		r := wasteland.Resolve(*wg.Roll)
		wg.Roll = &r
		o = one(KindWastelandFinal, engine.Vars{"unit": r.Tester.Name, "success": r.Success(), "extra_cp": r.ExtraCP})
		o = append(o, wg.options(r)...)
		if len(o) == 1 {
			wg.Roll = nil // nothing more can be thrown on it
		}
		g.Wasteland = &wg
		return g, o, nil
	}
	m := ev.Move
	switch m.Cmd {
	case "skill":
		i := wg.unit(m.str("unit"))
		if i < 0 {
			return g, nil, fmt.Errorf("skill: no unit %q (units: %s)", m.str("unit"), wg.unitNames())
		}
		if len(ev.Faces) != 1 {
			return g, nil, fmt.Errorf("skill: one skill die face, not %d", len(ev.Faces))
		}
		f, err := wasteland.ParseFace(ev.Faces[0])
		if err != nil {
			return g, nil, err
		}
		var r wasteland.Roll
		target := ""
		if m.has("vs") {
			j := wg.unit(m.str("vs"))
			if j < 0 || j == i {
				return g, nil, fmt.Errorf("skill: %q is not another unit (units: %s)", m.str("vs"), wg.unitNames())
			}
			r = wasteland.NewAttack(m.int("skill"), f, wg.Units[i], wg.Units[j])
			target = wg.Units[j].Name
		} else {
			r = wasteland.NewTest(m.int("skill"), f, wg.Units[i])
		}
		r.Simulator = wg.Simulator
		reads, ok := f.Reads()
		wg.Roll = &r
		o = one(KindWastelandSkill, engine.Vars{"unit": r.Tester.Name, "target": target, "skill": r.Skill, "face": ev.Faces[0],
			"reads": reads, "x": !ok, "critical": f.Kind == wasteland.Critical, "success": r.Success()})
		o = append(o, wg.options(r)...)
	case "luck":
		if wg.Roll == nil {
			return g, nil, fmt.Errorf("luck: no skill test is waiting (skill UNIT SKILL FACE first)")
		}
		shown, err := luckShown(ev)
		if err != nil {
			return g, nil, err
		}
		r, res, err := wasteland.Apply(*wg.Roll, luckUses[m.str("use")], shown)
		if err != nil {
			return g, nil, err
		}
		wg.syncTokens(r)
		wg.Roll = &r
		holder := r.Tester
		if res.By == wasteland.Target {
			holder = r.Defender
		}
		o = one(KindWastelandLuck, engine.Vars{"use": m.str("use"), "unit": holder.Name, "shown": res.Shown, "success": res.Success,
			"tokens": holder.Tokens, "damage": r.Damage, "extra_cp": r.ExtraCP, "attack": r.Attack})
		o = append(o, wg.options(r)...)
	case "damage":
		if wg.Roll == nil {
			return g, nil, fmt.Errorf("damage: no attack is waiting")
		}
		r, err := wasteland.SetDamage(*wg.Roll, m.int("damage"))
		if err != nil {
			return g, nil, err
		}
		wg.Roll = &r
		o = one(KindWastelandDamage, engine.Vars{"target": r.Defender.Name, "damage": r.Damage})
		o = append(o, wg.options(r)...)
	case "tokens":
		i := wg.unit(m.str("unit"))
		if i < 0 {
			return g, nil, fmt.Errorf("tokens: no unit %q (units: %s)", m.str("unit"), wg.unitNames())
		}
		if wg.Simulator {
			return g, nil, fmt.Errorf("tokens: the Vault-Tec Simulator has no luck tokens")
		}
		wg.Units = slices.Clone(wg.Units)
		wg.Units[i] = wasteland.GainTokens(wg.Units[i], m.int("gain"))
		u := wg.Units[i]
		if wg.Roll != nil {
			// The test in progress throws the unit's tokens as they are now.
			r := *wg.Roll
			for _, x := range []*wasteland.Unit{&r.Tester, &r.Defender} {
				if x.Name == u.Name {
					x.Tokens = u.Tokens
				}
			}
			wg.Roll = &r
		}
		o = one(KindWastelandTokens, engine.Vars{"unit": u.Name, "tokens": u.Tokens, "luc": u.LUC})
	default:
		return g, nil, fmt.Errorf("unknown Wasteland Warfare command %q", m.Cmd)
	}
	g.Wasteland = &wg
	return g, o, nil
}

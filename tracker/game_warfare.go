package tracker

import (
	"fmt"
	"strconv"
	"strings"

	"tablecam/engine"
	"tablecam/engine/dice"
	"tablecam/engine/warfare"
)

// Fallout: Warfare, applied through engine/warfare.

const warfareSetupUsage = "setup warfare [a NAME] [b NAME] [light dawn|day|dusk|darkness]"

// WarfareGame is the state of a Fallout: Warfare battle that the tracker
// keeps between commands.
type WarfareGame struct {
	// Sides are the two players' names (side a, side b).
	Sides [2]string `json:"sides"`
	Turn  int       `json:"turn"`
	// Light is the battle's light level ("" is day).
	Light warfare.Light `json:"light,omitempty"`
	// Attacker won this turn's initiative; Previous won last turn's.
	Attacker warfare.Side `json:"attacker,omitempty"`
	Previous warfare.Side `json:"previous,omitempty"`
	// Clouds are the smoke clouds on the table, as the group places them
	// (clouds N) and as they clear (smoke).
	Clouds int `json:"clouds,omitempty"`
	// Result is the final score once victory is counted.
	Result *warfare.VictoryResult `json:"result,omitempty"`
}

// Tracker-level outcome kinds of Fallout: Warfare.
const (
	KindWarfareSetup       = "warfare.setup"       // vars a, b, light
	KindWarfareTest        = "warfare.test"        // vars what, roll, mod, total, target, success
	KindWarfareAttack      = "warfare.attack"      // vars what (melee, ranged), roll, mod, total, target, success, knock_down
	KindWarfarePoison      = "warfare.poison"      // vars roll, target, success, damage
	KindWarfareUnconscious = "warfare.unconscious" // vars roll, target, dies
	KindWarfareRadiation   = "warfare.radiation"   // vars roll, target, immune, unconscious
	KindWarfareSmoke       = "warfare.smoke"       // vars roll, clears; tracked, left when the clouds are counted
	KindWarfareClouds      = "warfare.clouds"      // vars clouds
	KindWarfareMineDamage  = "warfare.mine_damage" // vars roll, damage
	KindWarfareHarm        = "warfare.harm"        // vars hp, condition
	KindWarfareLight       = "warfare.light"       // vars light
	KindWarfareTurn        = "warfare.turn"        // vars turn, light, changed
	KindWarfareInitiative  = "warfare.initiative"  // vars total_a, total_b, winner, by_luck, reroll
	KindWarfareVictory     = "warfare.victory"     // vars score_a, score_b, winner, draw
)

var warfareLights = []string{"dawn", "day", "dusk", "darkness"}

func warfareLight(s string) warfare.Light {
	if s == "day" {
		return warfare.Day
	}
	return warfare.Light(s)
}

func lightName(l warfare.Light) string {
	if l == warfare.Day {
		return "day"
	}
	return string(l)
}

func warfareSetupSpec() moveSpec {
	return moveSpec{Game: GameWarfare, Cmd: "setup", Args: []argSpec{
		{Name: "a", Kind: argWord, Opt: true},
		{Name: "b", Kind: argWord, Opt: true},
		{Name: "light", Kind: argOneOf, Choices: warfareLights, Opt: true},
	}}
}

func warfareSpecs() []moveSpec {
	stat := func(name string) argSpec { return argSpec{Name: name, Kind: argInt, Lo: 1, Hi: 20} }
	ac := argSpec{Name: "ac", Kind: argInt, Lo: 0, Hi: 10}
	roll := argSpec{Name: "roll", Kind: argD10}
	mod := argSpec{Name: "mod", Kind: argInt, Lo: -10, Hi: 10, Opt: true}
	sum := func(en, de string) map[string]string { return map[string]string{"en": en, "de": de} }
	return []moveSpec{
		{Game: GameWarfare, Cmd: "initiative", Args: []argSpec{{Name: "roll_a", Kind: argD10}, {Name: "roll_b", Kind: argD10},
			{Name: "luck_a", Kind: argInt, Lo: 0, Hi: 20, Opt: true}, {Name: "luck_b", Kind: argInt, Lo: 0, Hi: 20, Opt: true}},
			Summary: sum("Warfare: both sides' initiative d10 (luck_a/luck_b: the heroes' Luck for ties)", "Warfare: der Initiativewurf beider Seiten (luck_a/luck_b: Glück der Helden bei Gleichstand)")},
		{Game: GameWarfare, Cmd: "check", Args: []argSpec{stat("stat"), roll, mod},
			Summary: sum("Warfare: a d10 test under a stat, the modifier added to the roll", "Warfare: eine W10-Probe unter einem Wert, der Modifikator zum Wurf addiert")},
		{Game: GameWarfare, Cmd: "melee", Args: []argSpec{stat("strength"), ac, roll,
			{Name: "behind", Kind: argFlag}, {Name: "charge", Kind: argFlag}, {Name: "moving", Kind: argFlag}},
			Summary: sum("Warfare: a melee attack (Strength, the target's armour class)", "Warfare: ein Nahkampfangriff (Stärke, Rüstungsklasse des Ziels)")},
		{Game: GameWarfare, Cmd: "shoot", Args: []argSpec{stat("agility"), ac, roll,
			{Name: "cover", Kind: argFlag}, {Name: "flying", Kind: argFlag}, {Name: "moving", Kind: argFlag}, {Name: "area", Kind: argFlag},
			{Name: "shooter", Kind: argOneOf, Choices: []string{"robot", "ghoul", "super_mutant"}, Opt: true}},
			Summary: sum("Warfare: a ranged attack (Agility, the target's armour class; the light counts)", "Warfare: ein Fernkampfangriff (Beweglichkeit, Rüstungsklasse des Ziels; das Licht zählt)")},
		{Game: GameWarfare, Cmd: "save", Args: []argSpec{stat("endurance"), roll, mod},
			Summary: sum("Warfare: the Endurance save against a hit (mod: the weapon's save modifier)", "Warfare: der Ausdauerwurf gegen einen Treffer (mod: der Rettungsmodifikator der Waffe)")},
		{Game: GameWarfare, Cmd: "harm", Args: []argSpec{{Name: "hp", Kind: argInt, Lo: 0, Hi: 50}, {Name: "damage", Kind: argInt, Lo: 0, Hi: 50}},
			Summary: sum("Warfare: damage taken from HP: standing, unconscious or dead", "Warfare: Schaden von den Trefferpunkten: steht, bewusstlos oder tot")},
		{Game: GameWarfare, Cmd: "poison", Args: []argSpec{stat("endurance"), roll},
			Summary: sum("Warfare: a poisoned unit's Endurance roll", "Warfare: der Ausdauerwurf einer vergifteten Einheit")},
		{Game: GameWarfare, Cmd: "unconscious", Args: []argSpec{stat("endurance"), roll},
			Summary: sum("Warfare: an unconscious unit's Endurance roll", "Warfare: der Ausdauerwurf einer bewusstlosen Einheit")},
		{Game: GameWarfare, Cmd: "radiation", Args: []argSpec{stat("endurance"), roll, {Name: "immune", Kind: argFlag}},
			Summary: sum("Warfare: a unit in a radiation zone", "Warfare: eine Einheit in einer Strahlungszone")},
		{Game: GameWarfare, Cmd: "smoke", Args: []argSpec{roll},
			Summary: sum("Warfare: does a smoke cloud clear?", "Warfare: verzieht sich eine Rauchwolke?")},
		{Game: GameWarfare, Cmd: "clouds", Args: []argSpec{{Name: "count", Kind: argInt, Lo: 0, Hi: 20}},
			Summary: sum("Warfare: the smoke clouds now on the table (a smoke grenade places 2, or 3)", "Warfare: die Rauchwolken, die jetzt auf dem Tisch liegen (eine Rauchgranate legt 2 oder 3)")},
		{Game: GameWarfare, Cmd: "mine", Args: []argSpec{stat("endurance"), roll},
			Summary: sum("Warfare: the save of a unit caught by a mine", "Warfare: der Rettungswurf einer Einheit in einer Minenexplosion")},
		{Game: GameWarfare, Cmd: "minedamage", Args: []argSpec{roll},
			Summary: sum("Warfare: a mine's damage roll", "Warfare: der Schadenswurf einer Mine")},
		{Game: GameWarfare, Cmd: "light", Args: []argSpec{{Name: "level", Kind: argOneOf, Choices: warfareLights}},
			Summary: sum("Warfare: set the light level", "Warfare: die Lichtstufe setzen")},
		{Game: GameWarfare, Cmd: "lightroll", Args: []argSpec{{Name: "roll1", Kind: argD10}, {Name: "roll2", Kind: argD10}},
			Summary: sum("Warfare: the light level at setup from 2d10", "Warfare: die Lichtstufe beim Aufbau aus 2W10")},
		{Game: GameWarfare, Cmd: "endturn", Args: []argSpec{roll},
			Summary: sum("Warfare: end of turn; at dawn and dusk the d10 for the light change", "Warfare: Zugende; bei Morgen- und Abenddämmerung der W10 für den Lichtwechsel")},
		{Game: GameWarfare, Cmd: "victory", Args: []argSpec{
			{Name: "side_a", Kind: argWord, Check: checkWarfareUnits}, {Name: "side_b", Kind: argWord, Check: checkWarfareUnits}},
			Summary: sum("Warfare: score the battle; each side POINTS[:alive|retreated|destroyed|wrongedge],...", "Warfare: die Schlacht werten; je Seite PUNKTE[:alive|retreated|destroyed|wrongedge],...")},
	}
}

// parseWarfareUnits reads a side's units: POINTS[:FATE],... (fate alive
// by default).
func parseWarfareUnits(w string) ([]warfare.Unit, error) {
	var out []warfare.Unit
	for _, u := range strings.Split(w, ",") {
		p, f, _ := strings.Cut(u, ":")
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 10000 {
			return nil, fmt.Errorf("unit %q: want POINTS[:alive|retreated|destroyed|wrongedge]", u)
		}
		fate := warfare.Alive
		switch f {
		case "", "alive":
		case "retreated":
			fate = warfare.Retreated
		case "destroyed":
			fate = warfare.Destroyed
		case "wrongedge":
			fate = warfare.RetreatedWrongEdge
		default:
			return nil, fmt.Errorf("unit %q: fate %q is not alive, retreated, destroyed or wrongedge", u, f)
		}
		out = append(out, warfare.Unit{Points: n, Fate: fate})
	}
	return out, nil
}

func checkWarfareUnits(w string) error { _, err := parseWarfareUnits(w); return err }

func setupWarfare(ev Event) (Game, outs, error) {
	m := ev.Move
	wg := WarfareGame{Sides: [2]string{"a", "b"}, Turn: 1, Light: warfareLight(m.str("light"))}
	if m.has("a") {
		wg.Sides[0] = m.str("a")
	}
	if m.has("b") {
		wg.Sides[1] = m.str("b")
	}
	if wg.Sides[0] == wg.Sides[1] {
		return Game{}, nil, fmt.Errorf("both sides are called %q", wg.Sides[0])
	}
	o := one(KindWarfareSetup, engine.Vars{"a": wg.Sides[0], "b": wg.Sides[1], "light": lightName(wg.Light)})
	return Game{Started: true, Kind: GameWarfare, Warfare: &wg}, o, nil
}

func resultVars(what string, r warfare.Result) engine.Vars {
	return engine.Vars{"what": what, "roll": r.Roll, "mod": r.Mod, "total": r.Total, "target": r.Target,
		"success": r.Success, "knock_down": r.KnockDown}
}

func (wg WarfareGame) side(s warfare.Side) string {
	switch s {
	case warfare.SideA:
		return wg.Sides[0]
	case warfare.SideB:
		return wg.Sides[1]
	}
	return ""
}

func applyWarfare(g Game, ev Event) (Game, outs, error) {
	m := ev.Move
	wg := *g.Warfare
	if wg.Result != nil {
		return g, nil, fmt.Errorf("the battle is scored; undo, or set up a new game")
	}
	var r [2]int
	for i := range ev.Faces {
		v, err := face(ev, i)
		if err != nil {
			return g, nil, err
		}
		r[i] = v
	}
	var (
		o   outs
		err error
	)
	switch m.Cmd {
	case "initiative":
		a := warfare.InitiativeRoll{Face: r[0], LastAttacker: wg.Previous == warfare.SideA, HasHero: m.has("luck_a"), HeroLuck: m.int("luck_a")}
		b := warfare.InitiativeRoll{Face: r[1], LastAttacker: wg.Previous == warfare.SideB, HasHero: m.has("luck_b"), HeroLuck: m.int("luck_b")}
		var res warfare.InitiativeResult
		if res, err = warfare.Initiative(a, b); err == nil {
			if !res.Reroll {
				wg.Attacker = res.Winner
			}
			o = one(KindWarfareInitiative, engine.Vars{"a": wg.Sides[0], "b": wg.Sides[1], "total_a": res.TotalA, "total_b": res.TotalB,
				"winner": wg.side(res.Winner), "by_luck": res.ByLuck, "reroll": res.Reroll})
		}
	case "check", "save", "mine":
		var res warfare.Result
		switch m.Cmd {
		case "check":
			res, err = warfare.Test(m.int("stat"), m.int("mod"), r[0])
		case "save":
			res, err = warfare.Save(m.int("endurance"), m.int("mod"), r[0])
		case "mine":
			res, err = warfare.MineSave(m.int("endurance"), r[0])
		}
		o = one(KindWarfareTest, resultVars(m.Cmd, res))
	case "melee":
		var res warfare.Result
		res, err = warfare.MeleeAttack(warfare.Melee{Strength: m.int("strength"), TargetAC: m.int("ac"),
			FromBehind: m.has("behind"), Charge: m.has("charge"), MoveAndFire: m.has("moving")}, r[0])
		o = one(KindWarfareAttack, resultVars("melee", res))
	case "shoot":
		var res warfare.Result
		res, err = warfare.RangedAttack(warfare.Ranged{Agility: m.int("agility"), TargetAC: m.int("ac"), AreaEffect: m.has("area"),
			Cover: m.has("cover"), Flying: m.has("flying"), MoveAndFire: m.has("moving"), Light: wg.Light,
			Shooter: warfare.Shooter(m.str("shooter"))}, r[0])
		o = one(KindWarfareAttack, resultVars("ranged", res))
	case "harm":
		var hp int
		var cond warfare.Condition
		hp, cond, err = warfare.ApplyDamage(m.int("hp"), m.int("damage"))
		o = one(KindWarfareHarm, engine.Vars{"hp": hp, "condition": string(cond)})
	case "poison":
		var res warfare.PoisonResult
		res, err = warfare.Poison(m.int("endurance"), r[0])
		o = one(KindWarfarePoison, engine.Vars{"roll": res.Roll, "target": res.Target, "success": res.Success, "damage": res.Damage})
	case "unconscious":
		var res warfare.UnconsciousResult
		res, err = warfare.UnconsciousCheck(m.int("endurance"), r[0])
		o = one(KindWarfareUnconscious, engine.Vars{"roll": res.Roll, "target": res.Target, "dies": res.Dies})
	case "radiation":
		var res warfare.RadiationResult
		res, err = warfare.Radiation(m.int("endurance"), r[0], m.has("immune"))
		o = one(KindWarfareRadiation, engine.Vars{"roll": res.Roll, "target": res.Target, "immune": res.Immune, "unconscious": res.Unconscious})
	case "smoke":
		// A d10 per cloud on the table; one that clears leaves it (seed 002
		// ch. 4 "Fumo"). Clouds the group has not counted are not tracked.
		var clears bool
		clears, err = warfare.SmokeClears(r[0])
		v, _ := dice.ReadD10(r[0])
		vars := engine.Vars{"roll": v, "clears": clears}
		if wg.Clouds > 0 {
			if clears {
				wg.Clouds--
			}
			vars["tracked"], vars["left"] = true, wg.Clouds
		}
		o = one(KindWarfareSmoke, vars)
	case "clouds":
		wg.Clouds = m.int("count")
		o = one(KindWarfareClouds, engine.Vars{"clouds": wg.Clouds})
	case "minedamage":
		var d int
		d, err = warfare.MineDamage(r[0])
		o = one(KindWarfareMineDamage, engine.Vars{"roll": r[0], "damage": d})
	case "light":
		wg.Light = warfareLight(m.str("level"))
		o = one(KindWarfareLight, engine.Vars{"light": lightName(wg.Light)})
	case "lightroll":
		wg.Light, err = warfare.LightAtSetup(r[0], r[1])
		o = one(KindWarfareLight, engine.Vars{"light": lightName(wg.Light), "sum": r[0] + r[1]})
	case "endturn":
		l := wg.Light
		if len(ev.Faces) > 0 {
			l, err = warfare.LightAfterTurn(wg.Light, r[0])
		} else if warfare.LightChanges(wg.Light) {
			err = fmt.Errorf("endturn: at %s the turn ends with the d10 for the light: usage: endturn ROLL", lightName(wg.Light))
		}
		if err == nil {
			changed := l != wg.Light
			wg.Light, wg.Turn = l, wg.Turn+1
			wg.Previous, wg.Attacker = wg.Attacker, warfare.SideNone
			o = one(KindWarfareTurn, engine.Vars{"turn": wg.Turn, "light": lightName(l), "changed": changed})
		}
	case "victory":
		a, aerr := parseWarfareUnits(m.str("side_a"))
		b, berr := parseWarfareUnits(m.str("side_b"))
		if aerr != nil || berr != nil {
			return g, nil, fmt.Errorf("victory: %v %v", aerr, berr)
		}
		var res warfare.VictoryResult
		if res, err = warfare.Victory(a, b); err == nil {
			wg.Result = &res
			o = one(KindWarfareVictory, engine.Vars{"a": wg.Sides[0], "b": wg.Sides[1], "score_a": res.ScoreA, "score_b": res.ScoreB,
				"winner": wg.side(res.Winner), "draw": res.Draw})
		}
	default:
		return g, nil, fmt.Errorf("unknown Fallout: Warfare command %q", m.Cmd)
	}
	if err != nil {
		return g, nil, err
	}
	g.Warfare = &wg
	return g, o, nil
}

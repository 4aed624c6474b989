package tracker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tablecam/engine"
	"tablecam/engine/twom"
)

// This War of Mine: The Board Game, applied through engine/twom.

const twomSetupUsage = "setup twom [players N] [leader SEAT] NAME:EMPATHY[:STRENGTH[:INVENTORY]]..."

// Tracker-level outcome kinds of This War of Mine (the engine's are in
// engine/twom).
const (
	KindTwomSetup     = "twom.setup"     // vars characters, players, seat
	KindTwomJoined    = "twom.joined"    // vars character
	KindTwomStrike    = "twom.strike"    // vars weapon, wounds, kills, out_of_ammo, fate
	KindTwomUnchanged = "twom.unchanged" // the command changed nothing
)

func twomSetupSpec() moveSpec {
	return moveSpec{Game: GameTwom, Cmd: "setup", Args: []argSpec{
		{Name: "players", Kind: argInt, Lo: 1, Hi: 8, Opt: true},
		{Name: "leader", Kind: argInt, Lo: 1, Hi: 8, Opt: true},
		{Name: "characters", Kind: argRest, Check: checkTwomChar},
	}}
}

var (
	twomWeapons = []string{string(twom.Unarmed), string(twom.Knife), string(twom.Hatchet), string(twom.Pistol), string(twom.AssaultRifle), string(twom.Shotgun)}
	twomMarks   = []string{string(twom.MarkShot), string(twom.MarkAxe), string(twom.MarkNoAmmo), string(twom.MarkFate)}
)

var twomStatuses = []string{string(twom.Fatigue), string(twom.Wounds), string(twom.Misery), string(twom.Hunger), string(twom.Illness)}

func twomSpecs() []moveSpec {
	who := argSpec{Name: "character", Kind: argWord}
	roll := argSpec{Name: "roll", Kind: argD10}
	sum := func(en, de string) map[string]string { return map[string]string{"en": en, "de": de} }
	return []moveSpec{
		{Game: GameTwom, Cmd: "next", Summary: sum("TWoM: the Journal's next step", "TWoM: der nächste Schritt im Tagebuch")},
		{Game: GameTwom, Cmd: "pass", Summary: sum("TWoM: the leader passes the Journal on", "TWoM: der Anführer reicht das Tagebuch weiter")},
		{Game: GameTwom, Cmd: "noise", Args: []argSpec{{Name: "change", Kind: argInt, Lo: -20, Hi: 20}},
			Summary: sum("TWoM: the noise marker moves", "TWoM: der Lärmanzeiger bewegt sich")},
		{Game: GameTwom, Cmd: "noisetest", Args: []argSpec{roll},
			Summary: sum("TWoM: noise test, the black die read", "TWoM: Lärmprobe, der schwarze Würfel")},
		{Game: GameTwom, Cmd: "thirst", Args: []argSpec{who, roll},
			Summary: sum("TWoM: a character without water rolls the black die", "TWoM: ein Charakter ohne Wasser wirft den schwarzen Würfel")},
		{Game: GameTwom, Cmd: "eat", Args: []argSpec{who, {Name: "food", Kind: argOneOf, Choices: []string{"none", "0", "1", "2"}}},
			Summary: sum("TWoM: what a character eats at dusk (none, or the food's value)", "TWoM: was ein Charakter in der Abenddämmerung isst (`none` oder der Wert des Essens)")},
		{Game: GameTwom, Cmd: "tasks", Args: []argSpec{{Name: "beds", Kind: argInt, Lo: 0, Hi: twom.MaxCharacters, Opt: true},
			{Name: "assignments", Kind: argRest, Check: checkTwomTask}},
			Summary: sum("TWoM: the evening's tasks (bed, floor, guard, scavenge)", "TWoM: die Aufgaben am Abend (bed, floor, guard, scavenge)")},
		{Game: GameTwom, Cmd: "status", Args: []argSpec{who, {Name: "marker", Kind: argOneOf, Choices: twomStatuses},
			{Name: "change", Kind: argInt, Lo: -twom.MaxLevel, Hi: twom.MaxLevel}},
			Summary: sum("TWoM: a status marker rises or falls", "TWoM: ein Statusmarker steigt oder sinkt")},
		{Game: GameTwom, Cmd: "lockpick", Args: []argSpec{roll},
			Summary: sum("TWoM: picking a lock, the black die read", "TWoM: Schloss knacken, der schwarze Würfel")},
		{Game: GameTwom, Cmd: "empathy", Args: []argSpec{roll, {Name: "characters", Kind: argRest}},
			Summary: sum("TWoM: empathy test after a kill, for the characters at the fight", "TWoM: Empathieprobe nach einem Tod, für die Charaktere im Kampf")},
		{Game: GameTwom, Cmd: "deathwalks", Args: []argSpec{roll},
			Summary: sum("TWoM: \"death walks among us\" at dawn", "TWoM: „Der Tod wandelt unter uns“ im Morgengrauen")},
		{Game: GameTwom, Cmd: "combat", Args: []argSpec{
			{Name: "weapon", Kind: argOneOf, Choices: twomWeapons},
			{Name: "symbols", Kind: argCombat},
			{Name: "mark", Kind: argOneOf, Choices: twomMarks, Opt: true},
			{Name: "enemy", Kind: argFlag}, {Name: "on", Kind: argWord, Opt: true}},
			Summary: sum("TWoM: a combat die rolled (symbols, special face; enemy when the enemy rolls, on NAME: the character its wounds go on)", "TWoM: ein Kampfwürfel (Symbole, Sonderseite; enemy, wenn der Gegner würfelt, on NAME: der Charakter, der die Verletzungen erleidet)")},
		{Game: GameTwom, Cmd: "lose", Args: []argSpec{who},
			Summary: sum("TWoM: a character died or left", "TWoM: ein Charakter ist gestorben oder gegangen")},
		{Game: GameTwom, Cmd: "join", Args: []argSpec{{Name: "character", Kind: argWord, Check: checkTwomChar}},
			Summary: sum("TWoM: a character joins (NAME:EMPATHY[:STRENGTH[:INVENTORY]])", "TWoM: ein Charakter kommt dazu (NAME:EMPATHIE[:STÄRKE[:INVENTAR]])")},
		{Game: GameTwom, Cmd: "carry", Args: []argSpec{{Name: "weights", Kind: argWord, Check: checkWeights}},
			Summary: sum("TWoM: the weights the scavengers bring home, comma-separated (0 for no weight icon)", "TWoM: die Gewichte, die der Plündertrupp heimträgt, durch Kommas getrennt (0 ohne Gewichtssymbol)")},
		{Game: GameTwom, Cmd: "arm", Args: []argSpec{who, {Name: "weapon", Kind: argOneOf, Choices: twomWeapons}},
			Summary: sum("TWoM: a guard's weapon for the night raid", "TWoM: die Waffe einer Wache für den nächtlichen Überfall")},
		{Game: GameTwom, Cmd: "raid", Args: []argSpec{{Name: "damage", Kind: argInt, Lo: 0, Hi: 20}, {Name: "wounds", Kind: argInt, Lo: 0, Hi: 20}},
			Summary: sum("TWoM: the night raid card's damage and wounds", "TWoM: Schaden und Verletzungen der Überfallkarte")},
		{Game: GameTwom, Cmd: "guardroll", Args: []argSpec{who, {Name: "symbols", Kind: argCombat},
			{Name: "mark", Kind: argOneOf, Choices: twomMarks, Opt: true}, {Name: "second", Kind: argFlag}},
			Summary: sum("TWoM: a guard's combat die against the raid (again: a reroll; second: the assault rifle's second shot)", "TWoM: der Kampfwürfel einer Wache gegen den Überfall (noch einmal: Wiederholungswurf; second: zweiter Schuss des Sturmgewehrs)")},
		{Game: GameTwom, Cmd: "defend", Args: []argSpec{{Name: "boards", Kind: argInt, Lo: 0, Hi: 20, Opt: true},
			{Name: "towounds", Kind: argInt, Lo: 0, Hi: 40, Opt: true}},
			Summary: sum("TWoM: the guards' symbols and the boards against the raid (towounds: how many cancel wounds; else wounds first)", "TWoM: Symbole der Wachen und Bretter gegen den Überfall (towounds: wie viele Verletzungen aufheben; sonst zuerst Verletzungen)")},
		{Game: GameTwom, Cmd: "drink", Args: []argSpec{who, {Name: "drink", Kind: argOneOf, Choices: []string{"spirits", "pure"}}},
			Summary: sum("TWoM: a character drinks alcohol at dawn", "TWoM: ein Charakter trinkt Alkohol im Morgengrauen")},
	}
}

// parseTwomChar reads NAME:EMPATHY[:STRENGTH[:INVENTORY]].
func parseTwomChar(w string) (twom.Character, error) {
	p := strings.Split(w, ":")
	if len(p) < 2 || len(p) > 4 || p[0] == "" {
		return twom.Character{}, fmt.Errorf("character %q: want NAME:EMPATHY[:STRENGTH[:INVENTORY]]", w)
	}
	c := twom.Character{Name: p[0]}
	for i, dst := range []*int{&c.Empathy, &c.Strength, &c.Inventory} {
		if i+1 >= len(p) {
			break
		}
		n, err := num(p[i+1], []string{"empathy", "strength", "inventory"}[i], 0, 10)
		if err != nil {
			return twom.Character{}, fmt.Errorf("character %s: %w", p[0], err)
		}
		*dst = n
	}
	return c, nil
}

func checkTwomChar(w string) error { _, err := parseTwomChar(w); return err }

// parseWeights reads W,W,...: the weights of the tokens carried home.
func parseWeights(w string) ([]int, error) {
	var out []int
	for _, x := range strings.Split(w, ",") {
		n, err := num(x, "weight", 0, 20)
		if err != nil {
			return nil, fmt.Errorf("weights %q: %w", w, err)
		}
		out = append(out, n)
	}
	return out, nil
}

func checkWeights(w string) error { _, err := parseWeights(w); return err }

// parseCombatFace reads a combat die face as typed or read: its number of
// symbols (0–6) or a special face (shotgun, hatchet, out_of_ammo, fate:
// no symbols), the face ids of the content's combat dice.
func parseCombatFace(w string) (twom.CombatFace, error) {
	v := strings.ToLower(w)
	if slices.Contains(twomMarks, v) {
		return twom.CombatFace{Mark: twom.Mark(v)}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 6 {
		return twom.CombatFace{}, fmt.Errorf("a combat die face is 0 to 6 symbols or %s, got %q", strings.Join(twomMarks, ", "), w)
	}
	return twom.CombatFace{Symbols: n}, nil
}

// combatFace is the combat die face of a combat or guardroll line: its
// reading, with the mark typed as an option (symbols and a mark). An event
// stored before the symbols were a reading has them in Args.
func combatFace(ev Event) (twom.CombatFace, error) {
	m := ev.Move
	w := m.str("symbols")
	if len(ev.Faces) > 0 {
		w = ev.Faces[0]
	}
	f, err := parseCombatFace(w)
	if err != nil {
		return f, fmt.Errorf("%s: %w", m.Cmd, err)
	}
	if mark := m.str("mark"); mark != "" {
		if f.Mark != twom.NoMark && string(f.Mark) != mark {
			return f, fmt.Errorf("%s: the face %s and the mark %s are two faces", m.Cmd, f.Mark, mark)
		}
		f.Mark = twom.Mark(mark)
	}
	return f, nil
}

// combatSet is the face set of the combat die a line reads: the die of the
// weapon named, or of the guard's weapon (seed 004 "Wachen und Waffen").
func combatSet(g Game, m *Move) string {
	w := twom.Weapon(m.str("weapon"))
	if m.Cmd == "guardroll" && g.Twom != nil {
		w = g.Twom.GuardWeapon(m.str("character"))
	}
	die, err := twom.DieFor(w)
	if err != nil {
		return SetCombatPrefix + string(twom.Grey)
	}
	return SetCombatPrefix + string(die)
}

func checkTwomTask(w string) error {
	_, t, ok := strings.Cut(w, ":")
	switch twom.Task(t) {
	case twom.Bed, twom.Floor, twom.Guard, twom.Scavenge:
		if ok {
			return nil
		}
	}
	return fmt.Errorf("task %q: want NAME:bed|floor|guard|scavenge", w)
}

// twomOuts turns the engine's outcomes into the tracker's, adding the
// leader's seat as the players count it (from 1).
func twomOuts(in []twom.Outcome) outs {
	o := make(outs, 0, len(in))
	for _, x := range in {
		v := engine.Vars{}
		for k, val := range x.Vars {
			v[k] = val
		}
		if l, ok := v["leader"].(int); ok {
			v["seat"] = l + 1
		}
		o = append(o, engine.Outcome{Kind: x.Kind, Vars: v})
	}
	return o
}

func setupTwom(ev Event) (Game, outs, error) {
	m := ev.Move
	players, leader := max(1, m.int("players")), max(1, m.int("leader"))
	var chars []twom.Character
	var names []string
	for _, w := range m.words("characters") {
		c, err := parseTwomChar(w)
		if err != nil {
			return Game{}, nil, err
		}
		chars = append(chars, c)
		names = append(names, c.Name)
	}
	tg, o, err := twom.NewGame(players, leader-1, chars)
	if err != nil {
		return Game{}, nil, err
	}
	head := one(KindTwomSetup, engine.Vars{"characters": names, "players": players, "seat": leader})
	return Game{Started: true, Kind: GameTwom, Twom: &tg}, append(head, twomOuts(o)...), nil
}

func applyTwom(g Game, ev Event) (Game, outs, error) {
	m := ev.Move
	tg := *g.Twom
	var (
		o   []twom.Outcome
		err error
		pre outs
	)
	switch m.Cmd {
	case "next":
		tg, o, err = twom.Advance(tg)
	case "pass":
		var x twom.Outcome
		tg, x = twom.PassJournal(tg)
		o = []twom.Outcome{x}
	case "noise":
		tg, o, err = twom.ChangeNoise(tg, m.int("change"))
	case "noisetest", "thirst", "lockpick", "empathy", "deathwalks":
		r, ferr := face(ev, 0)
		if ferr != nil {
			return g, nil, ferr
		}
		switch m.Cmd {
		case "noisetest":
			tg, o, err = twom.NoiseTest(tg, r)
		case "thirst":
			tg, o, err = twom.Thirst(tg, m.str("character"), false, r)
		case "lockpick":
			var x twom.Outcome
			x, err = twom.Lockpick(r)
			o = []twom.Outcome{x}
		case "empathy":
			tg, o, err = twom.Kill(tg, m.words("characters"), false, r)
		case "deathwalks":
			tg, o, err = twom.DeathWalks(tg, r)
		}
	case "eat":
		food := m.str("food")
		change := 0
		if food != "none" {
			// The food prints how much it lowers hunger; Eat checks the value.
			change = -m.int("food")
		}
		tg, o, err = twom.Eat(tg, m.str("character"), food != "none", change)
	case "tasks":
		tasks := map[string]twom.Task{}
		for _, w := range m.words("assignments") {
			n, t, _ := strings.Cut(w, ":")
			if _, dup := tasks[n]; dup {
				return g, nil, fmt.Errorf("tasks: %s has two tasks", n)
			}
			tasks[n] = twom.Task(t)
		}
		tg, o, err = twom.AssignTasks(tg, tasks, m.int("beds"))
	case "status":
		tg, o, err = twom.ChangeStatus(tg, m.str("character"), twom.Status(m.str("marker")), m.int("change"))
	case "combat":
		f, ferr := combatFace(ev)
		if ferr != nil {
			return g, nil, ferr
		}
		var s twom.Strike
		s, err = twom.Roll(twom.Weapon(m.str("weapon")), f, m.has("enemy"))
		pre = one(KindTwomStrike, engine.Vars{"weapon": m.str("weapon"), "wounds": s.Wounds, "kills": s.Kills,
			"out_of_ammo": s.OutOfAmmo, "fate": s.Fate, "enemy": m.has("enemy")})
		// An enemy's wounds go on the character the group names: its
		// wounds status rises (seed 004 "Kampfregeln"). A character's go
		// on the enemies' markers of the combat table.
		if on := m.str("on"); err == nil && on != "" {
			if !m.has("enemy") {
				return g, nil, fmt.Errorf("combat: on %s: a character's wounds go on the enemies; on names whom an enemy's wounds go on", on)
			}
			if s.Wounds > 0 {
				tg, o, err = twom.ChangeStatus(tg, on, twom.Wounds, s.Wounds)
			}
		}
	case "lose":
		tg, o, err = twom.Lose(tg, m.str("character"))
	case "join":
		c, perr := parseTwomChar(m.str("character"))
		if perr != nil {
			return g, nil, perr
		}
		tg, err = twom.Join(tg, c)
		pre = one(KindTwomJoined, engine.Vars{"character": c.Name})
	case "carry":
		ws, perr := parseWeights(m.str("weights"))
		if perr != nil {
			return g, nil, perr
		}
		var x twom.Outcome
		x, err = twom.Carry(tg, ws)
		o = []twom.Outcome{x}
	case "arm":
		tg, o, err = twom.Arm(tg, m.str("character"), twom.Weapon(m.str("weapon")))
	case "raid":
		tg, o, err = twom.DrawRaid(tg, twom.Raid{Damage: m.int("damage"), Wounds: m.int("wounds")})
	case "guardroll":
		f, ferr := combatFace(ev)
		if ferr != nil {
			return g, nil, ferr
		}
		tg, o, err = twom.GuardRoll(tg, m.str("character"), f, m.has("second"))
	case "defend":
		var toWounds *int
		if m.has("towounds") {
			n := m.int("towounds")
			toWounds = &n
		}
		tg, o, err = twom.Defend(tg, m.int("boards"), toWounds)
	case "drink":
		d := twom.Spirits
		if m.str("drink") == "pure" {
			d = twom.PureAlcohol
		}
		tg, o, err = twom.Alcohol(tg, m.str("character"), d)
	default:
		return g, nil, fmt.Errorf("unknown This War of Mine command %q", m.Cmd)
	}
	if err != nil {
		return g, nil, err
	}
	g.Twom = &tg
	res := append(pre, twomOuts(o)...)
	if len(res) == 0 {
		res = one(KindTwomUnchanged, nil)
	}
	return g, res, nil
}

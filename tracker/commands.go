package tracker

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tablecam/engine"
	"tablecam/models"
)

// command is one command of Fallout: The Board Game (the other games have
// theirs in moveSpecs): the words that name it, how many words it takes,
// how it makes an event and how that event is written back as a line. The
// prompt's help, the parser and the usage in its errors all read this
// table, so a command is described once.
type command struct {
	name string
	// aliases are other words for the command: "fertig", which the German
	// announcements ask the group to say, is done.
	aliases []string
	usage   string
	// minArgs and maxArgs bound the words after the command (maxArgs < 0:
	// no bound); a line outside them is answered with the usage.
	minArgs, maxArgs int
	// examples are lines that parse; the tests write each event back and
	// parse it again.
	examples []string
	build    func(c *models.Content, usage string, a []string) (Event, error)
	// write gives the words after the command that make ev again.
	write func(ev Event) []string
}

const anyArgs = -1

// commands is the table of Fallout: The Board Game's commands, in the
// order the help lists them.
func commands() []command {
	return []command{
		{name: "setup", usage: "setup SCENARIO loyal FACTION survivors ID[:HP[:SPECIAL]]... [first ID]",
			minArgs: 0, maxArgs: anyArgs, build: buildSetup, write: writeSetup,
			examples: []string{"setup commonwealth loyal railroad survivors alice:8:SA bob:10:PE carol::E first bob",
				"setup fallout commonwealth loyal railroad survivors alice"}},
		{name: "test", usage: "test SURVIVOR DIFFICULTY [LETTERS] [rerolls N]",
			minArgs: 2, maxArgs: anyArgs, build: buildTest, write: writeTest,
			examples: []string{"test alice 2 SA rerolls 1", "test bob 0", "test carol 3 rerolls 0"}},
		{name: "fight", usage: "fight SURVIVOR ENEMY [assist SURVIVOR] [draw] [rerolls N]",
			minArgs: 2, maxArgs: anyArgs, build: buildFight, write: writeFight,
			examples: []string{"fight bob e1 assist alice draw rerolls 0", "fight alice raider-2"}},
		{name: "roll", usage: "roll [SET] FACE... [assist FACE] [frame REF]",
			minArgs: 0, maxArgs: anyArgs, build: buildRoll, write: writeRoll,
			examples: []string{"roll head arms", "roll d6 3 4", "roll 2h head assist hit frame f-0012"}},
		{name: "reroll", usage: "reroll DIE:FACE... (DIE 1..n, 0 = assist die)",
			minArgs: 1, maxArgs: anyArgs, build: buildReroll, write: writeReroll,
			examples: []string{"reroll 0:hit 1:head", "reroll 2:legs"}},
		bare("done", EvDone, "fertig"),
		{name: "nocontext", usage: "nocontext", minArgs: 0, maxArgs: 0, examples: []string{"nocontext"},
			build: func(*models.Content, string, []string) (Event, error) {
				return Event{Type: EvContext, Context: &RollContext{}}, nil
			},
			write: func(Event) []string { return nil }},
		{name: "card", usage: "card CARD-ID", minArgs: 1, maxArgs: 1, examples: []string{"card activation-9"},
			build: func(_ *models.Content, _ string, a []string) (Event, error) {
				return Event{Type: EvCard, Card: a[0]}, nil
			},
			write: func(ev Event) []string { return []string{ev.Card} }},
		bare("round", EvRound),
		{name: "first", usage: "first SURVIVOR", minArgs: 1, maxArgs: 1, examples: []string{"first zoe"},
			build: func(_ *models.Content, _ string, a []string) (Event, error) {
				return Event{Type: EvFirst, Survivor: a[0]}, nil
			},
			write: func(ev Event) []string { return []string{ev.Survivor} }},
		bare("goal", EvGoal),
		bare("win", EvWin),
		{name: "power", usage: "power [FACTION] +N", minArgs: 1, maxArgs: 2, build: buildPower, write: writePower,
			examples: []string{"power +2", "power institute 1"}},
		count("retreat", "retreat N", EvRetreat, 1, engine.MaxStep),
		adjust("hp"),
		adjust("rads"),
		adjust("xp"),
		adjust("caps"),
		count("camps", "camps +N|-N", EvCamps, -engine.MaxStep, engine.MaxStep),
		{name: "set", usage: "set SURVIVOR rested|loyal|special|armor|ranged VALUE", minArgs: 2, maxArgs: 3,
			examples: []string{"set alice armor 2", "set bob loyal railroad", "set carol rested"},
			build: func(_ *models.Content, _ string, a []string) (Event, error) {
				ev := Event{Type: EvSet, Survivor: a[0], Field: a[1]}
				if len(a) == 3 {
					ev.Value = a[2]
				}
				return ev, nil
			},
			write: func(ev Event) []string { return nonEmpty(ev.Survivor, ev.Field, ev.Value) }},
		count("setpower", "setpower SPACE", EvSetPower, 1, engine.MaxStep),
		count("setgoals", "setgoals N", EvSetGoals, 0, engine.MaxGoals),
		{name: "enemy", usage: "enemy add TYPE|TOKEN|FACTION [inactive] [with ID,..] [adjacent ID,..] [as NAME] | " +
			"enemy remove ENEMY | enemy place ENEMY [with ID,..] [adjacent ID,..] [active|inactive] [token TOKEN] [as NAME]",
			minArgs: 2, maxArgs: anyArgs, build: buildEnemy, write: writeEnemy,
			examples: []string{"enemy add institute inactive with alice adjacent bob,carol as gus", "enemy remove e1",
				"enemy place e1 active token raider-3"}},
		{name: "enemies", usage: "enemies TYPE|FACTION N", minArgs: 2, maxArgs: 2, examples: []string{"enemies raider 3"},
			build: func(_ *models.Content, _ string, a []string) (Event, error) {
				n, err := num(a[1], "the enemy count", 0, engine.MaxEnemies)
				if err != nil {
					return Event{}, err
				}
				return Event{Type: EvEnemies, Enemy: a[0], N: n}, nil
			},
			write: func(ev Event) []string { return []string{ev.Enemy, strconv.Itoa(ev.N)} }},
		{name: "correct", usage: "correct SEQ FACE... [assist FACE]", minArgs: 2, maxArgs: anyArgs,
			build: buildCorrect, write: writeCorrect,
			examples: []string{"correct 3 head arms assist blank", "correct 12 d6 5"}},
		bare("undo", EvUndo),
		bare("redo", EvRedo),
	}
}

// findCommand finds a command by its name or an alias (lower case).
func findCommand(word string) (command, bool) {
	for _, x := range commands() {
		if x.name == word {
			return x, true
		}
		for _, a := range x.aliases {
			if a == word {
				return x, true
			}
		}
	}
	return command{}, false
}

// parse parses the words after a command of Fallout: The Board Game.
func parse(c *models.Content, cmd string, a []string) (Event, error) {
	x, ok := findCommand(cmd)
	if !ok {
		return Event{}, fmt.Errorf("unknown command (type help for the list)")
	}
	if len(a) < x.minArgs || (x.maxArgs != anyArgs && len(a) > x.maxArgs) {
		return Event{}, fmt.Errorf("usage: %s", x.usage)
	}
	return x.build(c, x.usage, a)
}

// eventLine writes an event back as the line that makes it.
func eventLine(ev Event) string {
	if ev.Move != nil {
		return moveLine(ev)
	}
	word := ev.Type
	switch ev.Type {
	case EvAdjust:
		word = ev.Field
	case EvContext:
		word = "nocontext"
		if ev.Context != nil && ev.Context.Kind != CtxNone {
			word = ev.Context.Kind
		}
	}
	x, ok := findCommand(word)
	if !ok {
		return word
	}
	return strings.Join(append([]string{x.name}, x.write(ev)...), " ")
}

// bare is a command of one word that makes an event of type typ.
func bare(name, typ string, aliases ...string) command {
	return command{name: name, aliases: aliases, usage: name, examples: []string{name},
		build: func(*models.Content, string, []string) (Event, error) { return Event{Type: typ}, nil },
		write: func(Event) []string { return nil }}
}

// count is a command of one number within lo … hi.
func count(name, usage, typ string, lo, hi int) command {
	return command{name: name, usage: usage, minArgs: 1, maxArgs: 1, examples: []string{name + " 1"},
		build: func(_ *models.Content, _ string, a []string) (Event, error) {
			n, err := num(a[0], name, lo, hi)
			if err != nil {
				return Event{}, err
			}
			return Event{Type: typ, N: n}, nil
		},
		write: func(ev Event) []string { return []string{strconv.Itoa(ev.N)} }}
}

// adjust is a command that changes a survivor's value (its name) by ±N.
func adjust(field string) command {
	return command{name: field, usage: field + " SURVIVOR +N|-N", minArgs: 2, maxArgs: 2,
		examples: []string{field + " alice -3", field + " bob +2"},
		build: func(_ *models.Content, _ string, a []string) (Event, error) {
			n, err := num(a[1], "a change of "+field, -engine.MaxStep, engine.MaxStep)
			if err != nil {
				return Event{}, err
			}
			if n == 0 {
				return Event{}, fmt.Errorf("a change of 0 changes nothing")
			}
			return Event{Type: EvAdjust, Survivor: a[0], Field: field, N: n}, nil
		},
		write: func(ev Event) []string { return []string{ev.Survivor, fmt.Sprintf("%+d", ev.N)} }}
}

func nonEmpty(words ...string) []string {
	var out []string
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func buildSetup(_ *models.Content, usage string, a []string) (Event, error) {
	if len(a) > 0 && strings.EqualFold(a[0], GameFallout) {
		a = a[1:]
	}
	if len(a) < 5 || a[1] != "loyal" || a[3] != "survivors" {
		return Event{}, fmt.Errorf("usage: %s", usage)
	}
	su := &engine.Setup{Scenario: a[0], Loyal: a[2]}
	first := ""
	rest := a[4:]
	for i := 0; i < len(rest); i++ {
		if rest[i] == "first" {
			if i+1 >= len(rest) {
				return Event{}, fmt.Errorf("first needs a survivor id")
			}
			first = rest[i+1]
			i++
			continue
		}
		s, err := setupSurvivor(rest[i])
		if err != nil {
			return Event{}, err
		}
		su.Survivors = append(su.Survivors, s)
	}
	if len(su.Survivors) == 0 {
		return Event{}, fmt.Errorf("no survivors: usage: %s", usage)
	}
	if first != "" {
		su.FirstPlayer = -1
		for i, s := range su.Survivors {
			if s.ID == first {
				su.FirstPlayer = i
			}
		}
		if su.FirstPlayer < 0 {
			return Event{}, fmt.Errorf("first player %q is not a survivor", first)
		}
	}
	return Event{Type: EvSetup, Setup: su}, nil
}

// setupSurvivor reads a survivor of the setup line: ID[:HP[:SPECIAL]].
func setupSurvivor(w string) (models.Survivor, error) {
	parts := strings.Split(w, ":")
	if parts[0] == "" {
		return models.Survivor{}, fmt.Errorf("survivor %q has no id: want ID[:HP[:SPECIAL]]", w)
	}
	r, size := utf8.DecodeRuneInString(parts[0])
	s := models.Survivor{ID: parts[0], Name: string(unicode.ToUpper(r)) + parts[0][size:]}
	if len(parts) > 1 && parts[1] != "" {
		hp, err := atoi(parts[1], "HP")
		if err != nil || hp < 1 || hp > 99 {
			return models.Survivor{}, fmt.Errorf("survivor %s: HP must be 1..99, got %q", parts[0], parts[1])
		}
		s.MaxHP = hp
	}
	if len(parts) > 2 {
		s.Special = strings.ToUpper(parts[2])
	}
	if len(parts) > 3 {
		return models.Survivor{}, fmt.Errorf("survivor %q: want ID[:HP[:SPECIAL]]", w)
	}
	return s, nil
}

func writeSetup(ev Event) []string {
	su := ev.Setup
	if su == nil {
		return nil
	}
	out := []string{su.Scenario, "loyal", su.Loyal, "survivors"}
	for _, s := range su.Survivors {
		w := s.ID
		if s.MaxHP > 0 || s.Special != "" {
			w += ":"
			if s.MaxHP > 0 {
				w += strconv.Itoa(s.MaxHP)
			}
		}
		if s.Special != "" {
			w += ":" + s.Special
		}
		out = append(out, w)
	}
	if su.FirstPlayer > 0 && su.FirstPlayer < len(su.Survivors) {
		out = append(out, "first", su.Survivors[su.FirstPlayer].ID)
	}
	return out
}

func buildTest(_ *models.Content, usage string, a []string) (Event, error) {
	d, err := num(a[1], "difficulty", 0, maxDifficulty)
	if err != nil {
		return Event{}, err
	}
	ctx := &RollContext{Kind: CtxTest, Survivor: a[0], Difficulty: d}
	rest := a[2:]
	if len(rest) > 0 && rest[0] != "rerolls" {
		ctx.Special, rest = strings.ToUpper(rest[0]), rest[1:]
	}
	if err := rerollsOpt(ctx, rest, usage); err != nil {
		return Event{}, err
	}
	return Event{Type: EvContext, Context: ctx}, nil
}

func writeTest(ev Event) []string {
	x := ev.Context
	return append(nonEmpty(x.Survivor, strconv.Itoa(x.Difficulty), x.Special), rerollsWords(x)...)
}

func buildFight(_ *models.Content, usage string, a []string) (Event, error) {
	ctx := &RollContext{Kind: CtxFight, Survivor: a[0], Enemy: a[1]}
	rest := a[2:]
	var left []string
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case "draw":
			ctx.Draw = true
		case "assist":
			if i+1 >= len(rest) {
				return Event{}, fmt.Errorf("usage: %s", usage)
			}
			if ctx.Assistant != "" {
				return Event{}, fmt.Errorf("only one survivor may assist a fight (seed 003 \"Assisting\"): %s already assists, not also %s", ctx.Assistant, rest[i+1])
			}
			ctx.Assistant = rest[i+1]
			i++
		default:
			left = append(left, rest[i])
		}
	}
	if err := rerollsOpt(ctx, left, usage); err != nil {
		return Event{}, err
	}
	return Event{Type: EvContext, Context: ctx}, nil
}

func writeFight(ev Event) []string {
	x := ev.Context
	out := []string{x.Survivor, x.Enemy}
	if x.Assistant != "" {
		out = append(out, "assist", x.Assistant)
	}
	if x.Draw {
		out = append(out, "draw")
	}
	return append(out, rerollsWords(x)...)
}

func rerollsOpt(ctx *RollContext, rest []string, usage string) error {
	if len(rest) == 0 {
		return nil
	}
	if len(rest) != 2 || rest[0] != "rerolls" {
		return fmt.Errorf("usage: %s", usage)
	}
	n, err := num(rest[1], "rerolls", 0, maxRerolls)
	if err != nil {
		return err
	}
	ctx.Rerolls = &n
	return nil
}

func rerollsWords(x *RollContext) []string {
	if x.Rerolls == nil {
		return nil
	}
	return []string{"rerolls", strconv.Itoa(*x.Rerolls)}
}

func buildRoll(c *models.Content, usage string, a []string) (Event, error) {
	return readFaces(c, usage, Event{Type: EvRoll}, a)
}

func buildCorrect(c *models.Content, usage string, a []string) (Event, error) {
	n, err := strconv.ParseInt(a[0], 10, 64)
	if err != nil || n <= 0 {
		return Event{}, fmt.Errorf("SEQ must be an event number, got %q", a[0])
	}
	return readFaces(c, usage, Event{Type: EvCorrect, Target: n}, a[1:])
}

// readFaces reads the die readings of roll and correct: an optional face
// set, the faces, and the assist die's face and frame by their keywords. A
// lone word is a face even where it names a set too (a luck token's side
// "luck").
func readFaces(c *models.Content, usage string, ev Event, a []string) (Event, error) {
	if len(a) > 1 {
		if _, ok := c.FaceSet(a[0]); ok && a[0] != "assist" {
			ev.Set, a = a[0], a[1:]
		}
	}
	for i := 0; i < len(a); i++ {
		switch a[i] {
		case "assist", "frame":
			if i+1 >= len(a) {
				return Event{}, fmt.Errorf("%s needs a value", a[i])
			}
			if a[i] == "assist" {
				ev.Assist = a[i+1]
			} else {
				ev.Frame = a[i+1]
			}
			i++
		default:
			ev.Faces = append(ev.Faces, a[i])
		}
	}
	if len(ev.Faces) == 0 {
		return Event{}, fmt.Errorf("no faces: usage: %s", usage)
	}
	if len(ev.Faces) > 12 {
		return Event{}, fmt.Errorf("%d dice is more than tablecam tracks in one roll (12)", len(ev.Faces))
	}
	return ev, nil
}

func writeRoll(ev Event) []string {
	out := append(nonEmpty(ev.Set), ev.Faces...)
	if ev.Assist != "" {
		out = append(out, "assist", ev.Assist)
	}
	if ev.Frame != "" {
		out = append(out, "frame", ev.Frame)
	}
	return out
}

func writeCorrect(ev Event) []string {
	return append([]string{strconv.FormatInt(ev.Target, 10)}, writeRoll(ev)...)
}

func buildReroll(_ *models.Content, _ string, a []string) (Event, error) {
	ev := Event{Type: EvReroll}
	for _, x := range a {
		d, face, ok := strings.Cut(x, ":")
		if !ok {
			return Event{}, fmt.Errorf("%q is not DIE:FACE (e.g. 2:legs)", x)
		}
		n, err := atoi(d, "die")
		if err != nil || n < 0 || n > 12 {
			return Event{}, fmt.Errorf("die %q: want 0 (assist) to 12", d)
		}
		ev.Dice = append(ev.Dice, n)
		ev.Faces = append(ev.Faces, face)
	}
	return ev, nil
}

func writeReroll(ev Event) []string {
	var out []string
	for i, d := range ev.Dice {
		if i < len(ev.Faces) {
			out = append(out, fmt.Sprintf("%d:%s", d, ev.Faces[i]))
		}
	}
	return out
}

func buildPower(_ *models.Content, _ string, a []string) (Event, error) {
	ev := Event{Type: EvPower}
	if len(a) == 2 {
		ev.Faction, a = a[0], a[1:]
	}
	n, err := num(a[0], "power", 1, engine.MaxStep)
	if err != nil {
		return Event{}, err
	}
	ev.N = n
	return ev, nil
}

func writePower(ev Event) []string { return nonEmpty(ev.Faction, fmt.Sprintf("%+d", ev.N)) }

func buildEnemy(_ *models.Content, usage string, a []string) (Event, error) {
	ev := Event{Type: EvEnemy, Op: a[0], Enemy: a[1]}
	if ev.Op != "add" && ev.Op != "remove" && ev.Op != "place" {
		return Event{}, fmt.Errorf("usage: %s", usage)
	}
	rest := a[2:]
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case "active", "inactive":
			v := rest[i] == "active"
			ev.Active = &v
		case "with", "adjacent", "token", "as":
			if i+1 >= len(rest) {
				return Event{}, fmt.Errorf("%s needs a value", rest[i])
			}
			switch rest[i] {
			case "with":
				ev.With = split(rest[i+1])
			case "adjacent":
				ev.Adjacent = split(rest[i+1])
			case "token":
				ev.Token = rest[i+1]
			case "as":
				ev.Name = rest[i+1]
			}
			i++
		default:
			return Event{}, fmt.Errorf("unexpected %q: usage: %s", rest[i], usage)
		}
	}
	if ev.Op == "remove" && len(rest) > 0 {
		return Event{}, fmt.Errorf("usage: enemy remove ENEMY")
	}
	return ev, nil
}

func writeEnemy(ev Event) []string {
	out := []string{ev.Op, ev.Enemy}
	if ev.Active != nil {
		out = append(out, map[bool]string{true: "active", false: "inactive"}[*ev.Active])
	}
	for _, o := range []struct{ key, v string }{
		{"with", strings.Join(ev.With, ",")}, {"adjacent", strings.Join(ev.Adjacent, ",")},
		{"token", ev.Token}, {"as", ev.Name},
	} {
		if o.v != "" {
			out = append(out, o.key, o.v)
		}
	}
	return out
}

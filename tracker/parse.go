package tracker

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tablecam/engine"
	"tablecam/models"
)

// Command is one line of the manual prompt or an events file.
type Command struct {
	Name    string
	Usage   string
	Summary string
}

// Commands lists the event commands with their syntax (the prompt's
// help), summaries in English.
func Commands() []Command { return (*Catalog)(nil).Commands() }

// Commands lists the event commands with their syntax, summaries in the
// catalog's language.
func (c *Catalog) Commands() []Command {
	out := []Command{
		{Name: "setup", Usage: "setup SCENARIO loyal FACTION survivors ID[:HP[:SPECIAL]]... [first ID]"},
		{Name: "test", Usage: "test SURVIVOR DIFFICULTY [LETTERS] [rerolls N]"},
		{Name: "fight", Usage: "fight SURVIVOR ENEMY [assist SURVIVOR] [draw] [rerolls N]"},
		{Name: "roll", Usage: "roll [SET] FACE... [assist FACE] [frame REF]"},
		{Name: "reroll", Usage: "reroll DIE:FACE... (DIE 1..n, 0 = assist die)"},
		{Name: "done", Usage: "done"},
		{Name: "nocontext", Usage: "nocontext"},
		{Name: "card", Usage: "card CARD-ID"},
		{Name: "round", Usage: "round"},
		{Name: "first", Usage: "first SURVIVOR"},
		{Name: "goal", Usage: "goal"},
		{Name: "win", Usage: "win"},
		{Name: "power", Usage: "power [FACTION] +N"},
		{Name: "retreat", Usage: "retreat N"},
		{Name: "hp", Usage: "hp SURVIVOR +N|-N"},
		{Name: "rads", Usage: "rads SURVIVOR +N|-N"},
		{Name: "xp", Usage: "xp SURVIVOR +N|-N"},
		{Name: "caps", Usage: "caps SURVIVOR +N|-N"},
		{Name: "camps", Usage: "camps +N|-N"},
		{Name: "set", Usage: "set SURVIVOR rested|loyal|special|armor|ranged VALUE"},
		{Name: "setpower", Usage: "setpower SPACE"},
		{Name: "setgoals", Usage: "setgoals N"},
		{Name: "enemy", Usage: "enemy add TYPE|TOKEN|FACTION [inactive] [with ID,..] [adjacent ID,..] [as NAME] | enemy remove ENEMY | enemy place ENEMY [with ID,..] [adjacent ID,..] [active|inactive] [token TOKEN] [as NAME]"},
		{Name: "enemies", Usage: "enemies TYPE|FACTION N"},
		{Name: "correct", Usage: "correct SEQ FACE... [assist FACE]"},
		{Name: "undo", Usage: "undo"},
		{Name: "redo", Usage: "redo"},
	}
	for i := range out {
		out[i].Summary = c.T("cmd." + out[i].Name)
	}
	return append(out, c.gameCommands()...)
}

// ParseLine parses one command line into an event. Empty lines and
// comments (#) return ok=false and no error.
func ParseLine(c *models.Content, line string) (ev Event, ok bool, err error) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	if !utf8.ValidString(line) {
		return ev, false, fmt.Errorf("the line is not valid UTF-8 text")
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return ev, false, nil
	}
	cmd, args := strings.ToLower(f[0]), f[1:]
	if cmd == "fertig" {
		// The German announcements ask the group to say "fertig".
		cmd = "done"
	}
	ev, ok, err = parseGameLine(cmd, args)
	if !ok {
		ev, err = parse(c, cmd, args)
	}
	if err != nil {
		return ev, false, fmt.Errorf("%s: %w", cmd, err)
	}
	ev.Source = firstNonEmpty(ev.Source, "manual")
	if ev.Type != EvRoll && ev.Type != EvReroll {
		ev.Source = ""
	}
	return ev, true, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func atoi(s, what string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil {
		return 0, fmt.Errorf("%s must be a whole number, got %q", what, s)
	}
	return n, nil
}

// num parses a typed whole number that must lie in lo … hi.
func num(s, what string, lo, hi int) (int, error) {
	n, err := atoi(s, what)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s must be %d … %d, got %d", what, lo, hi, n)
	}
	return n, nil
}

// Bounds of typed numbers that the engine does not bound itself.
const (
	maxDifficulty = 30 // twelve dice of two hits each at most
	maxRerolls    = 10
)

func split(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func want(args []string, n int, usage string) error {
	if len(args) != n {
		return fmt.Errorf("usage: %s", usage)
	}
	return nil
}

func parse(c *models.Content, cmd string, a []string) (Event, error) {
	usage := ""
	for _, x := range Commands() {
		if x.Name == cmd {
			usage = x.Usage
		}
	}
	switch cmd {
	case "setup":
		if len(a) > 0 && strings.EqualFold(a[0], GameFallout) {
			a = a[1:]
		}
		return parseSetup(a, usage)
	case "test":
		if len(a) < 2 {
			return Event{}, fmt.Errorf("usage: %s", usage)
		}
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
	case "fight":
		if len(a) < 2 {
			return Event{}, fmt.Errorf("usage: %s", usage)
		}
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
	case "nocontext":
		return Event{Type: EvContext, Context: &RollContext{}}, want(a, 0, usage)
	case "roll", "correct":
		ev := Event{Type: EvRoll}
		if cmd == "correct" {
			if len(a) < 2 {
				return Event{}, fmt.Errorf("usage: %s", usage)
			}
			n, err := strconv.ParseInt(a[0], 10, 64)
			if err != nil || n <= 0 {
				return Event{}, fmt.Errorf("SEQ must be an event number, got %q", a[0])
			}
			ev = Event{Type: EvCorrect, Target: n}
			a = a[1:]
		}
		if len(a) > 0 {
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
	case "reroll":
		ev := Event{Type: EvReroll}
		if len(a) == 0 {
			return Event{}, fmt.Errorf("usage: %s", usage)
		}
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
	case "done", "round", "goal", "win", "undo", "redo":
		return Event{Type: map[string]string{"done": EvDone, "round": EvRound, "goal": EvGoal, "win": EvWin,
			"undo": EvUndo, "redo": EvRedo}[cmd]}, want(a, 0, usage)
	case "card":
		if err := want(a, 1, usage); err != nil {
			return Event{}, err
		}
		return Event{Type: EvCard, Card: a[0]}, nil
	case "first":
		if err := want(a, 1, usage); err != nil {
			return Event{}, err
		}
		return Event{Type: EvFirst, Survivor: a[0]}, nil
	case "power":
		ev := Event{Type: EvPower}
		if len(a) == 2 {
			ev.Faction, a = a[0], a[1:]
		}
		if err := want(a, 1, usage); err != nil {
			return Event{}, err
		}
		n, err := num(a[0], "power", 1, engine.MaxStep)
		if err != nil {
			return Event{}, err
		}
		ev.N = n
		return ev, nil
	case "retreat", "setpower", "setgoals", "camps":
		if err := want(a, 1, usage); err != nil {
			return Event{}, err
		}
		r := map[string][2]int{"retreat": {1, engine.MaxStep}, "setpower": {1, engine.MaxStep},
			"setgoals": {0, engine.MaxGoals}, "camps": {-engine.MaxStep, engine.MaxStep}}[cmd]
		n, err := num(a[0], cmd, r[0], r[1])
		if err != nil {
			return Event{}, err
		}
		return Event{Type: map[string]string{"retreat": EvRetreat, "setpower": EvSetPower, "setgoals": EvSetGoals, "camps": EvCamps}[cmd], N: n}, nil
	case "hp", "rads", "xp", "caps":
		if err := want(a, 2, usage); err != nil {
			return Event{}, err
		}
		n, err := num(a[1], "a change of "+cmd, -engine.MaxStep, engine.MaxStep)
		if err != nil {
			return Event{}, err
		}
		if n == 0 {
			return Event{}, fmt.Errorf("a change of 0 changes nothing")
		}
		return Event{Type: EvAdjust, Survivor: a[0], Field: cmd, N: n}, nil
	case "set":
		if len(a) < 2 || len(a) > 3 {
			return Event{}, fmt.Errorf("usage: %s", usage)
		}
		v := ""
		if len(a) == 3 {
			v = a[2]
		}
		return Event{Type: EvSet, Survivor: a[0], Field: a[1], Value: v}, nil
	case "enemies":
		if err := want(a, 2, usage); err != nil {
			return Event{}, err
		}
		n, err := num(a[1], "the enemy count", 0, engine.MaxEnemies)
		if err != nil {
			return Event{}, err
		}
		return Event{Type: EvEnemies, Enemy: a[0], N: n}, nil
	case "enemy":
		return parseEnemy(a, usage)
	}
	return Event{}, fmt.Errorf("unknown command (type help for the list)")
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

func parseSetup(a []string, usage string) (Event, error) {
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
		parts := strings.Split(rest[i], ":")
		if parts[0] == "" {
			return Event{}, fmt.Errorf("survivor %q has no id: want ID[:HP[:SPECIAL]]", rest[i])
		}
		r, size := utf8.DecodeRuneInString(parts[0])
		s := models.Survivor{ID: parts[0], Name: string(unicode.ToUpper(r)) + parts[0][size:]}
		if len(parts) > 1 && parts[1] != "" {
			hp, err := atoi(parts[1], "HP")
			if err != nil || hp < 1 || hp > 99 {
				return Event{}, fmt.Errorf("survivor %s: HP must be 1..99, got %q", parts[0], parts[1])
			}
			s.MaxHP = hp
		}
		if len(parts) > 2 {
			s.Special = strings.ToUpper(parts[2])
		}
		if len(parts) > 3 {
			return Event{}, fmt.Errorf("survivor %q: want ID[:HP[:SPECIAL]]", rest[i])
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

func parseEnemy(a []string, usage string) (Event, error) {
	if len(a) < 2 {
		return Event{}, fmt.Errorf("usage: %s", usage)
	}
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

// ParseFile reads an events file: one command per line, # comments.
// Every bad line (one that does not parse, or is longer than MaxLineBytes)
// is reported, each with its number, and then no events are returned.
func ParseFile(c *models.Content, name string, r io.Reader) ([]Event, error) {
	var (
		out  []Event
		errs []error
	)
	lr := NewLineReader(r)
	for {
		line, n, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrLineTooLong) {
			errs = append(errs, fmt.Errorf("%s:%d: %w", name, n, err))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s after line %d: %w", name, n, err)
		}
		ev, ok, err := ParseLine(c, line)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", name, n, err))
			continue
		}
		if ok {
			out = append(out, ev)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

package tracker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tablecam/engine/wasteland"
)

// Game ids: the games a session can play. Fallout: The Board Game is the
// default and has no id in the log (its setup names a scenario).
const (
	GameFallout   = "fallout"
	GameTwom      = "twom"
	GameWarfare   = "warfare"
	GameWasteland = "wasteland"
)

// GameInfo names a game the tracker plays.
type GameInfo struct {
	ID    string
	Name  string
	Setup string // the setup line's syntax
}

// Games lists the games a session can play, the default first.
func Games() []GameInfo {
	return []GameInfo{
		{ID: GameFallout, Name: "Fallout: The Board Game (co-op)", Setup: "setup SCENARIO loyal FACTION survivors ID[:HP[:SPECIAL]]... [first ID]"},
		{ID: GameTwom, Name: "This War of Mine: The Board Game", Setup: twomSetupUsage},
		{ID: GameWarfare, Name: "Fallout: Warfare", Setup: warfareSetupUsage},
		{ID: GameWasteland, Name: "Fallout: Wasteland Warfare", Setup: wastelandSetupUsage},
	}
}

// GameName is a game's name, for a game id of Games() ("" is Fallout: The
// Board Game).
func GameName(id string) string { return gameName(id) }

// gameName is a game's name for messages.
func gameName(id string) string {
	if id == "" {
		id = GameFallout
	}
	for _, g := range Games() {
		if g.ID == id {
			return g.Name
		}
	}
	return id
}

// Move is one command of a game other than Fallout: The Board Game, checked
// against the game's command table. The die readings of the line are the
// event's Faces, so a correction replaces them as it replaces a roll's.
type Move struct {
	Game string `json:"game"`
	Cmd  string `json:"cmd"`
	// Args holds the line's other values by name, as normalized text.
	Args map[string]string `json:"args,omitempty"`
}

// argKind is what a command's argument accepts.
type argKind int

const (
	argD10    argKind = iota // a d10 face, 0–10 (0 reads 10): a reading
	argSkill                 // a skill die face (number, ap, crit, x): a reading
	argCombat                // a combat die face (symbols 0–6, or a special face): a reading
	argLuck                  // the side a luck token shows (luck, blank): a reading
	argInt                   // a whole number within Lo … Hi
	argWord                  // a name
	argOneOf                 // one of Choices
	argFlag                  // a keyword alone: "yes" when present
	argRest                  // the rest of the words (at least one)
)

// argSpec is one argument of a command: positional, or an option
// introduced by its keyword (Opt).
type argSpec struct {
	Name    string
	Kind    argKind
	Lo, Hi  int
	Choices []string
	Opt     bool
	// Check validates a word or the rest of the line.
	Check func(string) error
}

// moveSpec is one command of a game.
type moveSpec struct {
	Game string
	Cmd  string
	Args []argSpec
	// Summary is what the command is for, by language.
	Summary map[string]string
}

func (m moveSpec) usage() string {
	parts := []string{m.Cmd}
	for _, a := range m.Args {
		v := strings.ToUpper(a.Name)
		switch a.Kind {
		case argOneOf:
			v = strings.Join(a.Choices, "|")
		case argInt:
			if a.Lo < 0 {
				v = "+N|-N"
			} else if !a.Opt {
				v = strings.ToUpper(a.Name)
			} else {
				v = "N"
			}
		case argRest:
			v += "..."
		}
		switch {
		case a.Kind == argFlag:
			parts = append(parts, "["+a.Name+"]")
		case a.Opt:
			parts = append(parts, "["+a.Name+" "+v+"]")
		default:
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " ")
}

// moveSpecs lists every command of the games other than Fallout: The Board
// Game. Names are unique across all games, so a line parses without
// knowing the session's game; applying it checks the game.
func moveSpecs() []moveSpec {
	return slices.Concat(twomSpecs(), warfareSpecs(), wastelandSpecs())
}

func findSpec(cmd string) (moveSpec, bool) {
	for _, s := range moveSpecs() {
		if s.Cmd == cmd {
			return s, true
		}
	}
	return moveSpec{}, false
}

// parseMove parses the arguments of a game command into an event: options
// and flags are taken by their keyword anywhere in the line, the other
// words fill the positional arguments in order.
func parseMove(s moveSpec, words []string) (Event, error) {
	ev := Event{Type: EvMove, Move: &Move{Game: s.Game, Cmd: s.Cmd, Args: map[string]string{}}}
	var pos []string
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		a, ok := optSpec(s, w)
		if !ok {
			pos = append(pos, words[i])
			continue
		}
		if _, dup := ev.Move.Args[a.Name]; dup {
			return Event{}, fmt.Errorf("%s given twice: usage: %s", a.Name, s.usage())
		}
		if a.Kind == argFlag {
			ev.Move.Args[a.Name] = "yes"
			continue
		}
		if i+1 >= len(words) {
			return Event{}, fmt.Errorf("%s needs a value: usage: %s", a.Name, s.usage())
		}
		i++
		if err := putArg(&ev, a, words[i]); err != nil {
			return Event{}, err
		}
	}
	missing := 0
	for i, a := range s.Args {
		if a.Opt || a.Kind == argFlag {
			continue
		}
		if isReading(a) && (len(pos) == 0 || (!numberLike(pos[0]) && s.positionalAfter(i))) {
			// Left for the camera: the roll it reads next gives the value.
			missing++
			continue
		}
		if len(pos) == 0 {
			return Event{}, fmt.Errorf("%s is missing: usage: %s", strings.ToUpper(a.Name), s.usage())
		}
		if a.Kind == argRest {
			for _, w := range pos {
				if a.Check != nil {
					if err := a.Check(w); err != nil {
						return Event{}, err
					}
				}
			}
			ev.Move.Args[a.Name] = strings.Join(pos, " ")
			pos = nil
			continue
		}
		if err := putArg(&ev, a, pos[0]); err != nil {
			return Event{}, err
		}
		pos = pos[1:]
	}
	if len(pos) > 0 {
		return Event{}, fmt.Errorf("unexpected %q: usage: %s", pos[0], s.usage())
	}
	if n, _ := s.readings(); missing > 0 && missing < n {
		return Event{}, fmt.Errorf("give all %d readings, or none for the camera to read: usage: %s", n, s.usage())
	}
	if len(ev.Move.Args) == 0 {
		ev.Move.Args = nil
	}
	return ev, nil
}

func isReading(a argSpec) bool {
	return a.Kind == argD10 || a.Kind == argSkill || a.Kind == argCombat || a.Kind == argLuck
}

// numberLike reports whether a word is meant as a die reading: a number,
// or a skill die's special face.
func numberLike(w string) bool {
	if _, err := strconv.Atoi(w); err == nil {
		return true
	}
	switch strings.ToLower(w) {
	case "ap", "crit", "critical", "x":
		return true
	}
	return false
}

// positionalAfter reports whether a positional argument follows argument i
// (a word that is no reading belongs to it).
func (s moveSpec) positionalAfter(i int) bool {
	for _, a := range s.Args[i+1:] {
		if !a.Opt && a.Kind != argFlag {
			return true
		}
	}
	return false
}

func optSpec(s moveSpec, w string) (argSpec, bool) {
	for _, a := range s.Args {
		if (a.Opt || a.Kind == argFlag) && a.Name == w {
			return a, true
		}
	}
	return argSpec{}, false
}

// putArg checks one value and stores it: readings go to the faces.
func putArg(ev *Event, a argSpec, v string) error {
	switch a.Kind {
	case argD10:
		if _, err := readD10Word(v); err != nil {
			return fmt.Errorf("%s: %w", a.Name, err)
		}
		ev.Faces = append(ev.Faces, v)
		return nil
	case argSkill:
		if _, err := wasteland.ParseFace(v); err != nil {
			return err
		}
		ev.Faces = append(ev.Faces, strings.ToLower(v))
		return nil
	case argCombat:
		if _, err := parseCombatFace(v); err != nil {
			return err
		}
		ev.Faces = append(ev.Faces, strings.ToLower(v))
		return nil
	case argLuck:
		if _, err := parseLuckSide(v); err != nil {
			return err
		}
		ev.Faces = append(ev.Faces, strings.ToLower(v))
		return nil
	case argInt:
		n, err := num(v, a.Name, a.Lo, a.Hi)
		if err != nil {
			return err
		}
		if a.Lo < 0 {
			ev.Move.Args[a.Name] = fmt.Sprintf("%+d", n) // a change, as typed
		} else {
			ev.Move.Args[a.Name] = strconv.Itoa(n)
		}
	case argOneOf:
		w := strings.ToLower(v)
		if !slices.Contains(a.Choices, w) {
			return fmt.Errorf("%s must be %s, got %q", a.Name, strings.Join(a.Choices, ", "), v)
		}
		ev.Move.Args[a.Name] = w
	default:
		if a.Check != nil {
			if err := a.Check(v); err != nil {
				return err
			}
		}
		ev.Move.Args[a.Name] = v
	}
	return nil
}

// readD10Word checks a typed d10 face: 0–10.
func readD10Word(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 10 {
		return 0, fmt.Errorf("a d10 reads 0 to 10 (0 is 10), got %q", v)
	}
	return n, nil
}

// readings is how many die readings a command takes, and of which kind.
func (s moveSpec) readings() (n int, kind argKind) {
	for _, a := range s.Args {
		if isReading(a) {
			n++
			kind = a.Kind
		}
	}
	return n, kind
}

// checkMoveFaces checks the faces of a correction of a game move.
func checkMoveFaces(m *Move, faces []string) error {
	s, ok := findSpec(m.Cmd)
	if !ok {
		return fmt.Errorf("correct: unknown command %q", m.Cmd)
	}
	n, kind := s.readings()
	if n == 0 {
		return fmt.Errorf("correct: %s reads no die", m.Cmd)
	}
	if len(faces) != n {
		return fmt.Errorf("correct: %s reads %d %s; give %d", m.Cmd, n, plural(n, "die", "dice"), n)
	}
	for _, f := range faces {
		var err error
		switch kind {
		case argSkill:
			_, err = wasteland.ParseFace(f)
		case argCombat:
			_, err = parseCombatFace(f)
		case argLuck:
			_, err = parseLuckSide(f)
		default:
			_, err = readD10Word(f)
		}
		if err != nil {
			return fmt.Errorf("correct: %w", err)
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// moveLine writes a move back in the command syntax, readings in place.
func moveLine(ev Event) string {
	m := ev.Move
	if m == nil {
		return ev.Type
	}
	s, ok := findSpec(m.Cmd)
	if ev.Type == EvSetup {
		s, ok = setupSpec(m.Game)
	}
	if !ok {
		return m.Cmd
	}
	parts := []string{s.Cmd}
	if ev.Type == EvSetup {
		parts = []string{"setup", m.Game}
	}
	faces := ev.Faces
	for _, a := range s.Args {
		v, have := m.Args[a.Name]
		// A combat die's symbols were an argument before they were a
		// reading: an event stored then keeps them in Args.
		if isReading(a) && len(faces) > 0 {
			v, have, faces = faces[0], true, faces[1:]
		} else if isReading(a) && !have {
			continue
		}
		switch {
		case !have:
		case a.Kind == argFlag:
			parts = append(parts, a.Name)
		case a.Opt:
			parts = append(parts, a.Name, v)
		default:
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " ")
}

// setupSpec is the table of a game's setup line (after "setup GAME").
func setupSpec(game string) (moveSpec, bool) {
	switch game {
	case GameTwom:
		return twomSetupSpec(), true
	case GameWarfare:
		return warfareSetupSpec(), true
	case GameWasteland:
		return wastelandSetupSpec(), true
	}
	return moveSpec{}, false
}

// parseGameSetup parses "setup GAME ..." for a game other than Fallout.
func parseGameSetup(game string, words []string) (Event, error) {
	s, _ := setupSpec(game)
	ev, err := parseMove(s, words)
	if err != nil {
		return Event{}, err
	}
	ev.Type = EvSetup
	return ev, nil
}

// gameCommands lists the games' commands for the prompt's help.
func (c *Catalog) gameCommands() []Command {
	lang := "en"
	if c != nil {
		lang = c.Lang
	}
	var out []Command
	start := map[string]string{"en": "start a game of %s", "de": "ein Spiel %q beginnen"}[lang]
	if start == "" {
		start = "start a game of %s"
	}
	for _, g := range Games()[1:] {
		out = append(out, Command{Name: "setup " + g.ID, Usage: g.Setup, Summary: fmt.Sprintf(start, g.Name)})
	}
	for _, s := range moveSpecs() {
		sum := s.Summary[lang]
		if sum == "" {
			sum = s.Summary["en"]
		}
		out = append(out, Command{Name: s.Cmd, Usage: s.usage(), Summary: sum})
	}
	return out
}

// EventWord is the command word of an event: a game move's command, else
// the event's type.
func EventWord(ev Event) string {
	if ev.Move != nil && ev.Type == EvMove {
		return ev.Move.Cmd
	}
	return ev.Type
}

// Helpers for applying a move: its values were checked when it was parsed.

func (m *Move) str(name string) string { return m.Args[name] }

func (m *Move) has(name string) bool { return m.Args[name] != "" }

func (m *Move) int(name string) int {
	n, _ := strconv.Atoi(m.Args[name])
	return n
}

// face is the i-th reading of the move.
func face(ev Event, i int) (int, error) {
	if i >= len(ev.Faces) {
		return 0, fmt.Errorf("%s: reading %d is missing", ev.Move.Cmd, i+1)
	}
	return readD10Word(ev.Faces[i])
}

// words splits a rest argument.
func (m *Move) words(name string) []string { return strings.Fields(m.Args[name]) }

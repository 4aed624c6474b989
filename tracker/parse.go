package tracker

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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
	var out []Command
	for _, x := range commands() {
		out = append(out, Command{Name: x.name, Usage: x.usage, Summary: c.T("cmd." + x.name)})
	}
	return append(out, c.gameCommands()...)
}

// ParseLine parses one command line into an event. Empty lines and
// comments (#) return ok=false and no error; a line with an error returns
// no event.
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
	if x, ok := findCommand(cmd); ok {
		cmd = x.name // an alias names its command in errors too
	}
	ev, ok, err = parseGameLine(cmd, args)
	if !ok {
		ev, err = parse(c, cmd, args)
	}
	if err != nil {
		return Event{}, false, fmt.Errorf("%s: %w", cmd, err)
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

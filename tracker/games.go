package tracker

import (
	"fmt"
	"strings"

	"tablecam/engine/warfare"
	"tablecam/models"
)

// The games other than Fallout: The Board Game share the session, the log,
// undo, corrections and the announcements; this file routes their events.

// applyGame applies an event to a game other than Fallout: The Board Game.
func applyGame(c *models.Content, g Game, seq int64, ev Event) (Game, outs, error) {
	switch {
	case ev.Type == EvRoll:
		if m, set, ok := waitingMove(g); ok && ev.Set == set {
			return resolveMove(c, g, seq, ev, m, set)
		}
		// Dice read without a command: their faces are announced.
		return roll(c, g, seq, ev)
	case ev.Type == EvDone && g.Kind == GameWasteland:
		return applyWasteland(g, ev)
	case ev.Type != EvMove || ev.Move == nil:
		return g, nil, fmt.Errorf("%s is a command of %s; this session plays %s", ev.Type, gameName(GameFallout), gameName(g.Kind))
	case ev.Move.Game != g.Kind:
		return g, nil, fmt.Errorf("%s is a command of %s; this session plays %s", ev.Move.Cmd, gameName(ev.Move.Game), gameName(g.Kind))
	}
	if s, ok := waitsForCamera(ev); ok && rollsNow(g, ev.Move) {
		return waitForRoll(c, g, ev, s)
	}
	g, o, err := applyMove(g, ev)
	if _, _, waiting := waitingMove(g); err == nil && waiting && len(ev.Faces) > 0 {
		// The dice were typed (the camera missed them): the command
		// waiting for the camera is not rolled again.
		g.Pending = nil
	}
	return g, o, err
}

// rollsNow reports whether a command that reads dice rolls them in the
// game as it stands: Fallout: Warfare's end of turn rolls the d10 only at
// dawn and dusk (seed 002 ch. 6 "Livello di Luce"), so at day and in
// darkness the turn ends without a roll.
func rollsNow(g Game, m *Move) bool {
	if g.Kind == GameWarfare && g.Warfare != nil && m.Cmd == "endturn" {
		return warfare.LightChanges(g.Warfare.Light)
	}
	return true
}

// applyMove applies a move with its readings to the session's game.
func applyMove(g Game, ev Event) (Game, outs, error) {
	switch g.Kind {
	case GameTwom:
		return applyTwom(g, ev)
	case GameWarfare:
		return applyWarfare(g, ev)
	case GameWasteland:
		return applyWasteland(g, ev)
	}
	return g, nil, fmt.Errorf("unknown game %q", g.Kind)
}

// setupGame starts a game other than Fallout: The Board Game.
func setupGame(ev Event) (Game, outs, error) {
	switch ev.Move.Game {
	case GameTwom:
		return setupTwom(ev)
	case GameWarfare:
		return setupWarfare(ev)
	case GameWasteland:
		return setupWasteland(ev)
	}
	return Game{}, nil, fmt.Errorf("setup: unknown game %q", ev.Move.Game)
}

// parseGameLine parses a line of another game: "setup GAME ..." or one of
// the games' commands. ok is false for a line of Fallout: The Board Game.
func parseGameLine(cmd string, args []string) (ev Event, ok bool, err error) {
	if cmd == "setup" && len(args) > 0 {
		g := strings.ToLower(args[0])
		if g == GameFallout {
			return Event{}, false, nil
		}
		if _, isGame := setupSpec(g); isGame {
			ev, err = parseGameSetup(g, args[1:])
			return ev, true, err
		}
		return Event{}, false, nil
	}
	s, isMove := findSpec(cmd)
	if !isMove {
		return Event{}, false, nil
	}
	ev, err = parseMove(s, args)
	return ev, true, err
}

func moveCmd(ev Event) string {
	if ev.Move == nil {
		return ev.Type
	}
	return ev.Move.Cmd
}

func moveGame(ev Event) string {
	if ev.Move == nil {
		return GameFallout
	}
	return ev.Move.Game
}

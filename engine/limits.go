package engine

import "fmt"

// Bounds on the numbers a group types. The physical game never comes near
// them; they keep a typo (or a hostile request to the dashboard) from
// allocating without end or wrapping a counter around.
const (
	// MaxEnemies is the most enemy tokens tracked on the map at once.
	MaxEnemies = 60
	// MaxGoals is the most goals a game counts.
	MaxGoals = 50
	// MaxStep is the largest single change typed for HP, rads, XP, caps,
	// C.A.M.P. tokens and power-track moves.
	MaxStep = 1000
	// MaxXP, MaxCaps and MaxCamps are the largest totals kept.
	MaxXP    = 99999
	MaxCaps  = 99999
	MaxCamps = 999
)

// inRange returns an error naming what is out of lo … hi.
func inRange(what string, n, lo, hi int) error {
	if n < lo || n > hi {
		return fmt.Errorf("%s must be %d … %d, got %d", what, lo, hi, n)
	}
	return nil
}

package warfare

import "fmt"

// Fate is what became of a unit by the end of the battle.
type Fate string

// Unit fates for scoring (seed 002 ch. 4 "Ritirata", "Vittoria!").
const (
	Alive     Fate = "alive"
	Retreated Fate = "retreated" // left by a friendly edge: half its points
	Destroyed Fate = "destroyed" // its points go to the opponent
	// RetreatedWrongEdge: left by an edge that is not friendly; scored as
	// destroyed by the opponent.
	RetreatedWrongEdge Fate = "retreated_wrong_edge"
)

// Unit is one unit (or squad) at the end of the battle.
type Unit struct {
	Points int  `json:"points"`
	Fate   Fate `json:"fate"`
}

// DrawMargin: scores that differ by this much or less are a draw.
const DrawMargin = 10

// VictoryResult is the final score of a standard skirmish.
type VictoryResult struct {
	ScoreA float64 `json:"score_a"`
	ScoreB float64 `json:"score_b"`
	// Winner is SideNone on a draw.
	Winner Side `json:"winner"`
	Draw   bool `json:"draw"`
}

// Victory scores a standard skirmish: each side adds the army points of its
// surviving units (half for those that retreated by a friendly edge) and of
// the enemy units it destroyed; the higher score wins unless the scores
// differ by 10 points or less, which is a draw (seed 002 ch. 4 "Ritirata",
// "Vittoria!").
func Victory(a, b []Unit) (VictoryResult, error) {
	ownA, lostA, err := score(a)
	if err != nil {
		return VictoryResult{}, fmt.Errorf("victory side a: %w", err)
	}
	ownB, lostB, err := score(b)
	if err != nil {
		return VictoryResult{}, fmt.Errorf("victory side b: %w", err)
	}
	res := VictoryResult{ScoreA: ownA + lostB, ScoreB: ownB + lostA}
	diff := res.ScoreA - res.ScoreB
	switch {
	case diff >= -DrawMargin && diff <= DrawMargin:
		res.Draw = true
	case diff > 0:
		res.Winner = SideA
	default:
		res.Winner = SideB
	}
	return res, nil
}

// score returns the points a side keeps and the points its losses give to
// the opponent.
func score(units []Unit) (own, lost float64, err error) {
	for i, u := range units {
		if u.Points < 0 {
			return 0, 0, fmt.Errorf("unit %d: points %d must be 0 or more", i, u.Points)
		}
		p := float64(u.Points)
		switch u.Fate {
		case Alive:
			own += p
		case Retreated:
			own += p / 2
		case Destroyed, RetreatedWrongEdge:
			lost += p
		default:
			return 0, 0, fmt.Errorf("unit %d: unknown fate %q", i, u.Fate)
		}
	}
	return own, lost, nil
}

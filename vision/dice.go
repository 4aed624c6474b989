package vision

import "image"

// Die is one die found in a frame and what it shows.
type Die struct {
	// Set is the face set id (vats, assist, d6, d10, d20, or a taught set).
	Set string `json:"set"`
	// Face is the face id within the set.
	Face string `json:"face"`
	// Value is the number a numeric face reads as (d10 "0" reads 10).
	Value int `json:"value,omitempty"`
	// Regions and Hits for symbol sets (V.A.T.S., assist); Hurt for the assist die.
	Regions []string `json:"regions,omitempty"`
	Hits    int      `json:"hits,omitempty"`
	Hurt    int      `json:"hurt,omitempty"`
	// Box is the die's bounding box in frame pixels.
	Box image.Rectangle `json:"-"`
	// Center is the middle of the die's top face; Angle its rotation (degrees).
	Center image.Point `json:"-"`
	Angle  float64     `json:"-"`
	// Confidence is in [0, 1]; Uncertain is set when it is below the
	// reader's threshold: the reading must be confirmed, never trusted.
	Confidence float64 `json:"confidence"`
	Uncertain  bool    `json:"uncertain"`
	// side is the top face's side in frame pixels (0: unknown).
	side float64
}

// Reading is what a dice reader saw in one frame.
type Reading struct {
	Dice []Die
	// Occluded is set when something that is not a die (a hand, an arm)
	// is in the rolling area: no roll may be read from this frame.
	Occluded bool
}

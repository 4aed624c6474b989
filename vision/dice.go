package vision

import (
	"image"

	"gocv.io/x/gocv"
)

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

// UnknownDieSize is the side in pixels taken for a die whose Box is
// empty (a die typed in or read from JSON without one).
const UnknownDieSize = 32

// Pos is where the die lies: its Center, or its Box's centre when Center
// is unset.
func (d Die) Pos() image.Point {
	if d.Center == (image.Point{}) && !d.Box.Empty() {
		return image.Pt((d.Box.Min.X+d.Box.Max.X)/2, (d.Box.Min.Y+d.Box.Max.Y)/2)
	}
	return d.Center
}

// Bounds is the die's Box, or an UnknownDieSize square around Pos when the
// Box is empty.
func (d Die) Bounds() image.Rectangle {
	if !d.Box.Empty() {
		return d.Box
	}
	c, h := d.Pos(), UnknownDieSize/2
	return image.Rect(c.X-h, c.Y-h, c.X+h, c.Y+h)
}

// Reading is what a dice reader saw in one frame.
type Reading struct {
	Dice []Die
	// Occluded is set when something that is not a die (a hand, an arm)
	// is in the rolling area: no roll may be read from this frame.
	Occluded bool
}

// DiceReader reads the dice in one frame (8-bit BGR, owned by the caller,
// which may close it as soon as the reader returns).
type DiceReader func(img gocv.Mat) (Reading, error)

// Package learned puts the learned dice reader of [dice] into the live
// pipeline's terms: it reads a frame's dice as [vision.Die] values, for a
// [tablecam/vision/background.Config].Dice (play) or a single picture (tablecam dice).
//
//	r, err := dice.NewReader()
//	if err != nil { ... }
//	defer r.Close()
//	bg := background.New(det, background.Config{Dice: learned.Dice(r, nil, content)})
package learned

import (
	"strconv"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/dice"
)

// Dice reads the dice of a frame with the learned reader r: with no taught
// sets, the d6 pips of r's built-in classes; with taught sets (see
// [dice.TeachFolder]), each die as the nearest face of all of them. A
// reading r is not sure of is Uncertain. c (nil: none) gives a face of a
// content set its regions, hits and hurt. r is not safe for concurrent
// use, nor is the function returned.
func Dice(r *dice.Reader, taught []*dice.Taught, c *models.Content) func(img gocv.Mat) ([]vision.Die, error) {
	if len(taught) == 0 {
		return func(img gocv.Mat) ([]vision.Die, error) {
			rs, err := r.ReadDice(img)
			if err != nil {
				return nil, err
			}
			out := make([]vision.Die, 0, len(rs))
			for _, d := range rs {
				out = append(out, vision.Die{Set: "d6", Face: strconv.Itoa(d.Value), Value: d.Value, Box: d.Box,
					Center: d.Center, Confidence: d.Confidence, Uncertain: !d.Sure})
			}
			return out, nil
		}
	}
	return func(img gocv.Mat) ([]vision.Die, error) {
		ds, err := r.ReadTaught(img, taught)
		if err != nil {
			return nil, err
		}
		out := make([]vision.Die, 0, len(ds))
		for _, d := range ds {
			die := vision.Die{Set: d.Set, Face: d.Face, Value: d.Value, Box: d.Box, Center: d.Center,
				Confidence: d.Confidence, Uncertain: !d.Sure}
			if c != nil {
				if fs, ok := c.FaceSet(d.Set); ok {
					if f, ok := fs.Face(d.Face); ok {
						die.Regions, die.Hits, die.Hurt = f.Regions, f.Hits, f.Hurt
					}
				}
			}
			out = append(out, die)
		}
		return out, nil
	}
}

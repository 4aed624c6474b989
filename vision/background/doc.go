// Package background keeps the picture of the empty table for a dice
// detector during live play, where nobody hands it one: a [Reader] reads
// each frame's dice through its [Detector] and learns the empty table
// from still frames without dice or hands, refreshes it as the light
// drifts, and drops it when the light is switched or the camera moves.
// With the empty table the detector sees hands (a frame with one is
// occluded) and tells dice from a busy table.
//
// Use a Reader in place of the detector's own Read:
//
//	bg := background.New(det, background.Config{})
//	defer bg.Close() // det stays the caller's
//	pipe := rolls.NewPipeline(src, md, bg.Read, rolls.NewTracker(rolls.Config{}))
//
// [Config].Share hands each new empty table on (to the card reader), and
// [Config].Dice lets another reader (the learned one) name the dice while
// the detector keeps the table and sees the hands.
package background

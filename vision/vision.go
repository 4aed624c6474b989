// Package vision reads the dice in a picture of the table with the
// hand-tuned reader: a [DiceDetector] finds each die's top face (against
// the empty table when it has one, see [DiceDetector.SetBackground]) and
// reads it with the face sets' [DiceProfile]s, which are taught from a few
// pictures per face ([TeachDice]). A reading is a [Reading] of [Die]
// values; a [DiceReader] is any function that makes one from a frame, as
// the roll pipeline ([tablecam/vision/rolls]) and the background reader
// ([tablecam/vision/background]) take it.
//
// The dice of one picture:
//
//	det, err := vision.NewDiceDetector(content, profiles, vision.DiceConfig{Sets: []string{"vats"}})
//	if err != nil {
//		return err
//	}
//	defer det.Close()
//	img, err := frame.ReadImage("table.png")
//	if err != nil {
//		return err
//	}
//	defer img.Close()
//	rd, err := det.Read(img)
//	if err != nil {
//		return err
//	}
//	for _, d := range rd.Dice {
//		fmt.Println(d.Set, d.Face, d.Uncertain)
//	}
//
// (content is the game's [tablecam/models.Content]; profiles are the face
// sets' [DiceProfile] values, e.g. from [tablecam/vision/defaults.Load].)
// Frames come from [tablecam/frame], the rolls of a stream from
// [tablecam/vision/rolls], the cards from [tablecam/vision/card];
// [tablecam/vision/learned] is the other dice reader.
//
// [SetOpenCVThreads] sets the threads of OpenCV's own loops for the whole
// process. Detectors are not safe for concurrent use.
package vision

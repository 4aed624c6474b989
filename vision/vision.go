// Package vision reads a board-game table through a camera: the dice
// rolled on it and the cards shown to it.
//
// Frames come from a [tablecam/frame.Source]. A [DiceDetector] reads the dice of one frame,
// a [tablecam/vision/card.Reader] its cards (by their ID stickers, or against the cards
// taught into a [tablecam/vision/card/index.Index]). A [Pipeline] joins a Source, [Motion] and a
// [RollTracker] into roll events: it reads the dice once they stop and says
// when a roll settles or a die is rerolled.
//
// The dice of a video, roll by roll:
//
//	src, err := frame.OpenVideoFile("game.mp4")
//	if err != nil {
//		return err
//	}
//	defer src.Close()
//	det, err := vision.NewDiceDetector(content, profiles, vision.DiceConfig{Sets: []string{"vats"}})
//	if err != nil {
//		return err
//	}
//	defer det.Close()
//	md := motion.New(motion.Config{})
//	defer motion.Close()
//	pipe := vision.NewPipeline(src, md, det.Reader(), vision.NewRollTracker(vision.RollConfig{}))
//	return pipe.Run(ctx, func(step *vision.Step) error {
//		for _, ev := range step.Events {
//			if roll, ok := ev.(vision.RollEvent); ok {
//				fmt.Println(roll.Roll, roll.Dice)
//			}
//		}
//		return nil
//	})
//
// (content is the game's [tablecam/models.Content]; profiles are the face
// sets' [DiceProfile] values, e.g. from [tablecam/vision/defaults.Load].)
//
// Detectors and readers are not safe for concurrent use.
package vision

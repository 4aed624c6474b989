// Package rolls turns the dice read frame by frame into roll events: a
// [Tracker] votes over the still frames after the dice stop and says when
// a roll settles ([Roll]), when a die is rerolled (a Roll with Reroll set)
// and when the dice have left the table ([Ended]). It is pure logic over
// readings, so its rules are tested without pictures. A [Pipeline] joins a
// frame source, a motion detector, a dice reader and a Tracker.
//
// The dice of a video, roll by roll:
//
//	src, err := frame.OpenVideoFile("game.mp4")
//	if err != nil {
//		return err
//	}
//	defer src.Close()
//	md := motion.New(motion.Config{})
//	defer md.Close()
//	pipe := rolls.NewPipeline(src, md, det.Reader(), rolls.NewTracker(rolls.Config{}))
//	return pipe.Run(ctx, func(step *rolls.Step) error {
//		for _, ev := range step.Events {
//			if roll, ok := ev.(rolls.Roll); ok {
//				fmt.Println(roll.Roll, roll.Dice)
//			}
//		}
//		return nil
//	})
//
// (det is a [tablecam/vision.DiceDetector]; for live play wrap it in a
// [tablecam/vision/background.Reader] and pass its Read.) Trackers and
// pipelines are not safe for concurrent use.
package rolls

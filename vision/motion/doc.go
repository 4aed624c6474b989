// Package motion tells when the table is still: a [Detector] compares each
// frame with the one before (shrunk, grey, blurred, so that sensor noise
// does not count) and says whether it is quiet, how many quiet frames came
// in a row and where the picture changed ([Mask]). Dice have stopped
// rolling once a few frames in a row are quiet; [Settled] is the stage
// that passes on only such frames.
//
// Waiting for the dice to stop:
//
//	m := motion.New(motion.Config{})
//	defer m.Close()
//	for {
//		f, err := src.Read(ctx)
//		if err != nil {
//			return err
//		}
//		s, err := m.Observe(f.Mat)
//		if err == nil && s.Still {
//			err = read(f.Mat) // the dice are at rest
//		}
//		f.Close()
//		if err != nil {
//			return err
//		}
//	}
//
// A Detector is not safe for concurrent use; it keeps its Mats across
// frames, and Close releases them.
package motion

// Package frame delivers the pictures of the table: a [Source] yields
// [Frame]s one at a time, from the camera ([OpenCamera]), a video file
// ([OpenVideoFile]) or a folder of pictures ([OpenImageDir]). Stages take a
// Source and return one — [Crop] cuts the table area, [Downscale] shrinks,
// [Paced] delivers a recording in real time — so they compose, and each
// can be tested with a fake source. [ReadImage] reads one picture file,
// checking the size its header declares before decoding it, so that a
// hostile or broken file costs an error, never the process.
//
// A recorded game, cut to the table and shrunk to 1280 pixels wide:
//
//	video, err := frame.OpenVideoFile("game.mp4")
//	if err != nil {
//		return err
//	}
//	src := frame.Downscale(frame.Crop(video, table), 1280)
//	defer src.Close() // closes video too
//	for {
//		f, err := src.Read(ctx)
//		if errors.Is(err, io.EOF) {
//			return nil
//		}
//		if err != nil {
//			return err
//		}
//		use(f.Mat)
//		f.Close()
//	}
//
// Every frame owns its gocv.Mat: whoever receives a frame from Read must
// Close it. Sources and stages are not safe for concurrent use. Errors keep
// the "vision:" prefix the command's translations know.
package frame

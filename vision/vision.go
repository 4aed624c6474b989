// Package vision reads a board-game table through a camera: the dice
// rolled on it and the cards shown to it.
//
// Frames come from a [Source]: the camera ([OpenCamera]), a video file
// ([OpenVideoFile]) or a folder of pictures ([OpenImageDir]). Stages such as
// [Downscale] take a Source and return one, so they compose and each can be
// tested with a fake source. A [DiceDetector] reads the dice of one frame,
// a [tablecam/vision/card.Reader] its cards (by their ID stickers, or against the cards
// taught into a [tablecam/vision/card/index.Index]). A [Pipeline] joins a Source, [Motion] and a
// [RollTracker] into roll events: it reads the dice once they stop and says
// when a roll settles or a die is rerolled.
//
// The dice of a video, roll by roll:
//
//	src, err := vision.OpenVideoFile("game.mp4")
//	if err != nil {
//		return err
//	}
//	defer src.Close()
//	det, err := vision.NewDiceDetector(content, profiles, vision.DiceConfig{Sets: []string{"vats"}})
//	if err != nil {
//		return err
//	}
//	defer det.Close()
//	motion := vision.NewMotion(vision.MotionConfig{})
//	defer motion.Close()
//	pipe := vision.NewPipeline(src, motion, det.Reader(), vision.NewRollTracker(vision.RollConfig{}))
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
// Every frame owns its gocv.Mat: whoever receives a frame from Read must Close
// it. Sources, stages, detectors and readers are not safe for concurrent
// use.
package vision

import (
	"context"
	"errors"
	"image"
	"time"

	"gocv.io/x/gocv"
)

// Frame is one picture from a Source.
type Frame struct {
	// Mat is the picture, 8-bit BGR. The frame owns it: Close releases it.
	Mat gocv.Mat
	// Index counts the frames a source delivered, from 0.
	Index int
	// Time is the frame's time since the start of the stream.
	Time time.Duration
	// Name says where the frame came from when it has a name of its own
	// (ImageDir: the file's path); "" otherwise.
	Name string
}

// Close releases the frame's Mat. Closing a frame twice is harmless.
func (f *Frame) Close() error {
	return f.Mat.Close()
}

// Source yields frames.
type Source interface {
	// Read returns the next frame, which the caller must Close; io.EOF at
	// the end of the stream; ctx.Err() when ctx is done.
	Read(ctx context.Context) (Frame, error)
	// Close releases the source; Read returns ErrClosed after it.
	Close() error
}

// ErrClosed is returned by Read after Close.
var ErrClosed = errors.New("vision: source is closed")

// Downscale returns a stage that shrinks every frame of src wider than
// maxWidth to maxWidth pixels, keeping the aspect ratio (area interpolation).
// Narrower frames pass through untouched; maxWidth <= 0 passes everything
// through. Closing the stage closes src.
func Downscale(src Source, maxWidth int) Source {
	return &downscale{src: src, maxWidth: maxWidth}
}

type downscale struct {
	src      Source
	maxWidth int
}

func (d *downscale) Read(ctx context.Context) (Frame, error) {
	f, err := d.src.Read(ctx)
	if err != nil {
		return f, err
	}
	w, h := f.Mat.Cols(), f.Mat.Rows()
	if d.maxWidth <= 0 || w <= d.maxWidth || h <= 0 {
		return f, nil
	}
	newH := max(1, int(float64(h)*float64(d.maxWidth)/float64(w)+0.5))
	small := gocv.NewMat()
	gocv.Resize(f.Mat, &small, image.Pt(d.maxWidth, newH), 0, 0, gocv.InterpolationArea)
	f.Mat.Close()
	f.Mat = small
	return f, nil
}

func (d *downscale) Close() error { return d.src.Close() }

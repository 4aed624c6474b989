package rolls

import (
	"context"
	"errors"
	"fmt"
	"io"

	"tablecam/frame"
	"tablecam/vision"
	"tablecam/vision/motion"
)

// Step is what a [Pipeline] did with one frame.
type Step struct {
	// Frame is the frame. From [Pipeline.Next] the caller owns it and must
	// Close it; in [Pipeline.Run] it is closed after the callback returns
	// (Clone the Mat to keep the image, e.g. for the roll-proof trail).
	Frame frame.Frame
	// Motion is the motion measured on the frame.
	Motion motion.Sample
	// Read is set when the dice reader ran on the frame; Reading is its
	// result. ReadErr is the reader's error, if any: such a frame is passed
	// to the tracker as moving, so it can never contribute to a roll.
	Read    bool
	Reading vision.Reading
	ReadErr error
	// Events are the tracker's events for this frame.
	Events []Event
}

// Pipeline connects a [frame.Source], a [motion.Detector], a [vision.DiceReader] and a
// [Tracker]: for each frame it measures motion, reads the dice when the
// frame is quiet (or always, with ReadMoving), and feeds the tracker,
// telling it where the scene at rest changed ([motion.Detector.NetChanges] as
// [Observation].Moved). It
// starts no goroutines; it owns none of its parts (close them yourself).
type Pipeline struct {
	src     frame.Source
	motion  *motion.Detector
	read    vision.DiceReader
	tracker *Tracker
	moved   motion.Mask // where the scene at rest changed, for the tracker
	passed  motion.Mask // where the last frame changed, gross
	// ReadMoving makes the pipeline read the dice on moving frames too,
	// e.g. to draw them on a live view; the tracker ignores those readings,
	// so by default they are skipped to save the reader's time.
	ReadMoving bool
}

// NewPipeline returns a pipeline over the given parts. The Motion's
// SettleFrames does not matter here: the tracker counts quiet frames.
func NewPipeline(src frame.Source, m *motion.Detector, read vision.DiceReader, t *Tracker) *Pipeline {
	return &Pipeline{src: src, motion: m, read: read, tracker: t}
}

// Next processes the next frame. Errors are the source's (io.EOF at the
// end, ctx.Err() when ctx is done, ErrCameraLost, ...), returned unwrapped
// so errors.Is works as with the source, or a Motion error naming the frame.
func (p *Pipeline) Next(ctx context.Context) (Step, error) {
	f, err := p.src.Read(ctx)
	if err != nil {
		return Step{}, err
	}
	s := Step{Frame: f}
	if s.Motion, err = p.motion.Observe(f.Mat); err != nil {
		f.Close()
		return Step{}, fmt.Errorf("rolls: pipeline: frame %d: %w", f.Index, err)
	}
	quiet := s.Motion.Quiet
	if quiet || p.ReadMoving {
		s.Read = true
		s.Reading, s.ReadErr = p.read(f.Mat)
		if s.ReadErr != nil {
			s.ReadErr = fmt.Errorf("rolls: pipeline: read dice in frame %d: %w", f.Index, s.ReadErr)
			quiet = false
		}
	}
	p.motion.NetChanges(&p.moved)
	p.motion.Changes(&p.passed)
	s.Events = p.tracker.Observe(Observation{Frame: f.Index, Quiet: quiet, Reading: s.Reading, Moved: &p.moved, Passed: &p.passed})
	return s, nil
}

// Run processes frames until the source ends (Run then returns nil), ctx is
// done, an error occurs, or fn returns an error. fn may be nil; it must not
// keep step.Frame, which Run closes after fn returns.
func (p *Pipeline) Run(ctx context.Context, fn func(step *Step) error) error {
	for {
		s, err := p.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if fn != nil {
			err = fn(&s)
		}
		s.Frame.Close()
		if err != nil {
			return err
		}
	}
}

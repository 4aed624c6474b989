package motion

import (
	"context"
	"fmt"

	"tablecam/frame"
)

// Settled returns a stage that passes on only the frames of src at which
// the scene has been still for n frames (n <= 0: the Detector's SettleFrames),
// as measured by m; the other frames are closed. Use it for steps that need
// a settled table, such as reading a card. Closing the stage closes src but
// not m.
func Settled(src frame.Source, m *Detector, n int) frame.Source {
	if n <= 0 {
		n = m.Config().SettleFrames
	}
	return &settled{src: src, m: m, n: n}
}

type settled struct {
	src frame.Source
	m   *Detector
	n   int
}

func (s *settled) Read(ctx context.Context) (frame.Frame, error) {
	for {
		f, err := s.src.Read(ctx)
		if err != nil {
			return f, err
		}
		if _, err := s.m.Observe(f.Mat); err != nil {
			f.Close()
			return frame.Frame{}, fmt.Errorf("motion: settled: frame %d: %w", f.Index, err)
		}
		if s.m.Still(s.n) {
			return f, nil
		}
		f.Close()
	}
}

func (s *settled) Close() error { return s.src.Close() }

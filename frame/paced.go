package frame

import (
	"context"
	"time"
)

// Paced returns a stage that delivers the frames of src in real time: each
// frame is released when its Time has elapsed since the first frame, as a
// camera would deliver a recorded video. Delivered reports, per frame index,
// the wall-clock time the frame was released (for latency measurements).
// Closing the stage closes src.
func Paced(src Source, now func() time.Time) *PacedSource {
	if now == nil {
		now = time.Now
	}
	return &PacedSource{src: src, now: now, delivered: map[int]time.Time{}}
}

// PacedSource is the stage returned by [Paced].
type PacedSource struct {
	src       Source
	now       func() time.Time
	start     time.Time
	first     time.Duration
	started   bool
	delivered map[int]time.Time
}

// Read waits until the next frame is due, then returns it.
func (p *PacedSource) Read(ctx context.Context) (Frame, error) {
	f, err := p.src.Read(ctx)
	if err != nil {
		return f, err
	}
	if !p.started {
		p.start, p.first, p.started = p.now(), f.Time, true
	}
	due := p.start.Add(f.Time - p.first)
	if wait := due.Sub(p.now()); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return Frame{}, ctx.Err()
		}
	}
	p.delivered[f.Index] = p.now()
	return f, nil
}

// Delivered returns when frame i was released, if it was.
func (p *PacedSource) Delivered(i int) (time.Time, bool) {
	t, ok := p.delivered[i]
	return t, ok
}

// Close closes the underlying source.
func (p *PacedSource) Close() error { return p.src.Close() }

package live

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"tablecam/frame"
)

// Reconnect is a source stage for a camera that may be unplugged: when the
// source reports frame.ErrCameraLost it is closed and opened again with
// backoff (100 ms doubling up to MaxBackoff, 1 s by default, so reading
// resumes within about a second of the camera coming back). Status is told
// "camera lost, retrying" and then "" when frames flow again. Frame indices
// keep counting across reconnects, so the roll tracker never sees a jump
// back. The session state is untouched: events live in the tracker.
type Reconnect struct {
	Open       func() (frame.Source, error)
	Status     func(string)
	MaxBackoff time.Duration
	Logger     *slog.Logger
	// Sleep waits (tests replace it); default waits on a timer or ctx.
	Sleep func(ctx context.Context, d time.Duration) error

	src      frame.Source
	next     int
	lost     bool
	Retries  int
	Restored int
}

// Read returns the next frame, reconnecting as needed.
func (r *Reconnect) Read(ctx context.Context) (frame.Frame, error) {
	if r.Sleep == nil {
		r.Sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	if r.MaxBackoff <= 0 {
		r.MaxBackoff = time.Second
	}
	if r.Logger == nil {
		r.Logger = slog.Default()
	}
	backoff := 100 * time.Millisecond
	for {
		if r.src == nil {
			src, err := r.Open()
			if err != nil {
				if !r.lost {
					return frame.Frame{}, err // the first open: the caller reports it
				}
				r.Retries++
				r.Logger.Debug("camera still missing", "err", err)
				if err := r.Sleep(ctx, backoff); err != nil {
					return frame.Frame{}, err
				}
				backoff = min(2*backoff, r.MaxBackoff)
				continue
			}
			r.src = src
		}
		f, err := r.src.Read(ctx)
		if err == nil {
			if r.lost {
				r.lost = false
				r.Restored++
				r.Logger.Info("camera back")
				if r.Status != nil {
					r.Status("")
				}
			}
			f.Index = r.next
			r.next++
			return f, nil
		}
		if !errors.Is(err, frame.ErrCameraLost) {
			return f, err
		}
		r.Logger.Warn("camera lost, retrying", "err", err)
		if r.Status != nil {
			r.Status("camera lost, retrying")
		}
		r.lost = true
		r.src.Close()
		r.src = nil
		if err := r.Sleep(ctx, backoff); err != nil {
			return frame.Frame{}, err
		}
		backoff = min(2*backoff, r.MaxBackoff)
	}
}

// Close closes the current source.
func (r *Reconnect) Close() error {
	if r.src == nil {
		return nil
	}
	err := r.src.Close()
	r.src = nil
	return err
}

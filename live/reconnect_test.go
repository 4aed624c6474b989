package live_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/live"
)

// flaky delivers n frames, then reports the camera lost.
type flaky struct{ n, i int }

func (f *flaky) Read(context.Context) (frame.Frame, error) {
	if f.i >= f.n {
		return frame.Frame{}, &frame.CameraLostError{}
	}
	f.i++
	return frame.Frame{Mat: gocv.NewMatWithSize(4, 4, gocv.MatTypeCV8UC3), Index: f.i - 1}, nil
}
func (f *flaky) Close() error { return nil }

// An unplugged camera is retried with backoff until it comes back; frames
// then continue with increasing indices and the status is cleared.
func TestReconnectRetriesUntilCameraReturns(t *testing.T) {
	opens, slept := 0, time.Duration(0)
	var statuses []string
	r := &live.Reconnect{
		Open: func() (frame.Source, error) {
			opens++
			if opens >= 2 && opens < 5 { // unplugged for three attempts
				return nil, errors.New("no such device")
			}
			return &flaky{n: 3}, nil
		},
		Status: func(s string) { statuses = append(statuses, s) },
		Sleep:  func(_ context.Context, d time.Duration) error { slept += d; return nil },
	}
	var idx []int
	for len(idx) < 6 {
		f, err := r.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		idx = append(idx, f.Index)
		f.Close()
	}
	for i, x := range idx {
		if x != i {
			t.Fatalf("indices %v, want 0..5", idx)
		}
	}
	if opens != 5 || r.Restored != 1 || len(statuses) != 2 || statuses[0] == "" || statuses[1] != "" {
		t.Errorf("opens %d restored %d statuses %q", opens, r.Restored, statuses)
	}
	// Backoff 100+200+400+800 ms: under the 2 s the issue allows.
	if slept > 2*time.Second {
		t.Errorf("waited %v in total", slept)
	}
}

func TestReconnectFirstOpenErrorIsReturned(t *testing.T) {
	r := &live.Reconnect{Open: func() (frame.Source, error) { return nil, io.ErrUnexpectedEOF }}
	if _, err := r.Read(context.Background()); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err %v", err)
	}
}

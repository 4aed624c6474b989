package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tablecam/dashboard"
)

// syncBuffer is a bytes.Buffer that a running command writes to while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// `play --demo --serve` hands the dashboard the plain camera frames with
// the labels of the dice read in them: after the demo's last roll (legs, 2h,
// head) GET /api/labels lists those three dice, boxed inside the frame
// that GET /api/frame.jpg serves, for the page to draw in its own type.
func TestDemoServeLabelsTheDiceRead(t *testing.T) {
	t.Setenv("TABLECAM_DATA_DIR", dataDir(t))
	t.Setenv("TABLECAM_VOICE_ENABLED", "false")
	t.Setenv("TABLECAM_DASHBOARD_ADDR", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRoot()
	var errb syncBuffer
	root.SetOut(io.Discard)
	root.SetErr(&errb)
	root.SetIn(strings.NewReader(""))
	root.SetArgs([]string{"play", "--demo", "--serve", "--voice", "off"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	finished := func() bool { return strings.Contains(errb.String(), "demo finished") }
	deadline := time.After(5 * time.Minute)
	for !finished() {
		select {
		case err := <-done:
			t.Fatalf("play --demo --serve ended before the demo finished: %v\n%s", err, errb.String())
		case <-deadline:
			t.Fatalf("the demo did not finish:\n%s", errb.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	m := regexp.MustCompile(`dashboard: (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(errb.String())
	if m == nil {
		t.Fatalf("no dashboard address printed:\n%s", errb.String())
	}
	get := func(path string) []byte {
		t.Helper()
		res, err := http.Get(m[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v %s", path, res.StatusCode, err, b)
		}
		return b
	}
	var l dashboard.FrameLabels
	if err := json.Unmarshal(get("api/labels"), &l); err != nil {
		t.Fatal(err)
	}
	frame, err := jpeg.DecodeConfig(bytes.NewReader(get("api/frame.jpg")))
	if err != nil {
		t.Fatalf("camera frame: %v", err)
	}
	if l.Seq == 0 || l.Width != frame.Width || l.Height != frame.Height {
		t.Errorf("labels of frame %d sized %dx%d, the frame served is %dx%d", l.Seq, l.Width, l.Height, frame.Width, frame.Height)
	}
	var faces []string
	for _, x := range l.Labels {
		if x.Kind != "die" && x.Kind != "uncertain" {
			t.Errorf("label %+v after the last roll: want only dice", x)
			continue
		}
		if x.W <= 0 || x.H <= 0 || x.X < 0 || x.Y < 0 || x.X+x.W > l.Width || x.Y+x.H > l.Height {
			t.Errorf("die label %+v: box not inside the %dx%d frame", x, l.Width, l.Height)
		}
		faces = append(faces, x.Text)
	}
	slices.Sort(faces)
	if want := []string{"2h", "head", "legs"}; !slices.Equal(faces, want) {
		t.Errorf("dice labelled after the last roll: %q, want %q", faces, want)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("play --demo --serve: %v", err)
	}
}

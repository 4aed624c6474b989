package rolls

import (
	"context"
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"tablecam/frame"
	"tablecam/vision"
	"tablecam/vision/motion"

	"gocv.io/x/gocv"
)

var (
	tableBGR  = gocv.NewScalar(40, 70, 110, 0) // brown table
	dieYellow = color.RGBA{230, 200, 30, 0}
)

// tableFrame draws a w×h table with 40-pixel (at 720p) yellow dice at the
// given centres, plus Gaussian sensor noise of sigma grey levels drawn
// from rng (sigma 0: none, rng may be nil). The noise is the caller's
// generator's, not OpenCV's RandN, which draws from a generator per
// thread: a test's frames are the same in every run. The caller closes
// the frame.
func tableFrame(w, h int, sigma float64, rng *rand.Rand, dice ...image.Point) gocv.Mat {
	m := gocv.NewMatWithSizeFromScalar(tableBGR, h, w, gocv.MatTypeCV8UC3)
	half := max(2, 20*w/1280)
	for _, c := range dice {
		gocv.Rectangle(&m, image.Rect(c.X-half, c.Y-half, c.X+half, c.Y+half), dieYellow, -1)
	}
	if sigma > 0 {
		px, err := m.DataPtrUint8()
		if err != nil {
			panic(err)
		}
		for i, v := range px {
			px[i] = uint8(min(255, max(0, math.Round(float64(v)+rng.NormFloat64()*sigma)))) // saturating
		}
	}
	return m
}

// tableNoise is a generator of tableFrame's noise for a test.
func tableNoise(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7461626c65)) }

// throwPositions returns per-frame die centres: moving frames of three dice
// tumbling towards their rest positions, then still frames.
func throwPositions(moving, still int, scale float64) [][]image.Point {
	rest := []image.Point{{500, 300}, {640, 380}, {760, 260}}
	var out [][]image.Point
	for i := range moving + still {
		k := min(i, moving)
		var ps []image.Point
		for j, r := range rest {
			dx := (moving - k) * (14 + 3*j)
			dy := (moving - k) * (5 - 4*j)
			ps = append(ps, image.Pt(int(float64(r.X-dx)*scale), int(float64(r.Y+dy)*scale)))
		}
		out = append(out, ps)
	}
	return out
}

// sceneSource plays die positions as 1280×720 frames with sensor noise; cur
// is the index of the frame last read, for fake readers.
type sceneSource struct {
	pos    [][]image.Point
	cur    int
	closed bool
}

func (s *sceneSource) Read(ctx context.Context) (frame.Frame, error) {
	if err := ctx.Err(); err != nil {
		return frame.Frame{}, err
	}
	if s.cur+1 >= len(s.pos) {
		return frame.Frame{}, io.EOF
	}
	s.cur++
	return frame.Frame{Mat: tableFrame(1280, 720, 4, tableNoise(uint64(s.cur)), s.pos[s.cur]...), Index: s.cur, Time: time.Duration(s.cur) * time.Second / 30}, nil
}

func (s *sceneSource) Close() error { s.closed = true; return nil }

func TestPipelineEmitsRollAtSettleLatency(t *testing.T) {
	const moving = 10
	pos := throwPositions(moving, 20, 1)
	// A hand over the table for the first frames of the stillness: the dice
	// are at rest from frame `moving`, the hand leaves at frame moving+5
	// (which moves), so the roll comes at moving+5+3.
	for i := moving; i <= moving+5; i++ {
		pos[i] = append(pos[i], image.Pt(300+i, 600)) // the "hand"
	}
	src := &sceneSource{pos: pos, cur: -1}
	m := motion.New(motion.Config{})
	defer m.Close()
	var readFrames []int
	read := func(img gocv.Mat) (vision.Reading, error) {
		readFrames = append(readFrames, src.cur)
		if img.Cols() != 1280 {
			t.Errorf("reader got a %dx%d frame", img.Cols(), img.Rows())
		}
		var r vision.Reading
		for j, c := range src.pos[src.cur] {
			if j == 3 {
				r.Occluded = true
				continue
			}
			d := rd([]string{"2", "5", "3"}[j], c.X, c.Y)
			r.Dice = append(r.Dice, d)
		}
		return r, nil
	}
	p := NewPipeline(src, m, read, NewTracker(Config{}))
	var events []Event
	frames := 0
	err := p.Run(context.Background(), func(s *Step) error {
		if s.Frame.Index != frames {
			t.Errorf("step %d has frame %d", frames, s.Frame.Index)
		}
		frames++
		events = append(events, s.Events...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if frames != len(pos) {
		t.Errorf("%d frames, want %d", frames, len(pos))
	}
	if len(events) != 1 {
		t.Fatalf("events %+v, want one roll", events)
	}
	e := events[0].(Roll)
	if e.Frame != moving+5+1+3 || faces(e.Dice) != "[2 5 3]" {
		t.Errorf("roll %+v, want [2 5 3] at frame %d", e, moving+5+1+3)
	}
	for _, f := range readFrames {
		if f <= moving || f == moving+6 {
			t.Errorf("the reader ran on moving frame %d", f)
		}
	}
}

func TestPipelineReaderErrorsNeverMakeARoll(t *testing.T) {
	src := &sceneSource{pos: throwPositions(5, 20, 1), cur: -1}
	m := motion.New(motion.Config{})
	defer m.Close()
	calls := 0
	read := func(gocv.Mat) (vision.Reading, error) {
		calls++
		if calls%2 == 0 {
			return vision.Reading{}, errors.New("glare")
		}
		return vision.Reading{Dice: []vision.Die{rd("2", 500, 300)}}, nil
	}
	p := NewPipeline(src, m, read, NewTracker(Config{}))
	p.ReadMoving = true
	var errs int
	err := p.Run(context.Background(), func(s *Step) error {
		if !s.Read {
			t.Errorf("frame %d not read with ReadMoving", s.Frame.Index)
		}
		if s.ReadErr != nil {
			errs++
		}
		if len(s.Events) > 0 {
			t.Errorf("frame %d: events %+v from a reader failing every other frame", s.Frame.Index, s.Events)
		}
		return nil
	})
	if err != nil || errs == 0 {
		t.Errorf("run: %v, %d reader errors", err, errs)
	}

	// Callback errors and a cancelled context stop the run.
	src = &sceneSource{pos: throwPositions(5, 5, 1), cur: -1}
	p = NewPipeline(src, m, read, NewTracker(Config{}))
	stop := errors.New("stop")
	if err := p.Run(context.Background(), func(*Step) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("callback error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Run(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

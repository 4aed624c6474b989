package motion

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

func TestMotionStillAfterNQuietFrames(t *testing.T) {
	const moving, still = 8, 10
	for _, c := range []struct {
		w, h  int
		sigma float64
	}{{1280, 720, 0}, {1280, 720, 6}, {640, 360, 4}, {1920, 1080, 8}} {
		m := New(Config{})
		pos := throwPositions(moving, still, float64(c.w)/1280)
		for i, ps := range pos {
			f := tableFrame(c.w, c.h, c.sigma, tableNoise(uint64(1000*c.w+i)), ps...)
			s, err := m.Observe(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			// Frame `moving` is the first with the dice at rest: it differs
			// from the one before; the frames after it are quiet.
			wantQuiet := i > moving
			wantRun := max(0, i-moving)
			if s.First != (i == 0) || s.Quiet != wantQuiet || s.QuietRun != wantRun || s.Still != (wantRun >= 3) || m.Still(3) != s.Still {
				t.Errorf("%dx%d σ%v frame %d: %+v, want quiet %v run %d", c.w, c.h, c.sigma, i, s, wantQuiet, wantRun)
			}
			if i > 0 && i < moving && s.Changed < 50 {
				t.Errorf("%dx%d frame %d: only %d pixels changed while dice move", c.w, c.h, i, s.Changed)
			}
		}
		m.Close()
	}
}

func TestMotionNoiseOnlyIsQuiet(t *testing.T) {
	dice := []image.Point{{500, 300}, {640, 380}}
	for _, sigma := range []float64{3, 8, 15} {
		m := New(Config{})
		for i := range 20 {
			f := tableFrame(1280, 720, sigma, tableNoise(uint64(1000*sigma)+uint64(i)), dice...)
			s, err := m.Observe(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 && (!s.Quiet || s.QuietRun != i) {
				t.Errorf("σ %v frame %d: %+v, want quiet", sigma, i, s)
			}
		}
		m.Close()
	}
}

func TestMotionSlowCreepIsNotQuiet(t *testing.T) {
	// A die sliding 2 px per frame at 720p (60 px/s) still moves.
	m := New(Config{})
	defer m.Close()
	for i := range 10 {
		f := tableFrame(1280, 720, 6, tableNoise(uint64(i)), image.Pt(400+2*i, 300+i))
		s, err := m.Observe(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && s.Quiet {
			t.Errorf("frame %d: %+v, want motion", i, s)
		}
	}
}

func TestMotionROI(t *testing.T) {
	roi := image.Rect(200, 100, 900, 600)
	m := New(Config{ROI: roi})
	defer m.Close()
	for i := range 8 {
		// A hand-sized block moves outside the rolling area: quiet.
		f := tableFrame(1280, 720, 4, tableNoise(uint64(i)), image.Pt(1000+20*i, 650), image.Pt(500, 300))
		gocv.Rectangle(&f, image.Rect(950+15*i, 0, 1100+15*i, 200), color.RGBA{180, 140, 120, 0}, -1)
		s, err := m.Observe(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !s.Quiet {
			t.Errorf("frame %d: motion outside the ROI counted: %+v", i, s)
		}
		if want := 160 * 114; s.Pixels != want {
			t.Errorf("compared %d pixels, want %d (700×500 ROI shrunk to 160 wide)", s.Pixels, want)
		}
	}
	// Inside the area it counts.
	f := tableFrame(1280, 720, 4, tableNoise(99), image.Pt(540, 300))
	s, _ := m.Observe(f)
	f.Close()
	if s.Quiet {
		t.Errorf("motion inside the ROI missed: %+v", s)
	}
	// An ROI reaching past the frame is clipped; SetROI forgets the previous frame.
	m.SetROI(image.Rect(1000, 500, 5000, 5000))
	f = tableFrame(1280, 720, 0, nil)
	s, err := m.Observe(f)
	f.Close()
	if err != nil || !s.First || s.Pixels != 160*126 {
		t.Errorf("clipped ROI: %+v, %v", s, err)
	}
}

func TestMotionInputs(t *testing.T) {
	m := New(Config{ROI: image.Rect(0, 0, 50, 50)})
	empty := gocv.NewMat()
	if _, err := m.Observe(empty); err == nil {
		t.Error("empty frame: no error")
	}
	empty.Close()
	float := gocv.NewMatWithSize(20, 20, gocv.MatTypeCV32FC1)
	if _, err := m.Observe(float); err == nil {
		t.Error("float frame: no error")
	}
	float.Close()
	m.SetROI(image.Rect(100, 100, 200, 200))
	small := tableFrame(64, 48, 0, nil)
	if _, err := m.Observe(small); err == nil {
		t.Error("ROI outside the frame: no error")
	}
	m.SetROI(image.Rectangle{})

	// Tiny, grey and BGRA frames work; a size change restarts the comparison.
	for i, sz := range []image.Point{{1, 1}, {1, 1}, {3, 2}, {64, 48}, {64, 48}} {
		f := tableFrame(sz.X, sz.Y, 0, nil)
		s, err := m.Observe(f)
		f.Close()
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		if want := i == 0 || i == 2 || i == 3; s.First != want {
			t.Errorf("frame %d (%v): First %v, want %v", i, sz, s.First, want)
		}
	}
	grey, bgra := gocv.NewMat(), gocv.NewMat()
	gocv.CvtColor(small, &grey, gocv.ColorBGRToGray)
	gocv.CvtColor(small, &bgra, gocv.ColorBGRToBGRA)
	for _, f := range []gocv.Mat{grey, bgra} {
		if s, err := m.Observe(f); err != nil || !s.Quiet {
			t.Errorf("type %v: %+v, %v", f.Type(), s, err)
		}
	}
	grey.Close()
	bgra.Close()
	m.Reset()
	if s, _ := m.Observe(small); !s.First {
		t.Errorf("after Reset: %+v, want First", s)
	}

	m.Close()
	m.Close()
	if _, err := m.Observe(small); err == nil {
		t.Error("Observe after Close: no error")
	}
	small.Close()
}

func TestMotionConfigDefaults(t *testing.T) {
	m := New(Config{Blur: 4})
	defer m.Close()
	want := Config{Width: 160, Blur: 5, Threshold: 8, MaxChanged: 0.0005, SettleFrames: 3}
	if got := m.Config(); got != want {
		t.Errorf("config %+v, want %+v", got, want)
	}
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

func TestSettledStage(t *testing.T) {
	src := &sceneSource{pos: throwPositions(6, 6, 1), cur: -1}
	m := New(Config{})
	defer m.Close()
	st := Settled(src, m, 0)
	var got []int
	for {
		f, err := st.Read(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.Index)
		f.Close()
	}
	// At rest from frame 6; quiet from 7; still (3 quiet) from 9.
	if len(got) != 3 || got[0] != 9 || got[2] != 11 {
		t.Errorf("settled frames %v, want [9 10 11]", got)
	}
	st.Close()
	if !src.closed {
		t.Error("closing the stage did not close the source")
	}
}

// BenchmarkMotion720p measures Motion.Observe on 1280×720 frames of dice
// moving over a noisy table.
func BenchmarkMotion720p(b *testing.B) { benchMotion(b, 1280, 720) }

// BenchmarkMotion1080p is the same at 1920×1080.
func BenchmarkMotion1080p(b *testing.B) { benchMotion(b, 1920, 1080) }

func benchMotion(b *testing.B, w, h int) {
	pos := throwPositions(4, 4, float64(w)/1280)
	frames := make([]gocv.Mat, len(pos))
	for i, ps := range pos {
		frames[i] = tableFrame(w, h, 6, tableNoise(uint64(i)), ps...)
	}
	defer func() {
		for _, f := range frames {
			f.Close()
		}
	}()
	m := New(Config{})
	defer m.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := m.Observe(frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
	}
}

// A die creeping by 1 px per frame at 1280 px (1/8 of a compared pixel)
// changes too few pixels from one frame to the next, but the comparison
// with the start of the quiet run catches it: the scene is never still
// while it creeps, and still 3 frames after it stops.
func TestMotionSlowCreepIsCaughtByDrift(t *testing.T) {
	m := New(Config{})
	defer m.Close()
	const creep = 24
	slowQuiet := 0
	for i := range creep + 6 {
		x := 400 + min(i, creep)
		img := tableFrame(1280, 720, 0, nil, image.Pt(x, 300))
		s, err := m.Observe(img)
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && i < creep {
			if float64(s.Changed) <= m.Config().MaxChanged*float64(s.Pixels) {
				slowQuiet++
			}
			if s.Still {
				t.Errorf("frame %d: still while the die creeps (changed %d, drift %d)", i, s.Changed, s.Drift)
			}
		}
		if i == creep+3 && !s.Still {
			t.Errorf("frame %d: not still 3 frames after the die stopped (%+v)", i, s)
		}
	}
	if slowQuiet < creep/2 {
		t.Errorf("only %d of %d creeping frames pass the frame-to-frame test: the test does not test the drift", slowQuiet, creep-1)
	}
}

func TestMotionChangesMarkWhereItMoved(t *testing.T) {
	m := New(Config{})
	defer m.Close()
	var mask Mask
	for i, x := range []int{300, 300, 700} {
		img := tableFrame(1280, 720, 2, tableNoise(uint64(i)), image.Pt(x, 400))
		_, err := m.Observe(img)
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		m.Changes(&mask)
		if mask.W != 160 || mask.H != 90 || mask.ROI != image.Rect(0, 0, 1280, 720) {
			t.Fatalf("mask %dx%d over %v", mask.W, mask.H, mask.ROI)
		}
		if i < 2 && mask.Any(mask.ROI) {
			t.Errorf("frame %d: changes in a still (or first) frame", i)
		}
	}
	for _, c := range []image.Point{{300, 400}, {700, 400}} {
		if !mask.Any(image.Rect(c.X-25, c.Y-25, c.X+25, c.Y+25)) {
			t.Errorf("no change marked at %v", c)
		}
	}
	if mask.Any(image.Rect(900, 0, 1280, 300)) || mask.Any(image.Rect(400, 380, 600, 420)) {
		t.Error("changes marked where nothing moved")
	}
	var nilMask *Mask
	if nilMask.Any(image.Rect(0, 0, 10, 10)) {
		t.Error("a nil mask has changes")
	}
}

// NetChanges marks where the scene at rest changed across a disturbance:
// nothing where a hand passed over resting dice and left, the old and new
// places of a die that was moved, and — with no quiet frame before the
// motion (the stream started mid-throw) — everything that changed on the
// way.
func TestMotionNetChangesIgnoreAHandThatLeft(t *testing.T) {
	m := New(Config{})
	defer m.Close()
	var mask Mask
	a, b, c := image.Pt(300, 400), image.Pt(700, 400), image.Pt(1000, 200)
	box := func(p image.Point) image.Rectangle { return image.Rect(p.X-25, p.Y-25, p.X+25, p.Y+25) }
	noise := tableNoise(5)
	observe := func(hand image.Rectangle, dice ...image.Point) Sample {
		t.Helper()
		img := tableFrame(1280, 720, 2, noise, dice...)
		if !hand.Empty() {
			gocv.Rectangle(&img, hand, color.RGBA{150, 110, 90, 0}, -1)
		}
		s, err := m.Observe(img)
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		m.NetChanges(&mask)
		return s
	}
	for range 4 {
		observe(image.Rectangle{}, a, b)
	}
	// A hand sweeps over both dice and leaves.
	for x := 160; x <= 1440; x += 160 {
		if s := observe(image.Rect(x-200, 300, x, 500), a, b); s.Quiet {
			t.Fatalf("hand at x=%d: quiet", x)
		}
		if mask.Any(mask.ROI) {
			t.Fatalf("hand at x=%d: net changes while moving", x)
		}
	}
	observe(image.Rectangle{}, a, b) // the hand leaves
	if s := observe(image.Rectangle{}, a, b); !s.Quiet {
		t.Fatal("not quiet after the hand left")
	}
	if mask.Any(box(a)) || mask.Any(box(b)) {
		t.Error("the hand that passed over resting dice left net changes at them")
	}
	// Die b is moved to c.
	observe(image.Rectangle{}, a, image.Pt(850, 300))
	observe(image.Rectangle{}, a, c)
	if s := observe(image.Rectangle{}, a, c); !s.Quiet {
		t.Fatal("not quiet after the die was moved")
	}
	if !mask.Any(box(b)) || !mask.Any(box(c)) {
		t.Error("the moved die's old or new place is not marked")
	}
	if mask.Any(box(a)) || mask.Any(box(image.Pt(850, 300))) {
		t.Error("marked where the scene at rest did not change (die a, the die's path)")
	}
	// Starting mid-throw: what changed on the way counts.
	m.Reset()
	observe(image.Rectangle{}, image.Pt(850, 300))
	observe(image.Rectangle{}, c)
	if s := observe(image.Rectangle{}, c); !s.Quiet {
		t.Fatal("not quiet after the cold-start throw")
	}
	if !mask.Any(box(c)) || !mask.Any(box(image.Pt(850, 300))) {
		t.Error("cold start: the throw's path is not marked")
	}
}

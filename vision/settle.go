package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"slices"

	"tablecam/frame"

	"gocv.io/x/gocv"
)

// Defaults of [MotionConfig].
const (
	// DefaultMotionWidth is the width in pixels frames are shrunk to before
	// they are compared.
	DefaultMotionWidth = 160
	// DefaultMotionBlur is the Gaussian kernel size applied to the shrunk
	// grey frame.
	DefaultMotionBlur = 3
	// DefaultMotionThreshold is the grey-level difference (0–255) at which a
	// pixel of the shrunk frame counts as changed.
	DefaultMotionThreshold = 8
	// DefaultMotionMaxChanged is the fraction of the compared pixels that may
	// change in a quiet frame.
	DefaultMotionMaxChanged = 0.0005
	// DefaultSettleFrames is the number of quiet frames in a row after which
	// the scene counts as still (config key vision.settle_frames).
	DefaultSettleFrames = 3
)

// MotionConfig configures a [Motion]. Zero fields take the defaults.
type MotionConfig struct {
	// Width is the width in pixels the frame (or ROI) is shrunk to before
	// comparing; narrower inputs are not enlarged. Default 160.
	Width int
	// Blur is the Gaussian kernel size (odd; even sizes are rounded up;
	// 1 or less than 0 turns blurring off). Default 3.
	Blur int
	// Threshold is the grey-level difference (1–255) at which a pixel
	// counts as changed. Default 8 (sensor noise up to σ ≈ 15 grey
	// levels stays below it after shrinking and blurring).
	Threshold int
	// MaxChanged is the fraction of the compared pixels that may change in a
	// frame that still counts as quiet. Default 0.0005 (7 of 160×90 pixels).
	MaxChanged float64
	// ROI restricts the comparison to this rectangle of the frame (the
	// rolling area), in frame pixels. It is clipped to the frame; the empty
	// rectangle means the whole frame.
	ROI image.Rectangle
	// SettleFrames is the number of quiet frames in a row after which
	// [MotionSample].Still is set. Default 3.
	SettleFrames int
}

func (c MotionConfig) withDefaults() MotionConfig {
	if c.Width <= 0 {
		c.Width = DefaultMotionWidth
	}
	switch {
	case c.Blur == 0:
		c.Blur = DefaultMotionBlur
	case c.Blur < 0:
		c.Blur = 1
	case c.Blur%2 == 0:
		c.Blur++
	}
	if c.Threshold <= 0 {
		c.Threshold = DefaultMotionThreshold
	}
	c.Threshold = min(c.Threshold, 255)
	if c.MaxChanged <= 0 {
		c.MaxChanged = DefaultMotionMaxChanged
	}
	if c.SettleFrames <= 0 {
		c.SettleFrames = DefaultSettleFrames
	}
	return c
}

// MotionSample is what [Motion] measured on one frame.
type MotionSample struct {
	// Changed is the number of compared pixels that changed since the
	// previous frame; Pixels is the number compared.
	Changed, Pixels int
	// First is set when there was no previous frame to compare with (the
	// first frame, or the first after a Reset or a change of frame size).
	// Such a frame is not quiet.
	First bool
	// Drift is the number of compared pixels that changed since the first
	// frame of the quiet run (the last frame that was not quiet); it is
	// measured on frames that are otherwise quiet.
	Drift int
	// Quiet is set when at most MaxChanged of the pixels changed since the
	// previous frame and since the first frame of the quiet run: a die
	// creeping by a fraction of a compared pixel per frame is caught by
	// the second test within a frame or two.
	Quiet bool
	// QuietRun is the number of quiet frames in a row, this one included.
	QuietRun int
	// Still is set when QuietRun has reached the configured SettleFrames.
	Still bool
}

// Motion measures how much each frame differs from the one before, to tell
// when the dice have stopped. Each frame (or its ROI) is shrunk to Width
// pixels (bilinear to twice that, then area averaging), turned grey,
// blurred, and compared with the
// previous frame; the pixels differing by at least Threshold are counted.
// A frame is quiet when at most MaxChanged of the pixels changed, both
// since the previous frame and since the frame the quiet run started from
// (so that a slow creep, under a pixel per frame, is not taken for rest),
// and the scene is still once n quiet frames in a row were seen
// ([Motion.Still]).
//
// Motion keeps its Mats across frames; Close releases them. It is not safe
// for concurrent use.
type Motion struct {
	cfg      MotionConfig
	mid      gocv.Mat // frame shrunk to twice the analysis width, input channels
	small    gocv.Mat // shrunk frame, input channels
	grey     gocv.Mat
	cur      gocv.Mat // blurred grey of this frame
	prev     gocv.Mat // blurred grey of the previous frame
	anchor   gocv.Mat // blurred grey of the frame the quiet run started from
	diff     gocv.Mat
	adiff    gocv.Mat
	hasPrev  bool
	quietRun int
	closed   bool
	// For Changes: the region compared in the last frame, and whether diff
	// holds its changed pixels.
	roi       image.Rectangle
	diffValid bool
	// For NetChanges: rest is the blurred grey of the last quiet frame;
	// moved collects the frame-to-frame changes of the disturbance going
	// on (frames that were not quiet since then); net holds the last
	// frame's net changes when netValid.
	rest      gocv.Mat
	hasRest   bool
	moved     gocv.Mat
	hasMoved  bool
	disturbed bool
	net       gocv.Mat
	netValid  bool
}

// NewMotion returns a Motion with cfg (zero fields take the defaults).
// Close it when done.
func NewMotion(cfg MotionConfig) *Motion {
	return &Motion{
		cfg:    cfg.withDefaults(),
		mid:    gocv.NewMat(),
		small:  gocv.NewMat(),
		grey:   gocv.NewMat(),
		cur:    gocv.NewMat(),
		prev:   gocv.NewMat(),
		anchor: gocv.NewMat(),
		diff:   gocv.NewMat(),
		adiff:  gocv.NewMat(),
		rest:   gocv.NewMat(),
		moved:  gocv.NewMat(),
		net:    gocv.NewMat(),
	}
}

// Config returns the configuration in use, defaults filled in.
func (m *Motion) Config() MotionConfig { return m.cfg }

// SetROI changes the region compared (see [MotionConfig].ROI) and forgets
// the previous frame.
func (m *Motion) SetROI(roi image.Rectangle) {
	m.cfg.ROI = roi
	m.Reset()
}

// Reset forgets the previous frame and the quiet run: the next frame is
// compared with nothing and is not quiet.
func (m *Motion) Reset() {
	m.hasPrev = false
	m.quietRun = 0
	m.hasRest, m.hasMoved, m.disturbed, m.netValid = false, false, false, false
}

// Still reports whether the last n frames observed were all quiet
// (n <= 0: always true).
func (m *Motion) Still(n int) bool { return m.quietRun >= n }

// QuietRun returns the number of quiet frames in a row up to the last
// frame observed.
func (m *Motion) QuietRun() int { return m.quietRun }

// Observe compares img (8-bit, 1, 3 or 4 channels; the caller keeps it)
// with the previous frame observed. An error (empty or unsupported image,
// ROI outside the image, Motion closed) leaves the state as it was.
func (m *Motion) Observe(img gocv.Mat) (MotionSample, error) {
	if m.closed {
		return MotionSample{}, errors.New("vision: motion: observe after Close")
	}
	if img.Empty() {
		return MotionSample{}, errors.New("vision: motion: empty frame")
	}
	var toGrey gocv.ColorConversionCode
	switch img.Type() {
	case gocv.MatTypeCV8UC1:
		toGrey = -1
	case gocv.MatTypeCV8UC3:
		toGrey = gocv.ColorBGRToGray
	case gocv.MatTypeCV8UC4:
		toGrey = gocv.ColorBGRAToGray
	default:
		return MotionSample{}, fmt.Errorf("vision: motion: unsupported image type %v (want 8-bit grey, BGR or BGRA)", img.Type())
	}
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	r := bounds
	if !m.cfg.ROI.Empty() {
		r = m.cfg.ROI.Intersect(bounds)
		if r.Empty() {
			return MotionSample{}, fmt.Errorf("vision: motion: ROI %v lies outside the %dx%d frame", m.cfg.ROI, bounds.Dx(), bounds.Dy())
		}
	}
	src := img
	if r != bounds {
		region := img.Region(r)
		defer region.Close()
		src = region
	}
	w := min(m.cfg.Width, r.Dx())
	h := max(1, int(float64(r.Dy())*float64(w)/float64(r.Dx())+0.5))

	if r.Dx() >= 4*w && r.Dy() >= 4*h {
		// Area averaging over the whole frame reads every pixel; bilinear
		// to twice the size first averages 2×2 of each 4×4 block at a
		// fraction of the cost, and the area step averages 2×2 of those:
		// sensor noise drops 4×.
		gocv.Resize(src, &m.mid, image.Pt(2*w, 2*h), 0, 0, gocv.InterpolationLinear)
		src = m.mid
	}
	if toGrey < 0 {
		gocv.Resize(src, &m.grey, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	} else {
		gocv.Resize(src, &m.small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		gocv.CvtColor(m.small, &m.grey, toGrey)
	}
	if k := m.cfg.Blur; k > 1 {
		gocv.GaussianBlur(m.grey, &m.cur, image.Pt(k, k), 0, 0, gocv.BorderReplicate)
	} else {
		m.grey.CopyTo(&m.cur)
	}

	s := MotionSample{Pixels: w * h}
	m.roi = r
	m.diffValid = false
	if !m.hasPrev || m.prev.Cols() != w || m.prev.Rows() != h {
		s.First = true
		m.quietRun = 0
	} else {
		m.diffValid = true
		gocv.AbsDiff(m.cur, m.prev, &m.diff)
		gocv.Threshold(m.diff, &m.diff, float32(m.cfg.Threshold-1), 255, gocv.ThresholdBinary)
		s.Changed = gocv.CountNonZero(m.diff)
		s.Quiet = float64(s.Changed) <= m.cfg.MaxChanged*float64(s.Pixels)
		if s.Quiet && m.anchor.Cols() == w && m.anchor.Rows() == h {
			gocv.AbsDiff(m.cur, m.anchor, &m.adiff)
			gocv.Threshold(m.adiff, &m.adiff, float32(m.cfg.Threshold-1), 255, gocv.ThresholdBinary)
			s.Drift = gocv.CountNonZero(m.adiff)
			s.Quiet = float64(s.Drift) <= m.cfg.MaxChanged*float64(s.Pixels)
		}
		if s.Quiet {
			m.quietRun++
		} else {
			m.quietRun = 0
		}
	}
	if !s.Quiet {
		m.cur.CopyTo(&m.anchor)
	}
	m.netChanges(s.Quiet)
	m.cur, m.prev = m.prev, m.cur
	m.hasPrev = true
	s.QuietRun = m.quietRun
	s.Still = m.quietRun >= m.cfg.SettleFrames
	return s, nil
}

// MotionMask marks where the picture changed in one frame (or, in a
// [RollTracker], since its last decision), at the resolution [Motion]
// compares frames at: cell (x, y) covers frame pixels ROI.Min +
// (x, y)·ROI.Dx()/W. It is plain data.
type MotionMask struct {
	// ROI is the region of the frame the mask covers, in frame pixels.
	ROI image.Rectangle
	// W and H are the mask's size in cells.
	W, H int
	// Bits holds W×H cells, row by row: true where the picture changed.
	Bits []bool
}

// Any reports whether a changed cell overlaps r (frame pixels).
func (mm *MotionMask) Any(r image.Rectangle) bool {
	c, ok := mm.cells(r)
	if !ok {
		return false
	}
	for y := c.Min.Y; y < c.Max.Y; y++ {
		if slices.Contains(mm.Bits[y*mm.W+c.Min.X:y*mm.W+c.Max.X], true) {
			return true
		}
	}
	return false
}

// Share returns the fraction of the cells overlapping r (frame pixels)
// that changed (0 when r misses the mask).
func (mm *MotionMask) Share(r image.Rectangle) float64 {
	c, ok := mm.cells(r)
	if !ok {
		return 0
	}
	n := 0
	for y := c.Min.Y; y < c.Max.Y; y++ {
		for _, b := range mm.Bits[y*mm.W+c.Min.X : y*mm.W+c.Max.X] {
			if b {
				n++
			}
		}
	}
	return float64(n) / float64(c.Dx()*c.Dy())
}

// cells returns the cells overlapping r (frame pixels); ok is false when
// the mask is empty or r misses it.
func (mm *MotionMask) cells(r image.Rectangle) (c image.Rectangle, ok bool) {
	if mm == nil || mm.W <= 0 || mm.H <= 0 || mm.ROI.Empty() || len(mm.Bits) < mm.W*mm.H {
		return c, false
	}
	r = r.Intersect(mm.ROI)
	if r.Empty() {
		return c, false
	}
	sx := float64(mm.W) / float64(mm.ROI.Dx())
	sy := float64(mm.H) / float64(mm.ROI.Dy())
	x0 := max(0, min(int(float64(r.Min.X-mm.ROI.Min.X)*sx), mm.W-1))
	x1 := max(x0+1, min(int(math.Ceil(float64(r.Max.X-mm.ROI.Min.X)*sx)), mm.W))
	y0 := max(0, min(int(float64(r.Min.Y-mm.ROI.Min.Y)*sy), mm.H-1))
	y1 := max(y0+1, min(int(math.Ceil(float64(r.Max.Y-mm.ROI.Min.Y)*sy)), mm.H))
	return image.Rect(x0, y0, x1, y1), true
}

// valid reports whether mm holds W×H cells.
func (mm *MotionMask) valid() bool {
	return mm != nil && mm.W > 0 && mm.H > 0 && len(mm.Bits) >= mm.W*mm.H
}

// sameGeometry reports whether mm and o cover the same cells.
func (mm *MotionMask) sameGeometry(o *MotionMask) bool {
	return mm.valid() && o.valid() && mm.W == o.W && mm.H == o.H && mm.ROI == o.ROI
}

// orInto adds mm's changed cells to dst, resetting dst when its geometry
// differs.
func (mm *MotionMask) orInto(dst *MotionMask) {
	if mm == nil || mm.W <= 0 || mm.H <= 0 || len(mm.Bits) < mm.W*mm.H {
		return
	}
	if dst.W != mm.W || dst.H != mm.H || dst.ROI != mm.ROI || len(dst.Bits) != mm.W*mm.H {
		dst.ROI, dst.W, dst.H = mm.ROI, mm.W, mm.H
		dst.Bits = slices.Grow(dst.Bits[:0], mm.W*mm.H)[:mm.W*mm.H]
		clear(dst.Bits)
	}
	for i, b := range mm.Bits[:mm.W*mm.H] {
		if b {
			dst.Bits[i] = true
		}
	}
}

// clear marks every cell unchanged.
func (mm *MotionMask) clear() { clear(mm.Bits) }

// copyInto makes dst a copy of mm, reusing dst.Bits.
func (mm *MotionMask) copyInto(dst *MotionMask) {
	dst.ROI, dst.W, dst.H = mm.ROI, mm.W, mm.H
	dst.Bits = append(dst.Bits[:0], mm.Bits...)
}

// dropPassed clears, in both mm and moved, the cells of mm that passed
// marks: stale changes a disturbance went over. Masks of another geometry
// are left alone.
func (mm *MotionMask) dropPassed(moved, passed *MotionMask) {
	if !mm.sameGeometry(passed) || !mm.sameGeometry(moved) {
		return
	}
	for i, p := range passed.Bits[:passed.W*passed.H] {
		if p && mm.Bits[i] {
			mm.Bits[i], moved.Bits[i] = false, false
		}
	}
}

// Changes fills dst with the pixels that changed between the last two
// frames observed (all unchanged after a First frame, which has nothing to
// compare with). It reuses dst.Bits.
func (m *Motion) Changes(dst *MotionMask) {
	maskFrom(dst, m.roi, m.prev.Cols(), m.prev.Rows(), m.diff, m.diffValid)
}

// maskFrom fills dst (w×h cells over roi) from the binary Mat src, or with
// no change unless valid.
func maskFrom(dst *MotionMask, roi image.Rectangle, w, h int, src gocv.Mat, valid bool) {
	dst.ROI, dst.W, dst.H = roi, w, h
	dst.Bits = slices.Grow(dst.Bits[:0], w*h)[:w*h]
	clear(dst.Bits)
	if !valid || src.Cols() != w || src.Rows() != h || src.Type() != gocv.MatTypeCV8UC1 || !src.IsContinuous() {
		return
	}
	px, err := src.DataPtrUint8()
	if err != nil || len(px) < w*h {
		return
	}
	for i := range w * h {
		dst.Bits[i] = px[i] != 0
	}
}

// netChanges updates what NetChanges reports after m.cur was compared:
// nothing on a frame that is not quiet (its changes are collected); on the
// first quiet frame after a disturbance, where it differs from the last
// quiet frame before it (or, with none, everything that changed during
// it); on a quiet frame after a quiet one, its frame-to-frame changes.
func (m *Motion) netChanges(quiet bool) {
	m.netValid = false
	if !quiet {
		if m.diffValid {
			if m.hasMoved && m.moved.Cols() == m.diff.Cols() && m.moved.Rows() == m.diff.Rows() {
				gocv.BitwiseOr(m.moved, m.diff, &m.moved)
			} else {
				m.diff.CopyTo(&m.moved)
				m.hasMoved = true
			}
		}
		m.disturbed = true
		return
	}
	w, h := m.cur.Cols(), m.cur.Rows()
	switch {
	case !m.disturbed:
		if m.diffValid {
			m.diff.CopyTo(&m.net)
			m.netValid = true
		}
	case m.hasRest && m.rest.Cols() == w && m.rest.Rows() == h:
		gocv.AbsDiff(m.cur, m.rest, &m.net)
		gocv.Threshold(m.net, &m.net, float32(m.cfg.Threshold-1), 255, gocv.ThresholdBinary)
		m.netValid = true
	case m.hasMoved && m.moved.Cols() == w && m.moved.Rows() == h:
		gocv.BitwiseOr(m.moved, m.diff, &m.net)
		m.netValid = true
	}
	m.disturbed, m.hasMoved = false, false
	m.cur.CopyTo(&m.rest)
	m.hasRest = true
}

// NetChanges fills dst with where the scene at rest changed: on the first
// quiet frame after frames that were not (a throw, a hand passing), the
// pixels that differ from the last quiet frame before them — a hand that
// passed over resting dice and left changes nothing there, dice that
// landed or were taken change their places; when no quiet frame came
// before (the stream started moving), every pixel that changed on the way.
// On a quiet frame after a quiet one it holds the frame-to-frame changes
// (a slow creep), and nothing on a frame that is not quiet. It reuses
// dst.Bits; the geometry is that of [Motion.Changes].
func (m *Motion) NetChanges(dst *MotionMask) {
	maskFrom(dst, m.roi, m.prev.Cols(), m.prev.Rows(), m.net, m.netValid)
}

// Close releases the Mats. Closing twice is harmless; Observe fails after it.
func (m *Motion) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	for _, mat := range []*gocv.Mat{&m.mid, &m.small, &m.grey, &m.cur, &m.prev, &m.anchor, &m.diff, &m.adiff, &m.rest, &m.moved, &m.net} {
		mat.Close()
	}
	return nil
}

// Settled returns a stage that passes on only the frames of src at which
// the scene has been still for n frames (n <= 0: the Motion's SettleFrames),
// as measured by m; the other frames are closed. Use it for steps that need
// a settled table, such as reading a card. Closing the stage closes src but
// not m.
func Settled(src frame.Source, m *Motion, n int) frame.Source {
	if n <= 0 {
		n = m.Config().SettleFrames
	}
	return &settled{src: src, m: m, n: n}
}

type settled struct {
	src frame.Source
	m   *Motion
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
			return frame.Frame{}, fmt.Errorf("vision: settled: frame %d: %w", f.Index, err)
		}
		if s.m.Still(s.n) {
			return f, nil
		}
		f.Close()
	}
}

func (s *settled) Close() error { return s.src.Close() }

// DiceReader reads the dice in one frame (8-bit BGR, owned by the caller,
// which may close it as soon as the reader returns).
type DiceReader func(img gocv.Mat) (Reading, error)

// Step is what a [Pipeline] did with one frame.
type Step struct {
	// Frame is the frame. From [Pipeline.Next] the caller owns it and must
	// Close it; in [Pipeline.Run] it is closed after the callback returns
	// (Clone the Mat to keep the image, e.g. for the roll-proof trail).
	Frame frame.Frame
	// Motion is the motion measured on the frame.
	Motion MotionSample
	// Read is set when the dice reader ran on the frame; Reading is its
	// result. ReadErr is the reader's error, if any: such a frame is passed
	// to the tracker as moving, so it can never contribute to a roll.
	Read    bool
	Reading Reading
	ReadErr error
	// Events are the tracker's events for this frame.
	Events []Event
}

// Pipeline connects a [frame.Source], a [Motion], a [DiceReader] and a
// [RollTracker]: for each frame it measures motion, reads the dice when the
// frame is quiet (or always, with ReadMoving), and feeds the tracker,
// telling it where the scene at rest changed ([Motion.NetChanges] as
// [Observation].Moved). It
// starts no goroutines; it owns none of its parts (close them yourself).
type Pipeline struct {
	src     frame.Source
	motion  *Motion
	read    DiceReader
	tracker *RollTracker
	moved   MotionMask // where the scene at rest changed, for the tracker
	passed  MotionMask // where the last frame changed, gross
	// ReadMoving makes the pipeline read the dice on moving frames too,
	// e.g. to draw them on a live view; the tracker ignores those readings,
	// so by default they are skipped to save the reader's time.
	ReadMoving bool
}

// NewPipeline returns a pipeline over the given parts. The Motion's
// SettleFrames does not matter here: the tracker counts quiet frames.
func NewPipeline(src frame.Source, m *Motion, read DiceReader, t *RollTracker) *Pipeline {
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
		return Step{}, fmt.Errorf("vision: pipeline: frame %d: %w", f.Index, err)
	}
	quiet := s.Motion.Quiet
	if quiet || p.ReadMoving {
		s.Read = true
		s.Reading, s.ReadErr = p.read(f.Mat)
		if s.ReadErr != nil {
			s.ReadErr = fmt.Errorf("vision: pipeline: read dice in frame %d: %w", f.Index, s.ReadErr)
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

package motion

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"gocv.io/x/gocv"
)

// Defaults of [Config].
const (
	// DefaultWidth is the width in pixels frames are shrunk to before
	// they are compared.
	DefaultWidth = 160
	// DefaultBlur is the Gaussian kernel size applied to the shrunk
	// grey frame.
	DefaultBlur = 3
	// DefaultThreshold is the grey-level difference (0–255) at which a
	// pixel of the shrunk frame counts as changed.
	DefaultThreshold = 8
	// DefaultMaxChanged is the fraction of the compared pixels that may
	// change in a quiet frame.
	DefaultMaxChanged = 0.0005
	// DefaultSettleFrames is the number of quiet frames in a row after which
	// the scene counts as still (config key vision.settle_frames).
	DefaultSettleFrames = 3
)

// Config configures a [Detector]. Zero fields take the defaults.
type Config struct {
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
	// [Sample].Still is set. Default 3.
	SettleFrames int
}

// WithDefaults returns c with its zero fields set to the defaults.
func (c Config) WithDefaults() Config {
	if c.Width <= 0 {
		c.Width = DefaultWidth
	}
	switch {
	case c.Blur == 0:
		c.Blur = DefaultBlur
	case c.Blur < 0:
		c.Blur = 1
	case c.Blur%2 == 0:
		c.Blur++
	}
	if c.Threshold <= 0 {
		c.Threshold = DefaultThreshold
	}
	c.Threshold = min(c.Threshold, 255)
	if c.MaxChanged <= 0 {
		c.MaxChanged = DefaultMaxChanged
	}
	if c.SettleFrames <= 0 {
		c.SettleFrames = DefaultSettleFrames
	}
	return c
}

// Sample is what [Detector] measured on one frame.
type Sample struct {
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

// Detector measures how much each frame differs from the one before, to tell
// when the dice have stopped. Each frame (or its ROI) is shrunk to Width
// pixels (bilinear to twice that, then area averaging), turned grey,
// blurred, and compared with the
// previous frame; the pixels differing by at least Threshold are counted.
// A frame is quiet when at most MaxChanged of the pixels changed, both
// since the previous frame and since the frame the quiet run started from
// (so that a slow creep, under a pixel per frame, is not taken for rest),
// and the scene is still once n quiet frames in a row were seen
// ([Detector.Still]).
//
// A Detector keeps its Mats across frames; Close releases them. It is not safe
// for concurrent use.
type Detector struct {
	cfg      Config
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

// New returns a Detector with cfg (zero fields take the defaults).
// Close it when done.
func New(cfg Config) *Detector {
	return &Detector{
		cfg:    cfg.WithDefaults(),
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
func (m *Detector) Config() Config { return m.cfg }

// SetROI changes the region compared (see [Config].ROI) and forgets
// the previous frame.
func (m *Detector) SetROI(roi image.Rectangle) {
	m.cfg.ROI = roi
	m.Reset()
}

// Reset forgets the previous frame and the quiet run: the next frame is
// compared with nothing and is not quiet.
func (m *Detector) Reset() {
	m.hasPrev = false
	m.quietRun = 0
	m.hasRest, m.hasMoved, m.disturbed, m.netValid = false, false, false, false
}

// Still reports whether the last n frames observed were all quiet
// (n <= 0: always true).
func (m *Detector) Still(n int) bool { return m.quietRun >= n }

// QuietRun returns the number of quiet frames in a row up to the last
// frame observed.
func (m *Detector) QuietRun() int { return m.quietRun }

// Observe compares img (8-bit, 1, 3 or 4 channels; the caller keeps it)
// with the previous frame observed. An error (empty or unsupported image,
// ROI outside the image, Detector closed) leaves the state as it was.
func (m *Detector) Observe(img gocv.Mat) (Sample, error) {
	if m.closed {
		return Sample{}, errors.New("motion: observe after Close")
	}
	if img.Empty() {
		return Sample{}, errors.New("motion: empty frame")
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
		return Sample{}, fmt.Errorf("motion: unsupported image type %v (want 8-bit grey, BGR or BGRA)", img.Type())
	}
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	r := bounds
	if !m.cfg.ROI.Empty() {
		r = m.cfg.ROI.Intersect(bounds)
		if r.Empty() {
			return Sample{}, fmt.Errorf("motion: ROI %v lies outside the %dx%d frame", m.cfg.ROI, bounds.Dx(), bounds.Dy())
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

	s := Sample{Pixels: w * h}
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

// Changes fills dst with the pixels that changed between the last two
// frames observed (all unchanged after a First frame, which has nothing to
// compare with). It reuses dst.Bits.
func (m *Detector) Changes(dst *Mask) {
	maskFrom(dst, m.roi, m.prev.Cols(), m.prev.Rows(), m.diff, m.diffValid)
}

// maskFrom fills dst (w×h cells over roi) from the binary Mat src, or with
// no change unless valid.
func maskFrom(dst *Mask, roi image.Rectangle, w, h int, src gocv.Mat, valid bool) {
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
func (m *Detector) netChanges(quiet bool) {
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
// dst.Bits; the geometry is that of [Detector.Changes].
func (m *Detector) NetChanges(dst *Mask) {
	maskFrom(dst, m.roi, m.prev.Cols(), m.prev.Rows(), m.net, m.netValid)
}

// Last returns the last frame observed as the Detector compares frames:
// its ROI shrunk to Width, grey and blurred. The Mat stays the Detector's
// and holds until the next Observe or Close. A reader that compares frames
// with a reference of its own (the empty table) uses it so that each frame
// is shrunk once.
func (m *Detector) Last() gocv.Mat { return m.prev }

// Close releases the Mats. Closing twice is harmless; Observe fails after it.
func (m *Detector) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	for _, mat := range []*gocv.Mat{&m.mid, &m.small, &m.grey, &m.cur, &m.prev, &m.anchor, &m.diff, &m.adiff, &m.rest, &m.moved, &m.net} {
		mat.Close()
	}
	return nil
}

package vision

// Dice detection: where are the dice in a frame, and which quadrilateral of
// the frame is each die's top face?
//
// A frame is shrunk to DiceConfig.WorkWidth pixels and split into
// foreground and table: with a reference frame of the empty table (see
// [DiceDetector.SetBackground]) by colour difference, telling shadows (the
// table darker, same colour) from dice; without one by the difference to
// the empty table estimated from the frame itself (detect_noref.go) and by
// the body colours the profiles learned from their examples. Connected
// foreground groups (a die with its shadow, touching dice, a hand) are
// then examined in the full resolution frame:
// the die's top face is the largest part of its silhouette within 85% of
// the brightness most of it has (a camera sees a cube's sides darker),
// eroded by a pixel so that touching tops come apart, tried at stricter
// thresholds when it is not square; an oblong twice as long as wide is two
// touching dice. Each side is then moved to the first straight edge met
// from inside (the face's rim) and cut where a lit side of the die widens
// the dark border that every side of the face has. Groups far larger than a
// die are hands or arms: with a reference frame, the frame is marked
// occluded.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/models"
)

// Defaults of [DiceConfig].
const (
	// DefaultDiceWorkWidth is the width frames are shrunk to for finding
	// the dice.
	DefaultDiceWorkWidth = 640
	// DefaultDieMinSide and DefaultDieMaxSide bound a die's top face side
	// as a fraction of the frame width (25 px … 48 px in a 640 px frame,
	// 28 … 96 px at 1280).
	DefaultDieMinSide = 0.022
	DefaultDieMaxSide = 0.075
)

// DiceConfig configures a [DiceDetector]. Zero fields take the defaults.
type DiceConfig struct {
	// Sets lists the face sets to look for; empty: every profile given.
	Sets []string
	// WorkWidth is the width in pixels frames are shrunk to for finding the
	// dice (narrower frames are used as they are). Default 640.
	WorkWidth int
	// MinSide and MaxSide bound a die's top face side as a fraction of the
	// frame width. Defaults 0.022 and 0.075.
	MinSide, MaxSide float64
	// Threshold is the confidence below which a die is reported Uncertain;
	// 0 takes each profile's calibrated threshold.
	Threshold float64
}

func (c DiceConfig) withDefaults() DiceConfig {
	if c.WorkWidth <= 0 {
		c.WorkWidth = DefaultDiceWorkWidth
	}
	c.WorkWidth = max(c.WorkWidth, 64)
	if c.MinSide <= 0 {
		c.MinSide = DefaultDieMinSide
	}
	if c.MaxSide <= 0 {
		c.MaxSide = DefaultDieMaxSide
	}
	if c.MaxSide < c.MinSide {
		c.MaxSide = c.MinSide
	}
	return c
}

// DiceDetector finds and reads the dice of one or more face sets in frames.
// It keeps buffers across frames; it is not safe for concurrent use. Close
// releases its Mats.
type DiceDetector struct {
	dieFinder
	readers []*faceReader // one per face set looked for
	bodies  []DieColour   // body colours of every set (no-reference mode)
	ps, ps2 patchScratch
	turned  [3]featVec // scratch of faceReader.conflict
	closed  bool
}

// dieFinder finds top faces in frames; its Mats and buffers are reused.
type dieFinder struct {
	cfg     DiceConfig
	small   gocv.Mat // the frame at work resolution
	ref     gocv.Mat // the reference frame at work resolution
	refFull gocv.Mat // the reference frame as given
	hasRef  bool
	// lookAgain: a set read by its numerals is looked for (a black d10
	// on a dark table needs a second look, see find).
	lookAgain bool
	seg       *segScratch
	tf        topFinder
	sf        silFinder
	// estimate: without a reference frame, estimate the table from the
	// frame (see selfMask); teaching finds its dice its own way.
	estimate bool
	self     selfRef
	// darkTops: with the reference frame, a top that changed as a shadow
	// would may be a die's (see groupMask). Reading dice takes them;
	// teaching does not, so that the profiles it makes (the built-in ones
	// are cached by their generation) do not depend on them.
	darkTops bool
}

func newDieFinder(cfg DiceConfig) dieFinder {
	return dieFinder{cfg: cfg, small: gocv.NewMat(), ref: gocv.NewMat(), refFull: gocv.NewMat(), seg: newSegScratch(), self: newSelfRef()}
}

func (f *dieFinder) close() {
	f.small.Close()
	f.ref.Close()
	f.refFull.Close()
	f.seg.close()
	f.self.close()
}

// NewDiceDetector returns a detector for the face sets of profiles (all of
// them, or those cfg.Sets names). c supplies each set's faces (regions,
// hits, values); a profile's own face set is used for sets c does not know
// (custom sets). Close the detector when done.
func NewDiceDetector(c *models.Content, profiles []*DiceProfile, cfg DiceConfig) (*DiceDetector, error) {
	cfg = cfg.withDefaults()
	d := &DiceDetector{}
	want := map[string]bool{}
	for _, s := range cfg.Sets {
		want[s] = true
	}
	seen := map[string]bool{}
	for _, p := range profiles {
		if p == nil {
			continue
		}
		if len(want) > 0 && !want[p.Set.ID] {
			continue
		}
		if seen[p.Set.ID] {
			return nil, fmt.Errorf("vision: dice: two profiles for face set %q", p.Set.ID)
		}
		seen[p.Set.ID] = true
		fs := p.Set
		if c != nil {
			if cs, ok := c.FaceSet(p.Set.ID); ok {
				fs = cs
			}
		}
		r, err := newFaceReader(p, fs)
		if err != nil {
			return nil, err
		}
		if cfg.Threshold > 0 {
			r.threshold = cfg.Threshold
		}
		d.readers = append(d.readers, r)
		d.bodies = append(d.bodies, p.Body...)
	}
	for s := range want {
		if !seen[s] {
			return nil, fmt.Errorf("vision: dice: no profile for face set %q", s)
		}
	}
	if len(d.readers) == 0 {
		return nil, errors.New("vision: dice: no profiles")
	}
	d.dieFinder = newDieFinder(cfg)
	d.estimate = true
	d.darkTops = true
	for _, r := range d.readers {
		d.lookAgain = d.lookAgain || r.num != nil
	}
	return d, nil
}

// Config returns the configuration in use, defaults filled in.
func (d *DiceDetector) Config() DiceConfig { return d.cfg }

// Sets lists the face sets the detector reads.
func (d *DiceDetector) Sets() []string {
	var s []string
	for _, r := range d.readers {
		s = append(s, r.set.ID)
	}
	return s
}

// SetBackground makes empty (8-bit BGR, a frame of the table without dice
// or hands, same size as the frames to come; the caller keeps it) the
// reference frame: dice are then found by their difference to it, which
// works on any table. An empty Mat removes the reference.
func (d *DiceDetector) SetBackground(empty gocv.Mat) error {
	if d.closed {
		return errors.New("vision: dice: SetBackground after Close")
	}
	return d.setBackground(empty)
}

func (d *dieFinder) setBackground(empty gocv.Mat) error {
	if empty.Empty() {
		d.hasRef = false
		return nil
	}
	if empty.Type() != gocv.MatTypeCV8UC3 {
		return fmt.Errorf("vision: dice: background type %v, want 8-bit BGR", empty.Type())
	}
	if empty.Cols() < 32 || empty.Rows() < 32 {
		return fmt.Errorf("vision: dice: background %dx%d too small", empty.Cols(), empty.Rows())
	}
	empty.CopyTo(&d.refFull)
	ws := d.workSize(empty.Cols(), empty.Rows())
	resizeTo(d.refFull, &d.ref, ws)
	d.hasRef = true
	return nil
}

// HasBackground reports whether a reference frame is set.
func (d *DiceDetector) HasBackground() bool { return d.hasRef }

// Reader returns d.Read as a [DiceReader] for a roll pipeline.
func (d *DiceDetector) Reader() DiceReader { return d.Read }

// Close releases the detector's Mats. Closing twice is harmless.
func (d *DiceDetector) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	d.dieFinder.close()
	return nil
}

// workSize is the size frames of w×h are shrunk to.
func (d *dieFinder) workSize(w, h int) image.Point {
	if w <= d.cfg.WorkWidth {
		return image.Pt(w, h)
	}
	return image.Pt(d.cfg.WorkWidth, max(1, int(math.Round(float64(h)*float64(d.cfg.WorkWidth)/float64(w)))))
}

// resizeTo shrinks src to size (area averaging) or copies it.
func resizeTo(src gocv.Mat, dst *gocv.Mat, size image.Point) {
	if src.Cols() == size.X && src.Rows() == size.Y {
		src.CopyTo(dst)
		return
	}
	gocv.Resize(src, dst, size, 0, 0, gocv.InterpolationArea)
}

// dieCandidate is a top face found in a frame.
type dieCandidate struct {
	rect dieRect
	// again: found on the second look for dark dice (see find); only a
	// numeral may be read on it.
	again bool
	// darkTop: found in the hull of its ink, its top a shade of the
	// table's colour (see groupMask): it may be a part of a face between
	// its symbols, so a blank reading there is not sure.
	darkTop bool
}

// EstimateTable turns on or off the estimate of the empty table from each
// frame read without a reference (on from NewDiceDetector) and returns the
// setting it replaces. A reader that learns the empty table from the
// frames (tablecam/vision/background) turns it off meanwhile: the estimate
// also finds uncertain things on a busy table, which would keep the table
// from ever looking empty.
func (d *DiceDetector) EstimateTable(on bool) (was bool) {
	was, d.estimate = d.estimate, on
	return was
}

// Read finds and reads the dice in img (8-bit BGR; the caller keeps it).
// Dice whose reading is not sure enough are returned Uncertain. Reading.
// Occluded is set when something much larger than a die (a hand) is in
// the frame. Without a reference frame (SetBackground) the empty table is
// estimated from img itself and the body colours are searched as well; a
// background reader turns that estimate off until it has learned the
// table (see EstimateTable).
func (d *DiceDetector) Read(img gocv.Mat) (Reading, error) {
	var rd Reading
	if d.closed {
		return rd, errors.New("vision: dice: Read after Close")
	}
	if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
		return rd, fmt.Errorf("vision: dice: want a non-empty 8-bit BGR frame, got type %v", img.Type())
	}
	if img.Cols() < 32 || img.Rows() < 32 {
		return rd, fmt.Errorf("vision: dice: frame %dx%d too small", img.Cols(), img.Rows())
	}
	if !img.IsContinuous() {
		c := img.Clone()
		defer c.Close()
		img = c
	}
	im, err := viewBGR(img)
	if err != nil {
		return rd, fmt.Errorf("vision: dice: %w", err)
	}
	lim := d.limits(im.w)
	cands, occluded, err := d.find(img, im, d.bodies, lim, false)
	if err != nil {
		return rd, err
	}
	rd.Occluded = occluded
	for _, c := range cands {
		if die, ok := d.readDie(im, c); ok {
			rd.Dice = append(rd.Dice, die)
		}
	}
	if rd.Dice, err = d.colourPass(img, im, lim, rd.Dice); err != nil {
		return rd, err
	}
	rd.Dice = dedupeDice(rd.Dice)
	slices.SortStableFunc(rd.Dice, func(a, b Die) int {
		if a.Center.X != b.Center.X {
			return a.Center.X - b.Center.X
		}
		return a.Center.Y - b.Center.Y
	})
	return rd, nil
}

// dedupeDice keeps one die of readings whose centres lie closer than two
// dice's tops can (one die found twice: its top, and a part of it or its
// top with a side): the most confident; when the two read different faces, the die is
// uncertain.
func dedupeDice(dice []Die) []Die {
	drop := make([]bool, len(dice))
	for i := range dice {
		for j := range dice {
			if i == j || drop[i] || drop[j] {
				continue
			}
			a, b := &dice[i], &dice[j]
			// Two dice's tops are at least a side apart.
			side := math.Max(a.side, b.side)
			if math.Hypot(float64(a.Center.X-b.Center.X), float64(a.Center.Y-b.Center.Y)) >= 0.7*side {
				continue
			}
			if b.Confidence > a.Confidence || b.Confidence == a.Confidence && j < i {
				continue // i goes when j is looked at
			}
			if a.Set != b.Set || a.Face != b.Face {
				a.Confidence = math.Min(a.Confidence, 1-b.Confidence)
				a.Uncertain = a.Uncertain || !b.Uncertain || a.Confidence < 0.5
			}
			drop[j] = true
		}
	}
	out := dice[:0]
	for i, d := range dice {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

// refFits reports whether the finder has a reference frame of a w×h
// frame's size.
func (d *dieFinder) refFits(w, h int) bool {
	return d.hasRef && d.refFull.Cols() == w && d.refFull.Rows() == h
}

// find returns the top faces in the frame (img, with pixels im) with sides
// within lim, and whether something far larger than a die is in the frame.
// Without a reference frame the dice are found by the difference to the
// table estimated from the frame (when the detector's estimate is on) or
// by the body colours alone. With
// whole set, the frame is one die seen close up (a crop): everything that
// differs from the reference is one group.
func (d *dieFinder) find(img gocv.Mat, im dieImage, bodies []DieColour, lim topLimits, whole bool) ([]dieCandidate, bool, error) {
	W, H := im.w, im.h
	ws := d.workSize(W, H)
	resizeTo(img, &d.small, ws)
	si, err := viewBGR(d.small)
	if err != nil {
		return nil, false, fmt.Errorf("vision: dice: %w", err)
	}
	scale := float64(W) / float64(ws.X)
	useRef := d.refFits(W, H)
	if useRef {
		ri, err := viewBGR(d.ref)
		if err != nil {
			return nil, false, fmt.Errorf("vision: dice: %w", err)
		}
		if err := d.seg.diffMask(d.small, d.ref, si, ri); err != nil {
			return nil, false, fmt.Errorf("vision: dice: %w", err)
		}
	} else if d.estimate && !whole {
		if err := d.selfMask(si, bodies, lim.minSide/scale, lim.maxSide/scale); err != nil {
			return nil, false, fmt.Errorf("vision: dice: %w", err)
		}
	} else {
		d.seg.colourMask(si, bodies)
	}
	diffed := useRef || d.estimate && !whole
	if whole {
		for i := range d.seg.mask {
			d.seg.mask[i] |= fgChanged
		}
	}
	minWork := lim.minSide / scale
	maxWork := lim.maxSide / scale
	groups, err := d.seg.groups(ws.X, ws.Y, int(0.6*minWork*minWork))
	if err != nil {
		return nil, false, fmt.Errorf("vision: dice: %w", err)
	}
	occluded := false
	var out []dieCandidate
	frame := image.Rect(0, 0, W, H)
	for _, g := range groups {
		if !whole && (float64(g.area) > 8*maxWork*maxWork || float64(max(g.box.Dx(), g.box.Dy())) > 5*maxWork) {
			// Far larger than a die and its shadow: with a reference frame
			// a hand or an arm; without one, a part of the table of a
			// die's colour.
			occluded = occluded || useRef
			continue
		}
		roi := image.Rect(int(float64(g.box.Min.X-1)*scale), int(float64(g.box.Min.Y-1)*scale),
			int(math.Ceil(float64(g.box.Max.X+1)*scale)), int(math.Ceil(float64(g.box.Max.Y+1)*scale))).Intersect(frame)
		if roi.Dx() < 4 || roi.Dy() < 4 {
			continue
		}
		darkTop := false
		if diffed && float64(g.die)*scale*scale < 0.3*lim.minSide*lim.minSide {
			// A die that looks like the table (white on paper) changes
			// only its rim, sides and shadow: its top is the hole in them.
			d.sf.groupMask(d.seg, ws.X, g, roi, scale, false, false)
		} else if diffed {
			// The die pixels and what they enclose: a top face much like
			// the table (white on paper) changes only its pips and rim.
			darkTop = d.sf.groupMask(d.seg, ws.X, g, roi, scale, true, useRef && d.darkTops)
		} else {
			d.sf.workMask(d.seg, ws.X, ws.Y, g, roi, scale)
		}
		d.sf.components(roi.Dx(), roi.Dy())
		d.tf.noisy = d.seg.noisy
		tops := d.tf.find(im, &d.sf, roi, lim)
		again := false
		if len(tops) == 0 && diffed && d.lookAgain && float64(g.die)*scale*scale >= 0.3*lim.minSide*lim.minSide {
			// A dark die on a dark table (a black d10 on slate): its lit
			// body darkens the table the way a shadow does and was cut
			// out with the shadow. Look again with what the die pixels
			// enclose kept whole.
			d.sf.groupMask(d.seg, ws.X, g, roi, scale, false, false)
			d.sf.components(roi.Dx(), roi.Dy())
			tops = d.tf.find(im, &d.sf, roi, lim)
			again = len(tops) > 0
		}
		if len(tops) == 0 && diffed {
			// No part of the silhouette is evenly bright (a marbled body):
			// a square silhouette of a die's size is the die; its sides
			// are cut off below.
			if r, ok := d.sf.squareSilhouette(roi, lim); ok {
				tops = append(tops, r)
			}
		}
		for _, r := range tops {
			r = refineSides(im, r)
			r = trimBands(im, r)
			if !rectInside(r, frame, 1) {
				continue // cut by the frame's edge
			}
			if 2*math.Sqrt(r.HU*r.HV) > 1.1*lim.maxSide {
				continue
			}
			out = append(out, dieCandidate{rect: r, again: again, darkTop: darkTop})
		}
	}
	return out, occluded, nil
}

// rectInside reports whether r's corners lie at least m pixels inside b.
func rectInside(r dieRect, b image.Rectangle, m float64) bool {
	for _, c := range r.corners() {
		if c.X < float64(b.Min.X)+m || c.Y < float64(b.Min.Y)+m || c.X > float64(b.Max.X)-m || c.Y > float64(b.Max.Y)-m {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------------------
// Pixels and geometry.

// dieImage is a read-only view of the pixels of a continuous 8-bit BGR Mat.
// It stays valid while the Mat is alive and unchanged.
type dieImage struct {
	w, h int
	pix  []byte
}

// viewBGR returns the pixels of m, which must be a non-empty, continuous
// 8-bit BGR Mat.
func viewBGR(m gocv.Mat) (dieImage, error) {
	if m.Empty() {
		return dieImage{}, errors.New("empty image")
	}
	if m.Type() != gocv.MatTypeCV8UC3 {
		return dieImage{}, fmt.Errorf("image type %v, want 8-bit BGR", m.Type())
	}
	if !m.IsContinuous() {
		return dieImage{}, errors.New("image is not continuous")
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		return dieImage{}, err
	}
	if len(b) < 3*m.Cols()*m.Rows() {
		return dieImage{}, errors.New("image data too short")
	}
	return dieImage{w: m.Cols(), h: m.Rows(), pix: b}, nil
}

// sample returns the bilinear interpolation of the image at p (continuous
// coordinates), clamped at the border.
func (im dieImage) sample(p diePt) (b, g, r float32) {
	x, y := p.X-0.5, p.Y-0.5
	if !(x > -1e6 && x < 1e6 && y > -1e6 && y < 1e6) {
		x, y = 0, 0 // NaN or absurd: any pixel will do
	}
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	xa, xb := clampInt(x0, 0, im.w-1), clampInt(x0+1, 0, im.w-1)
	ya, yb := clampInt(y0, 0, im.h-1), clampInt(y0+1, 0, im.h-1)
	ia, ib := 3*(ya*im.w+xa), 3*(ya*im.w+xb)
	ic, id := 3*(yb*im.w+xa), 3*(yb*im.w+xb)
	w00, w01, w10, w11 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
	px := im.pix
	b = w00*float32(px[ia]) + w01*float32(px[ib]) + w10*float32(px[ic]) + w11*float32(px[id])
	g = w00*float32(px[ia+1]) + w01*float32(px[ib+1]) + w10*float32(px[ic+1]) + w11*float32(px[id+1])
	r = w00*float32(px[ia+2]) + w01*float32(px[ib+2]) + w10*float32(px[ic+2]) + w11*float32(px[id+2])
	return
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }

// diePt is a point in continuous pixel coordinates: pixel (i, j) covers
// [i, i+1) × [j, j+1).
type diePt struct{ X, Y float64 }

func (a diePt) add(b diePt) diePt { return diePt{a.X + b.X, a.Y + b.Y} }
func (a diePt) sub(b diePt) diePt { return diePt{a.X - b.X, a.Y - b.Y} }

// rotate turns a by angle t (radians) about the origin.
func (a diePt) rotate(t float64) diePt {
	c, s := math.Cos(t), math.Sin(t)
	return diePt{a.X*c - a.Y*s, a.X*s + a.Y*c}
}
func (a diePt) scale(k float64) diePt { return diePt{a.X * k, a.Y * k} }
func (a diePt) dot(b diePt) float64   { return a.X*b.X + a.Y*b.Y }
func (a diePt) len() float64          { return math.Hypot(a.X, a.Y) }

func dieCross(o, a, b diePt) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }

// dieHull returns the convex hull of pts (monotone chain) in dst's array;
// consecutive vertices turn so that dieCross is positive. It sorts pts.
func dieHull(dst, pts []diePt) []diePt {
	if len(pts) < 3 {
		return append(dst[:0], pts...)
	}
	p := pts
	slices.SortFunc(p, func(a, b diePt) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		case a.Y < b.Y:
			return -1
		case a.Y > b.Y:
			return 1
		}
		return 0
	})
	h := dst[:0]
	for _, q := range p {
		for len(h) >= 2 && dieCross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	t := len(h) + 1
	for i := len(p) - 2; i >= 0; i-- {
		q := p[i]
		for len(h) >= t && dieCross(h[len(h)-2], h[len(h)-1], q) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h[:len(h)-1]
}

// dieRect is a rotated rectangle: centre C, unit axis U (the other axis is
// U turned by 90° clockwise on screen) and half sizes along the two axes.
type dieRect struct {
	C      diePt
	U      diePt
	HU, HV float64
}

func (r dieRect) v() diePt { return diePt{-r.U.Y, r.U.X} }

// corners returns the corners at (-,-), (+,-), (+,+), (-,+) along (U, V):
// clockwise on screen.
func (r dieRect) corners() [4]diePt {
	u, v := r.U, r.v()
	var c [4]diePt
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		c[i] = r.C.add(u.scale(s[0] * r.HU)).add(v.scale(s[1] * r.HV))
	}
	return c
}

// angle is U's direction in radians.
func (r dieRect) angle() float64 { return math.Atan2(r.U.Y, r.U.X) }

// minAreaRect returns the smallest rectangle around a convex hull (rotating
// calipers, by brute force over the hull's edges).
func minAreaRect(h []diePt) dieRect {
	if len(h) == 0 {
		return dieRect{U: diePt{1, 0}}
	}
	if len(h) < 3 {
		var c diePt
		for _, p := range h {
			c = c.add(p)
		}
		return dieRect{C: c.scale(1 / float64(len(h))), U: diePt{1, 0}}
	}
	var best dieRect
	bestA := math.Inf(1)
	for i := range h {
		e := h[(i+1)%len(h)].sub(h[i])
		l := e.len()
		if l < 1e-9 {
			continue
		}
		if r := boundsAlong(h, e.scale(1/l)); r.HU*r.HV < bestA {
			best, bestA = r, r.HU*r.HV
		}
	}
	return best.normalized()
}

// boundsAlong returns the rectangle with axis u around the points.
func boundsAlong(h []diePt, u diePt) dieRect {
	v := diePt{-u.Y, u.X}
	minU, maxU, minV, maxV := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range h {
		a, b := p.dot(u), p.dot(v)
		minU, maxU = math.Min(minU, a), math.Max(maxU, a)
		minV, maxV = math.Min(minV, b), math.Max(maxV, b)
	}
	return dieRect{C: u.scale((minU + maxU) / 2).add(v.scale((minV + maxV) / 2)), U: u, HU: (maxU - minU) / 2, HV: (maxV - minV) / 2}
}

// normalized turns r by multiples of 90° so that U points at an angle in
// [0°, 90°).
func (r dieRect) normalized() dieRect {
	for range 4 {
		if r.U.X > 0 && r.U.Y >= 0 {
			break
		}
		r.U = diePt{-r.U.Y, r.U.X}
		r.HU, r.HV = r.HV, r.HU
	}
	return r
}

// inConvex reports whether p is inside the convex polygon h (dieHull or
// dieRect.corners order).
func inConvex(h []diePt, p diePt) bool {
	if len(h) < 3 {
		return false
	}
	for i := range h {
		if dieCross(h[i], h[(i+1)%len(h)], p) < 0 {
			return false
		}
	}
	return true
}

// dieHomography maps the unit square's corners (0,0), (1,0), (1,1), (0,1) to
// a quadrilateral.
type dieHomography [9]float64

func squareToQuad(q [4]diePt) dieHomography {
	x0, y0, x1, y1, x2, y2, x3, y3 := q[0].X, q[0].Y, q[1].X, q[1].Y, q[2].X, q[2].Y, q[3].X, q[3].Y
	dx1, dy1 := x1-x2, y1-y2
	dx2, dy2 := x3-x2, y3-y2
	sx, sy := x0-x1+x2-x3, y0-y1+y2-y3
	var g, h float64
	if den := dx1*dy2 - dx2*dy1; math.Abs(den) > 1e-12 {
		g = (sx*dy2 - dx2*sy) / den
		h = (dx1*sy - sx*dy1) / den
	}
	return dieHomography{
		x1 - x0 + g*x1, x3 - x0 + h*x3, x0,
		y1 - y0 + g*y1, y3 - y0 + h*y3, y0,
		g, h, 1,
	}
}

func (m dieHomography) apply(u, v float64) diePt {
	w := m[6]*u + m[7]*v + m[8]
	if math.Abs(w) < 1e-12 {
		w = 1e-12
	}
	return diePt{(m[0]*u + m[1]*v + m[2]) / w, (m[3]*u + m[4]*v + m[5]) / w}
}

// ---------------------------------------------------------------------------
// Segmentation at work resolution.

// Mask bits of the work-resolution foreground.
const (
	fgChanged = 1 // differs from the table (die, side, shadow, hand)
	fgDie     = 2 // differs in a way a shadow cannot explain
	fgDark    = 4 // clearly darker than the table, its colour kept (a shadow)
)

// segScratch holds the Mats and buffers of the segmentation, reused across
// frames.
type segScratch struct {
	mat, grp, labels, stats, cents gocv.Mat
	kernel                         gocv.Mat
	diff, changed                  gocv.Mat    // diffMask's
	smoothed                       [2]gocv.Mat // diffMask's frame and reference, 3×3 means
	mask                           []byte      // fg bits per work pixel
	lab                            []uint16
	noisy                          bool // sensor noise high (dim light)
	lut                            []bool
	lutFor                         []DieColour
}

func newSegScratch() *segScratch {
	return &segScratch{
		mat: gocv.NewMat(), grp: gocv.NewMat(), labels: gocv.NewMat(), stats: gocv.NewMat(), cents: gocv.NewMat(),
		diff: gocv.NewMat(), changed: gocv.NewMat(), smoothed: [2]gocv.Mat{gocv.NewMat(), gocv.NewMat()},
		kernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)),
	}
}

func (s *segScratch) close() {
	for _, m := range []*gocv.Mat{&s.mat, &s.grp, &s.labels, &s.stats, &s.cents, &s.kernel, &s.diff, &s.changed, &s.smoothed[0], &s.smoothed[1]} {
		m.Close()
	}
}

func (s *segScratch) resize(n int) {
	if cap(s.mask) < n {
		s.mask = make([]byte, n)
	}
	s.mask = s.mask[:n]
}

// dieGroup is a connected part of the foreground at work resolution: one
// die with its shadow, several touching dice, or something else (a hand).
type dieGroup struct {
	label int
	box   image.Rectangle // work pixels
	area  int             // changed pixels
	die   int             // die pixels
}

// diffMask fills s.mask from the work-resolution frame and reference (same
// size; Mats small and ref, pixels si and ri): fgChanged where they differ
// by more than the noise, fgDie where the change is not a darkening that
// keeps the colour (a shadow). In a noisy frame (dim light) both are
// compared as 3×3 means.
func (s *segScratch) diffMask(small, ref gocv.Mat, si, ri dieImage) error {
	n := si.w * si.h
	s.resize(n)
	// The channels' differences, and where one of them reaches the
	// threshold, by OpenCV (vectorised): most of the frame is table.
	med, err := s.absDiff(small, ref, n)
	if err != nil {
		return err
	}
	s.noisy = med >= 4
	if s.noisy {
		// Sensor noise (dim light) drowns a die that differs little from
		// the table (a dim green die on green felt): its silhouette comes
		// out in pieces and its top as a fragment. Averaged over 3×3 work
		// pixels the noise drops to a third and the threshold with it;
		// a die is many such blocks wide.
		gocv.Blur(small, &s.smoothed[0], image.Pt(3, 3))
		gocv.Blur(ref, &s.smoothed[1], image.Pt(3, 3))
		if med, err = s.absDiff(s.smoothed[0], s.smoothed[1], n); err != nil {
			return err
		}
		if si, err = viewBGR(s.smoothed[0]); err != nil {
			return fmt.Errorf("smoothed frame: %w", err)
		}
		if ri, err = viewBGR(s.smoothed[1]); err != nil {
			return fmt.Errorf("smoothed reference: %w", err)
		}
	}
	thr := max(14, 3*med+8)
	// Channels that differ by thr or more are set to 255; a pixel with any
	// of them set is grey (at least 29) after the conversion to grey, else
	// black.
	gocv.Threshold(s.diff, &s.diff, float32(thr-1), 255, gocv.ThresholdBinary)
	gocv.CvtColor(s.diff, &s.changed, gocv.ColorBGRToGray)
	changed, err := s.changed.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("changed pixels: %w", err)
	}
	if len(changed) < n {
		return fmt.Errorf("changed pixels: %d bytes, want %d", len(changed), n)
	}
	a, b := si.pix[:3*n], ri.pix[:3*n]
	mask := s.mask[:n]
	clear(mask)
	changed = changed[:n]
	for i := 0; i < n; i += 8 {
		if i+8 <= n && binary.LittleEndian.Uint64(changed[i:]) == 0 {
			continue // eight pixels of table
		}
		for j := i; j < min(i+8, n); j++ {
			if changed[j] == 0 {
				continue
			}
			mask[j] = changedPixel(a[3*j:3*j+3:3*j+3], b[3*j:3*j+3:3*j+3])
		}
	}
	return nil
}

// absDiff sets s.diff to the channels' absolute differences of small and
// ref (n pixels) and returns the noise level: for Gaussian noise of σ,
// about the median of the largest channel difference.
func (s *segScratch) absDiff(small, ref gocv.Mat, n int) (int, error) {
	gocv.AbsDiff(small, ref, &s.diff)
	d, err := s.diff.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("difference to the reference: %w", err)
	}
	if len(d) < 3*n {
		return 0, fmt.Errorf("difference to the reference: %d bytes, want %d", len(d), 3*n)
	}
	d = d[:3*n]
	// Noise: the largest channel difference at the 20th percentile (most
	// pixels are table even in a crop around one die), sampled.
	var hist [256]int
	total := 0
	for i := 0; i < n; i += 7 {
		hist[max(d[3*i], d[3*i+1], d[3*i+2])]++
		total++
	}
	p20 := 0
	for acc := 0; p20 < 255; p20++ {
		if acc += hist[p20]; 5*acc >= total {
			break
		}
	}
	// For Gaussian noise of σ the 20th percentile of the largest of three
	// channel differences is about 0.65 of its median (1.26 σ·√2).
	return (p20*3 + 1) / 2, nil
}

// markDiff fills s.mask (sized) from the work-resolution frame and an
// estimated reference: pixels differing by thr or more (by local[i] where
// that is larger) are changed, and marked as die or shadow pixels.
func (s *segScratch) markDiff(small, ref dieImage, thr int, local []byte) {
	a, b := small.pix, ref.pix
	for i := range s.mask {
		f, r := a[3*i:3*i+3:3*i+3], b[3*i:3*i+3:3*i+3]
		if d := maxAbsDiff3(f, r); d < thr || local != nil && d < int(local[i]) {
			s.mask[i] = 0
			continue
		}
		s.mask[i] = changedPixel(f, r)
	}
}

// changedPixel marks frame pixel f that differs from reference pixel r:
// changed, and a die pixel unless the change is a darkening that keeps
// the colour (a shadow; fgDark where it darkens).
func changedPixel(f, r []byte) byte {
	m := byte(fgChanged)
	if !shadowLike(f, r) {
		m |= fgDie
	} else if 25*(int(f[0])+int(f[1])+int(f[2])) < 24*(int(r[0])+int(r[1])+int(r[2])) {
		m |= fgDark
	}
	return m
}

func maxAbsDiff3(f, r []byte) int {
	_, _ = f[2], r[2]
	return max(absDiff(f[0], r[0]), absDiff(f[1], r[1]), absDiff(f[2], r[2]))
}

// absDiff is |a - b|, without a branch (noise makes its sign random).
func absDiff(a, b byte) int {
	d := int(a) - int(b)
	m := d >> 63
	return (d ^ m) - m
}

// shadowLike reports whether pixel f could be reference pixel r in shadow:
// every channel darker by about the same factor, no darker than a die's
// shadow gets.
func shadowLike(f, r []byte) bool {
	lo, hi := float32(2), float32(0)
	for c := 0; c < 3; c++ {
		q := (float32(f[c]) + 6) / (float32(r[c]) + 6)
		lo, hi = min(lo, q), max(hi, q)
	}
	return hi < 1.04 && lo > 0.47 && hi-lo < 0.09+0.1*(1-lo)
}

// colourMask fills s.mask with the pixels whose colour is one of bodies.
func (s *segScratch) colourMask(small dieImage, bodies []DieColour) {
	n := small.w * small.h
	s.resize(n)
	// Noise: the median difference of horizontal neighbours, sampled.
	var hist [256]int
	total := 0
	for i := 0; i+1 < n; i += 7 {
		hist[maxAbsDiff3(small.pix[3*i:3*i+3], small.pix[3*i+3:3*i+6])]++
		total++
	}
	med := 0
	for acc := 0; med < 255; med++ {
		if acc += hist[med]; 2*acc >= total {
			break
		}
	}
	s.noisy = med >= 5
	lut := s.colourLUT(bodies)
	for i := 0; i < n; i++ {
		p := small.pix[3*i : 3*i+3]
		m := byte(0)
		if lut[lutIndex(p)] {
			m = fgChanged | fgDie
		}
		s.mask[i] = m
	}
}

// lutIndex is the index of BGR pixel p in a colourLUT.
func lutIndex(p []byte) int { return int(p[0]>>3)<<10 | int(p[1]>>3)<<5 | int(p[2]>>3) }

// colourLUT returns a table, indexed by 5-bit B, G, R, of the colours that
// match one of bodies; it is kept while bodies stay the same.
func (s *segScratch) colourLUT(bodies []DieColour) []bool {
	if s.lut != nil && slices.Equal(s.lutFor, bodies) {
		return s.lut
	}
	s.lut = make([]bool, 1<<15)
	s.lutFor = slices.Clone(bodies)
	for i := range s.lut {
		b, g, r := byte(i>>10)<<3|4, byte(i>>5&31)<<3|4, byte(i&31)<<3|4
		for k := range bodies {
			if bodies[k].match(b, g, r) {
				s.lut[i] = true
				break
			}
		}
	}
	return s.lut
}

// groups labels the changed pixels (after closing one-pixel gaps and
// removing specks) and returns the groups with at least minArea pixels.
func (s *segScratch) groups(w, h, minArea int) ([]dieGroup, error) {
	if len(s.mask) != w*h {
		return nil, errors.New("mask size mismatch")
	}
	m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC1, s.mask)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	gocv.Threshold(m, &s.grp, 0, 255, gocv.ThresholdBinary)
	gocv.MorphologyEx(s.grp, &s.grp, gocv.MorphClose, s.kernel)
	gocv.MorphologyEx(s.grp, &s.grp, gocv.MorphOpen, s.kernel)
	n := gocv.ConnectedComponentsWithStatsWithParams(s.grp, &s.labels, &s.stats, &s.cents, 8, gocv.MatTypeCV16U, gocv.CCL_DEFAULT)
	if s.labels.Cols() != w || s.labels.Rows() != h || s.stats.Rows() < n {
		return nil, errors.New("connected components: unexpected result size")
	}
	ld, err := s.labels.DataPtrUint16()
	if err != nil {
		return nil, err
	}
	if cap(s.lab) < len(ld) {
		s.lab = make([]uint16, len(ld))
	}
	s.lab = s.lab[:len(ld)]
	copy(s.lab, ld)
	var out []dieGroup
	for l := 1; l < n; l++ {
		x, y := int(s.stats.GetIntAt(l, 0)), int(s.stats.GetIntAt(l, 1))
		bw, bh := int(s.stats.GetIntAt(l, 2)), int(s.stats.GetIntAt(l, 3))
		area := int(s.stats.GetIntAt(l, 4))
		if area < minArea {
			continue
		}
		out = append(out, dieGroup{label: l, box: image.Rect(x, y, x+bw, y+bh).Intersect(image.Rect(0, 0, w, h)), area: area})
	}
	for i := range out {
		g := &out[i]
		for y := g.box.Min.Y; y < g.box.Max.Y; y++ {
			for x := g.box.Min.X; x < g.box.Max.X; x++ {
				if int(s.lab[y*w+x]) == g.label && s.mask[y*w+x]&fgDie != 0 {
					g.die++
				}
			}
		}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Silhouettes at frame resolution.

// silFinder holds a frame-resolution mask of die silhouettes over a region
// and its connected components. Buffers are reused.
type silFinder struct {
	mask    []bool
	lab     []int32
	n       int // components in lab
	cl      componentLabeller
	pts     []diePt
	hull    []diePt // hullOf's and groupMask's
	notG    []bool
	outside []int32
}

func (sf *silFinder) resize(n int) {
	if cap(sf.mask) < n {
		sf.mask = make([]bool, n)
	}
	sf.mask = sf.mask[:n]
}

// workMask fills sf.mask over roi (frame pixels) with the die pixels of
// work-resolution group g.
func (sf *silFinder) workMask(seg *segScratch, workW, workH int, g dieGroup, roi image.Rectangle, scale float64) {
	rw, rh := roi.Dx(), roi.Dy()
	sf.resize(rw * rh)
	for y := 0; y < rh; y++ {
		wy := min(workH-1, int((float64(roi.Min.Y+y)+0.5)/scale))
		for x := 0; x < rw; x++ {
			wx := min(workW-1, int((float64(roi.Min.X+x)+0.5)/scale))
			wi := wy*workW + wx
			sf.mask[y*rw+x] = int(seg.lab[wi]) == g.label && seg.mask[wi]&fgDie != 0
		}
	}
}

// groupMask fills sf.mask over roi with work-resolution group g and every
// pixel it encloses; with dieOnly, of g only its die pixels. With
// darkTops (g differs from a reference frame of the table, not from a
// table estimated from the frame), a die's top that changed as a shadow
// would is kept (see below); it reports whether it kept one.
func (sf *silFinder) groupMask(seg *segScratch, workW int, g dieGroup, roi image.Rectangle, scale float64, dieOnly, darkTops bool) bool {
	b := g.box
	w, h := b.Dx(), b.Dy()
	// Outside (non-zero): the pixels not of g reached from the box's
	// border without crossing g.
	sf.notG = growBools(sf.notG, w*h)
	notG := sf.notG
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			notG[y*w+x] = int(seg.lab[(b.Min.Y+y)*workW+b.Min.X+x]) != g.label
		}
	}
	sf.outside = growInt32s(sf.outside, w*h)
	outside := sf.outside
	sf.cl.labelBorder(notG, outside, w, h, fourConnected)
	keepDark := false
	if dieOnly && 2*g.die < g.area {
		// Most of the change is shadow-like (a die much like the table):
		// the die is also everything within the hull of its die pixels.
		pts := sf.pts[:0]
		for y := 0; y < h; y++ {
			x0, x1 := -1, -1
			for x := 0; x < w; x++ {
				if wi := (b.Min.Y+y)*workW + b.Min.X + x; int(seg.lab[wi]) == g.label && seg.mask[wi]&fgDie != 0 {
					if x0 < 0 {
						x0 = x
					}
					x1 = x
				}
			}
			if x0 >= 0 {
				pts = append(pts, diePt{float64(x0), float64(y)}, diePt{float64(x1), float64(y)})
			}
		}
		sf.pts = pts
		sf.hull = dieHull(sf.hull, pts)
		if hull := sf.hull; len(hull) >= 3 {
			inHull, same, dark, die := 0, 0, 0, 0
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					i := y*w + x
					if !inConvex(hull, diePt{float64(x), float64(y)}) {
						continue
					}
					inHull++
					outside[i] = 0
					switch m := seg.mask[(b.Min.Y+y)*workW+b.Min.X+x]; {
					case notG[i]:
						same++
					case m&fgDie != 0:
						die++
					case m&fgDark != 0:
						dark++
					}
				}
			}
			// Within the hull of its die pixels a die much like the table
			// (white on paper) shows its unchanged top. When nearly all of
			// it changed, and mostly the way a shadow would, the top is a
			// die darker than the table in the table's colour (grey on
			// paper): its shadow-like pixels there are the die.
			keepDark = darkTops && 4*same < inHull && dark > die
		}
	}
	rw, rh := roi.Dx(), roi.Dy()
	sf.resize(rw * rh)
	for y := 0; y < rh; y++ {
		wy := int((float64(roi.Min.Y+y)+0.5)/scale) - b.Min.Y
		for x := 0; x < rw; x++ {
			wx := int((float64(roi.Min.X+x)+0.5)/scale) - b.Min.X
			v := false
			if wx >= 0 && wy >= 0 && wx < w && wy < h && outside[wy*w+wx] == 0 {
				v = true
				if wi := (b.Min.Y+wy)*workW + b.Min.X + wx; dieOnly && int(seg.lab[wi]) == g.label && seg.mask[wi]&fgDark != 0 &&
					!(keepDark && inConvex(sf.hull, diePt{float64(wx), float64(wy)})) {
					v = false
				}
			}
			sf.mask[y*rw+x] = v
		}
	}
	return keepDark
}

// components labels the 8-connected components of sf.mask (rw wide) into
// sf.lab.
func (sf *silFinder) components(rw, rh int) {
	sf.lab = growInt32s(sf.lab, rw*rh)
	sf.n = sf.cl.label(sf.mask, sf.lab, rw, rh, eightConnected, nil).n
}

// squareSilhouette returns the rectangle around the largest silhouette in
// roi when it is about square and of a die's size (sides included).
func (sf *silFinder) squareSilhouette(roi image.Rectangle, lim topLimits) (dieRect, bool) {
	rw, rh := roi.Dx(), roi.Dy()
	var count []int
	for _, l := range sf.lab[:rw*rh] {
		if l == 0 {
			continue
		}
		for int(l) >= len(count) {
			count = append(count, 0)
		}
		count[l]++
	}
	best := 0
	for l, c := range count {
		if c > 0 && (best == 0 || c > count[best]) {
			best = l
		}
	}
	if best == 0 {
		return dieRect{}, false
	}
	h := sf.hullOf(int32(best), rw, rh, roi.Min)
	if len(h) < 3 {
		return dieRect{}, false
	}
	r := minAreaRect(h)
	side := 2 * math.Sqrt(r.HU*r.HV)
	if side < lim.minSide || side > 1.2*lim.maxSide || math.Max(r.HU, r.HV) > 1.3*math.Min(r.HU, r.HV) ||
		float64(count[best]) < 0.8*4*r.HU*r.HV {
		return dieRect{}, false
	}
	return r, true
}

// hullOf returns the convex hull (frame coordinates) of the pixels with
// label l.
func (sf *silFinder) hullOf(l int32, rw, rh int, origin image.Point) []diePt {
	sf.pts = boundaryCorners(sf.pts[:0], sf.lab[:rw*rh], l, rw, rh, origin)
	sf.hull = dieHull(sf.hull, sf.pts)
	return sf.hull
}

// boundaryCorners appends the outer corners of the leftmost and rightmost
// pixels of label l in each row: enough for the convex hull.
func boundaryCorners(pts []diePt, lab []int32, l int32, rw, rh int, origin image.Point) []diePt {
	for y := 0; y < rh; y++ {
		row := lab[y*rw : (y+1)*rw]
		x0, x1 := -1, -1
		for x, v := range row {
			if v == l {
				if x0 < 0 {
					x0 = x
				}
				x1 = x
			}
		}
		if x0 < 0 {
			continue
		}
		fy := float64(origin.Y + y)
		a, b := float64(origin.X+x0), float64(origin.X+x1+1)
		pts = append(pts, diePt{a, fy}, diePt{a, fy + 1}, diePt{b, fy}, diePt{b, fy + 1})
	}
	return pts
}

// ---------------------------------------------------------------------------
// Top faces.

// topFinder finds the top faces of the dice in silhouettes. Its buffers are
// reused across calls.
type topFinder struct {
	member    []bool
	val       []byte
	top       []bool
	tmpVal    []byte
	noisy     bool
	lab       []int32
	cl        componentLabeller
	pts       []diePt
	hull      []diePt // largestComponent's
	uhull     []diePt // find's union of a silhouette's bright pixels
	strips    [2][]byte
	bestLabel int32
	count     []int // silLabel's, per silhouette label
	sils      map[int32]dieRect
}

// topLimits are the accepted top face sides in frame pixels.
type topLimits struct{ minSide, maxSide float64 }

// limits returns the top face sides accepted in frames w pixels wide.
func (d *dieFinder) limits(w int) topLimits {
	return topLimits{minSide: d.cfg.MinSide * float64(w), maxSide: d.cfg.MaxSide * float64(w)}
}

// maxTopAspect is how much longer than wide a die's top face may look
// (a tilted camera, a side not quite cut off): more is a part of a face,
// two dice or a stretch of the table.
const maxTopAspect = 1.35

// squareEnough reports whether r is no longer than maxTopAspect times its
// width.
func (r dieRect) squareEnough() bool { return math.Max(r.HU, r.HV) < maxTopAspect*math.Min(r.HU, r.HV) }

// growInts returns b with length n, cleared.
func growInts(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	b = b[:n]
	clear(b)
	return b
}

func growBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// find returns the top faces of the dice in the silhouettes sf holds for
// roi (after sf.components). The top face of a die is the largest part of
// its silhouette within 85% of the brightness most of the silhouette has;
// its rotation comes from the silhouette's straight outline when the two
// disagree (a d10's lighter kite is not square to the face).
func (tf *topFinder) find(im dieImage, sf *silFinder, roi image.Rectangle, lim topLimits) []dieRect {
	rw, rh := roi.Dx(), roi.Dy()
	n := rw * rh
	if n == 0 || len(sf.lab) < n {
		return nil
	}
	tf.member = growBools(tf.member, n)
	if cap(tf.val) < n {
		tf.val = make([]byte, n)
	}
	tf.val = tf.val[:n]
	members := 0
	for y := 0; y < rh; y++ {
		row := 3 * ((roi.Min.Y+y)*im.w + roi.Min.X)
		for x := 0; x < rw; x++ {
			i := y*rw + x
			if sf.lab[i] == 0 {
				continue
			}
			p := row + 3*x
			tf.member[i] = true
			tf.val[i] = max(im.pix[p], im.pix[p+1], im.pix[p+2])
			members++
		}
	}
	if tf.noisy {
		tf.smoothVal(rw, rh)
	}
	if tf.sils == nil {
		tf.sils = map[int32]dieRect{}
	}
	clear(tf.sils)
	var out []dieRect
	var outLabel []int32
	var outBright, outSide []float64
	minArea := 0.35 * lim.minSide * lim.minSide
	for iter := 0; iter < 8 && float64(members) >= minArea; iter++ {
		mode := tf.brightMode(n)
		if mode < 6 {
			break
		}
		// The top: the pixels within 85% of that brightness, eroded by one
		// pixel so that thin bright bridges (over the rims of touching dice)
		// break. When that is not square (touching dice whose rims are not
		// dark enough, a lit side), stricter thresholds may split it.
		tf.top = growBools(tf.top, n)
		var hull []diePt
		area := 0
		square := false
		firstArea := 0
		for _, k := range [...]float64{0.85, 0.9, 0.94} {
			tf.threshold(n, rw, rh, k*mode)
			hull, area = tf.largestComponent(rw, rh, roi.Min)
			if k == 0.85 {
				firstArea = area
			}
			// A stricter threshold may split two tops, not break one top
			// into pieces (a dark die's body is close to the noise).
			if float64(area) < minArea || len(hull) < 3 || float64(area) < 0.3*float64(firstArea) {
				break
			}
			if r := minAreaRect(hull); math.Max(r.HU, r.HV) < 1.12*math.Min(r.HU, r.HV) {
				square = true
				break
			}
		}
		union := false
		if !square {
			tf.threshold(n, rw, rh, 0.85*mode)
			hull, area = tf.largestComponent(rw, rh, roi.Min)
			if len(hull) >= 3 {
				r := minAreaRect(hull)
				// Neither square nor a square with a lit side: one facet of
				// a face drawn in facets of different shades (a d10's
				// corners around its kite), or the tops of two dice.
				union = math.Max(r.HU, r.HV) > 1.35*math.Min(r.HU, r.HV) || polyArea(hull) < 0.75*4*r.HU*r.HV
			}
		}
		if float64(area) < minArea || len(hull) < 3 {
			break
		}
		if iter == 0 {
			// Further dice in the group must show a top of similar size.
			minArea = math.Max(minArea, 0.3*float64(area))
		}
		r := minAreaRect(hull)
		sl := tf.silLabel(sf, n)
		sr, ok := tf.sils[sl]
		if !ok {
			sr = minAreaRect(sf.hullOf(sl, rw, rh, roi.Min))
			tf.sils[sl] = sr
		}
		if 2*math.Min(r.HU, r.HV) < 0.62*2*math.Min(sr.HU, sr.HV) {
			// Far smaller than its silhouette: a piece of a face that pips
			// or noise break up (a black die's body is not much brighter
			// than its sides).
			union = true
		}
		if union {
			// The face is all the bright pixels of this silhouette.
			tf.pts = tf.pts[:0]
			for y := 0; y < rh; y++ {
				x0, x1 := -1, -1
				for x := 0; x < rw; x++ {
					if i := y*rw + x; tf.top[i] && sf.lab[i] == sl {
						if x0 < 0 {
							x0 = x
						}
						x1 = x
					}
				}
				if x0 >= 0 {
					fy := float64(roi.Min.Y + y)
					a, b := float64(roi.Min.X+x0), float64(roi.Min.X+x1+1)
					tf.pts = append(tf.pts, diePt{a, fy}, diePt{a, fy + 1}, diePt{b, fy}, diePt{b, fy + 1})
				}
			}
			tf.uhull = dieHull(tf.uhull, tf.pts)
			if h := tf.uhull; len(h) >= 3 {
				// Only when they make a square: two dice make an oblong.
				if ur := minAreaRect(h); math.Max(ur.HU, ur.HV) < 1.2*math.Min(ur.HU, ur.HV) {
					hull, r = h, ur
				}
			}
		}
		r.HU, r.HV = r.HU+1, r.HV+1
		d := math.Mod(r.angle()-sr.angle()+math.Pi/4+2*math.Pi, math.Pi/2) - math.Pi/4
		if math.Abs(d) > 10*math.Pi/180 && 2*math.Min(r.HU, r.HV) < 0.8*2*math.Min(sr.HU, sr.HV) {
			// The bright core is small and turned against the silhouette
			// (a d10's lighter kite): the face is the core's extent along
			// the silhouette's axes.
			r = boundsAlong(hull, sr.U).normalized()
		}
		rects := tf.squareUp(r, rw, roi.Min)
		bright := tf.medianBright(n)
		for _, r := range rects {
			side := math.Sqrt(4 * r.HU * r.HV)
			// A top with a lit side may be larger than a die: the side is
			// cut off later.
			ok := side >= lim.minSide && side <= 1.25*lim.maxSide && r.squareEnough() &&
				side >= 0.55*2*math.Min(sr.HU, sr.HV) // not a piece of a larger face
			for k := range out {
				// A second top in the same silhouette that is darker than
				// the first is one of its sides: a die's sides are never as
				// bright as its top, another die's top is.
				// Unless it is as large and square as a top (a die of
				// another colour touching it).
				if outLabel[k] == sl && bright < 0.93*outBright[k] &&
					!(math.Min(r.HU, r.HV) >= 0.75*outSide[k]/2 && math.Max(r.HU, r.HV) < 1.2*math.Min(r.HU, r.HV)) {
					ok = false
				}
			}
			if ok {
				out = append(out, r)
				outLabel = append(outLabel, sl)
				outBright = append(outBright, bright)
				outSide = append(outSide, side)
			}
		}
		// Remove these dice (with their sides) and look for more: the top
		// and the darker pixels around it (its sides) go; bright pixels
		// beside it may be the top of a touching die.
		for _, r := range rects {
			grown, tight := r, r
			grown.HU, grown.HV = r.HU*1.3+1, r.HV*1.3+1
			tight.HU, tight.HV = r.HU+1, r.HV+1
			c, ct := grown.corners(), tight.corners()
			for y := 0; y < rh; y++ {
				for x := 0; x < rw; x++ {
					i := y*rw + x
					if !tf.member[i] {
						continue
					}
					p := diePt{float64(roi.Min.X+x) + 0.5, float64(roi.Min.Y+y) + 0.5}
					if inConvex(ct[:], p) || !tf.top[i] && inConvex(c[:], p) {
						tf.member[i] = false
						members--
					}
				}
			}
		}
	}
	return out
}

// smoothVal replaces tf.val by its 3×3 mean (sensor noise in dim light
// would break the top face into pieces).
func (tf *topFinder) smoothVal(rw, rh int) {
	n := rw * rh
	if cap(tf.tmpVal) < n {
		tf.tmpVal = make([]byte, n)
	}
	t := tf.tmpVal[:n]
	for y := 0; y < rh; y++ {
		for x := 0; x < rw; x++ {
			if !tf.member[y*rw+x] {
				t[y*rw+x] = 0
				continue
			}
			// Over the silhouette only: the values of other pixels are not
			// set (they hold an earlier frame's).
			s, c := 0, 0
			for dy := -1; dy <= 1; dy++ {
				yy := y + dy
				if yy < 0 || yy >= rh {
					continue
				}
				for dx := -1; dx <= 1; dx++ {
					xx := x + dx
					if xx >= 0 && xx < rw && tf.member[yy*rw+xx] {
						s += int(tf.val[yy*rw+xx])
						c++
					}
				}
			}
			t[y*rw+x] = byte(s / c)
		}
	}
	tf.val, tf.tmpVal = t, tf.val
}

// threshold sets tf.top to the members at least t bright, eroded: the
// pixels whose 4-neighbours are all such members too (none on the roi's
// border).
func (tf *topFinder) threshold(n, rw, rh int, t float64) {
	thr := byte(math.Min(255, t))
	tf.top = growBools(tf.top, n)
	member, val, top := tf.member[:n], tf.val[:n], tf.top[:n]
	in := func(i int) bool { return member[i] && val[i] >= thr }
	for y := 1; y < rh-1; y++ {
		for i := y*rw + 1; i < (y+1)*rw-1; i++ {
			top[i] = in(i) && in(i-1) && in(i+1) && in(i-rw) && in(i+rw)
		}
	}
}

// brightMode returns the brightness around which the most member pixels
// lie within ±10%: the lit body of the top face.
func (tf *topFinder) brightMode(n int) float64 {
	var hist [257]int
	for i := 0; i < n; i++ {
		if tf.member[i] {
			hist[int(tf.val[i])+1]++
		}
	}
	for i := 1; i < 257; i++ {
		hist[i] += hist[i-1]
	}
	best, bv := -1, 0
	for v := 6; v < 256; v++ {
		a, b := int(0.9*float64(v)), min(255, int(1.1*float64(v)))
		if c := hist[b+1] - hist[a]; c > best {
			best, bv = c, v
		}
	}
	return float64(bv)
}

// medianBright returns the median brightness of the current top's pixels.
func (tf *topFinder) medianBright(n int) float64 {
	var hist [256]int
	cnt := 0
	for i := 0; i < n; i++ {
		if tf.lab[i] == tf.bestLabel {
			hist[tf.val[i]]++
			cnt++
		}
	}
	acc := 0
	for v, c := range hist {
		if acc += c; 2*acc >= cnt {
			return float64(v)
		}
	}
	return 255
}

// silLabel returns the silhouette label most of the current top's pixels
// carry.
func (tf *topFinder) silLabel(sf *silFinder, n int) int32 {
	tf.count = growInts(tf.count, sf.n+1)
	lab, sl := tf.lab[:n], sf.lab[:n]
	for i, l := range lab {
		if l == tf.bestLabel && sl[i] != 0 {
			tf.count[sl[i]]++
		}
	}
	var best int32
	bc := 0
	for l, c := range tf.count {
		if c > bc {
			best, bc = int32(l), c
		}
	}
	return best
}

// largestComponent finds the largest 4-connected component of tf.top and
// returns its convex hull in frame coordinates and its pixel count. tf.lab
// holds the labels afterwards and tf.bestLabel the component's.
func (tf *topFinder) largestComponent(rw, rh int, origin image.Point) ([]diePt, int) {
	tf.lab = growInt32s(tf.lab, rw*rh)
	cs := tf.cl.label(tf.top, tf.lab, rw, rh, fourConnected, nil)
	best, bestN := cs.largest, cs.largestCount
	tf.bestLabel = best
	if best == 0 {
		return nil, 0
	}
	tf.pts = boundaryCorners(tf.pts[:0], tf.lab, best, rw, rh, origin)
	tf.hull = dieHull(tf.hull, tf.pts)
	return tf.hull, bestN
}

// squareUp cuts a rectangle that is clearly longer than wide: about twice
// as long, it is the tops of two touching dice (a square at either end);
// less, a top face and a lit side seen as one (the square at the brighter
// end).
func (tf *topFinder) squareUp(r dieRect, rw int, origin image.Point) []dieRect {
	long, short := r.HU, r.HV
	axis := r.U
	if short > long {
		long, short = short, long
		axis = r.v()
	}
	if long < 1.12*short {
		return []dieRect{r}
	}
	if long >= 1.75*short && long <= 2.4*short {
		a, b := r, r
		a.HU, a.HV, b.HU, b.HV = short, short, short, short
		a.C = r.C.add(axis.scale(long - short))
		b.C = r.C.sub(axis.scale(long - short))
		return []dieRect{a, b}
	}
	// Median brightness of the top's pixels in the strips at either end
	// beyond a square of side 2*short.
	cut := 2*long - 2*short
	a, b := tf.strips[0][:0], tf.strips[1][:0]
	for i, l := range tf.lab {
		if l != tf.bestLabel {
			continue
		}
		p := diePt{float64(origin.X+i%rw) + 0.5, float64(origin.Y+i/rw) + 0.5}
		t := p.sub(r.C).dot(axis) + long
		switch {
		case t < cut:
			a = append(a, tf.val[i])
		case t > 2*long-cut:
			b = append(b, tf.val[i])
		}
	}
	tf.strips[0], tf.strips[1] = a, b
	if len(a) == 0 || len(b) == 0 {
		return []dieRect{r}
	}
	slices.Sort(a)
	slices.Sort(b)
	sq := r
	sq.HU, sq.HV = short, short
	if a[len(a)/2] < b[len(b)/2] {
		sq.C = r.C.add(axis.scale(long - short)) // the low end is the side
	} else {
		sq.C = r.C.sub(axis.scale(long - short))
	}
	return []dieRect{sq}
}

// polyArea is the area of a simple polygon.
func polyArea(p []diePt) float64 {
	a := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		a += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return math.Abs(a) / 2
}

// refineSides moves each side of rect to the first straight, consistent
// edge met going outwards from inside the face: the face's rim, or its
// boundary with a side or the table. Ink inside the face makes no such edge
// along most of a side.
func refineSides(im dieImage, rect dieRect) dieRect {
	side := 2 * math.Sqrt(rect.HU*rect.HV)
	if side < 8 {
		return rect
	}
	// Face brightness for the edge threshold: median luma of the centre.
	var lumBuf [49]float32
	lum := lumBuf[:0]
	for j := -3; j <= 3; j++ {
		for i := -3; i <= 3; i++ {
			p := rect.C.add(rect.U.scale(float64(i) * rect.HU / 5)).add(rect.v().scale(float64(j) * rect.HV / 5))
			b, g, r := im.sample(p)
			lum = append(lum, 0.114*b+0.587*g+0.299*r)
		}
	}
	slices.Sort(lum)
	bright := float64(lum[len(lum)/2])
	minEdge := math.Max(10, 0.12*bright)
	out := rect
	u, v := rect.U, rect.v()
	type sideDef struct {
		n    diePt   // outward normal
		t    diePt   // along the side
		h    float64 // distance of the side from the centre
		half float64 // half length of the side
	}
	sides := [4]sideDef{
		{u, v, rect.HU, rect.HV}, {u.scale(-1), v, rect.HU, rect.HV},
		{v, u, rect.HV, rect.HU}, {v.scale(-1), u, rect.HV, rect.HU},
	}
	var newH [4]float64
	const ns = 14
	var gs, cons [ns]float64
	for k, sd := range sides {
		newH[k] = sd.h
		lo, hi := sd.h-0.14*side, sd.h+0.06*side
		step := 0.5
		prevS, prevPrevS := 0.0, 0.0
		prevD := 0.0
		for d := lo; d <= hi; d += step {
			for i := 0; i < ns; i++ {
				t := (float64(i)/(ns-1)*1.4 - 0.7) * sd.half
				p := rect.C.add(sd.n.scale(d)).add(sd.t.scale(t))
				b1, g1, r1 := im.sample(p.add(sd.n.scale(1)))
				b0, g0, r0 := im.sample(p.sub(sd.n.scale(1)))
				gs[i] = float64((0.114*b1 + 0.587*g1 + 0.299*r1) - (0.114*b0 + 0.587*g0 + 0.299*r0))
			}
			mean := 0.0
			for _, g := range gs {
				mean += g
			}
			sgn := 1.0
			if mean < 0 {
				sgn = -1
			}
			for i, g := range gs {
				cons[i] = g * sgn
			}
			slices.Sort(cons[:])
			s := cons[ns/4] // a quarter of the samples may disagree
			// A local maximum above the threshold: the edge.
			if prevS >= minEdge && prevS >= s && prevS >= prevPrevS && d > lo+step {
				newH[k] = prevD
				break
			}
			prevPrevS, prevS, prevD = prevS, s, d
		}
	}
	// Rebuild the rectangle from the four side distances.
	du := (newH[0] - newH[1]) / 2
	dv := (newH[2] - newH[3]) / 2
	out.C = rect.C.add(u.scale(du)).add(v.scale(dv))
	out.HU = (newH[0] + newH[1]) / 2
	out.HV = (newH[2] + newH[3]) / 2
	if out.HU < 0.3*side || out.HV < 0.3*side {
		return rect
	}
	return out
}

// trimBands cuts lit sides off a top face. Every side of a top face has the
// same darker rim; a side of the die lit almost as brightly as the top and
// taken for part of it makes one or two sides' dark border wider. Each side
// is moved in by how much wider its dark border is than the narrowest.
func trimBands(im dieImage, rect dieRect) dieRect {
	side := 2 * math.Sqrt(rect.HU*rect.HV)
	if side < 12 {
		return rect
	}
	// Body brightness: the luma most of the face has (within ±5%): ink,
	// pips and a lit side are each a smaller part of it.
	var lumBuf [169]float32
	lum := lumBuf[:0]
	for j := -6; j <= 6; j++ {
		for i := -6; i <= 6; i++ {
			p := rect.C.add(rect.U.scale(float64(i) * rect.HU / 7.5)).add(rect.v().scale(float64(j) * rect.HV / 7.5))
			b, g, r := im.sample(p)
			lum = append(lum, 0.114*b+0.587*g+0.299*r)
		}
	}
	slices.Sort(lum)
	body, most := lum[len(lum)/2], 0
	for i, l := range lum {
		j := i
		for j < len(lum) && lum[j] <= l*1.1 {
			j++
		}
		if j-i > most {
			most, body = j-i, lum[(i+j)/2]
		}
	}
	u, v := rect.U, rect.v()
	sides := [4]struct {
		n, t    diePt
		h, half float64
	}{
		{u, v, rect.HU, rect.HV}, {u.scale(-1), v, rect.HU, rect.HV},
		{v, u, rect.HV, rect.HU}, {v.scale(-1), u, rect.HV, rect.HU},
	}
	const ns = 15
	var lineBuf [ns]float32
	line := lineBuf[:]
	var width [4]float64
	for k, sd := range sides {
		width[k] = 0.3 * side
		for d := 0.0; d <= 0.3*side; d += 0.5 {
			for i := 0; i < ns; i++ {
				t := (float64(i)/(ns-1)*1.2 - 0.6) * sd.half
				b, g, r := im.sample(rect.C.add(sd.n.scale(sd.h - d - 0.5)).add(sd.t.scale(t)))
				line[i] = 0.114*b + 0.587*g + 0.299*r
			}
			slices.Sort(line)
			if line[ns/2] >= 0.96*body {
				width[k] = d
				break
			}
		}
	}
	least := math.Min(math.Min(width[0], width[1]), math.Min(width[2], width[3]))
	var cut [4]float64
	for k := range width {
		if width[k]-least > 0.04*side {
			cut[k] = width[k] - least
		}
	}
	// A die never shows two opposite sides: of two opposite cuts keep the
	// larger.
	for _, k := range [2]int{0, 2} {
		if cut[k] > 0 && cut[k+1] > 0 {
			if cut[k] >= cut[k+1] {
				cut[k+1] = 0
			} else {
				cut[k] = 0
			}
		}
	}
	out := rect
	out.HU -= (cut[0] + cut[1]) / 2
	out.HV -= (cut[2] + cut[3]) / 2
	out.C = rect.C.add(u.scale((cut[1] - cut[0]) / 2)).add(v.scale((cut[3] - cut[2]) / 2))
	if out.HU < 0.6*rect.HU || out.HV < 0.6*rect.HV {
		return rect
	}
	return out
}

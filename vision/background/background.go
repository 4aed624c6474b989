package background

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"

	"tablecam/vision"
	"tablecam/vision/motion"

	"gocv.io/x/gocv"
)

// Defaults of [Config].
const (
	// DefaultLearnFrames is the number of still frames in a row
	// showing an empty table after which a [Reader] without a
	// reference takes the frame as the reference.
	DefaultLearnFrames = 10
	// DefaultRefreshFrames is the number of still, empty frames in
	// a row after which the reference is refreshed (and again after as many
	// more while the table stays empty): 1 s at 30 fps.
	DefaultRefreshFrames = 30
	// DefaultRefreshWeight is the weight of the new frame when the
	// reference is refreshed.
	DefaultRefreshWeight = 0.25
	// DefaultDropChanged is the fraction of the frame that must
	// differ from the reference for the reference to be dropped as stale.
	DefaultDropChanged = 0.5
	// DefaultStuckFrames is the number of still frames in a row
	// that the detector marks occluded after which the reference is dropped
	// (3 s at 30 fps).
	DefaultStuckFrames = 90
	// changeLevel is the grey-level difference (shrunk, blurred
	// frame) at which a pixel counts as changed against the reference.
	changeLevel = 24
	// spotChanged is the fraction of a watched spot that must
	// differ from the reference for the spot to count as changed.
	spotChanged = 0.1
	// diceReuseChanged is the fraction of the shrunk frame that may differ
	// (by changeLevel) from the frame of the last reading of
	// Config.Dice for that reading to be reused: far less than
	// one die, so a die that lands, leaves or turns is read anew.
	diceReuseChanged = 0.0005
)

// Config configures a [Reader]. Zero fields take the
// defaults.
type Config struct {
	// LearnFrames is the number of still frames in a row in which the
	// detector, without a reference, finds no die and nothing occluding,
	// after which the last of them becomes the reference. Default 10.
	LearnFrames int
	// RefreshFrames is the number of still frames in a row in which the
	// detector, with the reference, finds no die and nothing occluding,
	// after which the frame is blended into the reference (slow lighting
	// drift); it repeats every RefreshFrames such frames. Default 30.
	RefreshFrames int
	// RefreshWeight is the weight of the frame in that blend, in (0, 1]
	// (1 replaces the reference). Default 0.25.
	RefreshWeight float64
	// DropChanged is the fraction of the frame (shrunk to the motion width)
	// that must differ from the reference by a clear margin for the
	// reference to be dropped at once: the light was switched or the camera
	// moved, and every frame would otherwise look occluded. Default 0.5; a
	// hand or an arm covers far less.
	DropChanged float64
	// StrictLearn makes the reader learn only from frames in which the
	// detector finds no die at all. By default, dice that never moved
	// since the reader started (or was Reset) do not stop the learning:
	// without a reference the detector may take parts of a busy table for
	// dice, which would otherwise keep it from ever learning. Such spots
	// are remembered; should a die be read there later with the reference
	// (it was a real die, and it has been taken away), the reading leaves
	// it out and the spot of the reference is replaced from a still frame.
	StrictLearn bool
	// StuckFrames is the number of still frames in a row that the detector
	// marks occluded after which the reference is dropped: nothing that
	// big stays that still but an object put down on the table or a hand
	// that was taken into the reference. Default 90.
	StuckFrames int
	// Motion configures the reader's own stillness check (see
	// [motion.Config]); zero fields take its defaults.
	Motion motion.Config
	// Share, when set, is handed the reference whenever it changes (learned,
	// refreshed, repaired or set; the Mat is valid during the call only),
	// and an empty Mat when it is dropped and when the reader is closed:
	// [tablecam/vision/card.Reader.SetBackground] fits, for the card reader to read against
	// the same empty table. When it fails, Share is handed an empty Mat
	// (the other reader must not read against an older table) and the
	// failure is counted in [Stats].ShareFailed; SetBackground
	// returns the error, but Read does not fail for it: the dice keep
	// their reference.
	Share func(ref gocv.Mat) error
	// Dice, when set, names the dice in place of the detector: the
	// detector still learns the empty table and tells a hand or an arm in
	// the picture (vision.Reading.Occluded), and Dice reads the dice (a learned
	// reader, say). Dice is called on still, unoccluded frames only, and
	// its reading is reused while the picture stays as it was when it
	// read, so a reader that costs many frames' time runs once per settled
	// scene. Moving and occluded frames then carry no dice (the roll
	// tracker ignores their dice). Dice must not keep img.
	Dice func(img gocv.Mat) ([]vision.Die, error)
}

func (c Config) withDefaults() Config {
	if c.LearnFrames <= 0 {
		c.LearnFrames = DefaultLearnFrames
	}
	if c.RefreshFrames <= 0 {
		c.RefreshFrames = DefaultRefreshFrames
	}
	if c.RefreshWeight <= 0 || c.RefreshWeight > 1 {
		c.RefreshWeight = DefaultRefreshWeight
	}
	if c.DropChanged <= 0 || c.DropChanged > 1 {
		c.DropChanged = DefaultDropChanged
	}
	if c.StuckFrames <= 0 {
		c.StuckFrames = DefaultStuckFrames
	}
	c.Motion = c.Motion.WithDefaults()
	return c
}

// Stats counts what a [Reader] did with the reference.
type Stats struct {
	// Frames is the number of frames read.
	Frames int
	// Learned counts references taken while there was none; Refreshed
	// counts blends into an existing reference.
	Learned, Refreshed int
	// Dropped counts references given up: DroppedChanged because most of
	// the frame differed from it, DroppedStuck because the frame stayed
	// occluded and still for StuckFrames, DroppedSize because the frame
	// size changed.
	DroppedChanged, DroppedStuck, DroppedSize int
	// StaticLearned counts the references learned with dice that never
	// moved in them (see StrictLearn); Repaired counts spots of the
	// reference replaced after such a die was taken away.
	StaticLearned, Repaired int
	// ShareFailed counts the references that Config.Share
	// refused.
	ShareFailed int
	// DiceReads counts the calls of Config.Dice; DiceReused the
	// still frames that reused its last reading.
	DiceReads, DiceReused int
	// LearnedAt is the index (counting frames read, from 0) of the frame
	// last taken as a new reference, -1 when none was.
	LearnedAt int
	// Changed is the fraction of the last frame that differed from the
	// reference (0 without one).
	Changed float64
}

// Detector is the dice detector a [Reader] reads with and keeps the empty
// table of; [tablecam/vision.DiceDetector] is one.
type Detector interface {
	// Read reads the dice in img (8-bit BGR; the caller keeps it) against
	// the reference, setting Reading.Occluded for a hand or an arm when it
	// has one.
	Read(img gocv.Mat) (vision.Reading, error)
	// SetBackground sets the reference of the empty table (the caller
	// keeps img); an empty Mat removes it.
	SetBackground(img gocv.Mat) error
	// HasBackground reports whether the detector has a reference.
	HasBackground() bool
	// EstimateTable turns on or off the detector's estimate of the empty
	// table from each frame, for frames without a reference, and returns
	// the setting it replaces.
	EstimateTable(on bool) (was bool)
}

// Reader reads dice with a [Detector] and keeps the detector's reference
// frame of the empty table up to date by itself, for live use where
// nobody hands it an empty frame:
//
//   - Learning: without a reference, once LearnFrames frames in a row are
//     still (its own [motion.Detector], frame to frame) and the detector finds
//     neither a die nor anything occluding in them, the last one becomes
//     the reference. Dice the detector finds where nothing ever moved
//     since the reader started do not count (see StrictLearn): they are
//     taken into the reference as part of the table, and their spots are
//     watched and repaired should they turn out to be dice taken away.
//   - Refreshing: with a reference, every RefreshFrames still frames in a
//     row in which the detector finds neither a die nor anything occluding,
//     the frame is blended into the reference with RefreshWeight, so slow
//     lighting drift follows the table. Frames with a die or a hand in
//     them are never used, nor are moving frames (a hand passing, dice
//     tumbling).
//   - Dropping: the reference is given up (the detector falls back to the
//     dice's body colours until a new one is learned) when DropChanged of
//     the frame differs from it (the light was switched), when the frame
//     size changes, or after StuckFrames still frames in a row marked
//     occluded (an object put down, or a still hand taken in by mistake).
//
// Without a reference the detector cannot see a hand (it never marks a
// frame occluded); the roll tracker then relies on motion alone. A die
// the detector misses without a reference (a white die on a white table)
// may be taken into the reference; it shows up again once it is moved. A
// reference set by hand ([Reader.SetBackground]) is kept and refreshed
// like a learned one.
//
// It must see the frames in order; frames it is not given (the moving
// frames a roll pipeline skips) simply count as a break in the stillness. It
// does not own the detector (close that yourself) and is not safe for
// concurrent use; nothing else may call the detector's SetBackground while
// it is in use, except through [Reader.SetBackground].
type Reader struct {
	cfg      Config
	det      Detector
	motion   *motion.Detector
	ref      gocv.Mat // the reference, full resolution (when hasRef)
	refSmall gocv.Mat // the reference as the Motion shrinks frames
	diff     gocv.Mat
	hasRef   bool
	// Still frames in a row that were empty (no die, not occluded), and
	// that were occluded.
	emptyRun, stuckRun, ghostRun int
	// Where the picture ever changed since the reader started or was
	// reset, and the last frame's changes.
	everMoved, changes motion.Mask
	// Spots (frame pixels) of things taken into the reference that were
	// read as dice and never moved.
	suspects []image.Rectangle
	// The last reading of cfg.Dice, and the frame it was read from as the
	// Motion shrinks frames (empty: no reading to reuse).
	diceSmall, diceDiff gocv.Mat
	dice                []vision.Die
	stats               Stats
	estimate            bool // det's estimate of the table, given back by Close
	closed              bool
}

// New returns a reader over det with cfg (zero fields take
// the defaults). A reference det already has is used until the reader
// learns its own on the next empty, still table (set references through
// [Reader.SetBackground] to have them checked and refreshed).
// Close the reader when done; det stays the caller's. While the reader
// is open, det without a reference finds dice by their body colours only:
// the table estimated from each frame (see [Detector].EstimateTable) also finds
// uncertain things on a busy table that would hold the learning of the
// empty table up. Close gives det its estimate back.
func New(det Detector, cfg Config) *Reader {
	cfg = cfg.withDefaults()
	estimate := false
	if det != nil {
		estimate = det.EstimateTable(false)
	}
	return &Reader{
		cfg:       cfg,
		det:       det,
		estimate:  estimate,
		motion:    motion.New(cfg.Motion),
		ref:       gocv.NewMat(),
		refSmall:  gocv.NewMat(),
		diff:      gocv.NewMat(),
		diceSmall: gocv.NewMat(),
		diceDiff:  gocv.NewMat(),
		stats:     Stats{LearnedAt: -1},
	}
}

// Config returns the configuration in use, defaults filled in.
func (b *Reader) Config() Config { return b.cfg }

// Stats returns what the reader did so far.
func (b *Reader) Stats() Stats { return b.stats }

// HasBackground reports whether the detector has a reference.
func (b *Reader) HasBackground() bool { return b.det.HasBackground() }

// SetBackground sets the reference by hand (an empty Mat removes it; the
// caller keeps img); the reader then refreshes and drops it like a learned
// one.
func (b *Reader) SetBackground(img gocv.Mat) error {
	if b.closed {
		return errors.New("background: SetBackground after Close")
	}
	if img.Empty() {
		b.drop()
		return nil
	}
	if err := b.det.SetBackground(img); err != nil {
		return err
	}
	img.CopyTo(&b.ref)
	b.hasRef = true
	b.emptyRun, b.stuckRun = 0, 0
	// The reference as the motion detector shrinks frames, for the change check.
	m := motion.New(b.cfg.Motion)
	defer m.Close()
	if _, err := m.Observe(img); err != nil {
		b.drop()
		return fmt.Errorf("background: %w", err)
	}
	last := m.Last()
	last.CopyTo(&b.refSmall)
	return b.share()
}

// Reset drops the reference and forgets the stillness, the motion seen so
// far and the last reading of Config.Dice.
func (b *Reader) Reset() {
	b.drop()
	b.motion.Reset()
	b.everMoved.Clear()
	b.forgetDice()
}

// forgetDice drops cfg.Dice's last reading: the next still frame is read
// anew.
func (b *Reader) forgetDice() {
	b.diceSmall.Close()
	b.diceSmall = gocv.NewMat()
	b.dice = nil
}

// Read reads the dice in img (8-bit BGR; the caller keeps it) and updates
// the reference as described in the [Reader] doc.
func (b *Reader) Read(img gocv.Mat) (vision.Reading, error) {
	if b.closed {
		return vision.Reading{}, errors.New("background: Read after Close")
	}
	s, err := b.motion.Observe(img)
	if err != nil {
		return vision.Reading{}, fmt.Errorf("background: %w", err)
	}
	b.stats.Frames++
	b.motion.Changes(&b.changes)
	b.changes.OrInto(&b.everMoved)
	// After Observe, the Motion's prev holds this frame shrunk and blurred.
	small := b.motion.Last()
	b.stats.Changed = 0
	diffOK := false
	if b.hasRef {
		switch {
		case b.ref.Cols() != img.Cols() || b.ref.Rows() != img.Rows():
			b.stats.DroppedSize++
			b.drop()
		case b.refSmall.Empty() || b.refSmall.Cols() != small.Cols() || b.refSmall.Rows() != small.Rows():
			small.CopyTo(&b.refSmall)
		default:
			gocv.AbsDiff(small, b.refSmall, &b.diff)
			gocv.Threshold(b.diff, &b.diff, changeLevel-1, 255, gocv.ThresholdBinary)
			b.stats.Changed = float64(gocv.CountNonZero(b.diff)) / float64(max(1, small.Cols()*small.Rows()))
			if b.stats.Changed >= b.cfg.DropChanged {
				b.stats.DroppedChanged++
				b.drop()
			} else {
				diffOK = true
			}
		}
	}
	rd, err := b.det.Read(img)
	if err != nil {
		b.emptyRun, b.stuckRun, b.ghostRun = 0, 0, 0
		return rd, err
	}
	still := s.Quiet
	if b.cfg.Dice != nil {
		rd.Dice = nil
		if still && !rd.Occluded {
			if rd.Dice, err = b.readDice(img, small); err != nil {
				b.emptyRun, b.stuckRun, b.ghostRun = 0, 0, 0
				return rd, err
			}
		}
	}
	// With a reference, at a spot where something that never moved was
	// taken into the reference: a die read there is that thing gone (a
	// hole in the reference), not a die, and is left out of the reading;
	// the spot is repaired (copied from the frame) once the table has
	// been still for LearnFrames frames with the spot differing from the
	// reference or read as a die.
	var ghosts []int
	if diffOK {
		// A spot that differs from the reference: what was taken in is
		// gone (or covered).
		sx := float64(small.Cols()) / float64(img.Cols())
		sy := float64(small.Rows()) / float64(img.Rows())
		bounds := image.Rect(0, 0, small.Cols(), small.Rows())
		for k, r := range b.suspects {
			rs := image.Rect(int(float64(r.Min.X)*sx), int(float64(r.Min.Y)*sy),
				int(math.Ceil(float64(r.Max.X)*sx)), int(math.Ceil(float64(r.Max.Y)*sy))).Intersect(bounds)
			if rs.Empty() {
				continue
			}
			reg := b.diff.Region(rs)
			n := gocv.CountNonZero(reg)
			reg.Close()
			if float64(n) > spotChanged*float64(rs.Dx()*rs.Dy()) {
				ghosts = append(ghosts, k)
			}
		}
	}
	if b.hasRef && len(b.suspects) > 0 {
		kept := rd.Dice[:0]
		for _, d := range rd.Dice {
			k := slices.IndexFunc(b.suspects, func(r image.Rectangle) bool { return d.Pos().In(r) })
			if k >= 0 {
				if !slices.Contains(ghosts, k) {
					ghosts = append(ghosts, k)
				}
				continue
			}
			kept = append(kept, d)
		}
		rd.Dice = kept
	}
	if still && len(ghosts) > 0 && !rd.Occluded {
		b.ghostRun++
	} else {
		b.ghostRun = 0
	}
	// Without a reference: dice that never moved since the reader started
	// (seen at rest from the first frame) do not stop the learning, unless
	// StrictLearn is set.
	static := !b.hasRef && !b.cfg.StrictLearn && len(rd.Dice) > 0
	for _, d := range rd.Dice {
		static = static && !b.everMoved.Any(d.Bounds())
	}
	if still && !rd.Occluded && len(ghosts) == 0 && (len(rd.Dice) == 0 || static) {
		b.emptyRun++
	} else {
		b.emptyRun = 0
	}
	if still && rd.Occluded {
		b.stuckRun++
	} else {
		b.stuckRun = 0
	}
	switch {
	case !b.hasRef && b.emptyRun >= b.cfg.LearnFrames:
		if err := b.learn(img, small, 1); err != nil {
			return rd, err
		}
		b.stats.Learned++
		b.stats.LearnedAt = b.stats.Frames - 1
		b.emptyRun = 0
		b.suspects = b.suspects[:0]
		frame := image.Rect(0, 0, img.Cols(), img.Rows())
		for _, d := range rd.Dice {
			r := d.Bounds()
			m := max(r.Dx(), r.Dy()) / 2
			b.suspects = append(b.suspects, r.Inset(-m).Intersect(frame))
		}
		if len(rd.Dice) > 0 {
			b.stats.StaticLearned++
			rd.Dice = nil // now part of the table
		}
	case b.hasRef && b.ghostRun >= b.cfg.LearnFrames:
		b.repair(img, ghosts)
		b.ghostRun = 0
	case b.hasRef && b.emptyRun >= b.cfg.RefreshFrames:
		if err := b.learn(img, small, b.cfg.RefreshWeight); err != nil {
			return rd, err
		}
		b.stats.Refreshed++
		b.emptyRun = 0
	case b.hasRef && b.stuckRun >= b.cfg.StuckFrames:
		b.stats.DroppedStuck++
		b.drop()
	}
	return rd, nil
}

// readDice returns cfg.Dice's reading of img: the last one when small (img
// as the Motion shrinks it) hardly differs from the frame it was read from.
func (b *Reader) readDice(img, small gocv.Mat) ([]vision.Die, error) {
	if !b.diceSmall.Empty() && b.diceSmall.Cols() == small.Cols() && b.diceSmall.Rows() == small.Rows() {
		gocv.AbsDiff(small, b.diceSmall, &b.diceDiff)
		gocv.Threshold(b.diceDiff, &b.diceDiff, changeLevel-1, 255, gocv.ThresholdBinary)
		if float64(gocv.CountNonZero(b.diceDiff)) <= diceReuseChanged*float64(small.Cols()*small.Rows()) {
			b.stats.DiceReused++
			return slices.Clone(b.dice), nil
		}
	}
	dice, err := b.cfg.Dice(img)
	if err != nil {
		b.forgetDice()
		return nil, fmt.Errorf("background: reading the dice: %w", err)
	}
	b.stats.DiceReads++
	small.CopyTo(&b.diceSmall)
	b.dice = slices.Clone(dice)
	return dice, nil
}

// repair copies the suspect spots ks of img into the reference and
// forgets them.
func (b *Reader) repair(img gocv.Mat, ks []int) {
	frame := image.Rect(0, 0, img.Cols(), img.Rows())
	if b.ref.Cols() != img.Cols() || b.ref.Rows() != img.Rows() || b.ref.Type() != img.Type() {
		return
	}
	for _, k := range ks {
		r := b.suspects[k].Intersect(frame)
		if r.Empty() {
			continue
		}
		src := img.Region(r)
		dst := b.ref.Region(r)
		src.CopyTo(&dst)
		src.Close()
		dst.Close()
		b.suspects[k] = image.Rectangle{}
	}
	b.suspects = slices.DeleteFunc(b.suspects, func(r image.Rectangle) bool { return r.Empty() })
	if err := b.det.SetBackground(b.ref); err != nil {
		b.drop()
		return
	}
	b.stats.Repaired++
	_ = b.share() // counted; the dice keep the repaired reference
}

// share hands the reference to cfg.Share. When Share refuses it, the
// other reader's copy is cleared and the failure counted (see
// [Config].Share).
func (b *Reader) share() error {
	if b.cfg.Share == nil {
		return nil
	}
	if err := b.cfg.Share(b.ref); err != nil {
		b.stats.ShareFailed++
		b.unshare()
		return fmt.Errorf("background: sharing the reference: %w", err)
	}
	return nil
}

// unshare hands cfg.Share an empty Mat: the other reader has no reference.
func (b *Reader) unshare() {
	if b.cfg.Share == nil {
		return
	}
	none := gocv.NewMat()
	_ = b.cfg.Share(none) // clearing: nothing to undo on failure
	none.Close()
}

// learn blends img into the reference with weight w (1: replaces it) and
// hands it to the detector; small is img as the Motion shrank it.
func (b *Reader) learn(img, small gocv.Mat, w float64) error {
	if !b.hasRef || w >= 1 || b.ref.Cols() != img.Cols() || b.ref.Rows() != img.Rows() || b.ref.Type() != img.Type() {
		img.CopyTo(&b.ref)
		small.CopyTo(&b.refSmall)
	} else {
		gocv.AddWeighted(b.ref, 1-w, img, w, 0, &b.ref)
		if b.refSmall.Cols() == small.Cols() && b.refSmall.Rows() == small.Rows() {
			gocv.AddWeighted(b.refSmall, 1-w, small, w, 0, &b.refSmall)
		} else {
			small.CopyTo(&b.refSmall)
		}
	}
	if err := b.det.SetBackground(b.ref); err != nil {
		b.drop()
		return fmt.Errorf("background: %w", err)
	}
	b.hasRef = true
	_ = b.share() // counted; the dice keep their reference
	return nil
}

// drop removes the reference.
func (b *Reader) drop() {
	if !b.closed && b.det.HasBackground() {
		none := gocv.NewMat()
		b.det.SetBackground(none)
		none.Close()
	}
	if b.hasRef {
		b.unshare()
	}
	b.hasRef = false
	b.emptyRun, b.stuckRun, b.ghostRun = 0, 0, 0
	b.suspects = b.suspects[:0]
}

// Close releases the reader's Mats (not the detector, which keeps its last
// reference). Closing twice is harmless; Read fails after it.
func (b *Reader) Close() error {
	if b.closed {
		return nil
	}
	if b.hasRef {
		b.unshare()
	}
	b.closed = true
	if b.det != nil {
		b.det.EstimateTable(b.estimate)
	}
	b.motion.Close()
	b.ref.Close()
	b.refSmall.Close()
	b.diff.Close()
	b.diceSmall.Close()
	b.diceDiff.Close()
	return nil
}

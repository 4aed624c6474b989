package rolls

import (
	"cmp"
	"fmt"
	"image"
	"math"
	"slices"

	"tablecam/vision"
	"tablecam/vision/motion"
)

// Defaults of [Config].
const (
	// DefaultVoteExtra is how many still frames beyond SettleFrames the
	// tracker may wait for when the vote is split (VoteWindow =
	// SettleFrames + DefaultVoteExtra).
	DefaultVoteExtra = 2
	// DefaultMatchDistance is the centre distance, in die sizes, within which
	// two readings are the same die.
	DefaultMatchDistance = 0.5
	// DefaultMoveTolerance is how far, in die sizes, a die may drift from
	// where it was first seen in a still run before the run restarts.
	DefaultMoveTolerance = 0.25
	// DefaultFramesToEnd is the number of empty frames after which a roll
	// ends (1 s at 30 fps).
	DefaultFramesToEnd = 30
	// DefaultOverlapDistance is the centre distance, in die sizes, below
	// which two dice of one decision would overlap: one is a double
	// reading.
	DefaultOverlapDistance = 0.6
	// DefaultFaintConfidence is the confidence below which a die the
	// reader is unsure of is faint (rule 10).
	DefaultFaintConfidence = 0.1
	// DefaultLeftShare is the share of a die's Box that must change for
	// the die to count as gone from its place (rule 9).
	DefaultLeftShare = 0.2
)

// Config configures a [Tracker]. Zero fields take the defaults.
type Config struct {
	// SettleFrames is the number of still frames in a row after which a
	// roll is read (config key vision.settle_frames). Default 3.
	SettleFrames int
	// VoteWindow is the most still frames the per-die vote may use: when the
	// vote over SettleFrames frames is split, the tracker waits for more
	// still frames, up to VoteWindow, and then reports split dice as
	// Uncertain. Raised to SettleFrames if lower. Default SettleFrames+2.
	VoteWindow int
	// MatchDistance is the largest centre distance, as a fraction of the die
	// size (the larger side of its Box), at which a die of one reading is
	// the same die as one of another. Default 0.5.
	MatchDistance float64
	// MoveTolerance is how far, as a fraction of the die size, a die may be
	// from where it was first seen in the current still run; beyond that
	// the dice count as moving. Default 0.25.
	MoveTolerance float64
	// FramesToEnd is the number of quiet, unoccluded frames without any
	// die after which the current roll ends. Default 30.
	FramesToEnd int
	// OverlapDistance is the centre distance, as a fraction of the die
	// size, below which two decided dice would overlap, which real dice
	// cannot: the one seen in fewer frames is a double reading of the
	// other and is dropped. Default 0.6 (touching dice are about 0.8
	// apart: the size includes the die's sides).
	OverlapDistance float64
	// LeftShare is the share of a die's Box in which the scene at rest
	// must change ([Observation].Moved) for the die to count as gone from
	// its place: with Moved masks a roll ends only when every die of it
	// did (rule 9). Default 0.2.
	LeftShare float64
	// FaintConfidence is the decided confidence below which a die marked
	// Uncertain is faint: faint dice alone make no roll (rule 10).
	// Default 0.1.
	FaintConfidence float64
}

func (c Config) withDefaults() Config {
	if c.SettleFrames <= 0 {
		c.SettleFrames = motion.DefaultSettleFrames
	}
	if c.VoteWindow <= 0 {
		c.VoteWindow = c.SettleFrames + DefaultVoteExtra
	}
	c.VoteWindow = max(c.VoteWindow, c.SettleFrames)
	if c.MatchDistance <= 0 {
		c.MatchDistance = DefaultMatchDistance
	}
	if c.MoveTolerance <= 0 {
		c.MoveTolerance = DefaultMoveTolerance
	}
	if c.FramesToEnd <= 0 {
		c.FramesToEnd = DefaultFramesToEnd
	}
	if c.OverlapDistance <= 0 {
		c.OverlapDistance = DefaultOverlapDistance
	}
	if c.FaintConfidence <= 0 {
		c.FaintConfidence = DefaultFaintConfidence
	}
	if c.LeftShare <= 0 || c.LeftShare > 1 {
		c.LeftShare = DefaultLeftShare
	}
	return c
}

// Observation is what the [Tracker] learns about one frame.
type Observation struct {
	// Frame is the frame's index ([frame.Frame].Index). Observations must come in
	// frame order.
	Frame int
	// Quiet reports that the frame shows no motion since the previous frame
	// ([motion.Sample].Quiet). The tracker counts quiet frames itself, so
	// pass the per-frame Quiet, not Still.
	Quiet bool
	// Reading is what the dice reader saw. It is only used when Quiet is
	// set, so moving frames need not be read at all.
	Reading vision.Reading
	// Moved, when set, marks where the picture changed with this frame (a
	// [Pipeline] passes [motion.Detector.NetChanges]: where the scene at rest
	// differs from the scene at rest before the last disturbance, so a hand
	// passing over resting dice marks nothing there). The tracker then
	// only accepts dice that arrived where something moved (rule 8); nil
	// on every observation turns the rule off. The tracker does not keep
	// the pointer.
	Moved *motion.Mask
	// Passed, when set, marks where the picture changed since the previous
	// frame, gross (a [Pipeline] passes [motion.Detector.Changes]): on a frame that
	// is not quiet, the path of a hand or of tumbling dice. Where it
	// crosses changes that a decision already passed over without taking
	// a die there (the reader could not read it at rest), those changes
	// are forgotten (rule 8): a die read there only after a hand went over
	// it was not thrown since. nil turns this off. The tracker does not
	// keep the pointer.
	Passed *motion.Mask
}

// Event is something the [Tracker] reports: a [Roll] or a
// [Ended]. Use a type switch.
type Event interface {
	// FrameIndex is the index of the frame the event was decided on.
	FrameIndex() int
	isEvent()
}

// Roll reports the dice of a settled roll, or of a reroll.
type Roll struct {
	// Frame is the index of the frame the roll was decided on: the last
	// frame of the vote, a frame showing the dice at rest. Keep its image
	// for the roll-proof trail.
	Frame int
	// Roll numbers the rolls from 1; a reroll keeps its roll's number.
	Roll int
	// Dice are the dice on the table. Dice untouched since the previous
	// event keep their index and their reading; rerolled dice take the
	// index of a die that was lifted, extra dice come last. Confidence is
	// the vote share times the reader's mean confidence of the winning
	// votes.
	Dice []vision.Die
	// Changed lists the indices in Dice of the dice that are new since the
	// previous event of this roll: all dice for a fresh roll.
	Changed []int
	// Reroll is set when this updates an earlier event of the same roll.
	Reroll bool
	// Uncertain is set when any die in Dice is Uncertain.
	Uncertain bool
	// Votes is the number of still frames the vote used.
	Votes int
}

// FrameIndex returns e.Frame.
func (e Roll) FrameIndex() int { return e.Frame }
func (Roll) isEvent()          {}

// Ended reports that every die left the rolling area: the next throw is
// a fresh roll, not a reroll.
type Ended struct {
	// Frame is the frame on which the roll was found over.
	Frame int
	// Roll is the number of the roll that ended.
	Roll int
}

// FrameIndex returns e.Frame.
func (e Ended) FrameIndex() int { return e.Frame }
func (Ended) isEvent()          {}

// Tracker turns per-frame dice readings into roll events. It is pure
// logic (no images), deterministic, and not safe for concurrent use.
//
// The rules, with S = SettleFrames, W = VoteWindow, k = FramesToEnd and die
// size = the larger side of a die's Box:
//
//  1. Only quiet, unoccluded frames count. A frame that is not Quiet or
//     whose Reading is Occluded ends the current still run; its dice are
//     ignored. So a hand in the picture, or a die held in it, never takes
//     part in a roll.
//  2. In a still run, each die is followed by nearest-centre matching
//     (greedy, within MatchDistance die sizes of its last position). A die
//     farther than MoveTolerance die sizes from where the run first saw it
//     is moving: the run restarts after that frame (as after a moving frame).
//  3. After S frames of the run (the S-th quiet frame after the dice came to
//     rest: latency exactly S frames), the dice are decided by vote over
//     the run's frames, n of them: a followed die counts if it was seen in
//     more than n/2 frames; its face is the one seen most often (ties: the
//     one seen last). A die whose face won no more than n/2 of the n votes,
//     or seen in exactly n/2 frames, is split. If any die is split and n <
//     W, the decision waits for the next still frame; at n = W it is taken,
//     split dice marked Uncertain. A die is also Uncertain when the reader
//     marked at least half of its winning votes Uncertain. Confidence is
//     (winning votes / n) × the winning votes' mean reader confidence.
//  4. A run is decided once; further still frames of the same run emit
//     nothing. A decision that takes nothing (no roll event, and no die
//     of the current roll seen) is not final: the vote starts again over
//     the run's next frames, so dice the reader missed at the settle are
//     read as soon as it reads them (late, but before anything moved).
//  5. With no current roll, a decision with at least one die emits a fresh
//     Roll (new Roll number, Changed = all dice).
//  6. With a current roll, the decided dice are matched to the roll's dice
//     (greedy nearest centres within MatchDistance die sizes). A matched
//     die is untouched: it keeps its index and its reading (a die cannot
//     change face without moving, so a different vote there is a misread;
//     a correction made with [Tracker.Correct] stands), only its
//     position is updated. If no decided die is unmatched (the same scene,
//     or the same scene with some dice lifted off), nothing is emitted; a
//     lifted die stays in the roll until a die lands or the roll ends. If
//     some are unmatched, a Roll with Reroll set is emitted: unmatched
//     dice fill the indices of lifted dice in order, then come last; lifted
//     dice with no replacement are dropped; Changed lists the new dice.
//  7. A roll ends (Ended) after k quiet, unoccluded frames in a row —
//     moving and occluded frames neither count nor break the row — whose
//     reading has no die at all. The next throw is a fresh roll.
//  8. Dice do not appear from nowhere. Two decided dice closer than
//     OverlapDistance die sizes are one die read twice: the one seen in
//     fewer frames is dropped. When observations carry Moved masks, the
//     tracker collects where the picture changed since the last decision
//     that emitted an event or saw the current roll's dice again (or since
//     k quiet frames in a row since the last frame that was not quiet
//     showed no die, with no roll going on);
//     a decided die whose Box touches no changed pixel was not thrown: it
//     is left out of a fresh roll (rule 5) and is not a landed die of a
//     reroll (rule 6) — a die seen at rest since the stream started, or
//     something on the table the reader takes for a die, never makes a
//     roll. Dice of the current roll are matched whether they moved or
//     not. Changes that a decision passed over without taking a die (no
//     die read there while the scene was at rest) are forgotten where a
//     later disturbance (Observation.Passed) goes over them, unless the
//     scene at rest changed there again: a die the reader could read only
//     after a hand passed over it announces no late roll, while dice a
//     hand reached before their still run was decided are kept.
//  9. With Moved masks, a roll ends (rule 7) only once every die of the
//     roll has had evidence of leaving: a Moved mask covering at least
//     LeftShare of its Box since a decision last saw it. Dice the reader
//     merely lost (at rest but not read) do not end the roll.
//  10. A decided die marked Uncertain with a confidence below
//     FaintConfidence is faint. Faint dice alone make neither a fresh
//     roll nor a reroll: when all the dice a decision would add are
//     faint, it is held back like a decision that took nothing (rule 4:
//     the vote starts again, what moved is kept). With a die that is not
//     faint they join the event. A reading that weak is as often a shadow,
//     a misplaced box or the spot a die was taken from as a die.
type Tracker struct {
	cfg Config

	// The current still run.
	runLen  int // voted frames in the run
	tracks  []track
	decided bool

	// The current roll.
	active bool
	rollID int
	roll   []vision.Die // dice of the last event, with lifted dice still in it
	gone   int          // empty quiet frames in a row
	empty  int          // empty quiet frames in a row since the last disturbance

	// Where the picture changed since the last decision (rule 8), and
	// whether any observation said; stale: the part of moved that a
	// decision passed over without taking a die.
	moved    motion.Mask
	stale    motion.Mask
	hasStale bool // stale may mark a cell
	useMoved bool
	// left[j]: die j of roll showed evidence of leaving (rule 9).
	left []bool

	// Scratch space reused across frames.
	pairs []matchPair
	match []int
	used  []bool
}

// track follows one die through a still run.
type track struct {
	anchor image.Point // where the run first saw it
	last   image.Point
	size   float64
	votes  []vision.Die // one per run frame it was seen in, oldest first
}

// NewTracker returns a tracker with cfg (zero fields take the defaults).
func NewTracker(cfg Config) *Tracker {
	return &Tracker{cfg: cfg.withDefaults()}
}

// Config returns the configuration in use, defaults filled in.
func (t *Tracker) Config() Config { return t.cfg }

// Reset forgets the still run, the current roll and where the picture
// changed; roll numbers go on.
func (t *Tracker) Reset() {
	t.breakRun()
	t.moved.Clear()
	t.stale.Clear()
	t.hasStale = false
	t.active, t.roll, t.left, t.gone, t.empty = false, nil, nil, 0, 0
}

// Dice returns a copy of the current roll's dice (including dice lifted
// off since the last event), or nil when no roll is going on.
func (t *Tracker) Dice() []vision.Die {
	if !t.active {
		return nil
	}
	return cloneDice(t.roll)
}

// Correct replaces the reading of die i of the current roll with d's (set,
// face, value, regions, hits, hurt), keeping its position, and marks it
// certain. The correction stands until the die is rerolled.
func (t *Tracker) Correct(i int, d vision.Die) error {
	if !t.active {
		return fmt.Errorf("vision: correct die %d: no roll going on", i)
	}
	if i < 0 || i >= len(t.roll) {
		return fmt.Errorf("vision: correct die %d: the roll has %d dice", i, len(t.roll))
	}
	old := t.roll[i]
	d.Regions = slices.Clone(d.Regions)
	d.Box, d.Center, d.Angle = old.Box, old.Center, old.Angle
	d.Confidence, d.Uncertain = 1, false
	t.roll[i] = d
	return nil
}

// Observe takes the next frame's observation and returns the events it
// causes (usually none). The rules are in the [Tracker] doc.
func (t *Tracker) Observe(o Observation) []Event {
	if o.Passed != nil && !o.Quiet && t.hasStale {
		t.stale.DropPassed(&t.moved, o.Passed)
	}
	if o.Moved != nil {
		t.useMoved = true
		o.Moved.OrInto(&t.moved)
		t.markLeft(o.Moved)
	}
	if !o.Quiet {
		t.empty = 0
	}
	if !o.Quiet || o.Reading.Occluded {
		t.breakRun()
		return nil
	}
	var events []Event
	dice := o.Reading.Dice
	if len(dice) > 0 {
		t.gone, t.empty = 0, 0
	} else {
		t.gone++
		t.empty++
		if t.active && t.gone >= t.cfg.FramesToEnd && t.allLeft() {
			events = append(events, Ended{Frame: o.Frame, Roll: t.rollID})
			t.active, t.roll, t.left = false, nil, nil
		}
	}
	if t.empty >= t.cfg.FramesToEnd && !t.active {
		// An empty table for a while since anything moved: what moved
		// is gone.
		t.moved.Clear()
		t.stale.Clear()
		t.hasStale = false
	}
	if !t.follow(dice) || t.decided || t.runLen < t.cfg.SettleFrames {
		return events
	}
	final := t.runLen >= t.cfg.VoteWindow
	decided, ok := t.vote(final)
	if !ok && !final {
		return events
	}
	t.decided = true
	wasActive := t.active
	ev, ok, held := t.update(decided, o.Frame)
	if ok || (wasActive && len(decided) > 0 && !held) {
		// The changes so far are accounted for: dice were taken, or the
		// roll's dice were seen again. Otherwise (no roll yet and no die
		// that moved) they are kept for the next decision, but only until
		// a disturbance passes over them (rule 8).
		t.moved.Clear()
		t.stale.Clear()
		t.hasStale = false
	} else {
		t.moved.CopyInto(&t.stale)
		t.hasStale = slices.Contains(t.stale.Bits, true)
		t.restartVotes()
	}
	if ok {
		events = append(events, ev)
	}
	return events
}

// restartVotes starts a new vote in the current still run (rule 4): the
// dice keep their reference positions, their votes go.
func (t *Tracker) restartVotes() {
	t.runLen, t.decided = 0, false
	for i := range t.tracks {
		t.tracks[i].votes = t.tracks[i].votes[:0]
	}
}

// breakRun ends the current still run.
func (t *Tracker) breakRun() {
	t.runLen, t.tracks, t.decided = 0, t.tracks[:0], false
}

// follow adds a quiet frame's dice to the run. It returns false when a die
// moved: the run then restarts, with this frame's dice as the reference
// positions but no votes.
func (t *Tracker) follow(dice []vision.Die) bool {
	match := t.matchDice(len(dice), len(t.tracks), func(i, j int) (float64, float64) {
		tr := &t.tracks[j]
		return dist(dice[i].Pos(), tr.last), t.cfg.MatchDistance * (dieSize(dice[i]) + tr.size) / 2
	})
	for i, j := range match {
		if j < 0 {
			continue
		}
		tr := &t.tracks[j]
		if dist(dice[i].Pos(), tr.anchor) > t.cfg.MoveTolerance*(dieSize(dice[i])+tr.size)/2 {
			if dice[i].Uncertain {
				// The frame is quiet: a reading the reader is unsure of
				// that shifts is the reader's jitter (or no die at all),
				// not a die moving; it must not hold the roll up.
				tr.anchor = dice[i].Pos()
				continue
			}
			t.breakRun()
			for _, d := range dice {
				c := d.Pos()
				t.tracks = append(t.tracks, track{anchor: c, last: c, size: dieSize(d)})
			}
			return false
		}
	}
	voting := !t.decided // after the decision only positions matter
	if voting {
		t.runLen++
	}
	for i, j := range match {
		d := dice[i]
		c := d.Pos()
		if j < 0 && !voting {
			continue // a die appearing after the decision waits for the next run
		}
		if j < 0 {
			t.tracks = append(t.tracks, track{anchor: c, size: dieSize(d)})
			j = len(t.tracks) - 1
		}
		tr := &t.tracks[j]
		tr.last = c
		if voting {
			tr.votes = append(tr.votes, d)
		}
	}
	return true
}

// vote decides the dice of the run (rule 3). ok is false when some die is
// split; with final set the split dice are included, marked Uncertain.
func (t *Tracker) vote(final bool) (dice []vision.Die, ok bool) {
	n := t.runLen
	ok = true
	var seen []int // frames each die was seen in
	for ti := range t.tracks {
		votes := t.tracks[ti].votes
		switch seen := len(votes); {
		case 2*seen < n:
			continue
		case 2*seen == n:
			ok = false
			if !final {
				continue
			}
		}
		// The face seen most often; ties go to the face seen last.
		best, bestCount := -1, 0
		for i := len(votes) - 1; i >= 0; i-- {
			c := 0
			for _, v := range votes {
				if sameFace(v, votes[i]) {
					c++
				}
			}
			if c > bestCount {
				best, bestCount = i, c
			}
		}
		var conf float64
		unsure := 0
		for _, v := range votes {
			if sameFace(v, votes[best]) {
				conf += v.Confidence
				if v.Uncertain {
					unsure++
				}
			}
		}
		split := 2*bestCount <= n
		if split {
			ok = false
		}
		d := votes[best]
		d.Regions = slices.Clone(d.Regions)
		d.Confidence = float64(bestCount) / float64(n) * conf / float64(bestCount)
		d.Uncertain = split || 2*unsure >= bestCount
		dice = append(dice, d)
		seen = append(seen, len(votes))
	}
	dice = t.dropOverlaps(dice, seen)
	slices.SortStableFunc(dice, func(a, b vision.Die) int {
		ca, cb := a.Pos(), b.Pos()
		return cmp.Or(cmp.Compare(ca.X, cb.X), cmp.Compare(ca.Y, cb.Y))
	})
	return dice, ok
}

// dropOverlaps keeps, of dice closer than OverlapDistance, the one seen in
// more frames (rule 8).
func (t *Tracker) dropOverlaps(dice []vision.Die, seen []int) []vision.Die {
	order := make([]int, len(dice))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(seen[b], seen[a]) })
	keep := make([]bool, len(dice))
	var kept []vision.Die
	for _, i := range order {
		ok := true
		for _, k := range kept {
			if dist(dice[i].Pos(), k.Pos()) < t.cfg.OverlapDistance*(dieSize(dice[i])+dieSize(k))/2 {
				ok = false
				break
			}
		}
		if ok {
			keep[i] = true
			kept = append(kept, dice[i])
		}
	}
	out := dice[:0]
	for i, d := range dice {
		if keep[i] {
			out = append(out, d)
		}
	}
	return out
}

// arrived reports whether die d lies where the picture changed since the
// last decision (rule 8; always true without Moved masks).
func (t *Tracker) arrived(d vision.Die) bool {
	if !t.useMoved {
		return true
	}
	return t.moved.Any(d.Bounds())
}

// markLeft records which dice of the roll the scene at rest changed under
// (rule 9).
func (t *Tracker) markLeft(moved *motion.Mask) {
	for j, d := range t.roll {
		if !t.left[j] && moved.Share(d.Bounds()) >= t.cfg.LeftShare {
			t.left[j] = true
		}
	}
}

// allLeft reports whether every die of the roll gave evidence of leaving
// (always true without Moved masks).
func (t *Tracker) allLeft() bool {
	return !t.useMoved || !slices.Contains(t.left, false)
}

// bright reports whether d is not faint (rule 10).
func (t *Tracker) bright(d vision.Die) bool {
	return !d.Uncertain || d.Confidence >= t.cfg.FaintConfidence
}

// update compares decided dice with the current roll (rules 5, 6 and 8).
func (t *Tracker) update(dice []vision.Die, frame int) (ev Roll, ok, held bool) {
	if !t.active {
		dice = slices.DeleteFunc(dice, func(d vision.Die) bool { return !t.arrived(d) })
	}
	if len(dice) == 0 {
		return Roll{}, false, false
	}
	if !t.active && !slices.ContainsFunc(dice, t.bright) {
		return Roll{}, false, true
	}
	if !t.active {
		t.active = true
		t.rollID++
		t.roll = dice
		t.left = make([]bool, len(dice))
		changed := make([]int, len(dice))
		for i := range changed {
			changed[i] = i
		}
		return t.event(frame, changed, false), true, false
	}
	old := t.roll
	match := t.matchDice(len(dice), len(old), func(i, j int) (float64, float64) {
		return dist(dice[i].Pos(), old[j].Pos()), t.cfg.MatchDistance * (dieSize(dice[i]) + dieSize(old[j])) / 2
	})
	keptBy := make([]int, len(old)) // old index → new index, or -1
	for j := range keptBy {
		keptBy[j] = -1
	}
	var landed []int // new dice matching no old one, in position order
	for i, j := range match {
		if j < 0 {
			if t.arrived(dice[i]) {
				landed = append(landed, i)
			}
		} else {
			keptBy[j] = i
		}
	}
	moveTo := func(d vision.Die, to vision.Die) vision.Die {
		d.Box, d.Center, d.Angle = to.Box, to.Center, to.Angle
		return d
	}
	held = len(landed) > 0 && !slices.ContainsFunc(landed, func(i int) bool { return t.bright(dice[i]) })
	if len(landed) == 0 || held {
		for j, i := range keptBy {
			if i >= 0 {
				t.roll[j] = moveTo(old[j], dice[i])
				t.left[j] = false
			}
		}
		return Roll{}, false, held
	}
	next := make([]vision.Die, 0, len(dice))
	var changed []int
	for j, i := range keptBy {
		switch {
		case i >= 0:
			next = append(next, moveTo(old[j], dice[i]))
		case len(landed) > 0:
			next = append(next, dice[landed[0]])
			changed = append(changed, len(next)-1)
			landed = landed[1:]
		}
	}
	for _, i := range landed {
		next = append(next, dice[i])
		changed = append(changed, len(next)-1)
	}
	t.roll = next
	t.left = make([]bool, len(next))
	return t.event(frame, changed, true), true, false
}

func (t *Tracker) event(frame int, changed []int, reroll bool) Roll {
	e := Roll{Frame: frame, Roll: t.rollID, Dice: cloneDice(t.roll), Changed: changed, Reroll: reroll, Votes: t.runLen}
	for _, d := range e.Dice {
		e.Uncertain = e.Uncertain || d.Uncertain
	}
	return e
}

// matchPair is a candidate pairing for matchDice.
type matchPair struct {
	i, j int
	d    float64
}

// matchDice pairs items 0..na-1 with items 0..nb-1, nearest first, each at
// most once and only within the limit metric returns with the distance. The
// result, valid until the next call, holds for each i its j or -1.
func (t *Tracker) matchDice(na, nb int, metric func(i, j int) (d, limit float64)) []int {
	t.pairs = t.pairs[:0]
	for i := range na {
		for j := range nb {
			if d, limit := metric(i, j); d <= limit {
				t.pairs = append(t.pairs, matchPair{i, j, d})
			}
		}
	}
	slices.SortFunc(t.pairs, func(a, b matchPair) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j))
	})
	t.match = slices.Grow(t.match[:0], na)[:na]
	for i := range t.match {
		t.match[i] = -1
	}
	t.used = slices.Grow(t.used[:0], nb)[:nb]
	clear(t.used)
	for _, p := range t.pairs {
		if t.match[p.i] >= 0 || t.used[p.j] {
			continue
		}
		t.used[p.j] = true
		t.match[p.i] = p.j
	}
	return t.match
}

// sameFace reports whether a and b read as the same face.
func sameFace(a, b vision.Die) bool { return a.Set == b.Set && a.Face == b.Face }

// dieSize is the larger side of the die's Box (vision.UnknownDieSize if empty).
func dieSize(d vision.Die) float64 {
	if s := max(d.Box.Dx(), d.Box.Dy()); s > 0 {
		return float64(s)
	}
	return vision.UnknownDieSize
}

func dist(a, b image.Point) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}

// cloneDice copies dice deeply enough that the caller may keep them.
func cloneDice(dice []vision.Die) []vision.Die {
	out := slices.Clone(dice)
	for i := range out {
		out[i].Regions = slices.Clone(out[i].Regions)
	}
	return out
}

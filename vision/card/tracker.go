package card

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Defaults of [TrackerConfig].
const (
	// DefaultCardStableFrames is how many frames a card must be held
	// steadily in view before it counts as shown (about a third of a
	// second at 30 fps).
	DefaultCardStableFrames = 8
	// DefaultCardGoneFrames is how many frames a card must be out of view
	// before showing it again counts as a new showing (half a second).
	DefaultCardGoneFrames = 15
	// DefaultCardMaxGap is how many frames in a row a card may be missed
	// (a reflection, a hand passing) without breaking a steady run.
	DefaultCardMaxGap = 2
	// DefaultCardMoveTolerance is how far, as a fraction of the card's
	// size, the card may drift from where its steady run began.
	DefaultCardMoveTolerance = 0.25
	// DefaultCardMatchDistance is how far, as a fraction of the card's
	// size, a reading may be from a card's last place to be that card.
	DefaultCardMatchDistance = 0.75
)

// TrackerConfig configures a [Tracker]. Zero fields take the
// defaults.
type TrackerConfig struct {
	// StableFrames is how many frames a card must be seen, steadily, before
	// a Shown is emitted. Default 8.
	StableFrames int
	// GoneFrames is how many frames in a row a card must be unseen before
	// it has left the view; shown again after that, it emits again.
	// Default 15.
	GoneFrames int
	// MaxGap is how many frames in a row a card may be unseen within a
	// steady run (the run goes on; those frames do not count). Raised to
	// at most GoneFrames-1. Default 2.
	MaxGap int
	// MoveTolerance is how far the card's centre may drift from where the
	// run began, as a fraction of the card's size (the larger side of its
	// box); farther, the run starts again. Default 0.25.
	MoveTolerance float64
	// MatchDistance is the largest centre distance, as a fraction of the
	// card's size, at which a reading continues a followed card of the
	// same id. Default 0.75.
	MatchDistance float64
	// Unknown makes unrecognised cards (id Unknown) emit Shown
	// too; otherwise they are followed but never reported.
	Unknown bool
}

func (c TrackerConfig) withDefaults() TrackerConfig {
	if c.StableFrames <= 0 {
		c.StableFrames = DefaultCardStableFrames
	}
	if c.GoneFrames <= 0 {
		c.GoneFrames = DefaultCardGoneFrames
	}
	if c.MaxGap <= 0 {
		c.MaxGap = DefaultCardMaxGap
	}
	c.MaxGap = min(c.MaxGap, c.GoneFrames-1)
	if c.MoveTolerance <= 0 {
		c.MoveTolerance = DefaultCardMoveTolerance
	}
	if c.MatchDistance <= 0 {
		c.MatchDistance = DefaultCardMatchDistance
	}
	return c
}

// Shown reports that a card was held steadily in view.
type Shown struct {
	// Frame is the index of the frame the card was read from when it was
	// decided: the last frame of its steady run. Keep that frame's image
	// as the proof of the reading.
	Frame int
	// FirstFrame is the first frame of the steady run.
	FirstFrame int
	// Card is the reading from Frame; its Confidence is the mean over the
	// run.
	Card Reading
	// Showing counts the showings of this card id, from 1.
	Showing int
}

// Tracker turns per-frame card readings into Shown events: a card
// held steadily in view for StableFrames frames is reported once; it is not
// reported again while it stays in view (moving it around, losing it for a
// few frames); once it has been out of view for GoneFrames frames, showing
// it again reports it again. Cards are followed by id and place, so two
// cards in view are two cards. The tracker is pure logic (no images),
// deterministic, and not safe for concurrent use.
type Tracker struct {
	cfg      TrackerConfig
	tracks   []*track
	showings map[string]int
	last     int
	started  bool
}

// track follows one card in view.
type track struct {
	id        string
	last      image.Point // centre when last seen
	size      float64
	lastFrame int // last frame it was seen on

	// The steady run.
	anchor   image.Point
	runStart int
	runLen   int // frames seen in the run
	confSum  float64
	reported bool // shown once while in view
}

// NewTracker returns a tracker with cfg (zero fields take the
// defaults).
func NewTracker(cfg TrackerConfig) *Tracker {
	return &Tracker{cfg: cfg.withDefaults(), showings: map[string]int{}}
}

// Config returns the configuration in use, defaults filled in.
func (t *Tracker) Config() TrackerConfig { return t.cfg }

// Reset forgets every card in view; showing counts go on.
func (t *Tracker) Reset() {
	t.tracks = nil
	t.started = false
}

// InView returns the ids of the cards currently followed (seen within the
// last GoneFrames frames), each once, in the order they were first seen.
func (t *Tracker) InView() []string {
	var out []string
	seen := map[string]bool{}
	for _, tr := range t.tracks {
		if !seen[tr.id] {
			seen[tr.id] = true
			out = append(out, tr.id)
		}
	}
	return out
}

// Observe takes the readings of frame (a frame index, increasing from call
// to call; frames not passed count as frames without any card) and returns
// the cards shown as of this frame (usually none).
func (t *Tracker) Observe(frame int, cards []Reading) ([]Shown, error) {
	if t.started && frame <= t.last {
		return nil, fmt.Errorf("card: card tracker: frame %d after frame %d", frame, t.last)
	}
	t.started, t.last = true, frame
	// Match readings to followed cards: same id, nearest first, within
	// MatchDistance card sizes of the card's last place.
	type pair struct {
		r, k int
		d    float64
	}
	var pairs []pair
	for ri, c := range cards {
		ctr := boxCentre(c.Box)
		for k, tr := range t.tracks {
			if tr.id != c.ID {
				continue
			}
			size := math.Max(tr.size, boxSize(c.Box))
			d := ptDist(ctr, tr.last)
			if d <= t.cfg.MatchDistance*size {
				pairs = append(pairs, pair{ri, k, d})
			}
		}
	}
	for i := 1; i < len(pairs); i++ {
		for j := i; j > 0 && pairs[j].d < pairs[j-1].d; j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	usedR := make([]bool, len(cards))
	usedK := make([]bool, len(t.tracks))
	var events []Shown
	see := func(tr *track, c Reading) {
		ctr := boxCentre(c.Box)
		gap := frame - tr.lastFrame - 1
		moved := ptDist(ctr, tr.anchor) > t.cfg.MoveTolerance*math.Max(tr.size, boxSize(c.Box))
		if tr.runLen == 0 || gap > t.cfg.MaxGap || moved {
			tr.anchor, tr.runStart, tr.runLen, tr.confSum = ctr, frame, 0, 0
		}
		tr.runLen++
		tr.confSum += c.Confidence
		tr.last, tr.lastFrame = ctr, frame
		tr.size = boxSize(c.Box)
		if tr.reported || tr.runLen < t.cfg.StableFrames {
			return
		}
		tr.reported = true
		if tr.id == Unknown && !t.cfg.Unknown {
			return
		}
		t.showings[tr.id]++
		shown := c
		shown.Confidence = tr.confSum / float64(tr.runLen)
		events = append(events, Shown{Frame: frame, FirstFrame: tr.runStart, Card: shown, Showing: t.showings[tr.id]})
	}
	for _, p := range pairs {
		if usedR[p.r] || usedK[p.k] {
			continue
		}
		usedR[p.r], usedK[p.k] = true, true
		see(t.tracks[p.k], cards[p.r])
	}
	// New cards.
	for ri, c := range cards {
		if usedR[ri] {
			continue
		}
		tr := &track{id: c.ID, size: boxSize(c.Box), lastFrame: frame - 1}
		t.tracks = append(t.tracks, tr)
		see(tr, c)
	}
	// Cards out of view for GoneFrames frames have left.
	kept := t.tracks[:0]
	for _, tr := range t.tracks {
		if frame-tr.lastFrame < t.cfg.GoneFrames {
			kept = append(kept, tr)
		}
	}
	for i := len(kept); i < len(t.tracks); i++ {
		t.tracks[i] = nil
	}
	t.tracks = kept
	return events, nil
}

func boxCentre(b image.Rectangle) image.Point {
	return image.Pt((b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2)
}

func boxSize(b image.Rectangle) float64 {
	return math.Max(1, float64(max(b.Dx(), b.Dy())))
}

func ptDist(a, b image.Point) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}

// Watcher reads the cards in each frame and reports the ones shown: a
// [Reader] feeding a [Tracker]. It is what a live loop calls once
// per frame; not safe for concurrent use.
type Watcher struct {
	Reader  *Reader
	Tracker *Tracker
	// last holds the cards read in the frame last observed.
	last []Reading
}

// NewWatcher returns a watcher reading with r and tracking with cfg.
func NewWatcher(r *Reader, cfg TrackerConfig) *Watcher {
	return &Watcher{Reader: r, Tracker: NewTracker(cfg)}
}

// Observe reads frame (its index and image) and returns the cards shown as
// of it.
func (w *Watcher) Observe(frame int, img gocv.Mat) ([]Shown, error) {
	cards, err := w.Reader.ReadCards(img)
	w.last = cards
	if err != nil {
		return nil, err
	}
	return w.Tracker.Observe(frame, cards)
}

// InView returns the cards read in the frame last observed (for drawing
// them on a preview).
func (w *Watcher) InView() []Reading { return w.last }

// Shown is Observe returning only the content ids of the cards shown.
func (w *Watcher) Shown(frame int, img gocv.Mat) ([]string, error) {
	evs, err := w.Observe(frame, img)
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.Card.ID
	}
	return ids, nil
}

package rolls

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"tablecam/vision"
	"tablecam/vision/motion"
)

// rd returns a d6 die showing face at (x, y), 40 px wide, as a reader would.
func rd(face string, x, y int) vision.Die {
	return vision.Die{Set: "d6", Face: face, Center: image.Pt(x, y), Box: image.Rect(x-20, y-20, x+20, y+20), Confidence: 0.9}
}

// rollScript feeds a Tracker frame by frame and collects its events.
type rollScript struct {
	t      *testing.T
	tr     *Tracker
	frame  int
	events []Event
}

func newRollScript(t *testing.T, cfg Config) *rollScript {
	return &rollScript{t: t, tr: NewTracker(cfg)}
}

func (s *rollScript) feed(n int, quiet, occluded bool, dice ...vision.Die) {
	for range n {
		evs := s.tr.Observe(Observation{Frame: s.frame, Quiet: quiet, Reading: vision.Reading{Dice: slices.Clone(dice), Occluded: occluded}})
		for _, e := range evs {
			if e.FrameIndex() != s.frame {
				s.t.Fatalf("event %+v carries frame %d, fed frame %d", e, e.FrameIndex(), s.frame)
			}
		}
		s.events = append(s.events, evs...)
		s.frame++
	}
}

// moving feeds n frames with motion (the dice may be anywhere).
func (s *rollScript) moving(n int, dice ...vision.Die) { s.feed(n, false, false, dice...) }

// hand feeds n frames with a hand resting in the area.
func (s *rollScript) hand(n int, dice ...vision.Die) { s.feed(n, true, true, dice...) }

// still feeds n quiet frames without a hand.
func (s *rollScript) still(n int, dice ...vision.Die) { s.feed(n, true, false, dice...) }

// flicker feeds one quiet frame per reading.
func (s *rollScript) flicker(readings ...[]vision.Die) {
	for _, dice := range readings {
		s.still(1, dice...)
	}
}

// take returns the events collected since the last take.
func (s *rollScript) take() []Event {
	evs := s.events
	s.events = nil
	return evs
}

// throw feeds a throw: the hand holding dice, then tumbling dice, then the
// frame in which they come to rest (still moving relative to the one
// before). It returns the index of that rest frame.
func (s *rollScript) throw(rest ...vision.Die) int {
	s.hand(3, rd("1", 50, 50))
	for i := range 6 {
		var tumbling []vision.Die
		for j, d := range rest {
			tumbling = append(tumbling, rd(fmt.Sprint(1+(i+j)%6), d.Center.X-60+10*i, d.Center.Y+40-7*i))
		}
		s.moving(1, tumbling...)
	}
	stop := s.frame
	s.moving(1, rest...)
	return stop
}

func faces(dice []vision.Die) string {
	var out []string
	for _, d := range dice {
		out = append(out, d.Face)
	}
	return fmt.Sprint(out)
}

func oneRoll(t *testing.T, evs []Event) Roll {
	t.Helper()
	if len(evs) != 1 {
		t.Fatalf("got %d events %+v, want one Roll", len(evs), evs)
	}
	e, ok := evs[0].(Roll)
	if !ok {
		t.Fatalf("got %T %+v, want a Roll", evs[0], evs[0])
	}
	return e
}

var threeDice = []vision.Die{rd("2", 300, 200), rd("5", 420, 260), rd("3", 560, 180)}

func TestRollFirstRollExactlyOnceAfterSettleFrames(t *testing.T) {
	for _, settle := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint("settle", settle), func(t *testing.T) {
			s := newRollScript(t, Config{SettleFrames: settle})
			s.moving(5)
			stop := s.throw(threeDice...)
			s.still(settle-1, threeDice...)
			if evs := s.take(); len(evs) != 0 {
				t.Fatalf("events before %d still frames: %+v", settle, evs)
			}
			s.still(1, threeDice...)
			e := oneRoll(t, s.take())
			if e.Frame != stop+settle {
				t.Errorf("roll at frame %d, want %d (dice at rest from %d)", e.Frame, stop+settle, stop)
			}
			if faces(e.Dice) != "[2 5 3]" || !slices.Equal(e.Changed, []int{0, 1, 2}) || e.Reroll || e.Uncertain || e.Roll != 1 || e.Votes != settle {
				t.Errorf("roll %+v", e)
			}
			for _, d := range e.Dice {
				if math.Abs(d.Confidence-0.9) > 1e-9 || d.Uncertain {
					t.Errorf("die %+v: want confidence 0.9, certain", d)
				}
			}
			s.still(200, threeDice...)
			if evs := s.take(); len(evs) != 0 {
				t.Errorf("the same settled scene emitted again: %+v", evs)
			}
		})
	}
}

func TestRollDiceOrderedByPositionAndCopied(t *testing.T) {
	s := newRollScript(t, Config{})
	dice := []vision.Die{rd("4", 500, 100), rd("6", 100, 300), rd("1", 300, 50)}
	dice[0].Regions = []string{"head"}
	s.throw(dice...)
	s.still(3, dice...)
	e := oneRoll(t, s.take())
	if faces(e.Dice) != "[6 1 4]" {
		t.Errorf("dice %s, want left to right [6 1 4]", faces(e.Dice))
	}
	e.Dice[2].Regions[0] = "changed"
	e.Dice[0].Face = "changed"
	if got := s.tr.Dice(); got[2].Regions[0] != "head" || got[0].Face != "6" {
		t.Errorf("the event shares memory with the tracker: %+v", got)
	}
}

func TestRollNeverWhileOccluded(t *testing.T) {
	s := newRollScript(t, Config{})
	s.throw(threeDice...)
	// The hand stays over the settled dice, still: no roll, however long.
	s.hand(100, threeDice...)
	// Moving hand, dice visible.
	s.moving(10, threeDice...)
	s.hand(1, threeDice...)
	s.still(2, threeDice...) // only 2 quiet frames since the hand
	s.hand(1, threeDice...)
	s.still(2, threeDice...)
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("events with a hand in the picture: %+v", evs)
	}
	// The hand leaves: the frame it leaves in moves, then 3 still frames.
	stop := s.frame
	s.moving(1, threeDice...)
	s.still(3, threeDice...)
	if e := oneRoll(t, s.take()); e.Frame != stop+3 {
		t.Errorf("roll at frame %d, want %d", e.Frame, stop+3)
	}
}

func TestRollHeldDieNeverEmitted(t *testing.T) {
	two := threeDice[:2]
	held := rd("6", 700, 300)

	t.Run("seen only with the hand", func(t *testing.T) {
		s := newRollScript(t, Config{})
		stop := s.throw(two...)
		s.hand(40, append(slices.Clone(two), held)...) // shown to the camera, hand still
		s.moving(2, append(slices.Clone(two), held)...)
		s.moving(1, two...) // hand gone with the die
		stop = s.frame - 1
		s.still(10, two...)
		e := oneRoll(t, s.take())
		if len(e.Dice) != 2 || faces(e.Dice) != "[2 5]" || e.Frame != stop+3 {
			t.Errorf("roll %+v, want the two thrown dice at frame %d", e, stop+3)
		}
	})
	t.Run("moving in quiet frames", func(t *testing.T) {
		// The reader and the motion check both missed the hand, but the die
		// it holds moves: slowly (matched, drifting) or fast (never matched).
		for _, step := range []int{6, 15, 35} {
			s := newRollScript(t, Config{})
			for i := range 60 {
				x := 100 + step*i%600
				s.still(1, rd("6", x, 300+(i%3)))
			}
			if evs := s.take(); len(evs) != 0 {
				t.Errorf("step %d px: a moving held die was emitted: %+v", step, evs)
			}
		}
	})
	t.Run("held beside settled dice", func(t *testing.T) {
		s := newRollScript(t, Config{})
		s.throw(two...)
		for i := range 30 {
			s.still(1, append(slices.Clone(two), rd("6", 700+9*i, 300))...)
		}
		if evs := s.take(); len(evs) != 0 {
			t.Errorf("a held die moving beside the dice made a roll: %+v", evs)
		}
	})
}

func TestRollRerollOneDieKeepsTheOthers(t *testing.T) {
	s := newRollScript(t, Config{})
	s.throw(threeDice...)
	s.still(5, threeDice...)
	first := oneRoll(t, s.take())

	// The middle die is picked up: the other two lie still meanwhile.
	rest := []vision.Die{threeDice[0], threeDice[2]}
	s.hand(5, threeDice...)
	s.moving(4, rest...)
	s.still(20, rest...)
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("lifting a die emitted %+v", evs)
	}
	// ... and thrown: it lands elsewhere, showing 6.
	rerolled := rd("6", 380, 400)
	now := []vision.Die{threeDice[0], rerolled, threeDice[2]}
	stop := s.throw(now...)
	s.still(10, now...)
	e := oneRoll(t, s.take())
	if !e.Reroll || e.Roll != first.Roll || !slices.Equal(e.Changed, []int{1}) || e.Frame != stop+3 {
		t.Errorf("reroll %+v, want Reroll of roll %d, Changed [1], frame %d", e, first.Roll, stop+3)
	}
	if faces(e.Dice) != "[2 6 3]" || e.Dice[1].Center != rerolled.Center || e.Dice[0].Center != threeDice[0].Center {
		t.Errorf("dice %+v", e.Dice)
	}

	// An extra die joining (the assist die) is added at the end.
	assist := vision.Die{Set: "assist", Face: "hit", Center: image.Pt(200, 420), Box: image.Rect(180, 400, 220, 440), Confidence: 0.8}
	now = append(now, assist)
	s.throw(now...)
	s.still(3, now...)
	e = oneRoll(t, s.take())
	if !e.Reroll || !slices.Equal(e.Changed, []int{3}) || len(e.Dice) != 4 || e.Dice[3].Set != "assist" {
		t.Errorf("assist die: %+v", e)
	}

	// Two dice picked up, only one thrown back: the other is dropped.
	now2 := []vision.Die{now[0], rd("1", 620, 420), now[3]}
	s.hand(4, now...)
	s.throw(now2...)
	s.still(3, now2...)
	e = oneRoll(t, s.take())
	if !slices.Equal(e.Changed, []int{1}) || faces(e.Dice) != "[2 1 hit]" {
		t.Errorf("two lifted, one back: %+v", e)
	}
}

func TestRollEndsWhenDiceLeave(t *testing.T) {
	s := newRollScript(t, Config{FramesToEnd: 10})
	s.throw(threeDice...)
	s.still(3, threeDice...)
	oneRoll(t, s.take())

	// Scooped up; the hand goes and comes back (occluded and moving frames
	// neither count nor break the row of empty frames).
	s.hand(3, threeDice...)
	s.moving(3)
	s.still(6)
	s.hand(20)
	s.moving(2)
	s.still(3)
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("ended early: %+v", evs)
	}
	end := s.frame
	s.still(1)
	evs := s.take()
	if len(evs) != 1 {
		t.Fatalf("events %+v, want Ended", evs)
	}
	if e, ok := evs[0].(Ended); !ok || e.Frame != end || e.Roll != 1 {
		t.Fatalf("event %+v, want Ended of roll 1 at frame %d", evs[0], end)
	}
	s.still(50)
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("more events on the empty table: %+v", evs)
	}
	// The next throw is a fresh roll, even if it lands the same.
	s.throw(threeDice...)
	s.still(3, threeDice...)
	e := oneRoll(t, s.take())
	if e.Reroll || e.Roll != 2 || !slices.Equal(e.Changed, []int{0, 1, 2}) {
		t.Errorf("after the end: %+v, want fresh roll 2", e)
	}

	// Dice gone for fewer frames than FramesToEnd: a reroll of all of them.
	s.moving(3)
	s.still(5)
	again := []vision.Die{rd("1", 100, 100), rd("1", 200, 100), rd("1", 300, 100)}
	s.throw(again...)
	s.still(3, again...)
	e = oneRoll(t, s.take())
	if !e.Reroll || e.Roll != 2 || !slices.Equal(e.Changed, []int{0, 1, 2}) {
		t.Errorf("quick reroll of all: %+v", e)
	}
}

func TestRollMajorityVote(t *testing.T) {
	a, b := rd("2", 300, 200), rd("5", 420, 260)
	flip := func(d vision.Die, face string) vision.Die { d.Face = face; return d }

	t.Run("flicker resolved", func(t *testing.T) {
		s := newRollScript(t, Config{})
		stop := s.throw(a, b)
		s.flicker([]vision.Die{a, b}, []vision.Die{a, flip(b, "6")}, []vision.Die{a, b})
		e := oneRoll(t, s.take())
		if faces(e.Dice) != "[2 5]" || e.Uncertain || e.Frame != stop+3 {
			t.Errorf("roll %+v, want [2 5] certain at %d", e, stop+3)
		}
		if got := e.Dice[1].Confidence; math.Abs(got-0.9*2/3) > 1e-9 {
			t.Errorf("confidence %v, want vote share 2/3 × 0.9", got)
		}
	})
	t.Run("split waits, then resolves", func(t *testing.T) {
		s := newRollScript(t, Config{})
		stop := s.throw(a, b)
		s.flicker([]vision.Die{a, b}, []vision.Die{a, flip(b, "6")}, []vision.Die{a, flip(b, "1")}, []vision.Die{a, b})
		if evs := s.take(); len(evs) != 0 {
			t.Fatalf("split vote emitted early: %+v", evs)
		}
		s.flicker([]vision.Die{a, b})
		e := oneRoll(t, s.take())
		if faces(e.Dice) != "[2 5]" || e.Uncertain || e.Frame != stop+5 || e.Votes != 5 {
			t.Errorf("roll %+v, want [2 5] certain at %d after 5 votes", e, stop+5)
		}
	})
	t.Run("split to the end is uncertain", func(t *testing.T) {
		s := newRollScript(t, Config{})
		stop := s.throw(a, b)
		s.flicker([]vision.Die{a, b}, []vision.Die{a, flip(b, "6")}, []vision.Die{a, flip(b, "1")}, []vision.Die{a, flip(b, "6")}, []vision.Die{a, b})
		e := oneRoll(t, s.take())
		if !e.Uncertain || e.Dice[0].Uncertain || !e.Dice[1].Uncertain || e.Frame != stop+5 {
			t.Errorf("roll %+v, want die 1 uncertain at %d", e, stop+5)
		}
		if got := e.Dice[1].Face; got != "5" && got != "6" {
			t.Errorf("split die reads %s, want one of the leaders", got)
		}
		if got := e.Dice[1].Confidence; math.Abs(got-0.9*2/5) > 1e-9 {
			t.Errorf("confidence %v, want 2/5 × 0.9", got)
		}
	})
	t.Run("missed and spurious dice", func(t *testing.T) {
		s := newRollScript(t, Config{})
		stop := s.throw(a, b)
		glint := rd("3", 700, 50)
		s.flicker([]vision.Die{a, b}, []vision.Die{b, glint}, []vision.Die{a, b})
		e := oneRoll(t, s.take())
		if faces(e.Dice) != "[2 5]" || e.Uncertain || e.Frame != stop+3 {
			t.Errorf("roll %+v, want [2 5] (a missed once, the glint dropped)", e)
		}
	})
	t.Run("reader uncertain", func(t *testing.T) {
		s := newRollScript(t, Config{})
		s.throw(a, b)
		ua := a
		ua.Uncertain = true
		s.flicker([]vision.Die{ua, b}, []vision.Die{ua, b}, []vision.Die{a, b})
		e := oneRoll(t, s.take())
		if !e.Dice[0].Uncertain || e.Dice[1].Uncertain || !e.Uncertain {
			t.Errorf("roll %+v, want die 0 uncertain", e)
		}
	})
}

func TestRollNoDuplicateWhenHandLeavesDiceUntouched(t *testing.T) {
	s := newRollScript(t, Config{})
	s.throw(threeDice...)
	s.still(3, threeDice...)
	first := oneRoll(t, s.take())

	jitter := func(dx, dy int) []vision.Die {
		out := slices.Clone(threeDice)
		for i := range out {
			out[i].Center = out[i].Center.Add(image.Pt(dx, dy))
			out[i].Box = out[i].Box.Add(image.Pt(dx, dy))
		}
		return out
	}
	for round := range 5 {
		// A hand reaches in (covering a die), rests, and leaves.
		s.moving(4, threeDice[0], threeDice[2])
		s.hand(10, threeDice[0])
		s.moving(3, threeDice...)
		// The dice read with a pixel or two of jitter, and the middle die is
		// once misread: none of that is a new roll.
		misread := jitter(round%3-1, 1)
		misread[1].Face = "6"
		s.flicker(jitter(1, 0), misread, jitter(0, -1))
		s.still(30, jitter(round%2, 0)...)
		// A lone frame of sensor noise breaks the still run.
		s.moving(1, threeDice...)
		s.still(10, threeDice...)
	}
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("the untouched scene emitted again: %+v", evs)
	}
	if got := s.tr.Dice(); faces(got) != faces(first.Dice) {
		t.Errorf("current dice %s, want %s", faces(got), faces(first.Dice))
	}
}

func TestRollCorrectionStandsUntilRerolled(t *testing.T) {
	s := newRollScript(t, Config{})
	if err := s.tr.Correct(0, rd("4", 0, 0)); err == nil {
		t.Error("Correct with no roll: no error")
	}
	s.throw(threeDice...)
	s.still(3, threeDice...)
	oneRoll(t, s.take())
	if err := s.tr.Correct(3, rd("4", 0, 0)); err == nil {
		t.Error("Correct of die 3 of 3: no error")
	}
	if err := s.tr.Correct(0, rd("4", 0, 0)); err != nil {
		t.Fatal(err)
	}
	if got := s.tr.Dice()[0]; got.Face != "4" || got.Center != threeDice[0].Center || got.Confidence != 1 {
		t.Errorf("corrected die %+v", got)
	}
	// The hand passes; the reader still reads 2 for die 0: the correction stands.
	s.moving(5)
	s.still(5, threeDice...)
	// Die 2 is rerolled: the event carries the correction.
	now := []vision.Die{threeDice[0], threeDice[1], rd("1", 600, 400)}
	s.throw(now...)
	s.still(3, now...)
	e := oneRoll(t, s.take())
	if faces(e.Dice) != "[4 5 1]" || !slices.Equal(e.Changed, []int{2}) {
		t.Errorf("reroll after correction: %+v", e)
	}
}

func TestRollConfigDefaults(t *testing.T) {
	got := NewTracker(Config{}).Config()
	want := Config{SettleFrames: 3, VoteWindow: 5, MatchDistance: 0.5, MoveTolerance: 0.25, FramesToEnd: 30, OverlapDistance: 0.6, LeftShare: 0.2, FaintConfidence: 0.1}
	if got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	if got := NewTracker(Config{SettleFrames: 4, VoteWindow: 2}).Config().VoteWindow; got != 4 {
		t.Errorf("VoteWindow below SettleFrames: %d, want 4", got)
	}
}

func TestRollResetForgetsTheRoll(t *testing.T) {
	s := newRollScript(t, Config{})
	s.throw(threeDice...)
	s.still(3, threeDice...)
	oneRoll(t, s.take())
	s.tr.Reset()
	if s.tr.Dice() != nil {
		t.Error("Dice after Reset")
	}
	s.moving(1, threeDice...)
	s.still(3, threeDice...)
	if e := oneRoll(t, s.take()); e.Reroll || e.Roll != 2 {
		t.Errorf("after Reset: %+v, want fresh roll 2", e)
	}
}

// BenchmarkRollTrackerObserve measures one Observe call in a repeating game
// of throws, hands, rerolls and still frames with three dice.
func BenchmarkRollTrackerObserve(b *testing.B) {
	var script []Observation
	add := func(n int, quiet, occluded bool, dice ...vision.Die) {
		for range n {
			script = append(script, Observation{Quiet: quiet, Reading: vision.Reading{Dice: dice, Occluded: occluded}})
		}
	}
	reroll := []vision.Die{threeDice[0], rd("6", 380, 400), threeDice[2]}
	add(10, true, true, rd("1", 50, 50))
	add(8, false, false, threeDice...)
	add(30, true, false, threeDice...)
	add(5, true, true, threeDice...)
	add(8, false, false, reroll...)
	add(30, true, false, reroll...)
	add(8, false, false)
	add(40, true, false)
	tr := NewTracker(Config{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		o := script[i%len(script)]
		o.Frame = i
		tr.Observe(o)
	}
}

func TestRollDoubleReadingIsOneDie(t *testing.T) {
	s := newRollScript(t, Config{})
	a, b := rd("2", 500, 300), rd("5", 700, 300)
	twin := rd("4", 510, 306) // the same die read twice, a few pixels off
	s.moving(5)
	s.flicker([]vision.Die{a, twin, b}, []vision.Die{a, b}, []vision.Die{a, twin, b})
	evs := s.take()
	if len(evs) != 1 {
		t.Fatalf("events %+v, want one roll", evs)
	}
	if e := evs[0].(Roll); faces(e.Dice) != "[2 5]" {
		t.Errorf("roll %v, want [2 5]: the double reading must go", faces(e.Dice))
	}
	// Touching dice (a die's size apart) are two dice.
	s = newRollScript(t, Config{})
	s.moving(5)
	s.still(3, a, rd("6", 540, 300))
	if evs := s.take(); len(evs) != 1 || len(evs[0].(Roll).Dice) != 2 {
		t.Errorf("touching dice: %+v, want one roll of two dice", evs)
	}
}

// movedMask returns a 1280×720 motion mask (160×90 cells) changed inside
// the given frame rectangles.
func movedMask(rs ...image.Rectangle) *motion.Mask {
	m := &motion.Mask{ROI: image.Rect(0, 0, 1280, 720), W: 160, H: 90, Bits: make([]bool, 160*90)}
	for _, r := range rs {
		for y := r.Min.Y / 8; y < (r.Max.Y+7)/8 && y < 90; y++ {
			for x := r.Min.X / 8; x < (r.Max.X+7)/8 && x < 160; x++ {
				m.Bits[y*160+x] = true
			}
		}
	}
	return m
}

func TestRollDiceMustArriveWhereSomethingMoved(t *testing.T) {
	tr := NewTracker(Config{})
	f := 0
	var events []Event
	feed := func(n int, quiet bool, moved *motion.Mask, dice ...vision.Die) {
		for range n {
			if moved == nil {
				moved = movedMask()
			}
			events = append(events, tr.Observe(Observation{Frame: f, Quiet: quiet, Moved: moved, Reading: vision.Reading{Dice: slices.Clone(dice)}})...)
			f++
		}
	}
	take := func() []Event { e := events; events = nil; return e }
	ghost := rd("1", 100, 100) // something the reader takes for a die
	// At rest since the stream started: no roll.
	feed(20, true, nil, ghost)
	if evs := take(); len(evs) != 0 {
		t.Fatalf("a die that never moved made %+v", evs)
	}
	// A throw lands two dice: the roll holds them, not the ghost.
	feed(6, false, movedMask(image.Rect(300, 200, 800, 500)))
	feed(4, true, nil, ghost, rd("3", 500, 300), rd("4", 700, 400))
	evs := take()
	if len(evs) != 1 || faces(evs[0].(Roll).Dice) != "[3 4]" {
		t.Fatalf("throw: %+v, want one roll [3 4]", evs)
	}
	// A hand passes elsewhere; a second ghost shows up where nothing
	// moved: no reroll.
	feed(6, false, movedMask(image.Rect(900, 0, 1280, 300)))
	feed(6, true, nil, ghost, rd("3", 500, 300), rd("4", 700, 400), rd("5", 200, 600))
	if evs := take(); len(evs) != 0 {
		t.Fatalf("a die appearing where nothing moved: %+v", evs)
	}
	// A reroll of the die at (700, 400) to (900, 600): it moved there.
	feed(6, false, movedMask(image.Rect(650, 350, 950, 650)))
	feed(4, true, nil, ghost, rd("3", 500, 300), rd("6", 900, 600), rd("5", 200, 600))
	evs = take()
	if len(evs) != 1 {
		t.Fatalf("reroll: %+v, want one event", evs)
	}
	if e := evs[0].(Roll); !e.Reroll || faces(e.Dice) != "[3 6]" || len(e.Changed) != 1 || e.Changed[0] != 1 {
		t.Errorf("reroll %+v, want [3 6] with die 1 changed", e)
	}
	// A hand passes over an empty table; once the table has been seen
	// empty for FramesToEnd frames, what moved is forgotten: a ghost
	// showing up there later makes no roll.
	tr = NewTracker(Config{})
	feed(6, false, movedMask(image.Rect(0, 0, 640, 720)))
	feed(tr.Config().FramesToEnd, true, nil)
	feed(6, true, nil, rd("2", 300, 300))
	if evs := take(); len(evs) != 0 {
		t.Fatalf("a ghost where a hand passed long ago: %+v", evs)
	}
	// A decision without any die (a quiet moment mid-throw) keeps what
	// moved for the next one.
	tr = NewTracker(Config{})
	feed(6, false, movedMask(image.Rect(400, 200, 600, 400)))
	feed(4, true, nil)
	feed(2, false, movedMask(image.Rect(0, 0, 8, 8)))
	feed(4, true, nil, rd("2", 500, 300))
	if evs := take(); len(evs) != 1 {
		t.Errorf("roll after an empty decision: %+v, want one", evs)
	}
}

// A reading the reader marks Uncertain that shifts by more than
// MoveTolerance between quiet frames is the reader's jitter, not a moving
// die: the roll is still read after SettleFrames (seen on a playmat with no
// empty-table reference, where the run restarted on every frame and the
// roll came only after a hand passed: sequence 68 of TestSequenceEval). A
// certain die that shifts as much still restarts the run (rule 2).
func TestRollUnsureJitterDoesNotHoldTheRollUp(t *testing.T) {
	for _, unsure := range []bool{true, false} {
		s := newRollScript(t, Config{})
		jitter := func(i int) vision.Die {
			d := rd("4", 560, 180+14*(i%2)) // 14 px: beyond 0.25 of a 40 px die
			d.Uncertain, d.Confidence = unsure, 0.2
			return d
		}
		stop := s.throw(threeDice[0], threeDice[1], jitter(0))
		for i := 1; i <= 3; i++ {
			s.still(1, threeDice[0], threeDice[1], jitter(i))
		}
		evs := s.take()
		if !unsure {
			if len(evs) != 0 {
				t.Errorf("a certain die moving by 14 px on every frame: %+v, want no roll", evs)
			}
			continue
		}
		e := oneRoll(t, evs)
		if e.Frame != stop+3 || len(e.Dice) != 3 || !e.Dice[2].Uncertain || e.Dice[0].Uncertain {
			t.Errorf("roll %+v at frame %d, want 3 dice (the jittering one Uncertain) at frame %d", e, e.Frame, stop+3)
		}
	}
}

// maskFeeder feeds a Tracker observations with Moved (where the scene at
// rest changed) and Passed (where the frame changed) masks, as a Pipeline
// does.
type maskFeeder struct {
	tr     *Tracker
	frame  int
	events []Event
}

func (m *maskFeeder) feed(n int, quiet bool, moved, passed *motion.Mask, dice ...vision.Die) {
	for range n {
		if moved == nil {
			moved = movedMask()
		}
		if passed == nil {
			passed = movedMask()
		}
		m.events = append(m.events, m.tr.Observe(Observation{Frame: m.frame, Quiet: quiet, Moved: moved, Passed: passed, Reading: vision.Reading{Dice: slices.Clone(dice)}})...)
		m.frame++
	}
}

// throw feeds tumbling frames over area, then the first frame at rest,
// whose net change marks area (the reader reading dice there).
func (m *maskFeeder) throw(area image.Rectangle, dice ...vision.Die) {
	m.feed(8, false, nil, movedMask(area))
	m.feed(1, true, movedMask(area), nil, dice...)
}

func (m *maskFeeder) take() []Event {
	e := m.events
	m.events = nil
	return e
}

// A roll the reader cannot read while the dice rest is not announced once a
// hand has passed over the resting dice and the reader reads them after it
// (sequence 143 of TestSequenceEval: a roll announced 70 frames late, with
// a hand having been in the picture since). A hand that reaches the dice
// before their still run is decided does not cost the roll.
//
// Tracker rule 8 (rolls.go).
func TestRollNoLateRollAfterAHandPassedOverUnreadDice(t *testing.T) {
	area := image.Rect(260, 140, 620, 320)
	m := &maskFeeder{tr: NewTracker(Config{})}
	m.feed(5, true, nil, nil)
	m.throw(area)
	m.feed(20, true, nil, nil) // at rest, the reader reads nothing
	// A hand passes over the dice and leaves: the scene at rest is as it
	// was.
	m.feed(8, false, nil, movedMask(image.Rect(200, 100, 700, 720)))
	m.feed(30, true, nil, nil, threeDice...)
	if evs := m.take(); len(evs) != 0 {
		t.Errorf("dice read only after a hand passed over them: %+v, want no roll", evs)
	}
	// A throw after that is a roll of the dice it moved only.
	m.feed(8, false, nil, movedMask(image.Rect(500, 120, 640, 240)))
	m.feed(4, true, movedMask(image.Rect(520, 140, 600, 220)), nil, threeDice[0], threeDice[1], rd("6", 560, 180))
	if e := oneRoll(t, m.take()); faces(e.Dice) != "[6]" || e.Reroll {
		t.Errorf("throw of one die after the hand: %+v, want a fresh roll [6]", e)
	}

	// The hand reaches the dice before the decision: the roll stands.
	m = &maskFeeder{tr: NewTracker(Config{})}
	m.feed(20, true, nil, nil)
	m.throw(area)
	m.feed(8, false, nil, movedMask(image.Rect(200, 100, 700, 720)))
	m.feed(3, true, nil, nil, threeDice...)
	if e := oneRoll(t, m.take()); faces(e.Dice) != "[2 5 3]" {
		t.Errorf("hand right after the throw: %+v, want the roll [2 5 3]", e)
	}

	// A disturbance elsewhere keeps the unread roll: read late, it counts.
	m = &maskFeeder{tr: NewTracker(Config{})}
	m.feed(20, true, nil, nil)
	m.throw(area)
	m.feed(10, true, nil, nil)
	m.feed(2, false, nil, movedMask(image.Rect(1000, 600, 1100, 700)))
	m.feed(3, true, nil, nil, threeDice...)
	if e := oneRoll(t, m.take()); faces(e.Dice) != "[2 5 3]" {
		t.Errorf("late read after a disturbance elsewhere: %+v, want the roll [2 5 3]", e)
	}
}

// Dice the reader loses while they rest do not end the roll (sequence 162 of
// TestSequenceEval: d10 not read for 30 frames); dice taken away do, once
// the place of each has changed.
//
// Tracker rule 9 (rolls.go).
func TestRollEndsOnlyWhenTheDiceLeftTheirPlaces(t *testing.T) {
	area := image.Rect(260, 140, 620, 320)
	m := &maskFeeder{tr: NewTracker(Config{})}
	m.feed(20, true, nil, nil)
	m.throw(area, threeDice...)
	m.feed(3, true, nil, nil, threeDice...)
	oneRoll(t, m.take())
	k := m.tr.Config().FramesToEnd
	m.feed(3*k, true, nil, nil) // the reader loses them
	if evs := m.take(); len(evs) != 0 {
		t.Fatalf("dice lost by the reader: %+v, want the roll to go on", evs)
	}
	// Two dice are taken away: not yet the end.
	m.feed(6, false, nil, movedMask(image.Rect(200, 100, 500, 720)))
	m.feed(1, true, movedMask(threeDice[0].Box, threeDice[1].Box), nil)
	m.feed(2*k, true, nil, nil)
	if evs := m.take(); len(evs) != 0 {
		t.Fatalf("one die still in place: %+v, want the roll to go on", evs)
	}
	// The last one too: the table has read empty for long enough, so the
	// roll ends on the frame that shows its place changed.
	m.feed(6, false, nil, movedMask(image.Rect(500, 100, 700, 720)))
	end := m.frame
	m.feed(1, true, movedMask(threeDice[2].Box), nil)
	if evs := m.take(); len(evs) != 1 {
		t.Fatalf("events %+v, want Ended", evs)
	} else if e, ok := evs[0].(Ended); !ok || e.Roll != 1 || e.Frame != end {
		t.Fatalf("event %+v, want Ended of roll 1", evs[0])
	}
}

// Dice the reader misses in the first still frames after they stop are
// rolled as soon as it reads them in the same still run (sequence 143 of
// TestSequenceEval: a d10 not read in the 3 frames after the stop, read in
// the next 30, and announced only after a hand had passed).
//
// Tracker rule 4 (rolls.go).
func TestRollReadLateInTheSameStillRun(t *testing.T) {
	s := newRollScript(t, Config{})
	stop := s.throw()
	s.still(3) // the reader misses them
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("events without dice: %+v", evs)
	}
	s.still(3, threeDice...)
	if e := oneRoll(t, s.take()); e.Frame != stop+6 || faces(e.Dice) != "[2 5 3]" || e.Reroll {
		t.Errorf("roll %+v, want the fresh roll [2 5 3] at frame %d", e, stop+6)
	}
	s.still(30, threeDice...)
	if evs := s.take(); len(evs) != 0 {
		t.Errorf("the same still run emitted again: %+v", evs)
	}
}

// A reading the reader is unsure of at a very low confidence is as often a
// shadow, a misplaced box or the spot a die was taken from as a die: alone
// it makes no roll and no reroll (sequences 54 and 131 of the training
// sequences, 187 of TestSequenceEval: rolls of one such reading, beside
// any die at rest). The vote starts again: read well, the die is rolled.
//
// Tracker rule 10 (rolls.go).
func TestRollFaintDiceAloneMakeNoRoll(t *testing.T) {
	faint := func(face string, x, y int) vision.Die {
		d := rd(face, x, y)
		d.Uncertain, d.Confidence = true, 0.05
		return d
	}
	s := newRollScript(t, Config{})
	stop := s.throw(rd("3", 300, 200))
	s.still(6, faint("7", 300, 240))
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("a faint reading alone: %+v, want no roll", evs)
	}
	s.still(3, rd("3", 300, 200))
	if e := oneRoll(t, s.take()); faces(e.Dice) != "[3]" || e.Frame != stop+9 {
		t.Errorf("roll %+v, want [3] at frame %d", e, stop+9)
	}
	// A faint reading where nothing was read before makes no reroll; with
	// a die read well it joins the reroll.
	s.moving(4)
	s.still(6, rd("3", 300, 200), faint("5", 600, 400))
	if evs := s.take(); len(evs) != 0 {
		t.Fatalf("a faint reading landing alone: %+v, want no reroll", evs)
	}
	s.moving(4)
	s.still(3, rd("3", 300, 200), faint("5", 600, 400), rd("2", 800, 300))
	if e := oneRoll(t, s.take()); !e.Reroll || faces(e.Dice) != "[3 5 2]" || len(e.Changed) != 2 {
		t.Errorf("reroll %+v, want [3 5 2] with two dice changed", e)
	}
}

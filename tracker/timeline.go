package tracker

import (
	"sort"

	"tablecam/models"
)

// timelineKeepEvery is how many effective events lie between two games a
// timeline keeps: undoing the latest event refolds at most this many.
const timelineKeepEvery = 32

// timeline is a session's effective log and the game it folds to, kept up
// to date one event at a time. It gives the games, outcomes and skipped
// events of fold(c, Effective(log)), but an undo, redo or correction
// refolds only from the first effective event it changes (starting at the
// nearest kept game before it), so a session's cost grows with its length,
// not with its length squared.
//
// The effective log only changes at its end: undo takes back its last
// event, redo and new events add one. A correction changes the game from
// its target on.
type timeline struct {
	c     *models.Content
	every int // keep a game every this many effective events
	// eff is the effective log (as Effective computes it), in sequence order.
	eff []entry
	// redo holds the undone entries a redo restores, the next one last.
	redo []entry
	// fixes holds the corrections in force, by target, the latest last.
	fixes map[int64][]Event
	// kept[j] is the game after eff[:j*every].
	kept []Game
	// game is the game after all of eff.
	game Game
	// skipped holds the effective events that do not apply, by sequence
	// number.
	skipped map[int64]error
}

func newTimeline(c *models.Content, every int) *timeline {
	return &timeline{c: c, every: every, fixes: map[int64][]Event{}, kept: []Game{{}}, skipped: map[int64]error{}}
}

// position returns the index in eff of the event with sequence number seq,
// or -1.
func (t *timeline) position(seq int64) int {
	i := sort.Search(len(t.eff), func(i int) bool { return t.eff[i].Seq >= seq })
	if i < len(t.eff) && t.eff[i].Seq == seq {
		return i
	}
	return -1
}

// add appends an event that was applied to the current game with result g
// (a new event at the end of the effective log; it clears what could be
// redone).
func (t *timeline) add(e entry, g Game) {
	t.eff = append(t.eff, e)
	t.redo = t.redo[:0]
	t.game = g
	if len(t.eff)%t.every == 0 {
		t.kept = append(t.kept, g)
	}
}

// change is the effect of an undo, redo or correction (or of a stored event
// being loaded), computed before it is committed. It shares arrays with the
// timeline: commit it, or abort it, before the next change.
type change struct {
	op      string // EvUndo, EvRedo, or "" for an event added to the end
	e       entry  // the entry undone, redone or added
	eff     []entry
	from    int // the first effective event that may have changed
	keep    int // kept[:keep] stay
	kept    []Game
	game    Game
	skipped map[int64]error // skipped events at positions from and later
	out     map[int64]outs  // outcomes of the events at positions from and later
	fixT    int64           // the target whose corrections change (0: none)
	fixTop  *Event          // the correction of fixT in force after the change
}

// fix returns the correction in force for seq, if any.
func (t *timeline) fix(ch *change, seq int64) (Event, bool) {
	if ch.fixT != 0 && seq == ch.fixT {
		if ch.fixTop == nil {
			return Event{}, false
		}
		return *ch.fixTop, true
	}
	if fs := t.fixes[seq]; len(fs) > 0 {
		return fs[len(fs)-1], true
	}
	return Event{}, false
}

// planAdd plans adding e (a correction, or a stored event being loaded) at
// the end of the effective log.
func (t *timeline) planAdd(e entry) *change {
	ch := &change{e: e, eff: append(t.eff, e), from: len(t.eff)}
	if e.Ev.Type == EvCorrect {
		ch.fixT, ch.fixTop = e.Ev.Target, &e.Ev
		if p := t.position(e.Ev.Target); p >= 0 {
			ch.from = p
		}
	}
	t.refold(ch)
	return ch
}

// planUndo plans taking back the last effective event; ok is false if
// there is none.
func (t *timeline) planUndo() (*change, bool) {
	n := len(t.eff)
	if n == 0 {
		return nil, false
	}
	ch := &change{op: EvUndo, e: t.eff[n-1], eff: t.eff[:n-1], from: n - 1}
	if ch.e.Ev.Type == EvCorrect {
		ch.fixT = ch.e.Ev.Target
		if fs := t.fixes[ch.fixT]; len(fs) > 1 {
			ch.fixTop = &fs[len(fs)-2]
		}
		if p := t.position(ch.fixT); p >= 0 && p < ch.from {
			ch.from = p
		}
	}
	t.refold(ch)
	return ch, true
}

// planRedo plans restoring the latest undone event; ok is false if there
// is none.
func (t *timeline) planRedo() (*change, bool) {
	if len(t.redo) == 0 {
		return nil, false
	}
	e := t.redo[len(t.redo)-1]
	ch := &change{op: EvRedo, e: e, eff: append(t.eff, e), from: len(t.eff)}
	if e.Ev.Type == EvCorrect {
		ch.fixT, ch.fixTop = e.Ev.Target, &e.Ev
		if p := t.position(e.Ev.Target); p >= 0 {
			ch.from = p
		}
	}
	t.refold(ch)
	return ch, true
}

// refold computes ch's games, outcomes and skipped events from its first
// changed event on, starting at the current game when only events are
// added, else at the nearest kept game before the change.
func (t *timeline) refold(ch *change) {
	start := ch.from
	g := t.game
	ch.keep = len(t.kept)
	if start < len(t.eff) {
		j := start / t.every
		start, g, ch.keep = j*t.every, t.kept[j], j+1
	}
	ch.skipped, ch.out = map[int64]error{}, map[int64]outs{}
	for i := start; i < len(ch.eff); i++ {
		if i > 0 && i%t.every == 0 && i/t.every == ch.keep+len(ch.kept) {
			ch.kept = append(ch.kept, g)
		}
		e := ch.eff[i]
		ev := e.Ev
		if ev.Type == EvCorrect {
			continue
		}
		if f, ok := t.fix(ch, e.Seq); ok {
			ev.Faces = f.Faces
			if f.Assist != "" {
				ev.Assist = f.Assist
			}
		}
		ng, o, err := safeApply(t.c, g, e.Seq, ev)
		if err != nil {
			if i >= ch.from {
				ch.skipped[e.Seq] = err
			}
			continue
		}
		g = ng
		if i >= ch.from {
			ch.out[e.Seq] = o
		}
	}
	if n := len(ch.eff); n > 0 && n%t.every == 0 && n/t.every == ch.keep+len(ch.kept) {
		ch.kept = append(ch.kept, g)
	}
	ch.game = g
}

// commit makes ch the timeline's state and returns the sequence numbers
// of the events it made skipped that were not before, in order.
func (t *timeline) commit(ch *change) []int64 {
	for _, e := range t.eff[min(ch.from, len(t.eff)):] {
		delete(t.skipped, e.Seq)
	}
	var newly []int64
	for q, err := range ch.skipped {
		if _, was := t.skipped[q]; !was {
			newly = append(newly, q)
		}
		t.skipped[q] = err
	}
	sort.Slice(newly, func(i, j int) bool { return newly[i] < newly[j] })
	switch ch.op {
	case EvUndo:
		t.redo = append(t.redo, ch.e)
	case EvRedo:
		t.redo = t.redo[:len(t.redo)-1]
	default:
		t.redo = t.redo[:0]
	}
	if ch.fixT != 0 {
		fs := t.fixes[ch.fixT]
		if ch.op == EvUndo {
			fs = fs[:len(fs)-1]
		} else {
			fs = append(fs, ch.e.Ev)
		}
		if len(fs) == 0 {
			delete(t.fixes, ch.fixT)
		} else {
			t.fixes[ch.fixT] = fs
		}
	}
	t.eff = ch.eff
	t.kept = append(t.kept[:ch.keep], ch.kept...)
	t.game = ch.game
	return newly
}

// abort drops a change that was not committed. Games share their roll
// records' arrays, and a change's games may have written past the end of
// the kept game it started from: the games after it are folded again.
func (t *timeline) abort(ch *change) {
	if ch.keep == len(t.kept) {
		// Only appended to the current game: no kept game was reached.
		return
	}
	again := &change{eff: t.eff, from: (ch.keep - 1) * t.every}
	t.refold(again)
	t.eff = again.eff
	t.kept = append(t.kept[:again.keep], again.kept...)
	t.game = again.game
}

// load adds a stored event, as it was when it was appended.
func (t *timeline) load(e entry) {
	var ch *change
	switch e.Ev.Type {
	case EvUndo:
		ch, _ = t.planUndo()
	case EvRedo:
		ch, _ = t.planRedo()
	default:
		ch = t.planAdd(e)
	}
	if ch != nil {
		t.commit(ch)
	}
}

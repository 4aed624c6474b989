package tracker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"tablecam/engine"
	"tablecam/models"
)

// ErrNotStored is returned (wrapped) by Submit for a valid event that the
// store failed to keep (a full disk, an I/O error): the event is not in the
// session. Test for it with errors.Is.
var ErrNotStored = errors.New("the event could not be stored")

// Session is one game session backed by the event log. Submit validates an
// event against the current game, makes it durable, then applies it and
// returns its announcements: nothing is announced that is not stored, and
// nothing invalid is stored. Safe for concurrent use.
type Session struct {
	mu      sync.Mutex
	content *models.Content
	store   *Store
	id      string
	cat     *Catalog
	log     []entry
	// tl is the effective log and the game it folds to; its skipped
	// events are those that no longer apply after an undo or correction.
	tl *timeline
}

// OpenSession opens session id in the store, or resumes the latest open
// session when id is "", or creates a new session named name when none is
// open. The state is derived by replaying the stored log.
func OpenSession(ctx context.Context, st *Store, c *models.Content, cat *Catalog, id, name string) (*Session, error) {
	if id == "" {
		info, ok, err := st.LatestOpenSession(ctx)
		if err != nil {
			return nil, fmt.Errorf("find open session: %w", err)
		}
		if ok {
			id = info.ID
		} else {
			id = NewSessionID(st.Now())
			if name == "" {
				name = id
			}
			if err := st.CreateSession(ctx, id, name); err != nil {
				return nil, fmt.Errorf("create session: %w", err)
			}
		}
	}
	recs, err := st.Records(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	// Names and labels in the session's language; rules data is the same.
	c = c.Localized(cat.Lang)
	s := &Session{content: c, store: st, id: id, cat: cat, tl: newTimeline(c, timelineKeepEvery)}
	for _, r := range recs {
		ev, err := DecodeEvent(r.Payload)
		if err != nil {
			return nil, fmt.Errorf("session %s, event %d: %w", id, r.Seq, err)
		}
		e := entry{Seq: r.Seq, Ev: ev}
		s.log = append(s.log, e)
		s.tl.load(e)
	}
	return s, nil
}

// NewSessionID makes a session id from a time (sortable, readable).
func NewSessionID(t interface{ Format(string) string }) string {
	return "game-" + t.Format("20060102-150405.000")
}

// LastSeq is the sequence number of the session's latest stored event (0
// if none).
func (s *Session) LastSeq() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.log); n > 0 {
		return s.log[n-1].Seq
	}
	return 0
}

// ID is the session's id.
func (s *Session) ID() string { return s.id }

// Catalog is the catalog of the session's language.
func (s *Session) Catalog() *Catalog { return s.cat }

// Summary is the game's summary in the session's language, with the
// names of its content in that language.
func (s *Session) Summary() string { return s.Game().SummaryIn(s.content, s.cat) }

// Game returns a copy of the current game.
func (s *Session) Game() Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.tl.game.clone()
	g.Rolls = append([]RollRecord(nil), s.tl.game.Rolls...)
	return g
}

// Events returns the session's log entries (sequence number and event).
func (s *Session) Events() []LoggedEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]LoggedEvent, len(s.log))
	for i, e := range s.log {
		out[i] = LoggedEvent{Seq: e.Seq, Event: e.Ev}
	}
	return out
}

// LoggedEvent is an event with its sequence number.
type LoggedEvent struct {
	Seq   int64 `json:"seq"`
	Event Event `json:"event"`
}

// Submit validates, persists and applies one event, returning what to
// announce. An invalid event returns an error and is not stored.
func (s *Session) Submit(ctx context.Context, ev Event) ([]models.Announcement, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev.Type {
	case EvUndo, EvRedo, EvCorrect:
		if err := roundTrips(ev); err != nil {
			return nil, err
		}
		return s.rewrite(ctx, ev)
	}
	if err := roundTrips(ev); err != nil {
		return nil, err
	}
	g, o, err := apply(s.content, s.tl.game, 0, ev)
	if err != nil {
		return nil, err
	}
	seq, err := s.persist(ctx, ev)
	if err != nil {
		return nil, err
	}
	// Re-apply with the real sequence number (roll records carry it).
	g, o, err = apply(s.content, s.tl.game, seq, ev)
	if err != nil {
		return nil, fmt.Errorf("event %d stored but failed on apply: %w", seq, err)
	}
	s.tl.add(entry{Seq: seq, Ev: ev}, g)
	return s.cat.Announce(seq, o), nil
}

func (s *Session) persist(ctx context.Context, ev Event) (int64, error) {
	payload, err := ev.Marshal()
	if err != nil {
		return 0, err
	}
	rec, err := s.store.Append(ctx, s.id, ev.Type, payload)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrNotStored, err)
	}
	s.log = append(s.log, entry{Seq: rec.Seq, Ev: ev})
	return rec.Seq, nil
}

// rewrite handles undo, redo and corrections: the log gains the event and
// the game is recomputed from the first event it changes.
func (s *Session) rewrite(ctx context.Context, ev Event) ([]models.Announcement, error) {
	var (
		o   outs
		ch  *change
		pos = -1 // a correction's target's position in the effective log
	)
	switch ev.Type {
	case EvCorrect:
		var target []entry
		if pos = s.tl.position(ev.Target); pos >= 0 {
			target = s.tl.eff[pos : pos+1]
		}
		if err := checkCorrection(s.content, target, ev); err != nil {
			return nil, err
		}
		o = one(KindCorrect, engine.Vars{"target": ev.Target, "faces": correctionLabels(s.content, target, ev.Faces)})
		ch = s.tl.planAdd(entry{Ev: ev})
	case EvUndo:
		var ok bool
		if ch, ok = s.tl.planUndo(); !ok {
			return s.cat.Announce(0, one(KindNothingUndo, nil)), nil
		}
		o = one(KindUndo, describe(ch.e.Ev))
	case EvRedo:
		var ok bool
		if ch, ok = s.tl.planRedo(); !ok {
			return s.cat.Announce(0, one(KindNothingRedo, nil)), nil
		}
		o = one(KindRedo, describe(ch.e.Ev))
	}
	// The game is recomputed (above) before the event is stored, so a stored
	// log can always be replayed. The event's own sequence number does not
	// enter the fold: undo and redo are not in the effective log, and a
	// correction only changes its target.
	seq, err := s.persist(ctx, ev)
	if err != nil {
		s.tl.abort(ch)
		return nil, err
	}
	if ev.Type == EvCorrect {
		ch.e.Seq = seq
		ch.eff[len(ch.eff)-1].Seq = seq
	}
	for _, q := range s.tl.commit(ch) {
		o = append(o, engine.Outcome{Kind: KindSkipped, Vars: engine.Vars{"seq": q, "reason": s.tl.skipped[q].Error()}})
	}
	if ev.Type == EvCorrect {
		// The outcomes the corrected reading led to, as recomputed.
		o = append(o, laterOutcomes(ch.out, s.tl.eff[pos:], ev.Target)...)
	}
	if g := s.tl.game; g.Started && g.Kind == "" {
		st := g.State
		o = append(o, engine.Outcome{Kind: KindRecomputed, Vars: engine.Vars{"space": st.Power + 1, "track": st.PowerTrack,
			"goals": st.Goals, "required": st.GoalsRequired, "round": st.Round}})
	}
	return s.cat.Announce(seq, o), nil
}

// laterOutcomes returns the recomputed outcomes of the corrected roll and
// of the events that continued it (rerolls, done) up to the next event of
// another kind.
func laterOutcomes(out map[int64]outs, eff []entry, target int64) outs {
	var o outs
	started := false
	for _, e := range eff {
		if e.Seq == target {
			started = true
			o = append(o, out[e.Seq]...)
			continue
		}
		if !started || e.Ev.Type == EvCorrect {
			continue
		}
		if e.Ev.Type != EvReroll && e.Ev.Type != EvDone && e.Ev.Type != EvRoll {
			break
		}
		o = append(o, out[e.Seq]...)
		if e.Ev.Type == EvRoll {
			break
		}
	}
	return o
}

// Replay folds a list of events (with their sequence numbers) from an empty
// game and returns the final game: the pure state derivation used for
// resume and for checking that a live session equals a clean replay.
func Replay(c *models.Content, events []LoggedEvent) Game {
	log := make([]entry, len(events))
	for i, e := range events {
		log[i] = entry{Seq: e.Seq, Ev: e.Event}
	}
	return fold(c, Effective(log)).Game
}

// roundTrips checks that the event survives the store's JSON unchanged, so
// the applied event and the stored one are the same (invalid UTF-8, say,
// would not be).
func roundTrips(ev Event) error {
	b, err := ev.Marshal()
	if err != nil {
		return err
	}
	back, err := DecodeEvent(b)
	if err != nil {
		return err
	}
	b2, err := back.Marshal()
	if err != nil {
		return err
	}
	if string(b) != string(b2) || !utf8.Valid(b) || strings.Contains(string(b), "\\ufffd") {
		return fmt.Errorf("%s: the event does not survive storage unchanged (invalid text?)", ev.Type)
	}
	return nil
}

// HistoryEntry is one logged event as the prompt's history shows it.
type HistoryEntry struct {
	Seq int64
	// What is the event in the prompt's command syntax.
	What string
	// Undone is set for an event taken back by undo (and not redone), and
	// for the undo and redo commands themselves.
	Undone bool
}

// History returns the last n logged events, oldest first: the sequence
// numbers that correct and the roll trail use.
func (s *Session) History(n int) []HistoryEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	inForce := map[int64]bool{}
	for _, e := range Effective(s.log) {
		inForce[e.Seq] = true
	}
	from := max(0, len(s.log)-n)
	out := make([]HistoryEntry, 0, len(s.log)-from)
	for _, e := range s.log[from:] {
		out = append(out, HistoryEntry{Seq: e.Seq, What: describe(e.Ev)["what"].(string), Undone: !inForce[e.Seq]})
	}
	return out
}

// Recent returns the announcements of the session's last n events in
// force, oldest first, as the game now reads them (after undos and
// corrections): what a dashboard shows when it starts on a resumed
// session. It replays the whole log once.
func (s *Session) Recent(n int) []models.Announcement {
	s.mu.Lock()
	eff := Effective(s.log)
	c, cat := s.content, s.cat
	s.mu.Unlock()
	f := fold(c, eff)
	var out []models.Announcement
	for i := len(eff) - 1; i >= 0 && len(out) < n; i-- {
		o := f.Out[eff[i].Seq]
		as := cat.Announce(eff[i].Seq, o)
		// Newest first while collecting; reversed below.
		for j := len(as) - 1; j >= 0 && len(out) < n; j-- {
			out = append(out, as[j])
		}
	}
	slices.Reverse(out)
	return out
}

// correctionLabels names the faces of a correction as the announcements
// name faces: by their labels in the corrected roll's set (V.A.T.S. when
// it names none), or by their ids when they are not in it.
func correctionLabels(c *models.Content, target []entry, ids []string) []string {
	set := "vats"
	if len(target) == 1 && target[0].Ev.Set != "" {
		set = target[0].Ev.Set
	}
	fs, err := faces(c, set, ids)
	if err != nil {
		return ids
	}
	return faceLabels(fs)
}

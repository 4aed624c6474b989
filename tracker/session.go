package tracker

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"tablecam/engine"
	"tablecam/models"
)

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
	game    Game
	// skipped are events that no longer apply after an undo or correction.
	skipped map[int64]error
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
	s := &Session{content: c, store: st, id: id, cat: cat}
	for _, r := range recs {
		ev, err := DecodeEvent(r.Payload)
		if err != nil {
			return nil, fmt.Errorf("session %s, event %d: %w", id, r.Seq, err)
		}
		s.log = append(s.log, entry{Seq: r.Seq, Ev: ev})
	}
	f := fold(c, Effective(s.log))
	s.game, s.skipped = f.Game, f.Skipped
	return s, nil
}

// NewSessionID makes a session id from a time (sortable, readable).
func NewSessionID(t interface{ Format(string) string }) string {
	return "game-" + t.Format("20060102-150405.000")
}

// ID is the session's id.
func (s *Session) ID() string { return s.id }

// Game returns a copy of the current game.
func (s *Session) Game() Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.game.clone()
	g.Rolls = append([]RollRecord(nil), s.game.Rolls...)
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
	g, o, err := apply(s.content, s.game, 0, ev)
	if err != nil {
		return nil, err
	}
	seq, err := s.persist(ctx, ev)
	if err != nil {
		return nil, err
	}
	// Re-apply with the real sequence number (roll records carry it).
	g, o, err = apply(s.content, s.game, seq, ev)
	if err != nil {
		return nil, fmt.Errorf("event %d stored but failed on apply: %w", seq, err)
	}
	s.game = g
	return s.cat.Announce(seq, o), nil
}

func (s *Session) persist(ctx context.Context, ev Event) (int64, error) {
	payload, err := ev.Marshal()
	if err != nil {
		return 0, err
	}
	rec, err := s.store.Append(ctx, s.id, ev.Type, payload)
	if err != nil {
		return 0, fmt.Errorf("store %s event: %w", ev.Type, err)
	}
	s.log = append(s.log, entry{Seq: rec.Seq, Ev: ev})
	return rec.Seq, nil
}

// rewrite handles undo, redo and corrections: the log gains the event and
// the game is recomputed from the whole effective log.
func (s *Session) rewrite(ctx context.Context, ev Event) ([]models.Announcement, error) {
	before := Effective(s.log)
	var o outs
	switch ev.Type {
	case EvCorrect:
		if err := checkCorrection(s.content, before, ev); err != nil {
			return nil, err
		}
		o = one(KindCorrect, engine.Vars{"target": ev.Target, "faces": ev.Faces})
	case EvUndo, EvRedo:
		after := Effective(append(append([]entry(nil), s.log...), entry{Seq: -1, Ev: ev}))
		changed := diff(before, after)
		kind := KindUndo
		if ev.Type == EvRedo {
			kind = KindRedo
		}
		if changed == nil {
			if ev.Type == EvUndo {
				return s.cat.Announce(0, one(KindNothingUndo, nil)), nil
			}
			return s.cat.Announce(0, one(KindNothingRedo, nil)), nil
		}
		o = one(kind, describe(changed.Ev))
	}
	// Recompute with the new event before storing it, so a stored log can
	// always be replayed.
	next := int64(1)
	if n := len(s.log); n > 0 {
		next = s.log[n-1].Seq + 1
	}
	trial := append(append([]entry(nil), s.log...), entry{Seq: next, Ev: ev})
	f := fold(s.content, Effective(trial))
	seq, err := s.persist(ctx, ev)
	if err != nil {
		return nil, err
	}
	if seq != next {
		f = fold(s.content, Effective(s.log))
	}
	var skipped []int64
	for q := range f.Skipped {
		if _, was := s.skipped[q]; !was {
			skipped = append(skipped, q)
		}
	}
	sort.Slice(skipped, func(i, j int) bool { return skipped[i] < skipped[j] })
	for _, q := range skipped {
		o = append(o, engine.Outcome{Kind: KindSkipped, Vars: engine.Vars{"seq": q, "reason": f.Skipped[q].Error()}})
	}
	if ev.Type == EvCorrect {
		// The outcomes the corrected reading led to, as recomputed.
		o = append(o, laterOutcomes(f, Effective(s.log), ev.Target)...)
	}
	s.game, s.skipped = f.Game, f.Skipped
	if s.game.Started {
		st := s.game.State
		o = append(o, engine.Outcome{Kind: KindRecomputed, Vars: engine.Vars{"space": st.Power + 1, "track": st.PowerTrack,
			"goals": st.Goals, "required": st.GoalsRequired, "round": st.Round}})
	}
	return s.cat.Announce(seq, o), nil
}

// laterOutcomes returns the recomputed outcomes of the corrected roll and
// of the events that continued it (rerolls, done) up to the next event of
// another kind.
func laterOutcomes(f folded, eff []entry, target int64) outs {
	var o outs
	started := false
	for _, e := range eff {
		if e.Seq == target {
			started = true
			o = append(o, f.Out[e.Seq]...)
			continue
		}
		if !started || e.Ev.Type == EvCorrect {
			continue
		}
		if e.Ev.Type != EvReroll && e.Ev.Type != EvDone && e.Ev.Type != EvRoll {
			break
		}
		o = append(o, f.Out[e.Seq]...)
		if e.Ev.Type == EvRoll {
			break
		}
	}
	return o
}

// diff returns the one entry whose status differs between two effective logs.
func diff(a, b []entry) *entry {
	in := map[int64]bool{}
	for _, e := range b {
		in[e.Seq] = true
	}
	for i := len(a) - 1; i >= 0; i-- {
		if !in[a[i].Seq] {
			return &a[i]
		}
	}
	inA := map[int64]bool{}
	for _, e := range a {
		inA[e.Seq] = true
	}
	for i := len(b) - 1; i >= 0; i-- {
		if !inA[b[i].Seq] && b[i].Seq >= 0 {
			return &b[i]
		}
	}
	return nil
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

package tracker

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
)

// The event log is checked to be whole in three ways:
//
//   - PRAGMA integrity_check on open finds damaged database pages, and
//     indexes that no longer match their table (quick_check does not look
//     at indexes, and Records reads through one).
//   - Every event carries a hash of itself and of the event before it (a
//     chain over the whole database, in sequence order): an event changed,
//     lost or put in from elsewhere breaks the chain at that event.
//   - The sequence number and hash of the last acknowledged event are kept
//     outside the database, in the acknowledgement file beside it (path +
//     ".ack"): events lost from the end (a deleted or damaged WAL, a
//     truncated or emptied database) show as a gap between it and the log.
//
// A damaged store is refused with a *StoreDamagedError; Check reports what
// is whole and what is not, and a store opened with StoreOptions.Salvage
// reads what is readable.

// storeMaxProblems bounds the broken events a report describes one by one.
const storeMaxProblems = 10

// storeHashSize is the size of an event's chain hash.
const storeHashSize = sha256.Size

// storeChain returns the chain hash of an event given the hash of the
// event before it (nil for the first).
func storeChain(prev []byte, seq int64, session, at, kind string, payload []byte) []byte {
	h := sha256.New()
	var zero [storeHashSize]byte
	if prev == nil {
		prev = zero[:]
	}
	h.Write(prev)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(seq))
	h.Write(n[:])
	for _, f := range [][]byte{[]byte(session), []byte(at), []byte(kind), payload} {
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	return h.Sum(nil)
}

// The acknowledgement file holds two slots of storeAckSlot bytes; event seq
// is written to slot seq%2, so a torn write leaves the other slot (the event
// before) whole. A slot is: magic, seq, hash, CRC-32 of the bytes before it.
const (
	storeAckMagic = "tcack001"
	storeAckSlot  = 64
)

// storeAcked is the last acknowledged event: its sequence number and hash.
type storeAcked struct {
	seq  int64
	hash []byte
}

func storeAckEncode(a storeAcked) []byte {
	b := make([]byte, storeAckSlot)
	copy(b, storeAckMagic)
	binary.BigEndian.PutUint64(b[8:], uint64(a.seq))
	copy(b[16:16+storeHashSize], a.hash)
	binary.BigEndian.PutUint32(b[48:], crc32.ChecksumIEEE(b[:48]))
	return b
}

// storeReadAck reads the acknowledgement file: ok is false if there is
// none. An empty file acknowledges nothing (seq 0). A file with no whole
// slot is an error.
func storeReadAck(path string) (a storeAcked, ok bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return storeAcked{}, false, nil
	}
	if err != nil {
		return storeAcked{}, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 2*storeAckSlot+1))
	if err != nil {
		return storeAcked{}, false, err
	}
	if len(b) == 0 {
		return storeAcked{}, true, nil
	}
	found := false
	for i := 0; i+storeAckSlot <= len(b) && i < 2*storeAckSlot; i += storeAckSlot {
		s := b[i : i+storeAckSlot]
		if string(s[:8]) != storeAckMagic || binary.BigEndian.Uint32(s[48:]) != crc32.ChecksumIEEE(s[:48]) {
			continue
		}
		if seq := int64(binary.BigEndian.Uint64(s[8:])); !found || seq > a.seq {
			a = storeAcked{seq: seq, hash: append([]byte(nil), s[16:16+storeHashSize]...)}
			found = true
		}
	}
	if !found {
		return storeAcked{}, false, fmt.Errorf("acknowledgement file %s is damaged (no whole record in its %d bytes)", path, len(b))
	}
	return a, true, nil
}

// storeWriteAck writes a to its slot of the open acknowledgement file. It
// does not sync: the file guards against damage to the database files (a
// lost WAL, a truncated database), which the page cache survives; SQLite's
// own sync guards against power loss, and an acknowledgement that a power
// loss takes back only makes the check less strict, never wrong.
func storeWriteAck(f *os.File, a storeAcked) error {
	_, err := f.WriteAt(storeAckEncode(a), (a.seq%2)*storeAckSlot)
	return err
}

// StoreDamagedError is returned (wrapped) by OpenStore for a store whose
// event log is not whole: nothing is read from it or added to it, so that
// no acknowledged event is lost silently.
type StoreDamagedError struct {
	Report StoreReport
}

func (e *StoreDamagedError) Error() string {
	return "damaged: " + strings.Join(e.Report.Problems, "; ") +
		". `tablecam sessions --check` reports what is whole; `tablecam sessions --export ID FILE` saves what is readable of a session" +
		" (tablecam replay --events FILE reads it back); then move the database and its -wal, -shm and .ack files away to start afresh"
}

// StoreReport says what of a store is whole.
type StoreReport struct {
	// Problems lists what is wrong, in words; empty when the store is whole.
	Problems []string
	// Events is how many events could be read; Acked is the sequence
	// number of the last acknowledged event (-1 if unknown).
	Events int
	Acked  int64
	// WholeTo is the sequence number up to which the chain of events is
	// unbroken.
	WholeTo int64
	// Sessions says, per session, how many events were read and which of
	// them do not match their hash.
	Sessions []SessionCheck
}

// SessionCheck is the state of one session's events.
type SessionCheck struct {
	ID     string
	Events int
	// Broken are the sequence numbers of events that do not match their
	// chain hash (changed, or an event before them is missing).
	Broken []int64
}

// Whole reports whether nothing is wrong.
func (r StoreReport) Whole() bool { return len(r.Problems) == 0 }

// check runs the store's checks in one read transaction of db: integrity_check,
// the chain, and the acknowledgement read before it (so the log it reads
// holds at least what was acknowledged). It returns the report and the
// last event's sequence number and hash.
func (s *Store) check(ctx context.Context, db *sql.DB, ack storeAcked, haveAck bool) (StoreReport, storeAcked, error) {
	rep := StoreReport{Acked: -1}
	if haveAck {
		rep.Acked = ack.seq
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return rep, storeAcked{}, storeExplain(err)
	}
	defer tx.Rollback()
	if err := storeQuickCheck(ctx, tx, &rep); err != nil {
		return rep, storeAcked{}, err
	}
	last, err := storeCheckChain(ctx, tx, &rep, ack, haveAck)
	if err != nil {
		return rep, storeAcked{}, err
	}
	if haveAck && ack.seq > last.seq {
		if last.seq == 0 {
			rep.Problems = append(rep.Problems, fmt.Sprintf("events 1 to %d were acknowledged but the log is empty (lost database or WAL file?)", ack.seq))
		} else {
			rep.Problems = append(rep.Problems, fmt.Sprintf("events %d to %d were acknowledged but are missing (lost or damaged WAL file, or a truncated database)", last.seq+1, ack.seq))
		}
	}
	return rep, last, nil
}

func storeQuickCheck(ctx context.Context, tx *sql.Tx, rep *StoreReport) error {
	rows, err := tx.QueryContext(ctx, "PRAGMA integrity_check(20)")
	if err != nil {
		rep.Problems = append(rep.Problems, "integrity_check: "+storeExplain(err).Error())
		return nil
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			rep.Problems = append(rep.Problems, "integrity_check: "+line)
		}
	}
	if err := rows.Err(); err != nil {
		rep.Problems = append(rep.Problems, "integrity_check: "+storeExplain(err).Error())
	}
	return nil
}

// storeCheckChain reads every event in sequence order and checks its hash.
func storeCheckChain(ctx context.Context, tx *sql.Tx, rep *StoreReport, ack storeAcked, haveAck bool) (storeAcked, error) {
	bySession := map[string]*SessionCheck{}
	srows, err := tx.QueryContext(ctx, "SELECT id FROM sessions ORDER BY created_at, rowid")
	if err == nil {
		for srows.Next() {
			var id string
			if srows.Scan(&id) == nil {
				rep.Sessions = append(rep.Sessions, SessionCheck{ID: id})
			}
		}
		err = srows.Err()
		srows.Close()
	}
	if err != nil {
		rep.Problems = append(rep.Problems, "sessions unreadable: "+storeExplain(err).Error())
	}
	for i := range rep.Sessions {
		bySession[rep.Sessions[i].ID] = &rep.Sessions[i]
	}
	rows, err := tx.QueryContext(ctx, "SELECT seq, session_id, at, kind, payload, hash FROM events ORDER BY seq")
	if err != nil {
		rep.Problems = append(rep.Problems, "events unreadable: "+storeExplain(err).Error())
		return storeAcked{}, nil
	}
	defer rows.Close()
	var (
		last     storeAcked
		breaks   int
		ackFound = !haveAck || ack.seq == 0
	)
	for rows.Next() {
		var (
			seq                  int64
			session, at, kind    string
			payload, stored, exp []byte
		)
		if err := rows.Scan(&seq, &session, &at, &kind, &payload, &stored); err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("event after %d unreadable: %v", last.seq, storeExplain(err)))
			return last, nil
		}
		rep.Events++
		exp = storeChain(last.hash, seq, session, at, kind, payload)
		sc := bySession[session]
		if sc == nil {
			rep.Sessions = append(rep.Sessions, SessionCheck{ID: session})
			for i := range rep.Sessions {
				bySession[rep.Sessions[i].ID] = &rep.Sessions[i]
			}
			sc = bySession[session]
			rep.Problems = append(rep.Problems, fmt.Sprintf("event %d belongs to session %q, which is not in the sessions table", seq, session))
		}
		sc.Events++
		// A gap in the sequence numbers is where a session was deleted
		// (DeleteSession chains the events after it anew); a gap that
		// breaks the chain is events lost.
		if string(exp) != string(stored) {
			if breaks < storeMaxProblems {
				what := "does not match its hash (changed?)"
				if seq != last.seq+1 {
					what = fmt.Sprintf("follows event %d: events %d to %d are missing", last.seq, last.seq+1, seq-1)
				}
				rep.Problems = append(rep.Problems, fmt.Sprintf("event %d of session %s %s", seq, session, what))
			}
			breaks++
			sc.Broken = append(sc.Broken, seq)
		}
		if breaks == 0 {
			rep.WholeTo = seq
		}
		if haveAck && seq == ack.seq {
			ackFound = true
			if string(stored) != string(ack.hash) {
				rep.Problems = append(rep.Problems, fmt.Sprintf("event %d is not the event that was acknowledged", seq))
			}
		}
		// Go on from the stored hash: one changed event shows once, and
		// the events after it are checked against what is there.
		last = storeAcked{seq: seq, hash: stored}
	}
	if breaks > storeMaxProblems {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d more events do not match their hash", breaks-storeMaxProblems))
	}
	if err := rows.Err(); err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("events after %d unreadable: %v", last.seq, storeExplain(err)))
	}
	if !ackFound && last.seq >= ack.seq {
		rep.Problems = append(rep.Problems, fmt.Sprintf("the acknowledged event %d is missing", ack.seq))
	}
	return last, nil
}

// Check reports what of the store is whole, reading it again from disk.
func (s *Store) Check(ctx context.Context) (StoreReport, error) {
	ack, haveAck, err := storeReadAck(s.path + ".ack")
	if err != nil {
		return StoreReport{Acked: -1, Problems: []string{err.Error()}}, nil
	}
	rep, _, err := s.check(ctx, s.r, ack, haveAck)
	return rep, err
}

// ReadableRecords returns the events of a session that can be read, in
// sequence order, for saving what is left of a damaged store: it stops at
// the first that cannot be read and returns it with the error.
func (s *Store) ReadableRecords(ctx context.Context, session string) ([]Record, error) {
	rows, err := s.r.QueryContext(ctx,
		"SELECT seq, at, kind, payload FROM events WHERE session_id = ? ORDER BY seq", session)
	if err != nil {
		return nil, fmt.Errorf("read records of session %q: %w", session, storeExplain(err))
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		r := Record{Session: session}
		var at string
		if err := rows.Scan(&r.Seq, &at, &r.Kind, (*[]byte)(&r.Payload)); err != nil {
			return out, fmt.Errorf("read records of session %q after %d: %w", session, len(out), storeExplain(err))
		}
		r.At, _ = storeParseTime(at)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("read records of session %q after %d: %w", session, len(out), storeExplain(err))
	}
	return out, nil
}

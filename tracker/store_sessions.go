package tracker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// RenameSession gives session id a new display name.
func (s *Store) RenameSession(ctx context.Context, id, name string) error {
	if s.w == nil {
		return fmt.Errorf("rename session %q: %w", id, errStoreReadOnly)
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return fmt.Errorf("rename session %q: empty name", id)
	}
	res, err := s.w.ExecContext(ctx, "UPDATE sessions SET name = ? WHERE id = ?", name, id)
	if err != nil {
		return fmt.Errorf("rename session %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("rename session %q: %w", id, err)
	} else if n == 0 {
		return fmt.Errorf("rename session %q: %w", id, ErrUnknownSession)
	}
	return nil
}

// Session returns what the store knows of session id, or
// ErrUnknownSession.
func (s *Store) Session(ctx context.Context, id string) (SessionInfo, error) {
	info, err := storeScanSession(s.r.QueryRowContext(ctx, "SELECT "+storeSessionColumns+
		" FROM sessions WHERE id = ?", id))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return SessionInfo{}, fmt.Errorf("session %q: %w", id, ErrUnknownSession)
	case err != nil:
		return SessionInfo{}, fmt.Errorf("session %q: %w", id, err)
	}
	return info, nil
}

// DeleteSession removes session id and all its events. The events of the
// other sessions stay as they are, with their sequence numbers (which
// corrections name); the ones after the first removed event are chained
// anew, so the log stays whole, and the acknowledgement file is rewritten
// to the new last event. It returns how many events were removed.
//
// The database changes in one transaction; the acknowledgement file is
// written after it commits. A crash between the two leaves the
// acknowledgement behind the log, which the next open reports as damage
// (sessions --check, --export recover the events).
func (s *Store) DeleteSession(ctx context.Context, id string) (int, error) {
	if s.w == nil {
		return 0, fmt.Errorf("delete session %q: %w", id, errStoreReadOnly)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("delete session %q: %w", id, err)
	}
	defer tx.Rollback()
	n, last, err := storeDeleteSession(ctx, tx, id)
	if err != nil {
		return 0, fmt.Errorf("delete session %q: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("delete session %q: %w", id, err)
	}
	s.last = last
	// Both slots: the other one may hold a later event that is gone now.
	b := make([]byte, 2*storeAckSlot)
	copy(b[(last.seq%2)*storeAckSlot:], storeAckEncode(last))
	if _, err := s.ack.WriteAt(b, 0); err != nil {
		return n, fmt.Errorf("delete session %q: acknowledgement file: %w", id, err)
	}
	if err := s.ack.Sync(); err != nil {
		return n, fmt.Errorf("delete session %q: acknowledgement file: %w", id, err)
	}
	return n, nil
}

// storeDeleteSession deletes the session and its events in tx and chains
// the events after the first deleted one anew. It returns how many events
// were deleted and the log's new last event.
func storeDeleteSession(ctx context.Context, tx *sql.Tx, id string) (int, storeAcked, error) {
	var first sql.NullInt64
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT MIN(seq), COUNT(*) FROM events WHERE session_id = ?", id).Scan(&first, &n); err != nil {
		return 0, storeAcked{}, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM events WHERE session_id = ?", id); err != nil {
		return 0, storeAcked{}, err
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id)
	if err != nil {
		return 0, storeAcked{}, err
	}
	if k, err := res.RowsAffected(); err != nil {
		return 0, storeAcked{}, err
	} else if k == 0 {
		return 0, storeAcked{}, ErrUnknownSession
	}
	from := int64(0)
	if first.Valid {
		from = first.Int64
	}
	var last storeAcked
	err = tx.QueryRowContext(ctx, "SELECT seq, hash FROM events WHERE seq < ? ORDER BY seq DESC LIMIT 1", from).Scan(&last.seq, &last.hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, storeAcked{}, err
	}
	if !first.Valid {
		// No events removed: the chain is unchanged; find its end.
		err = tx.QueryRowContext(ctx, "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").Scan(&last.seq, &last.hash)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, storeAcked{}, err
		}
		return 0, last, nil
	}
	type row struct {
		seq                    int64
		session, at, kind, pay string
	}
	rows, err := tx.QueryContext(ctx, "SELECT seq, session_id, at, kind, payload FROM events WHERE seq > ? ORDER BY seq", from)
	if err != nil {
		return 0, storeAcked{}, err
	}
	var after []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.seq, &r.session, &r.at, &r.kind, &r.pay); err != nil {
			rows.Close()
			return 0, storeAcked{}, err
		}
		after = append(after, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, storeAcked{}, err
	}
	for _, r := range after {
		h := storeChain(last.hash, r.seq, r.session, r.at, r.kind, []byte(r.pay))
		if _, err := tx.ExecContext(ctx, "UPDATE events SET hash = ? WHERE seq = ?", h, r.seq); err != nil {
			return 0, storeAcked{}, err
		}
		last = storeAcked{seq: r.seq, hash: h}
	}
	return n, last, nil
}

package tracker

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" database/sql driver
)

// Errors reported by Store. They are returned wrapped with context; test for
// them with errors.Is.
var (
	// ErrUnknownSession is returned when an operation names a session that
	// does not exist.
	ErrUnknownSession = errors.New("unknown session")
	// ErrSessionEnded is returned by Append when the session has already
	// been ended with EndSession; ended sessions are immutable.
	ErrSessionEnded = errors.New("the session is closed: its events stay and can be replayed, but it takes no new ones")
	// ErrInvalidPayload is returned by Append when the payload is not a
	// single valid JSON value.
	ErrInvalidPayload = errors.New("payload is not valid JSON")
)

// StoreLockedError is returned (wrapped) by OpenStore when another process
// (or another Store of this one) writes to the same database.
type StoreLockedError struct {
	// Holder says who holds the lock, as it wrote into the lock file:
	// process id, command, since when ("" if not known yet).
	Holder string
}

func (e *StoreLockedError) Error() string {
	who := e.Holder
	if who == "" {
		who = "another process"
	}
	return "in use by " + who + ": one tablecam writes to a data directory at a time (stop it, or use another data directory); " +
		"tablecam state and tablecam sessions still work while it runs"
}

// errStoreReadOnly is returned by the writing methods of a Store opened
// read-only.
var errStoreReadOnly = errors.New("the store is open read-only")

// StoreOptions say how OpenStoreWith opens a store.
type StoreOptions struct {
	// ReadOnly opens an existing store to look at it. It takes no lock, so
	// it works while another process writes (SQLite's WAL mode lets readers
	// run beside the writer), and it creates, upgrades and changes nothing:
	// a missing store, or one an older tablecam wrote, is refused.
	ReadOnly bool
	// Command names this program in the lock file, for the message a
	// second writer gets (default: the process's command line).
	Command string
	// Salvage opens a damaged store read-only instead of refusing it, to
	// Check it and read what is readable. It implies ReadOnly.
	Salvage bool
}

// storeTimeLayout is RFC 3339 with a fixed-width nanosecond fraction. Every
// timestamp is stored in UTC with this layout, so the stored text is both
// parseable with time.RFC3339Nano and sorts lexically in time order (the
// variable-width time.RFC3339Nano output does not: ".1Z" sorts after ".12Z").
const storeTimeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// storeBusyTimeoutMS is how long a connection waits for a lock held by another
// connection (or another process) before failing with SQLITE_BUSY.
const storeBusyTimeoutMS = 10000

// storeMaxReaders bounds the read-only connection pool. WAL mode lets readers
// run concurrently with the single writer.
const storeMaxReaders = 4

// storeSQLiteNotADB is SQLite's primary result code SQLITE_NOTADB.
const storeSQLiteNotADB = 26

// storeMigration moves the schema one version up: SQL, then (if set) a Go
// step in the same transaction.
type storeMigration struct {
	sql  string
	step func(ctx context.Context, tx *sql.Tx) error
}

// storeMigrations returns the schema migrations in application order.
// Migration i (0-based) moves the database from PRAGMA user_version i to i+1.
// Never edit a released migration; append a new one instead.
func storeMigrations() []storeMigration {
	return []storeMigration{
		// 1: initial schema.
		{sql: `CREATE TABLE sessions (
			id         TEXT PRIMARY KEY,
			name       TEXT NOT NULL DEFAULT '',
			created_at TEXT NOT NULL,
			ended_at   TEXT NULL
		);
		CREATE INDEX sessions_created ON sessions (created_at);
		CREATE TABLE events (
			seq        INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id TEXT NOT NULL REFERENCES sessions (id),
			at         TEXT NOT NULL,
			kind       TEXT NOT NULL,
			payload    TEXT NOT NULL
		);
		CREATE INDEX events_session_seq ON events (session_id, seq);`},
		// 2: each event carries the chain hash of itself and the event
		// before it (storeChain); the events already there get theirs.
		{sql: `ALTER TABLE events ADD COLUMN hash BLOB NULL;`, step: storeChainExisting},
	}
}

// storeChainExisting computes the chain hashes of the events of a database
// from before they had them.
func storeChainExisting(ctx context.Context, tx *sql.Tx) error {
	type row struct {
		seq                    int64
		session, at, kind, pay string
	}
	rows, err := tx.QueryContext(ctx, "SELECT seq, session_id, at, kind, payload FROM events ORDER BY seq")
	if err != nil {
		return err
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.seq, &r.session, &r.at, &r.kind, &r.pay); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var prev []byte
	for _, r := range all {
		prev = storeChain(prev, r.seq, r.session, r.at, r.kind, []byte(r.pay))
		if _, err := tx.ExecContext(ctx, "UPDATE events SET hash = ? WHERE seq = ?", prev, r.seq); err != nil {
			return err
		}
	}
	return nil
}

// Record is one event of a session's append-only log.
type Record struct {
	// Seq is the database-wide, strictly increasing sequence number.
	Seq int64
	// Session is the ID of the session the event belongs to.
	Session string
	// At is when the event was appended (from Store.Now, in UTC).
	At time.Time
	// Kind is the application-defined event type.
	Kind string
	// Payload is the event's JSON document, byte for byte as appended.
	Payload json.RawMessage
}

// SessionInfo describes a game session.
type SessionInfo struct {
	// ID is the caller-chosen unique session ID; Name is a display name.
	ID, Name string
	// Created is when the session was created (UTC).
	Created time.Time
	// Ended is when the session was ended, or nil if it is still open.
	Ended *time.Time
	// Events is the number of events recorded in the session.
	Events int
	// LastUsed is when the session's latest event was recorded, or when it
	// was created if it has none (UTC).
	LastUsed time.Time
}

// Store is the durable, append-only event log of tablecam game sessions,
// kept in an SQLite database in WAL mode with synchronous=FULL: once Append
// returns, the event is committed and fsynced and survives a crash of the
// process or, as far as SQLite and the storage stack allow, a power loss.
//
// A Store is safe for concurrent use. Writes go through a single connection
// (SQLite allows one writer at a time); reads use a separate pool of
// read-only connections, which WAL mode lets run alongside the writer.
type Store struct {
	// Now supplies timestamps for new sessions and events. OpenStore sets
	// it to time.Now; tests may replace it before using the Store (it must
	// not be changed while other goroutines use the Store).
	Now func() time.Time

	path       string
	lock       *os.File  // the lock file, locked while the Store writes (nil: read-only)
	w          *sql.DB   // single writer connection (nil: read-only)
	r          *sql.DB   // read-only connections
	appendStmt *sql.Stmt // prepared INSERT used by Append

	mu     sync.Mutex // orders appends: each one chains to the one before
	last   storeAcked // the last event of the log
	ack    *os.File   // the acknowledgement file (nil: read-only)
	ackErr error      // the first failure to write it
}

// OpenStore opens the session store at path to write to it, creating the
// file and its parent directory if needed, and brings the schema up to date.
// It takes an exclusive lock on the lock file beside the database (path +
// ".lock") until Close: a second writer, in this process or another, gets a
// *StoreLockedError saying who holds it.
func OpenStore(path string) (*Store, error) {
	return OpenStoreWith(path, StoreOptions{})
}

// OpenStoreWith opens the session store at path as opts say.
func OpenStoreWith(path string, opts StoreOptions) (*Store, error) {
	s, err := openStore(path, opts)
	if err != nil {
		return nil, fmt.Errorf("open session store %s: %w", path, err)
	}
	return s, nil
}

func openStore(path string, opts StoreOptions) (_ *Store, err error) {
	if path == "" {
		return nil, errors.New("empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, errors.New("is a directory")
	} else if opts.ReadOnly && err != nil {
		return nil, err
	}
	common := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)", storeBusyTimeoutMS)
	if opts.ReadOnly || opts.Salvage {
		return openStoreReader(abs, common, opts.Salvage)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if opts.Command == "" {
		opts.Command = strings.Join(append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...), " ")
	}
	lock, err := storeLock(abs+".lock", opts.Command)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && lock != nil {
			lock.Close()
		}
	}()
	ackPath := abs + ".ack"
	ack, haveAck, err := storeReadAck(ackPath)
	if err != nil {
		return nil, &StoreDamagedError{Report: StoreReport{Acked: -1, Problems: []string{err.Error()}}}
	}
	switch fi, err := os.Stat(abs); {
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, err
	case err != nil || fi.Size() == 0:
		// A new database; an empty one is new only if the acknowledgement
		// file, written before the database is made, says nothing was
		// acknowledged in it.
		if haveAck && ack.seq > 0 {
			what := "missing"
			if err == nil {
				what = "empty (0 bytes)"
			}
			return nil, &StoreDamagedError{Report: StoreReport{Acked: ack.seq,
				Problems: []string{fmt.Sprintf("the database is %s, but %d events were acknowledged in it", what, ack.seq)}}}
		}
		if err == nil && !haveAck {
			return nil, &StoreDamagedError{Report: StoreReport{Acked: -1,
				Problems: []string{"the database is empty (0 bytes) and there is no acknowledgement file to say it holds nothing"}}}
		}
		if !haveAck {
			if err := storeCreateAck(ackPath); err != nil {
				return nil, err
			}
			haveAck = true
		}
	}
	w, err := sql.Open("sqlite", storeDSN(abs, common+
		"&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate"))
	if err != nil {
		return nil, err
	}
	// One connection: SQLite serializes writers anyway, and a single
	// connection avoids SQLITE_BUSY between our own goroutines. Keep it open
	// forever so per-connection pragmas and the prepared statement persist.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	s := &Store{Now: time.Now, path: abs, w: w}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	s.lock, lock = lock, nil

	ctx := context.Background()
	if err := s.checkWriter(ctx); err != nil {
		return nil, storeExplain(err)
	}
	if err := storeWriterIntegrityCheck(ctx, w); err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		return nil, storeExplain(err)
	}
	rep, last, err := s.check(ctx, w, ack, haveAck)
	if err != nil {
		return nil, err
	}
	if !rep.Whole() {
		return nil, &StoreDamagedError{Report: rep}
	}
	s.last = last
	if s.ack, err = os.OpenFile(ackPath, os.O_RDWR|os.O_CREATE, 0o644); err != nil {
		return nil, fmt.Errorf("acknowledgement file: %w", err)
	}
	if !haveAck || ack.seq != last.seq {
		// A database from before the file (trusted as it is), or
		// events committed but not acknowledged when a process ended.
		if err := storeWriteAck(s.ack, last); err != nil {
			return nil, fmt.Errorf("acknowledgement file: %w", err)
		}
		if err := s.ack.Sync(); err != nil {
			return nil, fmt.Errorf("acknowledgement file: %w", err)
		}
	}
	// Make the creation of the database and WAL files themselves durable.
	if err := storeSyncDir(dir); err != nil {
		return nil, err
	}

	s.r, err = sql.Open("sqlite", storeDSN(abs, common+"&_query_only=1"))
	if err != nil {
		return nil, err
	}
	s.r.SetMaxOpenConns(storeMaxReaders)
	s.r.SetMaxIdleConns(storeMaxReaders)
	if err := s.r.PingContext(ctx); err != nil {
		return nil, storeExplain(fmt.Errorf("open reader: %w", err))
	}

	// A single INSERT, run in its own (implicit) transaction. Selecting from
	// sessions makes it insert nothing unless the session exists and is still
	// open, without a separate check-then-insert transaction.
	s.appendStmt, err = w.PrepareContext(ctx, `INSERT INTO events (seq, session_id, at, kind, payload, hash)
		SELECT ?, id, ?, ?, ?, ? FROM sessions WHERE id = ? AND ended_at IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("prepare append: %w", err)
	}
	return s, nil
}

// openStoreReader opens the store at abs for reading only; a damaged one
// is refused unless salvage is set.
func openStoreReader(abs, common string, salvage bool) (_ *Store, err error) {
	// The acknowledgement is read before the log, so the log read holds at
	// least what it says even while another process appends.
	ack, haveAck, ackErr := storeReadAck(abs + ".ack")
	s := &Store{Now: time.Now, path: abs}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	if s.r, err = sql.Open("sqlite", storeDSN(abs, common+"&_query_only=1")); err != nil {
		return nil, err
	}
	s.r.SetMaxOpenConns(storeMaxReaders)
	s.r.SetMaxIdleConns(storeMaxReaders)
	if fi, err := os.Stat(abs); err == nil && fi.Size() == 0 && !salvage {
		if ackErr == nil && haveAck && ack.seq == 0 {
			return nil, errors.New("the store is empty: no session yet")
		}
		return nil, &StoreDamagedError{Report: StoreReport{Acked: ack.seq,
			Problems: []string{"the database is empty (0 bytes), but events were acknowledged in it, or nothing says it held none"}}}
	}
	var version int
	if err := s.r.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return nil, storeExplain(err)
	}
	if n := len(storeMigrations()); version != n && !salvage {
		return nil, fmt.Errorf("schema version %d, this program reads %d: open it once with a command that writes (tablecam play) to upgrade it", version, n)
	}
	if salvage {
		return s, nil
	}
	if ackErr != nil {
		return nil, &StoreDamagedError{Report: StoreReport{Acked: -1, Problems: []string{ackErr.Error()}}}
	}
	rep, _, err := s.check(context.Background(), s.r, ack, haveAck)
	if err != nil {
		return nil, err
	}
	if !rep.Whole() {
		return nil, &StoreDamagedError{Report: rep}
	}
	return s, nil
}

// storeWriterIntegrityCheck refuses a database whose pages are damaged before
// anything is written to it.
func storeWriterIntegrityCheck(ctx context.Context, w *sql.DB) error {
	var rep StoreReport
	tx, err := w.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return storeExplain(err)
	}
	defer tx.Rollback()
	if err := storeQuickCheck(ctx, tx, &rep); err != nil {
		return err
	}
	if !rep.Whole() {
		rep.Acked = -1
		return &StoreDamagedError{Report: rep}
	}
	return nil
}

// storeCreateAck makes the acknowledgement file of a new database, saying
// nothing is acknowledged, durably, before the database is made.
func storeCreateAck(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("acknowledgement file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("acknowledgement file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("acknowledgement file: %w", err)
	}
	return storeSyncDir(filepath.Dir(path))
}

// storeDSN builds a modernc.org/sqlite URI DSN for the absolute path abs.
func storeDSN(abs, query string) string {
	// In an SQLite URI, '%' starts an escape and '?' and '#' end the path.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(abs))
	if !strings.HasPrefix(esc, "/") {
		esc = "/" + esc // Windows drive paths: file:/C:/...
	}
	return "file:" + esc + "?" + query
}

// checkWriter verifies that the writer connection came up with the
// durability settings Store relies on.
func (s *Store) checkWriter(ctx context.Context) error {
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal_mode is %q, want wal (filesystem without WAL support?)", mode)
	}
	var sync int
	if err := s.w.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		return err
	}
	if sync != 2 {
		return fmt.Errorf("synchronous is %d, want 2 (FULL)", sync)
	}
	return nil
}

// storeExplain turns SQLite's terse SQLITE_NOTADB message into one that says
// what is wrong with the file.
func storeExplain(err error) error {
	var coder interface{ Code() int }
	if errors.As(err, &coder) && coder.Code()&0xff == storeSQLiteNotADB {
		return fmt.Errorf("not an SQLite database (or it is encrypted or corrupt): %w", err)
	}
	return err
}

// migrate applies every migration the database has not seen yet, each in its
// own transaction together with the PRAGMA user_version bump that records it.
func (s *Store) migrate(ctx context.Context) error {
	migrations := storeMigrations()
	for {
		done, err := s.migrateOne(ctx, migrations)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

// migrateOne applies the next pending migration, if any, and reports whether
// the schema is up to date. The version is read inside the (IMMEDIATE, so
// write-locked) transaction, so concurrent openers cannot apply a migration
// twice.
func (s *Store) migrateOne(ctx context.Context, migrations []storeMigration) (done bool, err error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("begin migration: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return false, fmt.Errorf("read schema version: %w", err)
	}
	switch {
	case version > len(migrations):
		return false, fmt.Errorf("schema version %d is newer than this program supports (%d)", version, len(migrations))
	case version == len(migrations):
		return true, tx.Commit()
	}
	if _, err := tx.ExecContext(ctx, migrations[version].sql); err != nil {
		return false, fmt.Errorf("apply migration %d: %w", version+1, err)
	}
	if step := migrations[version].step; step != nil {
		if err := step(ctx, tx); err != nil {
			return false, fmt.Errorf("apply migration %d: %w", version+1, err)
		}
	}
	// PRAGMA arguments cannot be bound parameters; version is an int.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version+1)); err != nil {
		return false, fmt.Errorf("set schema version %d: %w", version+1, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("commit migration %d: %w", version+1, err)
	}
	return false, nil
}

// storeSyncDir fsyncs a directory so that entries created in it are durable.
func storeSyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		// Some platforms (Windows) cannot sync directories; elsewhere it
		// matters.
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// Close releases the database. It does not wait for in-flight calls; callers
// must stop using the Store first.
func (s *Store) Close() error {
	var errs []error
	if s.appendStmt != nil {
		errs = append(errs, s.appendStmt.Close())
	}
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	if s.ack != nil {
		errs = append(errs, s.ackErr, s.ack.Sync(), s.ack.Close())
	}
	if s.lock != nil {
		errs = append(errs, s.lock.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close session store %s: %w", s.path, err)
	}
	return nil
}

func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now().UTC()
	}
	return s.Now().UTC()
}

func storeFormatTime(t time.Time) string { return t.UTC().Format(storeTimeLayout) }

func storeParseTime(v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad stored timestamp %q: %w", v, err)
	}
	return t.UTC(), nil
}

// CreateSession creates a new open session. The id must be unique.
func (s *Store) CreateSession(ctx context.Context, id, name string) error {
	if id == "" {
		return errors.New("create session: empty id")
	}
	if s.w == nil {
		return fmt.Errorf("create session %q: %w", id, errStoreReadOnly)
	}
	if _, err := s.w.ExecContext(ctx,
		"INSERT INTO sessions (id, name, created_at) VALUES (?, ?, ?)",
		id, name, storeFormatTime(s.now())); err != nil {
		return fmt.Errorf("create session %q: %w", id, err)
	}
	return nil
}

const storeSessionColumns = `id, name, created_at, ended_at,
	(SELECT COUNT(*) FROM events e WHERE e.session_id = sessions.id), ` + storeLastUsed

// storeLastUsed is a session's last use: its latest event's time, or its
// creation when it has none. Timestamps sort lexically (storeTimeLayout).
const storeLastUsed = `COALESCE((SELECT e.at FROM events e WHERE e.session_id = sessions.id ORDER BY e.seq DESC LIMIT 1), created_at)`

func storeScanSession(sc interface{ Scan(...any) error }) (SessionInfo, error) {
	var (
		info           SessionInfo
		created, used  string
		ended          sql.NullString
		err            error
		endedTimestamp time.Time
	)
	if err := sc.Scan(&info.ID, &info.Name, &created, &ended, &info.Events, &used); err != nil {
		return SessionInfo{}, err
	}
	if info.Created, err = storeParseTime(created); err != nil {
		return SessionInfo{}, err
	}
	if info.LastUsed, err = storeParseTime(used); err != nil {
		return SessionInfo{}, err
	}
	if ended.Valid {
		if endedTimestamp, err = storeParseTime(ended.String); err != nil {
			return SessionInfo{}, err
		}
		info.Ended = &endedTimestamp
	}
	return info, nil
}

// Sessions lists all sessions, the most recently used first.
func (s *Store) Sessions(ctx context.Context) ([]SessionInfo, error) {
	rows, err := s.r.QueryContext(ctx, "SELECT "+storeSessionColumns+
		" FROM sessions ORDER BY "+storeLastUsed+" DESC, rowid DESC")
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []SessionInfo
	for rows.Next() {
		info, err := storeScanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, info)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// LatestOpenSession returns the most recently used session that has not
// been ended, for resuming after a restart. ok is false if there is none.
func (s *Store) LatestOpenSession(ctx context.Context) (info SessionInfo, ok bool, err error) {
	info, err = storeScanSession(s.r.QueryRowContext(ctx, "SELECT "+storeSessionColumns+
		" FROM sessions WHERE ended_at IS NULL ORDER BY "+storeLastUsed+" DESC, rowid DESC LIMIT 1"))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return SessionInfo{}, false, nil
	case err != nil:
		return SessionInfo{}, false, fmt.Errorf("latest open session: %w", err)
	}
	return info, true, nil
}

// EndSession marks a session as ended; Append rejects further events for it.
// Ending an already ended session is a no-op that keeps the original end
// time.
func (s *Store) EndSession(ctx context.Context, id string) error {
	if s.w == nil {
		return fmt.Errorf("end session %q: %w", id, errStoreReadOnly)
	}
	res, err := s.w.ExecContext(ctx,
		"UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
		storeFormatTime(s.now()), id)
	if err != nil {
		return fmt.Errorf("end session %q: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("end session %q: %w", id, err)
	} else if n == 0 {
		if _, err := s.sessionState(ctx, id); err != nil {
			return fmt.Errorf("end session %q: %w", id, err)
		}
	}
	return nil
}

// sessionState reports whether session id is ended, or ErrUnknownSession.
func (s *Store) sessionState(ctx context.Context, id string) (ended bool, err error) {
	err = s.r.QueryRowContext(ctx,
		"SELECT ended_at IS NOT NULL FROM sessions WHERE id = ?", id).Scan(&ended)
	if errors.Is(err, sql.ErrNoRows) {
		return false, ErrUnknownSession
	}
	return ended, err
}

// Append adds an event to an open session. payload must be a valid JSON
// document and is stored byte for byte. When Append returns without error
// the event is committed and synced to stable storage.
func (s *Store) Append(ctx context.Context, session, kind string, payload json.RawMessage) (Record, error) {
	if kind == "" {
		return Record{}, fmt.Errorf("append to session %q: empty event kind", session)
	}
	if s.w == nil {
		return Record{}, fmt.Errorf("append to session %q: %w", session, errStoreReadOnly)
	}
	if !json.Valid(payload) {
		return Record{}, fmt.Errorf("append %s event to session %q: %w: %.64q",
			kind, session, ErrInvalidPayload, payload)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	at := s.now()
	atText := storeFormatTime(at)
	seq := s.last.seq + 1
	hash := storeChain(s.last.hash, seq, session, atText, kind, payload)
	res, err := s.appendStmt.ExecContext(ctx, seq, atText, kind, string(payload), hash, session)
	if err != nil {
		return Record{}, fmt.Errorf("append %s event to session %q: %w", kind, session, err)
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		// Nothing inserted: the session is missing or ended.
		err = ErrUnknownSession
		if ended, serr := s.sessionState(ctx, session); serr != nil {
			err = serr
		} else if ended {
			err = ErrSessionEnded
		}
	}
	if err != nil {
		return Record{}, fmt.Errorf("append %s event to session %q: %w", kind, session, err)
	}
	s.last = storeAcked{seq: seq, hash: hash}
	if err := storeWriteAck(s.ack, s.last); err != nil && s.ackErr == nil {
		// The event is stored: it is acknowledged, and Close reports
		// that the file lags.
		s.ackErr = fmt.Errorf("acknowledgement file: %w", err)
	}
	return Record{
		Seq:     seq,
		Session: session,
		At:      at,
		Kind:    kind,
		Payload: append(json.RawMessage(nil), payload...),
	}, nil
}

// Records returns all events of a session in sequence order. An unknown
// session has no records.
func (s *Store) Records(ctx context.Context, session string) ([]Record, error) {
	rows, err := s.r.QueryContext(ctx,
		"SELECT seq, at, kind, payload FROM events WHERE session_id = ? ORDER BY seq", session)
	if err != nil {
		return nil, fmt.Errorf("read records of session %q: %w", session, err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var (
			r  = Record{Session: session}
			at string
		)
		if err := rows.Scan(&r.Seq, &at, &r.Kind, (*[]byte)(&r.Payload)); err != nil {
			return nil, fmt.Errorf("read records of session %q: %w", session, err)
		}
		if r.At, err = storeParseTime(at); err != nil {
			return nil, fmt.Errorf("read records of session %q: seq %d: %w", session, r.Seq, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read records of session %q: %w", session, err)
	}
	return out, nil
}

// Count returns the number of events in a session (0 for an unknown session).
func (s *Store) Count(ctx context.Context, session string) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx,
		"SELECT COUNT(*) FROM events WHERE session_id = ?", session).Scan(&n); err != nil {
		return 0, fmt.Errorf("count records of session %q: %w", session, err)
	}
	return n, nil
}

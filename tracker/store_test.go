package tracker

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// storeTestClock returns a deterministic clock starting at a fixed instant
// (with a non-zero nanosecond part) and advancing by step on every call.
func storeTestClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	t := time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(step)
		return t
	}
}

func storeTestOpenAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := OpenStore(path)
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func storeTestOpen(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.db")
	return storeTestOpenAt(t, path), path
}

func storeMustCreate(t testing.TB, s *Store, id, name string) {
	t.Helper()
	if err := s.CreateSession(context.Background(), id, name); err != nil {
		t.Fatalf("CreateSession(%q): %v", id, err)
	}
}

func storeMustAppend(t testing.TB, s *Store, session, kind, payload string) Record {
	t.Helper()
	rec, err := s.Append(context.Background(), session, kind, json.RawMessage(payload))
	if err != nil {
		t.Fatalf("Append(%q, %q): %v", session, kind, err)
	}
	return rec
}

func storeMustRecords(t testing.TB, s *Store, session string) []Record {
	t.Helper()
	recs, err := s.Records(context.Background(), session)
	if err != nil {
		t.Fatalf("Records(%q): %v", session, err)
	}
	return recs
}

func storeSameRecord(a, b Record) bool {
	return a.Seq == b.Seq && a.Session == b.Session && a.At.Equal(b.At) &&
		a.Kind == b.Kind && bytes.Equal(a.Payload, b.Payload)
}

func TestStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := storeTestOpen(t)
	s.Now = storeTestClock(1500 * time.Microsecond)
	storeMustCreate(t, s, "s1", "Friday game")

	payloads := []string{
		`{"ball":7,"pocket":"corner"}`,
		` { "spaced" : [1, 2.5e3, null, true] } `, // whitespace kept byte for byte
		`"plain string with \"quotes\" and \u00e9 and é"`,
		`12345678901234567890`,
		`{"big":"` + strings.Repeat("x", 10000) + `"}`, // overflow pages
	}
	var want []Record
	for i, p := range payloads {
		rec := storeMustAppend(t, s, "s1", fmt.Sprintf("kind%d", i), p)
		if rec.Session != "s1" || rec.Kind != fmt.Sprintf("kind%d", i) || string(rec.Payload) != p {
			t.Fatalf("Append returned %+v", rec)
		}
		if rec.At.Location() != time.UTC || rec.At.Nanosecond() == 0 {
			t.Errorf("At = %v, want UTC with nanoseconds from Now", rec.At)
		}
		want = append(want, rec)
	}
	got := storeMustRecords(t, s, "s1")
	if len(got) != len(want) {
		t.Fatalf("Records: got %d, want %d", len(got), len(want))
	}
	for i := range want {
		if !storeSameRecord(got[i], want[i]) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if n, err := s.Count(ctx, "s1"); err != nil || n != len(want) {
		t.Errorf("Count = %d, %v; want %d", n, err, len(want))
	}
	if n, err := s.Count(ctx, "nope"); err != nil || n != 0 {
		t.Errorf("Count(unknown) = %d, %v; want 0", n, err)
	}
	if recs := storeMustRecords(t, s, "nope"); len(recs) != 0 {
		t.Errorf("Records(unknown) = %v, want none", recs)
	}
	// The returned payload must not alias the caller's buffer.
	buf := []byte(`{"a":1}`)
	rec, err := s.Append(ctx, "s1", "alias", buf)
	if err != nil {
		t.Fatal(err)
	}
	buf[2] = 'b'
	if string(rec.Payload) != `{"a":1}` {
		t.Errorf("Record.Payload aliases the argument: %s", rec.Payload)
	}
}

func TestStoreOrder(t *testing.T) {
	s, _ := storeTestOpen(t)
	storeMustCreate(t, s, "a", "A")
	storeMustCreate(t, s, "b", "B")
	const n = 100
	for i := 0; i < n; i++ {
		storeMustAppend(t, s, "a", "tick", fmt.Sprintf(`{"i":%d}`, i))
		storeMustAppend(t, s, "b", "tick", fmt.Sprintf(`{"i":%d}`, i))
	}
	var prevA int64
	for _, id := range []string{"a", "b"} {
		recs := storeMustRecords(t, s, id)
		if len(recs) != n {
			t.Fatalf("%s: %d records, want %d", id, len(recs), n)
		}
		for i, r := range recs {
			if want := fmt.Sprintf(`{"i":%d}`, i); string(r.Payload) != want {
				t.Fatalf("%s[%d] payload %s, want %s", id, i, r.Payload, want)
			}
			if i > 0 && r.Seq <= recs[i-1].Seq {
				t.Fatalf("%s: seq not increasing: %d after %d", id, r.Seq, recs[i-1].Seq)
			}
			if i > 0 && r.At.Before(recs[i-1].At) {
				t.Fatalf("%s: time went backwards", id)
			}
			if r.Session != id {
				t.Fatalf("%s: record of session %q", id, r.Session)
			}
		}
		if id == "a" {
			prevA = recs[0].Seq
		} else if recs[0].Seq != prevA+1 {
			t.Errorf("interleaved seqs: b[0]=%d, a[0]=%d", recs[0].Seq, prevA)
		}
	}
}

func TestStoreSessionsNewestFirst(t *testing.T) {
	ctx := context.Background()
	s, _ := storeTestOpen(t)
	s.Now = storeTestClock(time.Minute)

	if _, ok, err := s.LatestOpenSession(ctx); err != nil || ok {
		t.Fatalf("LatestOpenSession on empty store = %v, %v; want none", ok, err)
	}
	if got, err := s.Sessions(ctx); err != nil || len(got) != 0 {
		t.Fatalf("Sessions on empty store = %v, %v", got, err)
	}
	for _, id := range []string{"one", "two", "three"} {
		storeMustCreate(t, s, id, "name-"+id)
	}
	storeMustAppend(t, s, "two", "k", `1`)
	storeMustAppend(t, s, "two", "k", `2`)
	storeMustAppend(t, s, "three", "k", `3`)

	got, err := s.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, si := range got {
		ids = append(ids, si.ID)
	}
	if strings.Join(ids, ",") != "three,two,one" {
		t.Fatalf("Sessions order = %v, want three,two,one", ids)
	}
	if got[0].Events != 1 || got[1].Events != 2 || got[2].Events != 0 {
		t.Errorf("event counts = %d,%d,%d; want 1,2,0", got[0].Events, got[1].Events, got[2].Events)
	}
	if got[1].Name != "name-two" || got[0].Ended != nil || !got[0].Created.After(got[1].Created) {
		t.Errorf("bad session info: %+v", got[:2])
	}

	latest, ok, err := s.LatestOpenSession(ctx)
	if err != nil || !ok || latest.ID != "three" || latest.Events != 1 {
		t.Fatalf("LatestOpenSession = %+v, %v, %v; want three", latest, ok, err)
	}
	if err := s.EndSession(ctx, "three"); err != nil {
		t.Fatal(err)
	}
	latest, ok, err = s.LatestOpenSession(ctx)
	if err != nil || !ok || latest.ID != "two" {
		t.Fatalf("after ending three: LatestOpenSession = %+v, %v, %v; want two", latest, ok, err)
	}
	got, _ = s.Sessions(ctx)
	if got[0].ID != "three" || got[0].Ended == nil || !got[0].Ended.After(got[0].Created) {
		t.Errorf("ended session info: %+v", got[0])
	}
	for _, id := range []string{"two", "one"} {
		if err := s.EndSession(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if latest, ok, err := s.LatestOpenSession(ctx); err != nil || ok {
		t.Fatalf("all ended: LatestOpenSession = %+v, %v, %v; want none", latest, ok, err)
	}

	// Sessions created within the same clock tick: the later one is newer.
	s.Now = func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	storeMustCreate(t, s, "tie-1", "")
	storeMustCreate(t, s, "tie-2", "")
	if latest, _, _ := s.LatestOpenSession(ctx); latest.ID != "tie-2" {
		t.Errorf("tie: LatestOpenSession = %q, want tie-2", latest.ID)
	}
}

func TestStoreSessionErrors(t *testing.T) {
	ctx := context.Background()
	s, _ := storeTestOpen(t)
	s.Now = storeTestClock(time.Second)
	storeMustCreate(t, s, "s", "")

	if err := s.CreateSession(ctx, "s", "again"); err == nil {
		t.Error("duplicate CreateSession succeeded")
	}
	if err := s.CreateSession(ctx, "", "x"); err == nil {
		t.Error("CreateSession with empty id succeeded")
	}
	if _, err := s.Append(ctx, "missing", "k", json.RawMessage(`{}`)); !errors.Is(err, ErrUnknownSession) {
		t.Errorf("Append to unknown session: %v, want ErrUnknownSession", err)
	}
	if _, err := s.Append(ctx, "s", "", json.RawMessage(`{}`)); err == nil {
		t.Error("Append with empty kind succeeded")
	}
	if err := s.EndSession(ctx, "missing"); !errors.Is(err, ErrUnknownSession) {
		t.Errorf("EndSession(unknown): %v, want ErrUnknownSession", err)
	}
	storeMustAppend(t, s, "s", "k", `{}`)
	if err := s.EndSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	first, _ := s.Sessions(ctx)
	if err := s.EndSession(ctx, "s"); err != nil {
		t.Errorf("second EndSession: %v, want nil", err)
	}
	second, _ := s.Sessions(ctx)
	if !first[0].Ended.Equal(*second[0].Ended) {
		t.Errorf("second EndSession changed end time %v -> %v", first[0].Ended, second[0].Ended)
	}
	_, err := s.Append(ctx, "s", "k", json.RawMessage(`{}`))
	if !errors.Is(err, ErrSessionEnded) {
		t.Errorf("Append to ended session: %v, want ErrSessionEnded", err)
	}
	if n, _ := s.Count(ctx, "s"); n != 1 {
		t.Errorf("Count = %d after rejected append, want 1", n)
	}
	ctxDone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Append(ctxDone, "s", "k", json.RawMessage(`{}`)); err == nil {
		t.Error("Append with cancelled context succeeded")
	}
}

func TestStoreInvalidJSON(t *testing.T) {
	ctx := context.Background()
	s, _ := storeTestOpen(t)
	storeMustCreate(t, s, "s", "")
	for _, p := range []string{"", " ", "{", `{"a":}`, "nope", `{"a":1} {"b":2}`, "\xff", `'single'`} {
		_, err := s.Append(ctx, "s", "k", json.RawMessage(p))
		if !errors.Is(err, ErrInvalidPayload) {
			t.Errorf("Append(%q): err = %v, want ErrInvalidPayload", p, err)
			continue
		}
		if !strings.Contains(err.Error(), "not valid JSON") || !strings.Contains(err.Error(), `"s"`) {
			t.Errorf("unclear error for %q: %v", p, err)
		}
	}
	if _, err := s.Append(ctx, "s", "k", nil); !errors.Is(err, ErrInvalidPayload) {
		t.Errorf("Append(nil): err = %v, want ErrInvalidPayload", err)
	}
	if n, err := s.Count(ctx, "s"); err != nil || n != 0 {
		t.Errorf("Count = %d, %v; want 0", n, err)
	}
}

func TestStoreReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nested", "dirs", "session.db") // parents created
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Now = storeTestClock(time.Millisecond)
	storeMustCreate(t, s, "old", "Old")
	storeMustCreate(t, s, "cur", "Current")
	var want []Record
	for i := 0; i < 20; i++ {
		want = append(want, storeMustAppend(t, s, "cur", "shot", fmt.Sprintf(`{"n":%d}`, i)))
	}
	if err := s.EndSession(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	before, _ := s.Sessions(ctx)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s2 := storeTestOpenAt(t, path)
	got := storeMustRecords(t, s2, "cur")
	if len(got) != len(want) {
		t.Fatalf("after reopen: %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if !storeSameRecord(got[i], want[i]) {
			t.Fatalf("after reopen record %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	after, err := s2.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 2 || after[0].ID != before[0].ID || !after[0].Created.Equal(before[0].Created) ||
		after[1].Ended == nil || !after[1].Ended.Equal(*before[1].Ended) || after[0].Events != 20 {
		t.Errorf("sessions changed across reopen:\nbefore %+v\nafter  %+v", before, after)
	}
	latest, ok, err := s2.LatestOpenSession(ctx)
	if err != nil || !ok || latest.ID != "cur" {
		t.Fatalf("LatestOpenSession after reopen = %+v, %v, %v", latest, ok, err)
	}
	// Appending continues the sequence, with the default clock.
	rec := storeMustAppend(t, s2, "cur", "shot", `{}`)
	if rec.Seq != want[len(want)-1].Seq+1 {
		t.Errorf("seq after reopen = %d, want %d", rec.Seq, want[len(want)-1].Seq+1)
	}
	if d := time.Since(rec.At); d < 0 || d > time.Minute {
		t.Errorf("default clock: At = %v", rec.At)
	}
}

func storeUserVersion(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	if err := s.r.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestStoreMigrationsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.db")
	nMig := len(storeMigrations())
	for i := 0; i < 3; i++ {
		s, err := OpenStore(path)
		if err != nil {
			t.Fatalf("open #%d: %v", i, err)
		}
		if v := storeUserVersion(t, s); v != nMig {
			t.Errorf("open #%d: user_version = %d, want %d", i, v, nMig)
		}
		var tables int
		if err := s.r.QueryRow(`SELECT COUNT(*) FROM sqlite_schema
			WHERE type = 'table' AND name IN ('sessions', 'events')`).Scan(&tables); err != nil {
			t.Fatal(err)
		}
		if tables != 2 {
			t.Errorf("open #%d: %d tables, want 2", i, tables)
		}
		id := fmt.Sprintf("s%d", i)
		storeMustCreate(t, s, id, "")
		storeMustAppend(t, s, id, "k", `{}`)
		if got, _ := s.Sessions(context.Background()); len(got) != i+1 {
			t.Errorf("open #%d: %d sessions, want %d", i, len(got), i+1)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}

	// A database written by a newer program is refused, not modified.
	s := storeTestOpenAt(t, path)
	if _, err := s.w.Exec(fmt.Sprintf("PRAGMA user_version = %d", nMig+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := OpenStore(path)
	if err == nil || !strings.Contains(err.Error(), "newer") || !strings.Contains(err.Error(), path) {
		t.Fatalf("OpenStore of newer schema: err = %v", err)
	}
}

func TestStoreGarbageFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "garbage.db")
	garbage := bytes.Repeat([]byte("this is definitely not an sqlite file\n"), 200)
	if err := os.WriteFile(path, garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenStore(path)
	if err == nil {
		s.Close()
		t.Fatal("OpenStore of a garbage file succeeded")
	}
	t.Logf("error: %v", err)
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error does not name the path %s: %v", path, err)
	}
	if !strings.Contains(err.Error(), "not an SQLite database") {
		t.Errorf("error does not say what is wrong: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, garbage) {
		t.Error("garbage file was modified")
	}

	// A directory where the file should be.
	if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("OpenStore(directory): err = %v", err)
	}
}

func TestStoreWALMode(t *testing.T) {
	s, path := storeTestOpen(t)
	var mode string
	for _, db := range []*sql.DB{s.w, s.r} {
		if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != "wal" {
			t.Errorf("journal_mode = %q, want wal", mode)
		}
	}
	var sync, fk, busy int
	if err := s.w.QueryRow("PRAGMA synchronous").Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if sync != 2 {
		t.Errorf("writer synchronous = %d, want 2 (FULL)", sync)
	}
	if err := s.w.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil {
		t.Fatal(err)
	}
	if fk != 1 {
		t.Errorf("foreign_keys = %d, want 1", fk)
	}
	if err := s.w.QueryRow("PRAGMA busy_timeout").Scan(&busy); err != nil {
		t.Fatal(err)
	}
	if busy <= 0 {
		t.Errorf("busy_timeout = %d, want > 0", busy)
	}
	storeMustCreate(t, s, "s", "")
	storeMustAppend(t, s, "s", "k", `{}`)
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("no WAL file: %v", err)
	}
	// Readers are read-only.
	if _, err := s.r.Exec("DELETE FROM events"); err == nil {
		t.Error("write through the read-only pool succeeded")
	}
}

func TestStoreConcurrent(t *testing.T) {
	ctx := context.Background()
	s, _ := storeTestOpen(t)
	storeMustCreate(t, s, "s", "")
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errc := make(chan error, writers+2)
	stop := make(chan struct{})
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if _, err := s.Append(ctx, "s", "k", json.RawMessage(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	var rwg sync.WaitGroup
	for r := 0; r < 2; r++ {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				recs, err := s.Records(ctx, "s")
				if err != nil {
					errc <- err
					return
				}
				for i := 1; i < len(recs); i++ {
					if recs[i].Seq <= recs[i-1].Seq {
						errc <- fmt.Errorf("reader saw seq %d after %d", recs[i].Seq, recs[i-1].Seq)
						return
					}
				}
				if _, err := s.Sessions(ctx); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	rwg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	recs := storeMustRecords(t, s, "s")
	if len(recs) != writers*each {
		t.Fatalf("%d records, want %d", len(recs), writers*each)
	}
	next := map[float64]float64{}
	for _, r := range recs {
		var p struct{ W, I float64 }
		if err := json.Unmarshal(r.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if p.I != next[p.W] {
			t.Fatalf("writer %v: event %v out of order (want %v)", p.W, p.I, next[p.W])
		}
		next[p.W]++
	}
}

// Crash test. TestStoreCrashDurability re-executes the test binary, running
// only TestStoreCrashChild with storeCrashChildEnv set; the child appends
// events forever, printing "ack <seq> <payload>" after each Append returns.
// The parent SIGKILLs it at random points and checks that every acknowledged
// event survived.
const (
	storeCrashChildEnv = "TABLECAM_STORE_CHILD"
	storeCrashDBEnv    = "TABLECAM_STORE_CHILD_DB"
	storeCrashRunEnv   = "TABLECAM_STORE_CHILD_RUN"
	storeCrashSeedEnv  = "TABLECAM_STORE_CRASH_SEED"
	storeCrashSession  = "crash"
)

// storeCrashPayload is a single-line JSON payload whose size varies from a
// few bytes to beyond one database page.
func storeCrashPayload(run, i int) string {
	pad := strings.Repeat("abcdefghij", (run*131+i*37)%600)
	return fmt.Sprintf(`{"run":%d,"i":%d,"s":"é\"\\\n","pad":"%s"}`, run, i, pad)
}

func TestStoreCrashChild(t *testing.T) {
	if os.Getenv(storeCrashChildEnv) != "1" {
		t.Skip("helper process for TestStoreCrashDurability")
	}
	run, _ := strconv.Atoi(os.Getenv(storeCrashRunEnv))
	// Never outlive a vanished parent by long.
	time.AfterFunc(30*time.Second, func() { os.Exit(3) })
	ctx := context.Background()
	s, err := OpenStore(os.Getenv(storeCrashDBEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if _, ok, err := s.LatestOpenSession(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	} else if !ok {
		if err := s.CreateSession(ctx, storeCrashSession, "crash test"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	for i := 0; ; i++ {
		p := storeCrashPayload(run, i)
		rec, err := s.Append(ctx, storeCrashSession, "crash", json.RawMessage(p))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		// os.Stdout is unbuffered: the line is written before the next Append.
		if _, err := fmt.Printf("ack %d %s\n", rec.Seq, p); err != nil {
			os.Exit(4)
		}
	}
}

type storeAck struct {
	seq     int64
	payload string
}

func TestStoreCrashDurability(t *testing.T) {
	runs := 50
	if testing.Short() {
		runs = 10
	}
	seed := uint64(1)
	if v := os.Getenv(storeCrashSeedEnv); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s: %v", storeCrashSeedEnv, err)
		}
	}
	t.Logf("seed %d (set %s to change)", seed, storeCrashSeedEnv)
	rng := rand.New(rand.NewPCG(seed, 0x7ab1eca))
	dbPath := filepath.Join(t.TempDir(), "crash.db")

	var (
		known     []string // payload of every record found so far, by seq-1
		totalAcks int
		unacked   int
		start     = time.Now()
	)
	for run := 0; run < runs; run++ {
		// Kill plan: early kills (anywhere from process start, which may
		// hit opening/migrating the store) or after a random number of acks
		// plus a random delay.
		early := rng.IntN(5) == 0
		earlyDelay := time.Duration(rng.IntN(40_000)) * time.Microsecond
		wantAcks := 1 + rng.IntN(25)
		lateDelay := time.Duration(rng.IntN(3000)) * time.Microsecond

		acks, childErr := storeRunCrashChild(t, dbPath, run, func(ack <-chan storeAck, collected *[]storeAck) {
			if early {
				timer := time.NewTimer(earlyDelay)
				defer timer.Stop()
				for {
					select {
					case a, ok := <-ack:
						if !ok {
							return
						}
						*collected = append(*collected, a)
					case <-timer.C:
						return
					}
				}
			}
			deadline := time.NewTimer(10 * time.Second)
			defer deadline.Stop()
			for len(*collected) < wantAcks {
				select {
				case a, ok := <-ack:
					if !ok {
						return
					}
					*collected = append(*collected, a)
				case <-deadline.C:
					return
				}
			}
			time.Sleep(lateDelay)
		})
		if childErr != nil {
			t.Fatalf("run %d: %v", run, childErr)
		}
		if !early && len(acks) < wantAcks {
			t.Fatalf("run %d: child produced only %d acks", run, len(acks))
		}
		totalAcks += len(acks)

		// Reopen and verify.
		s, err := OpenStore(dbPath)
		if err != nil {
			t.Fatalf("run %d: reopen after kill: %v", run, err)
		}
		recs, err := s.Records(context.Background(), storeCrashSession)
		s.Close()
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		for i, r := range recs {
			if r.Seq != int64(i+1) {
				t.Fatalf("run %d: record %d has seq %d: seqs not contiguous from 1", run, i, r.Seq)
			}
			if i < len(known) && string(r.Payload) != known[i] {
				t.Fatalf("run %d: seq %d payload changed:\n got %.100s\nwant %.100s", run, r.Seq, r.Payload, known[i])
			}
		}
		if len(recs) < len(known) {
			t.Fatalf("run %d: %d records, fewer than the %d seen before", run, len(recs), len(known))
		}
		fresh := recs[len(known):]
		for i, a := range acks {
			if i >= len(fresh) {
				t.Fatalf("run %d: acked seq %d missing (only %d records)", run, a.seq, len(recs))
			}
			if fresh[i].Seq != a.seq || string(fresh[i].Payload) != a.payload {
				t.Fatalf("run %d: acked seq %d: found seq %d with payload %.100s, want %.100s",
					run, a.seq, fresh[i].Seq, fresh[i].Payload, a.payload)
			}
		}
		// At most the one Append in flight at the kill may have committed
		// without its ack being written; it must be the next event.
		switch extra := fresh[len(acks):]; len(extra) {
		case 0:
		case 1:
			if want := storeCrashPayload(run, len(acks)); string(extra[0].Payload) != want {
				t.Fatalf("run %d: unacked seq %d has payload %.100s, want %.100s", run, extra[0].Seq, extra[0].Payload, want)
			}
			unacked++
		default:
			t.Fatalf("run %d: %d unacknowledged records, want at most 1", run, len(extra))
		}
		for _, r := range fresh {
			known = append(known, string(r.Payload))
		}
	}
	t.Logf("%d kills in %v: %d events stored, %d acked, %d committed but unacked at kill",
		runs, time.Since(start).Round(time.Millisecond), len(known), totalAcks, unacked)
}

// storeRunCrashChild starts a crash-test child, lets wait consume its acks
// until it decides to kill, SIGKILLs the child and returns every complete
// ack line the child wrote.
func storeRunCrashChild(t *testing.T, dbPath string, run int,
	wait func(ack <-chan storeAck, collected *[]storeAck)) ([]storeAck, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		storeCrashChildEnv+"=1",
		storeCrashDBEnv+"="+dbPath,
		storeCrashRunEnv+"="+strconv.Itoa(run))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ack := make(chan storeAck, 1024)
	readErr := make(chan error, 1)
	go func() {
		defer close(ack)
		br := bufio.NewReader(stdout)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				// A partial last line (killed mid-write) is not an ack.
				if err != io.EOF {
					readErr <- err
				}
				close(readErr)
				return
			}
			rest, ok := strings.CutPrefix(line, "ack ")
			if !ok {
				continue // test framework chatter
			}
			seqStr, payload, ok := strings.Cut(strings.TrimSuffix(rest, "\n"), " ")
			seq, err := strconv.ParseInt(seqStr, 10, 64)
			if !ok || err != nil {
				readErr <- fmt.Errorf("malformed ack line %.80q", line)
				close(readErr)
				return
			}
			ack <- storeAck{seq, payload}
		}
	}()

	var collected []storeAck
	wait(ack, &collected)
	if err := cmd.Process.Signal(os.Kill); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return nil, fmt.Errorf("kill child: %w", err)
	}
	for a := range ack { // acks written before the kill
		collected = append(collected, a)
	}
	if err := <-readErr; err != nil {
		return nil, err
	}
	werr := cmd.Wait()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != -1 {
		return nil, fmt.Errorf("child was not killed by a signal (%v); stderr:\n%s", werr, stderr.String())
	}
	return collected, nil
}

func BenchmarkAppend(b *testing.B) {
	s, _ := storeTestOpen(b)
	storeMustCreate(b, s, "bench", "")
	payload := json.RawMessage(`{"frame":123456,"balls":[{"id":1,"x":0.25,"y":0.75},{"id":8,"x":0.5,"y":0.5}],"event":"pocketed"}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Append(ctx, "bench", "shot", payload); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecords10k(b *testing.B) {
	const n = 10_000
	s, _ := storeTestOpen(b)
	storeMustCreate(b, s, "bench", "")
	// Bulk-load in one transaction: n durable Appends would take a while.
	tx, err := s.w.Begin()
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		if _, err := tx.Exec("INSERT INTO events (session_id, at, kind, payload) VALUES (?, ?, ?, ?)",
			"bench", storeFormatTime(at.Add(time.Duration(i)*time.Millisecond)), "shot",
			fmt.Sprintf(`{"frame":%d,"balls":[{"id":1,"x":0.25,"y":0.75},{"id":8,"x":0.5,"y":0.5}]}`, i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		recs, err := s.Records(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if len(recs) != n {
			b.Fatalf("%d records", len(recs))
		}
	}
}

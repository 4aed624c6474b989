package tracker

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeDamageFill writes n events to a new store at path and returns their
// payloads, leaving the store open (its WAL not checkpointed) when keep is
// set.
func storeDamageFill(t *testing.T, path string, n int, keep bool) (*Store, []string) {
	t.Helper()
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	storeMustCreate(t, s, "g", "")
	var want []string
	for i := 0; i < n; i++ {
		p := fmt.Sprintf(`{"i":%d,"pad":"%s"}`, i, strings.Repeat("x", 40))
		storeMustAppend(t, s, "g", "k", p)
		want = append(want, p)
	}
	if keep {
		return s, want
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return nil, want
}

func storeWantDamaged(t *testing.T, path, what string) {
	t.Helper()
	for _, opts := range []StoreOptions{{}, {ReadOnly: true}} {
		s, err := OpenStoreWith(path, opts)
		var d *StoreDamagedError
		if err == nil {
			s.Close()
			t.Fatalf("%s: open %+v succeeded", what, opts)
		}
		if !errors.As(err, &d) {
			t.Fatalf("%s: open %+v: %v, want a StoreDamagedError", what, opts, err)
		}
		if !strings.Contains(err.Error(), "sessions --check") {
			t.Errorf("%s: the error gives no way out: %v", what, err)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A flipped byte anywhere in the database file is found on open, or it
// changed nothing: every event is still there as it was (a flipped byte
// made `sessions` show 283 of 500 events and later events vanish).
func TestStoreFlippedByteIsDetected(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "good.db")
	_, want := storeDamageFill(t, path, 500, false)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ack, err := os.ReadFile(path + ".ack")
	if err != nil {
		t.Fatal(err)
	}
	detected, harmless := 0, 0
	for off := 100; off < len(good); off += 331 {
		bad := filepath.Join(dir, fmt.Sprintf("bad-%d.db", off))
		b := append([]byte(nil), good...)
		b[off] ^= 0x20
		if err := os.WriteFile(bad, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bad+".ack", ack, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := OpenStoreWith(bad, StoreOptions{ReadOnly: true})
		if err != nil {
			detected++
			continue
		}
		recs, err := s.Records(context.Background(), "g")
		s.Close()
		if err != nil {
			t.Fatalf("byte %d flipped: opened, then %v", off, err)
		}
		if len(recs) != len(want) {
			t.Fatalf("byte %d flipped: opened with %d of %d events", off, len(recs), len(want))
		}
		for i, r := range recs {
			if string(r.Payload) != want[i] {
				t.Fatalf("byte %d flipped: opened with event %d changed: %s", off, r.Seq, r.Payload)
			}
		}
		harmless++
	}
	t.Logf("%d flips detected, %d harmless", detected, harmless)
	if detected == 0 {
		t.Error("no flipped byte was detected")
	}
}

// A deleted WAL, or a damaged one, loses the events that were only in it:
// the acknowledgement file shows the gap and the store is refused.
func TestStoreLostOrDamagedWALIsDetected(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	s, _ := storeDamageFill(t, path, 50, true)
	defer s.Close()
	wal, err := os.ReadFile(path + "-wal")
	if err != nil || len(wal) == 0 {
		t.Fatalf("no WAL to lose: %v", err)
	}

	lost := filepath.Join(dir, "lost.db") // the database without its WAL
	copyFile(t, path, lost)
	copyFile(t, path+".ack", lost+".ack")
	storeWantDamaged(t, lost, "deleted WAL")

	damaged := filepath.Join(dir, "damaged.db") // a byte of the last frames flipped
	copyFile(t, path, damaged)
	copyFile(t, path+".ack", damaged+".ack")
	w := append([]byte(nil), wal...)
	w[len(w)-100] ^= 0xff
	if err := os.WriteFile(damaged+"-wal", w, 0o644); err != nil {
		t.Fatal(err)
	}
	storeWantDamaged(t, damaged, "damaged WAL")

	// Salvage reads what is there and says what is missing.
	sv, err := OpenStoreWith(lost, StoreOptions{Salvage: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	rep, err := sv.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Whole() || rep.Acked != 50 || !strings.Contains(strings.Join(rep.Problems, "; "), "acknowledged but") {
		t.Errorf("check of the database without its WAL: %+v", rep)
	}
}

// A zero-byte database is not a new empty store when events were
// acknowledged in it, or when nothing says it held none.
func TestStoreZeroByteDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.db")
	storeDamageFill(t, path, 5, false)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	storeWantDamaged(t, path, "emptied database")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(path); err == nil || !strings.Contains(err.Error(), "5 events were acknowledged") {
		t.Errorf("deleted database: err = %v", err)
	}

	bare := filepath.Join(dir, "bare.db") // zero bytes, no acknowledgement file
	if err := os.WriteFile(bare, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(bare); err == nil {
		t.Error("a zero-byte database with no acknowledgement file was opened")
	}
}

// A database from before the chain gets it on migration: it checks whole,
// and the events appended after chain on.
func TestStoreMigrationChainsOldEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", storeDSN(path, "_pragma=journal_mode(WAL)"))
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin()
	if _, err := tx.Exec(storeMigrations()[0].sql); err != nil {
		t.Fatal(err)
	}
	tx.Exec("PRAGMA user_version = 1")
	tx.Exec("INSERT INTO sessions (id, created_at) VALUES ('g', '2025-01-01T00:00:00.000000000Z')")
	for i := 0; i < 30; i++ {
		tx.Exec("INSERT INTO events (session_id, at, kind, payload) VALUES ('g', '2025-01-01T00:00:00.000000000Z', 'k', ?)", fmt.Sprintf(`{"i":%d}`, i))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	storeMustAppend(t, s, "g", "k", `{"i":30}`)
	rep, err := s.Check(context.Background())
	s.Close()
	if err != nil || !rep.Whole() || rep.Events != 31 || rep.WholeTo != 31 || rep.Acked != 31 {
		t.Errorf("check after migration: %+v, %v", rep, err)
	}
	s, err = OpenStore(path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	s.Close()
}

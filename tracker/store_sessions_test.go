package tracker

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"
)

// Deleting a session removes its events and keeps the store whole: the
// other sessions' events keep their sequence numbers, the store opens
// again without a complaint, Check finds nothing, and appending goes on.
func TestStoreDeleteSessionKeepsTheStoreWhole(t *testing.T) {
	ctx := context.Background()
	for _, del := range []string{"a", "b", "c"} { // first, interleaved, last
		t.Run(del, func(t *testing.T) {
			s, path := storeTestOpen(t)
			s.Now = storeTestClock(time.Second)
			for _, id := range []string{"a", "b", "c"} {
				storeMustCreate(t, s, id, "")
			}
			order := map[string][]string{
				"a": {"a", "a", "b", "c", "b", "c", "c"},
				"b": {"a", "b", "c", "b", "a", "c"},
				"c": {"a", "b", "a", "c", "c"},
			}[del]
			for i, id := range order {
				storeMustAppend(t, s, id, "k", `{"n":`+string(rune('0'+i))+`}`)
			}
			before := map[string][]Record{}
			for _, id := range []string{"a", "b", "c"} {
				before[id] = storeMustRecords(t, s, id)
			}
			n, err := s.DeleteSession(ctx, del)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(before[del]) {
				t.Errorf("deleted %d events, want %d", n, len(before[del]))
			}
			if _, err := s.Session(ctx, del); !errors.Is(err, ErrUnknownSession) {
				t.Errorf("Session(%s) after delete: %v, want ErrUnknownSession", del, err)
			}
			if got := storeMustRecords(t, s, del); len(got) != 0 {
				t.Errorf("%d events of the deleted session remain", len(got))
			}
			rep, err := s.Check(ctx)
			if err != nil || !rep.Whole() {
				t.Fatalf("Check after delete: %+v, %v", rep, err)
			}
			keep := "a"
			if del == "a" {
				keep = "b"
			}
			rec := storeMustAppend(t, s, keep, "k", `{"after":1}`)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s2, err := OpenStore(path)
			if err != nil {
				t.Fatalf("reopen after delete: %v", err)
			}
			defer s2.Close()
			for _, id := range []string{"a", "b", "c"} {
				if id == del {
					continue
				}
				got := storeMustRecords(t, s2, id)
				want := before[id]
				if id == keep {
					want = append(want, rec)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d events, want %d", id, len(got), len(want))
				}
				for i := range got {
					if !storeSameRecord(got[i], want[i]) {
						t.Errorf("%s event %d: %+v, want %+v", id, i, got[i], want[i])
					}
				}
			}
			if rep, err := s2.Check(ctx); err != nil || !rep.Whole() {
				t.Fatalf("Check after reopen: %+v, %v", rep, err)
			}
		})
	}
}

// A gap in the log that DeleteSession did not make (a row removed behind
// the store's back) is still found.
func TestStoreGapNotFromDeleteIsDamage(t *testing.T) {
	s, path := storeTestOpen(t)
	storeMustCreate(t, s, "a", "")
	for range 4 {
		storeMustAppend(t, s, "a", "k", `{}`)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM events WHERE seq = 2"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = OpenStore(path)
	var damaged *StoreDamagedError
	if !errors.As(err, &damaged) || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("OpenStore after a row was removed: %v, want damage naming the missing event", err)
	}
}

// Renaming a session changes its name only; an unknown session is an
// error. Sessions and LatestOpenSession order by last use, not creation.
func TestStoreRenameAndLastUsed(t *testing.T) {
	ctx := context.Background()
	s, _ := storeTestOpen(t)
	s.Now = storeTestClock(time.Minute)
	storeMustCreate(t, s, "old", "old")
	storeMustCreate(t, s, "new", "new")
	if latest, _, _ := s.LatestOpenSession(ctx); latest.ID != "new" {
		t.Fatalf("latest before use: %s, want new", latest.ID)
	}
	storeMustAppend(t, s, "old", "k", `{}`)
	if latest, _, _ := s.LatestOpenSession(ctx); latest.ID != "old" {
		t.Errorf("latest after using old: %s, want old (last used)", latest.ID)
	}
	list, err := s.Sessions(ctx)
	if err != nil || len(list) != 2 || list[0].ID != "old" || !list[0].LastUsed.After(list[1].LastUsed) {
		t.Errorf("Sessions: %+v, %v; want old first", list, err)
	}
	if err := s.RenameSession(ctx, "old", "  Friday night  "); err != nil {
		t.Fatal(err)
	}
	if info, err := s.Session(ctx, "old"); err != nil || info.Name != "Friday night" || info.Events != 1 {
		t.Errorf("after rename: %+v, %v", info, err)
	}
	if err := s.RenameSession(ctx, "missing", "x"); !errors.Is(err, ErrUnknownSession) {
		t.Errorf("rename unknown: %v", err)
	}
	if err := s.RenameSession(ctx, "old", " "); err == nil {
		t.Error("rename to an empty name succeeded")
	}
	if _, err := s.DeleteSession(ctx, "missing"); !errors.Is(err, ErrUnknownSession) {
		t.Errorf("delete unknown: %v", err)
	}
}

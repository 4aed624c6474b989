package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/tracker"
)

// `state` on an empty data directory says there is no session and how to
// start one; it creates no database and no session (it created an empty
// one).
func TestStateOnEmptyDataDirCreatesNothing(t *testing.T) {
	_, _, err := run(t, "", "state")
	if err == nil || !strings.Contains(err.Error(), "no sessions yet") || !strings.Contains(err.Error(), "tablecam play") {
		t.Errorf("state on an empty data directory: err = %v", err)
	}
	db := filepath.Join(os.Getenv("TABLECAM_DATA_DIR"), "tablecam.db")
	if _, err := os.Stat(db); err == nil {
		t.Errorf("state created %s", db)
	}
}

// `play --serve` on a busy dashboard port fails before it opens (or
// creates) a session.
func TestPlayServeOnBusyPortCreatesNoSession(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv("TABLECAM_DASHBOARD_ADDR", ln.Addr().String())
	_, _, err = run(t, "setup commonwealth loyal railroad survivors alice\n", "play", "--manual", "--serve")
	if err == nil || !strings.Contains(err.Error(), "dashboard") {
		t.Fatalf("play --serve on a busy port: err = %v", err)
	}
	db := filepath.Join(os.Getenv("TABLECAM_DATA_DIR"), "tablecam.db")
	if _, err := os.Stat(db); err == nil {
		t.Errorf("play --serve on a busy port created %s", db)
	}
}

// A second `play` on a data directory another process writes to fails and
// says which; `state` and `sessions` still work beside it.
func TestPlayRefusedWhileAnotherWrites(t *testing.T) {
	if _, errs, err := run(t, "setup commonwealth loyal railroad survivors alice\n", "play", "--manual"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	db := filepath.Join(os.Getenv("TABLECAM_DATA_DIR"), "tablecam.db")
	st, err := tracker.OpenStoreWith(db, tracker.StoreOptions{Command: "tablecam play"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, _, err = runHere(t, "goal\n", "play", "--manual")
	if want := fmt.Sprintf("in use by process %d (tablecam play)", os.Getpid()); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("second play: err = %v, want %q", err, want)
	}
	if out, errs, err := runHere(t, "", "state"); err != nil || !strings.Contains(out, "Session") {
		t.Errorf("state beside a writer: %v\n%s%s", err, out, errs)
	}
	if out, errs, err := runHere(t, "", "sessions"); err != nil || !strings.Contains(out, "open") {
		t.Errorf("sessions beside a writer: %v\n%s%s", err, out, errs)
	}
}

// runHere executes the CLI in-process in the current data directory.
func runHere(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

// A played session exported with `sessions --export ID FILE` replays to
// the same announcements as the events it was played from (corrections
// find their rolls under the new numbers). A changed event makes every
// command refuse the store, `sessions --check` report it and fail, and the
// export mark it.
func TestSessionsCheckAndExport(t *testing.T) {
	won := filepath.Join("..", "..", "testdata", "games", "won.events")
	script, err := os.ReadFile(won)
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, err := run(t, string(script), "play", "--manual", "--new"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	list, _, err := runHere(t, "", "sessions")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.Fields(list)[0]
	out, _, err := runHere(t, "", "sessions", "--check")
	if err != nil || !strings.Contains(out, "the store is whole") {
		t.Fatalf("check of a whole store: %v\n%s", err, out)
	}
	file := filepath.Join(t.TempDir(), "export.events")
	if out, errs, err := runHere(t, "", "sessions", "--export", id, file); err != nil {
		t.Fatalf("export: %v\n%s%s", err, out, errs)
	}
	want, _, err := runHere(t, "", "replay", "--events", won)
	if err != nil {
		t.Fatal(err)
	}
	got, errs, err := runHere(t, "", "replay", "--events", file)
	if err != nil || got != want {
		t.Fatalf("replay of the export: %v\n%s\ngot:\n%s\nwant:\n%s", err, errs, got, want)
	}

	db := filepath.Join(os.Getenv("TABLECAM_DATA_DIR"), "tablecam.db")
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE events SET payload = replace(payload, '"head"', '"2h"') WHERE seq = 5`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	for _, args := range [][]string{{"state"}, {"sessions"}, {"play", "--manual"}} {
		if _, _, err := runHere(t, "", args...); err == nil || !strings.Contains(err.Error(), "event 5 of session") || !strings.Contains(err.Error(), "sessions --check") {
			t.Errorf("%v on a changed event: err = %v", args, err)
		}
	}
	out, _, err = runHere(t, "", "sessions", "--check")
	if err == nil || !strings.Contains(out, "do not match their hash: [5]") {
		t.Errorf("check of a changed event: %v\n%s", err, out)
	}
	file2 := filepath.Join(t.TempDir(), "export2.events")
	if _, _, err := runHere(t, "", "sessions", "--export", id, file2); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file2); !strings.Contains(string(b), "# event 5 does not match its hash") {
		t.Errorf("the export does not mark event 5:\n%s", b)
	}
}

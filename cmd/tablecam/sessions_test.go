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
// start one; it creates no database and no session.
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
	id := sessionIDs(list)[0]
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

// sessionIDs are the ids `tablecam sessions` lists, in its order.
func sessionIDs(list string) []string {
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n")[1:] {
		ids = append(ids, strings.Fields(line)[0])
	}
	return ids
}

// sessions says when there are none; play --name names a session and
// sessions --rename renames one; play resumes the session used last, not
// the one created last; a closed session keeps its events (state shows
// it) but play refuses to add to it; --delete without --yes deletes
// nothing, and with it removes the session, its events and its frames,
// and the store stays whole.
func TestSessionsNameCloseDelete(t *testing.T) {
	out, _, err := run(t, "", "sessions")
	if err != nil || !strings.Contains(out, "no sessions yet") {
		t.Fatalf("sessions on an empty data directory: %v\n%s", err, out)
	}
	setup := "setup commonwealth loyal railroad survivors alice bob\n"
	if _, errs, err := runHere(t, setup, "play", "--manual", "--name", "Friday night"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if _, errs, err := runHere(t, setup, "play", "--manual", "--new"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	list, _, _ := runHere(t, "", "sessions")
	ids := sessionIDs(list)
	if len(ids) != 2 || !strings.Contains(list, "Friday night") {
		t.Fatalf("two sessions, one named:\n%s", list)
	}
	second, first := ids[0], ids[1]
	// Using the first makes it the latest: play without --session resumes it.
	if _, errs, err := runHere(t, "round\n", "play", "--manual", "--session", first); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if _, errs, err := runHere(t, "round\n", "play", "--manual"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if out, _, _ := runHere(t, "", "state"); !strings.Contains(out, first) || !strings.Contains(out, "Round      3") {
		t.Errorf("play resumed another session than the one used last (%s):\n%s", first, out)
	}
	if ids := sessionIDs(mustRun(t, "sessions")); ids[0] != first {
		t.Errorf("sessions lists %v, want %s (used last) first", ids, first)
	}
	if out := mustRun(t, "sessions", "--rename", second, "Saturday"); !strings.Contains(out, "Saturday") {
		t.Errorf("rename: %s", out)
	}
	if list := mustRun(t, "sessions"); !strings.Contains(list, "Saturday") || !strings.Contains(list, "Friday night") {
		t.Errorf("after rename:\n%s", list)
	}

	mustRun(t, "sessions", "--close", first)
	_, _, err = runHere(t, "goal\n", "play", "--manual", "--session", first)
	if err == nil || !strings.Contains(err.Error(), "is closed") || !strings.Contains(err.Error(), "play --new") {
		t.Errorf("play on a closed session: err = %v", err)
	}
	if out, _, err := runHere(t, "", "state", "--session", first); err != nil || !strings.Contains(out, "Round      3") {
		t.Errorf("state of a closed session: %v\n%s", err, out)
	}
	if list := mustRun(t, "sessions"); !strings.Contains(list, "closed") {
		t.Errorf("closed session not marked:\n%s", list)
	}

	frames := filepath.Join(os.Getenv("TABLECAM_DATA_DIR"), "frames")
	if err := os.MkdirAll(frames, 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(frames, first+"-frame-000012.jpg")
	other := filepath.Join(frames, second+"-frame-000012.jpg")
	for _, f := range []string{mine, other} {
		if err := os.WriteFile(f, []byte("jpeg"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err = runHere(t, "", "sessions", "--delete", first)
	if err == nil || !strings.Contains(err.Error(), "--yes") {
		t.Errorf("delete without --yes: err = %v", err)
	}
	if ids := sessionIDs(mustRun(t, "sessions")); len(ids) != 2 {
		t.Fatalf("delete without --yes deleted something: %v", ids)
	}
	if out := mustRun(t, "sessions", "--delete", first, "--yes"); !strings.Contains(out, "deleted") {
		t.Errorf("delete: %s", out)
	}
	if ids := sessionIDs(mustRun(t, "sessions")); len(ids) != 1 || ids[0] != second {
		t.Errorf("after delete: %v, want only %s", ids, second)
	}
	if _, err := os.Stat(mine); err == nil {
		t.Error("the deleted session's frame is still there")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("the other session's frame: %v", err)
	}
	if out := mustRun(t, "sessions", "--check"); !strings.Contains(out, "the store is whole") {
		t.Errorf("check after delete:\n%s", out)
	}
	if _, errs, err := runHere(t, "goal\n", "play", "--manual"); err != nil {
		t.Errorf("play after delete: %v\n%s", err, errs)
	}
}

// mustRun runs the CLI in the current data directory and fails the test
// on an error.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, err := runHere(t, "", args...)
	if err != nil {
		t.Fatalf("%v: %v\n%s%s", args, err, out, errs)
	}
	return out
}

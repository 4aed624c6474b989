package main

import (
	"bytes"
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

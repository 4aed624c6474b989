package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `tablecam list` shows the ids to type, including a dice set the group
// taught under its own name, and refuses an unknown list.
func TestListShowsIDs(t *testing.T) {
	data := t.TempDir()
	prof := filepath.Join(data, "profiles", "dice", "ours")
	if err := os.MkdirAll(prof, 0o755); err != nil {
		t.Fatal(err)
	}
	// The taught set's face table is all that list reads of a profile.
	if err := os.WriteFile(filepath.Join(prof, "profile.json"), []byte(`{"version":1,"custom":true,"set":{"id":"ours","name":"ours","kind":"symbol","faces":[{"id":"sun","label":"sun"},{"id":"moon","label":"moon"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ kind, want string }{
		{"scenarios", "commonwealth"},
		{"enemies", "ghoul-2 (2, head+legs"},
		{"factions", "railroad"},
		{"cards", "activation-3"},
		{"sets", "ours"},
		{"sets", "sun, moon"},
	} {
		out, _, err := runIn(t, data, "list", tc.kind)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("list %s: %v\n%s", tc.kind, err, out)
		}
	}
	if _, _, err := runIn(t, data, "list", "dragons"); err == nil || !strings.Contains(err.Error(), "want scenarios") {
		t.Errorf("list dragons: %v", err)
	}
}

// `history` at the prompt lists the last events with the numbers that
// correct takes, marking what undo took back.
func TestPromptHistory(t *testing.T) {
	data := t.TempDir()
	in := "setup commonwealth loyal railroad survivors ann bo\ntest ann 1\nroll head arms 2h\ncamps 1\nundo\nhistory\n"
	out, errs, err := runInWith(t, data, in, "play", "--manual")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	for _, want := range []string{"roll head arms 2h", "camps 1  (undone)", "undo  (undone)"} {
		if !strings.Contains(out, want) {
			t.Errorf("history lacks %q:\n%s", want, out)
		}
	}
	// The roll's number is the one correct takes.
	i := strings.Index(out, "roll head arms 2h")
	line := out[strings.LastIndex(out[:i], "\n")+1 : i]
	seq := strings.TrimSpace(line)
	if _, errs, err := runInWith(t, data, "correct "+seq+" head head 2h\n", "play", "--manual"); err != nil || strings.Contains(errs, "line 1") {
		t.Errorf("correct %s: %v\n%s", seq, err, errs)
	}
}

// Each command offers the settings it uses as flags, not every setting:
// sessions has no camera flags, play has them, and every command keeps
// the common ones.
func TestCommandsOfferTheirOwnFlags(t *testing.T) {
	data := t.TempDir()
	help := func(args ...string) string {
		t.Helper()
		out, _, err := runIn(t, data, append(args, "--help")...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if h := help("sessions"); strings.Contains(h, "--camera-device") || strings.Contains(h, "--dashboard-addr") || !strings.Contains(h, "--data-dir") {
		t.Errorf("sessions --help:\n%s", h)
	}
	if h := help("play"); !strings.Contains(h, "--camera-device") || !strings.Contains(h, "--voice-wav") || strings.Contains(h, "--output-json") {
		t.Errorf("play --help:\n%s", h)
	}
	if _, _, err := runIn(t, data, "sessions", "--camera-device", "1"); err == nil || !strings.Contains(err.Error(), "unknown flag") {
		t.Errorf("sessions --camera-device: %v", err)
	}
	if _, _, err := runIn(t, data, "bench", "--voice", "true"); err == nil || !strings.Contains(err.Error(), "--voice must be on or off") {
		t.Errorf("bench --voice true: %v", err)
	}
}

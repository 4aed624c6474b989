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

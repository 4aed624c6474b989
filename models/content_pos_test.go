package models

import (
	"errors"
	"testing"
)

// A broken override names the entry, the key and the line of the problem:
// a value yaml cannot decode, an unknown key, a value Validate refuses and
// a syntax error.
func TestOverrideErrorNamesKeyAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		line       int
		entry, key string
		text       string
	}{
		{"wrong type", "scenarios:\n  - id: x\n    power_track: seven\n", 3, `scenarios "x"`, "power_track",
			"bad.yaml:3: scenarios \"x\": power_track: cannot unmarshal !!str `seven` into int"},
		{"unknown key", "face_sets:\n  - id: x\n    kind: symbol\n    facez: []\n", 4, `face_sets "x"`, "facez",
			"bad.yaml:4: face_sets \"x\": facez: field facez not found in type models.FaceSet"},
		{"nested value", "enemy_types:\n  - id: ghoul\n    tokens:\n      - {id: g1, level: high}\n", 4, `enemy_types "ghoul"`, "tokens[0].level",
			"bad.yaml:4: enemy_types \"ghoul\": tokens[0].level: cannot unmarshal !!str `high` into int"},
		{"item without id", "factions:\n  - name: F\n    enemy: [a]\n", 3, "factions[0]", "enemy",
			"bad.yaml:3: factions[0]: enemy: cannot unmarshal !!seq into string"},
		{"rule of the wrong type", "rules:\n  survivor_max_hp: many\n", 2, "rules", "survivor_max_hp",
			"bad.yaml:2: rules: survivor_max_hp: cannot unmarshal !!str `many` into int"},
		{"rule refused", "rules:\n  radiated: instead\n  deck_empty: burn\n", 3, "rules", "deck_empty",
			`bad.yaml:3: rules: deck_empty must be "reshuffle" or "stop", got "burn"`},
		{"value refused", "scenarios:\n  - id: commonwealth\n    name: C\n    factions: [{faction: railroad, icon: a}, {faction: institute, icon: b}]\n    power_track: 1\n    goals_required: 2\n",
			5, `scenarios "commonwealth"`, "power_track", `bad.yaml:5: scenarios "commonwealth": power_track must be at least 2 spaces, got 1`},
		{"syntax", "face_sets: [\n", 1, "document", "", "bad.yaml:1: document: did not find expected node content"},
		{"two documents", "rules: {}\n---\nrules: {}\n", 2, "document", "", "bad.yaml:2: document: only one YAML document is allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeOverride(t, "bad.yaml", tc.body)
			_, err := LoadContent(dir)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("%v, want a *ValidationError", err)
			}
			if ve.Line != tc.line || ve.Entry != tc.entry || ve.Key != tc.key {
				t.Errorf("line %d entry %q key %q, want %d %q %q", ve.Line, ve.Entry, ve.Key, tc.line, tc.entry, tc.key)
			}
			if got, want := ve.Error(), dir+"/"+tc.text; got != want {
				t.Errorf("\n got  %s\n want %s", got, want)
			}
		})
	}
}

// A decode that finds several problems reports each with its line.
func TestOverrideReportsEveryDecodeProblem(t *testing.T) {
	dir := writeOverride(t, "bad.yaml", "scenarios:\n  - id: x\n    power_track: seven\n    goals_required: two\n")
	_, err := LoadContent(dir)
	j, ok := err.(interface{ Unwrap() []error })
	if !ok || len(j.Unwrap()) != 2 {
		t.Fatalf("%v, want two errors", err)
	}
	for i, e := range j.Unwrap() {
		var ve *ValidationError
		if !errors.As(e, &ve) || ve.Line != 3+i {
			t.Errorf("error %d: %v, want line %d", i, e, 3+i)
		}
	}
}

package models

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultContentLoads(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	// Issue 2 §2: face sets vats, assist, d6, d10, d20; five standard enemy
	// types; the 8 activation cards (seed 003 components).
	for _, id := range []string{"vats", "assist", "d6", "d10", "d20"} {
		if _, ok := c.FaceSet(id); !ok {
			t.Errorf("face set %q missing", id)
		}
	}
	if len(c.Standard) != 5 {
		t.Errorf("standard enemy types = %d, want 5", len(c.Standard))
	}
	if len(c.ActivationCards) != 8 {
		t.Errorf("activation cards = %d, want 8 (seed 003 components)", len(c.ActivationCards))
	}
	d10, _ := c.FaceSet("d10")
	if f, _ := d10.Face("0"); f.Value != 10 {
		t.Errorf("d10 face 0 reads %d, want 10", f.Value)
	}
	for _, s := range []string{"commonwealth", "capital-wasteland", "the-pitt", "far-harbor", "rise-of-the-master", "new-california"} {
		if _, ok := c.Scenario(s); !ok {
			t.Errorf("scenario %q missing", s)
		}
	}
}

// Everything the rules doc marks unconfirmed is data marked assumed.
func TestUnconfirmedContentIsMarkedAssumed(t *testing.T) {
	c, err := DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"vats", "assist"} {
		fs, _ := c.FaceSet(id)
		if !fs.Assumed || fs.Note == "" {
			t.Errorf("face set %s: unconfirmed table must be assumed with a note", id)
		}
	}
	for _, a := range c.ActivationCards {
		if !a.Assumed {
			t.Errorf("card %s: unconfirmed content must be assumed", a.ID)
		}
	}
	for _, s := range c.Scenarios {
		if !s.Assumed || s.Note == "" {
			t.Errorf("scenario %s: unconfirmed power track/goals must be assumed", s.ID)
		}
	}
	if !c.Rules.Assumed {
		t.Error("rules: unconfirmed switches must be marked assumed")
	}
}

func writeOverride(t *testing.T, name, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestOverrideReplacesEntryAndRuleSwitch(t *testing.T) {
	dir := writeOverride(t, "ours.yaml", `
face_sets:
  - id: vats
    name: our V.A.T.S. die
    kind: symbol
    faces:
      - {id: a, regions: [head], hits: 1}
      - {id: b, hits: 2}
activation_cards:
  - {id: activation-3, types: [raider, raider], icon: b}
rules:
  enemy_armor: extra-hit
`)
	c, err := LoadContent(dir)
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := c.FaceSet("vats")
	if len(fs.Faces) != 2 || fs.Name != "our V.A.T.S. die" {
		t.Errorf("vats not replaced: %+v", fs)
	}
	card, _ := c.Card("activation-3")
	if card.Types != [2]string{"raider", "raider"} || card.Icon != "b" {
		t.Errorf("card not replaced: %+v", card)
	}
	if c.Rules.EnemyArmor != ArmorExtraHit {
		t.Errorf("rule switch not applied: %q", c.Rules.EnemyArmor)
	}
	if c.Rules.Radiated != RadiatedInstead {
		t.Errorf("unnamed switch changed: %q", c.Rules.Radiated)
	}
	if len(c.ActivationCards) != 8 {
		t.Errorf("cards = %d, want 8 (replace, not add)", len(c.ActivationCards))
	}
}

func TestOverrideErrorsNameFileEntryProblem(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"unknown key", "face_sets:\n  - id: x\n    kind: symbol\n    facez: []\n", []string{"bad.yaml", "facez"}},
		{"bad region", "enemy_types:\n  - id: ghoul\n    name: G\n    tokens:\n      - {id: g1, level: 1, vulnerable: [tail]}\n", []string{"bad.yaml:4", `enemy_types "ghoul": tokens: token "g1"`, `unknown region "tail"`}},
		{"unknown type on card", "activation_cards:\n  - {id: activation-1, types: [ghoul, dragon]}\n", []string{"bad.yaml:2", `activation_cards "activation-1"`, `"dragon"`}},
		{"duplicate face", "face_sets:\n  - id: d6\n    name: d6\n    kind: numeric\n    faces: [{id: '1', value: 1}, {id: '1', value: 2}]\n", []string{"bad.yaml", `face id "1" appears twice`}},
		{"bad rule", "rules:\n  deck_empty: burn\n", []string{"bad.yaml", "deck_empty", `"burn"`}},
		{"wrong type", "scenarios:\n  - id: x\n    power_track: seven\n", []string{"bad.yaml", "seven"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadContent(writeOverride(t, "bad.yaml", tc.body))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func FuzzContentOverride(f *testing.F) {
	f.Add([]byte("rules:\n  enemy_armor: extra-hit\n"))
	f.Add([]byte("face_sets:\n  - id: vats\n    kind: symbol\n    faces: [{id: a}, {id: b, hits: 2}]\n"))
	f.Add([]byte("activation_cards:\n  - {id: activation-9, types: [ghoul, robot], icon: a}\n"))
	f.Add([]byte("scenarios: [{id: s, factions: [{faction: ncr, icon: a}, {faction: enclave, icon: b}], power_track: 3, goals_required: 1}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DefaultContent()
		if err != nil {
			t.Fatal(err)
		}
		err = c.MergeYAML("fuzz.yaml", data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("merge accepted invalid content: %v", err)
		}
	})
}

// Adding a taught set validates it and leaves a set of the content alone.
func TestAddTaughtSet(t *testing.T) {
	c, err := LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	n := len(c.FaceSets)
	if err := c.AddTaughtSet(FaceSet{ID: "ours", Name: "ours", Kind: KindSymbol, Faces: []Face{{ID: "x"}, {ID: "y"}}}); err != nil {
		t.Fatal(err)
	}
	if fs, ok := c.FaceSet("ours"); !ok || len(c.FaceSets) != n+1 || len(fs.Faces) != 2 {
		t.Errorf("ours not added: %+v", c.FaceSets)
	}
	// A set of the pack keeps its table when its taught faces are its own.
	if err := c.AddTaughtSet(FaceSet{ID: "d6", Kind: KindNumeric, Faces: []Face{{ID: "1", Value: 1}, {ID: "6", Value: 6}}}); err != nil {
		t.Error(err)
	}
	if fs, _ := c.FaceSet("d6"); len(fs.Faces) != 6 || len(c.FaceSets) != n+1 {
		t.Errorf("d6 changed: %+v", fs)
	}
	// A broken taught set is refused and not added.
	if err := c.AddTaughtSet(FaceSet{ID: "bad", Kind: KindSymbol, Faces: []Face{{ID: "x"}}}); err == nil {
		t.Error("a set of one face was added")
	}
	if _, ok := c.FaceSet("bad"); ok {
		t.Error("the refused set is in the content")
	}
}

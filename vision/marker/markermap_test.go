package marker

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/models"
)

func TestDefaultMarkerMap(t *testing.T) {
	m := DefaultMap()
	if m.Dict() != Dict4X4_250 {
		t.Errorf("dictionary %v, want DICT_4X4_250", m.Dict())
	}
	want := map[int]string{
		0: "activation-1", 7: "activation-8", 8: "ghoul-1", 10: "ghoul-3", 11: "super-mutant-1", 22: "raider-3",
		23: "railroad-1", 52: "ncr-3", 53: "goal-1", 64: "goal-12", 100: "card-001", 249: "card-150",
	}
	for id, c := range want {
		e, ok := m.Lookup(id)
		if !ok || e.Content != c {
			t.Errorf("marker %d: %+v, want %s", id, e, c)
		}
	}
	for _, id := range []int{65, 99, 250, -1} {
		if e, ok := m.Lookup(id); ok {
			t.Errorf("marker %d mapped to %+v", id, e)
		}
	}
	kinds := map[string]int{}
	for _, e := range m.Entries() {
		kinds[e.Kind]++
	}
	if kinds[KindActivation] != 8 || kinds[KindToken] != 45 || kinds[KindGoal] != 12 || kinds[KindCard] != 150 || kinds[KindOther] != 0 {
		t.Errorf("kinds %v", kinds)
	}
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CheckContent(c); err != nil {
		t.Errorf("default map against default content: %v", err)
	}
	// Every activation card and token of the content pack has a marker.
	for _, id := range c.CardIDs() {
		if _, ok := m.MarkerFor(id); !ok {
			t.Errorf("activation card %s has no marker", id)
		}
	}
	for _, et := range c.EnemyTypes {
		for _, tok := range et.Tokens {
			if _, ok := m.MarkerFor(tok.ID); !ok {
				t.Errorf("token %s has no marker", tok.ID)
			}
		}
	}
	if l := m.Labels(); l[100] != "card-001" || len(l) != 215 {
		t.Errorf("labels: %d, [100]=%q", len(l), l[100])
	}
	if !strings.Contains(string(DefaultMapYAML()), "ids: 100-249") {
		t.Error("default YAML not documented")
	}
}

func TestMarkerMapMerge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "markers.yaml")
	os.WriteFile(path, []byte(`# ours
markers:
  - {id: 0, content: activation-5}
  - {id: 8, content: ""}
  - {id: 70, content: vault-door, label: Vault door}
  - {ids: 80-82, content: "quest-##", first: 7, kind: card}
`), 0o644)
	m, err := LoadMap(path)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int]string{0: "activation-5", 1: "activation-2", 70: "vault-door", 80: "quest-07", 82: "quest-09", 100: "card-001"} {
		if e, ok := m.Lookup(id); !ok || e.Content != want {
			t.Errorf("marker %d: %+v, want %s", id, e, want)
		}
	}
	if _, ok := m.Lookup(8); ok {
		t.Error("marker 8 not removed")
	}
	if e, _ := m.Lookup(80); e.Kind != KindCard {
		t.Errorf("kind %q", e.Kind)
	}
	if e, _ := m.Lookup(70); e.Kind != KindOther || m.Labels()[70] != "Vault door" {
		t.Errorf("entry 70 %+v", e)
	}
	// The default is untouched.
	if e, _ := DefaultMap().Lookup(0); e.Content != "activation-1" {
		t.Error("default changed")
	}
	// Another dictionary drops the defaults it cannot hold; replace drops all.
	m2, err := DefaultMap().Merge("x.yaml", []byte("dictionary: DICT_5X5_100\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m2.Dict() != Dict5X5_100 || len(m2.Entries()) != 65 {
		t.Errorf("5x5_100: %v, %d entries", m2.Dict(), len(m2.Entries()))
	}
	m3, err := DefaultMap().Merge("x.yaml", []byte("replace: true\nmarkers:\n  - {id: 3, content: goal-1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m3.Entries()) != 1 {
		t.Errorf("replace: %d entries", len(m3.Entries()))
	}
	// An empty file changes nothing.
	if m4, err := DefaultMap().Merge("e.yaml", nil); err != nil || len(m4.Entries()) != 215 {
		t.Errorf("empty file: %v", err)
	}
}

func TestMarkerMapErrors(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		line int
		want string
	}{
		{"markers:\n  - {id: 300, content: x-1}\n", 2, "out of range"},
		{"markers:\n  - {id: 3}\n", 2, "no content"},
		{"markers:\n  - {id: 3, content: a}\n  - {id: 3, content: b}\n", 3, "already mapped on line 2"},
		{"markers:\n  - {ids: 5-9, content: a}\n  - {id: 7, content: b}\n", 2, "one run of #"},
		{"markers:\n  - {ids: 5-9, content: a-#}\n  - {id: 7, content: b}\n", 3, "already mapped on line 2"},
		{"markers:\n  - {id: 3, content: a-#}\n", 2, "# is for ranges"},
		{"markers:\n  - {id: 3, content: \"a b\"}\n", 2, "want an id"},
		{"markers:\n  - {id: x, content: a}\n", 2, "not a whole number"},
		{"markers:\n  - {ids: 9-5, content: a-#}\n", 2, "backwards"},
		{"markers:\n  - {id: 1, ids: 1-2, content: a-#}\n", 2, "not both"},
		{"markers:\n  - {id: 1, content: a, colour: red}\n", 2, "unknown key \"colour\""},
		{"markers:\n  - {id: 1, content: a, kind: monster}\n", 2, "kind"},
		{"markers:\n  - {id: 1, content: a, first: 3}\n", 2, "for ranges"},
		{"dictionary: DICT_9X9\n", 1, "unknown dictionary"},
		{"dictionary: DICT_4X4_50\nmarkers:\n  - {id: 60, content: a}\n", 3, "out of range"},
		{"colour: red\n", 1, "unknown key"},
		{"markers: [\n", 1, "document"},
		{"- 1\n", 1, "want a mapping"},
		{"markers:\n  - {id: 1, content: a}\n---\nmarkers: []\n", 3, "document: only one YAML document is allowed"},
		{"markers:\n  - id: 1\n    content: a\n    first: x\n", 4, `markers[0] (id 1): first "x" is not a whole number`},
	} {
		_, err := DefaultMap().Merge("ours.yaml", []byte(tc.doc))
		var me *MapError
		if !errors.As(err, &me) {
			t.Errorf("%q: error %v, want a MarkerMapError", tc.doc, err)
			continue
		}
		if me.File != "ours.yaml" || me.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v (line %d), want line %d and %q", tc.doc, err, me.Line, tc.line, tc.want)
		}
	}
	if _, err := LoadMap(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("missing file loaded")
	}
	c, _ := models.DefaultContent()
	m, _ := DefaultMap().Merge("x.yaml", []byte("markers:\n  - {id: 0, content: activation-99}\n  - {id: 8, content: dragon-1}\n"))
	if err := m.CheckContent(c); err == nil || !strings.Contains(err.Error(), "activation-99") || !strings.Contains(err.Error(), "dragon-1") {
		t.Errorf("CheckContent: %v", err)
	}
}

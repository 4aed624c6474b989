package yamlpos

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		doc     string
		empty   bool
		errLine int
		errMsg  string
	}{
		{doc: "", empty: true},
		{doc: "# only a comment\n", empty: true},
		{doc: "a: 1\n"},
		{doc: "- 1\n"},
		{doc: "a: [\n", errLine: 1, errMsg: "did not find expected node content"},
		{doc: "a: 1\n  b: 2\n", errLine: 2, errMsg: "mapping values are not allowed in this context"},
		{doc: "a: 1\n---\nb: 2\n", errLine: 2, errMsg: "only one YAML document is allowed"},
	} {
		root, err := Parse([]byte(tc.doc))
		if tc.errMsg != "" {
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.errLine || e.Msg != tc.errMsg || root != nil {
				t.Errorf("%q: %v (%#v), want line %d %q", tc.doc, err, e, tc.errLine, tc.errMsg)
			}
			continue
		}
		if err != nil || (root == nil) != tc.empty {
			t.Errorf("%q: root %v, %v", tc.doc, root, err)
		}
	}
}

// A decode's type errors are one Error each, with the line and the key.
func TestErrorsNameKeyAndLine(t *testing.T) {
	doc := `voice:
  rate: fast
  engine: espeak
face_sets:
  - id: vats
    facez: []
markers:
  - {id: 1, content: a, first: seven}
`
	var v struct {
		Voice struct {
			Rate   int    `yaml:"rate"`
			Engine string `yaml:"engine"`
		} `yaml:"voice"`
		FaceSets []struct {
			ID string `yaml:"id"`
		} `yaml:"face_sets"`
		Markers []struct {
			ID      int    `yaml:"id"`
			Content string `yaml:"content"`
			First   int    `yaml:"first"`
		} `yaml:"markers"`
	}
	root, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader([]byte(doc)))
	dec.KnownFields(true)
	err = dec.Decode(&v)
	if err == nil {
		t.Fatal("no error")
	}
	got := Errors(root, err)
	want := []*Error{
		{Line: 2, Key: "voice.rate", Msg: "cannot unmarshal !!str `fast` into int"},
		{Line: 6, Key: "face_sets[0].facez", Msg: "field facez not found in type struct { ID string \"yaml:\\\"id\\\"\" }"},
		{Line: 8, Key: "markers[0].first", Msg: "cannot unmarshal !!str `seven` into int"},
	}
	if !reflect.DeepEqual(got, want) {
		for _, e := range got {
			t.Logf("got %#v", e)
		}
		t.Fatalf("want %d errors: %v", len(want), want)
	}
	if s := got[0].Error(); s != "line 2: voice.rate: cannot unmarshal !!str `fast` into int" {
		t.Errorf("Error() = %q", s)
	}
}

func TestKeyAt(t *testing.T) {
	doc := "a:\n  b:\n    - x\n    - y\n  c: {d: 1, e: 2}\nf: 3\n\n"
	root, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for line, want := range map[int]string{0: "", 1: "a", 2: "a.b", 3: "a.b[0]", 4: "a.b[1]", 5: "a.c", 6: "f", 7: "", 99: ""} {
		if got := KeyAt(root, line); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
	if got := keyAt(root, 5, "e"); got != "a.c.e" {
		t.Errorf("line 5, key e: %q", got)
	}
	if got := keyAt(root, 5, "2"); got != "a.c.e" {
		t.Errorf("line 5, value 2: %q", got)
	}
	if KeyAt(nil, 1) != "" {
		t.Error("a nil tree names a key")
	}
}

func TestGet(t *testing.T) {
	root, _ := Parse([]byte("a: 1\nb: two\n"))
	k, v, ok := Get(root, "b")
	if !ok || k.Line != 2 || v.Value != "two" {
		t.Errorf("b: %v %v %v", k, v, ok)
	}
	if _, _, ok := Get(root, "c"); ok {
		t.Error("c found")
	}
	if _, _, ok := Get(v, "x"); ok {
		t.Error("a key found in a scalar")
	}
}

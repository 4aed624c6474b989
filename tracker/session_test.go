package tracker

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/models"
)

func testContent(t testing.TB) *models.Content {
	t.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newSession(t testing.TB, c *models.Content, lang string) (*Store, *Session) {
	t.Helper()
	st, err := OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, err := NewCatalog(lang)
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenSession(context.Background(), st, c, cat, "", "test")
	if err != nil {
		t.Fatal(err)
	}
	return st, s
}

// runScript submits every line of an events file and returns the
// announcement texts, one per line, prefixed with their event number.
func runScript(t testing.TB, s *Session, c *models.Content, script string) []string {
	t.Helper()
	evs, err := ParseFile(c, "script", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range evs {
		as, err := s.Submit(context.Background(), ev)
		if err != nil {
			t.Fatalf("event %+v: %v", ev, err)
		}
		for _, a := range as {
			out = append(out, a.Text)
		}
	}
	return out
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gameJSON(g Game) string {
	b, err := json.Marshal(g)
	if err != nil {
		panic(err)
	}
	return string(b)
}

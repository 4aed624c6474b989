package tracker

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every text of the English catalog has a German one, with the same
// values in the same order.
func TestUITextsComplete(t *testing.T) {
	all := uiTexts()
	for key, en := range all["en"] {
		de, ok := all["de"][key]
		if !ok {
			t.Errorf("%s: no German text", key)
			continue
		}
		if strings.Count(en, "%") != strings.Count(de, "%") {
			t.Errorf("%s: %q and %q take different values", key, en, de)
		}
	}
	for key := range all["de"] {
		if _, ok := all["en"][key]; !ok {
			t.Errorf("%s: German text without an English one", key)
		}
	}
}

// Errors are said in German, wrapped ones too; an error the catalog does
// not know stays as it is, and English stays English.
func TestCatalogError(t *testing.T) {
	de, err := NewCatalog("de")
	if err != nil {
		t.Fatal(err)
	}
	en, _ := NewCatalog("en")
	wrapped := fmt.Errorf("hp: %w", fmt.Errorf("unknown survivor %q", "carl"))
	for _, tc := range []struct {
		err error
		de  string
	}{
		{wrapped, `hp: unbekannter Überlebender "carl"`},
		{errors.New("test: difficulty must be 0 … 30, got -1"), "test: die Schwierigkeit muss 0 … 30 sein, nicht -1"},
		{errors.New("reroll: die 9 is not in the roll (1..3)"), "reroll: Würfel 9 gehört nicht zum Wurf (1..3)"},
		{errors.New("something new"), "something new"},
	} {
		if got := de.Error(tc.err); got != tc.de {
			t.Errorf("de: %q, want %q", got, tc.de)
		}
		if got := en.Error(tc.err); got != tc.err.Error() {
			t.Errorf("en: %q, want it unchanged", got)
		}
	}
	// A German text may leave out an English value (a plural ending) but
	// takes no value the English one does not give.
	index := regexp.MustCompile(`%\[(\d+)\]s`)
	for _, e := range errorTexts {
		n := strings.Count(e.en, "%")
		if strings.Count(strings.ReplaceAll(e.de, "%%", ""), "%") != len(index.FindAllString(e.de, -1)) {
			t.Errorf("%q: every value is %%[n]s", e.de)
		}
		for _, m := range index.FindAllStringSubmatch(e.de, -1) {
			if i, _ := strconv.Atoi(m[1]); i < 1 || i > n {
				t.Errorf("%q and %q take different values", e.en, e.de)
			}
		}
	}
}

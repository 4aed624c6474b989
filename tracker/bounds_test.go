package tracker

import (
	"strings"
	"testing"

	"tablecam/engine"
)

// Every number a group types is bounded, with an error that names the
// accepted range, before anything is stored or allocated.
func TestParseBoundsTypedNumbers(t *testing.T) {
	c := testContent(t)
	for _, tc := range []struct{ line, want string }{
		{"enemies ghoul 100000000", "the enemy count must be 0 … 60"},
		{"enemies ghoul -1", "the enemy count must be 0 … 60"},
		{"setgoals 999999999999", "setgoals must be 0 … 50"},
		{"xp alice 9223372036854775807", "a change of xp must be -1000 … 1000"},
		{"caps alice -99999999", "a change of caps must be -1000 … 1000"},
		{"hp alice 5000", "a change of hp must be -1000 … 1000"},
		{"camps 1000000", "camps must be -1000 … 1000"},
		{"power 100000", "power must be 1 … 1000"},
		{"retreat 0", "retreat must be 1 … 1000"},
		{"setpower 99999999", "setpower must be 1 … 1000"},
		{"test alice 2 rerolls 100000", "rerolls must be 0 … 10"},
		{"test alice 2 rerolls -1", "rerolls must be 0 … 10"},
		{"test alice 1000", "difficulty must be 0 … 30"},
		{"fight alice e1 rerolls 99", "rerolls must be 0 … 10"},
	} {
		_, _, err := ParseLine(c, tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: want an error with %q, got %v", tc.line, tc.want, err)
		}
	}
	// The bounds leave ordinary values alone.
	for _, line := range []string{"enemies ghoul 3", "setgoals 2", "xp alice 2", "caps alice -3", "test alice 2 rerolls 1", "retreat 2"} {
		if _, ok, err := ParseLine(c, line); err != nil || !ok {
			t.Errorf("%q: %v", line, err)
		}
	}
}

// `tablecam odds` refuses rerolls or dice out of range before it prints a
// line, instead of printing a header (rerolls -1) or computing rows until
// the engine's bound stops it (rerolls 100000).
func TestOddsReportBoundsBeforeOutput(t *testing.T) {
	c := testContent(t)
	for _, r := range []OddsRequest{{Dice: 3, Difficulty: 1, Rerolls: 100000}, {Dice: 3, Difficulty: 1, Rerolls: -1}, {Dice: 0, Difficulty: 1}, {Dice: 1 << 20, Difficulty: 1}} {
		text, err := OddsReport(c, r)
		if err == nil || text != "" {
			t.Errorf("%+v: want an error and no text, got %v and %q", r, err, text)
		}
	}
	if text, err := OddsReport(c, OddsRequest{Dice: 3, Difficulty: 2, Rerolls: 2}); err != nil || strings.Count(text, "P(pass)") != 3 {
		t.Errorf("difficulty 2 with 2 rerolls: %v\n%s", err, text)
	}
}

// English announcements count in the singular for one: "1 cap", not
// "1 caps".
func TestEnglishSingulars(t *testing.T) {
	cat, err := NewCatalog("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		o    engine.Outcome
		want string
	}{
		{engine.Outcome{Kind: engine.KindCaps, Vars: engine.Vars{"survivor": "Ann", "total": 1}}, "Ann has 1 cap."},
		{engine.Outcome{Kind: engine.KindCaps, Vars: engine.Vars{"survivor": "Ann", "total": 3}}, "Ann has 3 caps."},
		{engine.Outcome{Kind: engine.KindRads, Vars: engine.Vars{"survivor": "Ann", "total": 1}}, "Ann has 1 rad."},
		{engine.Outcome{Kind: engine.KindDeckReshuffled, Vars: engine.Vars{"n": 1}}, "shuffle the 1 discarded card into"},
		{engine.Outcome{Kind: engine.KindFightKilled, Vars: engine.Vars{"enemy": "Ghoul", "survivor": "Ann", "xp": 1, "caps": 1}}, "1 XP and 1 cap."},
	} {
		if got := cat.Text(tc.o); !strings.Contains(got, tc.want) {
			t.Errorf("%s %v: %q, want %q", tc.o.Kind, tc.o.Vars, got, tc.want)
		}
	}
}

// Recent gives the announcements of the events in force, oldest first:
// an undone event and the undo itself are not among them.
func TestSessionRecent(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	runScript(t, s, c, "setup commonwealth loyal railroad survivors ann bo\ncamps 2\ngoal\ncamps 1\nundo\n")
	var got []string
	for _, a := range s.Recent(3) {
		got = append(got, a.Text)
	}
	want := []string{"C.A.M.P. tokens: 3.", "Goals completed: 1; 3 required."}
	if len(got) != 3 || got[1] != want[0] || got[2] != want[1] {
		t.Errorf("Recent(3) = %q, want the setup, then %q", got, want)
	}
	if all := s.Recent(100); len(all) < 3 || strings.Contains(all[len(all)-1].Text, "Undone") {
		t.Errorf("Recent(100) = %v", all)
	}
}

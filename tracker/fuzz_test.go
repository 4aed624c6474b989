package tracker

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"tablecam/engine"
	"tablecam/models"
)

// fuzzSkipFixedBugs (TABLECAM_FUZZ_SKIP_FIXED=1) skips inputs that hit the
// bugs reproduced by the TestRegression_* tests, so that a fuzzing run can
// look for new ones. By default every input is checked.
var fuzzSkipFixedBugs = os.Getenv("TABLECAM_FUZZ_SKIP_FIXED") == "1"

// hitsKnownParseBug reports whether line hits a known ParseLine bug: invalid
// UTF-8 (stored as U+FFFD, TestRegression_ParseLineInvalidUTF8) or a setup
// survivor id that is empty (panic) or starts with a multi-byte letter
// (TestRegression_ParseSetupSurvivorID*).
func hitsKnownParseBug(line string) bool {
	if !utf8.ValidString(line) {
		return true
	}
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) == 0 || strings.ToLower(f[0]) != "setup" {
		return false
	}
	for _, x := range f[1:] {
		if x == "" || x[0] == ':' || x[0] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// fuzzCall runs fn and fails the test with the stack if it panics; with
// fuzzSkipFixedBugs it returns false for the known panic in promptNextAttack
// (TestRegression_AttackOnRemovedEnemyPanics).
func fuzzCall(t *testing.T, what string, fn func()) (ok bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			stack := string(debug.Stack())
			if fuzzSkipFixedBugs && strings.Contains(stack, "tracker.promptNextAttack") {
				ok = false
				return
			}
			t.Fatalf("%s: panic: %v\n%s", what, r, stack)
		}
	}()
	fn()
	return true
}

// fuzzSeedLines returns the lines of the scripted games and an example of
// every command, for the seed corpora.
func fuzzSeedLines(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "games", "*.events"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripted games: %v", err)
	}
	var lines []string
	for _, f := range files {
		for _, l := range strings.Split(readFile(t, f), "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
	}
	for _, cmd := range Commands() {
		lines = append(lines, cmd.Usage, cmd.Name)
	}
	for _, cmd := range commands() {
		lines = append(lines, cmd.examples...)
	}
	lines = append(lines,
		"test alice 2 SA rerolls 1", "fight bob e1 assist alice draw rerolls 0", "fight alice raider-2 draw",
		"roll d6 3 4", "roll 2h head assist hit frame f-0012", "roll", "reroll 0:hit 1:head", "reroll 13:head",
		"correct 3 head arms assist blank", "correct 0 head", "enemy add institute inactive with alice adjacent bob",
		"enemy place e1 active token raider-3", "enemy remove e1 extra", "enemies raider 3", "hp alice -3",
		"xp bob +0", "caps alice -100", "power +2", "power institute -1", "retreat 0", "setpower 7", "setgoals -1",
		"set alice armor 2", "set bob loyal railroad", "camps -1", "card activation-9", "first zoe",
		"setup commonwealth loyal railroad survivors alice:8:SA bob:10:PE first bob",
		"setup commonwealth loyal railroad survivors alice:0", "setup x loyal y survivors a:1:2:3", "SETUP", "  # just a comment",
		"undo # with a comment", "nocontext now",
	)
	return lines
}

func FuzzParseLine(f *testing.F) {
	c := testContent(f)
	for _, l := range fuzzSeedLines(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if fuzzSkipFixedBugs && hitsKnownParseBug(line) {
			return // known bug
		}
		ev, ok, err := ParseLine(c, line)
		code := line
		if i := strings.IndexByte(code, '#'); i >= 0 {
			code = code[:i]
		}
		fields := strings.Fields(code)
		if len(fields) == 0 {
			if ok || err != nil {
				t.Fatalf("blank line %q: ok %v err %v, want nothing", line, ok, err)
			}
			return
		}
		if err != nil {
			if ok {
				t.Fatalf("%q: ok with an error %v", line, err)
			}
			cmd := strings.ToLower(fields[0])
			msg := err.Error()
			code, _, _ := strings.Cut(line, "#")
			if !utf8.ValidString(code) {
				if !strings.Contains(msg, "UTF-8") {
					t.Fatalf("%q: error %q should say the text is not UTF-8", line, msg)
				}
				return
			}
			if !strings.HasPrefix(msg, cmd+": ") {
				t.Fatalf("%q: error %q does not start with the command name %q", line, msg, cmd)
			}
			if strings.TrimSpace(strings.TrimPrefix(msg, cmd+": ")) == "" {
				t.Fatalf("%q: empty error message %q", line, msg)
			}
			return
		}
		if !ok {
			t.Fatalf("%q: neither an event nor an error", line)
		}
		if ev.Type == "" {
			t.Fatalf("%q: event without a type: %+v", line, ev)
		}
		b, err := ev.Marshal()
		if err != nil {
			t.Fatalf("%q: marshal: %v", line, err)
		}
		if !json.Valid(b) {
			t.Fatalf("%q: invalid JSON %s", line, b)
		}
		dec, err := DecodeEvent(b)
		if err != nil {
			t.Fatalf("%q: decode %s: %v", line, b, err)
		}
		if !reflect.DeepEqual(dec, ev) {
			t.Fatalf("%q: the event does not survive the store's JSON:\nparsed  %#v\ndecoded %#v\njson    %s", line, ev, dec, b)
		}
		if b2, _ := dec.Marshal(); string(b2) != string(b) {
			t.Fatalf("%q: JSON not stable: %s then %s", line, b, b2)
		}
	})
}

// fuzzSubmitPrefix is the fixed valid start of every FuzzSubmit session:
// enemies on the map and a test roll waiting with one reroll.
var fuzzSubmitPrefix = []string{
	"setup commonwealth loyal railroad survivors alice:8:SA bob:10:PE",
	"enemy add raider-1 with alice",
	"enemy add institute-1 adjacent bob",
	"test alice 2 S",
	"roll torso arms 1h",
}

func FuzzSubmit(f *testing.F) {
	c := testContent(f)
	cat, err := NewCatalog("en")
	if err != nil {
		f.Fatal(err)
	}
	// One store per process (each fuzzing worker runs this once); every
	// input gets its own session.
	st, err := OpenStore(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	var sessions atomic.Int64
	prefix := make([]Event, len(fuzzSubmitPrefix))
	for i, l := range fuzzSubmitPrefix {
		ev, ok, err := ParseLine(c, l)
		if err != nil || !ok {
			f.Fatalf("prefix %q: %v", l, err)
		}
		prefix[i] = ev
	}
	seeds := fuzzSeedLines(f)
	for _, l := range seeds {
		f.Add(l)
	}
	for _, script := range []string{"reroll 1:head\nundo\nredo\ncorrect 5 head head 2h", "done\ncorrect 5 head head head\nundo\nundo\nredo",
		"card activation-5\nroll head legs\nenemy remove e2\nroll 2h", "undo\nundo\nundo\nundo\nundo\nundo\nredo\nredo\nxp alice +1\nredo",
		"done\nfight alice e1\nroll head legs\nenemy place e3 with bob\ncorrect 7 torso torso"} {
		f.Add(script)
	}
	// Scripted games as multi-line inputs (after the prefix's setup).
	for _, g := range []string{"won", "lost"} {
		f.Add(readFile(f, filepath.Join("..", "testdata", "games", g+".events")))
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, input string) {
		lines := strings.Split(input, "\n")
		if len(lines) > 40 {
			lines = lines[:40]
		}
		if fuzzSkipFixedBugs {
			for _, l := range lines {
				if hitsKnownParseBug(l) {
					return // known bug
				}
			}
		}
		id := fmt.Sprintf("fuzz-%d", sessions.Add(1))
		if err := st.CreateSession(ctx, id, id); err != nil {
			t.Fatal(err)
		}
		s, err := OpenSession(ctx, st, c, cat, id, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range prefix {
			if _, err := s.Submit(ctx, ev); err != nil {
				t.Fatalf("prefix: %v", err)
			}
		}
		count := func() int {
			n, err := st.Count(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, line := range lines {
			ev, ok, err := ParseLine(c, line)
			if err != nil || !ok {
				continue
			}
			before, n := gameJSON(s.Game()), count()
			var as []models.Announcement
			if !fuzzCall(t, line, func() { as, err = s.Submit(ctx, ev) }) {
				return // known bug
			}
			after, m := gameJSON(s.Game()), count()
			if err != nil {
				if after != before {
					t.Fatalf("%q rejected (%v) but changed the game: %s", line, err, jsonDiff(after, before))
				}
				if m != n {
					t.Fatalf("%q rejected (%v) but stored %d events", line, err, m-n)
				}
				continue
			}
			nothing := len(as) == 1 && (as[0].Kind == KindNothingUndo || as[0].Kind == KindNothingRedo)
			switch {
			case nothing && (m != n || after != before):
				t.Fatalf("%q: %s but stored %d events or changed the game", line, as[0].Kind, m-n)
			case !nothing && m != n+1:
				t.Fatalf("%q accepted, stored %d events, want 1", line, m-n)
			}
			for _, a := range as {
				if a.Text == "" || strings.Contains(a.Text, "<no value>") {
					t.Fatalf("%q: %s announced %q", line, a.Kind, a.Text)
				}
			}
			// The live state is the state derived from the log.
			if live, replay := canonJSON(s.Game()), canonJSON(Replay(c, s.Events())); live != replay {
				t.Fatalf("%q: live state differs from a clean replay: %s", line, jsonDiff(live, replay))
			}
		}
		// The stored log replays to the live state.
		var again *Session
		if !fuzzCall(t, "reopen", func() { again, err = OpenSession(ctx, st, c, cat, id, "") }) {
			return // known bug
		}
		if err != nil {
			t.Fatal(err)
		}
		if live, reopened := canonJSON(s.Game()), canonJSON(again.Game()); live != reopened {
			t.Fatalf("reopened state differs from the live one: %s", jsonDiff(reopened, live))
		}
	})
}

// ---------------------------------------------------------------------------
// Reproductions of ParseLine bugs found by FuzzParseLine.

// TestRegression_ParseSetupSurvivorIDEmptyPanics: parseSetup builds the
// display name with parts[0][:1], which panics for an empty id (":", ":8").
func TestRegression_ParseSetupSurvivorIDEmptyPanics(t *testing.T) {
	c := testContent(t)
	for _, line := range []string{"setup commonwealth loyal railroad survivors :8", "setup commonwealth loyal railroad survivors alice :"} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("ParseLine(%q) panicked: %v", line, r)
				}
			}()
			if _, ok, err := ParseLine(c, line); err == nil || ok {
				t.Errorf("ParseLine(%q): ok %v err %v, want an error (empty survivor id)", line, ok, err)
			}
		}()
	}
}

// The display name upper-cases the first letter, not the first byte (a
// regression test: "émile" once became invalid UTF-8).
func TestParseSetupSurvivorIDMultibyte(t *testing.T) {
	c := testContent(t)
	ev, _, err := ParseLine(c, "setup commonwealth loyal railroad survivors émile:10")
	if err != nil {
		t.Fatal(err)
	}
	if name := ev.Setup.Survivors[0].Name; name != "Émile" {
		t.Errorf("survivor émile is named %q, want %q", name, "Émile")
	}
	b, _ := ev.Marshal()
	if dec, _ := DecodeEvent(b); !reflect.DeepEqual(dec, ev) {
		t.Errorf("the setup does not survive the store's JSON: %q became %q", ev.Setup.Survivors[0].Name, dec.Setup.Survivors[0].Name)
	}
}

// Lines that are not valid UTF-8 are rejected by ParseLine, and an event
// carrying invalid text is rejected by Submit and not stored (the store's
// JSON would change it, so the stored event would not be the applied one).
func TestInvalidUTF8IsRejected(t *testing.T) {
	c := testContent(t)
	for _, line := range []string{"card activation-\xff", "setup commonwealth loyal railroad survivors al\xffice", "first b\xe9b"} {
		if _, ok, err := ParseLine(c, line); err == nil || ok {
			t.Errorf("ParseLine(%q) accepted invalid UTF-8", line)
		}
	}
	st, s := newSession(t, c, "en")
	ev := Event{Type: EvSetup, Setup: &engine.Setup{Scenario: "commonwealth", Loyal: "railroad",
		Survivors: []models.Survivor{{ID: "al\xffice"}, {ID: "bob"}}}}
	if _, err := s.Submit(context.Background(), ev); err == nil {
		t.Error("Submit accepted an event with invalid UTF-8")
	}
	if n, _ := st.Count(context.Background(), s.ID()); n != 0 {
		t.Errorf("%d events stored", n)
	}
}

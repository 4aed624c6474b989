package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/announce"
	"tablecam/models"
	"tablecam/tracker"
)

// `replay` reports every bad line with its number (one that does not
// parse, one longer than tracker.MaxLineBytes, one the game rejects) and
// replays the others; it fails at the end, saying how many were bad.
func TestReplayReportsEveryBadLineAndReplaysTheRest(t *testing.T) {
	events := filepath.Join(t.TempDir(), "x.events")
	src := "setup commonwealth loyal railroad survivors alice\n" +
		"flip\n" +
		"goal " + strings.Repeat("x", 70<<10) + "\n" +
		"roll 2h bogus\n" +
		"enemy remove e9\n" +
		"goal\n"
	if err := os.WriteFile(events, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, err := run(t, "", "replay", "--events", events)
	if err == nil || !strings.Contains(err.Error(), "4 lines") {
		t.Errorf("err = %v, want 4 lines rejected", err)
	}
	for _, want := range []string{"x.events:2: flip", "x.events:3: line too long", "x.events:4: roll", "x.events:5: enemy"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%.3000s", want, errs)
		}
	}
	if !strings.Contains(out, "Goals completed: 1") {
		t.Errorf("the goal after the bad lines was not replayed:\n%s", out)
	}
}

// A line longer than tracker.MaxLineBytes at the manual prompt is an error
// for that line (bufio.Scanner ended the prompt at it, dropping the rest).
func TestManualPromptSkipsLongLine(t *testing.T) {
	stdin := "setup commonwealth loyal railroad survivors alice\n" +
		"goal " + strings.Repeat("x", 70<<10) + "\n" +
		"goal\n"
	out, errs, err := run(t, stdin, "play", "--manual")
	if err != nil {
		t.Fatalf("%v\n%.2000s", err, errs)
	}
	if !strings.Contains(errs, "line 2: line too long") {
		t.Errorf("stderr lacks line 2: line too long:\n%.2000s", errs)
	}
	if !strings.Contains(out, "Goals completed: 1") {
		t.Errorf("the line after the long one was not read:\n%s", out)
	}
}

// Events the store fails to keep make the prompt fail, saying how many (it
// ended without error after 19,954 of 20,000 events failed on a full disk).
func TestPromptFailsWhenEventsAreNotStored(t *testing.T) {
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := tracker.NewCatalog("en")
	s, err := tracker.OpenSession(context.Background(), st, c, cat, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	ann := announce.NewConsole(&out, false)
	if err := prompt(context.Background(), c, s, strings.NewReader("setup commonwealth loyal railroad survivors alice\n"), &out, &errb, ann, false); err != nil {
		t.Fatal(err)
	}
	st.Close() // every append fails from here on
	err = prompt(context.Background(), c, s, strings.NewReader("goal\nflip\ngoal\n"), &out, &errb, ann, false)
	if err == nil || !strings.Contains(err.Error(), "2 of 2 events could not be stored") {
		t.Errorf("err = %v, want 2 of 2 events not stored\n%s", err, errb.String())
	}
}

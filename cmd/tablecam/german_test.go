package main

import (
	"regexp"
	"strings"
	"testing"

	"tablecam/tracker"
)

// englishWords are words of English sentences that German text never
// holds. Ids, command words and values the group types (setup, loyal,
// vats, on, off) are not among them.
var englishWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the of and is are to for with from not no yet this that which when what
		each every left waiting rolled game round first player space goals cards enemies pending session
		scenario unknown command line usage default flags available shows reads teach write read list
		none tracked active facedown difficulty reroll rerolls`) {
		englishWords[w] = true
	}
}

// quoted are what German text quotes from the group or the content: text
// in backticks or double quotes, and session ids.
var quoted = regexp.MustCompile("`[^`]*`|\"[^\"]*\"|game-[0-9.-]+")

// englishIn returns the English words of text, after quoted parts.
func englishIn(text string) []string {
	var found []string
	for _, w := range regexp.MustCompile(`[\p{L}]+`).FindAllString(quoted.ReplaceAllString(text, " "), -1) {
		if englishWords[strings.ToLower(w)] {
			found = append(found, w)
		}
	}
	return found
}

// With the language German, the state table, the prompt's help and its
// errors, the sessions list and its errors, and every command's help are
// German: no English word is left.
func TestGermanOutputHasNoEnglish(t *testing.T) {
	if got := englishIn("Round 2, first player Alice"); len(got) != 3 {
		t.Fatalf("the detector misses English: %v", got)
	}
	t.Setenv("TABLECAM_LANGUAGE", "de")
	script := strings.Join([]string{
		"round", // before setup: an error
		"setup commonwealth loyal railroad survivors alice:8:SA bob:10:PE",
		"enemy add raider-2 with alice",
		"enemy add ghoul-1 inactive adjacent bob",
		"test alice 2 S",
		"roll torso arms 1h",
		"bogus",
		"hp carl -2",
		"reroll 9:head",
		"correct 99 head",
		"test alice -1",
		"help",
		"state",
		"history",
		"undo",
		"history",
	}, "\n") + "\n"
	out, errs, err := run(t, script, "play", "--manual")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	state, _, err := runHere(t, "", "state")
	if err != nil {
		t.Fatal(err)
	}
	// An enemy turn waiting for a fight.
	if _, errs, err := runHere(t, "setup commonwealth loyal railroad survivors alice\nenemy add raider-2 with alice\ncard activation-2\n", "play", "--manual", "--new"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	waiting, _, err := runHere(t, "", "state")
	if err != nil || !strings.Contains(waiting, "Gegnerzug activation-2 wartet auf den Kampf von Alice") {
		t.Fatalf("state of a waiting enemy turn: %v\n%s", err, waiting)
	}
	list, _, err := runHere(t, "", "sessions")
	if err != nil {
		t.Fatal(err)
	}
	_, _, delErr := runHere(t, "", "sessions", "--delete", sessionIDs(list)[0])
	if delErr == nil {
		t.Fatal("sessions --delete without --yes deleted")
	}
	var helpLines []string
	for _, line := range strings.Split(out, "\n") {
		// The prompt's help: the syntax column is what the group types.
		for _, cm := range tracker.Commands() {
			if rest, ok := strings.CutPrefix(line, "  "+cm.Usage+" "); ok {
				helpLines = append(helpLines, rest)
			}
		}
	}
	if len(helpLines) < 20 {
		t.Fatalf("no help in the prompt's output:\n%s", out)
	}
	errLines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(errLines) != 6 {
		t.Fatalf("want 6 errors, got:\n%s", errs)
	}
	for name, text := range map[string]string{
		"state":          state,
		"prompt state":   out[strings.Index(out, "\nSzenario   "):],
		"prompt help":    strings.Join(helpLines, "\n"),
		"prompt errors":  regexp.MustCompile(`(?m)^Zeile \d+: \w+:`).ReplaceAllString(errs, ""), // the word typed
		"history undone": out[strings.LastIndex(out, "rückgängig"):],
		"sessions":       list,
		"waiting turn":   waiting,
		"delete error":   delErr.Error(),
	} {
		if got := englishIn(text); len(got) > 0 {
			t.Errorf("%s: English words %q in:\n%s", name, got, text)
		}
	}
	for _, cmd := range [][]string{{}, {"play"}, {"replay"}, {"state"}, {"sessions"}, {"odds"}, {"stickers"},
		{"dice"}, {"card"}, {"learn"}, {"learn", "dice"}, {"learn", "cards"}, {"bench"}, {"list"}} {
		help, _, err := runHere(t, "", append(cmd, "--help")...)
		if err != nil {
			t.Fatal(err)
		}
		var text []string
		for _, line := range strings.Split(help, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "tablecam") {
				continue // the command line to type
			}
			// A flag's name and type, and a command's name, are typed too.
			line = regexp.MustCompile(`^\s+(-\w, )?--[\w-]+( \w+)?\s+`).ReplaceAllString(line, "")
			line = regexp.MustCompile(`Hilfe zu \w+|--[\w-]+|^  \w+ |tablecam( [a-z]+)*`).ReplaceAllString(line, "")
			text = append(text, line)
		}
		if got := englishIn(strings.Join(text, "\n")); len(got) > 0 {
			t.Errorf("tablecam %s --help: English words %q in:\n%s", strings.Join(cmd, " "), got, help)
		}
	}
}

package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tablecam/models"
	"tablecam/perf"
	"tablecam/tracker"
	"tablecam/vision/synth"
)

// runSaid runs the CLI in-process as main does: it returns the command's
// error as main says it (in the configured language).
func runSaid(t *testing.T, stdin string, args ...string) (out, errs, said string) {
	t.Helper()
	root, a := newRootApp()
	var o, e bytes.Buffer
	root.SetOut(&o)
	root.SetErr(&e)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		said = a.errorText(root, err)
	}
	return o.String(), e.String(), said
}

// noEnglish fails the test when text holds English words (flags, as
// typed, are not words of a sentence).
func noEnglish(t *testing.T, what, text string) {
	t.Helper()
	if got := englishIn(regexp.MustCompile(`--[\w-]+`).ReplaceAllString(text, "")); len(got) > 0 {
		t.Errorf("%s: English words %q in:\n%s", what, got, text)
	}
}

// A German replay reports every bad line with its number, in German, and
// replays the rest; the summary error is German too.
func TestGermanReplayReportsEveryBadLine(t *testing.T) {
	t.Setenv("TABLECAM_LANGUAGE", "de")
	t.Setenv("TABLECAM_DATA_DIR", dataDir(t))
	events := filepath.Join(t.TempDir(), "x.events")
	src := strings.Join([]string{
		"setup commonwealth loyal railroad survivors alice:8:SA bob:10:PE",
		"bogus",      // 2: not a command
		"hp carl -2", // 3: the engine: no such survivor
		"enemy add raider-2 with alice",
		"test alice 2 S",
		"roll torso arms 1h",
		"reroll 9:head", // 7: no die 9
		"done",
		`{"seq":1}`,                           // 9: not an exported event
		"card activation-99",                  // 10: the engine: no such card
		"goal " + strings.Repeat("x", 70<<10), // 11: too long
		"fight alice e9",                      // 12: no such enemy
		"goal",
	}, "\n") + "\n"
	if err := os.WriteFile(events, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, said := runSaid(t, "", "replay", "--events", events)
	for _, n := range []string{"2", "3", "7", "9", "10", "11", "12"} {
		if !strings.Contains(errs, "x.events:"+n+": ") {
			t.Errorf("bad line %s not reported:\n%.2000s", n, errs)
		}
	}
	if got := strings.Count(errs, "x.events:"); got != 7 {
		t.Errorf("%d lines reported, want 7:\n%.2000s", got, errs)
	}
	if !strings.Contains(said, "7 Zeilen von") {
		t.Errorf("summary: %q", said)
	}
	for _, want := range []string{"Alice: 1 Treffer, Schwierigkeit 2 nicht bestanden.", "Aufgaben erfüllt: 1; 3 nötig."} {
		if !strings.Contains(out, want) {
			t.Errorf("the lines around the bad ones were not replayed: no %q in\n%s", want, out)
		}
	}
	// The word typed, the file and the line number stay as written.
	msgs := regexp.MustCompile(`(?m)^[^:\n]*x\.events:\d+: (\w+: )?`).ReplaceAllString(errs, "")
	noEnglish(t, "replay errors", msgs)
	noEnglish(t, "replay summary", said)
	noEnglish(t, "replay announcements", out)
}

// The odds, list, stickers, sessions --check and --export, and the
// errors of the command line are German with the language German.
func TestGermanCommandsHaveNoEnglish(t *testing.T) {
	t.Setenv("TABLECAM_LANGUAGE", "de")
	t.Setenv("TABLECAM_DATA_DIR", dataDir(t))
	tmp := t.TempDir()
	for _, args := range [][]string{
		{"odds", "--difficulty", "2", "--rerolls", "1"},
		{"odds", "--enemy", "ghoul-2", "--rerolls", "1", "--assist"},
		{"odds", "--enemy", "raider-1", "--faces", "head,torso,2h", "--rerolls", "1"},
		{"odds", "--faces", "head,legs,arms", "--difficulty", "2", "--rerolls", "1"},
		{"stickers", "--ids", "0-3", "-o", filepath.Join(tmp, "st")},
		{"odds", "--game", "twom", "--noise", "3", "--empathy", "6"},
		{"odds", "--game", "twom", "--combat", "knife", "--enemy-roll"},
		{"odds", "--game", "twom", "--combat", "knife", "--enemy-roll", "--strength", "2"},
		{"odds", "--game", "twom", "--combat", "hatchet", "--strength", "1"},
		{"odds", "--game", "warfare", "--mine", "5"},
		{"odds", "--game", "warfare", "--stat", "7", "--mod", "2"},
		{"odds", "--game", "warfare", "--melee", "7", "--ac", "2", "--behind", "--charge"},
		{"odds", "--game", "warfare", "--shoot", "8", "--ac", "1", "--cover", "--light", "dusk", "--shooter", "ghoul"},
		{"odds", "--game", "warfare", "--initiative", "--last-attacker", "a", "--luck-b", "3"},
		{"odds", "--game", "wasteland", "--skill", "5", "--skill-faces", "crit,ap,2,2,3,3,4,4,5,5,6,6,7,7,8,9,10,x,x,x"},
	} {
		out, errs, said := runSaid(t, "", args...)
		if said != "" || out == "" {
			t.Fatalf("%v: %s\n%s", args, said, errs)
		}
		noEnglish(t, strings.Join(args, " "), out)
	}
	// A list's first line heads its columns; the rows are ids and names
	// from the content.
	for _, kind := range []string{"scenarios", "enemies", "factions", "cards", "sets", "games", "twom", "warfare", "wasteland"} {
		out, _, said := runSaid(t, "", "list", kind)
		if said != "" {
			t.Fatal(said)
		}
		noEnglish(t, "list "+kind, strings.SplitN(out, "\n", 2)[0])
		if kind == "cards" && !strings.Contains(out, ", dann ") {
			t.Errorf("list cards:\n%s", out)
		}
	}
	if _, errs, said := runSaid(t, "setup commonwealth loyal railroad survivors alice\ngoal\n", "play", "--manual"); said != "" {
		t.Fatalf("%s\n%s", said, errs)
	}
	list, _, _ := runSaid(t, "", "sessions")
	id := sessionIDs(list)[0]
	check, _, said := runSaid(t, "", "sessions", "--check")
	if said != "" || !strings.Contains(check, "der Speicher ist heil") {
		t.Fatalf("sessions --check: %s\n%s", said, check)
	}
	noEnglish(t, "sessions --check", check)
	file := filepath.Join(tmp, "spiel.events")
	exported, _, said := runSaid(t, "", "sessions", "--export", id, file)
	if said != "" {
		t.Fatal(said)
	}
	noEnglish(t, "sessions --export", exported)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var comments []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			comments = append(comments, line)
		}
	}
	if len(comments) < 2 {
		t.Fatalf("export without its comments:\n%s", b)
	}
	noEnglish(t, "the exported file's comments", strings.Join(comments, "\n"))

	// A changed event: every command refuses the store, saying why in
	// German; --check and --export say what is not whole.
	raw, err := sql.Open("sqlite", filepath.Join(os.Getenv("TABLECAM_DATA_DIR"), "tablecam.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE events SET payload = replace(payload, '"goal"', '"round"') WHERE seq = 2`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	for _, args := range [][]string{{"state"}, {"sessions"}, {"play", "--manual"}} {
		_, _, said := runSaid(t, "", args...)
		if !strings.Contains(said, "passt nicht zu seinem Hash") {
			t.Errorf("%v on a changed event: %s", args, said)
		}
		noEnglish(t, strings.Join(args, " ")+" on a damaged store", said)
	}
	check, _, said = runSaid(t, "", "sessions", "--check")
	if !strings.Contains(check, "passen nicht zu ihrem Hash: [2]") || said == "" {
		t.Errorf("sessions --check of a changed event: %s\n%s", said, check)
	}
	noEnglish(t, "sessions --check of a damaged store", check+said)
	file2 := filepath.Join(tmp, "spiel2.events")
	exported, _, said = runSaid(t, "", "sessions", "--export", id, file2)
	b, _ = os.ReadFile(file2)
	if said != "" || !strings.Contains(string(b), "# Ereignis 2 passt nicht zu seinem Hash") {
		t.Errorf("the export does not mark event 2: %s\n%s", said, b)
	}

	for _, args := range [][]string{
		{"replay"},
		{"dice"},
		{"odds", "--dice", "x"},
		{"odds", "--set", "nosuch"},
		{"odds", "--enemy", "nosuch"},
		{"odds", "--dice", "99"},
		{"odds", "--game", "twom"},
		{"odds", "--game", "twom", "--combat", "spoon"},
		{"odds", "--game", "twom", "--combat", "grey", "--strength", "11"},
		{"odds", "--game", "twom", "--combat", "assault_rifle", "--shots", "2", "--strength", "1"},
		{"odds", "--game", "warfare", "--mine", "30"},
		{"odds", "--game", "warfare"},
		{"odds", "--game", "warfare", "--melee", "7", "--cover"},
		{"odds", "--game", "wasteland", "--skill", "5", "--skill-faces", "crit,zz"},
		{"list", "bogus"},
		{"learn", "dice", tmp},
		{"stickers"},
		{"stickers", "--ids", "x", "-o", "y"},
		{"sessions", "--yes"},
		{"sessions", "--export", id},
		{"sessions", "--rename", id},
		{"sessions", "--check", "--close", id},
		{"play", "--voice", "loud", "--manual"},
		{"nosuch"},
		{"state", "--nosuch"},
		{"play", "--images", t.TempDir(), "--new"},
		{"play", "--camera-device", "/dev/video97", "--new"},
	} {
		_, _, said := runSaid(t, "", args...)
		if said == "" {
			t.Errorf("%v: no error", args)
		}
		noEnglish(t, strings.Join(args, " "), said)
	}
	if out, _, said := runSaid(t, "", "--version"); said != "" || !strings.HasPrefix(out, "tablecam Version ") {
		t.Errorf("--version: %s\n%s", said, out)
	}
	// A mistyped command is named, with what was meant.
	if _, _, said := runSaid(t, "", "pla"); !strings.Contains(said, "Meintet ihr") {
		t.Errorf("a mistyped command: %s", said)
	} else {
		noEnglish(t, "a mistyped command", said)
	}
	// The voice's warning is a German sentence (in a store that is whole).
	t.Setenv("TABLECAM_DATA_DIR", dataDir(t))
	t.Setenv("TABLECAM_VOICE_ENGINE", filepath.Join(tmp, "sprecher"))
	_, errs, said := runSaid(t, "setup commonwealth loyal railroad survivors alice\n", "play", "--manual", "--new", "--voice", "on")
	if said != "" || !strings.Contains(errs, "Es gibt keine Stimme") {
		t.Errorf("play without a voice engine: %s\n%s", said, errs)
	}
	noEnglish(t, "the voice's warning", errs)
	out, errs, said := runSaid(t, "", "dice", filepath.Join(tmp, "nosuch.png"))
	if said == "" || !strings.Contains(errs, "1 von 1 Bildern ließ sich nicht lesen") {
		t.Errorf("dice on a missing picture: %s\n%s", said, errs)
	}
	noEnglish(t, "dice on a missing picture", out+errs)
}

// The bench's report says its figures in German.
func TestGermanBenchReport(t *testing.T) {
	cat, err := tracker.NewCatalog("de")
	if err != nil {
		t.Fatal(err)
	}
	rep := perf.Report{Frames: 900, Rolls: 5, Expected: 5, Cards: 1, Applied: 7, Wall: 30 * time.Second, CPU: 12 * time.Second, Cores: 2,
		SettleFrames: []int{3, 4}, ToAnnounce: []time.Duration{80 * time.Millisecond}, ToVoice: []time.Duration{90 * time.Millisecond},
		Memory: []perf.Sample{{RSS: 100 << 20, Mats: 3}, {RSS: 101 << 20, Mats: 3}}}
	text := benchReport(cat, rep)
	if !strings.Contains(text, "Würfe 5 von 5") || !strings.Contains(text, "Median 80 ms") {
		t.Errorf("bench report:\n%s", text)
	}
	noEnglish(t, "bench report", text+cat.T("benchScene", cat.Count(900, "frames"), 1280, 720, 30, cat.Count(5, "rolls"))+cat.T("benchRender", "x.avi"))
	en, _ := tracker.NewCatalog("en")
	if got, want := benchReport(en, rep), rep.String(); got != want {
		t.Errorf("English bench report %q, want perf's %q", got, want)
	}
}

// learn dice, learn cards, dice and card say what they do in German: the
// teaching's progress, the self-check, what was taught, the tables read.
func TestGermanLearnAndRead(t *testing.T) {
	t.Setenv("TABLECAM_LANGUAGE", "de")
	t.Setenv("TABLECAM_DATA_DIR", dataDir(t))
	c, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	teach := t.TempDir()
	fs, _ := c.FaceSet("vats")
	seed := synth.TrainSeedMin + 556000
	for _, f := range fs.Faces {
		for k := range 2 {
			seed++
			m, _, err := synth.Render(c, synth.Scene{Seed: seed, Dice: []synth.DieSpec{{Set: "vats", Face: f.ID}}})
			if err != nil {
				t.Fatal(err)
			}
			writePNG(t, filepath.Join(teach, f.ID, fmt.Sprintf("%d.png", k)), m)
		}
	}
	out, errs, said := runSaid(t, "", "learn", "dice", "--set", "meinvats", teach)
	if said != "" || !strings.Contains(out, `den neuen Satz "meinvats" angelernt (6 Seiten, 12 Beispiele)`) {
		t.Fatalf("learn dice: %s\n%s%s", said, out, errs)
	}
	// Paths (of the pictures, of the profiles) are as written.
	paths := regexp.MustCompile(`\S*[/.]\S*`)
	t.Log(out)
	noEnglish(t, "learn dice", paths.ReplaceAllString(out, ""))

	cards := t.TempDir()
	for card, art := range map[string]int64{"goal-1": 71001, "goal-2": 71002} {
		for k := range 2 {
			m, _, err := synth.RenderCardScene(synth.CardScene{Seed: synth.TrainSeedMin + 99500 + art*10 + int64(k),
				Cards: []synth.CardSpec{{Art: art, Width: 260, Center: image.Pt(640, 360)}}})
			if err != nil {
				t.Fatal(err)
			}
			writePNG(t, filepath.Join(cards, card, fmt.Sprintf("%d.png", k)), m)
		}
	}
	out, errs, said = runSaid(t, "", "learn", "cards", cards)
	if said != "" || !strings.Contains(out, "2 Karten angelernt") {
		t.Fatalf("learn cards: %s\n%s%s", said, out, errs)
	}
	noEnglish(t, "learn cards", paths.ReplaceAllString(out, ""))

	pics := t.TempDir()
	m, _, err := synth.Render(c, synth.Scene{Seed: synth.EvalSeedMin + 89000, Dice: []synth.DieSpec{{Set: "vats"}, {Set: "vats"}}})
	if err != nil {
		t.Fatal(err)
	}
	dice := filepath.Join(pics, "wurf.png")
	writePNG(t, dice, m)
	m, _, err = synth.RenderCardScene(synth.CardScene{Seed: synth.EvalSeedMin + 99600, Cards: []synth.CardSpec{{Art: 71002, Width: 260, Center: image.Pt(640, 360)}}})
	if err != nil {
		t.Fatal(err)
	}
	card := filepath.Join(pics, "karte.png")
	writePNG(t, card, m)
	for _, args := range [][]string{{"dice", "--set", "vats", dice}, {"card", card, dice}} {
		out, errs, said := runSaid(t, "", args...)
		if said != "" {
			t.Fatalf("%v: %s\n%s", args, said, errs)
		}
		t.Log(out + errs)
		noEnglish(t, strings.Join(args, " "), out+errs)
	}
}

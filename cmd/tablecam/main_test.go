package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/demo"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision/synth"
)

// run executes the CLI in-process with an isolated data directory.
func run(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	return runInWith(t, dataDir(t), stdin, args...)
}

// `tablecam replay` is deterministic and announces exactly what the
// tracker's reviewed golden file says for the same game.
func TestReplayMatchesGolden(t *testing.T) {
	for _, game := range []string{"lost", "won", "twom", "warfare", "wasteland"} {
		events := filepath.Join("..", "..", "testdata", "games", game+".events")
		out1, errs, err := run(t, "", "replay", "--events", events)
		if err != nil {
			t.Fatalf("%s: %v\n%s", game, err, errs)
		}
		out2, _, _ := run(t, "", "replay", "--events", events)
		if out1 != out2 {
			t.Errorf("%s: two replays differ", game)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", game+".expected"))
		if err != nil {
			t.Fatal(err)
		}
		if out1 != string(want) {
			t.Errorf("%s: replay output differs from %s.expected:\n%s", game, game, out1)
		}
	}
}

func TestReplayJSONCarriesSeqAndKind(t *testing.T) {
	out, _, err := run(t, "", "replay", "--json", "--events", filepath.Join("..", "..", "testdata", "games", "won.events"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.HasPrefix(first, `{"seq":1,"kind":"setup","text":"New game: The Capital Wasteland.`) {
		t.Errorf("first JSON line: %s", first)
	}
}

func TestDemoRunsAndSpeaksToWAV(t *testing.T) {
	wav := t.TempDir()
	out, errs, err := run(t, "", "play", "--demo", "--voice-wav", wav)
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, errs)
	}
	// Every roll and the card come from the rendered frames through the
	// camera pipeline (dice detector, settle detection, card reader): the
	// test roll with one reroll, the fight with one reroll (a hand passes
	// over the dice after it), and the enemy's attack.
	if !strings.Contains(errs, "5 rolls, 1 card") {
		t.Errorf("the demo's camera pipeline did not read 5 rolls and 1 card:\n%s", errs)
	}
	for _, want := range []string{"1 hit against difficulty 2, failing. 1 reroll left", "Nora: 3 hits, difficulty 2 passed.",
		"Ghoul killed!", "Institute activate.", "Institute power advances 1 to space 2 of 7", "Institute fighter killed!", "Round 2."} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat("/usr/bin/espeak-ng"); err == nil {
		files, _ := filepath.Glob(filepath.Join(wav, "*.wav"))
		lines := strings.Count(out, "\n")
		if len(files) != lines {
			t.Errorf("%d announcements but %d spoken WAV files", lines, len(files))
		}
	}
}

func TestManualPromptResumesAfterRestart(t *testing.T) {
	t.Setenv("TABLECAM_DATA_DIR", dataDir(t))
	t.Setenv("TABLECAM_VOICE_ENABLED", "false")
	exec := func(stdin string, args ...string) string {
		root := newRoot()
		var out, errb bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errb)
		root.SetIn(strings.NewReader(stdin))
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errb.String())
		}
		return out.String() + errb.String()
	}
	exec("setup the-pitt loyal slaves survivors ann bo\ngoal\nbogus line\n", "play", "--manual")
	out := exec("goal\n", "play", "--manual")
	if !strings.Contains(out, "Goals completed: 2; 3 required.") {
		t.Errorf("second run did not resume the session: %s", out)
	}
	state := exec("", "state")
	if !strings.Contains(state, "Goals      2 of 3") {
		t.Errorf("state: %s", state)
	}
}

func TestManualPromptReportsBadLines(t *testing.T) {
	_, errs, err := run(t, "setup commonwealth loyal railroad survivors a\nroll 2h bogus\nflip\n", "play", "--manual")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`line 2: roll: V.A.T.S. die has no face "bogus"`, "line 3: flip: unknown command"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestBrokenConfigNamesKeyAndLine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("language: en\nvoice:\n  rat: 100\n"), 0o644)
	_, _, err := run(t, "", "--config", cfg, "odds")
	if err == nil || !strings.Contains(err.Error(), "config.yaml:3") || !strings.Contains(err.Error(), "voice.rat") {
		t.Errorf("error %v should name config.yaml:3 and voice.rat", err)
	}
}

func TestOddsPrintsExactFigures(t *testing.T) {
	out, _, err := run(t, "", "odds", "--difficulty", "1", "--dice", "1")
	if err != nil {
		t.Fatal(err)
	}
	// One default V.A.T.S. die: 4 of 6 faces show at least one hit.
	if !strings.Contains(out, "0 rerolls: P(pass) =  66.67%") {
		t.Errorf("odds: %s", out)
	}
}

// `tablecam --version` names the build and exits 0.
func TestVersionFlag(t *testing.T) {
	out, _, err := run(t, "", "--version")
	if err != nil || !strings.HasPrefix(out, "tablecam version ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: %v\n%s", err, out)
	}
}

// `play --demo twom|warfare|wasteland` reads every die of the game's demo
// from the rendered frames, and each command typed without its reading
// resolves as the engine does for the faces rendered: the demo says
// exactly what a session says for the same lines with those faces typed.
// Wasteland Warfare's luck token is thrown beside the skill die after its
// use is declared without a side (seed 001: the use before the throw): the
// side comes from the camera, so a side typed (no "Throw the luck token"
// prompt) or misread (another sentence) fails.
func TestOtherGameDemosResolveCameraRolls(t *testing.T) {
	base, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		game   string
		tokens int
	}{{"twom", 0}, {"warfare", 0}, {"wasteland", 1}} {
		t.Run(tc.game, func(t *testing.T) {
			script, err := demo.GameScript(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			c := demo.Content(base, tc.game)
			var lines []string
			rolls, tokens := 0, 0
			for _, st := range script {
				lines = append(lines, st.Lines...)
				if st.Dice == nil {
					continue
				}
				throws := demoThrows(t, st.Dice)
				for i, dice := range throws {
					if i == st.TypedBefore {
						lines = append(lines, st.Typed...)
					}
					// A throw is one roll of each set it brings in (the
					// dice lying from before are not read again).
					var sets []string
					faces := map[string]string{}
					for _, d := range dice {
						if _, ok := faces[d.Set]; !ok {
							sets = append(sets, d.Set)
						}
						faces[d.Set] += " " + d.Face
						if d.Set == tracker.SetLuck {
							tokens++
						}
					}
					for _, set := range sets {
						lines = append(lines, "roll "+set+faces[set])
					}
					rolls++
				}
			}
			if tokens != tc.tokens {
				t.Fatalf("the demo throws %d luck tokens, want %d", tokens, tc.tokens)
			}
			want := typedAnnouncements(t, c, lines)
			out, errs, err := run(t, "", "play", "--demo", tc.game, "--voice", "off")
			if err != nil {
				t.Fatalf("demo: %v\n%s", err, errs)
			}
			if !strings.Contains(errs, count(rolls, "roll")+", 0 cards") {
				t.Errorf("the camera pipeline did not read the %d rolls:\n%s", rolls, errs)
			}
			if out != want {
				t.Errorf("demo:\n%s\nwant (the lines with the rendered faces typed):\n%s", out, want)
			}
			if n := strings.Count(out, "Roll the ") + strings.Count(out, "Roll 2 × ") + strings.Count(out, "Throw the luck token"); n != rolls {
				t.Errorf("%d commands waited for the camera, want %d:\n%s", n, rolls, out)
			}
			if n := strings.Count(out, "Throw the luck token"); n != tc.tokens {
				t.Errorf("%d luck uses waited for the camera's token, want %d:\n%s", n, tc.tokens, out)
			}
		})
	}
}

// demoThrows lists the dice each throw of a demo segment brings in: a
// throw brings the first Count dice not on the table yet (0: all).
func demoThrows(t *testing.T, spec *synth.SequenceSpec) [][]synth.DieSpec {
	t.Helper()
	var out [][]synth.DieSpec
	next := 0
	for _, st := range spec.Script {
		if st.Kind == synth.StepReroll || st.Kind == synth.StepPickUp {
			t.Fatalf("a demo segment of another game rerolls or picks up dice: %v", st.Kind)
		}
		if st.Kind != synth.StepThrow {
			continue
		}
		n := len(spec.Scene.Dice) - next
		if st.Count > 0 {
			n = min(n, st.Count)
		}
		out = append(out, spec.Scene.Dice[next:next+n])
		next += n
	}
	return out
}

// typedAnnouncements submits lines to a fresh session and returns its
// announcements, a line each.
func typedAnnouncements(t *testing.T, c *models.Content, lines []string) string {
	t.Helper()
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "typed.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, err := tracker.NewCatalog("en")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tracker.OpenSession(context.Background(), st, c, cat, "", "typed")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range lines {
		ev, ok, err := tracker.ParseLine(c, l)
		if err != nil || !ok {
			t.Fatalf("%q: %v", l, err)
		}
		as, err := s.Submit(context.Background(), ev)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		for _, a := range as {
			b.WriteString(a.Text + "\n")
		}
	}
	return b.String()
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/synth"
)

// teachAltSet teaches set (a name the content pack does not have) from five
// rendered pictures per face of the alternative V.A.T.S. art, whose faces
// have the V.A.T.S. face ids, and returns learn's output.
func teachAltSet(t *testing.T, c *models.Content, data, set string, seed int64) string {
	t.Helper()
	teach := t.TempDir()
	fs, _ := c.FaceSet("vats")
	for _, f := range fs.Faces {
		for k := range 5 {
			seed++
			m, _, err := synth.Render(c, synth.Scene{Seed: seed, Style: synth.StyleAlt(), Dice: []synth.DieSpec{{Set: "vats", Face: f.ID}}})
			if err != nil {
				t.Fatal(err)
			}
			writePNG(t, filepath.Join(teach, f.ID, fmt.Sprintf("%d.png", k)), m)
		}
	}
	out, errs, err := runIn(t, data, "learn", "dice", "--set", set, teach)
	if err != nil {
		t.Fatalf("learn dice: %v\n%s%s", err, out, errs)
	}
	return out
}

// writeRollVideo records a rendered throw of V.A.T.S. dice in a die art
// and returns the video's path.
func writeRollVideo(t *testing.T, c *models.Content, style synth.Style, seed int64, faces ...string) string {
	t.Helper()
	var dice []synth.DieSpec
	for _, f := range faces {
		dice = append(dice, synth.DieSpec{Set: "vats", Face: f})
	}
	spec := synth.SequenceSpec{
		Scene:  synth.Scene{Seed: seed, Width: 960, Height: 540, Style: style, Dice: dice},
		Script: []synth.Step{{Kind: synth.StepWait, Frames: 8}, {Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20}},
	}
	seq, err := synth.NewSequence(c, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	path := filepath.Join(t.TempDir(), "roll.avi")
	vw, err := gocv.VideoWriterFile(path, "MJPG", 30, 960, 540, true)
	if err != nil {
		t.Fatal(err)
	}
	defer vw.Close()
	for {
		f, err := seq.Read(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		werr := vw.Write(f.Mat)
		f.Close()
		if werr != nil {
			t.Fatal(werr)
		}
	}
	return path
}

// A dice set taught under a name of its own is playable end to end: the
// camera reads it in `play`, the tracker accepts the roll and announces the
// taught faces; with a face table for the set in content_dir the roll is
// scored by that table.
func TestTaughtSetPlaysEndToEnd(t *testing.T) {
	c, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	data := dataDir(t)
	out := teachAltSet(t, c, data, "ourdie", synth.TrainSeedMin+556000)
	if !strings.Contains(out, `taught new set "ourdie"`) || !strings.Contains(out, "--vision-dice-sets ourdie") {
		t.Errorf("learn should say the set is new and how to play with it:\n%s", out)
	}
	video := writeRollVideo(t, c, synth.StyleAlt(), synth.EvalSeedMin+5160, "head", "2h", "arms")
	out, errs, err := runIn(t, data, "play", "--video", video, "--no-prompt", "--voice", "off", "--vision-dice-sets", "ourdie")
	if err != nil {
		t.Fatalf("play: %v\n%s", err, errs)
	}
	if strings.Contains(out+errs, "unknown dice set") || !strings.Contains(errs, "1 roll,") {
		t.Fatalf("the roll of the taught set was not taken:\n%s\n%s", out, errs)
	}
	// The taught faces are announced by their ids; with no face table the
	// roll has no hits to speak of.
	if !strings.Contains(out, "Rolled ") || !strings.Contains(out, "head") || !strings.Contains(out, "2h") || strings.Contains(out, "hits") {
		t.Errorf("want the taught faces announced without hits:\n%s", out)
	}

	// The group gives the set a face table: the same faces, with hits.
	vats, _ := c.FaceSet("vats")
	var b strings.Builder
	b.WriteString("face_sets:\n  - id: ourdie\n    name: our die\n    kind: symbol\n    faces:\n")
	for _, f := range vats.Faces {
		fmt.Fprintf(&b, "      - {id: %q, hits: %d, label: %q}\n", f.ID, f.Hits, "our "+f.ID)
	}
	content := t.TempDir()
	if err := os.WriteFile(filepath.Join(content, "ourdie.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, err = runIn(t, data, "play", "--video", video, "--no-prompt", "--voice", "off", "--vision-dice-sets", "ourdie", "--content-dir", content)
	if err != nil {
		t.Fatalf("play with a face table: %v\n%s", err, errs)
	}
	if !strings.Contains(out, "our head") || !strings.Contains(out, "3 hits") {
		t.Errorf("head + 2h + arms by the group's table is 3 hits, announced by its labels:\n%s\n%s", out, errs)
	}

	// A face table that lacks a taught face is refused, naming the face.
	if err := os.WriteFile(filepath.Join(content, "ourdie.yaml"), []byte("face_sets:\n  - {id: ourdie, name: our die, kind: symbol, faces: [{id: a}, {id: b}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runIn(t, data, "state", "--content-dir", content)
	if err == nil || !strings.Contains(err.Error(), `"ourdie"`) || !strings.Contains(err.Error(), `taught face "1h"`) {
		t.Errorf("want the missing taught face named, got %v", err)
	}
}

// The announcement of a scenario's activation effect says what the
// effect is when the group wrote its text in a content override (in the
// announcement's language where they wrote one), and which effect of the
// sheet to resolve when they did not.
func TestActivationEffectTextFromOverride(t *testing.T) {
	events := filepath.Join(t.TempDir(), "effect.events")
	if err := os.WriteFile(events, []byte("setup commonwealth loyal railroad survivors alice\ncard activation-7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, err := run(t, "", "replay", "--events", events)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if want := "0 Institute enemies on the map: resolve the scenario sheet's activation effect for 0 to 1 enemies (effect row 1)."; !strings.Contains(out, want) {
		t.Errorf("without a text, want %q in:\n%s", want, out)
	}
	content := t.TempDir()
	override := `scenarios:
  - id: commonwealth
    name: The Commonwealth
    power_track: 7
    goals_required: 3
    factions:
      - faction: railroad
        icon: a
        plus: {xp: 1, label: loyal bonus}
        activation:
          - {min: 0, max: -1, label: effect row 1, text: Every survivor gains 1 rad}
      - faction: institute
        icon: b
        plus: {xp: 1, label: loyal bonus}
        activation:
          - {min: 0, max: 1, label: effect row 1, text: Each survivor in a settlement loses 1 HP., names: {de_text: Jeder Überlebende in einer Siedlung verliert 1 TP}}
          - {min: 2, max: -1, label: effect row 2, text: Place an Institute token}
`
	if err := os.WriteFile(filepath.Join(content, "ours.yaml"), []byte(override), 0o644); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{
		"en": "0 Institute enemies on the map. Activation effect: Each survivor in a settlement loses 1 HP.",
		"de": "0 Gegner (Institut) auf dem Spielplan. Aktivierungswirkung: Jeder Überlebende in einer Siedlung verliert 1 TP.",
	} {
		out, errs, err := runHere(t, "", "replay", "--events", events, "--content-dir", content, "--language", lang)
		if err != nil {
			t.Fatalf("%s: %v\n%s", lang, err, errs)
		}
		if !strings.Contains(out, want) {
			t.Errorf("%s: want %q in:\n%s", lang, want, out)
		}
	}
}

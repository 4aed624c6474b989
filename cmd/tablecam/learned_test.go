package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/synth"
)

// `learn dice --reader learned` teaches a set to the learned reader from a
// folder per face and stores it; `dice --reader learned --set` reads it,
// each die named by a taught face of the set; a set never taught to it is
// an error that says how to teach it.
func TestLearnedReaderTeachAndRead(t *testing.T) {
	c, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	data := dataDir(t)
	teachDir := t.TempDir()
	fs, _ := c.FaceSet("d20")
	faces := fs.Faces[:4]
	for i, f := range faces {
		for k := range 3 {
			frame, _, err := synth.Render(c, synth.Scene{Seed: synth.EvalSeedMin + 321_000 + int64(10*i+k), Dice: []synth.DieSpec{{Set: "d20", Face: f.ID}}})
			if err != nil {
				t.Fatal(err)
			}
			writePNG(t, filepath.Join(teachDir, f.ID, fmt.Sprintf("%d.png", k)), frame)
		}
	}
	out, stderr, err := runIn(t, data, "learn", "dice", "--reader", "learned", "--set", "d20", teachDir)
	if err != nil {
		t.Fatalf("learn: %v\n%s%s", err, out, stderr)
	}
	if !strings.Contains(out, `taught "d20" to the learned reader (4 faces, 12 pictures)`) || !strings.Contains(out, "of 12 right") {
		t.Errorf("learn said:\n%s", out)
	}
	if _, err := os.Stat(learnedPath(data, "d20")); err != nil {
		t.Fatalf("the taught set is not stored: %v", err)
	}
	pic := filepath.Join(t.TempDir(), "roll.png")
	frame, _, err := synth.Render(c, synth.Scene{Seed: synth.EvalSeedMin + 321_500, Dice: []synth.DieSpec{{Set: "d20", Face: faces[1].ID}, {Set: "d20", Face: faces[2].ID}}})
	if err != nil {
		t.Fatal(err)
	}
	if !gocv.IMWrite(pic, frame) {
		t.Fatal("write")
	}
	frame.Close()
	out, stderr, err = runIn(t, data, "dice", "--reader", "learned", "--set", "d20", "--json", pic)
	if err != nil {
		t.Fatalf("dice: %v\n%s", err, stderr)
	}
	var res diceResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	taught := map[string]bool{}
	for _, f := range faces {
		taught[f.ID] = true
	}
	if len(res.Dice) == 0 {
		t.Fatalf("no dice read in %s", out)
	}
	for _, d := range res.Dice {
		if d.Set != "d20" || !taught[d.Face] {
			t.Errorf("die %+v is not a taught face of d20", d)
		}
	}
	_, _, err = runIn(t, data, "dice", "--reader", "learned", "--set", "vats", pic)
	if err == nil || !strings.Contains(err.Error(), "tablecam learn dice --reader learned --set vats") {
		t.Errorf("an untaught set: %v", err)
	}
	if _, _, err := runIn(t, data, "learn", "dice", "--reader", "learned", "--set", "vats", teachDir); err == nil || !strings.Contains(err.Error(), "no such face") {
		t.Errorf("d20 faces taught as vats: %v", err)
	}
}

// `play --vision-dice-reader learned` reads a roll of real d6 through the
// camera pipeline: a committed webcam photo of three dice showing 4 (the
// regression subset of vision/dice), after frames of a covered camera so
// that the dice arrive. The learned reader names the dice (its extra marks
// on the dice's sides are asked, not announced as sure); a set the learned
// reader was never taught is an error that says how to teach it.
func TestPlayLearnedReaderReadsARealRoll(t *testing.T) {
	photo := gocv.IMRead(filepath.Join("..", "..", "vision", "dice", "testdata", "real", "webcam-four_30.jpg"), gocv.IMReadColor)
	if photo.Empty() {
		t.Fatal("the regression photo webcam-four_30.jpg is missing")
	}
	defer photo.Close()
	covered := gocv.NewMatWithSize(photo.Rows(), photo.Cols(), photo.Type())
	defer covered.Close()
	frames := t.TempDir()
	for i := range 15 {
		img := photo
		if i < 3 {
			img = covered
		}
		if !gocv.IMWrite(filepath.Join(frames, fmt.Sprintf("%03d.png", i)), img) {
			t.Fatal("write a frame")
		}
	}
	data := dataDir(t)
	out, errs, err := runIn(t, data, "play", "--images", frames, "--no-prompt", "--voice", "off", "--json",
		"--vision-dice-reader", "learned", "--vision-dice-sets", "d6")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if !strings.Contains(errs, "1 roll,") {
		t.Errorf("want 1 roll read:\n%s", errs)
	}
	var faces, unsure []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var a struct {
			Kind string `json:"kind"`
			Data struct {
				Faces []string `json:"faces"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		switch a.Kind {
		case "roll.faces":
			faces = a.Data.Faces
		case "roll.uncertain":
			unsure = a.Data.Faces
		}
	}
	sure := slices.Clone(faces)
	for _, f := range unsure {
		if i := slices.Index(sure, f); i >= 0 {
			sure = slices.Delete(sure, i, i+1)
		}
	}
	if slices.Sort(sure); !slices.Equal(sure, []string{"4", "4", "4"}) {
		t.Errorf("rolled %v (unsure %v): want the three 4s read surely and nothing else sure", faces, unsure)
	}
	_, _, err = runIn(t, data, "play", "--images", frames, "--no-prompt", "--voice", "off",
		"--vision-dice-reader", "learned", "--vision-dice-sets", "vats")
	if err == nil || !strings.Contains(err.Error(), "tablecam learn dice --reader learned --set vats") {
		t.Errorf("play with a set not taught to the learned reader: %v", err)
	}
}

// vision.dice_reader picks the reader of `tablecam dice` when --reader is
// not given: learned reads the webcam photo's three 4s as d6 with no
// teaching, which the tuned reader's V.A.T.S. sets never name.
func TestDiceReaderFollowsTheConfig(t *testing.T) {
	photo := filepath.Join("..", "..", "vision", "dice", "testdata", "real", "webcam-four_30.jpg")
	out, errs, err := runIn(t, dataDir(t), "dice", "--vision-dice-reader", "learned", "--json", photo)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	var res diceResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var sure []string
	for _, d := range res.Dice {
		if d.Set != "d6" {
			t.Errorf("die %+v: want d6", d)
		}
		if !d.Uncertain {
			sure = append(sure, d.Face)
		}
	}
	if !slices.Equal(sure, []string{"4", "4", "4"}) {
		t.Errorf("sure faces %v, want the three 4s:\n%s", sure, out)
	}
	if _, _, err := runIn(t, dataDir(t), "dice", "--vision-dice-reader", "neural", photo); err == nil || !strings.Contains(err.Error(), "vision.dice_reader") {
		t.Errorf("a bad reader in the config: %v", err)
	}
}

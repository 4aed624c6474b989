package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

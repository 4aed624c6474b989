package dice

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/models"
	"tablecam/vision/synth"
)

// TeachFolder teaches a set from a folder per face, of camera frames or of
// crops, checks it by leaving each picture out, and names what it skips
// and why a folder cannot be taught.
func TestTeachFolder(t *testing.T) {
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	fs, _ := c.FaceSet("d20")
	values := map[string]int{}
	for i, f := range fs.Faces[:3] {
		values[f.ID] = f.Value
		if err := os.MkdirAll(filepath.Join(dir, f.ID), 0o755); err != nil {
			t.Fatal(err)
		}
		for k := range 3 {
			frame, truth, err := synth.Render(c, synth.Scene{Seed: synth.EvalSeedMin + 123_000 + int64(10*i+k), Dice: []synth.DieSpec{{Set: "d20", Face: f.ID}}})
			if err != nil {
				t.Fatal(err)
			}
			pic := frame
			if k == 2 {
				// A crop around the die, as a group may give.
				pic = frame.Region(truth.Dice[0].Box.Inset(-8))
			}
			if !gocv.IMWrite(filepath.Join(dir, f.ID, fmt.Sprintf("%d.png", k)), pic) {
				t.Fatal("write")
			}
			if k == 2 {
				pic.Close()
			}
			frame.Close()
		}
	}
	if err := os.WriteFile(filepath.Join(dir, fs.Faces[0].ID, "notes.png"), []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
	var said []string
	taught, check, err := TeachFolder(r, "d20", dir, values, frame.ReadImage, func(s string) { said = append(said, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(taught.Faces) != 3 || taught.Model != r.FacesModel() || check.Pictures != 9 {
		t.Fatalf("taught %d faces with model %q, checked %d pictures; want 3 faces, the reader's model, 9 pictures", len(taught.Faces), taught.Model, check.Pictures)
	}
	for _, f := range taught.Faces {
		if f.Views != 3 || f.Value != values[f.Face] {
			t.Errorf("face %s: %d views, value %d; want 3 and %d", f.Face, f.Views, f.Value, values[f.Face])
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "notes.png: skipped") {
		t.Errorf("said %q, want notes.png skipped", said)
	}
	t.Logf("read back: %d of %d right, %d sure; misread %v", check.Right, check.Pictures, check.Sure, check.Misread)

	empty := t.TempDir()
	if _, _, err := TeachFolder(r, "x", empty, nil, frame.ReadImage, nil); err == nil || !strings.Contains(err.Error(), "no face folders") {
		t.Errorf("an empty folder: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(empty, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := TeachFolder(r, "x", empty, nil, frame.ReadImage, nil); err == nil || !strings.Contains(err.Error(), "no readable picture") {
		t.Errorf("a face folder without pictures: %v", err)
	}
}

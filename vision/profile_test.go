package vision_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/frame"
	"tablecam/vision"
)

func TestDiceProfileSaveLoad(t *testing.T) {
	_, profs := diceDefaultProfiles(t, "vats", "d6")
	dir := t.TempDir()
	for _, p := range profs {
		if err := p.Save(vision.ProfileDir(dir, p.Set.ID)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := vision.LoadDiceProfiles(filepath.Join(dir, "profiles", "dice"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Set.ID != "d6" || got[1].Set.ID != "vats" {
		t.Fatalf("loaded %d profiles", len(got))
	}
	for _, g := range got {
		var want *vision.DiceProfile
		for _, p := range profs {
			if p.Set.ID == g.Set.ID {
				want = p
			}
		}
		if g.Version != vision.DiceProfileVersion || g.Threshold != want.Threshold || len(g.Examples) != len(want.Examples) || len(g.Body) != len(want.Body) {
			t.Errorf("%s: loaded %d examples, threshold %v; saved %d, %v", g.Set.ID, len(g.Examples), g.Threshold, len(want.Examples), want.Threshold)
			continue
		}
		for i := range g.Examples {
			if g.Examples[i].Face != want.Examples[i].Face || string(g.Examples[i].Crop) != string(want.Examples[i].Crop) {
				t.Errorf("%s: example %d differs after loading", g.Set.ID, i)
				break
			}
		}
	}
	// A loaded profile reads like the original.
	c, _ := diceDefaultProfiles(t)
	if _, err := vision.NewDiceDetector(c, got, vision.DiceConfig{}); err != nil {
		t.Fatal(err)
	}
	// A missing directory holds no profiles.
	if ps, err := vision.LoadDiceProfiles(filepath.Join(dir, "nothing")); err != nil || len(ps) != 0 {
		t.Errorf("missing dir: %d profiles, %v", len(ps), err)
	}
}

func TestDiceProfileLoadErrors(t *testing.T) {
	_, profs := diceDefaultProfiles(t, "assist")
	dir := filepath.Join(t.TempDir(), "assist")
	if err := profs[0].Save(dir); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "profile.json")
	orig, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal(orig, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		if err := os.WriteFile(manifest, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, want string
		f          func(m map[string]any)
	}{
		{"newer version", "version 99", func(m map[string]any) { m["version"] = 99 }},
		{"unknown face", "unknown face", func(m map[string]any) {
			m["examples"].([]any)[0].(map[string]any)["face"] = "nope"
		}},
		{"path in file name", "bad file name", func(m map[string]any) {
			m["examples"].([]any)[0].(map[string]any)["file"] = "../x.png"
		}},
		{"face without examples", "no example of face", func(m map[string]any) {
			var keep []any
			for _, e := range m["examples"].([]any) {
				if e.(map[string]any)["face"] != "blank" {
					keep = append(keep, e)
				}
			}
			m["examples"] = keep
		}},
	} {
		edit(tc.f)
		_, err := vision.LoadDiceProfile(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// A missing picture costs its example only.
	edit(func(m map[string]any) { m["examples"].([]any)[0].(map[string]any)["file"] = "gone.png" })
	if p, err := vision.LoadDiceProfile(dir); err != nil || len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Error(), "gone.png") {
		t.Errorf("missing png: %v (skipped %v)", err, p)
	}
	if err := os.WriteFile(manifest, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := vision.LoadDiceProfile(dir); err == nil {
		t.Error("corrupt JSON: want an error")
	}
}

// TestDiceProfileOversizedCrop: a crop file of a saved profile whose PNG
// header declares 32000×32000 pixels (800 bytes) is an error naming the
// file and the limit, found from the header before anything is decoded
// (decoding it took the memory of 4 GB of pixels and killed every dice
// run that loaded the profile).
func TestDiceProfileOversizedCrop(t *testing.T) {
	_, profs := diceDefaultProfiles(t, "assist")
	dir := filepath.Join(t.TempDir(), "assist")
	if err := profs[0].Save(dir); err != nil {
		t.Fatal(err)
	}
	var man struct {
		Examples []struct {
			File string `json:"file"`
		} `json:"examples"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "profile.json"))
	if err != nil || json.Unmarshal(data, &man) != nil || len(man.Examples) == 0 {
		t.Fatalf("profile.json: %v", err)
	}
	crop := filepath.Join(dir, man.Examples[0].File)
	if err := os.WriteFile(crop, vision.HugePNGForTest(t, 32000, 32000), 0o644); err != nil {
		t.Fatal(err)
	}
	// The oversized crop costs its example only.
	p, err := vision.LoadDiceProfile(dir)
	if err != nil {
		t.Fatalf("one oversized crop: %v", err)
	}
	if len(p.Examples) != len(man.Examples)-1 || len(p.Skipped) != 1 {
		t.Fatalf("%d of %d examples kept, %d skipped; want all but one", len(p.Examples), len(man.Examples), len(p.Skipped))
	}
	if err := p.Skipped[0]; !errors.Is(err, frame.ErrImageTooLarge) || !strings.Contains(err.Error(), crop) || !strings.Contains(err.Error(), "16384") {
		t.Errorf("oversized crop: %v", err)
	}
	// A face left with no readable example is an error that names the
	// unreadable pictures.
	var face string
	data, _ = os.ReadFile(filepath.Join(dir, "profile.json"))
	var full struct {
		Examples []struct {
			File string `json:"file"`
			Face string `json:"face"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(data, &full); err != nil {
		t.Fatal(err)
	}
	face = full.Examples[0].Face
	for _, e := range full.Examples {
		if e.Face == face {
			if err := os.WriteFile(filepath.Join(dir, e.File), []byte("not a picture"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err = vision.LoadDiceProfile(dir)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("no example of face %q", face)) || !strings.Contains(err.Error(), "could not be read") {
		t.Errorf("a face with no readable example: %v", err)
	}
}

package dashboard

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// The labels of the latest frame are served for the page to draw; a frame
// stored without labels has none, and a server without a camera none at all.
func TestCameraLabels(t *testing.T) {
	c := testContent(t)
	feed := &FrameBuffer{}
	srv := newServer(t, Options{Session: newSession(t, c), Content: c, Frames: feed})
	h := srv.Handler()
	if !srv.snapshot(false).Camera.Labels {
		t.Error("a FrameBuffer feed does not announce labels in the snapshot")
	}
	get := func() FrameLabels {
		t.Helper()
		w := do(t, h, "GET", "/api/labels", "", nil)
		if w.Code != http.StatusOK {
			t.Fatalf("GET /api/labels: %d %s", w.Code, w.Body)
		}
		var l FrameLabels
		must(t, json.Unmarshal(w.Body.Bytes(), &l))
		return l
	}
	if l := get(); l.Labels == nil || len(l.Labels) != 0 || l.Seq != 0 {
		t.Errorf("labels before any frame: %+v", l)
	}
	want := []FrameLabel{{X: 10, Y: 20, W: 30, H: 30, Text: "arms", Kind: "die"}, {Text: "hand in view", Kind: "note"}}
	feed.PutLabeled([]byte("\xff\xd8one"), 640, 360, want)
	if l := get(); l.Seq != 1 || l.Width != 640 || l.Height != 360 || !slices.Equal(l.Labels, want) {
		t.Errorf("labels of frame 1: %+v", l)
	}
	feed.Put([]byte("\xff\xd8two"))
	if l := get(); len(l.Labels) != 0 {
		t.Errorf("a frame put without labels still shows %+v", l.Labels)
	}

	plain := newServer(t, Options{Session: newSession(t, c), Content: c})
	if w := do(t, plain.Handler(), "GET", "/api/labels", "", nil); w.Code != http.StatusNotFound {
		t.Errorf("labels without a camera: %d", w.Code)
	}
	if plain.snapshot(false).Camera.Labels {
		t.Error("a server without a camera announces labels")
	}
}

// Before the setup the snapshot lists the scenarios with their two
// factions for the setup form; once the game is set up it does not.
func TestSetupChoices(t *testing.T) {
	c := testContent(t)
	s := newSession(t, c)
	srv := newServer(t, Options{Session: s, Content: c})
	su := srv.snapshot(false).Setup
	if su == nil || len(su.Scenarios) != len(c.Scenarios) || su.MaxHP != c.Rules.SurvivorMaxHP {
		t.Fatalf("setup choices: %+v", su)
	}
	var cw *ScenarioOption
	for i := range su.Scenarios {
		if su.Scenarios[i].ID == "capital-wasteland" {
			cw = &su.Scenarios[i]
		}
	}
	if cw == nil || cw.Name != "The Capital Wasteland" || len(cw.Factions) != 2 ||
		cw.Factions[0] != (Named{ID: "brotherhood", Name: "Brotherhood of Steel"}) || cw.Factions[1].ID != "enclave" {
		t.Errorf("capital-wasteland choices: %+v", cw)
	}
	submitScript(t, c, s, "setup capital-wasteland loyal brotherhood survivors carla\n")
	if su := srv.snapshot(false).Setup; su != nil {
		t.Errorf("setup choices after the setup: %+v", su)
	}
}

package live_test

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/engine"
	"tablecam/frame"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/rolls"
	"tablecam/vision/synth"
)

// indexed remembers the index of the last frame read, so a truth reader
// can look up what the renderer drew.
type indexed struct {
	*synth.Sequence
	last int
}

func (s *indexed) Read(ctx context.Context) (frame.Frame, error) {
	f, err := s.Sequence.Read(ctx)
	s.last = f.Index
	return f, err
}

// truthReader reads the renderer's truth instead of the pixels: it tests
// the plumbing (settle, rolls, tracker, announcements), not the recognizer.
func truthReader(seq *indexed) vision.DiceReader {
	return func(gocv.Mat) (vision.Reading, error) {
		tr := seq.Truth(seq.last)
		r := vision.Reading{Occluded: !tr.Hand.Empty()}
		for _, d := range tr.Dice {
			if d.Held || d.Moving || d.Visible < 0.6 {
				continue
			}
			r.Dice = append(r.Dice, vision.Die{Set: d.Set, Face: d.Face, Box: d.Box, Center: d.Center, Confidence: 1})
		}
		return r, nil
	}
}

type recorder struct {
	mu  sync.Mutex
	got []models.Announcement
}

func (r *recorder) Announce(_ context.Context, a models.Announcement) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, a)
	return nil
}
func (r *recorder) Close() error { return nil }

func TestLiveRollRerollAndHandPass(t *testing.T) {
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, _ := tracker.NewCatalog("en")
	sess, err := tracker.OpenSession(context.Background(), st, c, cat, "", "live")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"setup commonwealth loyal railroad survivors alice:10:S bob", "test alice 1 S"} {
		ev, _, err := tracker.ParseLine(c, line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sess.Submit(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	spec := synth.SequenceSpec{
		Scene: synth.Scene{Seed: synth.EvalSeedMin + 7, Width: 640, Height: 360, Background: "wood",
			Dice: []synth.DieSpec{{Set: "vats", Face: "torso"}, {Set: "vats", Face: "arms"}, {Set: "vats", Face: "legs"}}},
		Script: []synth.Step{{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 15},
			{Kind: synth.StepReroll, Die: 0, Face: "2h"}, {Kind: synth.StepWait, Frames: 15},
			{Kind: synth.StepHandPass}, {Kind: synth.StepWait, Frames: 15}},
	}
	seq, err := synth.NewSequence(c, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	src := &indexed{Sequence: seq}
	rec := &recorder{}
	frames := t.TempDir()
	var previews int
	stats, err := live.Run(context.Background(), live.Options{
		Source: src, Dice: truthReader(src), Session: sess, Announce: rec, FramesDir: frames,
		Preview: func(live.PreviewFrame) { previews++ }, PreviewFPS: 1000,
		Roll: rolls.Config{SettleFrames: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rolls != 2 || stats.Rejected != 0 {
		t.Fatalf("rolls %d rejected %d, want the throw and one reroll, none rejected (hand pass must not roll)", stats.Rolls, stats.Rejected)
	}
	results := 0
	for _, a := range rec.got {
		if a.Kind == engine.KindTestResult {
			results++
			if a.Data["hits"] != 3 || a.Data["passed"] != true {
				t.Errorf("result %+v: torso(0) arms(0) legs(1) with torso rerolled to 2h = 3 hits", a.Data)
			}
		}
	}
	if results != 1 {
		t.Errorf("%d test results announced, want 1: %+v", results, rec.got)
	}
	g := sess.Game()
	if len(g.Rolls) != 2 || g.Rolls[1].Source != "camera" || g.Rolls[1].Frame == "" {
		t.Fatalf("rolls %+v", g.Rolls)
	}
	if _, err := os.Stat(filepath.Join(frames, g.Rolls[1].Frame)); err != nil {
		t.Errorf("roll proof frame: %v", err)
	}
	if previews == 0 {
		t.Error("no preview frames")
	}
}

func TestRollEventsSplitsSetsAndMarksUncertain(t *testing.T) {
	re := rolls.Roll{Dice: []vision.Die{
		{Set: "vats", Face: "head"}, {Set: "assist", Face: "hit", Uncertain: true},
		{Set: "vats", Face: "arms", Uncertain: true}, {Set: "d6", Face: "4", Box: image.Rect(0, 0, 1, 1)},
	}}
	evs := live.RollEvents(re, "f.jpg")
	if len(evs) != 2 {
		t.Fatalf("events %+v", evs)
	}
	v := evs[0]
	if v.Set != "" || len(v.Faces) != 2 || v.Assist != "hit" || len(v.Uncertain) != 2 || v.Uncertain[0] != 0 || v.Uncertain[1] != 2 {
		t.Errorf("vats event %+v", v)
	}
	if evs[1].Set != "d6" || evs[1].Faces[0] != "4" || evs[1].Frame != "f.jpg" {
		t.Errorf("d6 event %+v", evs[1])
	}
}

// A reroll passes on only the sets whose dice it changed: a skill die left
// lying beside a luck token thrown after it is not announced again.
func TestRollEventsRerollPassesChangedSets(t *testing.T) {
	re := rolls.Roll{Reroll: true, Changed: []int{1}, Dice: []vision.Die{
		{Set: "skill", Face: "7"}, {Set: "luck", Face: "luck"},
	}}
	evs := live.RollEvents(re, "f.jpg")
	if len(evs) != 1 || evs[0].Set != "luck" || len(evs[0].Faces) != 1 || evs[0].Faces[0] != "luck" {
		t.Errorf("events %+v, want the luck token's alone", evs)
	}
	// A rerolled assist die is a reroll of the V.A.T.S. roll.
	re = rolls.Roll{Reroll: true, Changed: []int{1}, Dice: []vision.Die{
		{Set: "vats", Face: "head"}, {Set: "assist", Face: "hit"}, {Set: "d10", Face: "3"},
	}}
	evs = live.RollEvents(re, "f.jpg")
	if len(evs) != 1 || evs[0].Set != "" || evs[0].Assist != "hit" || len(evs[0].Faces) != 1 {
		t.Errorf("events %+v, want the V.A.T.S. roll with the assist die", evs)
	}
}

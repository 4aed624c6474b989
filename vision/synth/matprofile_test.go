//go:build matprofile

package synth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"gocv.io/x/gocv"
)

// Run with: go test -tags matprofile ./vision/synth/
// Every Mat the renderer creates is closed by it or handed to the caller,
// who closes it here; afterwards no Mat may be left alive.

func checkNoLeak(t *testing.T, start int) {
	t.Helper()
	if n := gocv.MatProfile.Count(); n != start {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		t.Fatalf("%d Mats leaked:\n%s", n-start, b.String())
	}
}

func TestNoMatLeakScenes(t *testing.T) {
	// The game pieces too: the random mix's "anything of the content pack"
	// draws them from this content.
	c := WithGamePieces(withCustomSet(t))
	start := gocv.MatProfile.Count()
	rendered := 0
	for seed := int64(0); rendered < 100; seed++ {
		s := RandomScene(c, seed)
		switch seed % 5 {
		case 0:
			s.Hand = Hand{Present: true, Cover: len(s.Dice) > 0}
		case 1:
			s.Tilt, s.JPEGQuality, s.Noise = 20, 70, 4
		case 2:
			s.Lighting = Lighting{Level: 1.5, Temperature: 0.6, Gradient: 0.8, Glare: 0.8, GlareOnDie: true}
			s.MotionBlur = MotionBlur{Length: 6, Angle: 20}
		}
		m, _, err := Render(c, s)
		if errors.Is(err, ErrNoRoom) {
			m.Close()
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
		rendered++
		if seed%10 == 0 {
			e, err := RenderEmpty(s)
			if err != nil {
				t.Fatal(err)
			}
			e.Close()
		}
	}
	// Faces of every set in every style.
	for _, st := range Styles() {
		for _, fs := range c.FaceSets {
			for _, f := range fs.Faces {
				m, err := RenderFace(c, fs.ID, f.ID, st, 48)
				if err != nil {
					t.Fatal(err)
				}
				m.Close()
			}
		}
	}
	// Error paths.
	for _, bad := range []Scene{{Tilt: 90}, {Dice: []DieSpec{{Set: "nope"}}}, {Width: 200, Height: 200, DieSize: [2]int{60, 66},
		Dice: []DieSpec{{Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}}}} {
		m, _, err := Render(c, bad)
		if err == nil {
			t.Fatalf("%+v rendered", bad)
		}
		m.Close()
	}
	m, err := RenderFace(c, "vats", "nope", StyleDefault(), 64)
	if err == nil {
		t.Fatal("unknown face rendered")
	}
	m.Close()
	checkNoLeak(t, start)
}

func TestNoMatLeakSequence(t *testing.T) {
	c := content(t)
	start := gocv.MatProfile.Count()
	spec := SequenceSpec{
		Scene: Scene{Seed: 4, Width: 640, Height: 360, Noise: 3, JPEGQuality: 85, Tilt: 10,
			Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "assist"}, {Set: "d6"}}},
		Script: []Step{{Kind: StepThrow}, {Kind: StepWait, Frames: 3}, {Kind: StepReroll, Die: 0}, {Kind: StepHandPass},
			{Kind: StepPickUp, Die: 1}, {Kind: StepWait, Frames: 2}},
	}
	seq, err := NewSequence(c, spec)
	if err != nil {
		t.Fatal(err)
	}
	if seq.Len() < 60 {
		t.Fatalf("only %d frames", seq.Len())
	}
	ctx := context.Background()
	for i := range 60 {
		f, err := seq.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		seq.Truth(i)
	}
	// Random access, the rest of the stream, reads after the end.
	m, _, err := seq.Frame(seq.Len() - 1)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	for {
		f, err := seq.Read(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	seq.Read(ctx)
	seq.Close()
	seq.Close()
	seq.Read(ctx)
	m, _, _ = seq.Frame(0)
	m.Close()
	// A script that cannot be played.
	spec.Script = []Step{{Kind: StepReroll, Die: 0}}
	if _, err := NewSequence(c, spec); err == nil {
		t.Fatal("bad script accepted")
	}
	checkNoLeak(t, start)
}

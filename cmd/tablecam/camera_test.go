package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/synth"
)

// With no camera, play says which device it tried and suggests the demo.
func TestPlayWithoutCameraSuggestsDemo(t *testing.T) {
	_, _, err := run(t, "", "play", "--camera-device", "/dev/video97", "--voice", "off")
	if err == nil {
		t.Fatal("play without a camera succeeded")
	}
	for _, want := range []string{"/dev/video97", "tablecam play --demo"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// `tablecam play --video FILE` reads a recorded roll through the camera
// pipeline (real detector, built-in profiles) and announces it, even
// before a game is set up.
func TestPlayVideoAnnouncesTheRoll(t *testing.T) {
	c, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	spec := synth.SequenceSpec{
		Scene: synth.Scene{Seed: synth.EvalSeedMin + 5150, Width: 960, Height: 540,
			Dice: []synth.DieSpec{{Set: "vats", Face: "head"}, {Set: "vats", Face: "2h"}, {Set: "vats", Face: "arms"}}},
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
	for {
		f, err := seq.Read(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := vw.Write(f.Mat); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	vw.Close()
	out, errs, err := run(t, "", "play", "--video", path, "--no-prompt", "--voice", "off", "--vision-dice-sets", "vats")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if !strings.Contains(errs, "1 roll,") {
		t.Errorf("want 1 roll read:\n%s", errs)
	}
	if !strings.Contains(out, "3 hits") {
		t.Errorf("head + 2h + arms is 3 hits; announced:\n%s", out)
	}
}

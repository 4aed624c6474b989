package main

import (
	"strings"
	"testing"

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
	path := writeRollVideo(t, c, synth.StyleDefault(), synth.EvalSeedMin+5150, "head", "2h", "arms")
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

// The camera looks for the dice of the session's game: d10s in This War of
// Mine and Fallout: Warfare (with a taught set of the config kept, the
// V.A.T.S. and assist dice dropped), the config's sets in Fallout and in a
// game whose die has no face set.
func TestPlaySetsFollowTheGame(t *testing.T) {
	c, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	conf := []string{"vats", "assist", "mydie"}
	for game, want := range map[string]string{
		"":          "vats,assist,mydie",
		"fallout":   "vats,assist,mydie",
		"twom":      "d10,mydie",
		"warfare":   "d10,mydie",
		"wasteland": "vats,assist,mydie",
	} {
		if got := strings.Join(playSets(c, conf, game), ","); got != want {
			t.Errorf("%q: %s, want %s", game, got, want)
		}
	}
}

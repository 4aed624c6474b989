package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/vision/card"
	"tablecam/vision/synth"
)

// stderrOf runs f with the process's standard error (where the app's log
// goes) captured.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stderr = old }()
	f()
	w.Close()
	os.Stderr = old
	return <-done
}

// A damaged entry of the taught cards' descriptors.bin costs that card's
// entry only: `tablecam card` reads the other cards and logs a warning
// naming the card that lost it (one such entry made every taught card
// unusable).
func TestCardCommandDamagedIndexKeepsOthers(t *testing.T) {
	dir := t.TempDir()
	data := dataDir(t)
	teach := filepath.Join(dir, "teach")
	arts := map[string]int64{"goal-1": 70001, "goal-2": 70002, "goal-3": 70003}
	for card, art := range arts {
		for k := range 2 {
			m, _, err := synth.RenderCardScene(synth.CardScene{Seed: synth.TrainSeedMin + 99100 + art*10 + int64(k),
				Cards: []synth.CardSpec{{Art: art, Width: 260, Center: image.Pt(640, 360)}}})
			if err != nil {
				t.Fatal(err)
			}
			writePNG(t, filepath.Join(teach, card, fmt.Sprintf("%d.png", k)), m)
		}
	}
	if out, errs, err := runIn(t, data, "learn", "cards", teach); err != nil {
		t.Fatalf("learn cards: %v\n%s%s", err, out, errs)
	}
	// Damage goal-1's first entry: a byte of its record flipped.
	bin := filepath.Join(cardsDir(data), "descriptors.bin")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	damaged := false
	for off := 8 + 16; off < len(b) && !damaged; {
		n := int(binary.LittleEndian.Uint32(b[off:]))
		rec := b[off+8 : off+8+n]
		// The record: flags, the id's length (uint16) and the id.
		if idLen := int(binary.LittleEndian.Uint16(rec[1:])); string(rec[3:3+idLen]) == "goal-1" {
			rec[n-10] ^= 0x55
			damaged = true
		}
		off += 8 + n
	}
	if !damaged {
		t.Fatal("no entry of goal-1 found")
	}
	os.WriteFile(bin, b, 0o644)

	m, _, err := synth.RenderCardScene(synth.CardScene{Seed: synth.EvalSeedMin + 99200 + 70002,
		Cards: []synth.CardSpec{{Art: 70002, Width: 250, Center: image.Pt(600, 380), Angle: 35, FixAngle: true}}})
	if err != nil {
		t.Fatal(err)
	}
	shown := filepath.Join(dir, "goal-2.png")
	writePNG(t, shown, m)
	var out, errs string
	logged := stderrOf(t, func() { out, errs, err = runIn(t, data, "card", "--json", shown) })
	if err != nil {
		t.Fatalf("%v\n%s%s", err, errs, logged)
	}
	var r struct {
		Cards []card.Reading `json:"cards"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Cards) != 1 || r.Cards[0].ID != "goal-2" {
		t.Errorf("want goal-2 read: %s (%v)", out, err)
	}
	if !strings.Contains(logged, "WARN") || !strings.Contains(logged, "goal-1 (1 of 4 entries lost)") {
		t.Errorf("log names no damaged card:\n%s", logged)
	}
}

// `tablecam play --images DIR` plays a folder of symbolic links to
// pictures (it read 0 frames and exited 0); a folder without a picture is
// an error naming it and the extensions read.
func TestPlayImagesLinksAndEmpty(t *testing.T) {
	real, frames, empty := t.TempDir(), t.TempDir(), t.TempDir()
	for i := range 3 {
		m, _, err := synth.RenderCardScene(synth.CardScene{Seed: synth.EvalSeedMin + 99300 + int64(i),
			Cards: []synth.CardSpec{{Art: 70005, Width: 250, Center: image.Pt(600, 380)}}})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(real, fmt.Sprintf("%d.png", i))
		writePNG(t, p, m)
		if err := os.Symlink(p, filepath.Join(frames, fmt.Sprintf("frame-%d.png", i))); err != nil {
			t.Fatal(err)
		}
	}
	data := dataDir(t)
	_, errs, err := runIn(t, data, "play", "--images", frames, "--no-prompt", "--voice", "off", "--vision-dice-sets", "vats")
	if err != nil || !strings.Contains(errs, "camera: 3 frames") {
		t.Errorf("folder of links: %v\n%s", err, errs)
	}
	_, errs, err = runIn(t, data, "play", "--images", empty, "--no-prompt", "--voice", "off", "--vision-dice-sets", "vats")
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), ".png") {
		t.Errorf("empty folder: %v\n%s", err, errs)
	}
}

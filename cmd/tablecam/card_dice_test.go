package main

import (
	"encoding/json"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/models"
	"tablecam/vision/card"
	"tablecam/vision/synth"
)

// `tablecam card` on pictures of dice alone, with no cards taught: a die is
// not a card, so nothing is reported (no "unknown" card with confidence 1);
// a card that was never taught, shown alone, is still reported unknown.
func TestCardCommandDiceAreNotCards(t *testing.T) {
	c, err := models.LoadContent("")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := dataDir(t)
	var paths []string
	for i, sets := range [][]string{{"vats", "vats", "vats"}, {"vats", "vats", "assist"}, {"d6", "d6"}, {"vats"}} {
		var dice []synth.DieSpec
		for _, s := range sets {
			dice = append(dice, synth.DieSpec{Set: s})
		}
		m, _, err := synth.Render(c, synth.Scene{Seed: synth.EvalSeedMin + 66000 + int64(i), Dice: dice})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("dice-%d.png", i))
		writePNG(t, p, m)
		paths = append(paths, p)
	}
	m, _, err := synth.RenderCardScene(synth.CardScene{Seed: synth.EvalSeedMin + 66100,
		Cards: []synth.CardSpec{{Art: 66101, Width: 250, Center: image.Pt(600, 380)}}})
	if err != nil {
		t.Fatal(err)
	}
	cardPNG := filepath.Join(dir, "card.png")
	writePNG(t, cardPNG, m)
	out, errs, err := runIn(t, data, append([]string{"card", "--json", "--vision-dice-sets", "vats,assist,d6", cardPNG}, paths...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(paths)+1 {
		t.Fatalf("want %d lines, got:\n%s", len(paths), out)
	}
	var r struct {
		Cards []card.Reading `json:"cards"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Cards) != 1 || r.Cards[0].ID != card.Unknown {
		t.Errorf("an untaught card alone: want one unknown card: %s", lines[0])
	}
	for i, line := range lines[1:] {
		r.Cards = nil
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		for _, rd := range r.Cards {
			t.Errorf("%s: dice only, but a card was reported: %s", paths[i], line)
			if rd.ID == card.Unknown && rd.Confidence >= 1 {
				t.Errorf("%s: an unknown reading with confidence 1 says nothing", paths[i])
			}
		}
	}
}

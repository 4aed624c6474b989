package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// `tablecam list` names the games and the words their commands take, and
// `tablecam odds --game` gives the engines' exact odds.
func TestOtherGamesListAndOdds(t *testing.T) {
	data := t.TempDir()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"list", "games"}, []string{"twom", "This War of Mine", "setup warfare", "setup wasteland"}},
		{[]string{"list", "twom"}, []string{"dawn.death", "assault_rifle", "scavenge"}},
		{[]string{"list", "warfare"}, []string{"darkness", "wrongedge"}},
		{[]string{"list", "wasteland"}, []string{"toughness", "crit"}},
		// Black die ≤ 3: 3 of 10 faces; ≤ 6: 6 of 10.
		{[]string{"odds", "--game", "twom", "--noise", "3", "--empathy", "6"}, []string{"P(encounter) = 3/10", "P(misery) = 3/5"}},
		// 1 … 5 plus 2 is at most 7: 5 of 10 faces.
		{[]string{"odds", "--game", "warfare", "--stat", "7", "--mod", "+2"}, []string{"P(success) = 1/2"}},
		// Faces reading ≤ 5: crit, ap and 2 … 5 twice, 10 of 20; with an
		// accuracy token 6 and 7 (two each) pass on luck: 10/20 + 4/20 · 1/2.
		{[]string{"odds", "--game", "wasteland", "--skill", "5", "--skill-faces", "crit,ap,2,2,3,3,4,4,5,5,6,6,7,7,8,9,10,x,x,x"},
			[]string{"no luck         P(success) = 1/2", "accuracy token  P(success) = 3/5"}},
		// The yellow die's faces as the content lists them (0, 1, 2,
		// hatchet, fate): with a hatchet 0 symbols on three faces of five,
		// the hatchet's face kills (seed 004 "Waffen").
		{[]string{"odds", "--game", "twom", "--combat", "hatchet"},
			[]string{"yellow die (hatchet)", "counts are not confirmed", "P(wounds = 0)     = 3/5", "P(wounds = 2)     = 1/5", "P(kill outright)   = 1/5", "P(fate face)       = 1/5"}},
		// A red die of seven faces rolled by an enemy's pistol: the
		// shotgun's face is a miss, the out-of-ammo face empties it; two
		// faces of 2 symbols.
		{[]string{"odds", "--game", "twom", "--combat", "red", "--enemy-roll", "--combat-faces", "0,1,2,2,shotgun,out_of_ammo,fate"},
			[]string{"red die (pistol), an enemy's roll", "P(wounds = 2)     = 2/7", "P(kill outright)   = 0/1", "P(out of ammo)     = 1/7"}},
		// The same pistol at strength 1 (seed 004 "Stärke im Kampf": an
		// enemy rerolls 0 wounds): the blank and the shotgun's face are
		// plain misses, 2 of 7; each other face stands on the first roll
		// (7 of 49) or after a miss (2 of 49): 2 symbols on 2 × 9/49; a
		// plain miss stands only twice in a row, 2 × 2/49, and with the
		// kept out-of-ammo and fate faces 0 wounds is 22/49.
		{[]string{"odds", "--game", "twom", "--combat", "red", "--enemy-roll", "--strength", "1", "--combat-faces", "0,1,2,2,shotgun,out_of_ammo,fate"},
			[]string{"strength 1: a roll of 0 wounds rerolled", "P(wounds = 0)     = 22/49", "P(wounds = 2)     = 18/49", "P(out of ammo)     = 9/49"}},
		// A character's hatchet at strength 1 on the listed yellow faces
		// (0, 1, 2, hatchet, fate): a wound or a kill unless both rolls
		// fall on 0 or fate (1 − 4/25); 2 or a kill unless both fall on
		// 0, 1 or fate (1 − 9/25).
		{[]string{"odds", "--game", "twom", "--combat", "hatchet", "--strength", "1"},
			[]string{"With strength 1", "P(wounds ≥ 1)     = 21/25", "P(wounds ≥ 2)     = 16/25"}},
		// Endurance 4 saves on 1 … 6 with the mine's −2; a failed save
		// (2/5) takes 1 damage on 1 … 6 of the damage roll (3/5): 6/25
		// (seed 002 ch. 6 "Far Brillare le Mine").
		{[]string{"odds", "--game", "warfare", "--mine", "4"},
			[]string{"P(saved, no damage) = 3/5", "P(damage = 1)       = 6/25", "P(damage = 5)       = 1/25", "P(1) = 3/5"}},
	} {
		out, _, err := runIn(t, data, tc.args...)
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", tc.args, w, out)
			}
		}
	}
	if _, _, err := runIn(t, data, "odds", "--game", "wasteland", "--skill", "5"); err == nil || !strings.Contains(err.Error(), "--skill-faces") {
		t.Errorf("wasteland odds without the die's faces: %v", err)
	}
	for _, args := range [][]string{
		{"odds", "--game", "twom", "--combat", "spoon"},
		{"odds", "--game", "twom", "--combat", "grey", "--combat-faces", "0,7"},
		{"odds", "--game", "twom", "--combat", "knife", "--shots", "2"},
		{"odds", "--game", "twom", "--combat", "assault_rifle", "--shots", "2", "--strength", "1"},
		{"odds", "--game", "twom", "--combat", "grey", "--strength", "11"},
		{"odds", "--game", "warfare", "--mine", "30"},
	} {
		if _, _, err := runIn(t, data, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

// A game of This War of Mine is played at the prompt, resumed by a second
// prompt, and its state is in `state --json`; a command of another game is
// refused with the game's name.
func TestOtherGameResumesAndShowsState(t *testing.T) {
	data := t.TempDir()
	first := "setup twom players 2 anna:4 bruno:7\nnext\nnext\n"
	if _, errs, err := runInWith(t, data, first, "play", "--manual"); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	second := "next\nmelee 6 2 2\nstate\n"
	out, errs, err := runInWith(t, data, second, "play", "--manual")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	if !strings.Contains(out, "Day, third action") || !strings.Contains(out, "step day.action3") {
		t.Errorf("the resumed game did not go on from the second action:\n%s", out)
	}
	if !strings.Contains(errs, "melee is a command of Fallout: Warfare; this session plays This War of Mine") {
		t.Errorf("a Warfare command in a TWoM game: %s", errs)
	}
	js, _, err := runIn(t, data, "state", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Game struct {
			Kind string `json:"kind"`
			Twom struct {
				Step   int `json:"step"`
				Leader int `json:"leader"`
			} `json:"twom"`
		} `json:"game"`
	}
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	// Step 3 is the third action; the mark after the morning passed the
	// Journal to the second player.
	if st.Game.Kind != "twom" || st.Game.Twom.Step != 3 || st.Game.Twom.Leader != 1 {
		t.Errorf("state %+v\n%s", st, js)
	}
}

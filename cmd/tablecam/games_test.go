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

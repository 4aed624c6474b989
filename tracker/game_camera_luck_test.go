package tracker

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tablecam/models"
)

// withLuckSet is the test content with a luck token taught under SetLuck,
// as `tablecam learn dice --set luck DIR` adds it (folders luck and blank).
func withLuckSet(t *testing.T) *models.Content {
	t.Helper()
	base := testContent(t)
	c := *base
	c.FaceSets = append(slices.Clone(base.FaceSets), models.FaceSet{ID: SetLuck, Name: "luck token", Kind: models.KindSymbol,
		Faces: []models.Face{{ID: "luck"}, {ID: "blank"}}})
	return &c
}

// seed 001 (lines 3–4): the use is declared before the token is thrown,
// and the side it shows decides. With a taught luck token, `luck USE`
// typed without the side waits for the camera, and the side read resolves
// it as the side typed would: accuracy on a test failed by 2 makes it a
// success (line 15–16), a blank side spends the token for nothing.
func TestSeed001LuckTokenReadByTheCamera(t *testing.T) {
	c := withLuckSet(t)
	for _, tc := range []struct {
		lang, side, waiting string
	}{
		{"en", "luck", "Throw the luck token for luck accuracy."},
		{"en", "blank", "Throw the luck token for luck accuracy."},
		{"de", "luck", "Werft den Glücksmarker für luck accuracy."},
	} {
		t.Run(tc.lang+"/"+tc.side, func(t *testing.T) {
			_, s := newSession(t, c, tc.lang)
			got := submitLines(t, s, "setup wasteland nora:2 raider:1", "skill nora 5 7", "luck accuracy", "roll luck "+tc.side)
			if w := got[2]; len(w) != 1 || w[0] != tc.waiting {
				t.Errorf("waiting: %q, want %q", w, tc.waiting)
			}
			_, ref := newSession(t, c, tc.lang)
			want := submitLines(t, ref, "setup wasteland nora:2 raider:1", "skill nora 5 7", "luck accuracy "+tc.side)
			if strings.Join(got[3], "|") != strings.Join(want[2], "|") {
				t.Errorf("camera %q\ntyped  %q", got[3], want[2])
			}
			if s.Game().Pending != nil {
				t.Error("the luck line still waits after the token was read")
			}
			if r := s.Game().Wasteland.Roll; r == nil || r.Success() != (tc.side == "luck") {
				t.Errorf("after %s: roll %+v", tc.side, r)
			}
			if r := Replay(c, s.Events()); !sameGame(r, s.Game()) {
				t.Error("clean replay differs from the live session")
			}
		})
	}
}

// A die of another set read while the luck line waits (the skill die still
// lying there) is announced by its face and does not resolve it; undoing
// the token's reading leaves the line waiting, and a correction of the
// side works out the use again.
func TestLuckTokenWaitingOtherSetsUndoCorrect(t *testing.T) {
	c := withLuckSet(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup wasteland nora:2 raider:1", "skill nora 6 5 vs raider", "luck dodge")
	got := submitLines(t, s, "roll d10 4")
	if len(got[0]) != 1 || !strings.HasPrefix(got[0][0], "Rolled ") || s.Game().Pending == nil {
		t.Fatalf("a d10 while the luck line waits: %q, pending %v", got[0], s.Game().Pending)
	}
	ev, _, _ := ParseLine(c, "roll luck luck blank")
	if _, err := s.Submit(context.Background(), ev); err == nil || !strings.Contains(err.Error(), "reads 1 die") {
		t.Fatalf("two tokens for one luck line: %v", err)
	}
	submitLines(t, s, "roll luck blank")
	if r := s.Game().Wasteland.Roll; !r.Success() || s.Game().Wasteland.Units[1].Tokens != 0 {
		t.Fatalf("a blank dodge: success %v, raider's tokens %d", r.Success(), s.Game().Wasteland.Units[1].Tokens)
	}
	seq := strconv.FormatInt(s.Events()[len(s.Events())-1].Seq, 10)
	got = submitLines(t, s, "correct "+seq+" luck")
	_, ref := newSession(t, c, "en")
	want := submitLines(t, ref, "setup wasteland nora:2 raider:1", "skill nora 6 5 vs raider", "luck dodge luck")
	if !strings.Contains(strings.Join(got[0], "|"), want[2][0]) {
		t.Errorf("corrected to luck: %q, want it to say %q", got[0], want[2][0])
	}
	if s.Game().Wasteland.Roll.Success() {
		t.Error("the dodge corrected to luck still lets the attack hit (5 +2 against skill 6)")
	}
	submitLines(t, s, "undo", "undo")
	if p := s.Game().Pending; p == nil || p.Context.Move == nil || p.Context.Move.Cmd != "luck" || p.Set != SetLuck {
		t.Fatalf("after undoing the reading: pending %+v", p)
	}
	if got := s.Game().Wasteland.Units[1].Tokens; got != 1 {
		t.Errorf("the raider's tokens while the throw waits: %d, want 1", got)
	}
}

// The luck token is looked for once taught, the dashboard offers the luck
// uses without the side for the camera to read, and without a taught token
// a luck line needs its side.
func TestLuckTokenSetsAndSuggestions(t *testing.T) {
	c := withLuckSet(t)
	if sets := GameDiceSets(c, GameWasteland); !slices.Equal(sets, []string{SetLuck}) {
		t.Errorf("the camera looks for %v in Wasteland Warfare", sets)
	}
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup wasteland nora:2 raider:1", "skill nora 5 7")
	if got := s.Game().Suggested(c); !slices.Equal(got, []string{"luck accuracy", "done"}) {
		t.Errorf("suggested %q", got)
	}
	base := testContent(t)
	_, w := newSession(t, base, "en")
	submitLines(t, w, "setup wasteland nora:2", "skill nora 5 7")
	ev, _, err := ParseLine(base, "luck accuracy")
	if err == nil {
		_, err = w.Submit(context.Background(), ev)
	}
	if err == nil || !strings.Contains(err.Error(), `"luck" face set`) {
		t.Errorf("luck without a side or a taught token: %v", err)
	}
}

// An event stored before the side was a reading keeps it in Args; it
// replays as it did.
func TestLuckSideStoredAsArgReplays(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup wasteland nora:2", "skill nora 5 7")
	old := Event{Type: EvMove, Move: &Move{Game: GameWasteland, Cmd: "luck", Args: map[string]string{"use": "accuracy", "side": "luck"}}}
	as, err := s.Submit(context.Background(), old)
	if err != nil {
		t.Fatal(err)
	}
	_, ref := newSession(t, c, "en")
	want := submitLines(t, ref, "setup wasteland nora:2", "skill nora 5 7", "luck accuracy luck")
	if len(as) == 0 || as[0].Text != want[2][0] {
		t.Errorf("stored with the side in Args: %v, typed: %q", as, want[2])
	}
	if got := moveLine(old); got != "luck accuracy luck" {
		t.Errorf("history line %q", got)
	}
}

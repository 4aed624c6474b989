package tracker

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tablecam/models"
)

// submitLines submits typed lines and returns each line's announcements.
func submitLines(t *testing.T, s *Session, lines ...string) [][]string {
	t.Helper()
	var out [][]string
	for _, l := range lines {
		ev, ok, err := ParseLine(s.content, l)
		if err != nil || !ok {
			t.Fatalf("%q: ok %v, %v", l, ok, err)
		}
		as, err := s.Submit(context.Background(), ev)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		var texts []string
		for _, a := range as {
			texts = append(texts, a.Text)
		}
		out = append(out, texts)
	}
	return out
}

// A command typed without its readings waits for the camera; the next roll
// of its face set resolves it exactly as the command typed with those
// readings would.
func TestMoveWaitsForCameraRoll(t *testing.T) {
	c := testContent(t)
	for _, tc := range []struct {
		setup, waiting, roll, typed string
	}{
		{"setup warfare", "check 7 mod +2", "roll d10 6", "check 7 6 mod +2"},
		{"setup warfare", "check 7", "roll d10 0", "check 7 0"},
		{"setup warfare", "shoot 6 1 cover", "roll d10 3", "shoot 6 1 3 cover"},
		{"setup warfare", "initiative luck_a 3", "roll d10 5 5", "initiative 5 5 luck_a 3"},
		{"setup warfare light dusk", "endturn", "roll d10 0", "endturn 0"},
		{"setup twom anna:2 bruno:3", "empathy anna bruno", "roll d10 2", "empathy 2 anna bruno"},
		{"setup twom anna:2 bruno:3", "lockpick", "roll d10 9", "lockpick 9"},
	} {
		t.Run(tc.waiting, func(t *testing.T) {
			_, s := newSession(t, c, "en")
			got := submitLines(t, s, tc.setup, tc.waiting)
			if w := got[1]; len(w) != 1 || !strings.HasPrefix(w[0], "Roll ") || !strings.Contains(w[0], "d10 for "+tc.waiting) {
				t.Fatalf("waiting: %q", w)
			}
			if s.Game().Pending == nil {
				t.Fatal("no pending roll")
			}
			got = submitLines(t, s, tc.roll)
			_, ref := newSession(t, c, "en")
			want := submitLines(t, ref, tc.setup, tc.typed)
			if strings.Join(got[0], "|") != strings.Join(want[1], "|") {
				t.Errorf("camera roll: %q\ntyped:       %q", got[0], want[1])
			}
			if s.Game().Pending != nil {
				t.Error("the move still waits after its roll")
			}
			if r := Replay(c, s.Events()); !sameGame(r, s.Game()) {
				t.Error("clean replay differs from the live session")
			}
		})
	}
}

func TestMoveWaitingUndoCorrectAndOtherSets(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup warfare", "check 5")
	// A die of another set is announced by its faces; the check still waits.
	got := submitLines(t, s, "roll d6 4")
	if len(got[0]) != 1 || !strings.HasPrefix(got[0][0], "Rolled 4") || s.Game().Pending == nil {
		t.Fatalf("d6 while waiting: %q, pending %v", got[0], s.Game().Pending)
	}
	// Two d10s for one reading are refused; the check still waits.
	ev, _, _ := ParseLine(c, "roll d10 3 4")
	if _, err := s.Submit(context.Background(), ev); err == nil || !strings.Contains(err.Error(), "reads 1 die") {
		t.Fatalf("two dice for check: %v", err)
	}
	submitLines(t, s, "roll d10 3")
	rollSeq := s.Events()[len(s.Events())-1].Seq
	// The reading corrected to 8: the check fails now, as typed `check 5 8`.
	got = submitLines(t, s, "correct "+strconv.FormatInt(rollSeq, 10)+" 8")
	_, ref := newSession(t, c, "en")
	want := submitLines(t, ref, "setup warfare", "check 5 8")
	if !strings.Contains(strings.Join(got[0], "|"), want[1][0]) {
		t.Errorf("corrected: %q, want it to say %q", got[0], want[1][0])
	}
	// Undoing the correction and the roll leaves the check waiting again.
	submitLines(t, s, "undo", "undo")
	if p := s.Game().Pending; p == nil || p.Context.Kind != CtxMove || p.Context.Move.Cmd != "check" {
		t.Fatalf("after undo: pending %+v", p)
	}
}

func TestMoveWaitingErrors(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup twom anna:2")
	for line, want := range map[string]string{
		"thirst zoe":   "zoe",       // the rest of the move is checked before the dice land
		"skill nora 6": "Wasteland", // a command of another game
	} {
		ev, ok, err := ParseLine(c, line)
		if err == nil && ok {
			_, err = s.Submit(context.Background(), ev)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error naming %q", line, err, want)
		}
	}
	if s.Game().Pending != nil {
		t.Error("a refused move waits")
	}
	// Wasteland's skill die has no built-in face set: the face is needed.
	_, w := newSession(t, c, "en")
	submitLines(t, w, "setup wasteland nora:2")
	ev, _, err := ParseLine(c, "skill nora 6")
	if err == nil {
		_, err = w.Submit(context.Background(), ev)
	}
	if err == nil || !strings.Contains(err.Error(), `"skill" face set`) {
		t.Errorf("skill without a face: %v", err)
	}
}

// With a skill die face set in the content, a Wasteland skill test typed
// without its face waits for the camera, and the face read resolves it as
// the typed face would.
func TestWastelandSkillWaitsWithASkillSet(t *testing.T) {
	base := testContent(t)
	c := *base
	skill := models.FaceSet{ID: SetSkill, Name: "skill die", Kind: "symbol"}
	for _, id := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "ap", "crit", "x"} {
		skill.Faces = append(skill.Faces, models.Face{ID: id})
	}
	c.FaceSets = append(slices.Clone(base.FaceSets), skill)
	for _, face := range []string{"crit", "7", "x"} {
		_, s := newSession(t, &c, "en")
		got := submitLines(t, s, "setup wasteland nora:2 raider:1", "skill nora 6 vs raider", "roll skill "+face)
		_, ref := newSession(t, &c, "en")
		want := submitLines(t, ref, "setup wasteland nora:2 raider:1", "skill nora 6 "+face+" vs raider")
		if w := got[1]; len(w) != 1 || w[0] != "Roll the skill die for skill nora 6 vs raider." {
			t.Errorf("waiting: %q", w)
		}
		if strings.Join(got[2], "|") != strings.Join(want[1], "|") {
			t.Errorf("%s: camera %q\ntyped %q", face, got[2], want[1])
		}
	}
	if got := GameDiceSets(&c, GameWasteland); len(got) != 1 || got[0] != SetSkill {
		t.Errorf("Wasteland's dice sets: %v", got)
	}
	if got := GameDiceSets(base, GameWasteland); len(got) != 0 {
		t.Errorf("Wasteland's dice sets without a skill set: %v", got)
	}
}

// The state table says which command waits for the camera.
func TestWaitingMoveInStateTable(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup warfare", "check 7 mod +2")
	en, _ := NewCatalog("en")
	if got := s.Game().SummaryIn(c, en); !strings.Contains(got, "Waiting    check 7 mod +2: the camera reads the d10\n") {
		t.Errorf("state:\n%s", got)
	}
	submitLines(t, s, "roll d10 4")
	if got := s.Game().SummaryIn(c, en); strings.Contains(got, "Waiting") {
		t.Errorf("state after the roll:\n%s", got)
	}
}

// A command typed with its reading while another waits for the camera
// (the camera missed the die) ends the wait; one without a reading keeps it.
func TestTypedReadingEndsTheWait(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "en")
	submitLines(t, s, "setup warfare", "check 7", "harm 3 1")
	if s.Game().Pending == nil {
		t.Fatal("harm ended the wait")
	}
	submitLines(t, s, "check 7 4")
	if p := s.Game().Pending; p != nil {
		t.Errorf("still waiting after the typed check: %+v", p)
	}
	got := submitLines(t, s, "roll d10 9")
	if len(got[0]) != 1 || !strings.HasPrefix(got[0][0], "Rolled 9") {
		t.Errorf("a d10 after the wait ended: %q", got[0])
	}
}

func TestMoveWaitingInGerman(t *testing.T) {
	c := testContent(t)
	_, s := newSession(t, c, "de")
	got := submitLines(t, s, "setup warfare", "check 7 mod +2", "lightroll")
	if w := got[1]; len(w) != 1 || w[0] != "Würfelt den W10 für check 7 mod +2." {
		t.Errorf("check: %q", w)
	}
	if w := got[2]; len(w) != 1 || w[0] != "Würfelt 2 × W10 für lightroll." {
		t.Errorf("lightroll: %q", w)
	}
}

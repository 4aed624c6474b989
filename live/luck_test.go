package live_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tablecam/frame"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/defaults"
	"tablecam/vision/rolls"
	"tablecam/vision/synth"
)

// seed 001 (lines 3–4, "Genauigkeit" lines 14–16): Wasteland Warfare
// through the camera. The skill die is read for `skill nora 5` (a 7 fails
// by 2), the group declares `luck accuracy` before the throw, and the luck
// token thrown beside the skill die is read: its luck side gives the die
// −2 and makes the test a success. The announcements are those of the
// lines typed with the rendered faces, in English and German; the skill die
// left lying is not announced again.
func TestLiveLuckTokenThrownForAccuracy(t *testing.T) {
	c := withSkillAndLuck(t)
	var profs []*vision.DiceProfile
	for _, set := range []string{tracker.SetSkill, tracker.SetLuck} {
		p, _, err := defaults.Profile(c, set, defaults.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		profs = append(profs, p)
	}
	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			got := playLuck(t, c, profs, lang)
			want := typedTexts(t, c, lang, "setup wasteland nora:2 raider:1", "skill nora 5", "roll skill 7", "luck accuracy", "roll luck luck")
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("through the camera:\n%s\nwant (the lines with the rendered faces typed):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// playLuck plays the rendered table through the live pipeline with a
// detector of the skill die and the luck token: `skill nora 5` waits for
// the skill die; once its result is said, `luck accuracy` is typed and the
// token is thrown. It returns the announcements' texts in order.
func playLuck(t *testing.T, c *models.Content, profs []*vision.DiceProfile, lang string) []string {
	t.Helper()
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, err := tracker.NewCatalog(lang)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := tracker.OpenSession(context.Background(), st, c, cat, "", "luck")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	for _, l := range []string{"setup wasteland nora:2 raider:1", "skill nora 5"} {
		if err := submit(context.Background(), sess, c, rec, l); err != nil {
			t.Fatal(err)
		}
	}
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{Sets: tracker.GameDiceSets(c, tracker.GameWasteland)})
	if err != nil {
		t.Fatal(err)
	}
	defer det.Close()
	bg := background.New(det, background.Config{})
	defer bg.Close()
	seq, err := synth.NewSequence(c, synth.SequenceSpec{
		Scene: synth.Scene{Seed: synth.EvalSeedMin + 424_301, Width: 1280, Height: 720, Background: synth.BackgroundWood,
			Lighting: synth.Lighting{Level: 1}, Noise: 2,
			Dice: []synth.DieSpec{{Set: tracker.SetSkill, Face: "7"}, {Set: tracker.SetLuck, Face: "luck"}}},
		Script: []synth.Step{{Kind: synth.StepWait, Frames: 15}, {Kind: synth.StepThrow, Count: 1}, {Kind: synth.StepWait, Frames: 20},
			{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	var throws []int
	for _, e := range seq.Events() {
		if e.Kind == synth.EventThrow {
			throws = append(throws, e.Frame)
		}
	}
	if len(throws) != 2 {
		t.Fatalf("throws at %v, want the skill die's and the token's", throws)
	}
	src := &typedSource{Sequence: seq, at: throws[1], line: "luck accuracy", after: tracker.KindWastelandSkill, sess: sess, c: c, rec: rec}
	stats, err := live.Run(context.Background(), live.Options{Source: src, Dice: bg.Read, Session: sess, Announce: rec, ReadMoving: true,
		Roll: rolls.Config{SettleFrames: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if src.err != nil {
		t.Fatalf("typing %q: %v", src.line, src.err)
	}
	if stats.Rolls != 2 || stats.Rejected != 0 {
		t.Errorf("rolls %d, rejected %d: want the skill die and the token, none rejected", stats.Rolls, stats.Rejected)
	}
	if g := sess.Game(); g.Pending != nil || g.Wasteland.Roll == nil || !g.Wasteland.Roll.Success() || g.Wasteland.Units[0].Tokens != 1 {
		t.Errorf("after the token: pending %+v, roll %+v, units %+v", g.Pending, g.Wasteland.Roll, g.Wasteland.Units)
	}
	var texts []string
	for _, a := range rec.all() {
		texts = append(texts, a.Text)
	}
	return texts
}

// withSkillAndLuck is the content with the renderer's luck token and a
// skill die face set, as a group adds both when it teaches them (tablecam
// learn dice --set skill DIR, --set luck DIR).
func withSkillAndLuck(t *testing.T) *models.Content {
	t.Helper()
	base, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	c := synth.WithGamePieces(base)
	skill := models.FaceSet{ID: tracker.SetSkill, Name: "skill die", Kind: models.KindSymbol}
	for _, id := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "ap", "crit", "x"} {
		skill.Faces = append(skill.Faces, models.Face{ID: id, Label: id})
	}
	c.FaceSets = append(slices.Clone(c.FaceSets), skill)
	return c
}

// typedSource plays a rendered sequence; before frame at it waits for an
// announcement of kind after and types line, as a group does once it has
// heard the roll's result and before it throws again.
type typedSource struct {
	*synth.Sequence
	at    int
	line  string
	after string
	sess  *tracker.Session
	c     *models.Content
	rec   *recorder
	err   error
}

func (s *typedSource) Read(ctx context.Context) (frame.Frame, error) {
	f, err := s.Sequence.Read(ctx)
	if err == nil && f.Index == s.at {
		s.err = s.typeLine(ctx)
	}
	return f, err
}

func (s *typedSource) typeLine(ctx context.Context) error {
	for deadline := time.Now().Add(time.Minute); !s.rec.has(s.after); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return errors.New("no announcement of " + s.after)
		}
	}
	return submit(ctx, s.sess, s.c, s.rec, s.line)
}

// submit types a line into the session and records its announcements.
func submit(ctx context.Context, s *tracker.Session, c *models.Content, rec *recorder, line string) error {
	ev, _, err := tracker.ParseLine(c, line)
	if err != nil {
		return err
	}
	as, err := s.Submit(ctx, ev)
	if err != nil {
		return fmt.Errorf("%q: %w", line, err)
	}
	for _, a := range as {
		if err := rec.Announce(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

func (r *recorder) has(kind string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.got, func(a models.Announcement) bool { return a.Kind == kind })
}

func (r *recorder) all() []models.Announcement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// typedTexts submits lines to a fresh session and returns its
// announcements' texts.
func typedTexts(t *testing.T, c *models.Content, lang string, lines ...string) []string {
	t.Helper()
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "typed.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, err := tracker.NewCatalog(lang)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tracker.OpenSession(context.Background(), st, c, cat, "", "typed")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	for _, l := range lines {
		if err := submit(context.Background(), s, c, rec, l); err != nil {
			t.Fatal(err)
		}
	}
	var texts []string
	for _, a := range rec.all() {
		texts = append(texts, a.Text)
	}
	return texts
}

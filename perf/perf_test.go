package perf_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/demo"
	"tablecam/live"
	"tablecam/models"
	"tablecam/perf"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/card"
	"tablecam/vision/defaults"
	"tablecam/vision/marker"
)

// rig is the demo video, a session set up as in the demo, and readers.
type rig struct {
	rec   demo.Recording
	video string
	sess  *tracker.Session
	det   *vision.DiceDetector
	cards *card.Reader
}

func newRig(t *testing.T) *rig {
	t.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mm := marker.DefaultMap()
	r := &rig{video: filepath.Join(dir, "demo.avi")}
	if r.rec, err = demo.WriteVideo(context.Background(), c, mm, r.video); err != nil {
		t.Fatal(err)
	}
	st, err := tracker.OpenStore(filepath.Join(dir, "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, _ := tracker.NewCatalog("en")
	if r.sess, err = tracker.OpenSession(context.Background(), st, c, cat, "", "perf"); err != nil {
		t.Fatal(err)
	}
	for _, line := range demo.Script()[0].Lines {
		ev, _, err := tracker.ParseLine(c, line)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.sess.Submit(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	profs, _, err := defaults.Load(c, filepath.Join(dir, "data"), []string{"vats", "assist"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.det, err = vision.NewDiceDetector(c, profs, vision.DiceConfig{Sets: []string{"vats", "assist"}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.det.Close() })
	if r.cards, err = card.NewReader(card.Options{Markers: mm}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cards.Close() })
	return r
}

func (r *rig) options(loops int) perf.Options {
	return perf.Options{
		Video: r.video, Settles: r.rec.Settles, Rolls: r.rec.Rolls, Loops: loops, Unpaced: true,
		NewDice: func() (vision.DiceReader, func(), error) {
			bg := background.New(r.det, background.Config{})
			return bg.Read, func() { bg.Close() }, nil
		},
		NewCards: func() live.CardReader {
			return card.NewWatcher(r.cards, card.TrackerConfig{})
		},
		Session: r.sess, Announce: discard{},
	}
}

type discard struct{}

func (discard) Announce(context.Context, models.Announcement) error { return nil }
func (discard) Close() error                                        { return nil }

// The recorded demo scene, decoded from its MJPG video and read by the real
// dice detector and card reader, yields exactly the rolls and the card that
// were filmed, each roll decided within 3 frames of the dice stopping
// (issue 3 §7: settle latency ≤ 3 frames), and the report records memory.
func TestRecordedSceneThroughThePipeline(t *testing.T) {
	r := newRig(t)
	rep, err := perf.Run(context.Background(), r.options(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", rep)
	if rep.Frames != r.rec.Frames || rep.Skipped != 0 {
		t.Errorf("frames %d (skipped %d), want %d", rep.Frames, rep.Skipped, r.rec.Frames)
	}
	if rep.Rolls != r.rec.Rolls || rep.Cards != len(r.rec.Cards) {
		t.Errorf("rolls %d, cards %d; filmed %d and %d", rep.Rolls, rep.Cards, r.rec.Rolls, len(r.rec.Cards))
	}
	if len(rep.SettleFrames) != rep.Rolls {
		t.Errorf("%d of %d rolls matched to a settle: %v", len(rep.SettleFrames), rep.Rolls, rep.Pairs)
	}
	for _, p := range rep.Pairs {
		if d := p[1] - p[0]; d > 3 {
			t.Errorf("roll decided %d frames after the dice stopped (frame %d), want ≤ 3", d, p[0])
		}
	}
	if rep.Rejected != 0 || rep.Applied != rep.Rolls+rep.Cards {
		t.Errorf("applied %d, refused %d camera events; want all %d", rep.Applied, rep.Rejected, rep.Rolls+rep.Cards)
	}
	if len(rep.Memory) != 2 || rep.Memory[1].RSS <= 0 {
		t.Errorf("memory samples %+v", rep.Memory)
	}
}

// A loop count out of range is refused before anything runs.
func TestLoopsBounded(t *testing.T) {
	for _, n := range []int{-5, perf.MaxLoops + 1, 100000000} {
		if _, err := perf.Run(context.Background(), perf.Options{Loops: n}); err == nil || !strings.Contains(err.Error(), "loops must be 1 … 5000") {
			t.Errorf("loops %d: %v", n, err)
		}
	}
}

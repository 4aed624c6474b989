package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"tablecam/announce"
	"tablecam/dashboard"
	"tablecam/demo"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/card"
	"tablecam/vision/rolls"
)

// runDemo plays the bundled demo game (rendered deterministically by the
// project's renderer) through the real camera pipeline into a fresh
// session in a temporary store: dice and cards are read from the frames,
// never from a script. --serve keeps the dashboard up afterwards.
func (a *app) runDemo(ctx context.Context, c *models.Content, game string, w, errw io.Writer, jsonOut bool, voice string, serve, realtime bool) error {
	if _, err := demo.GameScript(game); err != nil {
		return err
	}
	c = demo.Content(c, game)
	out, mute, err := a.outputs(ctx, w, jsonOut, voice)
	if err != nil {
		return err
	}
	defer out.Close()
	s, done, err := a.scratchSession(ctx, c, "demo")
	if err != nil {
		return err
	}
	defer done()
	// The camera looks for the dice of the demo's game only, as a group
	// would set vision.dice_sets for it.
	det, err := a.diceDetector(c, tracker.GameDiceSets(c, game), errw)
	if err != nil {
		return err
	}
	defer det.Close()
	cr, err := a.cardReader(false)
	if err != nil {
		return err
	}
	defer cr.Close()
	markers, err := a.markerMap(a.cfg.Vision.Markers)
	if err != nil {
		return err
	}
	var ann announce.Announcer = out
	var wait func()
	var preview func(live.PreviewFrame)
	// The frames readings came from are kept while the dashboard shows
	// them, so that its links open, and removed with the demo's session.
	framesDir := ""
	if serve {
		framesDir, err = os.MkdirTemp("", "tablecam-demo-frames-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(framesDir)
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		feed := &dashboard.FrameBuffer{}
		all, w2, err := a.serve(sctx, c, s, out, mute, feed, framesDir, errw)
		if err != nil {
			return err
		}
		ann, wait, preview = all, w2, feedPreview(feed)
	}
	res, err := demo.Run(ctx, demo.Options{
		Game: game, Content: c, Session: s, Announce: ann, Markers: markers, Paced: realtime, Preview: preview, FramesDir: framesDir,
		Roll: rolls.Config{SettleFrames: a.cfg.Vision.SettleFrames},
		Dice: func() (vision.DiceReader, func(), error) {
			r := newBackgroundReader(det, cr, nil)
			return r.Read, func() { r.Close() }, nil
		},
		Cards: func() (live.CardReader, func(), error) {
			return card.NewWatcher(cr, card.TrackerConfig{StableFrames: a.cfg.Vision.CardFrames}), func() {}, nil
		},
	})
	flush(ctx, ann)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	frames, rolls, cards := 0, 0, 0
	for _, x := range res.Stats {
		frames += x.Frames
		rolls += x.Rolls
		cards += x.Cards
	}
	cat := a.catalog()
	fmt.Fprint(errw, cat.T("demoRead", cat.Count(frames, "frames"), cat.Count(rolls, "rolls"), cat.Count(cards, "cards")))
	if wait != nil {
		fmt.Fprint(errw, cat.T("demoFinished"))
		<-ctx.Done()
		wait()
	}
	return nil
}

// scratchSession opens a fresh session in a temporary store (the demo's and
// the bench's); done closes and removes it.
func (a *app) scratchSession(ctx context.Context, c *models.Content, id string) (*tracker.Session, func(), error) {
	tmp, err := os.MkdirTemp("", "tablecam-"+id+"-")
	if err != nil {
		return nil, nil, err
	}
	st, err := tracker.OpenStore(filepath.Join(tmp, id+".db"))
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	done := func() {
		st.Close()
		os.RemoveAll(tmp)
	}
	cat, err := tracker.NewCatalog(a.cfg.Language)
	if err == nil {
		err = st.CreateSession(ctx, id, id)
	}
	var s *tracker.Session
	if err == nil {
		s, err = tracker.OpenSession(ctx, st, c, cat, id, "")
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return s, done, nil
}

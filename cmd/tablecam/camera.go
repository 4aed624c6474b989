package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"tablecam/announce"
	"tablecam/config"
	"tablecam/dashboard"
	"tablecam/frame"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/card"
	"tablecam/vision/rolls"
)

// cameraOpts are the play flags of the camera mode.
type cameraOpts struct {
	video, images string
	realtime      bool
	session       string
	fresh, serve  bool
	jsonOut       bool
	voice         string
	noPrompt      bool
}

// frameSource opens what play reads: a video file, a folder of pictures, or
// the camera (reopened with backoff when it is unplugged).
func (a *app) frameSource(o cameraOpts, feed *dashboard.FrameBuffer) (frame.Source, func() int, error) {
	area, err := frame.ParseCrop(a.cfg.Camera.Crop)
	if err != nil {
		return nil, nil, fmt.Errorf("camera.crop: %w", err)
	}
	src, skipped, err := a.rawSource(o, feed)
	if err != nil {
		return nil, nil, err
	}
	return frame.Crop(src, area), skipped, nil
}

func (a *app) rawSource(o cameraOpts, feed *dashboard.FrameBuffer) (frame.Source, func() int, error) {
	switch {
	case o.video != "":
		v, err := frame.OpenVideoFile(o.video)
		if err != nil {
			return nil, nil, err
		}
		var src frame.Source = v
		if o.realtime {
			src = frame.Paced(v, nil)
		}
		return src, v.Skipped, nil
	case o.images != "":
		d, err := frame.OpenImageDir(o.images, float64(a.cfg.Camera.FPS))
		if err != nil {
			return nil, nil, err
		}
		d.OnSkip = func(err error) { a.log.Warn("frame skipped", "err", err) }
		var src frame.Source = d
		if o.realtime {
			src = frame.Paced(d, nil)
		}
		return src, d.Skipped, nil
	}
	cam := a.cfg.Camera
	var last *frame.Camera
	var mu sync.Mutex
	open := func() (frame.Source, error) {
		c, err := frame.OpenCamera(cam.Device, cam.Width, cam.Height, cam.FPS)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		last = c
		mu.Unlock()
		return c, nil
	}
	first, err := open()
	if err != nil {
		return nil, nil, fmt.Errorf("%w (or play a recording with --video FILE)", err)
	}
	opened := false
	r := &live.Reconnect{
		Open: func() (frame.Source, error) {
			if !opened {
				opened = true
				return first, nil
			}
			return open()
		},
		Status: feed.SetStatus,
		Logger: a.log,
	}
	skipped := func() int {
		mu.Lock()
		defer mu.Unlock()
		if last == nil {
			return 0
		}
		return last.Skipped()
	}
	return r, skipped, nil
}

// runCamera plays a session from the camera (or a video / picture folder):
// dice and cards are read and applied, announcements spoken, typed
// commands (the roll's context, confirmations, corrections) read from
// standard input meanwhile.
func (a *app) runCamera(ctx context.Context, c *models.Content, o cameraOpts, in io.Reader, out, errw io.Writer) error {
	feed := &dashboard.FrameBuffer{}
	src, skipped, err := a.frameSource(o, feed)
	if err != nil {
		return err
	}
	defer src.Close()
	cr, err := a.cardReader(false)
	if err != nil {
		return err
	}
	defer cr.Close()
	cards := card.NewWatcher(cr, card.TrackerConfig{StableFrames: a.cfg.Vision.CardFrames})

	st, s, err := a.openSession(ctx, c, o.session, o.fresh)
	if err != nil {
		return err
	}
	defer st.Close()
	sets := playSets(c, a.cfg.Vision.Sets(), s.Game().Kind)
	det, err := a.diceDetector(c, sets, errw)
	if err != nil {
		return err
	}
	defer det.Close()
	var learned *learnedReader
	if a.cfg.Vision.DiceReader == config.DiceReaderLearned {
		if learned, err = a.playLearnedReader(c, sets); err != nil {
			return err
		}
		defer learned.Close()
	}
	outs, mute, err := a.outputs(ctx, out, o.jsonOut, o.voice)
	if err != nil {
		return err
	}
	defer outs.Close()
	var ann announce.Announcer = outs
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if o.serve {
		all, wait, err := a.serve(ctx, c, s, outs, mute, feed, a.framesDir(), errw)
		if err != nil {
			return err
		}
		defer wait()
		defer cancel()
		ann = all
	}
	// Typed commands run beside the camera; end of input does not end the
	// session (the camera does, or Ctrl-C).
	if !o.noPrompt {
		go func() {
			if err := prompt(ctx, c, s, in, out, errw, ann, isTerminal(in)); err != nil {
				a.log.Warn("prompt", "err", err)
			}
		}()
	}
	reader := newBackgroundReader(det, cr, learned)
	defer reader.Close()
	// Without a dashboard nobody sees the live view: no preview frames are
	// encoded. The background reader still reads every frame: it learns the
	// empty table from them.
	var preview func(live.PreviewFrame)
	if o.serve {
		preview = feedPreview(feed)
	}
	stats, err := live.Run(ctx, live.Options{
		Source: src, Dice: reader.Read, Cards: cards, Session: s, Announce: ann,
		FramesDir: a.framesDir(), Preview: preview, ReadMoving: true, Roll: rolls.Config{SettleFrames: a.cfg.Vision.SettleFrames},
		Logger: a.log,
	})
	flush(context.WithoutCancel(ctx), ann)
	cat := a.catalog()
	if n := skipped(); n > 0 {
		fmt.Fprint(errw, cat.T("framesSkipped", cat.Count(n, "unreadable")))
	}
	fmt.Fprint(errw, cat.T("cameraRead", cat.Count(stats.Frames, "frames"), cat.Count(stats.Rolls, "rolls"), cat.Count(stats.Cards, "cards")))
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// feedPreview hands the pipeline's preview frames to the dashboard: the
// plain picture with the labels of what was read in it, which the page
// draws over the live view at a size readable across the table.
func feedPreview(feed *dashboard.FrameBuffer) func(live.PreviewFrame) {
	return func(p live.PreviewFrame) {
		ls := make([]dashboard.FrameLabel, len(p.Labels))
		for i, l := range p.Labels {
			ls[i] = dashboard.FrameLabel{X: l.Box.Min.X, Y: l.Box.Min.Y, W: l.Box.Dx(), H: l.Box.Dy(), Text: l.Text, Kind: l.Kind}
		}
		feed.PutLabeled(p.JPEG, p.Width, p.Height, ls)
	}
}

// newBackgroundReader reads dice with det and learns the empty table by
// itself (see background.Reader); the card reader cr (nil: none)
// gets the same empty table. With the learned reader lr (nil: none), lr
// names the dice of each settled scene and det keeps the table and sees
// hands.
func newBackgroundReader(det *vision.DiceDetector, cr *card.Reader, lr *learnedReader) *background.Reader {
	cfg := background.Config{}
	if cr != nil {
		cfg.Share = cr.SetBackground
	}
	if lr != nil {
		cfg.Dice = lr.read
	}
	return background.New(det, cfg)
}

// playSets are the face sets the camera looks for in a session of game:
// vision.dice_sets for Fallout: The Board Game; for another game its own
// dice (tracker.GameDiceSets) and the configured sets other than the
// V.A.T.S. and assist dice, which only Fallout rolls. The game is the
// session's when play starts: a game set up later is read with these sets
// until play is started again (it resumes the session).
func playSets(c *models.Content, configured []string, game string) []string {
	if game == "" || game == tracker.GameFallout {
		return configured
	}
	sets := tracker.GameDiceSets(c, game)
	if len(sets) == 0 {
		// A game whose die has no face set: the dice are announced by
		// their faces, as without a game.
		return configured
	}
	for _, x := range configured {
		if x != "vats" && x != "assist" && !slices.Contains(sets, x) {
			sets = append(sets, x)
		}
	}
	return sets
}

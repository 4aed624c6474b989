// Package live runs a game session from a camera: frames flow through the
// vision pipeline (motion, dice reading, settle detection), settled rolls
// and shown cards become tracker events, and the tracker's announcements go
// to the announcers. Capture, vision and the tracker run as goroutines joined
// by bounded queues: a slow consumer drops preview frames, never events.
package live

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"tablecam/announce"
	"tablecam/frame"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/card"
	"tablecam/vision/motion"
	"tablecam/vision/rolls"
)

// Options configure a live run.
type Options struct {
	// Source delivers frames (camera, video file, synthetic sequence).
	Source frame.Source
	// Dice reads the dice in a frame.
	Dice vision.DiceReader
	// Cards reads shown cards (optional).
	Cards CardReader
	// Session receives the events; Announce the announcements.
	Session  *tracker.Session
	Announce announce.Announcer
	// FramesDir keeps the frame each reading came from (roll proof); ""
	// keeps none.
	FramesDir string
	// Preview receives frames for the dashboard, at most PreviewFPS per
	// second: the plain picture and the labels of what was read in it,
	// which the page draws in its own type. It must not block (it is
	// called from the vision goroutine).
	Preview    func(PreviewFrame)
	PreviewFPS float64
	// ReadMoving reads the dice on moving frames too (always so with a
	// Preview, whose labels show them). A stateful reader such as
	// background.Reader learns the empty table from the frames it
	// reads, so it needs them even when nobody watches.
	ReadMoving bool
	// Roll configures settle detection and roll events.
	Roll rolls.Config
	// Motion configures the motion measure (zero: defaults).
	Motion motion.Config
	// Logger receives warnings (default slog.Default()).
	Logger *slog.Logger
	// Now is the clock for latency figures (default time.Now).
	Now func() time.Time
}

// CardReader identifies cards shown to the camera; the live loop emits a
// "card" event when the card tracker says a card was shown.
type CardReader interface {
	// Shown observes one frame and returns the content ids of cards that
	// were just shown (held steadily for long enough), if any.
	Shown(frame int, img gocv.Mat) ([]string, error)
}

// CardsInView is optionally implemented by a CardReader (card.Watcher
// does): the cards read in the frame last observed, drawn on the preview.
type CardsInView interface {
	InView() []card.Reading
}

// PreviewFrame is one frame for the dashboard's live view.
type PreviewFrame struct {
	// JPEG is the camera picture as read, with nothing drawn on it.
	JPEG []byte
	// Width and Height are the picture's size in pixels, the labels' space.
	Width, Height int
	Labels        []Label
}

// Label is one thing read in a preview frame.
type Label struct {
	// Box is in the frame's pixels, inside the frame; it is empty for a
	// note about the whole frame.
	Box  image.Rectangle
	Text string
	// Kind is LabelDie, LabelUncertain, LabelCard or LabelNote.
	Kind string
}

// The kinds of label; the strings are the dashboard's (FrameLabel.Kind).
const (
	LabelDie = "die"
	// LabelUncertain is a die the reader doubts: the reading asks for
	// confirmation.
	LabelUncertain = "uncertain"
	LabelCard      = "card"
	LabelNote      = "note"
)

// Stats are the figures of a run.
type Stats struct {
	Frames        int
	Rolls         int
	Cards         int
	Rejected      int
	PreviewFrames int
	// Latency is, per applied event, the time from the vision goroutine
	// deciding it to its announcements being handed to the announcers.
	Latency []time.Duration
	// Applied lists every applied event: the frame it was decided on and
	// when its announcements were handed to the announcers.
	Applied []Applied
	// RollFrames are the frame indices the roll events were decided on.
	RollFrames []int
}

// Applied is one event the tracker accepted.
type Applied struct {
	Type string
	// Seq is the event's sequence number in the session (0 if it made no
	// announcement).
	Seq       int64
	Frame     int
	Decided   time.Time
	Announced time.Time
}

type pending struct {
	ev      tracker.Event
	decided time.Time
	frame   int
}

// Run processes the source until it ends (nil), ctx is cancelled (nil: a
// clean shutdown after the last event is stored) or an error occurs.
func Run(ctx context.Context, o Options) (Stats, error) {
	if o.Source == nil || o.Dice == nil || o.Session == nil || o.Announce == nil {
		return Stats{}, errors.New("live: Source, Dice, Session and Announce are required")
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.PreviewFPS <= 0 {
		o.PreviewFPS = 10
	}
	if o.FramesDir != "" {
		if err := os.MkdirAll(o.FramesDir, 0o755); err != nil {
			return Stats{}, fmt.Errorf("live: frames directory: %w", err)
		}
	}
	md := motion.New(o.Motion)
	defer md.Close()
	rt := rolls.NewTracker(o.Roll)
	pipe := rolls.NewPipeline(o.Source, md, o.Dice, rt)
	pipe.ReadMoving = o.ReadMoving || o.Preview != nil

	events := make(chan pending, 256) // events are never dropped: the sender blocks
	var st Stats
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Drain every event even after ctx is cancelled: an event the vision
		// side decided is stored before Run returns.
		for p := range events {
			as, err := o.Session.Submit(context.WithoutCancel(ctx), p.ev)
			if err != nil {
				mu.Lock()
				st.Rejected++
				mu.Unlock()
				o.Logger.Warn("camera reading not applied", "frame", p.frame, "event", p.ev.Type, "err", err)
				_ = o.Announce.Announce(context.WithoutCancel(ctx), models.Announcement{Kind: "camera.rejected", Text: err.Error()})
				continue
			}
			for _, a := range as {
				if err := o.Announce.Announce(context.WithoutCancel(ctx), a); err != nil {
					o.Logger.Warn("announce", "err", err)
				}
			}
			now := o.Now()
			mu.Lock()
			st.Latency = append(st.Latency, now.Sub(p.decided))
			var seq int64
			if len(as) > 0 {
				seq = as[0].Seq
			}
			st.Applied = append(st.Applied, Applied{Type: p.ev.Type, Seq: seq, Frame: p.frame, Decided: p.decided, Announced: now})
			mu.Unlock()
		}
	}()

	lastPreview := time.Time{}
	cardErrs := 0
	runErr := pipe.Run(ctx, func(s *rolls.Step) error {
		mu.Lock()
		st.Frames++
		mu.Unlock()
		for _, e := range s.Events {
			re, ok := e.(rolls.Roll)
			if !ok {
				continue
			}
			ref := o.saveProof(s.Frame)
			for _, ev := range RollEvents(re, ref) {
				mu.Lock()
				st.Rolls++
				st.RollFrames = append(st.RollFrames, re.Frame)
				mu.Unlock()
				select {
				case events <- pending{ev: ev, decided: o.Now(), frame: re.Frame}:
				case <-ctx.Done():
					// Still deliver: the roll was decided before shutdown.
					events <- pending{ev: ev, decided: o.Now(), frame: re.Frame}
				}
			}
		}
		var inView []card.Reading
		if o.Cards != nil {
			ids, err := o.Cards.Shown(s.Frame.Index, s.Frame.Mat)
			if err != nil {
				cardErrs++
				if cardErrs == 1 || cardErrs%1000 == 0 {
					o.Logger.Warn("card reader", "frame", s.Frame.Index, "err", err, "errors", cardErrs)
				}
			}
			var ref string
			if len(ids) > 0 {
				ref = o.saveProof(s.Frame)
			}
			for _, id := range ids {
				mu.Lock()
				st.Cards++
				mu.Unlock()
				events <- pending{ev: tracker.Event{Type: tracker.EvCard, Card: id, Source: "camera", Frame: ref}, decided: o.Now(), frame: s.Frame.Index}
			}
			if v, ok := o.Cards.(CardsInView); ok {
				inView = v.InView()
			}
		}
		if o.Preview != nil && o.Now().Sub(lastPreview) >= time.Duration(float64(time.Second)/o.PreviewFPS) {
			lastPreview = o.Now()
			if pf, err := preview(s.Frame.Mat, s.Reading, inView); err == nil {
				o.Preview(pf)
				mu.Lock()
				st.PreviewFrames++
				mu.Unlock()
			} else {
				o.Logger.Debug("preview frame not encoded", "frame", s.Frame.Index, "err", err)
			}
		}
		return nil
	})
	close(events)
	wg.Wait()
	if errors.Is(runErr, context.Canceled) || errors.Is(runErr, io.EOF) {
		runErr = nil
	}
	return st, runErr
}

// RollEvents turns a settled roll into tracker events: the V.A.T.S. dice
// with the assist die as one roll, every other face set as a roll of its own.
// Uncertain dice are passed on so the tracker asks for confirmation. A
// reroll passes on only the sets it changed: dice of another set left lying
// (a skill die beside a luck token thrown after it) were read already.
func RollEvents(re rolls.Roll, frameRef string) []tracker.Event {
	var out []tracker.Event
	bySet := map[string]*tracker.Event{}
	var order []string
	changed := map[string]bool{}
	for _, i := range re.Changed {
		if i >= 0 && i < len(re.Dice) {
			changed[rollSet(re.Dice[i])] = true
		}
	}
	for _, d := range re.Dice {
		set := rollSet(d)
		if re.Reroll && !changed[set] {
			continue
		}
		ev, ok := bySet[set]
		if !ok {
			ev = &tracker.Event{Type: tracker.EvRoll, Set: set, Source: "camera", Frame: frameRef}
			if set == "vats" {
				ev.Set = ""
			}
			bySet[set] = ev
			order = append(order, set)
		}
		if d.Set == "assist" {
			ev.Assist = d.Face
			if d.Uncertain {
				ev.Uncertain = append(ev.Uncertain, 0)
			}
			continue
		}
		ev.Faces = append(ev.Faces, d.Face)
		if d.Uncertain {
			ev.Uncertain = append(ev.Uncertain, len(ev.Faces))
		}
	}
	for _, set := range order {
		if ev := bySet[set]; len(ev.Faces) > 0 {
			out = append(out, *ev)
		}
	}
	return out
}

// rollSet is the set of the roll a die belongs to: the assist die is
// rolled with the V.A.T.S. dice.
func rollSet(d vision.Die) string {
	if d.Set == "assist" {
		return "vats"
	}
	return d.Set
}

// saveProof writes the frame a reading came from and returns its reference.
func (o *Options) saveProof(f frame.Frame) string {
	if o.FramesDir == "" {
		return fmt.Sprintf("frame-%06d", f.Index)
	}
	name := fmt.Sprintf("%s-frame-%06d.jpg", o.Session.ID(), f.Index)
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, f.Mat, []int{gocv.IMWriteJpegQuality, 85})
	if err != nil {
		o.Logger.Warn("roll proof frame not saved", "frame", f.Index, "err", err)
		return name
	}
	defer buf.Close()
	if err := os.WriteFile(filepath.Join(o.FramesDir, name), buf.GetBytes(), 0o644); err != nil {
		o.Logger.Warn("roll proof frame not saved", "frame", f.Index, "err", err)
	}
	return name
}

// preview encodes the plain frame as JPEG and labels what was read in it.
func preview(img gocv.Mat, r vision.Reading, cards []card.Reading) (PreviewFrame, error) {
	if img.Empty() {
		return PreviewFrame{}, errors.New("empty frame")
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, img, []int{gocv.IMWriteJpegQuality, 70})
	if err != nil {
		return PreviewFrame{}, fmt.Errorf("encode preview: %w", err)
	}
	defer buf.Close()
	return PreviewFrame{
		JPEG:  append([]byte(nil), buf.GetBytes()...),
		Width: img.Cols(), Height: img.Rows(),
		Labels: labels(image.Rect(0, 0, img.Cols(), img.Rows()), r, cards),
	}, nil
}

// labels lists the dice and cards read in a frame of the given bounds
// (boxes clipped to it; one wholly outside is left out) and notes a hand
// in view.
func labels(bounds image.Rectangle, r vision.Reading, cards []card.Reading) []Label {
	var out []Label
	for _, d := range r.Dice {
		box := d.Box.Intersect(bounds)
		if box.Empty() {
			continue
		}
		l := Label{Box: box, Text: d.Face, Kind: LabelDie}
		if d.Value > 0 {
			l.Text = fmt.Sprint(d.Value)
		}
		if d.Uncertain {
			l.Kind = LabelUncertain
		}
		out = append(out, l)
	}
	for _, c := range cards {
		box := c.Box.Intersect(bounds)
		if box.Empty() {
			continue
		}
		out = append(out, Label{Box: box, Text: c.ID, Kind: LabelCard})
	}
	if r.Occluded {
		out = append(out, Label{Text: "hand in view", Kind: LabelNote})
	}
	return out
}

// Package demo is tablecam's bundled demo game: a short recorded table
// scene, regenerated deterministically by the project's own renderer (no
// video is shipped), run through the real camera pipeline. Between camera
// segments the group's typed events (setup, what a roll is for) are
// submitted, as at a real table where someone taps the dashboard.
package demo

import (
	"context"
	"fmt"
	"image"
	"io"
	"slices"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"tablecam/announce"
	"tablecam/frame"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/marker"
	"tablecam/vision/rolls"
	"tablecam/vision/synth"
)

// Seed is the demo scene's seed (an evaluation seed: never used to teach).
const Seed = synth.EvalSeedMin + 424242

// Step is one step of the demo: typed events, a dice segment filmed by the
// camera, or a card shown to the camera.
type Step struct {
	Lines []string
	Dice  *synth.SequenceSpec
	// Typed are lines typed while the dice segment plays, just before its
	// throw number TypedBefore (0 is the first), once the session waits
	// for no roll: the group has heard the throws before and says what the
	// next one is for (a luck token's use is declared before it is thrown).
	Typed       []string
	TypedBefore int
	// Card is the content id of a card shown to the camera, with its marker.
	Card string
	// Note is what happens, for the log.
	Note string
}

// Width and Height of the demo frames.
const (
	Width  = 1280
	Height = 720
)

// dice films one roll of V.A.T.S. dice on the demo's table.
func dice(seed int64, faces []string, script []synth.Step) *synth.SequenceSpec {
	return diceOf("vats", seed, faces, script)
}

// diceOf films one roll of a face set's dice on the demo's table: the empty
// table for a moment (the camera is already running), then the script.
func diceOf(set string, seed int64, faces []string, script []synth.Step) *synth.SequenceSpec {
	sc := synth.Scene{Seed: seed, SetupSeed: Seed, Width: Width, Height: Height, Background: synth.Background("wood"),
		Lighting: synth.Lighting{Level: 1}, Noise: 2}
	for _, f := range faces {
		sc.Dice = append(sc.Dice, synth.DieSpec{Set: set, Face: f})
	}
	script = append([]synth.Step{{Kind: synth.StepWait, Frames: 10}}, script...)
	return &synth.SequenceSpec{Scene: sc, Script: script, FPS: 30}
}

// Script is the demo game: setup, a test roll with a reroll, a fight with a
// reroll of one die and a hand passing over the dice, the activation card
// shown, the power token moving, and the enemy's attack fought.
func Script() []Step {
	return []Step{
		{Note: "setup", Lines: []string{
			"setup commonwealth loyal railroad survivors nora:10:SP preston:12:CE",
			"enemy add ghoul-2 with nora",
			"enemy add institute-1 adjacent preston",
			"test nora 2 P",
		}},
		{Note: "a test roll, one die rerolled", Dice: dice(Seed+1, []string{"head", "torso", "arms"}, []synth.Step{
			{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20},
			{Kind: synth.StepReroll, Die: 1, Face: "2h"}, {Kind: synth.StepWait, Frames: 20},
		})},
		{Note: "a fight", Lines: []string{"set nora rested true", "fight nora e1"}},
		{Note: "a fight, one die rerolled, a hand passing over", Dice: dice(Seed+2, []string{"head", "torso", "1h"}, []synth.Step{
			{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20},
			{Kind: synth.StepReroll, Die: 1, Face: "legs"}, {Kind: synth.StepWait, Frames: 15},
			{Kind: synth.StepHandPass}, {Kind: synth.StepWait, Frames: 15},
		})},
		{Note: "a goal completed", Lines: []string{"goal"}},
		{Note: "end of round: the activation card", Card: "activation-2"},
		{Note: "the Institute fighter's attack", Dice: dice(Seed+3, []string{"legs", "2h", "head"}, []synth.Step{
			{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20},
		})},
		{Note: "next round", Lines: []string{"round"}},
	}
}

// Games lists the games with a demo: "" (and "fallout") is Fallout: The
// Board Game's.
func Games() []string {
	return []string{tracker.GameFallout, tracker.GameTwom, tracker.GameWarfare, tracker.GameWasteland}
}

// Content is the content a game's demo plays with. Wasteland Warfare's
// skill die and luck token have no built-in face sets (the die's faces are
// unconfirmed, the token is a group's own), so its demo adds them as a
// group adds theirs: tracker.SetSkill with the faces 2–10, ap, crit and x,
// drawn by the renderer as symbols of its own, and the renderer's luck
// token (synth.WithGamePieces), whose side the camera reads.
func Content(c *models.Content, game string) *models.Content {
	if game == tracker.GameTwom {
		return withPieceSet(c, tracker.SetCombatPrefix+"yellow")
	}
	if game != tracker.GameWasteland {
		return c
	}
	if _, ok := c.FaceSet(tracker.SetLuck); !ok {
		c = synth.WithGamePieces(c)
	}
	if _, ok := c.FaceSet(tracker.SetSkill); ok {
		return c
	}
	skill := models.FaceSet{ID: tracker.SetSkill, Name: "skill die (demo)", Kind: models.KindSymbol, Assumed: true,
		Note: "the Wasteland demo's stand-in for a group's own skill die face set"}
	for _, id := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "ap", "crit", "x"} {
		skill.Faces = append(skill.Faces, models.Face{ID: id, Label: id})
	}
	cc := *c
	cc.FaceSets = append(slices.Clone(c.FaceSets), skill)
	return &cc
}

// withPieceSet adds the renderer's face set id (a game piece of
// synth.GamePieceSets) to c unless c has it: This War of Mine's demo fights
// with a hatchet, whose yellow combat die the camera reads as a group's
// taught die.
func withPieceSet(c *models.Content, id string) *models.Content {
	if _, ok := c.FaceSet(id); ok {
		return c
	}
	for _, fs := range synth.GamePieceSets(c) {
		if fs.ID == id {
			cc := *c
			cc.FaceSets = append(slices.Clone(c.FaceSets), fs)
			return &cc
		}
	}
	return c
}

// GameScript is the demo of a game of Games().
func GameScript(game string) ([]Step, error) {
	switch game {
	case "", tracker.GameFallout:
		return Script(), nil
	case tracker.GameTwom:
		return twomScript(), nil
	case tracker.GameWarfare:
		return warfareScript(), nil
	case tracker.GameWasteland:
		return wastelandScript(), nil
	}
	return nil, fmt.Errorf("no demo of %q (demos: %s)", game, strings.Join(Games(), ", "))
}

// throwD10 films d10s thrown and settling.
func throwD10(seed int64, faces ...string) *synth.SequenceSpec {
	return diceOf(tracker.SetD10, seed, faces, []synth.Step{{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20}})
}

// twomScript is a This War of Mine demo: the black die read for a lock, a
// looter killed outright by a hatchet (its yellow combat die read), the
// empathy test after the kill and a character's thirst at dusk; each
// command is typed without its reading and the camera supplies it.
func twomScript() []Step {
	return []Step{
		{Note: "setup; a lock picked", Lines: []string{"setup twom players 2 anna:4:2:3 bruno:7:1:2 cveta:9:0:2", "lockpick"}},
		{Note: "the black die for the lock", Dice: throwD10(Seed+11, "4")},
		{Note: "cveta fights a looter with a hatchet", Lines: []string{"combat hatchet"}},
		{Note: "the yellow combat die", Dice: diceOf(tracker.SetCombatPrefix+"yellow", Seed+14, []string{"hatchet"},
			[]synth.Step{{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20}})},
		{Note: "the looter is dead: an empathy test", Lines: []string{"empathy cveta bruno"}},
		{Note: "the black die for the empathy test", Dice: throwD10(Seed+12, "8")},
		{Note: "the day passes; dusk", Lines: []string{"next", "next", "next", "next", "thirst bruno"}},
		{Note: "the black die for bruno's thirst", Dice: throwD10(Seed+13, "3")},
	}
}

// warfareScript is a Fallout: Warfare demo: the light level from 2d10, a
// shot at a raider in cover and the raider's save; each command is typed
// without its reading and the camera supplies it.
func warfareScript() []Step {
	return []Step{
		{Note: "setup; the light level", Lines: []string{"setup warfare a brotherhood b raiders", "lightroll"}},
		{Note: "2d10 for the light", Dice: throwD10(Seed+21, "9", "6")},
		{Note: "a paladin shoots at a raider in cover", Lines: []string{"shoot 6 1 cover"}},
		{Note: "the d10 for the shot", Dice: throwD10(Seed+22, "5")},
		{Note: "the raider's Endurance save", Lines: []string{"save 5 mod +1"}},
		{Note: "the d10 for the save", Dice: throwD10(Seed+23, "2")},
	}
}

// wastelandScript is a Wasteland Warfare demo on the demo's skill die and
// luck token (Content): an attack that misses, saved by a luck token, and a
// skill test. Each skill line is typed without its face and the luck use
// without its side: the camera reads the skill die, then the token thrown
// beside it (seed 001: the use is declared before the throw).
func wastelandScript() []Step {
	throw := func(seed int64, face string) *synth.SequenceSpec {
		return diceOf(tracker.SetSkill, seed, []string{face}, []synth.Step{{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20}})
	}
	shot := diceOf(tracker.SetSkill, Seed+31, []string{"8"}, []synth.Step{
		{Kind: synth.StepThrow, Count: 1}, {Kind: synth.StepWait, Frames: 20},
		{Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 20}})
	shot.Scene.Dice = append(shot.Scene.Dice, synth.DieSpec{Set: tracker.SetLuck, Face: "luck"})
	return []Step{
		{Note: "setup; nora shoots at the raider", Lines: []string{"setup wasteland nora:2 raider:1", "skill nora 6 vs raider"}},
		{Note: "the skill die for nora's shot; a luck token for accuracy thrown beside it", Dice: shot,
			Typed: []string{"luck accuracy"}, TypedBefore: 1},
		{Note: "the shot stands; the raider's skill test", Lines: []string{"done", "skill raider 5"}},
		{Note: "the skill die for the raider", Dice: throw(Seed+32, "crit")},
	}
}

// Options configure a demo run.
type Options struct {
	// Game is the demo's game (GameScript); "" is Fallout: The Board Game's.
	Game     string
	Content  *models.Content
	Session  *tracker.Session
	Announce announce.Announcer
	// Dice returns the dice reader (called once per dice segment).
	Dice func() (vision.DiceReader, func(), error)
	// Cards returns the card reader (called once per card segment).
	Cards func() (live.CardReader, func(), error)
	// Markers maps content ids to marker ids for the rendered card.
	Markers *marker.Map
	// Paced plays the frames in real time (30 fps), as a camera would.
	Paced bool
	// FramesDir keeps the roll-proof frames; Preview gets the live view's
	// frames with their labels.
	FramesDir string
	Preview   func(live.PreviewFrame)
	// Log receives a line per step.
	Log io.Writer
	// Roll configures settle detection.
	Roll rolls.Config
}

// Result is what a demo run measured.
type Result struct {
	Stats []live.Stats
}

// Run plays the demo through the real pipeline.
func Run(ctx context.Context, o Options) (Result, error) {
	var res Result
	script, err := GameScript(o.Game)
	if err != nil {
		return res, err
	}
	for i, st := range script {
		if o.Log != nil && st.Note != "" {
			fmt.Fprintf(o.Log, "-- demo step %d: %s\n", i+1, st.Note)
		}
		if err := o.submit(ctx, st.Lines); err != nil {
			return res, fmt.Errorf("demo step %d: %w", i+1, err)
		}
		switch {
		case st.Dice != nil:
			seq, err := synth.NewSequence(o.Content, *st.Dice)
			if err != nil {
				return res, fmt.Errorf("demo step %d: %w", i+1, err)
			}
			var src frame.Source = seq
			var typed *typedSource
			if len(st.Typed) > 0 {
				typed, err = o.newTypedSource(seq, st.Typed, st.TypedBefore)
				if err != nil {
					seq.Close()
					return res, fmt.Errorf("demo step %d: %w", i+1, err)
				}
				src = typed
			}
			read, done, err := o.Dice()
			if err != nil {
				seq.Close()
				return res, err
			}
			stats, err := o.run(ctx, src, read, nil)
			done()
			seq.Close()
			if err == nil && typed != nil {
				err = typed.err
			}
			if err != nil {
				return res, fmt.Errorf("demo step %d: %w", i+1, err)
			}
			res.Stats = append(res.Stats, stats)
		case st.Card != "":
			src, err := newCardSource(o.Content, o.Markers, st.Card, Seed+int64(100+i))
			if err != nil {
				return res, fmt.Errorf("demo step %d: %w", i+1, err)
			}
			cards, done, err := o.Cards()
			if err != nil {
				src.Close()
				return res, err
			}
			noDice := func(gocv.Mat) (vision.Reading, error) { return vision.Reading{}, nil }
			stats, err := o.run(ctx, src, noDice, cards)
			done()
			src.Close()
			if err != nil {
				return res, fmt.Errorf("demo step %d: %w", i+1, err)
			}
			if stats.Cards == 0 {
				return res, fmt.Errorf("demo step %d: the card %s was not recognised", i+1, st.Card)
			}
			res.Stats = append(res.Stats, stats)
		}
	}
	return res, nil
}

// submit types lines into the session and says their announcements.
func (o *Options) submit(ctx context.Context, lines []string) error {
	for _, line := range lines {
		ev, ok, err := tracker.ParseLine(o.Content, line)
		if err != nil || !ok {
			return fmt.Errorf("%q: %v", line, err)
		}
		as, err := o.Session.Submit(ctx, ev)
		if err != nil {
			return fmt.Errorf("%q: %w", line, err)
		}
		for _, a := range as {
			if err := o.Announce.Announce(ctx, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// typedWait bounds how long a typed step waits for the rolls before it to
// be said.
const typedWait = time.Minute

// typedSource plays a dice segment and types its lines just before the
// frame at which its throw comes in, once the session waits for no roll
// (the pipeline has read and said the throws before).
type typedSource struct {
	*synth.Sequence
	o     *Options
	lines []string
	// at is the frame before which the lines are typed (-1 once typed),
	// next the index of the frame Read returns next.
	at, next int
	err      error
}

func (o *Options) newTypedSource(seq *synth.Sequence, lines []string, before int) (*typedSource, error) {
	n := 0
	for _, e := range seq.Events() {
		if e.Kind != synth.EventThrow {
			continue
		}
		if n == before {
			return &typedSource{Sequence: seq, o: o, lines: lines, at: e.Frame}, nil
		}
		n++
	}
	return nil, fmt.Errorf("lines typed before throw %d: the segment has %d throws", before+1, n)
}

func (s *typedSource) Read(ctx context.Context) (frame.Frame, error) {
	if s.at >= 0 && s.next == s.at {
		s.at = -1
		if err := s.typeLines(ctx); err != nil {
			s.err = err
			return frame.Frame{}, err
		}
	}
	s.next++
	return s.Sequence.Read(ctx)
}

func (s *typedSource) typeLines(ctx context.Context) error {
	deadline := time.Now().Add(typedWait)
	for s.o.Session.Game().Pending != nil {
		if time.Now().After(deadline) {
			return fmt.Errorf("%q: the rolls before were not read within %s", s.lines, typedWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return s.o.submit(ctx, s.lines)
}

// run plays one camera segment through the live pipeline (at 30 fps when
// Paced). Latency figures are the perf package's (tablecam bench).
func (o *Options) run(ctx context.Context, src frame.Source, read vision.DiceReader, cards live.CardReader) (live.Stats, error) {
	if o.Paced {
		src = frame.Paced(src, nil)
	}
	return live.Run(ctx, live.Options{Source: src, Dice: read, Cards: cards, Session: o.Session, Announce: o.Announce,
		FramesDir: o.FramesDir, Preview: o.Preview, Roll: o.Roll})
}

// The card is held up from frame cardFrom to cardTo of its segment.
const (
	cardFrom = 10
	cardTo   = 45
)

// cardSource shows the empty table, then the card held up for a second,
// then the empty table again.
type cardSource struct {
	empty, card gocv.Mat
	i, n        int
}

func newCardSource(c *models.Content, m *marker.Map, card string, seed int64) (*cardSource, error) {
	id, ok := m.MarkerFor(card)
	if !ok {
		return nil, fmt.Errorf("no marker id for %s in the marker map", card)
	}
	empty, err := synth.RenderEmpty(synth.Scene{Seed: seed, Width: Width, Height: Height, Background: synth.Background("wood"), Lighting: synth.Lighting{Level: 1}})
	if err != nil {
		return nil, err
	}
	img, _, err := synth.RenderCardScene(synth.CardScene{Seed: seed, Width: Width, Height: Height, Dict: m.Dict(),
		Background: synth.Background("wood"), Lighting: synth.Lighting{Level: 1},
		Cards: []synth.CardSpec{{Art: seed, Sticker: true, Marker: id, Width: 260, Center: image.Pt(Width/2, Height/2), Tilt: 15, Finger: true}}})
	if err != nil {
		empty.Close()
		return nil, err
	}
	return &cardSource{empty: empty, card: img, n: 60}, nil
}

func (s *cardSource) Read(ctx context.Context) (frame.Frame, error) {
	if err := ctx.Err(); err != nil {
		return frame.Frame{}, err
	}
	if s.i >= s.n {
		return frame.Frame{}, io.EOF
	}
	m := s.empty
	if s.i >= cardFrom && s.i < cardTo {
		m = s.card
	}
	f := frame.Frame{Mat: m.Clone(), Index: s.i, Time: time.Duration(s.i) * time.Second / 30}
	s.i++
	return f, nil
}

func (s *cardSource) Close() error {
	s.empty.Close()
	s.card.Close()
	return nil
}

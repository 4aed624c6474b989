// Package evaluate measures the dice reader on synthetic scenes rendered on
// held-out seeds (synth.EvalSeedMin …), per face set and condition: per-die
// accuracy, whole-roll accuracy, the uncertain rate and the rate of wrong
// readings reported as certain.
package evaluate

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/synth"
)

// Condition is a way of rendering the scenes.
type Condition struct {
	Name  string
	Apply func(s *synth.Scene, i int)
}

// Conditions lists the conditions: normal (every table in turn, normal
// light), dim, bright, blur, perspective (25° tilt), JPEG 60, touching dice,
// and each table on its own.
func Conditions() []Condition {
	out := []Condition{
		{"normal", func(s *synth.Scene, i int) {}},
		{"dim", func(s *synth.Scene, i int) { s.Lighting.Level = 0.45; s.Noise = 5 }},
		{"bright", func(s *synth.Scene, i int) { s.Lighting.Level = 1.5 }},
		{"blur", func(s *synth.Scene, i int) { s.Blur = 1.5 }},
		{"tilt25", func(s *synth.Scene, i int) { s.Tilt = 25 }},
		{"jpeg60", func(s *synth.Scene, i int) { s.JPEGQuality = 60 }},
		{"touching", func(s *synth.Scene, i int) { s.Touching = true }},
	}
	for _, b := range synth.Backgrounds() {
		b := b
		out = append(out, Condition{"table-" + string(b), func(s *synth.Scene, i int) { s.Background = b }})
	}
	return out
}

// Varied is a condition mixing light levels (0.6 … 1.4) and light colours
// on every table: new positions, turns, light and tables.
func Varied() Condition {
	return Condition{"varied", func(s *synth.Scene, i int) {
		s.Lighting.Level = []float64{1, 0.6, 1.4, 0.8, 1.2}[i%5]
		s.Lighting.Temperature = []float64{0, -0.5, 0.4, 0.2}[i%4]
		if s.Lighting.Level < 0.7 {
			s.Noise = 4
		}
	}}
}

// Spec says what to measure.
type Spec struct {
	// Set is the face set; every scene holds Dice dice of it (default 3; a
	// d6 roll 3 … 6).
	Set  string
	Dice int
	// Condition and Scenes.
	Condition Condition
	Scenes    int
	// Seed is the first evaluation seed; it must lie in synth's evaluation
	// range (default synth.EvalSeedMin).
	Seed int64
	// Style of the art (default synth.StyleDefault()).
	Style synth.Style
	// DieSize is the range of die sizes in table pixels (see
	// synth.Scene.DieSize); zero: D6Size for d6, the renderer's default
	// for the other sets.
	DieSize [2]int
	// Reference gives the detector the empty table first.
	Reference bool
	// Detect lists the face sets the detector looks for (default: just
	// Set), e.g. the product's vision.dice_sets "vats,assist": a die read
	// as a face of another set counts as read wrong.
	Detect []string
	// Training draws the scenes from the training seeds instead (default
	// first seed synth.TrainSeedMin): for tuning, never for reporting.
	Training bool
	// Failures, when not nil, receives a line per wrong or missed die.
	Failures io.Writer
}

// Result counts what happened.
type Result struct {
	Set, Condition string
	Reference      bool
	// Detect: the sets the detector looked for.
	Detect       []string
	Scenes, Dice int
	// Correct: read right and certain. Right: read right (certain or not).
	Correct, Right int
	// Uncertain: found and flagged uncertain. WrongConfident: found, read
	// wrong, not flagged; ExtraConfident: certain readings where there is
	// no die. Missed: not found.
	Uncertain, WrongConfident, ExtraConfident, Missed int
	// RollsCorrect: scenes whose every die was read right and certain,
	// with nothing extra reported as certain.
	RollsCorrect int
}

// Accuracy is Correct / Dice.
func (r Result) Accuracy() float64 { return ratio(r.Correct, r.Dice) }

// RollAccuracy is RollsCorrect / Scenes.
func (r Result) RollAccuracy() float64 { return ratio(r.RollsCorrect, r.Scenes) }

// UncertainRate is Uncertain / Dice.
func (r Result) UncertainRate() float64 { return ratio(r.Uncertain, r.Dice) }

// WrongConfidentRate is (WrongConfident + ExtraConfident) / Dice.
func (r Result) WrongConfidentRate() float64 { return ratio(r.WrongConfident+r.ExtraConfident, r.Dice) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Run renders and reads the scenes of spec with a detector built from
// profiles.
func Run(c *models.Content, profiles []*vision.DiceProfile, spec Spec) (Result, error) {
	spec = spec.withDefaults()
	res := Result{Set: spec.Set, Condition: spec.Condition.Name, Reference: spec.Reference, Detect: spec.Detect}
	det, err := vision.NewDiceDetector(c, profiles, vision.DiceConfig{Sets: spec.Detect})
	if err != nil {
		return res, fmt.Errorf("evaluate: detector for %v: %w", spec.Detect, err)
	}
	defer det.Close()
	for i := 0; i < spec.Scenes; i++ {
		seed := spec.Seed + int64(i)
		switch {
		case spec.Training && !synth.IsTrainSeed(seed):
			return res, fmt.Errorf("evaluate: seed %d is not a training seed", seed)
		case !spec.Training && !synth.IsEvalSeed(seed):
			return res, fmt.Errorf("evaluate: seed %d is not an evaluation seed", seed)
		}
		sc := SceneFor(spec, i)
		img, truth, err := synth.Render(c, sc)
		if err != nil {
			return res, err
		}
		if spec.Reference {
			bg, err := synth.RenderEmpty(sc)
			if err != nil {
				img.Close()
				return res, err
			}
			err = det.SetBackground(bg)
			bg.Close()
			if err != nil {
				img.Close()
				return res, err
			}
		} else {
			det.SetBackground(gocv.NewMat())
		}
		rd, err := det.Read(img)
		img.Close()
		if err != nil {
			return res, err
		}
		res.Scenes++
		rollOK := true
		used := make([]bool, len(rd.Dice))
		for _, t := range truth.Dice {
			res.Dice++
			bi, bd := -1, math.Inf(1)
			for j, d := range rd.Dice {
				dd := math.Hypot(float64(d.Center.X-t.Center.X), float64(d.Center.Y-t.Center.Y))
				if !used[j] && dd < bd {
					bi, bd = j, dd
				}
			}
			if bi < 0 || bd > 0.5*t.Size {
				res.Missed++
				rollOK = false
				fail(spec.Failures, seed, t, "missed", vision.Die{})
				continue
			}
			used[bi] = true
			d := rd.Dice[bi]
			right := d.Set == t.Set && d.Face == t.Face
			switch {
			case right && !d.Uncertain:
				res.Correct++
				res.Right++
			case d.Uncertain:
				res.Uncertain++
				rollOK = false
				if right {
					res.Right++
				}
				fail(spec.Failures, seed, t, "uncertain", d)
			default:
				res.WrongConfident++
				rollOK = false
				fail(spec.Failures, seed, t, "WRONG", d)
			}
		}
		for j, d := range rd.Dice {
			if !used[j] && !d.Uncertain {
				res.ExtraConfident++
				rollOK = false
				if spec.Failures != nil {
					fmt.Fprintf(spec.Failures, "seed %d: extra die %s %s at %v (conf %.2f)\n", seed, d.Set, d.Face, d.Center, d.Confidence)
				}
			}
		}
		if rollOK {
			res.RollsCorrect++
		}
	}
	return res, nil
}

func fail(w io.Writer, seed int64, t synth.DieTruth, what string, d vision.Die) {
	if w == nil {
		return
	}
	// One write per line: a writer may log each write as a line.
	line := fmt.Sprintf("seed %d: %s %s at %v: %s", seed, t.Set, t.Face, t.Center, what)
	switch {
	case d.Set != "" && d.Set != t.Set:
		line += fmt.Sprintf(" (read %s %s, conf %.2f)", d.Set, d.Face, d.Confidence)
	case d.Set != "":
		line += fmt.Sprintf(" (read %s, conf %.2f)", d.Face, d.Confidence)
	}
	fmt.Fprintln(w, line)
}

// Table renders results as a text table.
func Table(rs []Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-14s %-4s %6s %5s %8s %8s %8s %8s %7s %6s\n", "set", "condition", "ref", "scenes", "dice", "per-die", "roll", "uncert", "wrong!", "missed", "right")
	for _, r := range rs {
		ref := "no"
		if r.Reference {
			ref = "yes"
		}
		set := r.Set
		if len(r.Detect) > 0 && !slices.Equal(r.Detect, []string{r.Set}) {
			// Read by a detector of several sets.
			set += " by " + strings.Join(r.Detect, "+")
		}
		fmt.Fprintf(&b, "%-7s %-14s %-4s %6d %5d %7.2f%% %7.2f%% %7.2f%% %7.2f%% %7d %5.1f%%\n", set, r.Condition, ref, r.Scenes, r.Dice,
			100*r.Accuracy(), 100*r.RollAccuracy(), 100*r.UncertainRate(), 100*r.WrongConfidentRate(), r.Missed, 100*ratio(r.Right, r.Dice))
	}
	return b.String()
}

// D6Size returns the range of d6 sizes in the scenes (1280×720 frames):
// 25–40 px wide in a 640 px frame.
func D6Size() [2]int { return [2]int{50, 80} }

// withDefaults fills in spec's zero Seed, Style and Detect.
func (spec Spec) withDefaults() Spec {
	if spec.Seed == 0 {
		spec.Seed = synth.EvalSeedMin
		if spec.Training {
			spec.Seed = synth.TrainSeedMin
		}
	}
	if spec.Style.Name == "" {
		spec.Style = synth.StyleDefault()
	}
	if len(spec.Detect) == 0 {
		spec.Detect = []string{spec.Set}
	}
	return spec
}

// SceneFor returns the i-th scene of spec.
func SceneFor(spec Spec, i int) synth.Scene {
	spec = spec.withDefaults()
	bgs := synth.Backgrounds()
	n := spec.Dice
	if n <= 0 {
		n = 3
		if spec.Set == "d6" {
			n = 3 + i%4
		}
	}
	sc := synth.Scene{Seed: spec.Seed + int64(i), Style: spec.Style, Background: bgs[i%len(bgs)], Noise: 2,
		Lighting: synth.Lighting{Level: 1, Temperature: math.Round((float64(i%7)/3-1)*0.3*100) / 100, Gradient: 0.2}}
	for range n {
		sc.Dice = append(sc.Dice, synth.DieSpec{Set: spec.Set})
	}
	switch {
	case spec.DieSize != [2]int{}:
		sc.DieSize = spec.DieSize
	case spec.Set == "d6":
		// The d6: 25–40 px wide in a 640 px frame.
		sc.DieSize = D6Size()
	}
	if spec.Condition.Apply != nil {
		spec.Condition.Apply(&sc, i)
	}
	return sc
}

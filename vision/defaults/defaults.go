// Package defaults builds the dice profiles of the content pack's face sets
// from the synthetic renderer's art: each face is taught, like any die, from
// frames with one die rendered on training seeds (synth.TrainSeedMin …),
// never on evaluation seeds.
package defaults

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/synth"
)

// Options configures the examples. Zero fields take the defaults.
type Options struct {
	// Style is the art (default synth.StyleDefault()).
	Style synth.Style
	// PerFace is the number of examples of each face (default 6; a d6
	// gets at least two per look of the style).
	PerFace int
	// Seed is the first training seed (default synth.TrainSeedMin + 7000).
	Seed int64
	// NoBackground teaches from the frames alone, without a reference
	// frame of the empty table.
	NoBackground bool
	// Tables are the table surfaces of the pictures (default: all).
	Tables []synth.Background
}

// Examples renders teaching examples for face set set: frames of 1280×720
// with one die showing the face, at random places and turns, on every
// table, with a little variety of light and camera tilt. Close the
// returned examples' Images and Backgrounds (Release does).
func Examples(c *models.Content, set string, opt Options) ([]vision.TeachExample, error) {
	fs, ok := c.FaceSet(set)
	if !ok {
		return nil, fmt.Errorf("defaults: no face set %q", set)
	}
	if opt.Style.Name == "" {
		opt.Style = synth.StyleDefault()
	}
	per := opt.PerFace
	if per <= 0 {
		per = 6
	}
	looks := []synth.Look{{}}
	if set == "d6" {
		looks = nil
		for _, l := range opt.Style.D6 {
			looks = append(looks, synth.Look{Color: l.Body, Pips: l.Ink, Finish: l.Finish})
		}
		per = max(per, 2*len(looks))
	}
	seed := opt.Seed
	if seed == 0 {
		seed = synth.TrainSeedMin + 7000
	}
	bgs := opt.Tables
	if len(bgs) == 0 {
		bgs = synth.Backgrounds()
	}
	var out []vision.TeachExample
	n := 0
	for _, f := range fs.Faces {
		for k := range per {
			s := seed + int64(n)
			n++
			if !synth.IsTrainSeed(s) {
				Release(out)
				return nil, fmt.Errorf("defaults: seed %d is not a training seed", s)
			}
			sc := synth.Scene{
				Seed:       s,
				Style:      opt.Style,
				Background: bgs[(n+k)%len(bgs)],
				Lighting:   synth.Lighting{Level: []float64{1, 0.8, 1.2, 1}[k%4], Temperature: []float64{0, -0.3, 0.3}[k%3], Gradient: 0.2},
				Tilt:       []float64{0, 0, 10, 20}[k%4],
				Noise:      2,
				Dice:       []synth.DieSpec{{Set: set, Face: f.ID, Look: looks[k%len(looks)]}},
			}
			if set == "d6" {
				sc.DieSize = d6Size
			}
			img, _, err := synth.Render(c, sc)
			if err != nil {
				Release(out)
				return nil, err
			}
			e := vision.TeachExample{Face: f.ID, Image: img, Name: fmt.Sprintf("%s/%s/seed-%d", set, f.ID, s)}
			if !opt.NoBackground {
				bg, err := synth.RenderEmpty(sc)
				if err != nil {
					img.Close()
					Release(out)
					return nil, err
				}
				e.Background = bg
			} else {
				e.Background = gocv.NewMat()
			}
			out = append(out, e)
		}
	}
	return out, nil
}

// d6Size is the range of d6 sizes in the pictures (1280×720 frames): real
// d6 are 25–40 px wide in a 640 px frame; a little more either way.
var d6Size = [2]int{44, 84}

// Release closes the examples' Mats.
func Release(ex []vision.TeachExample) {
	for _, e := range ex {
		e.Image.Close()
		e.Background.Close()
	}
}

// Profile teaches the profile of face set set from Examples.
func Profile(c *models.Content, set string, opt Options, progress func(string)) (*vision.DiceProfile, vision.DiceSelfCheck, error) {
	fs, ok := c.FaceSet(set)
	if !ok {
		return nil, vision.DiceSelfCheck{}, fmt.Errorf("defaults: no face set %q", set)
	}
	ex, err := Examples(c, set, opt)
	if err != nil {
		return nil, vision.DiceSelfCheck{}, err
	}
	defer Release(ex)
	style := opt.Style.Name
	if style == "" {
		style = "default"
	}
	return vision.TeachDiceProfile(fs, false, ex, vision.TeachOptions{Source: "synth style " + style + " (training seeds)", SkipBad: true}, progress)
}

// Profiles teaches the profiles of sets (default: vats, assist, d6, d10,
// d20 as far as c has them).
func Profiles(c *models.Content, sets []string, opt Options) ([]*vision.DiceProfile, error) {
	if len(sets) == 0 {
		for _, s := range []string{"vats", "assist", "d6", "d10", "d20"} {
			if _, ok := c.FaceSet(s); ok {
				sets = append(sets, s)
			}
		}
	}
	var out []*vision.DiceProfile
	for i, s := range sets {
		o := opt
		if o.Seed == 0 {
			o.Seed = synth.TrainSeedMin + 7000 + int64(i)*10000
		}
		p, _, err := Profile(c, s, o, nil)
		if err != nil {
			return nil, err
		}
		if _, err := Calibrate(c, p, o.Style, o.Seed+5000, CalibrationScenes); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// CalibrationScenes is the number of scenes Profiles calibrates on.
const CalibrationScenes = 60

// Calibration is what Calibrate measured.
type Calibration struct {
	// Threshold is the chosen confidence threshold.
	Threshold float64
	// Dice, Wrong and Uncertain count the dice of the calibration scenes,
	// those read wrong but certain and those uncertain at Threshold.
	Dice, Wrong, Uncertain int
}

// calibrationConditions vary the calibration scenes.
var calibrationConditions = []func(*synth.Scene){
	func(s *synth.Scene) {},
	func(s *synth.Scene) { s.Lighting.Level = 0.5; s.Noise = 5 },
	func(s *synth.Scene) { s.Lighting.Level = 1.4 },
	func(s *synth.Scene) { s.Blur = 1.2 },
	func(s *synth.Scene) { s.Tilt = 20 },
	func(s *synth.Scene) { s.JPEGQuality = 65 },
	func(s *synth.Scene) { s.Touching = true },
}

// Calibrate chooses profile p's confidence threshold on scenes rendered on
// training seeds (from seed, scenes of them, conditions varied, with a
// reference frame): the threshold in 0.35 … 0.95 that costs least, a
// wrong reading reported as certain costing as much as 20 uncertain ones.
// It sets p.Threshold and returns what it measured.
func Calibrate(c *models.Content, p *vision.DiceProfile, style synth.Style, seed int64, scenes int) (Calibration, error) {
	if style.Name == "" {
		style = synth.StyleDefault()
	}
	type obs struct {
		conf  float64
		right bool
	}
	var all []obs
	dice := 0
	p.Threshold = 0.01
	det, err := vision.NewDiceDetector(c, []*vision.DiceProfile{p}, vision.DiceConfig{})
	if err != nil {
		return Calibration{}, err
	}
	defer det.Close()
	bgs := synth.Backgrounds()
	for i := range scenes {
		s := seed + int64(i)
		if !synth.IsTrainSeed(s) {
			return Calibration{}, fmt.Errorf("defaults: calibration seed %d is not a training seed", s)
		}
		sc := synth.Scene{Seed: s, Style: style, Background: bgs[i%len(bgs)], Noise: 2,
			Lighting: synth.Lighting{Level: 1, Temperature: float64(i%5-2) * 0.15, Gradient: 0.2}}
		for range 3 {
			sc.Dice = append(sc.Dice, synth.DieSpec{Set: p.Set.ID})
		}
		if p.Set.ID == "d6" {
			sc.DieSize = d6Size
		}
		calibrationConditions[i%len(calibrationConditions)](&sc)
		img, truth, err := synth.Render(c, sc)
		if err != nil {
			return Calibration{}, err
		}
		bg, err := synth.RenderEmpty(sc)
		if err != nil {
			img.Close()
			return Calibration{}, err
		}
		det.SetBackground(bg)
		bg.Close()
		rd, err := det.Read(img)
		img.Close()
		if err != nil {
			return Calibration{}, err
		}
		used := make([]bool, len(rd.Dice))
		for _, t := range truth.Dice {
			dice++
			bi, bd := -1, math.Inf(1)
			for j, d := range rd.Dice {
				if dd := math.Hypot(float64(d.Center.X-t.Center.X), float64(d.Center.Y-t.Center.Y)); !used[j] && dd < bd {
					bi, bd = j, dd
				}
			}
			if bi < 0 || bd > 0.5*t.Size {
				continue
			}
			used[bi] = true
			all = append(all, obs{rd.Dice[bi].Confidence, rd.Dice[bi].Face == t.Face})
		}
		for j, d := range rd.Dice {
			if !used[j] {
				all = append(all, obs{d.Confidence, false})
			}
		}
	}
	best := Calibration{Threshold: vision.DefaultDiceThreshold, Dice: dice}
	bestCost := math.Inf(1)
	for t := 0.35; t <= 0.951; t += 0.05 {
		wrong, unc := 0, 0
		for _, o := range all {
			switch {
			case o.conf < t:
				unc++
			case !o.right:
				wrong++
			}
		}
		if cost := 20*float64(wrong) + float64(unc); cost < bestCost {
			bestCost = cost
			best = Calibration{Threshold: math.Round(t*100) / 100, Dice: dice, Wrong: wrong, Uncertain: unc}
		}
	}
	p.Threshold = best.Threshold
	return best, nil
}

package synth

import (
	"math"

	"tablecam/models"
)

// saltSpec is the random stream that RandomScene and RandomSequenceSpec
// draw from (the scene's own streams use other salts).
const saltSpec uint64 = 0x5eed0100

// RandomScene returns a varied scene for seed: mostly the V.A.T.S. roll the
// product is about (two or three yellow dice, often the assist die), and d6,
// d10 and d20 rolls; every background, style, light, tilt, blur, noise, JPEG
// setting, touching dice and hands. Only face sets present in c are used.
// Scenes for tuning must come from TrainSeed*, scenes for held-out
// evaluation from EvalSeed*.
func RandomScene(c *models.Content, seed int64) Scene {
	r := rngFor(seed, saltSpec)
	s := Scene{Seed: seed}
	has := func(id string) bool { _, ok := c.FaceSet(id); return ok }
	add := func(set string, n int) {
		if !has(set) {
			return
		}
		for range n {
			s.Dice = append(s.Dice, DieSpec{Set: set})
		}
	}
	switch x := r.Float64(); {
	case x < 0.55:
		add("vats", 2+r.IntN(2))
		if r.IntN(2) == 0 {
			add("assist", 1)
		}
	case x < 0.72:
		add("d6", 1+r.IntN(6))
	case x < 0.82:
		add("d10", 1+r.IntN(3))
	case x < 0.9:
		add("d20", 1+r.IntN(2))
	default:
		// Anything of the content pack, custom sets included.
		for range 2 + r.IntN(4) {
			fs := c.FaceSets[r.IntN(len(c.FaceSets))]
			if len(fs.Faces) > 0 {
				s.Dice = append(s.Dice, DieSpec{Set: fs.ID})
			}
		}
	}
	switch x := r.Float64(); {
	case x < 0.12:
		s.Width, s.Height = 640, 480
	case x < 0.2:
		s.Width, s.Height = 1920, 1080
	default:
		s.Width, s.Height = 1280, 720
	}
	bgs := Backgrounds()
	s.Background = bgs[r.IntN(len(bgs))]
	styles := Styles()
	if r.Float64() < 0.35 {
		s.Style = styles[1+r.IntN(len(styles)-1)]
	}
	levels := []float64{0.45, 0.6, 0.8, 1, 1, 1, 1.2, 1.5}
	s.Lighting = Lighting{
		Level:       levels[r.IntN(len(levels))],
		Temperature: math.Round((r.Float64()*2-1)*0.8*100) / 100,
		Gradient:    math.Round(r.Float64()*0.7*100) / 100,
	}
	if r.Float64() < 0.2 {
		s.Lighting.Glare = 0.3 + 0.6*r.Float64()
		s.Lighting.GlareOnDie = r.IntN(2) == 0
	}
	if r.Float64() < 0.5 {
		s.Tilt = math.Round(r.Float64() * 25)
	}
	if r.Float64() < 0.3 {
		s.Blur = 0.4 + 1.1*r.Float64()
	}
	if r.Float64() < 0.1 {
		s.MotionBlur = MotionBlur{Length: 2 + 6*r.Float64(), Angle: r.Float64() * 180}
	}
	s.Noise = math.Round(r.Float64() * 6)
	if s.Lighting.Level < 0.7 {
		s.Noise += 3
	}
	if r.Float64() < 0.5 {
		s.JPEGQuality = 60 + r.IntN(36)
	}
	s.Touching = r.Float64() < 0.15
	if r.Float64() < 0.15 && len(s.Dice) > 0 {
		s.Hand = Hand{Present: true, Cover: r.IntN(2) == 0, Die: r.IntN(len(s.Dice))}
	}
	return s
}

// RandomSequenceSpec returns a varied rolling sequence for seed: a
// RandomScene (without its hand) thrown from an edge, then some of: still
// frames, a reroll of one die, a hand passing over the table, a die picked
// up and thrown back in.
func RandomSequenceSpec(c *models.Content, seed int64) SequenceSpec {
	r := rngFor(seed, saltSpec^0x5e0)
	sc := RandomScene(c, seed)
	sc.Hand = Hand{}
	if len(sc.Dice) == 0 {
		sc.Dice = []DieSpec{{Set: c.FaceSets[0].ID}}
	}
	spec := SequenceSpec{Scene: sc}
	spec.Script = []Step{{Kind: StepThrow, Edge: Edge(r.IntN(5))}, {Kind: StepWait, Frames: 10 + r.IntN(30)}}
	n := len(sc.Dice)
	for range r.IntN(4) {
		switch r.IntN(3) {
		case 0:
			spec.Script = append(spec.Script, Step{Kind: StepReroll, Die: r.IntN(n)}, Step{Kind: StepWait, Frames: 5 + r.IntN(20)})
		case 1:
			spec.Script = append(spec.Script, Step{Kind: StepHandPass}, Step{Kind: StepWait, Frames: 3 + r.IntN(10)})
		default:
			// Picked up, then thrown back in.
			spec.Script = append(spec.Script, Step{Kind: StepPickUp, Die: r.IntN(n)}, Step{Kind: StepWait, Frames: 5 + r.IntN(10)},
				Step{Kind: StepThrow}, Step{Kind: StepWait, Frames: 10 + r.IntN(20)})
		}
	}
	return spec
}

package synth

import (
	"bytes"
	"context"
	"errors"
	"image"
	"io"
	"math"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/models"
)

func content(t testing.TB) *models.Content {
	t.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// withCustomSet adds a symbol set the renderer has never heard of.
func withCustomSet(t testing.TB) *models.Content {
	t.Helper()
	c := content(t)
	err := c.MergeYAML("test.yaml", []byte(`
face_sets:
  - id: runes
    name: rune die
    kind: symbol
    faces:
      - {id: sun, hits: 1}
      - {id: moon}
      - {id: star, hurt: 1}
      - {id: tree, regions: [torso]}
      - {id: river}
      - {id: stone, hits: 2}
      - {id: wind}
      - {id: fire}
`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func renderT(t testing.TB, c *models.Content, s Scene) (gocv.Mat, Truth) {
	t.Helper()
	m, tr, err := Render(c, s)
	if err != nil {
		t.Fatalf("render seed %d: %v", s.Seed, err)
	}
	return m, tr
}

// meanDiff is the mean absolute difference per channel of two images
// (over r when it is not empty).
func meanDiff(a, b gocv.Mat, r image.Rectangle) float64 {
	if !r.Empty() {
		a, b = a.Region(r), b.Region(r)
		defer a.Close()
		defer b.Close()
	}
	d := gocv.NewMat()
	defer d.Close()
	gocv.AbsDiff(a, b, &d)
	m := d.Mean()
	return (m.Val1 + m.Val2 + m.Val3) / 3
}

// differingPixels counts the pixels where two images differ by more than
// 40 grey levels in some channel.
func differingPixels(a, b gocv.Mat) int {
	d, g := gocv.NewMat(), gocv.NewMat()
	defer d.Close()
	defer g.Close()
	gocv.AbsDiff(a, b, &d)
	ch := gocv.Split(d)
	defer func() {
		for _, m := range ch {
			m.Close()
		}
	}()
	gocv.Max(ch[0], ch[1], &g)
	gocv.Max(g, ch[2], &g)
	gocv.Threshold(g, &g, 40, 255, gocv.ThresholdBinary)
	return gocv.CountNonZero(g)
}

func sameBytes(a, b gocv.Mat) bool {
	return a.Rows() == b.Rows() && a.Cols() == b.Cols() && bytes.Equal(a.ToBytes(), b.ToBytes())
}

// sharpness is the variance of the Laplacian of the grey image.
func sharpness(m gocv.Mat) float64 {
	g, l := gocv.NewMat(), gocv.NewMat()
	defer g.Close()
	defer l.Close()
	gocv.CvtColor(m, &g, gocv.ColorBGRToGray)
	gocv.Laplacian(g, &l, gocv.MatTypeCV64F, 1, 1, 0, gocv.BorderDefault)
	mean, std := gocv.NewMat(), gocv.NewMat()
	defer mean.Close()
	defer std.Close()
	gocv.MeanStdDev(l, &mean, &std)
	s := std.GetDoubleAt(0, 0)
	return s * s
}

func fallout(seed int64) Scene {
	return Scene{Seed: seed, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}}}
}

func TestDeterministic(t *testing.T) {
	c := content(t)
	for _, s := range []Scene{
		fallout(1),
		RandomScene(c, 7),
		RandomScene(c, 8),
		{Seed: 9, Tilt: 20, Noise: 5, JPEGQuality: 70, Blur: 1, Hand: Hand{Present: true, Cover: true}, Lighting: Lighting{Glare: 0.7, GlareOnDie: true, Level: 1.4, Temperature: 0.5, Gradient: 0.5},
			Background: BackgroundPlaymat, Touching: true, Dice: []DieSpec{{Set: "d6"}, {Set: "d6"}, {Set: "d10"}, {Set: "d20"}}},
	} {
		a, ta := renderT(t, c, s)
		b, tb := renderT(t, c, s)
		if !sameBytes(a, b) {
			t.Errorf("seed %d: two renders differ", s.Seed)
		}
		if len(ta.Dice) != len(tb.Dice) || ta.Hand != tb.Hand {
			t.Errorf("seed %d: truths differ", s.Seed)
		}
		for i := range ta.Dice {
			if ta.Dice[i] != tb.Dice[i] {
				t.Errorf("seed %d die %d: %+v vs %+v", s.Seed, i, ta.Dice[i], tb.Dice[i])
			}
		}
		e1, err1 := RenderEmpty(s)
		e2, err2 := RenderEmpty(s)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !sameBytes(e1, e2) {
			t.Errorf("seed %d: two empty renders differ", s.Seed)
		}
		for _, m := range []gocv.Mat{a, b, e1, e2} {
			m.Close()
		}
	}
	if RandomScene(c, 5).Seed != 5 || RandomScene(c, 5).Background != RandomScene(c, 5).Background {
		t.Error("RandomScene is not deterministic")
	}
}

func TestSeedsDiffer(t *testing.T) {
	c := content(t)
	a, ta := renderT(t, c, fallout(100))
	b, tb := renderT(t, c, fallout(101))
	defer a.Close()
	defer b.Close()
	if d := meanDiff(a, b, image.Rectangle{}); d < 1 {
		t.Errorf("seeds 100 and 101 give nearly the same image (diff %.2f)", d)
	}
	if ta.Dice[0].Center == tb.Dice[0].Center && ta.Dice[1].Center == tb.Dice[1].Center {
		t.Error("seeds 100 and 101 place the dice alike")
	}
	// Changing the noise must not move the dice (independent streams).
	s := fallout(100)
	s.Noise = 4
	n, tn := renderT(t, c, s)
	defer n.Close()
	for i := range ta.Dice {
		if ta.Dice[i] != tn.Dice[i] {
			t.Errorf("noise moved die %d", i)
		}
	}
}

func TestSeedRanges(t *testing.T) {
	if TrainSeedMax > EvalSeedMin {
		t.Fatal("training and evaluation seed ranges overlap")
	}
	if !IsTrainSeed(0) || IsTrainSeed(TrainSeedMax) || !IsEvalSeed(EvalSeedMin) || IsEvalSeed(TrainSeedMax-1) || IsEvalSeed(EvalSeedMax) {
		t.Error("seed range helpers are wrong")
	}
}

func TestTruthInsideAndApart(t *testing.T) {
	c := withCustomSet(t)
	touchingSeen := 0
	for seed := int64(0); seed < 60; seed++ {
		s := RandomScene(c, seed)
		s.Hand = Hand{}
		s.JPEGQuality, s.Noise = 0, 0
		s.Touching = seed%4 == 0
		_, tr, err := renderTruthOnly(c, s)
		if errors.Is(err, ErrNoRoom) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		ns, _ := s.normalized(c)
		frame := image.Rect(0, 0, ns.Width, ns.Height)
		inner := frame.Inset(ns.Margin)
		if len(tr.Dice) != len(s.Dice) {
			t.Fatalf("seed %d: %d dice in truth, %d in spec", seed, len(tr.Dice), len(s.Dice))
		}
		for i, d := range tr.Dice {
			if d.Index != i || d.Set != s.Dice[i].Set {
				t.Errorf("seed %d: truth %d is die %d of set %s", seed, i, d.Index, d.Set)
			}
			if !d.Box.In(inner) {
				t.Errorf("seed %d die %d: box %v outside %v", seed, i, d.Box, inner)
			}
			for _, p := range d.Corners {
				if !p.In(d.Box.Inset(-1)) {
					t.Errorf("seed %d die %d: corner %v outside box %v", seed, i, p, d.Box)
				}
			}
			if !d.Center.In(d.Box) || d.Occluded || d.Visible < 0.97 || d.Moving || d.Held {
				t.Errorf("seed %d die %d: bad truth %+v", seed, i, d)
			}
			fs, _ := c.FaceSet(d.Set)
			if _, ok := fs.Face(d.Face); !ok {
				t.Errorf("seed %d die %d: face %q not in %s", seed, i, d.Face, d.Set)
			}
			if v, ok := models.NumericValue(fs, d.Face); fs.Kind == models.KindNumeric && (!ok || v != d.Value) {
				t.Errorf("seed %d die %d: value %d for face %q", seed, i, d.Value, d.Face)
			}
			for j := range i {
				if d.Box.Overlaps(tr.Dice[j].Box) {
					if !s.Touching {
						t.Errorf("seed %d: dice %d and %d overlap: %v %v", seed, j, i, tr.Dice[j].Box, d.Box)
					}
					touchingSeen++
				}
			}
		}
	}
	if touchingSeen == 0 {
		t.Error("Touching never placed two dice edge to edge")
	}
}

// renderTruthOnly lays a scene out and returns its truth without drawing.
func renderTruthOnly(c *models.Content, spec Scene) (*stage, Truth, error) {
	s, err := spec.normalized(c)
	if err != nil {
		return nil, Truth{}, err
	}
	st, err := newStage(c, s)
	if err != nil {
		return nil, Truth{}, err
	}
	defer st.close()
	dice, err := st.layout(rngFor(s.Seed, saltLayout))
	if err != nil {
		return nil, Truth{}, err
	}
	var fs frameState
	for _, d := range dice {
		cb := d.cube
		fs.dice = append(fs.dice, &cb)
	}
	if s.Hand.Present {
		fs.hand = st.staticHand(dice, rngFor(s.Seed, saltHand))
	}
	_, tr, err := st.render(fs, truthOnly)
	return st, tr, err
}

func TestFixedPlacement(t *testing.T) {
	c := content(t)
	s := Scene{Seed: 3, Dice: []DieSpec{
		{Set: "vats", Face: "head", Center: image.Pt(300, 200), Angle: 30, Size: 60},
		{Set: "d6", Face: "5", Center: image.Pt(900, 500), Size: 50},
		{Set: "d10", Face: "0"},
	}}
	m, tr := renderT(t, c, s)
	defer m.Close()
	d := tr.Dice
	if d[0].Face != "head" || d[1].Face != "5" || d[2].Face != "0" || d[2].Value != 10 || d[1].Value != 5 {
		t.Errorf("faces: %+v", d)
	}
	for i, want := range []image.Point{{300, 200}, {900, 500}} {
		if dx, dy := d[i].Center.X-want.X, d[i].Center.Y-want.Y; dx*dx+dy*dy > 2 {
			t.Errorf("die %d centre %v, want %v", i, d[i].Center, want)
		}
	}
	if math.Abs(d[0].Angle-30) > 1.5 || (math.Abs(d[1].Angle) > 1.5 && math.Abs(d[1].Angle-360) > 1.5) {
		t.Errorf("angles %.1f %.1f, want 30 and 0", d[0].Angle, d[1].Angle)
	}
	if math.Abs(d[0].Size-60) > 5 {
		t.Errorf("size %.1f, want about 60", d[0].Size)
	}
	// The drawn die is where the truth says: the V.A.T.S. die is yellow
	// just inside its top face's corner (its centre may be figure).
	q := image.Pt((d[0].Corners[1].X*7+d[0].Corners[3].X)/8, (d[0].Corners[1].Y*7+d[0].Corners[3].Y)/8)
	v := m.GetVecbAt(q.Y, q.X)
	if !(v[2] > 150 && v[1] > 120 && v[0] < 110) {
		t.Errorf("pixel near the V.A.T.S. die's corner is %v, want yellow", v)
	}
	// A die that does not fit is an error; so is an unknown face.
	if _, _, err := Render(c, Scene{Dice: []DieSpec{{Set: "vats", Face: "nose"}}}); !errors.Is(err, ErrSpec) {
		t.Errorf("unknown face: %v", err)
	}
	if _, _, err := Render(c, Scene{Dice: []DieSpec{{Set: "dragon"}}}); !errors.Is(err, ErrSpec) {
		t.Errorf("unknown set: %v", err)
	}
	many := Scene{Width: 320, Height: 240, DieSize: [2]int{70, 80}}
	for range 30 {
		many.Dice = append(many.Dice, DieSpec{Set: "d6"})
	}
	if _, _, err := Render(c, many); !errors.Is(err, ErrNoRoom) {
		t.Errorf("30 big dice in a small frame: %v", err)
	}
	for _, bad := range []Scene{
		{Width: 10, Height: 10}, {Tilt: 40}, {Noise: -1}, {JPEGQuality: 101}, {Lighting: Lighting{Temperature: 2}},
		{Background: "lava"}, {Hand: Hand{Present: true, Cover: true, Die: 3}},
		{Dice: []DieSpec{{Set: "d6", Center: image.Pt(5000, 10)}}},
	} {
		if _, _, err := Render(c, bad); !errors.Is(err, ErrSpec) {
			t.Errorf("%+v: got %v, want ErrSpec", bad, err)
		}
	}
}

func TestSmallD6In640(t *testing.T) {
	c := content(t)
	s := Scene{Seed: 12, Width: 640, Height: 480, DieSize: [2]int{25, 40}}
	for range 10 {
		s.Dice = append(s.Dice, DieSpec{Set: "d6"})
	}
	m, tr := renderT(t, c, s)
	defer m.Close()
	for _, d := range tr.Dice {
		if w := d.Box.Dx(); w < 25 || w > 60 || d.Size < 24 || d.Size > 46 {
			t.Errorf("d6 box %v, size %.1f: want about 25–40 px", d.Box, d.Size)
		}
	}
}

// TestTiltTruth re-projects the truth corners of a tilted scene onto the
// plane of the dice's tops: they must form squares of the dice's size.
func TestTiltTruth(t *testing.T) {
	c := content(t)
	for seed := int64(0); seed < 8; seed++ {
		s := fallout(seed)
		s.Tilt = 25
		s.DieSize = [2]int{60, 60}
		st, tr, err := renderTruthOnly(c, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range tr.Dice {
			var q [4]vec2
			for k, p := range d.Corners {
				q[k] = st.cam.unproject(vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5}, 60)
			}
			for k := range 4 {
				side := q[(k+1)%4].sub(q[k]).len()
				if math.Abs(side-60) > 4 {
					t.Errorf("seed %d: re-projected side %.1f, want 60", seed, side)
				}
			}
			d1, d2 := q[2].sub(q[0]).len(), q[3].sub(q[1]).len()
			if math.Abs(d1-d2) > 4 || math.Abs(d1-60*math.Sqrt2) > 5 {
				t.Errorf("seed %d: diagonals %.1f %.1f, want %.1f", seed, d1, d2, 60*math.Sqrt2)
			}
			// The centre re-projects to the middle of the square.
			cq := st.cam.unproject(vec2{float64(d.Center.X) + 0.5, float64(d.Center.Y) + 0.5}, 60)
			mid := q[0].lerp(q[2], 0.5)
			if cq.sub(mid).len() > 2.5 {
				t.Errorf("seed %d: centre off by %.1f", seed, cq.sub(mid).len())
			}
		}
	}
	// Foreshortening: with tilt, a die near the top of the frame is drawn
	// smaller than the same die near the bottom.
	s := Scene{Seed: 1, Tilt: 25, Dice: []DieSpec{{Set: "d6", Size: 60, Center: image.Pt(640, 80)}, {Set: "d6", Size: 60, Center: image.Pt(640, 640)}}}
	_, tr, err := renderTruthOnly(c, s)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Dice[0].Size >= tr.Dice[1].Size {
		t.Errorf("far die %.1f px, near die %.1f px: no foreshortening", tr.Dice[0].Size, tr.Dice[1].Size)
	}
}

func TestEveryFaceDistinct(t *testing.T) {
	c := withCustomSet(t)
	for _, st := range Styles() {
		for _, fs := range c.FaceSets {
			var faces []gocv.Mat
			for _, f := range fs.Faces {
				m, err := RenderFace(c, fs.ID, f.ID, st, 64)
				if err != nil {
					t.Fatal(err)
				}
				if m.Rows() != 64 || m.Cols() != 64 || m.Type() != gocv.MatTypeCV8UC3 {
					t.Fatalf("%s/%s: %dx%d type %v", fs.ID, f.ID, m.Cols(), m.Rows(), m.Type())
				}
				faces = append(faces, m)
			}
			// At least 1% of the face (41 of 4096 pixels) clearly differs.
			for i := range faces {
				for j := range i {
					if n := differingPixels(faces[i], faces[j]); n < 41 {
						t.Errorf("style %s, %s: faces %s and %s look alike (%d pixels differ)", st.Name, fs.ID, fs.Faces[j].ID, fs.Faces[i].ID, n)
					}
				}
			}
			for _, m := range faces {
				m.Close()
			}
		}
	}
	if _, err := RenderFace(c, "vats", "head", StyleDefault(), 4); !errors.Is(err, ErrSpec) {
		t.Errorf("tiny face: %v", err)
	}
}

func TestFaceArt(t *testing.T) {
	c := content(t)
	px := func(m gocv.Mat, x, y float64) [3]uint8 {
		v := m.GetVecbAt(int(y*float64(m.Rows())), int(x*float64(m.Cols())))
		return [3]uint8{v[0], v[1], v[2]}
	}
	red := func(v [3]uint8) bool { return v[2] > 150 && v[1] < 90 && v[0] < 90 }
	yellow := func(v [3]uint8) bool { return v[2] > 180 && v[1] > 150 && v[0] < 100 }
	dark := func(v [3]uint8) bool { return int(v[0])+int(v[1])+int(v[2]) < 200 }
	head, _ := RenderFace(c, "vats", "head", StyleDefault(), 128)
	defer head.Close()
	// Head highlighted red, torso dark, the body yellow, a hit dot top right.
	if !red(px(head, 0.4, 0.195)) || !dark(px(head, 0.4, 0.44)) || !yellow(px(head, 0.6, 0.8)) || !dark(px(head, 0.83, 0.19)) {
		t.Errorf("V.A.T.S. head face: head %v torso %v body %v dot %v", px(head, 0.4, 0.195), px(head, 0.4, 0.44), px(head, 0.6, 0.8), px(head, 0.83, 0.19))
	}
	two, _ := RenderFace(c, "vats", "2h", StyleDefault(), 128)
	defer two.Close()
	if !yellow(px(two, 0.4, 0.195)) || !yellow(px(two, 0.4, 0.75)) {
		t.Error("a face without regions shows a figure")
	}
	six, _ := RenderFace(c, "d6", "6", StyleDefault(), 128)
	defer six.Close()
	// A white d6 with black pips: two columns of three.
	for _, y := range []float64{0.25, 0.5, 0.75} {
		if !dark(px(six, 0.25, y)) || !dark(px(six, 0.75, y)) {
			t.Errorf("d6 six: no pip at y=%.2f", y)
		}
	}
	if dark(px(six, 0.5, 0.5)) {
		t.Error("d6 six has a centre pip")
	}
}

func TestStylesDiffer(t *testing.T) {
	c := content(t)
	for _, set := range []string{"vats", "assist", "d6", "d10", "d20"} {
		fs, _ := c.FaceSet(set)
		for _, f := range fs.Faces {
			a, _ := RenderFace(c, set, f.ID, StyleDefault(), 64)
			b, _ := RenderFace(c, set, f.ID, StyleAlt(), 64)
			if d := meanDiff(a, b, image.Rectangle{}); d < 8 {
				t.Errorf("%s/%s: default and alt styles differ by only %.1f", set, f.ID, d)
			}
			a.Close()
			b.Close()
		}
	}
	// Styles render in scenes too.
	s := fallout(4)
	a, _ := renderT(t, c, s)
	s.Style = StyleAlt()
	b, _ := renderT(t, c, s)
	defer a.Close()
	defer b.Close()
	if sameBytes(a, b) {
		t.Error("the scene looks the same in both styles")
	}
}

func TestOptionsChangeImage(t *testing.T) {
	c := content(t)
	base := fallout(21)
	b, _ := renderT(t, c, base)
	defer b.Close()
	bs := sharpness(b)
	type opt struct {
		name string
		set  func(*Scene)
		// check tests the changed image against the base one.
		check func(m gocv.Mat) string
	}
	opts := []opt{
		{"blur", func(s *Scene) { s.Blur = 1.5 }, func(m gocv.Mat) string {
			if sharpness(m) > 0.7*bs {
				return "not blurrier"
			}
			return ""
		}},
		{"motion blur", func(s *Scene) { s.MotionBlur = MotionBlur{Length: 9, Angle: 30} }, func(m gocv.Mat) string {
			if sharpness(m) > 0.7*bs {
				return "not blurrier"
			}
			return ""
		}},
		{"noise", func(s *Scene) { s.Noise = 8 }, func(m gocv.Mat) string {
			if sharpness(m) < 1.5*bs {
				return "not noisier"
			}
			return ""
		}},
		{"jpeg", func(s *Scene) { s.JPEGQuality = 40 }, func(m gocv.Mat) string {
			if d := meanDiff(m, b, image.Rectangle{}); d > 6 {
				return "JPEG changed the image too much"
			}
			return ""
		}},
		{"dim", func(s *Scene) { s.Lighting.Level = 0.45 }, func(m gocv.Mat) string {
			if m.Mean().Val2 > 0.6*b.Mean().Val2 {
				return "not darker"
			}
			return ""
		}},
		{"bright", func(s *Scene) { s.Lighting.Level = 1.5 }, func(m gocv.Mat) string {
			if m.Mean().Val2 < b.Mean().Val2*1.1 || m.Mean().Val2 > 250 {
				return "not brighter, or burnt out"
			}
			return ""
		}},
		{"warm", func(s *Scene) { s.Lighting.Temperature = -1 }, func(m gocv.Mat) string {
			if m.Mean().Val3-m.Mean().Val1 < b.Mean().Val3-b.Mean().Val1+10 {
				return "not warmer"
			}
			return ""
		}},
		{"cool", func(s *Scene) { s.Lighting.Temperature = 1 }, func(m gocv.Mat) string {
			if m.Mean().Val3-m.Mean().Val1 > b.Mean().Val3-b.Mean().Val1-10 {
				return "not cooler"
			}
			return ""
		}},
		{"gradient", func(s *Scene) { s.Lighting.Gradient = 1 }, nil},
		{"glare", func(s *Scene) { s.Lighting.Glare = 1; s.Lighting.GlareOnDie = true }, nil},
		{"no shadows", func(s *Scene) { s.NoShadows = true }, nil},
		{"tilt", func(s *Scene) { s.Tilt = 15 }, nil},
		{"felt", func(s *Scene) { s.Background = BackgroundFelt }, nil},
		{"hand", func(s *Scene) { s.Hand = Hand{Present: true} }, nil},
	}
	for _, o := range opts {
		s := base
		o.set(&s)
		m, _ := renderT(t, c, s)
		if d := meanDiff(m, b, image.Rectangle{}); d == 0 {
			t.Errorf("%s: image unchanged", o.name)
		}
		if o.check != nil {
			if msg := o.check(m); msg != "" {
				t.Errorf("%s: %s", o.name, msg)
			}
		}
		m.Close()
	}
	for _, bg := range Backgrounds() {
		s := base
		s.Background = bg
		m, _ := renderT(t, c, s)
		if bg != BackgroundWood && meanDiff(m, b, image.Rectangle{}) < 5 {
			t.Errorf("background %s looks like wood", bg)
		}
		m.Close()
	}
}

func TestHandOcclusion(t *testing.T) {
	c := content(t)
	clear := 0
	for seed := int64(0); seed < 6; seed++ {
		s := fallout(seed)
		s.Hand = Hand{Present: true, Cover: true, Die: 1}
		m, tr := renderT(t, c, s)
		if tr.Hand.Empty() || !tr.Hand.In(image.Rect(0, 0, 1280, 720)) {
			t.Errorf("seed %d: hand box %v", seed, tr.Hand)
		}
		if d := tr.Dice[1]; !d.Occluded || d.Visible > 0.95 {
			t.Errorf("seed %d: covered die has Occluded=%v Visible=%.2f", seed, d.Occluded, d.Visible)
		}
		for _, d := range tr.Dice {
			if d.Occluded && !d.Box.Overlaps(tr.Hand) {
				t.Errorf("seed %d: die %d occluded outside the hand box", seed, d.Index)
			}
		}
		m.Close()
		// A hand that need not cover a die keeps clear of them when it can.
		s.Hand.Cover = false
		_, tr, err := renderTruthOnly(c, s)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Hand.Empty() {
			t.Errorf("seed %d: no hand", seed)
		}
		for _, d := range tr.Dice {
			if d.Occluded {
				clear++
			}
		}
	}
	if clear > 2 {
		t.Errorf("a hand told to keep clear covered dice %d times in 6 scenes", clear)
	}
	s := fallout(3)
	_, tr, _ := renderTruthOnly(c, s)
	if !tr.Hand.Empty() {
		t.Error("hand box without a hand")
	}
}

func TestRenderEmpty(t *testing.T) {
	c := content(t)
	s := fallout(31)
	s.Background = BackgroundCloth
	s.Tilt = 10
	m, tr := renderT(t, c, s)
	defer m.Close()
	e, err := RenderEmpty(s)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// Same table away from the dice (and their shadows).
	for y := 0; y < 720; y += 7 {
		for x := 0; x < 1280; x += 7 {
			near := false
			for _, d := range tr.Dice {
				if image.Pt(x, y).In(d.Box.Inset(-int(d.Size))) {
					near = true
				}
			}
			if near {
				continue
			}
			if a, b := m.GetVecbAt(y, x), e.GetVecbAt(y, x); a[0] != b[0] || a[1] != b[1] || a[2] != b[2] {
				t.Fatalf("(%d,%d): %v with dice, %v without", x, y, a, b)
			}
		}
	}
	// The dice are not there.
	for _, d := range tr.Dice {
		if meanDiff(m, e, d.Box) < 10 {
			t.Errorf("empty frame shows die %d", d.Index)
		}
	}
	// With noise the reference is another exposure: close, not equal.
	s.Noise = 4
	m2, _ := renderT(t, c, s)
	defer m2.Close()
	e2, _ := RenderEmpty(s)
	defer e2.Close()
	r := image.Rect(0, 0, 100, 100)
	if d := meanDiff(m2, e2, r); d == 0 || d > 8 {
		t.Errorf("noisy reference differs by %.2f", d)
	}
}

// TestSequencesFromSeeds plans 240 varied sequences and checks their
// timelines and truth (sampled frames, truth only).
func TestSequencesFromSeeds(t *testing.T) {
	c := content(t)
	n := 240
	if testing.Short() {
		n = 40
	}
	kinds := map[StepKind]int{}
	for seed := int64(0); seed < int64(n); seed++ {
		spec := RandomSequenceSpec(c, seed)
		for _, st := range spec.Script {
			kinds[st.Kind]++
		}
		seq, err := NewSequence(c, spec)
		if errors.Is(err, ErrNoRoom) {
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		stop := seq.StoppedAt()
		if stop <= 0 || stop >= seq.Len() {
			t.Errorf("seed %d: stopped at %d of %d frames", seed, stop, seq.Len())
		}
		ev := seq.Events()
		var handIn []int
		for i, e := range ev {
			if i > 0 && e.Frame < ev[i-1].Frame {
				t.Errorf("seed %d: events out of order", seed)
			}
			switch e.Kind {
			case EventHandIn:
				handIn = append(handIn, e.Frame)
			case EventHandOut:
				// Between the hand's events the truth shows it.
				seen := false
				for f := handIn[len(handIn)-1]; f < e.Frame && !seen; f++ {
					seen = !seq.Truth(f).Hand.Empty()
				}
				if !seen {
					t.Errorf("seed %d: hand in at %d, out at %d, never in the truth", seed, handIn[len(handIn)-1], e.Frame)
				}
				if e.Frame < seq.Len() && !seq.Truth(e.Frame).Hand.Empty() {
					t.Errorf("seed %d frame %d: hand gone but in the truth", seed, e.Frame)
				}
			}
		}
		// Frames to look at: every 7th, around events.
		var frames []int
		for i := 0; i < seq.Len(); i += 7 {
			frames = append(frames, i)
		}
		for _, e := range ev {
			for _, d := range []int{-1, 0, 1} {
				if f := e.Frame + d; f >= 0 && f < seq.Len() {
					frames = append(frames, f)
				}
			}
		}
		for _, f := range frames {
			tr := seq.Truth(f)
			if !tr.Hand.Empty() && !between(ev, f) {
				t.Errorf("seed %d frame %d: a hand outside the hand events", seed, f)
			}
			for _, d := range tr.Dice {
				if d.Held && !d.Moving {
					t.Errorf("seed %d frame %d: a held die is not moving", seed, f)
				}
				if f >= stop && d.Moving && !d.Held && !hasEventAfter(ev, stop, f) {
					t.Errorf("seed %d frame %d: die %d moves after the stop", seed, f, d.Index)
				}
			}
			if f == stop {
				for _, d := range tr.Dice {
					if d.Moving {
						t.Errorf("seed %d: die %d still moving at StoppedAt", seed, d.Index)
					}
				}
			}
		}
		seq.Close()
	}
	for _, k := range []StepKind{StepThrow, StepWait, StepReroll, StepPickUp, StepHandPass} {
		if kinds[k] == 0 {
			t.Errorf("no %s step in %d random sequences", k, n)
		}
	}
}

// between reports whether frame f lies between a hand-in and a hand-out.
func between(ev []Event, f int) bool {
	in := -1
	for _, e := range ev {
		switch {
		case e.Kind == EventHandIn && e.Frame <= f:
			in = e.Frame
		case e.Kind == EventHandOut && in >= 0 && f < e.Frame:
			return true
		case e.Kind == EventHandOut:
			in = -1
		}
	}
	return false
}

func hasEventAfter(ev []Event, from, to int) bool {
	for _, e := range ev {
		if e.Frame > from && e.Frame <= to && e.Kind != EventSettled {
			return true
		}
	}
	return false
}

// rerollSpec is a small, quick sequence with every kind of step.
func rerollSpec(seed int64) SequenceSpec {
	return SequenceSpec{
		Scene: Scene{Seed: seed, Width: 640, Height: 360, Background: BackgroundFelt,
			Dice: []DieSpec{{Set: "vats", Face: "head"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}}},
		Script: []Step{
			{Kind: StepThrow, Edge: EdgeBottom}, {Kind: StepWait, Frames: 12},
			{Kind: StepReroll, Die: 1, Face: "2h"}, {Kind: StepWait, Frames: 8},
			{Kind: StepHandPass}, {Kind: StepPickUp, Die: 0}, {Kind: StepWait, Frames: 5},
		},
	}
}

func TestSequencePlays(t *testing.T) {
	c := content(t)
	seq, err := NewSequence(c, rerollSpec(5))
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	var src frame.Source = seq
	ev := seq.Events()
	find := func(k EventKind) []Event {
		var out []Event
		for _, e := range ev {
			if e.Kind == k {
				out = append(out, e)
			}
		}
		return out
	}
	settles := seq.Settles()
	if len(settles) != 2 || seq.StoppedAt() != settles[1] {
		t.Fatalf("settles %v, stopped at %d", settles, seq.StoppedAt())
	}
	firstStop := settles[0]
	rerollIn := find(EventHandIn)[0].Frame
	pick := find(EventPickUp)
	if len(pick) != 2 || pick[0].Die != 1 || pick[1].Die != 0 || len(find(EventRelease)) != 1 || len(find(EventGone)) != 1 {
		t.Fatalf("events %v", ev)
	}
	// Read every frame through the Source interface.
	var frames []gocv.Mat
	var truths []Truth
	ctx := context.Background()
	for i := 0; ; i++ {
		f, err := src.Read(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if f.Index != i || f.Time != time.Duration(i)*time.Second/30 || f.Mat.Cols() != 640 || f.Mat.Rows() != 360 {
			t.Fatalf("frame %d: index %d time %v size %dx%d", i, f.Index, f.Time, f.Mat.Cols(), f.Mat.Rows())
		}
		frames = append(frames, f.Mat)
		truths = append(truths, seq.Truth(i))
	}
	defer func() {
		for _, m := range frames {
			m.Close()
		}
	}()
	if len(frames) != seq.Len() {
		t.Fatalf("read %d frames of %d", len(frames), seq.Len())
	}
	// The first throw ends still: frames from the stop to the hand are
	// identical where the dice are.
	var area image.Rectangle
	for _, d := range truths[firstStop].Dice {
		area = area.Union(d.Box.Inset(-4))
	}
	area = area.Intersect(image.Rect(0, 0, 640, 360))
	for i := firstStop + 1; i < rerollIn; i++ {
		if d := meanDiff(frames[i], frames[firstStop], area); d != 0 {
			t.Errorf("frame %d differs from the stop frame %d by %.3f in the dice area", i, firstStop, d)
		}
	}
	if d := meanDiff(frames[firstStop-6], frames[firstStop], area); d == 0 {
		t.Error("the dice did not move before they stopped")
	}
	for i, tr := range truths[firstStop].Dice {
		if tr.Moving || tr.Held || tr.Occluded {
			t.Errorf("die %d not at rest at the stop: %+v", i, tr)
		}
	}
	if truths[firstStop].Dice[0].Face != "head" {
		t.Errorf("die 0 landed on %q, want head", truths[firstStop].Dice[0].Face)
	}
	// While a hand is in view the truth says so; held dice are occluded
	// and move every frame; the other dice stay untouched.
	before := truths[firstStop]
	heldSeen := 0
	for i, tr := range truths {
		for _, d := range tr.Dice {
			if !d.Held {
				continue
			}
			heldSeen++
			if !d.Occluded || tr.Hand.Empty() {
				t.Errorf("frame %d: held die %d not occluded by a hand", i, d.Index)
			}
			if prev := dieByIndex(truths[i-1], d.Index); prev != nil && prev.Held && prev.Center == d.Center && prev.Angle == d.Angle {
				t.Errorf("frame %d: held die %d did not move", i, d.Index)
			}
		}
		if i > firstStop && i < find(EventPickUp)[1].Frame {
			for _, k := range []int{0, 2, 3} {
				a, b := dieByIndex(tr, k), dieByIndex(before, k)
				if a == nil || a.Center != b.Center || a.Face != b.Face || a.Corners != b.Corners {
					t.Errorf("frame %d: untouched die %d changed", i, k)
				}
			}
		}
	}
	if heldSeen < 10 {
		t.Errorf("only %d held-die frames", heldSeen)
	}
	last := truths[len(truths)-1]
	if dieByIndex(last, 0) != nil {
		t.Error("the picked-up die is still in the last frame")
	}
	if d := dieByIndex(last, 1); d == nil || d.Face != "2h" || d.Moving {
		t.Errorf("rerolled die at the end: %+v", d)
	}
	for _, e := range find(EventHandOut) {
		if e.Frame < len(truths) && !truths[e.Frame].Hand.Empty() {
			t.Errorf("frame %d: hand gone but truth has %v", e.Frame, truths[e.Frame].Hand)
		}
	}
	// Frames do not depend on the order they are drawn in.
	m, _, err := seq.Frame(firstStop + 3)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBytes(m, frames[firstStop+3]) {
		t.Error("random access frame differs from the streamed one")
	}
	m.Close()
	// End of stream, then closed.
	if _, err := src.Read(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("after the end: %v", err)
	}
	src.Close()
	if _, err := src.Read(ctx); !errors.Is(err, frame.ErrClosed) {
		t.Errorf("after close: %v", err)
	}
}

func dieByIndex(tr Truth, i int) *DieTruth {
	for k := range tr.Dice {
		if tr.Dice[k].Index == i {
			return &tr.Dice[k]
		}
	}
	return nil
}

func TestSequenceDeterministic(t *testing.T) {
	c := content(t)
	spec := rerollSpec(8)
	spec.Scene.Noise = 3
	a, err := NewSequence(c, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, _ := NewSequence(c, spec)
	defer b.Close()
	other := spec
	other.Scene.Seed = 9
	o, _ := NewSequence(c, other)
	defer o.Close()
	for _, i := range []int{0, 10, a.StoppedAt(), a.Len() - 1} {
		ma, _, _ := a.Frame(i)
		mb, _, _ := b.Frame(i)
		if !sameBytes(ma, mb) {
			t.Errorf("frame %d differs between two identical sequences", i)
		}
		ma.Close()
		mb.Close()
	}
	ma, _, _ := a.Frame(a.StoppedAt())
	mo, _, _ := o.Frame(o.StoppedAt())
	if sameBytes(ma, mo) {
		t.Error("seeds 8 and 9 give the same sequence")
	}
	ma.Close()
	mo.Close()
	// Bad scripts fail cleanly.
	bad := rerollSpec(1)
	bad.Script = []Step{{Kind: StepReroll, Die: 0}}
	if _, err := NewSequence(c, bad); !errors.Is(err, ErrSpec) {
		t.Errorf("reroll before the throw: %v", err)
	}
	bad.Script = []Step{{Kind: StepPickUp, Die: 9}}
	if _, err := NewSequence(c, bad); !errors.Is(err, ErrSpec) {
		t.Errorf("pick up a missing die: %v", err)
	}
}

// TestOddSizes renders small and odd-sized frames with extreme options: an
// OpenCV assertion would abort the test binary.
func TestOddSizes(t *testing.T) {
	c := withCustomSet(t)
	sizes := [][2]int{{64, 64}, {65, 97}, {97, 65}, {333, 211}, {1001, 64}}
	for i, sz := range sizes {
		for k, bg := range Backgrounds() {
			s := Scene{Seed: int64(i*10 + k), Width: sz[0], Height: sz[1], Background: bg,
				Tilt: float64(k * 6), Blur: 2, MotionBlur: MotionBlur{Length: 5, Angle: 45}, Noise: 10, JPEGQuality: 5,
				Lighting: Lighting{Level: 3, Temperature: 1, Gradient: 1, Glare: 1, GlareOnDie: true},
				Hand:     Hand{Present: true, Cover: true}, Touching: true,
				Dice: []DieSpec{{Set: "runes"}, {Set: "d20"}}}
			m, tr, err := Render(c, s)
			if errors.Is(err, ErrNoRoom) {
				continue
			}
			if err != nil {
				t.Fatalf("%v %s: %v", sz, bg, err)
			}
			if m.Cols() != sz[0] || m.Rows() != sz[1] {
				t.Errorf("%v: got %dx%d", sz, m.Cols(), m.Rows())
			}
			if !tr.Hand.In(image.Rect(0, 0, sz[0], sz[1])) {
				t.Errorf("%v: hand box %v", sz, tr.Hand)
			}
			m.Close()
			e, err := RenderEmpty(s)
			if err != nil {
				t.Fatal(err)
			}
			e.Close()
		}
	}
	seq, err := NewSequence(c, SequenceSpec{Scene: Scene{Seed: 2, Width: 160, Height: 120, Tilt: 30, Noise: 2,
		Dice: []DieSpec{{Set: "runes"}, {Set: "d6"}}},
		Script: []Step{{Kind: StepThrow, Edge: EdgeLeft}, {Kind: StepReroll, Die: 1, Edge: EdgeTop}, {Kind: StepHandPass, Edge: EdgeRight}, {Kind: StepPickUp, Die: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	for i := 0; i < seq.Len(); i += 3 {
		m, _, err := seq.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
	}
}

// TestTruthWithoutDrawing checks that the truth computed without drawing
// (Sequence.Truth) is the truth of the drawn frame.
func TestTruthWithoutDrawing(t *testing.T) {
	c := content(t)
	for seed := int64(0); seed < 5; seed++ {
		s := RandomScene(c, seed)
		s.Hand = Hand{Present: true, Cover: true}
		m, a, err := Render(c, s)
		if errors.Is(err, ErrNoRoom) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
		_, b, err := renderTruthOnly(c, s)
		if err != nil {
			t.Fatal(err)
		}
		if a.Hand != b.Hand || len(a.Dice) != len(b.Dice) {
			t.Fatalf("seed %d: %+v vs %+v", seed, a, b)
		}
		for i := range a.Dice {
			if a.Dice[i] != b.Dice[i] {
				t.Errorf("seed %d die %d: %+v vs %+v", seed, i, a.Dice[i], b.Dice[i])
			}
		}
	}
	seq, err := NewSequence(c, rerollSpec(3))
	if err != nil {
		t.Fatal(err)
	}
	defer seq.Close()
	for i := 0; i < seq.Len(); i += 4 {
		m, a, err := seq.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
		b := seq.Truth(i)
		if a.Hand != b.Hand || len(a.Dice) != len(b.Dice) {
			t.Fatalf("frame %d: %+v vs %+v", i, a, b)
		}
		for k := range a.Dice {
			if a.Dice[k] != b.Dice[k] {
				t.Errorf("frame %d die %d differs", i, k)
			}
		}
	}
}

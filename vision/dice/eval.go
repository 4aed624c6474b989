package dice

import (
	"fmt"
	"image"
	"io"
	"math"
	"sort"

	"gocv.io/x/gocv"
)

// RealStats counts the readings of labelled dice in one group of photos.
type RealStats struct {
	Photos, Dice int
	// Found: dice the finder marked (a mark whose centre lies in the die's
	// box, each mark used once).
	Found int
	// Right: found and read right with confidence; Wrong: found and read
	// wrong with confidence; Uncertain: found, read below the confidence
	// floor (the group is asked).
	Right, Wrong, Uncertain int
	// Extra: marks that lie on no labelled die.
	Extra int
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

// Reading is one die a reader reports in a picture.
type Reading struct {
	Center image.Point
	// Box is the die's box in frame pixels (zero when a reader does not
	// say).
	Box   image.Rectangle
	Value int
	// Confidence is the reader's probability for Value (0 when a reader
	// does not say).
	Confidence float64
	// Sure is false for a reading the group must confirm.
	Sure bool
}

// DiceReader is what EvaluateReal measures: a reader of whole pictures.
type DiceReader interface {
	ReadDice(frame gocv.Mat) ([]Reading, error)
}

// ReadDice finds the dice of a frame and reads each; a reading below
// minConf is not sure. A mark the face reader sees as no die's top face
// is dropped.
func (r *Reader) ReadDice(frame gocv.Mat) ([]Reading, error) {
	found, err := r.Find(frame)
	if err != nil {
		return nil, err
	}
	out := make([]Reading, 0, len(found))
	for _, f := range found {
		face, err := r.Face(frame, f)
		if err != nil {
			return nil, err
		}
		if face.Value == 0 {
			continue
		}
		out = append(out, Reading{Center: f.Center, Box: f.Box, Value: face.Value, Confidence: face.Confidence, Sure: face.Confidence >= r.minConf})
	}
	return out, nil
}

// RealReport is what EvaluateReal counts: per rig, and per condition of
// a die (its size in the picture, whether it touches another die, the
// light on it, its sharpness, a grey or colour picture) over all rigs.
type RealReport struct {
	Rigs       map[string]*RealStats
	Conditions map[string]*RealStats
}

// All sums the rigs.
func (rp RealReport) All() RealStats {
	var all RealStats
	for _, s := range rp.Rigs {
		all.Photos += s.Photos
		all.Dice += s.Dice
		all.Found += s.Found
		all.Right += s.Right
		all.Wrong += s.Wrong
		all.Uncertain += s.Uncertain
		all.Extra += s.Extra
	}
	return all
}

func statsOf(m map[string]*RealStats, k string) *RealStats {
	st := m[k]
	if st == nil {
		st = &RealStats{}
		m[k] = st
	}
	return st
}

// EvaluateReal reads every photo and counts how its labelled dice were
// found and read.
func EvaluateReal(r DiceReader, photos []Photo) (RealReport, error) {
	rp := RealReport{Rigs: map[string]*RealStats{}, Conditions: map[string]*RealStats{}}
	for _, p := range photos {
		if err := evaluatePhoto(r, p, rp); err != nil {
			return RealReport{}, err
		}
	}
	return rp, nil
}

func evaluatePhoto(r DiceReader, p Photo, rp RealReport) error {
	img := gocv.IMRead(p.Path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return fmt.Errorf("read %s", p.Path)
	}
	found, err := r.ReadDice(img)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	st := statsOf(rp.Rigs, p.Rig)
	st.Photos++
	conds, err := conditionsOf(img, p.Dice)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	w, h := float64(img.Cols()), float64(img.Rows())
	used := make([]bool, len(found))
	for j, d := range p.Dice {
		rows := []*RealStats{st}
		for _, c := range conds[j] {
			rows = append(rows, statsOf(rp.Conditions, c))
		}
		count := func(f func(s *RealStats)) {
			for _, s := range rows {
				f(s)
			}
		}
		count(func(s *RealStats) { s.Dice++ })
		box := d.rect(w, h)
		for i, f := range found {
			if used[i] || !f.Center.In(box) {
				continue
			}
			used[i] = true
			count(func(s *RealStats) {
				s.Found++
				switch {
				case !f.Sure:
					s.Uncertain++
				case f.Value == d.Value:
					s.Right++
				default:
					s.Wrong++
				}
			})
			break
		}
	}
	for _, u := range used {
		if !u {
			st.Extra++
		}
	}
	return nil
}

// rect is the die's labelled box in a w x h picture.
func (d LabelledDie) rect(w, h float64) image.Rectangle {
	return image.Rect(int((d.CX-d.W/2)*w), int((d.CY-d.H/2)*h), int((d.CX+d.W/2)*w)+1, int((d.CY+d.H/2)*h)+1)
}

// conditionsOf names the conditions of each labelled die in img.
func conditionsOf(img gocv.Mat, dice []LabelledDie) ([][]string, error) {
	w, h := float64(img.Cols()), float64(img.Rows())
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(img, &grey, gocv.ColorBGRToGray)
	colour := isColour(img)
	out := make([][]string, len(dice))
	for j, d := range dice {
		box := d.rect(w, h).Intersect(image.Rect(0, 0, img.Cols(), img.Rows()))
		if box.Empty() {
			continue
		}
		side := math.Sqrt(d.W * w * d.H * h)
		size := "size: small (under 3% of the picture's width)"
		switch {
		case side > 0.10*w:
			size = "size: large (over 10%)"
		case side >= 0.03*w:
			size = "size: medium (3-10%)"
		}
		touch := "alone"
		for k, o := range dice {
			if k != j && touching(d, o) {
				touch = "touching another die"
				break
			}
		}
		roi := grey.Region(box)
		mean := roi.Mean().Val1
		sharpness := sharpnessOf(roi)
		roi.Close()
		light := "light: normal"
		switch {
		case mean < 70:
			light = "light: dim (die under 70 of 255)"
		case mean > 190:
			light = "light: bright (die over 190 of 255)"
		}
		sharp := "sharp"
		if sharpness < 1500 {
			sharp = "soft (the die at 48 px: Laplacian variance under 1500)"
		}
		pic := "picture: grey"
		if colour {
			pic = "picture: colour"
		}
		out[j] = []string{size, touch, light, sharp, pic}
	}
	return out, nil
}

// sharpnessOf is the variance of the Laplacian of a grey die scaled to
// 48 x 48 pixels: scaled so that a large die and a small one of the same
// focus measure alike.
func sharpnessOf(roi gocv.Mat) float64 {
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(roi, &small, image.Pt(48, 48), 0, 0, gocv.InterpolationArea)
	lap := gocv.NewMat()
	defer lap.Close()
	gocv.Laplacian(small, &lap, gocv.MatTypeCV64F, 3, 1, 0, gocv.BorderReflect101)
	_, sd := meanStd(lap)
	return sd * sd
}

func meanStd(m gocv.Mat) (float64, float64) {
	mean, sd := gocv.NewMat(), gocv.NewMat()
	defer mean.Close()
	defer sd.Close()
	gocv.MeanStdDev(m, &mean, &sd)
	return mean.GetDoubleAt(0, 0), sd.GetDoubleAt(0, 0)
}

// touching reports whether two labelled dice's boxes meet once each is
// grown by a tenth.
func touching(a, b LabelledDie) bool {
	gx := (a.W + b.W) / 2 * 1.1
	gy := (a.H + b.H) / 2 * 1.1
	return math.Abs(a.CX-b.CX) < gx && math.Abs(a.CY-b.CY) < gy
}

// isColour reports whether a BGR picture holds colour (grey pictures
// stored as BGR have equal channels).
func isColour(img gocv.Mat) bool {
	px, err := img.DataPtrUint8()
	if err != nil {
		return true
	}
	diff := 0
	n := 0
	for i := 0; i+2 < len(px); i += 3 * 97 {
		b, g, r := int(px[i]), int(px[i+1]), int(px[i+2])
		diff += max(abs(b-g), abs(g-r), abs(b-r))
		n++
	}
	return n > 0 && float64(diff)/float64(n) > 4
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// WriteRealReport writes one row per rig, then one per condition.
func WriteRealReport(w io.Writer, rp RealReport) {
	fmt.Fprintf(w, "%-46s %6s %6s %8s %8s %8s %10s %6s\n", "rig", "photos", "dice", "found", "right", "wrong", "uncertain", "extra")
	for _, k := range sortedKeys(rp.Rigs) {
		writeRow(w, k, rp.Rigs[k], true)
	}
	all := rp.All()
	writeRow(w, "all rigs", &all, true)
	fmt.Fprintf(w, "\n%-46s %6s %6s %8s %8s %8s %10s\n", "condition (all rigs)", "", "dice", "found", "right", "wrong", "uncertain")
	for _, k := range sortedKeys(rp.Conditions) {
		writeRow(w, k, rp.Conditions[k], false)
	}
}

func writeRow(w io.Writer, name string, s *RealStats, rig bool) {
	photos, extra := fmt.Sprint(s.Photos), fmt.Sprint(s.Extra)
	if !rig {
		photos, extra = "", ""
	}
	fmt.Fprintf(w, "%-46s %6s %6d %7.2f%% %7.2f%% %7.2f%% %9.2f%% %6s\n", name, photos, s.Dice,
		pct(s.Found, s.Dice), pct(s.Right, s.Dice), pct(s.Wrong, s.Dice), pct(s.Uncertain, s.Dice), extra)
}

func sortedKeys(m map[string]*RealStats) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

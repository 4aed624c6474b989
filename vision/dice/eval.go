package dice

import (
	"fmt"
	"image"
	"io"
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
	Value  int
	// Sure is false for a reading the group must confirm.
	Sure bool
}

// DiceReader is what EvaluateReal measures: a reader of whole pictures.
type DiceReader interface {
	ReadDice(frame gocv.Mat) ([]Reading, error)
}

// ReadDice finds the dice of a frame and reads each; a reading below
// minConf is not sure.
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
		out = append(out, Reading{Center: f.Center, Value: face.Value, Sure: face.Confidence >= r.minConf})
	}
	return out, nil
}

// EvaluateReal reads every photo and counts, per rig, how its labelled
// dice were found and read.
func EvaluateReal(r DiceReader, photos []Photo) (map[string]*RealStats, error) {
	out := map[string]*RealStats{}
	for _, p := range photos {
		st := out[p.Rig]
		if st == nil {
			st = &RealStats{}
			out[p.Rig] = st
		}
		if err := evaluatePhoto(r, p, st); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func evaluatePhoto(r DiceReader, p Photo, st *RealStats) error {
	img := gocv.IMRead(p.Path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return fmt.Errorf("read %s", p.Path)
	}
	found, err := r.ReadDice(img)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	st.Photos++
	w, h := float64(img.Cols()), float64(img.Rows())
	used := make([]bool, len(found))
	for _, d := range p.Dice {
		st.Dice++
		box := image.Rect(int((d.CX-d.W/2)*w), int((d.CY-d.H/2)*h), int((d.CX+d.W/2)*w)+1, int((d.CY+d.H/2)*h)+1)
		for i, f := range found {
			if used[i] || !f.Center.In(box) {
				continue
			}
			used[i] = true
			st.Found++
			switch {
			case !f.Sure:
				st.Uncertain++
			case f.Value == d.Value:
				st.Right++
			default:
				st.Wrong++
			}
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

// WriteRealReport writes one row per rig.
func WriteRealReport(w io.Writer, stats map[string]*RealStats) {
	rigs := make([]string, 0, len(stats))
	for k := range stats {
		rigs = append(rigs, k)
	}
	sort.Strings(rigs)
	fmt.Fprintf(w, "%-8s %6s %6s %8s %8s %8s %10s %6s\n", "rig", "photos", "dice", "found", "right", "wrong", "uncertain", "extra")
	for _, k := range rigs {
		s := stats[k]
		fmt.Fprintf(w, "%-8s %6d %6d %7.2f%% %7.2f%% %7.2f%% %9.2f%% %6d\n", k, s.Photos, s.Dice,
			pct(s.Found, s.Dice), pct(s.Right, s.Dice), pct(s.Wrong, s.Dice), pct(s.Uncertain, s.Dice), s.Extra)
	}
}

package dice

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision/synth"
)

var (
	evalTaught = flag.Int("taught", 0, "measure taught reading on this many held-out rendered scenes per set (worn style, evaluation seeds)")
	evalShots  = flag.Int("shots", 5, "pictures per face the taught sets are taught from")
	evalStyle  = flag.String("taught-style", "worn", "the renderer's style the taught sets are drawn in (worn: never trained on; default or alt: to calibrate on)")
	evalScale  = flag.Float64("proto-scale", PrototypeScale, "the prototype scale of the taught reading's confidence")
	evalFirst  = flag.Int64("taught-first", 0, "the first read scene's seed, after synth.EvalSeedMin (calibrate on scenes other than those measured)")
	evalMinSim = flag.Float64("min-sim", MinSimilarity, "the least similarity to a taught face at which a view is read")
	evalNoTop  = flag.Float64("no-top", DefaultNoTopFace, "the face model's probability of no top face at which a mark is dropped")
)

// taughtSets are the sets the taught reading is measured on: each taught
// from pictures in the style the models never trained on.
var taughtSets = []string{"vats", "assist", "d6", "d10", "d20"}

// teachSeed is where the teaching pictures' seeds start: evaluation seeds
// far from the read scenes' (which start at synth.EvalSeedMin).
const teachSeed = synth.EvalSeedMin + 900_000_000

// teach renders shots pictures of every face of set in style, finds the
// die in each and adds its embedding to a new taught set. It returns the
// set and how many pictures had no die found.
func teach(r *Reader, c *models.Content, set string, style synth.Style, shots int) (*Taught, int, error) {
	fs, ok := c.FaceSet(set)
	if !ok {
		return nil, 0, fmt.Errorf("no face set %s", set)
	}
	t := NewTaught(set)
	missed := 0
	for fi, f := range fs.Faces {
		for k := range shots {
			spec := synth.Scene{Seed: teachSeed + int64(1000*fi+k), Style: style, Dice: []synth.DieSpec{{Set: set, Face: f.ID}}}
			frame, truth, err := synth.Render(c, spec)
			if err != nil {
				return nil, 0, err
			}
			emb, value, err := embeddingOf(r, frame, truth)
			frame.Close()
			if err != nil {
				return nil, 0, err
			}
			if emb == nil {
				missed++
				continue
			}
			if err := t.Add(f.ID, value, emb); err != nil {
				return nil, 0, err
			}
		}
	}
	return t, missed, nil
}

// embeddingOf is the embedding of the one die of a teaching picture: the
// best mark on it (nil when none is).
func embeddingOf(r *Reader, frame gocv.Mat, truth synth.Truth) ([]float32, int, error) {
	if len(truth.Dice) != 1 {
		return nil, 0, nil
	}
	found, err := r.Find(frame)
	if err != nil {
		return nil, 0, err
	}
	for _, f := range found {
		if f.Center.In(truth.Dice[0].Box) {
			face, err := r.Face(frame, f)
			return face.Embedding, truth.Dice[0].Value, err
		}
	}
	return nil, 0, nil
}

// TestEvalTaught prints, per set and per condition, how dice in art the
// models never saw (the renderer's worn style) are read once taught from
// -shots pictures per face: found, read right with confidence, read wrong
// with confidence, or uncertain (confidence under -min-conf, or like no
// taught face). Each set is read against its own taught faces.
func TestEvalTaught(t *testing.T) {
	if *evalTaught == 0 {
		t.Skip("no -taught count")
	}
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	r := evalReader(t)
	r.SetNoTopFace(*evalNoTop)
	var style synth.Style
	for _, st := range synth.Styles() {
		if st.Name == *evalStyle {
			style = st
		}
	}
	if style.Name == "" {
		t.Fatalf("-taught-style %q: no such style", *evalStyle)
	}
	for _, set := range taughtSets {
		taught, missed, err := teach(r, c, set, style, *evalShots)
		if err != nil {
			t.Fatal(err)
		}
		taught.Scale, taught.MinSim = *evalScale, *evalMinSim
		rp := RealReport{Rigs: map[string]*RealStats{}, Conditions: map[string]*RealStats{}}
		sims := map[string][]float64{}
		for k := range *evalTaught {
			spec := synth.RandomScene(c, synth.EvalSeedMin+*evalFirst+int64(k))
			spec.Style = style
			for i := range spec.Dice {
				spec.Dice[i].Set, spec.Dice[i].Face = set, ""
			}
			if err := readTaughtScene(r, c, taught, spec, rp, sims); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Printf("\n%s taught from %d pictures per face in the %s style (%d with no die found), %d scenes:\n", set, *evalShots, style.Name, missed, *evalTaught)
		WriteRealReport(os.Stdout, rp)
		for _, k := range []string{"right", "wrong", "no die"} {
			v := sims[k]
			sort.Float64s(v)
			if len(v) > 0 {
				fmt.Printf("similarity to the nearest taught face, %s (%d): 1%% %.3f, 10%% %.3f, median %.3f, 90%% %.3f, 99%% %.3f\n",
					k, len(v), v[len(v)/100], v[len(v)/10], v[len(v)/2], v[len(v)*9/10], v[len(v)*99/100])
			}
		}
		for _, k := range []string{"right top", "wrong top", "no die top"} {
			v := sims[k]
			sort.Float64s(v)
			if len(v) > 0 {
				fmt.Printf("the face model's probability of a top face, %s (%d): 1%% %.3f, 10%% %.3f, median %.3f, 90%% %.3f, 99%% %.3f\n",
					k, len(v), v[len(v)/100], v[len(v)/10], v[len(v)/2], v[len(v)*9/10], v[len(v)*99/100])
			}
		}
	}
}

// readTaughtScene counts a rendered scene's dice read against taught.
// sims gathers the similarity to the nearest taught face of the dice read
// right ("right"), read wrong ("wrong") and of marks on no die ("no die").
func readTaughtScene(r *Reader, c *models.Content, taught *Taught, spec synth.Scene, rp RealReport, sims map[string][]float64) error {
	frame, truth, err := synth.Render(c, spec)
	if err != nil {
		return err
	}
	defer frame.Close()
	marks, err := r.Find(frame)
	if err != nil {
		return err
	}
	// As ReadTaught: a mark the face model takes for no die's top face is
	// dropped.
	var found []Found
	var faces []Face
	for _, f := range marks {
		face, err := r.Face(frame, f)
		if err != nil {
			return err
		}
		if face.noTop() < r.noTop {
			found, faces = append(found, f), append(faces, face)
		}
	}
	all := statsOf(rp.Rigs, "scenes")
	all.Photos++
	conds := sceneConditions(spec)
	used := make([]bool, len(found))
	for _, d := range truth.Dice {
		if d.Visible < 0.5 || d.Occluded {
			continue
		}
		rows := []*RealStats{all}
		for _, k := range conds {
			rows = append(rows, statsOf(rp.Conditions, k))
		}
		for _, s := range rows {
			s.Dice++
		}
		for i, f := range found {
			if used[i] || !f.Center.In(d.Box) {
				continue
			}
			used[i] = true
			face := faces[i]
			tr := taught.Read(face.Embedding)
			if tr.Face == d.Face {
				sims["right"] = append(sims["right"], tr.Similarity)
				sims["right top"] = append(sims["right top"], 1-face.Probs[len(face.Probs)-1])
			} else {
				sims["wrong"] = append(sims["wrong"], tr.Similarity)
				sims["wrong top"] = append(sims["wrong top"], 1-face.Probs[len(face.Probs)-1])
			}
			for _, s := range rows {
				s.Found++
				switch {
				case tr.Face == "" || tr.Confidence < r.minConf:
					s.Uncertain++
				case tr.Face == d.Face:
					s.Right++
				default:
					s.Wrong++
				}
			}
			break
		}
	}
	for i, u := range used {
		if u {
			continue
		}
		all.Extra++
		face := faces[i]
		sims["no die"] = append(sims["no die"], taught.Read(face.Embedding).Similarity)
		sims["no die top"] = append(sims["no die top"], 1-face.Probs[len(face.Probs)-1])
	}
	return nil
}

package dice

import (
	"flag"
	"fmt"
	"image"
	"os"
	"testing"

	"tablecam/models"
	"tablecam/vision/synth"
)

var evalRendered = flag.Int("rendered", 0, "measure the reader on this many held-out rendered scenes (evaluation seeds)")

// TestEvalRendered prints, per condition, how the reader finds the dice of
// rendered scenes it never trained on (the renderer's evaluation seeds;
// train/render writes training scenes from the training seeds only and
// never in the worn style), and how it reads their d6 faces.
func TestEvalRendered(t *testing.T) {
	if *evalRendered == 0 {
		t.Skip("no -rendered count")
	}
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	r := evalReader(t)
	all := RealReport{Rigs: map[string]*RealStats{}, Conditions: map[string]*RealStats{}}
	d6 := RealReport{Rigs: map[string]*RealStats{}, Conditions: map[string]*RealStats{}}
	for k := range *evalRendered {
		spec := synth.RandomScene(c, synth.EvalSeedMin+int64(k))
		if err := evaluateScene(r, c, spec, all, d6); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("Every die (found; the face reader names d6 faces only, so the reading columns are empty), %d scenes:\n", *evalRendered)
	WriteRealReport(os.Stdout, all)
	fmt.Println("\nThe d6 dice, found and read:")
	WriteRealReport(os.Stdout, d6)
}

// evaluateScene counts a rendered scene's dice in all, and its d6 dice
// with their readings in d6.
func evaluateScene(r *Reader, c *models.Content, spec synth.Scene, all, d6 RealReport) error {
	frame, truth, err := synth.Render(c, spec)
	if err != nil {
		return err
	}
	defer frame.Close()
	found, err := r.Find(frame)
	if err != nil {
		return err
	}
	style := spec.Style.Name
	if style == "" {
		style = synth.StyleDefault().Name
	}
	st := statsOf(all.Rigs, "style: "+style)
	st.Photos++
	conds := sceneConditions(spec)
	used := make([]bool, len(found))
	hasD6 := false
	for _, d := range truth.Dice {
		if d.Visible < 0.5 || d.Occluded {
			continue
		}
		rows := []*RealStats{st, statsOf(all.Conditions, "set: "+d.Set)}
		for _, k := range conds {
			rows = append(rows, statsOf(all.Conditions, k))
		}
		var read []*RealStats
		if d.Set == "d6" {
			hasD6 = true
			read = append(read, statsOf(d6.Rigs, "style: "+style))
			for _, k := range conds {
				read = append(read, statsOf(d6.Conditions, k))
			}
		}
		for _, s := range append(rows, read...) {
			s.Dice++
		}
		for i, f := range found {
			if used[i] || !f.Center.In(d.Box) {
				continue
			}
			used[i] = true
			for _, s := range rows {
				s.Found++
			}
			if len(read) == 0 {
				break
			}
			face, err := r.Face(frame, f)
			if err != nil {
				return err
			}
			for _, s := range read {
				s.Found++
				switch {
				case face.Value == 0 || face.Confidence < r.minConf:
					s.Uncertain++
				case face.Value == d.Value:
					s.Right++
				default:
					s.Wrong++
				}
			}
			break
		}
	}
	if hasD6 {
		statsOf(d6.Rigs, "style: "+style).Photos++
	}
	for i, u := range used {
		if !u && found[i].Center.In(image.Rect(0, 0, frame.Cols(), frame.Rows())) {
			st.Extra++
		}
	}
	return nil
}

// sceneConditions names the conditions of a rendered scene: its table,
// light, tilt, blur, touching dice and hand.
func sceneConditions(spec synth.Scene) []string {
	conds := []string{"table: " + string(spec.Background)}
	if spec.Background == "" {
		conds[0] = "table: wood"
	}
	switch {
	case spec.Lighting.Level < 0.7:
		conds = append(conds, "light: dim")
	case spec.Lighting.Level > 1.1:
		conds = append(conds, "light: bright")
	default:
		conds = append(conds, "light: normal")
	}
	if spec.Tilt > 0 {
		conds = append(conds, "camera tilted")
	}
	if spec.Blur > 0 || spec.MotionBlur.Length > 0 {
		conds = append(conds, "blurred")
	}
	if spec.Touching {
		conds = append(conds, "touching dice")
	}
	if spec.Hand.Present {
		conds = append(conds, "a hand in the picture")
	}
	return conds
}

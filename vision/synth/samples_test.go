package synth

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestWriteSamples writes sample renders for a human to look at when
// SYNTH_SAMPLES names a directory: go test -run WriteSamples ./vision/synth/
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("SYNTH_SAMPLES")
	if dir == "" {
		t.Skip("set SYNTH_SAMPLES=/some/dir to write sample renders")
	}
	c := withCustomSet(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, m gocv.Mat) {
		t.Helper()
		if err := WritePNG(filepath.Join(dir, name), m); err != nil {
			t.Fatal(err)
		}
	}
	// Face sheets: every face of every set, both styles.
	for _, st := range Styles() {
		for _, fs := range c.FaceSets {
			sheet := gocv.NewMatWithSize(136, 136*len(fs.Faces), gocv.MatTypeCV8UC3)
			for i, f := range fs.Faces {
				m, err := RenderFace(c, fs.ID, f.ID, st, 128)
				if err != nil {
					t.Fatal(err)
				}
				r := sheet.Region(imageRect(136*i+4, 4, 128, 128))
				m.CopyTo(&r)
				r.Close()
				m.Close()
			}
			write(fmt.Sprintf("faces-%s-%s.png", st.Name, fs.ID), sheet)
			sheet.Close()
		}
	}
	scenes := map[string]Scene{
		"vats-wood":          {Seed: 1, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}}},
		"d6-felt":            {Seed: 2, Background: BackgroundFelt, Dice: []DieSpec{{Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}}},
		"mixed-playmat-tilt": {Seed: 3, Background: BackgroundPlaymat, Tilt: 25, Dice: []DieSpec{{Set: "vats"}, {Set: "d10"}, {Set: "d20"}, {Set: "d6"}, {Set: "assist"}}},
		"alt-slate-hand":     {Seed: 4, Background: BackgroundSlate, Style: StyleAlt(), Hand: Hand{Present: true, Cover: true, Die: 1}, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}}},
		"cloth-dim-warm":     {Seed: 5, Background: BackgroundCloth, Lighting: Lighting{Level: 0.5, Temperature: -0.8, Gradient: 0.6}, Noise: 6, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "d6"}}},
		"paper-bright-glare": {Seed: 6, Background: BackgroundPaper, Lighting: Lighting{Level: 1.4, Temperature: 0.7, Glare: 0.8, GlareOnDie: true}, Touching: true, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "vats"}}},
		"runes-d10-alt-felt": {Seed: 8, Style: StyleAlt(), Background: BackgroundFelt, Tilt: 12, Dice: []DieSpec{{Set: "runes"}, {Set: "runes"}, {Set: "d10"}, {Set: "d10"}, {Set: "d20"}, {Set: "vats"}}},
		"d6-looks-paper":     {Seed: 9, Background: BackgroundPaper, Dice: []DieSpec{{Set: "d6", Look: Look{Finish: FinishTranslucent, Color: rgb(220, 40, 40)}}, {Set: "d6", Look: Look{Finish: FinishMarbled}}, {Set: "d6", Look: Look{Color: rgb(20, 20, 20), Pips: rgb(230, 190, 60)}}, {Set: "d6", Look: Look{Pips: rgb(30, 60, 210)}}, {Set: "d6"}}},
		"d6-small-640":       {Seed: 7, Width: 640, Height: 480, DieSize: [2]int{25, 40}, Background: BackgroundWood, Blur: 1, JPEGQuality: 60, Dice: []DieSpec{{Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}, {Set: "d6"}}},
	}
	seq, err := NewSequence(c, SequenceSpec{
		Scene: Scene{Seed: 11, Background: BackgroundFelt, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}}},
		Script: []Step{{Kind: StepThrow, Edge: EdgeBottom}, {Kind: StepWait, Frames: 10}, {Kind: StepReroll, Die: 1},
			{Kind: StepWait, Frames: 6}, {Kind: StepHandPass}, {Kind: StepPickUp, Die: 0}, {Kind: StepWait, Frames: 6}},
	})
	if err != nil {
		t.Fatal(err)
	}
	writeSheet(t, filepath.Join(dir, "sequence-sheet.png"), seq, 3)
	// Full frames: dice tumbling in, and a die held in the hand.
	frames := map[string]int{"sequence-tumbling.png": seq.Settles()[0] / 3}
	for _, e := range seq.Events() {
		if e.Kind == EventPickUp {
			frames["sequence-held.png"] = e.Frame + 4
			break
		}
	}
	for name, i := range frames {
		m, _, err := seq.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		write(name, m)
		m.Close()
	}
	seq.Close()
	for name, sc := range scenes {
		m, tr, err := Render(c, sc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		write(name+".png", m)
		writeZoom(t, filepath.Join(dir, name+"-zoom.png"), m, tr)
		m.Close()
	}
}

func imageRect(x, y, w, h int) image.Rectangle { return image.Rect(x, y, x+w, y+h) }

// writeZoom writes the dice of a frame enlarged 3×, with the truth drawn on
// a second copy below (box in green, top face in magenta, centre in cyan).
func writeZoom(t *testing.T, path string, m gocv.Mat, tr Truth) {
	t.Helper()
	if len(tr.Dice) == 0 {
		return
	}
	const cell = 240
	sheet := gocv.NewMatWithSize(2*cell, cell*len(tr.Dice), gocv.MatTypeCV8UC3)
	defer sheet.Close()
	over := m.Clone()
	defer over.Close()
	for _, d := range tr.Dice {
		gocv.Rectangle(&over, d.Box, color.RGBA{0, 255, 0, 255}, 1)
		pts := gocv.NewPointsVectorFromPoints([][]image.Point{d.Corners[:]})
		gocv.Polylines(&over, pts, true, color.RGBA{255, 0, 255, 255}, 1)
		pts.Close()
		gocv.Circle(&over, d.Center, 2, color.RGBA{0, 255, 255, 255}, -1)
		gocv.Line(&over, d.Corners[0], d.Corners[1], color.RGBA{255, 0, 0, 255}, 1)
	}
	if !tr.Hand.Empty() {
		gocv.Rectangle(&over, tr.Hand, color.RGBA{255, 128, 0, 255}, 2)
	}
	for i, d := range tr.Dice {
		c := d.Box.Min.Add(d.Box.Max).Div(2)
		r := image.Rect(c.X-cell/6, c.Y-cell/6, c.X+cell/6, c.Y+cell/6).Intersect(image.Rect(0, 0, m.Cols(), m.Rows()))
		if r.Empty() {
			continue
		}
		for row, src := range []gocv.Mat{m, over} {
			crop := src.Region(r)
			big := gocv.NewMat()
			gocv.Resize(crop, &big, image.Pt(r.Dx()*3, r.Dy()*3), 0, 0, gocv.InterpolationNearestNeighbor)
			dst := sheet.Region(imageRect(i*cell, row*cell, big.Cols(), big.Rows()))
			big.CopyTo(&dst)
			dst.Close()
			big.Close()
			crop.Close()
		}
		gocv.PutText(&sheet, fmt.Sprintf("%s %s %.0f", d.Set, d.Face, d.Angle), image.Pt(i*cell+4, 14), gocv.FontHersheyPlain, 1, color.RGBA{255, 255, 255, 255}, 1)
		if d.Occluded {
			gocv.PutText(&sheet, fmt.Sprintf("occluded %.2f", d.Visible), image.Pt(i*cell+4, 30), gocv.FontHersheyPlain, 1, color.RGBA{255, 128, 0, 255}, 1)
		}
	}
	if err := WritePNG(path, sheet); err != nil {
		t.Fatal(err)
	}
	if err := WritePNG(path[:len(path)-len("-zoom.png")]+"-truth.png", over); err != nil {
		t.Fatal(err)
	}
}

// writeSheet writes every step-th frame of a sequence at quarter size, with
// the frame index, events and truth flags.
func writeSheet(t *testing.T, path string, seq *Sequence, step int) {
	t.Helper()
	w, h := seq.Spec().Scene.Width/4, seq.Spec().Scene.Height/4
	n := (seq.Len() + step - 1) / step
	cols := 8
	rows := (n + cols - 1) / cols
	sheet := gocv.NewMatWithSize(rows*h, cols*w, gocv.MatTypeCV8UC3)
	defer sheet.Close()
	events := map[int]string{}
	for _, e := range seq.Events() {
		events[e.Frame] += e.Kind.String() + " "
	}
	for k := range n {
		i := k * step
		m, tr, err := seq.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		small := gocv.NewMat()
		gocv.Resize(m, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		label := fmt.Sprintf("%d", i)
		for _, d := range tr.Dice {
			switch {
			case d.Held:
				label += fmt.Sprintf(" H%d", d.Index)
			case d.Moving:
				label += fmt.Sprintf(" M%d", d.Index)
			case d.Occluded:
				label += fmt.Sprintf(" O%d", d.Index)
			}
		}
		gocv.PutText(&small, label, image.Pt(3, 12), gocv.FontHersheyPlain, 0.9, color.RGBA{255, 255, 255, 255}, 1)
		ev := ""
		for j := i; j < i+step; j++ {
			ev += events[j]
		}
		gocv.PutText(&small, ev, image.Pt(3, h-5), gocv.FontHersheyPlain, 0.9, color.RGBA{0, 255, 255, 255}, 1)
		r := sheet.Region(imageRect((k%cols)*w, (k/cols)*h, w, h))
		small.CopyTo(&r)
		r.Close()
		small.Close()
		m.Close()
	}
	if err := WritePNG(path, sheet); err != nil {
		t.Fatal(err)
	}
}

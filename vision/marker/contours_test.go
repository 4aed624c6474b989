package marker

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

// findDarkQuadsRef is the contour search done with gocv's calls, one
// per contour and point (what tc_dark_polys replaced).
func findDarkQuadsRef(bin gocv.Mat, scale float64, origin image.Point, minSide, maxSide float64,
	blobs *[]image.Rectangle, blob [2]float64, cut bool) []Candidate {
	var out []Candidate
	cs := gocv.FindContours(bin, gocv.RetrievalList, gocv.ChainApproxSimple)
	defer cs.Close()
	minPerim := 4 * minSide * scale * 0.8
	maxPerim := 4 * maxSide * scale * 1.3
	pts := func(ap gocv.PointVector) [][2]float64 {
		var p [][2]float64
		for k := range ap.Size() {
			q := ap.At(k)
			p = append(p, [2]float64{float64(q.X), float64(q.Y)})
		}
		return p
	}
	for i := range cs.Size() {
		c := cs.At(i)
		if c.Size() < 4 {
			continue
		}
		r := gocv.BoundingRect(c)
		if blobs != nil {
			w, h := float64(r.Dx()), float64(r.Dy())
			if w >= blob[0]*scale && h >= blob[0]*scale && w <= blob[1]*scale && h <= blob[1]*scale && math.Max(w, h) <= 1.8*math.Min(w, h) {
				full := image.Rect(int(float64(r.Min.X)/scale), int(float64(r.Min.Y)/scale), int(math.Ceil(float64(r.Max.X)/scale)), int(math.Ceil(float64(r.Max.Y)/scale)))
				*blobs = append(*blobs, full.Add(origin))
			}
		}
		if float64(2*(r.Dx()+r.Dy())) < minPerim || float64(2*(r.Dx()+r.Dy())) > 1.5*maxPerim {
			continue
		}
		perim := gocv.ArcLength(c, true)
		if perim < minPerim || perim > maxPerim {
			continue
		}
		ap := gocv.ApproxPolyDP(c, math.Max(1, 0.04*perim), true)
		p := pts(ap)
		ap.Close()
		switch {
		case len(p) == 4:
			quad := [4][2]float64{p[0], p[1], p[2], p[3]}
			out = addDarkQuad(out, quad, false, scale, origin, minSide, maxSide)
			if cut {
				fine := gocv.ApproxPolyDP(c, math.Max(1, 0.015*perim), true)
				if fp := pts(fine); len(fp) >= 5 {
					out = addCutQuad(out, fp, quad, scale, origin, minSide, maxSide)
				}
				fine.Close()
			}
		case cut && len(p) >= 5:
			out = addCutQuad(out, p, [4][2]float64{}, scale, origin, minSide, maxSide)
		}
	}
	return out
}

// TestCardFindDarkQuadsMatchesGocv: the one-call contour search finds the
// quads and blobs that gocv's calls do, on squares, cut squares, small
// blobs and speckle, in the same order, also when it must grow its
// buffers.
func TestCardFindDarkQuadsMatchesGocv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for scene := range 20 {
		bin := gocv.Zeros(240, 320, gocv.MatTypeCV8UC1)
		white := color.RGBA{255, 255, 255, 0}
		for range 12 {
			x, y, s := rng.IntN(280), rng.IntN(200), 8+rng.IntN(40)
			a := rng.Float64() * math.Pi
			pv := gocv.NewPointsVector()
			var ps []image.Point
			for k := range 4 {
				ang := a + float64(k)*math.Pi/2
				ps = append(ps, image.Pt(x+int(float64(s)*math.Cos(ang)), y+int(float64(s)*math.Sin(ang))))
			}
			if rng.IntN(2) == 0 { // cut a corner
				c, n := ps[0], ps[1]
				ps[0] = image.Pt(c.X+(n.X-c.X)/4, c.Y+(n.Y-c.Y)/4)
				ps = slices.Insert(ps, 0, image.Pt(c.X+(ps[3].X-c.X)/4, c.Y+(ps[3].Y-c.Y)/4))
			}
			pv.Append(gocv.NewPointVectorFromPoints(ps))
			gocv.FillPoly(&bin, pv, white)
			pv.Close()
		}
		for range 300 {
			bin.SetUCharAt(rng.IntN(240), rng.IntN(320), 255)
		}
		scale := []float64{1, 0.5}[scene%2]
		origin := image.Pt(rng.IntN(50), rng.IntN(50))
		var b contourBufs
		if scene%4 < 2 {
			b.reserve(1) // the search must grow its buffers
		}
		var gotBlobs, wantBlobs []image.Rectangle
		got, err := b.findDarkQuads(bin, scale, origin, 12, 120, nil, &gotBlobs, [2]float64{14, 40}, true)
		if err != nil {
			t.Fatal(err)
		}
		want := findDarkQuadsRef(bin, scale, origin, 12, 120, &wantBlobs, [2]float64{14, 40}, true)
		if len(want) == 0 {
			t.Fatalf("scene %d: the reference found no quads", scene)
		}
		if !slices.EqualFunc(got, want, func(a, b Candidate) bool { return a.Q == b.Q && a.cut == b.cut }) {
			t.Errorf("scene %d: got %d quads %v, want %d %v", scene, len(got), got, len(want), want)
		}
		if !slices.Equal(gotBlobs, wantBlobs) {
			t.Errorf("scene %d: got blobs %v, want %v", scene, gotBlobs, wantBlobs)
		}
		bin.Close()
	}
}

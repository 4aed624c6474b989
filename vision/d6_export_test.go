package vision

import (
	"fmt"
	"image"
	"math"
	"strings"

	"gocv.io/x/gocv"
)

// D6ExplainForTest finds the top faces in img with d's finder and, for each
// one within dist pixels of at, tells how the d6 reader sees it (template
// match, pip count, the final reading), and the same for the quadrilateral
// q (the true top face). The patches are appended to patches as 32×32 BGR
// images.
func (d *DiceDetector) D6ExplainForTest(img gocv.Mat, at image.Point, dist float64, q [4]image.Point, patches *[]image.Image) (string, error) {
	im, err := viewBGR(img)
	if err != nil {
		return "", err
	}
	lim := topLimits{minSide: d.cfg.MinSide * float64(im.w), maxSide: d.cfg.MaxSide * float64(im.w)}
	cands, _, err := d.find(img, im, d.bodies, lim, false)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	explain := func(name string, rect dieRect) {
		ps := &d.ps
		extractPatch(im, rect.corners(), facePatchMargin, true, &ps.patch)
		ps.queryFeatures()
		var r *faceReader
		for _, x := range d.readers {
			if x.pips {
				r = x
			}
		}
		m := r.match(ps)
		n, pconf := countPips(&ps.patch)
		*patches = append(*patches, patchImage(&ps.patch))
		die, ok := d.readDie(im, dieCandidate{rect: rect})
		fmt.Fprintf(&b, "  %s c=(%.0f,%.0f) side=%.1fx%.1f: match %s score %.2f margin %.2f conf %.2f; pips %d conf %.2f; read ok=%v %s conf %.2f (thr %.2f) contrast %.1f\n",
			name, rect.C.X, rect.C.Y, 2*rect.HU, 2*rect.HV, r.faces[m.face], m.score, m.margin, m.confidence(), n, pconf, ok, die.Face, die.Confidence, r.threshold, ps.patch.contrast())
		b0, g0, r0 := im.sample(rect.C)
		var sc pipScratch
		fmt.Fprintf(&b, "    pips %+v\n", sc.read(&ps.patch))
		fmt.Fprintf(&b, "    edges %.0f (min %.0f) lone %v\n", edgeSidesForTest(im, rect), math.Max(10, 0.12*float64(0.114*b0+0.587*g0+0.299*r0)), d.lonePip(im, rect, &ps.patch))
	}
	for i, c := range cands {
		if c.rect.C.sub(diePt{float64(at.X), float64(at.Y)}).len() < dist {
			explain(fmt.Sprintf("cand%d", i), c.rect)
		}
	}
	var t [4]diePt
	for i, p := range q {
		t[i] = diePt{float64(p.X), float64(p.Y)}
	}
	u := t[1].sub(t[0])
	hu := u.len() / 2
	hv := t[3].sub(t[0]).len() / 2
	c := t[0].add(t[2]).scale(0.5)
	explain("truth", dieRect{C: c, U: u.scale(1 / u.len()), HU: hu, HV: hv})
	return b.String(), nil
}

func patchImage(p *facePatch) image.Image {
	out := image.NewRGBA(image.Rect(0, 0, facePatchSize, facePatchSize))
	for i := 0; i < facePatchSize*facePatchSize; i++ {
		out.Pix[4*i] = p[3*i+2]
		out.Pix[4*i+1] = p[3*i+1]
		out.Pix[4*i+2] = p[3*i]
		out.Pix[4*i+3] = 255
	}
	return out
}

func edgeSidesForTest(im dieImage, rect dieRect) [4]float64 {
	side := 2 * math.Sqrt(rect.HU*rect.HV)
	u, v := rect.U, rect.v()
	var out [4]float64
	for i, sd := range [4]struct {
		n, t    diePt
		h, half float64
	}{
		{u, v, rect.HU, rect.HV}, {u.scale(-1), v, rect.HU, rect.HV},
		{v, u, rect.HV, rect.HU}, {v.scale(-1), u, rect.HV, rect.HU},
	} {
		best := 0.0
		for d := sd.h - 2 - 0.08*side; d <= sd.h+2; d += 0.5 {
			best = math.Max(best, lineEdge(im, rect.C, sd.n, sd.t, d, sd.half))
		}
		out[i] = best
	}
	return out
}

package vision

// Finding dice without a reference frame of the empty table: the table is
// estimated from the frame itself. At a quarter of the work resolution a
// median over a window about three dice wide removes die-sized objects
// (dice, their shadows, a few touching dice) and keeps the table's colour
// and its slow shading; scaled back up, it stands in for the reference
// frame, and the frame's difference to it finds the dice as with a real
// reference, above a threshold that follows the table's own texture (wood
// grain, a plaid cloth, a printed mat). Pixels of a profile's body colour
// are foreground too where the table is not of that colour, and strokes
// thinner than a die (a mat's print) are pruned. Used by DiceDetector.Read
// only (teaching and the background reader before it has learned the table
// keep the body colours).

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// selfRefShrink is how much the work frame is shrunk for the median.
const selfRefShrink = 4

// selfRef holds the Mats of the estimated empty table, reused across frames.
type selfRef struct {
	tiny, med, est     gocv.Mat
	dev, devMed, devUp gocv.Mat    // the table's texture: local deviation from est
	dev3               gocv.Mat    // its three channels' deviations
	ch                 [3]gocv.Mat // dev3's channels
	colour             []byte      // the colour mask
	// Pruning thin strokes (see prune).
	fg, opened, kernel gocv.Mat
	kernelSize         int
}

func newSelfRef() selfRef {
	return selfRef{tiny: gocv.NewMat(), med: gocv.NewMat(), est: gocv.NewMat(), dev: gocv.NewMat(), devMed: gocv.NewMat(), devUp: gocv.NewMat(),
		dev3: gocv.NewMat(), ch: [3]gocv.Mat{gocv.NewMat(), gocv.NewMat(), gocv.NewMat()}, fg: gocv.NewMat(), opened: gocv.NewMat(), kernel: gocv.NewMat()}
}

func (s *selfRef) close() {
	s.tiny.Close()
	s.med.Close()
	s.est.Close()
	s.dev.Close()
	s.dev3.Close()
	for i := range s.ch {
		s.ch[i].Close()
	}
	s.devMed.Close()
	s.devUp.Close()
	s.fg.Close()
	s.opened.Close()
	s.kernel.Close()
}

// estimate returns the empty table estimated from small (the work frame)
// for dice up to maxWork work pixels wide. The view stays valid until the
// next call.
func (s *selfRef) estimate(small gocv.Mat, maxWork float64) (dieImage, error) {
	w, h := small.Cols(), small.Rows()
	tw, th := max(1, (w+selfRefShrink-1)/selfRefShrink), max(1, (h+selfRefShrink-1)/selfRefShrink)
	gocv.Resize(small, &s.tiny, image.Pt(tw, th), 0, 0, gocv.InterpolationArea)
	k := int(3*maxWork/selfRefShrink) | 1
	k = max(5, min(k, (min(tw, th)-1)|1))
	gocv.MedianBlur(s.tiny, &s.med, k)
	gocv.Resize(s.med, &s.est, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
	// The texture: the median over the same window of how far each pixel
	// lies from the estimate (largest channel).
	gocv.AbsDiff(s.tiny, s.med, &s.dev3)
	s.maxChannel()
	gocv.MedianBlur(s.dev, &s.devMed, k)
	gocv.Resize(s.devMed, &s.devUp, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
	gocv.ConvertScaleAbs(s.devUp, &s.devUp, selfTextureK, 0)
	im, err := viewBGR(s.est)
	if err != nil {
		return dieImage{}, fmt.Errorf("estimated table: %w", err)
	}
	return im, nil
}

// selfMask fills seg.mask for the work frame (small, pixels si) without a
// reference frame: the difference to the estimated table beyond its local
// texture, and the pixels of the bodies' colours the table lacks there;
// thin strokes pruned.
func (d *dieFinder) selfMask(si dieImage, bodies []DieColour, minWork, maxWork float64) error {
	est, err := d.self.estimate(d.small, maxWork)
	if err != nil {
		return err
	}
	local, err := d.self.devUp.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("table texture: %w", err)
	}
	d.seg.colourMask(si, bodies)
	d.self.colour = append(d.self.colour[:0], d.seg.mask...)
	d.seg.markDiff(si, est, selfMinDiff, local)
	lut := d.seg.colourLUT(bodies)
	for i, c := range d.self.colour {
		if c == 0 || d.seg.mask[i] != 0 {
			continue
		}
		// A body colour the table does not have here (a grey table's
		// grain matches a grey body here and there).
		if e := est.pix[3*i : 3*i+3]; maxAbsDiff3(si.pix[3*i:3*i+3], e) >= selfMinDiff && !lut[lutIndex(e)] {
			d.seg.mask[i] = c
		}
	}
	return d.self.prune(d.seg.mask, si.w, si.h, minWork)
}

// noRefEdges is how many sides of face fi read by r without a reference
// frame must lie on a straight edge for the reading to be sure. With the
// table estimated from the frame: all four for a blank face (a patch of a
// busy table of a die's colour is flat too), three for a face with symbols
// (a cloth's print can pass for one), none for a face read by its pips or
// numerals (the count or numeral is evidence of its own; a small or white
// die on a light table shows faint edges). Found by colour alone: four.
func (d *dieFinder) noRefEdges(r *faceReader, fi int) int {
	switch {
	case !d.estimate || r.flat[fi]:
		return 4
	case r.pips || r.num != nil:
		return 0
	}
	return 3
}

// selfTextureK: a pixel differs from the estimated table when it lies more
// than this many times the local median deviation from it.
const selfTextureK = 3

// selfMinDiff is the least difference to the estimated table of a pixel
// that counts as a die's.
const selfMinDiff = 14

// maxChannel sets s.dev to the largest of s.dev3's channels (in reused
// Mats: no allocation per frame).
func (s *selfRef) maxChannel() {
	for i := range s.ch {
		gocv.ExtractChannel(s.dev3, &s.ch[i], i)
	}
	gocv.Max(s.ch[0], s.ch[1], &s.dev)
	gocv.Max(s.dev, s.ch[2], &s.dev)
}

// prune clears the foreground (mask, w×h) that is not within a few pixels
// of a part wider than a third of the smallest die: the strokes of a busy
// table's print (letters, lines, rings) would join dice to one another and
// to the table into groups far larger than a die.
func (s *selfRef) prune(mask []byte, w, h int, minWork float64) error {
	k := max(3, int(selfPruneWidth*minWork)|1)
	if k != s.kernelSize {
		s.kernel.Close()
		s.kernel = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(k, k))
		s.kernelSize = k
	}
	m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC1, mask)
	if err != nil {
		return fmt.Errorf("pruning: %w", err)
	}
	defer m.Close()
	gocv.MorphologyEx(m, &s.opened, gocv.MorphOpen, s.kernel)
	gocv.Dilate(s.opened, &s.fg, s.kernel)
	keep, err := s.fg.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("pruning: %w", err)
	}
	for i, v := range keep[:len(mask)] {
		if v == 0 {
			mask[i] = 0
		}
	}
	return nil
}

// selfPruneWidth is the width, in smallest dice, of the strokes prune
// removes.
const selfPruneWidth = 0.35

// colourPass appends to dice the dice found by the body colours alone when
// the table was estimated from the frame (no reference frame). The
// estimate's difference joins a die to the table around it here and there
// (a die of the table's shade, two dice touching, a die on a busy cloth)
// where its colour sets it apart; the colour pass reads those with the
// stricter checks of a colour-only find (all four sides edged). dedupeDice
// then keeps the surer reading of a die found by both.
func (d *DiceDetector) colourPass(img gocv.Mat, im dieImage, lim topLimits, dice []Die) ([]Die, error) {
	if !d.estimate || d.refFits(im.w, im.h) {
		return dice, nil
	}
	d.estimate = false
	defer func() { d.estimate = true }()
	cands, _, err := d.find(img, im, d.bodies, lim, false)
	if err != nil {
		return dice, err
	}
	first := len(dice)
	for _, c := range cands {
		if !foundSure(dice[:first], c.rect) {
			if die, ok := d.readDie(im, c); ok {
				dice = append(dice, die)
			}
		}
	}
	return dice, nil
}

// foundSure reports whether one of dice, read sure, has its centre closer
// to rect's than two dice's tops can be (as in dedupeDice): the colour
// pass need not read it again.
func foundSure(dice []Die, r dieRect) bool {
	for _, d := range dice {
		side := math.Max(d.side, 2*math.Sqrt(r.HU*r.HV))
		if !d.Uncertain && math.Hypot(float64(d.Center.X)-r.C.X, float64(d.Center.Y)-r.C.Y) < 0.7*side {
			return true
		}
	}
	return false
}

// partOfFace reports whether the d6 face rect (patch p) read without a
// reference frame is a part of a larger face: taken twice as large around
// its centre it holds, outside the face, a blob like its pips (of their
// size and colour). Two pips of a four, five or six, taken with the body
// between them for a smaller face, read as a two; lonePip does the same
// for a one.
func (d *DiceDetector) partOfFace(im dieImage, rect dieRect, p *facePatch) bool {
	const k = 2.0
	var s pipScratch
	blobs := widePipBlobs(im, rect, p, k, &s)
	mid, in := float64(facePatchSize)/2, 0.5*facePatchSize/k
	inside := func(b pipBlob) bool { return math.Abs(b.cx+0.5-mid) < in && math.Abs(b.cy+0.5-mid) < in }
	pi := -1
	for i, b := range blobs {
		if b.round() && inside(b) && (pi < 0 || b.area > blobs[pi].area) {
			pi = i
		}
	}
	if pi < 0 {
		return false
	}
	for _, b := range blobs {
		if !inside(b) && b.round() && pipShaped(b) && alikeBlobs(blobs[pi].area, b.area, blobs[pi].col, b.col) {
			return true
		}
	}
	return false
}

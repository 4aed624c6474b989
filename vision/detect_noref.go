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

	"gocv.io/x/gocv"
)

// selfRefShrink is how much the work frame is shrunk for the median.
const selfRefShrink = 4

// selfRef holds the Mats of the estimated empty table, reused across frames.
type selfRef struct {
	tiny, med, est     gocv.Mat
	dev, devMed, devUp gocv.Mat // the table's texture: local deviation from est
	colour             []byte   // the colour mask
	// Pruning thin strokes (see prune).
	fg, opened, kernel gocv.Mat
	kernelSize         int
}

func newSelfRef() selfRef {
	return selfRef{tiny: gocv.NewMat(), med: gocv.NewMat(), est: gocv.NewMat(), dev: gocv.NewMat(), devMed: gocv.NewMat(), devUp: gocv.NewMat(),
		fg: gocv.NewMat(), opened: gocv.NewMat(), kernel: gocv.NewMat()}
}

func (s *selfRef) close() {
	s.tiny.Close()
	s.med.Close()
	s.est.Close()
	s.dev.Close()
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
	gocv.AbsDiff(s.tiny, s.med, &s.dev)
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

// maxChannel turns s.dev (3 channels) into its largest channel.
func (s *selfRef) maxChannel() {
	ch := gocv.Split(s.dev)
	gocv.Max(ch[0], ch[1], &s.dev)
	gocv.Max(s.dev, ch[2], &s.dev)
	for i := range ch {
		ch[i].Close()
	}
}

// lutIndex is the index of BGR pixel p in a colourLUT.
func lutIndex(p []byte) int { return int(p[0]>>3)<<10 | int(p[1]>>3)<<5 | int(p[2]>>3) }

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

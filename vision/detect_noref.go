package vision

// Finding dice without a reference frame of the empty table: the table is
// estimated from the frame itself. At a quarter of the work resolution a
// median over a window about three dice wide removes die-sized objects
// (dice, their shadows, a few touching dice) and keeps the table's colour
// and its slow shading; scaled back up, it stands in for the reference
// frame, and the frame's difference to it finds the dice as with a real
// reference. Pixels of a profile's body colour are foreground too.

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// selfRefShrink is how much the work frame is shrunk for the median.
const selfRefShrink = 4

// selfRef holds the Mats of the estimated empty table, reused across frames.
type selfRef struct {
	tiny, med, est gocv.Mat
	colour         []byte // the colour mask
}

func newSelfRef() selfRef {
	return selfRef{tiny: gocv.NewMat(), med: gocv.NewMat(), est: gocv.NewMat()}
}

func (s *selfRef) close() {
	s.tiny.Close()
	s.med.Close()
	s.est.Close()
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
	im, err := viewBGR(s.est)
	if err != nil {
		return dieImage{}, fmt.Errorf("estimated table: %w", err)
	}
	return im, nil
}

// selfMask fills seg.mask for the work frame (small, pixels si) without a
// reference frame: the difference to the estimated table, and the pixels
// of the bodies' colours.
func (d *dieFinder) selfMask(si dieImage, bodies []DieColour, maxWork float64) error {
	est, err := d.self.estimate(d.small, maxWork)
	if err != nil {
		return err
	}
	d.seg.colourMask(si, bodies)
	d.self.colour = append(d.self.colour[:0], d.seg.mask...)
	noisy := d.seg.noisy
	d.seg.diffMask(si, est)
	for i, c := range d.self.colour {
		d.seg.mask[i] |= c
	}
	d.seg.noisy = noisy
	return nil
}

// noRefEdges is how many sides of a face read without a reference frame
// must lie on a straight edge for the reading to be sure: all four for a
// blank face (a patch of a busy table of a die's colour is flat too), two
// for a face with art (the art is evidence of its own; a small or white
// die on a light table shows faint edges).
func noRefEdges(blank bool) int {
	if blank {
		return 4
	}
	return 2
}

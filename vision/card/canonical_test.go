package card

import (
	"errors"
	"image"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
)

// canonicalCardForTest rectifies the card with outline q (corners clockwise,
// image coordinates) from img into a new size×size BGR Mat the caller
// closes (size 64 or 128).
func canonicalCardForTest(img gocv.Mat, q [4]geom.Point, size int) (gocv.Mat, error) {
	d := index.NewDescriber()
	defer d.Close()
	if err := d.Rectify(img, q, 0); err != nil {
		return gocv.NewMat(), err
	}
	if size == index.CanonSize {
		return d.Canon.Clone(), nil
	}
	out := gocv.NewMat()
	src := [4][2]float64{}
	for k, p := range q {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	n := float64(size)
	h, ok := geom.HomographyOf(src, [4][2]float64{{-0.5, -0.5}, {n - 0.5, -0.5}, {n - 0.5, n - 0.5}, {-0.5, n - 0.5}})
	if !ok {
		return out, errors.New("degenerate outline")
	}
	for i := range 9 {
		d.HM.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspective(img, &out, d.HM, image.Pt(size, size))
	return out, nil
}

// matchCanonicalForTest matches a canonical card image (canonicalCardForTest,
// 64×64) against ix and returns the best card, its distance and the next
// card's.
func matchCanonicalForTest(ix *index.Index, canon gocv.Mat) (string, float64, float64, error) {
	d := index.NewDescriber()
	defer d.Close()
	canon.CopyTo(&d.Canon)
	var ds [4]index.Desc
	if err := d.Describe(&ds); err != nil {
		return "", 0, 0, err
	}
	m := ix.Match(&ds)
	return m.ID, m.Dist, m.Second, nil
}

// addCanonicalForTest teaches ix card id from a canonical card image.
func addCanonicalForTest(ix *index.Index, id string, canon gocv.Mat) error {
	d := index.NewDescriber()
	defer d.Close()
	canon.CopyTo(&d.Canon)
	var ds [4]index.Desc
	if err := d.Describe(&ds); err != nil {
		return err
	}
	ix.AddEntry(index.Entry{ID: id, Desc: ds[0]})
	return nil
}

// matchOccludedForTest matches a canonical card image (cardCanon² BGR)
// without its occluders (glare, a thumb): the nearest card, its distance,
// the next card's, and how many blocks were masked (none compared when
// outside index.maskMin..cardMaskMax).
func matchOccludedForTest(ix *index.Index, canon gocv.Mat) (string, float64, float64, int, error) {
	d := index.NewDescriber()
	defer d.Close()
	canon.CopyTo(&d.Canon)
	m, n, ok, err := d.MatchOccluded(ix)
	if !ok || err != nil {
		return "", 0, 0, n, err
	}
	return m.ID, m.Dist, m.Second, n, nil
}

package card

import (
	"image"
	"image/color"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
)

// frameKeys is the reader's frame search: its keyer, the hashed
// keypoints of its index and buffers.
type frameKeys struct {
	keyer  *index.Keyer
	hash   *index.KeyHash
	mask   gocv.Mat
	votes  [][]int32 // per card of hash: the query keypoints and …
	taught [][]int32 // … their taught keypoints (indexes of hash.desc)
	// stretch is a dim place's grey, its contrast stretched (stretch).
	stretch gocv.Mat
	// up and upMask are a small card's place and its mask enlarged
	// (keyUp).
	up, upMask gocv.Mat
}

func newFrameKeys() *frameKeys {
	return &frameKeys{keyer: index.NewKeyerWith(index.FrameFeatures, index.FrameLevels), mask: gocv.NewMat(), stretch: gocv.NewMat(),
		up: gocv.NewMat(), upMask: gocv.NewMat()}
}

func (f *frameKeys) close() {
	f.keyer.Close()
	f.mask.Close()
	f.stretch.Close()
	f.up.Close()
	f.upMask.Close()
}

// ORB's pyramid only shrinks the picture, so a card narrower than the
// upright card its keypoints were taught on (index.KeyW) cannot match them:
// the place of a blob whose card is narrower than keyUpFrom times that
// is enlarged (by at most keyUpMax) before its keypoints are taken
// (TestCardKeySearchSmall: cards 50–70 px across among 16 taught are
// found more often enlarged than not).
const (
	keyUpFrom = 1.2
	keyUpMax  = 2.0
)

// keyUp is the factor a blob's place is enlarged by when its card's
// short side is short px (0: not known, not enlarged).
func keyUp(short float64) float64 {
	if short <= 0 {
		return 1
	}
	return min(keyUpMax, max(1, keyUpFrom*index.KeyW/short))
}

// A place whose grey levels span less than the full range is stretched
// to it, by at most stretchMax, before its keypoints are taken: ORB's
// corner threshold is absolute, and in a dim frame the art's contrasts
// fall below it (a dim training scene: a blob's grey at
// most 76, 165 keypoints taken and no card found; stretched, 848 and the
// card read). A gain under stretchMin is not worth it.
const (
	stretchMax = 4
	stretchMin = 1.2
)

// stretch writes grey (8-bit) to out with its levels stretched to the
// full range, and reports whether it did.
func stretch(grey gocv.Mat, out *gocv.Mat) bool {
	lo, hi, _, _ := gocv.MinMaxLoc(grey)
	if hi <= lo {
		return false
	}
	gain := min(stretchMax, 255/(hi-lo))
	if gain < stretchMin {
		return false
	}
	grey.ConvertToWithParams(out, gocv.MatTypeCV8U, gain, -lo*gain)
	return true
}

// frameKeys returns the reader's frame search, its hash filled with the
// keypoints of the reader's index (not nil).
func (r *Reader) frameKeys() *frameKeys {
	if r.frame == nil {
		r.frame = newFrameKeys()
	}
	f, ix := r.frame, r.opts.Index
	if f.hash == nil || f.hash.Index != ix || f.hash.N != ix.Len() {
		f.hash = index.NewKeyHash(ix)
		f.votes = make([][]int32, len(f.hash.Cards))
		f.taught = make([][]int32, len(f.hash.Cards))
	}
	return f
}

// readFrameKeys searches the frame (img, grey its grey image) for taught
// cards away from the cards in out, and appends those found whose face
// then matches them.
func (r *Reader) readFrameKeys(img, grey gocv.Mat, gr geom.View, out []Reading, minW, maxW float64) ([]Reading, error) {
	ix := r.opts.Index
	if ix == nil || ix.Len() == 0 {
		return out, nil
	}
	if !r.opts.SearchWholeFrame {
		// With a reference: where the frame changed (ref.go).
		return r.searchChangedKeys(img, grey, gr, out, minW, maxW)
	}
	f := r.frameKeys()
	if len(f.hash.Desc) == 0 {
		return out, nil
	}
	f.maskRead(grey, out)
	return r.searchFrameKeys(img, grey, gr, out, f.keyer, image.Rect(0, 0, img.Cols(), img.Rows()), false, 0, minW, maxW)
}

// searchFrameKeys is readFrameKeys' search with keyer k in place (frame
// pixels) where r.frame's mask is not zero. In a place holding about one
// card (blob, a blob of the reference), only cards with at least half the
// first card's keypoints are located: the others' are mostly stray.
//
// A blob's place is enlarged by keyUp(short), short the short side of
// its card (0: not known).
func (r *Reader) searchFrameKeys(img, grey gocv.Mat, gr geom.View, out []Reading, k *index.Keyer, place image.Rectangle, blob bool, short, minW, maxW float64) ([]Reading, error) {
	f := r.frame
	pg, pm := grey.Region(place), f.mask.Region(place)
	src, mask := pg, pm
	if blob && stretch(pg, &f.stretch) {
		src = f.stretch
	}
	sx, sy := 1.0, 1.0
	if up := keyUp(short); blob && up > 1 {
		sz := image.Pt(int(math.Round(up*float64(place.Dx()))), int(math.Round(up*float64(place.Dy()))))
		gocv.Resize(src, &f.up, sz, 0, 0, gocv.InterpolationLinear)
		gocv.Resize(pm, &f.upMask, sz, 0, 0, gocv.InterpolationNearestNeighbor)
		src, mask = f.up, f.upMask
		sx, sy = float64(sz.X)/float64(place.Dx()), float64(sz.Y)/float64(place.Dy())
	}
	err := k.DetectMasked(src, mask, index.FrameFeatures)
	pg.Close()
	pm.Close()
	if err != nil {
		return nil, err
	}
	for c := range f.votes {
		f.votes[c], f.taught[c] = f.votes[c][:0], f.taught[c][:0]
	}
	ratio := index.KeyRatio
	if blob || len(f.hash.Cards) >= index.FrameNoRatio {
		ratio = 1
	}
	for qi, i := range f.hash.NearestAll(k.QDesc, ratio) {
		if i >= 0 {
			c := f.hash.Card[i]
			f.votes[c] = append(f.votes[c], int32(qi))
			f.taught[c] = append(f.taught[c], int32(i))
		}
	}
	// The cards with the most keypoints first.
	var order []int
	for c, v := range f.votes {
		if len(v) >= index.KeyMinInliers {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(f.votes[b]) - len(f.votes[a]) })
	bounds := image.Rect(0, 0, img.Cols(), img.Rows())
	for n, c := range order {
		if n >= index.FrameTries {
			break
		}
		if blob && 2*len(f.votes[c]) < len(f.votes[order[0]]) {
			break // far fewer than the first: mostly stray votes (no ratio test)
		}
		hc := f.hash.Cards[c]
		k.SrcPts, k.DstPts = k.SrcPts[:0], k.DstPts[:0]
		for j, qi := range f.votes[c] {
			tp, qp := f.hash.Pt[f.taught[c][j]], k.QPts[qi]
			k.SrcPts = append(k.SrcPts, gocv.Point2f{X: tp.X, Y: tp.Y})
			k.DstPts = append(k.DstPts, gocv.Point2f{X: qp.X, Y: qp.Y})
		}
		found, ok := k.Homography(hc.Keys, place, sx, sy)
		if !ok || readAt(out, geom.QuadCentre(found.Q)) {
			continue
		}
		rd, ok, err := r.confirmKeyFound(img, gr, found, hc.ID, minW, maxW)
		if err != nil {
			return nil, err
		}
		if !ok || rd.ID != hc.ID || readAt(out, geom.QuadCentre(rd.Corners)) {
			continue
		}
		rd.Box = rd.Box.Intersect(bounds)
		out = append(out, rd)
	}
	return out, nil
}

// maskRead sets f.mask (grey's size) to 255 but on the cards read in out.
func (f *frameKeys) maskRead(grey gocv.Mat, out []Reading) {
	if f.mask.Rows() != grey.Rows() || f.mask.Cols() != grey.Cols() {
		f.mask.Close()
		f.mask = gocv.NewMatWithSize(grey.Rows(), grey.Cols(), gocv.MatTypeCV8U)
	}
	f.mask.SetTo(gocv.NewScalar(255, 0, 0, 0))
	var polys [][]image.Point
	for _, rd := range out {
		if rd.ID == Unknown {
			continue
		}
		p := make([]image.Point, 4)
		for k, c := range rd.Corners {
			p[k] = image.Pt(int(math.Round(float64(c.X))), int(math.Round(float64(c.Y))))
		}
		polys = append(polys, p)
	}
	if len(polys) == 0 {
		return
	}
	pv := gocv.NewPointsVectorFromPoints(polys)
	defer pv.Close()
	gocv.FillPoly(&f.mask, pv, color.RGBA{})
}

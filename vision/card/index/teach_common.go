package index

// Which outline of a teaching picture is the card? The teacher chooses,
// across a card's pictures, the outlines that look most alike; but two
// pictures can be alike in the same wrong way — the card's text panel in
// both (a dark card on a dark table, its edge lost), or the card doubled
// across its width into the table in both. What the pictures have in
// common is the card itself: keypoints matched between two pictures under
// one homography lie on the card, and nowhere else (the table differs from
// picture to picture). An outline of the whole card holds nearly all of
// them, spread over it; a panel leaves those of the other panel out, and
// an outline doubled into the table holds none in the added half. When a
// picture has outlines that are whole by this test, only those take part
// in the choice.

import (
	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

const (
	// commonFeatures are the ORB keypoints taken of a teaching picture.
	commonFeatures = 1500
	// commonRatio is the ratio test of a match (nearest against
	// second nearest).
	commonRatio = 0.8
	// commonMin is the least common keypoints of a picture for its
	// outlines to be tested.
	commonMin = 16
	// commonOut is the largest share of the common keypoints that
	// may lie outside a whole card's outline (grown by commonGrow of
	// its size), commonCells the least of its 4×4 cells that must
	// hold one. Teaching pictures of 300 cards (cardsTeachAll, 2 each;
	// every picture had common keypoints, 61 or more): the outlines
	// within a tenth of the card's width of it left at most 0.8% out and
	// held keypoints in 9 cells or more; of the other outlines with
	// at most 10% out (doubled into the table, mostly), 1,653 held them in
	// 8 cells or fewer, 347 in 9 or more.
	commonOut   = 0.1
	commonGrow  = 0.05
	commonCells = 9
)

// commonKeys returns, for each picture, the points of its keypoints that
// match another picture's under one homography (the card common to them);
// nil for a picture with none or a single picture.
func (t *teacher) commonKeys(imgs []gocv.Mat) [][]gocv.Point2f {
	out := make([][]gocv.Point2f, len(imgs))
	if len(imgs) < 2 {
		return out
	}
	orb := gocv.NewORBWithParams(commonFeatures, 1.2, 8, 31, 0, 2, gocv.ORBScoreTypeHarris, 31, 20)
	defer orb.Close()
	bf := gocv.NewBFMatcherWithParams(gocv.NormHamming, false)
	defer bf.Close()
	type keysOf struct {
		pts  []gocv.Point2f
		desc gocv.Mat
	}
	ks := make([]keysOf, len(imgs))
	defer func() {
		for _, k := range ks {
			k.desc.Close()
		}
	}()
	for i, img := range imgs {
		ks[i].desc = gocv.NewMat()
		if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
			continue
		}
		gocv.CvtColor(img, &t.grey, gocv.ColorBGRToGray)
		kp, desc := orb.DetectAndCompute(t.grey, t.keyer.noMask)
		ks[i].desc.Close()
		ks[i].desc = desc
		for _, k := range kp {
			ks[i].pts = append(ks[i].pts, gocv.Point2f{X: float32(k.X), Y: float32(k.Y)})
		}
	}
	var rs geom.Ransac
	for i := range imgs {
		for j := i + 1; j < len(imgs); j++ {
			if ks[i].desc.Rows() < 2 || ks[j].desc.Rows() < 2 {
				continue
			}
			var src, dst []gocv.Point2f
			for _, m := range bf.KnnMatch(ks[i].desc, ks[j].desc, 2) {
				if len(m) == 2 && m[0].Distance < commonRatio*m[1].Distance {
					src, dst = append(src, ks[i].pts[m[0].QueryIdx]), append(dst, ks[j].pts[m[0].TrainIdx])
				}
			}
			if len(src) < commonMin {
				continue
			}
			rs.Reset(src, dst)
			if rs.Run(5*5) < commonMin {
				continue
			}
			for k, in := range rs.Best {
				if in {
					out[i], out[j] = append(out[i], src[k]), append(out[j], dst[k])
				}
			}
		}
	}
	return out
}

// commonWhole reports whether outline q holds the common keypoints
// pts as a whole card does: at most commonOut of them outside it
// (grown by commonGrow), and one in at least commonCells of its
// 4×4 cells. With fewer than commonMin points, or a degenerate q,
// every outline passes (ok false: not tested).
func commonWhole(q [4]geom.Point, pts []gocv.Point2f) (whole, ok bool) {
	if len(pts) < commonMin {
		return true, false
	}
	var src [4][2]float64
	for k, p := range q {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	h, hok := geom.HomographyOf(src, [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}})
	if !hok {
		return true, false
	}
	out := 0
	var cells [4][4]bool
	for _, p := range pts {
		u, v := h.Apply(float64(p.X), float64(p.Y))
		if u < -commonGrow || v < -commonGrow || u > 1+commonGrow || v > 1+commonGrow {
			out++
			continue
		}
		cu, cv := min(3, max(0, int(u*4))), min(3, max(0, int(v*4)))
		cells[cv][cu] = true
	}
	n := 0
	for _, row := range cells {
		for _, c := range row {
			if c {
				n++
			}
		}
	}
	return float64(out) <= commonOut*float64(len(pts)) && n >= commonCells, true
}

package index

// Keypoints of taught cards: a second way to find a taught card when its
// outline was missed or found off (a busy table, a thumb over a corner, a
// border that looks like the table). Each taught example keeps the ORB
// keypoints of its card rectified upright at KeyW × cardKeyH. Where an
// outline matched no taught card, the place around it is searched for the
// keypoints of the few taught cards nearest to it (the match's shortlist):
// enough keypoints agreeing on one homography give the card's outline,
// which is then rectified and matched like any other outline (the same
// threshold and ratio decide, so untaught cards stay unknown).

import (
	"encoding/binary"
	"errors"
	"image"
	"math"
	"math/bits"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Keypoint search sizes.
const (
	KeyW, cardKeyH = 96, 134 // the upright card keypoints are taken on
	keyTeach       = 300     // keypoints kept per taught example
	keyPlace       = 700     // keypoints taken in a searched place
	keyCands       = 3       // taught cards whose keypoints are tried
	KeyMinInliers  = 10      // keypoints agreeing on the homography
	keyMaxDist     = 64      // second-nearest distance cap: a match needs best ≤ KeyRatio × min(second, keyMaxDist+1), so at most 52
	KeyRatio       = 0.8     // best over second best keypoint match
	KeyPlaces      = 3       // places searched per frame
	KeyReach       = 0.45    // place: outline box grown by this of its larger side
)

// Keys are the keypoints of one taught example: positions in the
// upright card (w × h, top-left corner first as taught) and their 256-bit
// ORB descriptors.
type Keys struct {
	W, H int
	Pts  []geom.Point
	Desc [][4]uint64
}

// Keyer takes keypoints; it keeps its buffers and is not safe for
// concurrent use.
type Keyer struct {
	orb              *orb
	hm               gocv.Mat
	warp, grey       gocv.Mat
	scaled, noMask   gocv.Mat
	QPts             []geom.Point
	QDesc            [][4]uint64
	SrcPts, DstPts   []gocv.Point2f
	matchQ, matchOwn []int
	matchT           []int32
	near             []int       // guide's keypoints of the place on the card
	fit              geom.Ransac // fitPairsWith's
	// verifyAt's grid of the keypoints taken (grid).
	cellHead, cellNext []int32
	cellCols           int
	// closestAll's points and results.
	nearX, nearY      []float64
	nearIdx, nearDist []int32
	// warped: k.warp and the keypoints taken are the card at warpedAt
	// (corners) rectified to warpedSize (verifyUntil), for a keyer taking
	// the other levels (verifyAfter).
	warped     bool
	warpedAt   [4]geom.Point
	warpedSize image.Point
	// upper, when set, takes the keypoints of the pyramid levels above
	// the first (verifyAfter).
	Upper *UpperKeyer
}

// NewKeyer returns the keyer of the place search (keyPlace
// keypoints in 4 levels).
func NewKeyer() *Keyer {
	return NewKeyerWith(keyPlace, keyLevels)
}

// NewKeyerWith returns a keyer taking at most features keypoints in levels
// pyramid levels (scale 1.3 between levels).
func NewKeyerWith(features, levels int) *Keyer {
	return &Keyer{
		orb: newORB(features, levels),
		hm:  gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F), warp: gocv.NewMat(), grey: gocv.NewMat(),
		scaled: gocv.NewMat(), noMask: gocv.NewMat(),
	}
}

// newORB is the ORB of the card keyers: at most features keypoints in
// levels pyramid levels keyScale apart (an edge and a patch of 15, a
// FAST threshold of 12).
func newORB(features, levels int) *orb {
	return newOrb(features, keyScale, levels, 15, 15, 12)
}

// Levels of NewKeyer's ORB and the scale between them.
const (
	keyLevels = 4
	keyScale  = 1.3
)

// NewFirstLevelKeyer returns a keyer taking the keypoints NewKeyer's
// takes in its first pyramid level, and only those: OpenCV's ORB gives
// each level its share of the keypoints (orbShares) and picks
// them level by level, so one level with the first level's share finds
// the same keypoints with the same descriptors (TestCardFirstLevelKeyer),
// for about half the time.
func NewFirstLevelKeyer() *Keyer {
	return NewKeyerWith(orbShares(keyPlace, keyScale, keyLevels)[0], 1)
}

// orbScale is the scale of level l of OpenCV's ORB pyramid whose
// levels are scale apart (getScale: (float)pow((double)scale, l), the
// scale a float as ORB is given it).
func orbScale(scale float32, l int) float32 {
	return float32(math.Pow(float64(scale), float64(l)))
}

// orbLevelSize is the size of level l of ORB's pyramid of a picture of
// size sz (detectAndCompute: each side times 1/scale in float, rounded).
func orbLevelSize(sz image.Point, scale float32, l int) image.Point {
	inv := 1 / orbScale(scale, l)
	return image.Pt(int(math.RoundToEven(float64(float32(sz.X)*inv))), int(math.RoundToEven(float64(float32(sz.Y)*inv))))
}

// orbShares is the keypoints OpenCV's ORB (computeKeyPoints) allots
// to each of levels pyramid levels scale apart when it takes features in
// all, in its float arithmetic: the first ones a share falling by 1/scale
// a level, rounded; the last what is left.
func orbShares(features int, scale float32, levels int) []int {
	factor := float32(1 / float64(scale))
	per := float32(features) * (1 - factor) / (1 - float32(math.Pow(float64(factor), float64(levels))))
	out := make([]int, levels)
	sum := 0
	for l := range levels - 1 {
		out[l] = int(math.RoundToEven(float64(per)))
		sum += out[l]
		per *= factor
	}
	out[levels-1] = max(features-sum, 0)
	return out
}

// UpperKeyer takes the keypoints NewKeyer's ORB takes in its
// pyramid levels above the first, given the first level (the picture):
// each level as ORB builds it (the level below resized to its size,
// INTER_LINEAR_EXACT), its keypoints taken by a one-level ORB with that
// level's share and scaled as ORB scales them. A card's full look at its
// keypoints (confirmAt) follows a first look that did not make its match
// stand, which took the first level's keypoints already
// (NewFirstLevelKeyer); this takes the rest for about 0.6 of the full
// ORB's time, the same keypoints with the same descriptors in the same
// order (TestCardUpperKeyer).
type UpperKeyer struct {
	orbs []*orb     // level l+1's
	imgs []gocv.Mat // level l+1's picture
}

// NewUpperKeyer returns a keyer for the levels above a first look's.
func NewUpperKeyer() *UpperKeyer {
	shares := orbShares(keyPlace, keyScale, keyLevels)
	u := &UpperKeyer{}
	for l := 1; l < keyLevels; l++ {
		u.orbs = append(u.orbs, newORB(shares[l], 1))
		u.imgs = append(u.imgs, gocv.NewMat())
	}
	return u
}

func (u *UpperKeyer) close() {
	for i := range u.orbs {
		u.orbs[i].close()
		u.imgs[i].Close()
	}
}

// detectAppend appends to k.qpts and k.qdesc the keypoints of the levels
// above the first of pic (8-bit grey), at most max in all.
func (u *UpperKeyer) detectAppend(k *Keyer, pic gocv.Mat, max int) error {
	prev := pic
	sz := image.Pt(pic.Cols(), pic.Rows())
	for i := range u.orbs {
		l := i + 1
		lsz := orbLevelSize(sz, keyScale, l)
		if lsz.X < 1 || lsz.Y < 1 {
			break // ORB's own levels stop there too: nothing is found in them
		}
		gocv.Resize(prev, &u.imgs[i], lsz, 0, 0, interLinearExact)
		prev = u.imgs[i]
		kps, desc, err := u.orbs[i].detectAndCompute(u.imgs[i], k.noMask)
		if err != nil {
			return err
		}
		k.appendKeys(kps, desc, orbScale(keyScale, l), max)
	}
	return nil
}

// interLinearExact is OpenCV's INTER_LINEAR_EXACT, with which ORB
// shrinks each level of its pyramid to the next (gocv has no name for it).
const interLinearExact gocv.InterpolationFlags = 5

// Close releases the keyer's buffers.
func (k *Keyer) Close() {
	if k.Upper != nil {
		k.Upper.close()
	}
	k.orb.close()
	k.hm.Close()
	k.warp.Close()
	k.grey.Close()
	k.scaled.Close()
	k.noMask.Close()
}

// detect takes the keypoints of grey (8-bit) into k.qpts and k.qdesc, at
// most max of them, the strongest first.
func (k *Keyer) detect(grey gocv.Mat, max int) error {
	return k.DetectMasked(grey, k.noMask, max)
}

// DetectMasked is detect where mask (empty: everywhere) is not zero.
func (k *Keyer) DetectMasked(grey, mask gocv.Mat, max int) error {
	kps, desc, err := k.orb.detectAndCompute(grey, mask)
	if err != nil {
		return err
	}
	k.QPts, k.QDesc = k.QPts[:0], k.QDesc[:0]
	k.appendKeys(kps, desc, 1, max)
	return nil
}

// appendKeys appends the keypoints kps with descriptors desc (ORB's, 32
// bytes each) to k.qpts and k.qdesc, their positions times scale (in float,
// as ORB scales its levels' keypoints), until there are max.
func (k *Keyer) appendKeys(kps []gocv.KeyPoint, desc []byte, scale float32, max int) {
	for i, kp := range kps {
		if len(k.QPts) >= max {
			break
		}
		var d [4]uint64
		for j := range 4 {
			d[j] = binary.LittleEndian.Uint64(desc[32*i+8*j:])
		}
		k.QPts = append(k.QPts, geom.Point{X: float32(kp.X) * scale, Y: float32(kp.Y) * scale})
		k.QDesc = append(k.QDesc, d)
	}
}

// Teach returns the keypoints of the card with outline q (clockwise, its
// top-left corner first) in img (8-bit BGR), rectified upright; a card
// lying on its long side is rectified lying (w > h).
func (k *Keyer) Teach(img gocv.Mat, q [4]geom.Point) (*Keys, error) {
	w, h := KeyW, cardKeyH
	if a, b := geom.SideMeans(q); a > b {
		w, h = h, w
	}
	if !WarpQuad(img, &k.warp, k.hm, q, PixelRect(0, 0, float64(w), float64(h)), image.Pt(w, h)) {
		return nil, errors.New("index: card keypoints: degenerate outline")
	}
	gocv.CvtColor(k.warp, &k.grey, gocv.ColorBGRToGray)
	if err := k.detect(k.grey, keyTeach); err != nil {
		return nil, err
	}
	out := &Keys{W: w, H: h, Pts: append([]geom.Point(nil), k.QPts...), Desc: append([][4]uint64(nil), k.QDesc...)}
	return out, nil
}

// Tilted views of a taught example (teachViews): the card squashed by
// 1/viewTilt (a camera tilted by 45°) along each of viewDirs
// directions, viewKeys keypoints taken in each.
const (
	viewTilt = 1.41
	viewDirs = 4
	viewKeys = 150
)

// teachViews returns the keypoints of the card with outline q in img seen
// tilted: ORB's descriptors are not affine invariant, and a card seen at a
// tilt is squashed along one direction (the views of affine-SIFT). Their
// places are in the upright w × h card, as teach's.
func (k *Keyer) teachViews(img gocv.Mat, q [4]geom.Point, w, h int) (*Keys, error) {
	out := &Keys{W: w, H: h}
	rect := PixelRect(0, 0, float64(w), float64(h))
	for v := range viewDirs {
		phi := math.Pi * float64(v) / viewDirs
		c, s := math.Cos(phi), math.Sin(phi)
		// A = R(φ)ᵀ · diag(1/t, 1) · R(φ): squash along direction φ.
		a := [4]float64{
			c*c/viewTilt + s*s, c*s/viewTilt - c*s,
			c*s/viewTilt - c*s, s*s/viewTilt + c*c,
		}
		var dst [4][2]float64
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for i, p := range rect {
			x, y := a[0]*p[0]+a[1]*p[1], a[2]*p[0]+a[3]*p[1]
			dst[i] = [2]float64{x, y}
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
		for i := range dst {
			dst[i][0] -= minX
			dst[i][1] -= minY
		}
		sz := image.Pt(int(math.Ceil(maxX-minX)), int(math.Ceil(maxY-minY)))
		if !WarpQuad(img, &k.warp, k.hm, q, dst, sz) {
			return nil, errors.New("index: card keypoints: degenerate outline")
		}
		gocv.CvtColor(k.warp, &k.grey, gocv.ColorBGRToGray)
		if err := k.detect(k.grey, viewKeys); err != nil {
			return nil, err
		}
		// Back to the upright card: A⁻¹ (A is symmetric).
		det := a[0]*a[3] - a[1]*a[2]
		for i, p := range k.QPts {
			x, y := float64(p.X)+minX, float64(p.Y)+minY
			u, vv := (a[3]*x-a[1]*y)/det, (-a[2]*x+a[0]*y)/det
			if u < -1 || vv < -1 || u > float64(w) || vv > float64(h) {
				continue
			}
			out.Pts = append(out.Pts, geom.Point{X: float32(u), Y: float32(vv)})
			out.Desc = append(out.Desc, k.QDesc[i])
		}
	}
	return out, nil
}

// hamming is the Hamming distance of two ORB descriptors.
func hamming(a, b *[4]uint64) int {
	return bits.OnesCount64(a[0]^b[0]) + bits.OnesCount64(a[1]^b[1]) + bits.OnesCount64(a[2]^b[2]) + bits.OnesCount64(a[3]^b[3])
}

// KeyFound is a taught example located by its keypoints: its outline
// in the frame (top-left corner first as taught) and how many keypoints
// agree on it.
type KeyFound struct {
	Q       [4]geom.Point
	Inliers int
	Own     int // index of the example's keys
}

// Locate searches place (full-resolution pixels of grey, the frame's grey
// image) for the taught examples keys, the card expected about width
// pixels wide, and returns the examples found, most keypoints first.
func (k *Keyer) Locate(grey gocv.Mat, place image.Rectangle, width float64, keys []*Keys) ([]KeyFound, error) {
	place = place.Intersect(image.Rect(0, 0, grey.Cols(), grey.Rows()))
	if place.Dx() < 16 || place.Dy() < 16 || len(keys) == 0 {
		return nil, nil
	}
	// The place scaled so that the card is about as wide as taught.
	s := math.Max(0.25, math.Min(1.5, KeyW/math.Max(1, width)))
	roi := grey.Region(place)
	defer roi.Close()
	sz := image.Pt(max(16, int(math.Round(float64(place.Dx())*s))), max(16, int(math.Round(float64(place.Dy())*s))))
	gocv.Resize(roi, &k.scaled, sz, 0, 0, gocv.InterpolationArea)
	sx, sy := float64(sz.X)/float64(place.Dx()), float64(sz.Y)/float64(place.Dy())
	if err := k.detect(k.scaled, keyPlace); err != nil {
		return nil, err
	}
	// Each keypoint of the place to its nearest taught keypoint, kept when
	// clearly nearer than the second nearest.
	k.matchQ, k.matchOwn, k.matchT = k.matchQ[:0], k.matchOwn[:0], k.matchT[:0]
	for qi := range k.QDesc {
		best, second := keyMaxDist+1, 257
		bo, bt := -1, -1
		for o, ks := range keys {
			for ti := range ks.Desc {
				d := hamming(&k.QDesc[qi], &ks.Desc[ti])
				if d < best {
					second, best, bo, bt = best, d, o, ti
				} else if d < second {
					second = d
				}
			}
		}
		if bo < 0 || float64(best) > KeyRatio*float64(second) {
			continue
		}
		k.matchQ = append(k.matchQ, qi)
		k.matchOwn = append(k.matchOwn, bo)
		k.matchT = append(k.matchT, int32(bt))
	}
	var out []KeyFound
	for o, ks := range keys {
		k.SrcPts, k.DstPts = k.SrcPts[:0], k.DstPts[:0]
		for i, own := range k.matchOwn {
			if own != o {
				continue
			}
			tp, qp := ks.Pts[k.matchT[i]], k.QPts[k.matchQ[i]]
			k.SrcPts = append(k.SrcPts, gocv.Point2f{X: tp.X, Y: tp.Y})
			k.DstPts = append(k.DstPts, gocv.Point2f{X: qp.X, Y: qp.Y})
		}
		if len(k.SrcPts) < KeyMinInliers {
			continue
		}
		f, ok := k.Homography(ks, place, sx, sy)
		if ok {
			f.Own = o
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b KeyFound) int { return b.Inliers - a.Inliers })
	return out, nil
}

// Homography fits the taught example's keypoints k.srcPts to the place's
// k.dstPts with RANSAC, then once more to the keypoints of the place that
// lie where that fit puts the example's keypoints and look like them
// (guided: keypoints that failed the ratio test count too), and returns
// the card's outline in the frame.
func (k *Keyer) Homography(ks *Keys, place image.Rectangle, sx, sy float64) (KeyFound, bool) {
	hm, inl, ok := k.fitPairs()
	if !ok || inl < KeyMinInliers {
		return KeyFound{}, false
	}
	if k.guide(ks, &hm) >= inl {
		if h2, inl2, ok := k.fitPairs(); ok && inl2 >= inl {
			hm, inl = h2, inl2
		}
	}
	fw, fh := float64(ks.W), float64(ks.H)
	var f KeyFound
	f.Inliers = inl
	for c, p := range PixelRect(0, 0, fw, fh) {
		x, y := hm.Apply(p[0], p[1])
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return KeyFound{}, false
		}
		f.Q[c] = geom.Point{X: float32((x+0.5)/sx - 0.5 + float64(place.Min.X)), Y: float32((y+0.5)/sy - 0.5 + float64(place.Min.Y))}
	}
	// A card seen from above stays convex, clockwise and card-shaped.
	if !geom.Clockwise(f.Q) || geom.QuadArea(f.Q) < 1 {
		return KeyFound{}, false
	}
	return f, true
}

// fitPairs fits a homography to k.srcPts → k.dstPts with RANSAC and
// returns it and its number of inliers.
func (k *Keyer) fitPairs() (geom.Homography, int, bool) { return k.fitPairsWith(3) }

// fitPairsWith is fitPairs with pairs within reproj px of the fit inliers
// (geom.Ransac.fitPairs).
func (k *Keyer) fitPairsWith(reproj float64) (geom.Homography, int, bool) {
	return k.fit.Fit(k.SrcPts, k.DstPts, reproj)
}

// Guided matching: a keypoint of the place within keyGuideR of the
// card's diagonal (at least keyGuideMin px) from where the fit puts a
// taught keypoint, and within keyGuideDist of its descriptor, is a
// match.
const (
	keyGuideR    = 0.025
	keyGuideMin  = 3
	keyGuideDist = 64
)

// guide sets k.srcPts and k.dstPts to the pairs of the example's keypoints
// and the place's keypoints (k.qpts) that hm (taught → place) brings
// together, and returns how many there are.
func (k *Keyer) guide(ks *Keys, hm *geom.Homography) int {
	x0, y0 := hm.Apply(0, 0)
	x1, y1 := hm.Apply(float64(ks.W), float64(ks.H))
	r := math.Max(keyGuideMin, keyGuideR*math.Hypot(x1-x0, y1-y0))
	// The place's keypoints on the card.
	box := image.Rectangle{}
	for _, c := range PixelRect(0, 0, float64(ks.W), float64(ks.H)) {
		x, y := hm.Apply(c[0], c[1])
		pt := image.Rect(int(math.Floor(x-r)), int(math.Floor(y-r)), int(math.Ceil(x+r)), int(math.Ceil(y+r)))
		box = box.Union(pt)
	}
	k.near = k.near[:0]
	for i, q := range k.QPts {
		if image.Pt(int(q.X), int(q.Y)).In(box) {
			k.near = append(k.near, i)
		}
	}
	k.SrcPts, k.DstPts = k.SrcPts[:0], k.DstPts[:0]
	for j, tp := range ks.Pts {
		x, y := hm.Apply(float64(tp.X), float64(tp.Y))
		best, bi := keyGuideDist+1, -1
		for _, i := range k.near {
			q := k.QPts[i]
			if dx, dy := float64(q.X)-x, float64(q.Y)-y; dx*dx+dy*dy > r*r {
				continue
			}
			if d := hamming(&ks.Desc[j], &k.QDesc[i]); d < best {
				best, bi = d, i
			}
		}
		if bi >= 0 {
			k.SrcPts = append(k.SrcPts, gocv.Point2f{X: tp.X, Y: tp.Y})
			k.DstPts = append(k.DstPts, gocv.Point2f{X: k.QPts[bi].X, Y: k.QPts[bi].Y})
		}
	}
	return len(k.SrcPts)
}

// Verification at a known pose (refConfirms): an outline and its match's
// turn say where each taught keypoint of the card should be. The frame is
// rectified there upright, as the card was taught (with a margin: ORB
// takes no keypoint within its border of 15 px), its keypoints taken; a
// taught keypoint is found when one of them lies within VerifyReach px
// (of the upright card) of it and within verifyDist bits of its
// descriptor; a homography is fitted to the pairs (RANSAC, verifyFit
// px: an outline found a few pixels off), and the taught keypoints found
// again where it puts them, within verifyFine px and verifyFineDist
// bits, are counted.
const (
	verifyMargin   = 16
	VerifyReach    = 6
	verifyDist     = 64
	verifyFit      = 2.5
	verifyFine     = 2.5
	verifyFineDist = 40
)

// Verified is what verifyAt found of one taught example: the pairs
// found, how many of them agree on one homography, and how many taught
// keypoints are found again where it puts them.
type Verified struct {
	Pairs, Inliers int
	Found          int // taught keypoints found again where the fit puts them
	Taught         int // the example's keypoints
	// Of them, those no other taught card shares (Distinct; all
	// when not asked).
	DistinctFound, DistinctTaught int
	// cells, distinctCells and taughtCells are the cells of a
	// cardVerifyCells² grid over the upright card holding keypoints found,
	// distinct ones found, and taught keypoints (bit y·verifyCells+x).
	Cells, DistinctCells, TaughtCells uint64
}

// verifyCells is the side of the grid over a card whose cells
// Verified counts.
const verifyCells = 4

// cellBit is the bit of the cardVerifyCells² grid cell of ks's upright
// picture that holds point p.
func cellBit(ks *Keys, p geom.Point) uint64 {
	x := min(verifyCells-1, max(0, int(float64(p.X)*verifyCells/float64(max(1, ks.W)))))
	y := min(verifyCells-1, max(0, int(float64(p.Y)*verifyCells/float64(max(1, ks.H)))))
	return 1 << (y*verifyCells + x)
}

// VerifyAt looks for the taught examples keys of one card where the card
// with corners (frame grey's pixels, clockwise, the card's top-left corner
// first as taught) puts them, and returns the best example's (most
// keypoints found again); those in the blocks of skip are not counted.
// shared, when set, tells for each of keys which of its keypoints another
// taught card shares (an entry nil: none).
func (k *Keyer) VerifyAt(grey gocv.Mat, corners [4]geom.Point, keys []*Keys, skip *Mask, shared [][]bool) (Verified, error) {
	return k.VerifyUntil(grey, corners, keys, skip, shared, Enough{})
}

// Enough is when a verification stands: at least found keypoints
// found, and share of the example's (0: no such rule).
type Enough struct {
	Found int
	Share float64
}

// Stands reports whether v stands by e (e set).
func (e Enough) Stands(v Verified) bool {
	return e.Share > 0 && v.Found >= e.Found && float64(v.Found)/float64(max(1, v.Taught)) >= e.Share
}

// VerifyUntil is verifyAt, which stops at an example whose verification
// stands by enough when the best one of all would stand too: it finds
// as many keypoints or more, and each example left has few enough taught
// ones (counted) that this many make their share. The verification
// returned may then not be the best one, but it stands as the best one
// would.
func (k *Keyer) VerifyUntil(grey gocv.Mat, corners [4]geom.Point, keys []*Keys, skip *Mask, shared [][]bool, enough Enough) (Verified, error) {
	return k.VerifyAfter(nil, grey, corners, keys, skip, shared, enough)
}

// VerifyAfter is verifyUntil after first's look at the same corners in the
// same frame (first: nil, or a NewFirstLevelKeyer that verified last):
// k (with upper set) takes first's rectified card and its first level's
// keypoints where first rectified the card to the same size, and only the
// levels above itself.
func (k *Keyer) VerifyAfter(first *Keyer, grey gocv.Mat, corners [4]geom.Point, keys []*Keys, skip *Mask, shared [][]bool, enough Enough) (Verified, error) {
	var best Verified
	size := image.Point{}
	k.warped = false
	for i, ks := range keys {
		if len(ks.Desc) == 0 {
			continue
		}
		if i > 0 && enough.Stands(best) && k.restShare(best.Found, keys[i:], skip) >= enough.Share {
			return best, nil
		}
		// Rectified once per upright size (examples of one card share it
		// but for a card taught lying).
		if sz := image.Pt(ks.W, ks.H); sz != size {
			out := image.Pt(ks.W+2*verifyMargin, ks.H+2*verifyMargin)
			if first != nil && k.Upper != nil && first.warped && first.warpedAt == corners && first.warpedSize == out {
				k.warped = false // k.warp is not this card's
				k.QPts, k.QDesc = append(k.QPts[:0], first.QPts...), append(k.QDesc[:0], first.QDesc...)
				if err := k.Upper.detectAppend(k, first.warp, keyPlace); err != nil {
					return best, err
				}
			} else {
				m := float64(verifyMargin)
				dst := PixelRect(m, m, m+float64(ks.W), m+float64(ks.H))
				k.warped = false
				if !WarpQuad(grey, &k.warp, k.hm, corners, dst, out) {
					return best, nil
				}
				if err := k.detect(k.warp, keyPlace); err != nil {
					return best, err
				}
				k.warped, k.warpedAt, k.warpedSize = true, corners, out
			}
			k.grid(out)
			size = sz
		}
		var sh []bool
		if i < len(shared) {
			sh = shared[i]
		}
		v := k.verifyKeys(ks, skip, sh)
		if v.Found > best.Found || v.Found == best.Found && v.Inliers > best.Inliers {
			best = v
		}
	}
	return best, nil
}

// restShare is the least share found of the examples in keys (with
// taught keypoints), found of their keypoints counted (not in skip's
// blocks), found.
func (k *Keyer) restShare(found int, keys []*Keys, skip *Mask) float64 {
	least := math.Inf(1)
	for _, ks := range keys {
		if len(ks.Desc) == 0 {
			continue
		}
		n := len(ks.Pts)
		if skip != nil {
			n = 0
			for _, p := range ks.Pts {
				if !masked(skip, ks, p) {
					n++
				}
			}
		}
		least = min(least, float64(found)/float64(max(1, n)))
	}
	return least
}

// verifyKeys pairs the taught keypoints of ks with the keypoints taken
// (k.qpts, upright with the margin, gridded) and counts the pairs, the
// inliers of the homography fitted to them and the taught keypoints found
// again where it puts them. Taught keypoints in the blocks of skip (when
// set) are not counted: an occluder hides them. Those shared (when set)
// are not counted among the distinct ones.
func (k *Keyer) verifyKeys(ks *Keys, skip *Mask, shared []bool) Verified {
	const m = verifyMargin
	var v Verified
	counted := func(j int) bool { return skip == nil || !masked(skip, ks, ks.Pts[j]) }
	distinct := func(j int) bool { return shared == nil || !shared[j] }
	for j := range ks.Pts {
		if counted(j) {
			v.Taught++
			v.TaughtCells |= cellBit(ks, ks.Pts[j])
			if distinct(j) {
				v.DistinctTaught++
			}
		}
	}
	k.SrcPts, k.DstPts = k.SrcPts[:0], k.DstPts[:0]
	k.nearPoints(len(ks.Pts))
	for j, tp := range ks.Pts {
		k.nearX[j], k.nearY[j] = float64(tp.X+m), float64(tp.Y+m)
	}
	k.closestAll(ks.Desc, VerifyReach)
	for j, tp := range ks.Pts {
		x, y := tp.X+m, tp.Y+m
		if bi, d := k.nearIdx[j], k.nearDist[j]; d <= verifyDist {
			k.SrcPts = append(k.SrcPts, gocv.Point2f{X: x, Y: y})
			k.DstPts = append(k.DstPts, gocv.Point2f{X: k.QPts[bi].X, Y: k.QPts[bi].Y})
		}
	}
	v.Pairs = len(k.SrcPts)
	if v.Pairs < 4 {
		return v
	}
	hm, inl, ok := k.fitPairsWith(verifyFit)
	if !ok {
		return v
	}
	v.Inliers = inl
	// Again where the fit puts them, closer and more alike.
	for j, tp := range ks.Pts {
		k.nearX[j], k.nearY[j] = hm.Apply(float64(tp.X+m), float64(tp.Y+m))
	}
	k.closestAll(ks.Desc, verifyFine)
	for j, tp := range ks.Pts {
		if d := k.nearDist[j]; d <= verifyFineDist && counted(j) {
			v.Found++
			v.Cells |= cellBit(ks, tp)
			if distinct(j) {
				v.DistinctFound++
				v.DistinctCells |= cellBit(ks, tp)
			}
		}
	}
	return v
}

// verifyCell is the side of the grid cells (px) verifyAt sorts the
// keypoints taken into: at least the reach of a pairing.
const verifyCell = 8

// grid sorts k.qpts into cells of verifyCell px of a picture of size
// sz (k.cellHead: each cell's first keypoint, k.cellNext the next one;
// -1 ends).
func (k *Keyer) grid(sz image.Point) {
	k.cellCols = (sz.X + verifyCell - 1) / verifyCell
	rows := (sz.Y + verifyCell - 1) / verifyCell
	k.cellHead = slices.Grow(k.cellHead[:0], k.cellCols*rows)[:k.cellCols*rows]
	for i := range k.cellHead {
		k.cellHead[i] = -1
	}
	k.cellNext = slices.Grow(k.cellNext[:0], len(k.QPts))[:len(k.QPts)]
	for i, q := range k.QPts {
		c := k.cellOf(float64(q.X), float64(q.Y))
		if c < 0 {
			k.cellNext[i] = -1
			continue
		}
		k.cellNext[i], k.cellHead[c] = k.cellHead[c], int32(i)
	}
}

// cellOf is the grid cell of (x, y), -1 outside.
func (k *Keyer) cellOf(x, y float64) int {
	cx, cy := int(math.Floor(x/verifyCell)), int(math.Floor(y/verifyCell))
	if cx < 0 || cy < 0 || cx >= k.cellCols || cy*k.cellCols+cx >= len(k.cellHead) {
		return -1
	}
	return cy*k.cellCols + cx
}

// nearPoints sizes closestAll's points and results for n points.
func (k *Keyer) nearPoints(n int) {
	k.nearX = slices.Grow(k.nearX[:0], n)[:n]
	k.nearY = slices.Grow(k.nearY[:0], n)[:n]
	k.nearIdx = slices.Grow(k.nearIdx[:0], n)[:n]
	k.nearDist = slices.Grow(k.nearDist[:0], n)[:n]
}

// closestAll is closest for the points (k.nearX[j], k.nearY[j]) with
// descriptors desc[j] (nearPoints sized them): k.nearIdx[j] and
// k.nearDist[j].
func (k *Keyer) closestAll(desc [][4]uint64, r float64) {
	n := len(k.nearX)
	if n == 0 {
		return
	}
	if len(k.QPts) == 0 || k.cellCols <= 0 || len(k.cellHead) == 0 || len(desc) < n {
		for j := range n {
			k.nearIdx[j], k.nearDist[j] = -1, 257
		}
		return
	}
	for j := range n {
		i, d := k.Closest(&desc[j], k.nearX[j], k.nearY[j], r)
		k.nearIdx[j], k.nearDist[j] = int32(i), int32(d)
	}
}

// Closest returns the keypoint taken (k.qpts, gridded) within r px of
// (x, y) whose descriptor is nearest to d, and its distance (257: none).
func (k *Keyer) Closest(d *[4]uint64, x, y, r float64) (int, int) {
	best, bi := 257, -1
	rows := len(k.cellHead) / max(1, k.cellCols)
	// The cells around (x, y), within the grid (none for a point far
	// off or not a number).
	cell := func(v float64, n int) int {
		return int(max(-1, min(float64(n), math.Floor(v/verifyCell))))
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return bi, best
	}
	x0, x1 := max(0, cell(x-r, k.cellCols)), min(k.cellCols-1, cell(x+r, k.cellCols))
	y0, y1 := max(0, cell(y-r, rows)), min(rows-1, cell(y+r, rows))
	for gy := y0; gy <= y1; gy++ {
		for gx := x0; gx <= x1; gx++ {
			for i := k.cellHead[gy*k.cellCols+gx]; i >= 0; i = k.cellNext[i] {
				q := k.QPts[i]
				if dx, dy := float64(q.X)-x, float64(q.Y)-y; dx*dx+dy*dy > r*r {
					continue
				}
				if h := hamming(d, &k.QDesc[i]); h < best {
					best, bi = h, int(i)
				}
			}
		}
	}
	return bi, best
}

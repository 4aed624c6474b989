package card

import (
	"image"
	"math/bits"
	"time"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// Helpers of the tests that reach into the reader: tracing its matches and
// verifications, timing its parts, reading one outline as it does.

// traceMatchesForTest makes r report every card outline's best match: the
// taught card, its distance and the nearest other card's distance.
func (r *Reader) traceMatchesForTest(f func(box image.Rectangle, id string, dist, second float64)) {
	if f == nil {
		r.trace = nil
		return
	}
	r.trace = func(box image.Rectangle, m index.Match) { f(box, m.ID, m.Dist, m.Second) }
}

// fitOutlineForTest matches the outline q of img with r's taught cards and
// fits it to the nearest one (fitToCard): the fitted outline, the card
// nearest then, and that card's distance before and after.
func (r *Reader) fitOutlineForTest(img gocv.Mat, q [4]geom.Point) (fq [4]geom.Point, id string, before, after float64, err error) {
	if err := r.desc.Rectify(img, q, 0); err != nil {
		return q, "", 0, 0, err
	}
	var d [4]index.Desc
	if err := r.desc.Describe(&d); err != nil {
		return q, "", 0, 0, err
	}
	m := r.opts.Index.Match(&d)
	fq, fm, _, err := r.fitToCard(img, q, m)
	return fq, fm.ID, m.Dist, fm.Dist, err
}

// readOutlineForTest reads the card inside outline q of img as the reader
// reads an outline it found (its tries, fit and masked comparison).
func readOutlineForTest(r *Reader, img gocv.Mat, q [4]geom.Point) (Reading, error) {
	rd, _, _, err := r.readLearned(img, outline.Candidate{Q: q})
	return rd, err
}

// confirmKeyFoundForTest confirms outline q of img found by the keypoints
// of card want (with inliers agreeing), as the keypoint searches do, the
// frame read without a reference.
func confirmKeyFoundForTest(r *Reader, img gocv.Mat, q [4]geom.Point, want string, inliers int) (Reading, bool, error) {
	gocv.CvtColor(img, &r.grey, gocv.ColorBGRToGray)
	g, err := geom.GreyView(r.grey)
	if err != nil {
		return Reading{}, false, err
	}
	minW, maxW := r.cardWidths(img.Cols(), img.Rows())
	r.fits = 0
	return r.confirmKeyFound(img, g, index.KeyFound{Q: q, Inliers: inliers}, want, minW, maxW)
}

// confirmKeysForTest is one verification of a match at its pose: whether
// the match decision accepted it, the best taught example's keypoints
// found there and taught, of them those no other taught card shares, and
// whether the match stands.
type confirmKeysForTest struct {
	Accepted                      bool
	Found, Taught                 int
	DistinctFound, DistinctTaught int
	Stands                        bool
	// Dist and Second are the match's distance and the next card's.
	Dist, Second float64
	// Cells, DistinctCells and TaughtCells count the cells of a 4×4 grid
	// over the card holding keypoints found, distinct ones found, taught.
	Cells, DistinctCells, TaughtCells int
	// RivalFound and RivalTaught are the keypoints of the next nearest
	// card found at the same pose, and taught.
	RivalFound, RivalTaught int
}

// traceConfirmKeysForTest makes r report every verification of a match
// at its outline's pose (with the reference): the outline's box, the
// matched card and what was found.
func (r *Reader) traceConfirmKeysForTest(f func(box image.Rectangle, id string, c confirmKeysForTest)) {
	if f == nil {
		r.ref.confirmTrace = nil
		return
	}
	r.ref.confirmTrace = func(q [4]geom.Point, m index.Match, v index.Verified) {
		accepted := r.opts.Index.Accepts(m)
		var rv index.Verified
		if rival := m.Cands[1]; rival != "" && rival != m.ID {
			var corners [4]geom.Point
			for k := range 4 {
				corners[k] = q[(k+4-m.Rot)%4]
			}
			keys := r.opts.Index.KeysAll(rival, nil)
			rv, _ = r.keyer.VerifyAt(r.grey, corners, keys, m.Mask, nil)
		}
		f(geom.QuadBox(q), m.ID, confirmKeysForTest{Accepted: accepted,
			Found: v.Found, Taught: v.Taught, DistinctFound: v.DistinctFound, DistinctTaught: v.DistinctTaught,
			Stands: refVerified(accepted, v), Dist: m.Dist, Second: m.Second,
			Cells: bits.OnesCount64(v.Cells), DistinctCells: bits.OnesCount64(v.DistinctCells), TaughtCells: bits.OnesCount64(v.TaughtCells),
			RivalFound: rv.Found, RivalTaught: rv.Taught})
	}
}

// searchPlaceKeysForTest searches place of img (8-bit BGR) for the
// keypoints of every taught card as a changed blob is searched with the
// reference, and returns the cards read there.
//
// short is the card's short side (px) when known, else 0.
func searchPlaceKeysForTest(r *Reader, img gocv.Mat, place image.Rectangle, short float64) ([]Reading, error) {
	gocv.CvtColor(img, &r.grey, gocv.ColorBGRToGray)
	grey := r.grey
	gr, err := geom.ColourView(img)
	if err != nil {
		return nil, err
	}
	f := r.frameKeys()
	f.maskRead(grey, nil)
	if r.ref.keyer == nil {
		r.ref.keyer = index.NewKeyerWith(refKeyFeatures, index.FrameLevels)
	}
	minW, maxW := r.cardWidths(img.Cols(), img.Rows())
	return r.searchFrameKeys(img, grey, gr, nil, r.ref.keyer, place, true, short, minW, maxW)
}

// timeCardsForTest makes r add up where its time goes (on) or stop (off).
func (r *Reader) timeCardsForTest(on bool) {
	r.times = nil
	if on {
		r.times = newTimes()
	}
}

// cardTimesForTest returns what r added up since timeCardsForTest: the
// time and count of each part, and clears it.
func (r *Reader) cardTimesForTest() (map[string]time.Duration, map[string]int) {
	if r.times == nil {
		return nil, nil
	}
	d, n := r.times.d, r.times.n
	r.times.d, r.times.n = map[string]time.Duration{}, map[string]int{}
	return d, n
}

// followedForTest reports whether the last frame read was the cards of the
// frame before it followed (follow.go), not read in full, not even
// partly.
func (r *Reader) followedForTest() bool { return r.followRun > 0 && !r.partly }

// partlyFollowedForTest reports whether the last frame read was partly
// followed: the cards found again kept, the places they do not make read.
func (r *Reader) partlyFollowedForTest() bool { return r.partly }

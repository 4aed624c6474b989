package card

// Reading the cards shown to the camera: cards with an ArUco sticker are
// read by their marker (any rotation, strong tilt, small stickers), cards
// without one by comparing their rectified face with the taught cards of a
// [index.Index]. See [Reader]; [Tracker] turns the readings of a
// stream of frames into "card shown" events and [Watcher] joins the
// two for a live loop.
//
// One frame, in order:
//
//  1. Stickers: dark quadrilaterals of an adaptive threshold at half
//     resolution (marker.Scanner), corners refined at full resolution,
//     bits sampled through the quad's homography and matched against the
//     dictionary with per-bit confidence; a black border, a white quiet
//     zone and flat modules are required (card art does not read as a
//     marker). Small markers whose modules blur into each other are read
//     by fitting each code's cells with their neighbours' spill
//     (vision/marker). Where a card or a marker-sized blob was seen
//     but no marker read, the search runs again at full resolution (not
//     on an outline already taken for a taught card, step 3, nor on the
//     blobs inside one: card art).
//     Small places that still read nothing get three other thresholds.
//     A card whose sticker is read is not searched again away from the
//     sticker (cardOffSticker), and a candidate whose corners failed once
//     on a picture is not read again on it.
//     A card carries one sticker: a weaker read on another's card, or of a
//     very different size right next to it, is card art and dropped.
//  2. Card outlines (cards_quad.go): straight edges of the colour image
//     (colour steps count, not only brightness) at half resolution joined
//     into quads, each side re-fitted at full resolution to the outermost
//     clear edge near it (the card's own edge, not its inner frame).
//  3. An outline holding a sticker is that sticker's card; every other
//     outline is rectified and compared with the taught cards
//     (cards_index.go), trying its alternatives (inner frame, outer edge,
//     shadow, a little smaller and larger) too.
//  4. Where an outline came near a taught card but matched none (found a
//     few pixels off, at the card's inner frame, cut by a thumb), the place
//     around it is searched for the ORB keypoints of its three nearest
//     taught cards (cards_learn_keys.go, cards_learn.go); keypoints agreeing
//     on one homography give the card's outline, which must then match
//     that card like any other outline (untaught cards stay unknown).
//  5. With a picture of the empty table ([Reader.SetBackground], which
//     the live pipeline's [BackgroundReader] hands on), steps 1–4 look only
//     where the frame differs from it and the places no card was read in
//     are searched for keypoints (cards_ref.go). A changed blob in a
//     card's shape (or a part of one, the hand taken out) is an outline of
//     its own, compared quickly first (as found, as an inner frame, its
//     alternatives) and in full only where no other outline was read as a
//     taught card: it is often the card with its shadow or the hand's edge.
//     The sticker search and the outline finder keep only the dark pixels
//     and edges near what changed (the table's pattern around a blob makes
//     no sticker and no card's edge).
//  6. With the reference, the cards read in a frame are followed into the
//     next ones (cards_follow.go): each found near its last place by its
//     picture (a sticker by its marker read again there) is kept, and
//     steps 1–5 run only on the places that changed against the empty
//     table and that the cards kept do not make (none: they do not run);
//     every 10th frame is read in full.
//  7. With SearchWholeFrame (tablecam card: single pictures), the whole
//     frame away from the cards read is searched for the keypoints of
//     every taught card through a hashed index (cards_learn_frame.go); it
//     costs several times a plain reading, so the live loop does not.
//
// The per-condition accuracy lives in docs/figures.md (measured by
// TestCardsEvalMarkers and TestCardsEvalLearned with -eval-full), the cost
// of a frame in BenchmarkReadCards720p and its relatives. The parts that
// cost most are written so that they share work: the edge passes share
// their gradients, reduced to the strongest colour channel once (OpenCV's
// multi-channel Canny path costs most of the edge time), contours are
// approximated in one C++ call, outlines taken for a taught card are not
// searched for stickers again at full resolution, the retry passes skip
// places that are only texture blobs, and the taught-card comparison sums
// in C (tc_dot_i8). TestCardsReadingDigest checks that a change meant to
// make reading cheaper reads every card as before.

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// Unknown is the id of a card that was seen but not recognised: an
// untaught card, a sticker whose marker the marker map does not list. No
// card can be taught under it.
const Unknown = index.Unknown

// How a card was read.
const (
	MethodMarker  = "marker"  // by its ArUco sticker
	MethodLearned = "learned" // by its look, against the taught cards
)

// Reading is one card read from a picture.
type Reading struct {
	// ID is the content id (activation-3, ghoul-2, goal-4, card-017) or
	// Unknown.
	ID string `json:"id"`
	// Marker is the sticker's marker id and Dictionary its dictionary's
	// name (DICT_4X4_250) when the card was read by its marker.
	Marker     *int   `json:"marker,omitempty"`
	Dictionary string `json:"dictionary,omitempty"`
	// Method is MethodMarker or MethodLearned.
	Method string `json:"method"`
	// Box bounds the card in the picture (the marker's outline when the
	// card's own outline was not found). JSON: [x0, y0, x1, y1].
	Box image.Rectangle `json:"-"`
	// Confidence in [0, 1]. Markers: how cleanly the marker's bits read.
	// Learned cards: 0.5 at the match threshold, 1 for a perfect match.
	// Unknown learned cards: how far the card is from every taught card
	// (0.5 at the threshold, 1 at twice the threshold or with no cards
	// taught).
	Confidence float64 `json:"confidence"`
	// Corners are the card's outline (or the marker's), clockwise, the
	// card's top-left corner first when known; for drawing.
	Corners [4]geom.Point `json:"-"`
	// Kind is the marker map's kind of the entry (activation, token, goal,
	// card, other), "" when not read by a mapped marker.
	Kind string `json:"-"`
}

type cardReadingJSON struct {
	ID         string  `json:"id"`
	Marker     *int    `json:"marker,omitempty"`
	Dictionary string  `json:"dictionary,omitempty"`
	Method     string  `json:"method"`
	Box        [4]int  `json:"box"`
	Confidence float64 `json:"confidence"`
}

// MarshalJSON writes the reading as the CLI prints it: {"id", "marker",
// "dictionary", "method", "box": [x0, y0, x1, y1], "confidence"}.
func (r Reading) MarshalJSON() ([]byte, error) {
	return json.Marshal(cardReadingJSON{
		ID: r.ID, Marker: r.Marker, Dictionary: r.Dictionary, Method: r.Method,
		Box: [4]int{r.Box.Min.X, r.Box.Min.Y, r.Box.Max.X, r.Box.Max.Y}, Confidence: math.Round(r.Confidence*1000) / 1000,
	})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Reading) UnmarshalJSON(data []byte) error {
	var j cardReadingJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*r = Reading{ID: j.ID, Marker: j.Marker, Dictionary: j.Dictionary, Method: j.Method,
		Box: image.Rect(j.Box[0], j.Box[1], j.Box[2], j.Box[3]), Confidence: j.Confidence}
	return nil
}

// Options configures a [Reader]. Zero fields take the
// defaults.
type Options struct {
	// Markers maps marker ids to content and gives the dictionary (nil:
	// marker.DefaultMap, DICT_4X4_250).
	Markers *marker.Map
	// Index holds the taught cards (nil: only stickers are read; cards
	// without one are reported as unknown).
	Index *index.Index
	// MinMarkerSide is the smallest marker side searched for, in pixels
	// (default 14; markers of 20 px and more read reliably).
	MinMarkerSide float64
	// MinCardWidth and MaxCardWidth bound the width (short side) of card
	// outlines searched for, in pixels (defaults: 5.5% and 45% of the
	// picture's shorter side, 40 and 324 px at 720p).
	MinCardWidth, MaxCardWidth float64
	// HideUnknown leaves out cards that were seen but not recognised.
	HideUnknown bool
	// SearchWholeFrame also searches the whole picture, away from the
	// cards read, for the keypoints of every taught card: it finds taught
	// cards whose outline was missed (busy tables) but costs several
	// times a plain reading; for single pictures (cards_learn_frame.go).
	SearchWholeFrame bool
}

// Reader reads the cards in pictures. It keeps its buffers between
// pictures and is not safe for concurrent use; use one per goroutine.
// Close releases it.
type Reader struct {
	opts    Options
	markers *marker.Map
	scanner *marker.Scanner
	finder  *outline.Finder
	desc    *index.Describer
	keyer   *index.Keyer
	frame   *cardFrameKeys  // the frame-wide keypoint search, made when first needed
	dist    *index.Distinct // the taught keypoints cards share, made when first needed
	grey    gocv.Mat
	half    gocv.Mat
	bgr     gocv.Mat // colour copy of a grey or BGRA input
	reads   []marker.Sticker
	learned cardLearnedReads // preReadOutlines', reused across frames
	rois    []image.Rectangle
	retry   []image.Rectangle
	// firstKeyer takes keyer's first pyramid level alone (confirmAt's
	// first look).
	firstKeyer *index.Keyer
	// stickered are the cards whose sticker was read (stickerCards).
	stickered []cardStickered
	onCard    []bool          // stickerReadings': out[i] has its card's outline
	loose     []marker.Marker // dropStrayStickers': the stickers kept whose card's outline was not found
	ref       cardRef         // the empty table (cards_ref.go)
	refUsed   bool            // this frame was compared with ref
	fits      int             // outlines fitted to their card this frame (fitToCard)
	// fitFailed are the outlines fitted in vain this frame, fitLast in the
	// last one.
	fitFailed, fitLast []cardFitTried
	fitCanvas          gocv.Mat    // fitToCard's place around an outline
	size               image.Point // of the frames read
	closed             bool
	// trace, when set, sees every outline's best match (tests).
	trace func(box image.Rectangle, m index.Match)
	// readNow are the outlines read in vain this frame, readLast in the
	// last one; confirmNow and confirmLast the matches confirmed by
	// keypoints (cards_still.go).
	readNow, readLast       []cardReadStill
	confirmNow, confirmLast []cardConfirmStill
	// stickerNow and stickerLast are the places searched in vain for
	// stickers at full resolution (cards_still.go).
	stickerNow, stickerLast []cardStickerStill
	// followed are the cards followed from the last frame read (in full
	// or partly), followRun the frames followed or partly followed since
	// the last read in full, kept the indices in followed of those found
	// again this frame (cards_follow.go).
	followed  []cardFollowed
	followRun int
	kept      []int
	// followSamples are startFollowing's points and samples.
	followSamples cardFollowSamples
	partly        bool // the last frame was partly followed
	// times, when set, adds up where the time goes (TimeCardsForTest).
	times *cardTimes
}

// NewReader returns a reader with opts.
func NewReader(opts Options) (*Reader, error) {
	if opts.Markers == nil {
		opts.Markers = marker.DefaultMap()
	}
	for _, v := range []float64{opts.MinMarkerSide, opts.MinCardWidth, opts.MaxCardWidth} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("card: card reader: size %v must be a non-negative number", v)
		}
	}
	if opts.MinMarkerSide == 0 {
		opts.MinMarkerSide = 14
	}
	if opts.MaxCardWidth > 0 && opts.MinCardWidth > opts.MaxCardWidth {
		return nil, fmt.Errorf("card: card reader: card width range %v…%v is empty", opts.MinCardWidth, opts.MaxCardWidth)
	}
	sc, err := marker.NewScanner(opts.Markers.Dict())
	if err != nil {
		return nil, err
	}
	r := &Reader{opts: opts, markers: opts.Markers, scanner: sc, finder: outline.NewFinder(), desc: index.NewDescriber(),
		keyer: index.NewKeyer(), firstKeyer: index.NewFirstLevelKeyer(), fitCanvas: gocv.NewMat(), grey: gocv.NewMat(), half: gocv.NewMat(), bgr: gocv.NewMat(), ref: newCardRef()}
	r.ref.KeepNear = r.ref.KeepNearChanged
	r.keyer.Upper = index.NewUpperKeyer() // a full look after a first one (confirmAt)
	return r, nil
}

// Close releases the reader. Closing twice is harmless.
func (r *Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.scanner.Close()
	r.finder.Close()
	r.desc.Close()
	r.keyer.Close()
	r.firstKeyer.Close()
	r.fitCanvas.Close()
	if r.frame != nil {
		r.frame.close()
	}
	r.grey.Close()
	r.half.Close()
	r.bgr.Close()
	r.ref.close()
	return nil
}

// Options returns the reader's options, defaults filled in (the card widths
// stay 0 when they depend on the picture).
func (r *Reader) Options() Options { return r.opts }

// ReadCards returns the cards in img (8-bit BGR, BGRA or grey), sorted top
// to bottom, then left to right. A card with a sticker is read by its
// marker; a card without one is compared with the taught cards; a card
// seen but not recognised is Unknown (unless HideUnknown). With a
// reference of the empty table (SetBackground) only the places that differ
// from it are searched; a frame of another size than the reference is read
// without it, and the reference is dropped. The image is only read.
// ReadCards returns an error, never panics, for an empty or unsupported
// image.
func (r *Reader) ReadCards(img gocv.Mat) ([]Reading, error) {
	if r.closed {
		return nil, errors.New("card: card reader is closed")
	}
	if img.Empty() {
		return nil, errors.New("card: read cards: empty image")
	}
	w, h := img.Cols(), img.Rows()
	if w < 32 || h < 32 {
		return nil, fmt.Errorf("card: read cards: image of %d×%d pixels is too small", w, h)
	}
	colour := img
	switch img.Type() {
	case gocv.MatTypeCV8UC3:
		gocv.CvtColor(img, &r.grey, gocv.ColorBGRToGray)
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(img, &r.grey, gocv.ColorBGRAToGray)
		gocv.CvtColor(img, &r.bgr, gocv.ColorBGRAToBGR)
		colour = r.bgr
	case gocv.MatTypeCV8UC1:
		img.CopyTo(&r.grey)
		gocv.CvtColor(img, &r.bgr, gocv.ColorGrayToBGR)
		colour = r.bgr
	default:
		return nil, fmt.Errorf("card: read cards: image type %v, want 8-bit BGR, BGRA or grey", img.Type())
	}
	g, err := geom.GreyView(r.grey)
	if err != nil {
		return nil, fmt.Errorf("card: read cards: %w", err)
	}
	minW, maxW := r.cardWidths(w, h)
	r.times.start()

	// Stickers: the whole frame at half resolution, then at full
	// resolution where a marker-like square (or, without the reference, a
	// card) was seen but no marker read.
	// With a reference of the empty table, only where the frame differs
	// from it (cards_ref.go).
	r.size = image.Pt(w, h)
	if !colour.IsContinuous() {
		colour.CopyTo(&r.bgr)
		colour = r.bgr
	}
	if r.refUsed, err = r.refPlaces(colour, minW); err != nil {
		return nil, fmt.Errorf("card: read cards: %w", err)
	}
	r.times.lap("reference")
	maxSide := 0.9 * float64(min(w, h))
	cv, err := geom.ColourView(colour)
	if err != nil {
		return nil, fmt.Errorf("card: read cards: %w", err)
	}
	r.scanner.Forget(cv)
	defer r.scanner.Forget(geom.View{}) // the view is img's or r.bgr's, for this call only
	// The cards of the last frame followed, when nothing else is there;
	// else what they do not make is read (cards_follow.go).
	kept, open, followed := r.follow(g, minW)
	r.partly = followed && len(open) > 0
	if followed && !r.partly {
		r.times.lap("cards followed")
		cardSortReadings(kept)
		return kept, nil
	}
	if r.partly {
		r.openBlobs(open)
		r.times.lap("cards followed, partly")
	}
	r.fits = 0
	r.fitLast, r.fitFailed = r.fitFailed, r.fitLast[:0]
	r.startStill()
	if r.refUsed {
		err = r.scanHalfIn(g, max(r.opts.MinMarkerSide, marker.HalfMinSide), maxSide)
	} else {
		r.reads, err = r.scanner.Scan(r.grey, g, image.Rect(0, 0, w, h), marker.PassHalf, max(r.opts.MinMarkerSide, marker.HalfMinSide), maxSide, r.reads[:0])
	}
	if err != nil {
		return nil, fmt.Errorf("card: read cards: %w", err)
	}
	r.times.lap("stickers, half resolution")
	// Card outlines at half resolution.
	var outlines []outline.Candidate
	if r.refUsed {
		outlines, err = r.findOutlinesIn(colour, cv, minW, maxW)
	} else {
		hw, hh := (w+1)/2, (h+1)/2
		gocv.Resize(colour, &r.half, image.Pt(hw, hh), 0, 0, gocv.InterpolationArea)
		outlines, err = r.finder.Find(r.half, float64(hw)/float64(w), cv, minW, maxW)
	}
	if err != nil {
		return nil, fmt.Errorf("card: read cards: %w", err)
	}
	// Outlines without a sticker read so far are compared with the taught
	// cards now: a card taken for a taught one is not searched for a
	// sticker again at full resolution (neither are the marker-like places
	// on it: card art).
	r.times.lap("outlines")
	learned, err := r.preReadOutlines(colour, outlines)
	if err != nil {
		return nil, err
	}
	outlines, learned = r.settlePending(outlines, learned)
	r.times.lap("outlines compared")
	r.stickered = r.stickeredBlobs(r.stickerCards(outlines, r.stickered[:0]))
	blobs := r.stickerPlaces(outlines, learned, w, h)
	if err := r.scanStickerPlaces(g, blobs, maxSide, w, h); err != nil {
		return nil, err
	}
	r.times.lap("stickers, full resolution")
	out, used := r.stickerReadings(outlines, w, h)
	out = r.dropStrayStickers(out, r.onCard)
	out, missed, err := r.readOutlines(colour, outlines, used, learned, out)
	if err != nil {
		return nil, err
	}
	r.times.lap("outlines read")
	if out, err = r.readByKeys(colour, cv, out, missed, minW, maxW); err != nil {
		return nil, err
	}
	r.times.lap("keypoint searches")
	run := 0
	if r.partly {
		out, run = r.keepFollowed(out, kept), r.followRun
	}
	cardSortReadings(out)
	r.startFollowing(g, out)
	r.followRun = run
	return out, nil
}

// cardSortReadings sorts readings in rows, top to bottom, each left to
// right.
func cardSortReadings(out []Reading) {
	slices.SortStableFunc(out, func(a, b Reading) int {
		ay, by := (a.Box.Min.Y+a.Box.Max.Y)/2, (b.Box.Min.Y+b.Box.Max.Y)/2
		// Rows of cards: centres less than half a card apart are one row.
		if d := ay - by; d < -a.Box.Dy()/2 || d > a.Box.Dy()/2 {
			return d
		}
		return a.Box.Min.X - b.Box.Min.X
	})
}

// scanStickerPlaces searches the places stickerPlaces chose (blobs: where
// its blobs lie in r.rois) for stickers at full resolution, then the small
// places that read nothing and the failed candidates with the retry
// thresholds; reads are added to r.reads.
func (r *Reader) scanStickerPlaces(g geom.View, blobs [2]int, maxSide float64, w, h int) error {
	r.retry = r.retry[:0]
	var was []marker.Sticker // the reads before a place's search
	for _, roi := range cardMergeRects(r.rois, image.Rect(0, 0, w, h)) {
		if gave, ok := r.stickerStill(g, roi, false); ok {
			r.retry = append(r.retry, gave...) // searched in vain, still
			continue
		}
		before, tried := len(r.reads), len(r.retry)
		was = append(was[:0], r.reads...)
		var err error
		r.reads, err = r.scanner.Scan(r.grey, g, roi, marker.PassFull, r.opts.MinMarkerSide, min(maxSide, float64(max(roi.Dx(), roi.Dy()))), r.reads)
		if err != nil {
			return fmt.Errorf("card: read cards: %w", err)
		}
		// Small places that read nothing (a candidate that did not
		// decode at half resolution, a card's outline) and the
		// candidates that failed anywhere get other thresholds: a
		// sticker whose quiet zone is a hair wide at the card's edge,
		// glare across a marker. A place that is only dark blobs and
		// held no candidate at all at full resolution does not: on
		// textured tables those are most retry places, and they read
		// nothing (training scenes: 0 of 2400 markers).
		if len(r.reads) == before && roi.Dx()*roi.Dy() <= cardRetryArea && (len(r.scanner.Cands) > 0 || !cardOnlyBlobs(roi, r.rois, blobs)) {
			r.retry = append(r.retry, roi)
		}
		for _, c := range r.scanner.Failed {
			if cardOffSticker(geom.QuadCentre(c.Q), r.stickered) {
				continue
			}
			side := math.Sqrt(c.Area)
			r.retry = append(r.retry, geom.QuadBox(c.Q).Inset(-int(math.Ceil(0.6*side))-2))
		}
		if slices.Equal(was, r.reads) { // nothing read, nothing read better
			r.keepSticker(g, roi, false, r.retry[tried:])
		}
	}
	for _, roi := range cardMergeRects(r.retry, image.Rect(0, 0, w, h)) {
		if roi.Dx()*roi.Dy() > 4*cardRetryArea {
			continue
		}
		if _, ok := r.stickerStill(g, roi, true); ok {
			continue
		}
		was = append(was[:0], r.reads...)
		for _, pass := range marker.PassRetry {
			n := len(r.reads)
			var err error
			r.reads, err = r.scanner.Scan(r.grey, g, roi, pass, r.opts.MinMarkerSide, min(maxSide, float64(max(roi.Dx(), roi.Dy()))), r.reads)
			if err != nil {
				return fmt.Errorf("card: read cards: %w", err)
			}
			if len(r.reads) > n {
				break
			}
		}
		if slices.Equal(was, r.reads) {
			r.keepSticker(g, roi, true, nil)
		}
	}
	return nil
}

// stickerReadings turns r.reads into readings, each boxed by its card's
// outline where one fits (r.onCard[i]: out[i] has it); used marks the
// outlines taken by a sticker, its card or its quiet zone.
func (r *Reader) stickerReadings(outlines []outline.Candidate, w, h int) ([]Reading, []bool) {
	var out []Reading
	r.onCard = r.onCard[:0]
	used := make([]bool, len(outlines))
	dict := r.markers.Dict().String()
	for k, m := range r.reads {
		id := m.Marker.ID
		rd := Reading{ID: Unknown, Marker: &id, Dictionary: dict, Method: MethodMarker,
			Confidence: m.Conf, Corners: m.Marker.Corners, Box: geom.QuadBox(m.Marker.Corners)}
		if e, ok := r.markers.Lookup(id); ok {
			rd.ID, rd.Kind = e.Content, e.Kind
		}
		// The card the sticker is on: the smallest re-fitted outline
		// that fits it (cardStickerFits) and holds no other sticker of
		// its size (a card carries one: such an outline spans two cards);
		// else the box is the marker's.
		best := -1
		for i, o := range outlines {
			if !o.Refined || !cardStickerFits(m.Marker, o.Q) || r.holdsOtherSticker(k, o.Q) {
				continue
			}
			if best < 0 || o.Area < outlines[best].Area {
				best = i
			}
		}
		if best >= 0 {
			used[best] = true
			rd.Box = geom.QuadBox(outlines[best].Q)
			rd.Corners = cardOrderFrom(outlines[best].Q, m.Marker.Corners)
		}
		// Outlines that are just the sticker or its quiet zone, or hold
		// the sticker without being its card, go too.
		for i, o := range outlines {
			if !used[i] && (geom.InQuad(geom.QuadCentre(o.Q), m.Marker.Corners) || geom.InQuad(m.Marker.Center, o.Q)) {
				used[i] = true
			}
		}
		rd.Box = rd.Box.Intersect(image.Rect(0, 0, w, h))
		out = append(out, rd)
		r.onCard = append(r.onCard, best >= 0)
	}
	return out, used
}

// holdsOtherSticker reports whether q holds the centre of a marker read
// other than r.reads[k] and of about its size (within
// cardStickerSizeRatio).
func (r *Reader) holdsOtherSticker(k int, q [4]geom.Point) bool {
	mk := r.reads[k].Marker
	for j, o := range r.reads {
		ratio := o.Marker.Side / max(1, mk.Side)
		if j != k && ratio <= cardStickerSizeRatio && ratio >= 1/cardStickerSizeRatio && geom.InQuad(o.Marker.Center, q) {
			return true
		}
	}
	return false
}

// stickerPlaces puts in r.rois the places searched for stickers at full
// resolution: candidates that did not decode at half resolution (small
// ones), dark blobs of a small marker's size and, without the reference,
// the outlines with no sticker read, none on a card taken for a taught
// one. It returns where the blobs lie in r.rois.
func (r *Reader) stickerPlaces(outlines []outline.Candidate, learned cardLearnedReads, w, h int) [2]int {
	r.rois = r.rois[:0]
	for _, c := range r.scanner.Failed {
		side := math.Sqrt(c.Area)
		if ctr := geom.QuadCentre(c.Q); side > 48 || learned.onTaught(ctr, outlines) || cardOffSticker(ctr, r.stickered) {
			continue // large enough to have read at half resolution, or card art
		}
		r.rois = append(r.rois, geom.QuadBox(c.Q).Inset(-int(math.Ceil(0.6*side))-2))
	}
	// Dark blobs of a small marker's size, not already inside a marker
	// read, up to a sixth of the frame.
	blobs := [2]int{len(r.rois), len(r.rois)} // r.rois[blobs[0]:blobs[1]]
	blobArea := 0
	for _, b := range r.scanner.Blobs {
		ctr := geom.Point{X: float32(b.Min.X+b.Max.X) / 2, Y: float32(b.Min.Y+b.Max.Y) / 2}
		inside := false
		for _, m := range r.reads {
			if geom.InQuad(ctr, m.Marker.Corners) {
				inside = true
				break
			}
		}
		if inside || learned.onTaught(ctr, outlines) || cardOffSticker(ctr, r.stickered) {
			continue
		}
		box := b.Inset(-max(b.Dx(), b.Dy())/2 - 2)
		if blobArea += box.Dx() * box.Dy(); blobArea > w*h/6 {
			break
		}
		r.rois = append(r.rois, box)
	}
	blobs[1] = len(r.rois)

	// Outlines come best first; the full-resolution search covers at most
	// a third of the frame. With the reference they are not searched: the
	// half-resolution search looked at every place that changed, and its
	// failed candidates and small dark blobs (above) are searched again
	// here: searching the outlines as well reads no sticker more
	// (TestCardsEvalMarkers with the reference).
	if r.refUsed {
		return blobs
	}
	area := 0
	for i, o := range outlines {
		if learned[i].taught() {
			continue // a card read (preReadOutlines)
		}
		box := geom.QuadBox(o.Q).Inset(-2)
		if !r.stickerIn(o.Q) && area+box.Dx()*box.Dy() <= w*h/3 {
			r.rois = append(r.rois, box)
			area += box.Dx() * box.Dy()
		}
	}
	return blobs
}

// A weaker marker read within cardStickerReach marker sides of a stronger
// one and more than cardStickerSizeRatio times larger or smaller is card
// art, not a second sticker (stickers are one size, cards about so).
const (
	cardStickerReach     = 3.5
	cardStickerSizeRatio = 2.0
)

// cardTryDoubledChanged is the least share of an outline doubled that
// must differ from the reference for it to be tried: the outline's half
// and at least half the added one.
const cardTryDoubledChanged = 0.75

// cardTryFar is the distance to the nearest card from which an outline
// is not tried grown or shrunk.
const cardTryFar = 1.0

// With the reference, an outline less than cardRefCompareChanged of which
// differs from it is not compared with the taught cards (the table's
// pattern, a shadow's edge: it is not reported as an unknown card either,
// cardRefUnknownChanged), and the other outlines tried for it (its
// alternatives, extensions, growths) are not tried where less than
// cardRefTryChanged of them differs. Training scenes
// (TestCardsTrainLearned, 100 taught, with the reference): of 5,294
// outlines compared, the 1,769 matches that stood had at least 0.53 of
// their outline changed, and 167 of the others less than 0.4; of 25,228
// outlines tried, none of those that made or started a match that stood
// (the match decision's or the fit's) had less than 0.53 changed, and
// 1,788 of the others less than 0.5.
const (
	cardRefCompareChanged = 0.4
	cardRefTryChanged     = 0.5
)

// cardRefOccludedFar is the distance from which a match with the
// reference is not tried again without the occluded blocks: on the same
// training scenes, the few such comparisons that give a match the match
// decision takes all start from a match at most 1.03 away, while many
// start from 1.15 or more.
const cardRefOccludedFar = 1.15

// cardGrowTries are the last growths of an outline tried.
var cardGrowTries = [...]float64{-0.035, 0.035}

// cardWidths returns the least and most card widths read in a w×h frame:
// the options', or by default 5.5% and 45% of the frame's shorter side.
func (r *Reader) cardWidths(w, h int) (minW, maxW float64) {
	short := float64(min(w, h))
	minW, maxW = r.opts.MinCardWidth, r.opts.MaxCardWidth
	if minW == 0 {
		minW = max(24, 0.055*short)
	}
	if maxW == 0 {
		maxW = max(minW, 0.45*short)
	}
	return minW, maxW
}

// readLearned compares the card inside outline o with the taught cards.
func (r *Reader) readLearned(img gocv.Mat, o outline.Candidate) (Reading, bool, index.Match, error) {
	return r.readLearnedAs(img, o, false)
}

// readLearnedAs is readLearned; quick, only o as found, as an inner frame
// and its other outlines are tried, not fitted to the card's edges nor
// compared without occluders, and a card not taken is kept for no later
// frame (the caller reads o in full later when no other outline is read
// as its card: findOutlinesIn's blobs).
func (r *Reader) readLearnedAs(img gocv.Mat, o outline.Candidate, quick bool) (Reading, bool, index.Match, error) {
	return r.readLearnedOn(img, o, quick, nil)
}

// cardQuickRead is where a quick reading of an outline stopped
// (readLearnedOn), for its full reading to go on from there rather than
// compare the same outlines again: the best match of the outlines tried so
// far and the next try (-1: none, a match was taken); when that match was
// taken, its confirmation.
type cardQuickRead struct {
	set            bool
	best           index.Match
	grow           float64
	bestQ          [4]geom.Point
	first          float64
	next           int
	confirmed, ran bool // the confirmation's verdict; ran: it was asked
}

// readLearnedOn is readLearnedAs; with qr set, a quick reading records in
// it where it stopped, and a full reading with qr recorded goes on from
// there: the same reading as from the start, as the quick tries are the
// full ones' first and a match taken stops both.
func (r *Reader) readLearnedOn(img gocv.Mat, o outline.Candidate, quick bool, qr *cardQuickRead) (Reading, bool, index.Match, error) {
	rd := Reading{ID: Unknown, Method: MethodLearned, Box: geom.QuadBox(o.Q), Corners: o.Q}
	ix := r.opts.Index
	if ix == nil || ix.Len() == 0 {
		if r.opts.HideUnknown || !cardLikely(o) {
			return rd, false, index.Match{}, nil
		}
		rd.Confidence = 1
		return rd, true, index.Match{}, nil
	}
	if s, ok := r.readStill(img, o); ok {
		if r.trace != nil {
			r.trace(s.box, s.m)
		}
		rd = s.rd
		rd.Box, rd.Corners = geom.QuadBox(o.Q), o.Q
		return rd, s.ok, s.m, nil
	}
	changed := 1.0
	if r.refUsed {
		if changed = r.ref.ChangedIn(o.Q); changed < cardRefCompareChanged {
			return rd, false, index.Match{}, nil
		}
	}
	t0 := r.times.now()
	defer r.times.since("  compared with the taught cards", t0)
	thr := ix.MatchThreshold()
	best := index.Match{Dist: math.Inf(1), Second: math.Inf(1)}
	grow := 0.0
	bestQ := o.Q
	tries := cardLearnTries(o)
	if quick {
		tries = tries[:min(len(tries), 2+len(o.Alts))]
	}
	first := -1.0 // the outline's own distance
	from := 0
	resumed := !quick && qr != nil && qr.set
	if resumed {
		best, grow, bestQ, first, from = qr.best, qr.grow, qr.bestQ, qr.first, qr.next
		if from < 0 {
			from = len(tries) // the quick reading took a match
		}
	}
	next := len(tries)
	for ti := from; ti < len(tries); ti++ {
		tr := tries[ti]
		// The outline grown or shrunk a little is not tried where the
		// outline itself is far from any card (on training scenes these
		// tries never made a card read from there).
		if ti > 0 && tr.q == o.Q && first >= cardTryFar {
			continue
		}
		// With the reference, the half added must be a card's too: the
		// outline doubled changed at least cardTryDoubledChanged.
		if tr.doubled && r.refUsed && r.ref.ChangedIn(tr.q) < cardTryDoubledChanged {
			continue
		}
		if ti > 0 && !tr.doubled && r.refUsed && r.triedChanged(tr.q, o.Q, changed) < cardRefTryChanged {
			continue
		}
		t1 := r.times.now()
		if err := r.desc.Rectify(img, tr.q, tr.grow); err != nil {
			continue
		}
		d := &r.desc.Turns
		if err := r.desc.Describe(d); err != nil {
			return rd, false, best, err
		}
		m := ix.Match(d)
		r.times.since("      one outline compared", t1)
		if ti == 0 {
			first = m.Dist
		}
		if m.Dist < best.Dist {
			best, grow, bestQ = m, tr.grow, tr.q
		}
		if ix.Accepts(best) {
			next = -1 // a full reading stops here too
			break     // no need to look further
		}
	}
	if quick && qr != nil {
		*qr = cardQuickRead{set: true, best: best, grow: grow, bestQ: bestQ, first: first, next: next}
	}
	// An outline near a card but not fitted, the frame's fits spent, is
	// not kept as read in vain (it is fitted in a later frame).
	r.times.since("    outlines tried", t0)
	unfitted := false
	if !ix.Accepts(best) && !quick {
		unfitted = r.fits >= cardFitFrame
		var err error
		t1 := r.times.now()
		bestQ, grow, best, err = r.fitOutline(img, bestQ, grow, best)
		r.times.since("    outline fitted", t1)
		if err != nil {
			return rd, false, best, err
		}
	}
	if !ix.Accepts(best) && !quick && !(r.refUsed && best.Dist >= cardRefOccludedFar) {
		// A glare spot or a thumb over the card: compared without them.
		t1 := r.times.now()
		mm, ok, err := r.matchOccluded(img, bestQ, grow)
		r.times.since("    compared without occluders", t1)
		if err != nil {
			return rd, false, best, err
		}
		if ok && ix.Accepts(mm) {
			mm.Cands = best.Cands
			best = mm
		}
	}
	traced := geom.QuadBox(geom.GrowQuad(bestQ, grow))
	if r.trace != nil {
		r.trace(traced, best)
	}
	accepted := ix.Accepts(best)
	// With the reference, matches are confirmed at the pose; without it,
	// masked ones (fewer pixels compared) are.
	if r.refUsed && (accepted || cardRefBand(best)) || accepted && best.Mask != nil {
		if resumed && qr.ran && accepted {
			// Taken at the quick reading, which asked for this
			// confirmation of the same match already.
			accepted = qr.confirmed
		} else {
			var err error
			t1 := r.times.now()
			accepted, err = r.confirmStill(img, cardMatchedOutline(bestQ, grow, best), best)
			r.times.since("    confirmed by keypoints", t1)
			if err != nil {
				return rd, false, best, err
			}
			if quick && qr != nil && next == -1 { // the match a full reading takes at once
				qr.confirmed, qr.ran = accepted, true
			}
		}
	}
	if accepted {
		rd.ID = best.ID
		rd.Confidence = 0.5 + 0.5*max(0, min(1, (thr-best.Dist)/thr))
		// The card's top-left corner first.
		for k := range 4 {
			rd.Corners[k] = bestQ[(k+4-best.Rot)%4]
		}
		rd.Box = geom.QuadBox(rd.Corners)
		if grow > 0 && !best.Grown { // the outline tried as the inner frame: the card is the outline grown
			rd.Corners = geom.GrowQuad(rd.Corners, grow)
			rd.Box = geom.QuadBox(rd.Corners)
		}
		return rd, true, best, nil
	}
	ok := !r.opts.HideUnknown && cardLikely(o)
	if ok {
		rd.Confidence = 0.5 + 0.5*max(0, min(1, (best.Dist-thr)/thr))
	}
	if !unfitted && !quick {
		r.keepRead(img, o, rd, ok, best, traced)
	}
	return rd, ok, best, nil
}

// cardMatchedOutline is where the card is when outline q, rectified grown
// by grow, made match m: q grown (or shrunk) by grow, but q itself when
// m's example is the taught outline grown as well (the teaching photo's
// outline was the card's, and q is too, matched grown like it). A match's
// keypoints are looked for there (refConfirms), and a card read is
// reported there (not shrunk). Taking q grown whatever the example reports
// many more cards larger than they are (TestCardsTrainLearned's training
// scenes).
func cardMatchedOutline(q [4]geom.Point, grow float64, m index.Match) [4]geom.Point {
	if m.Grown {
		return q
	}
	return geom.GrowQuad(q, grow)
}

// triedChanged is the share of outline q tried for outline o (whose share
// is changed) that differs from the reference.
func (r *Reader) triedChanged(q, o [4]geom.Point, changed float64) float64 {
	if q == o {
		return changed
	}
	return r.ref.ChangedIn(q)
}

// cardTry is an outline readLearned tries, grown by grow; doubled, the
// outline found doubled across its width.
type cardTry struct {
	q       [4]geom.Point
	grow    float64
	doubled bool
}

// cardLearnTries are the outlines readLearned tries for outline o, in
// order: o as found, then as an inner frame grown to the whole card, then
// the other outlines seen for this card; a squarish o extended to a whole
// card (its art panel, the card cut by a thumb across it); o doubled
// across its width at either end (half a card cut across its length is in
// a card's proportions too); last, o a little smaller and larger (an edge
// found a few pixels off on a side or two).
func cardLearnTries(o outline.Candidate) []cardTry {
	tries := []cardTry{{q: o.Q}, {q: o.Q, grow: index.GrowInner}}
	for _, a := range o.Alts {
		tries = append(tries, cardTry{q: a})
	}
	for _, e := range cardExtensions(o.Q) {
		tries = append(tries, cardTry{q: e})
	}
	for _, d := range index.Doubled(o.Q) {
		tries = append(tries, cardTry{q: d, doubled: true})
	}
	for _, g := range cardGrowTries {
		tries = append(tries, cardTry{q: o.Q, grow: g})
	}
	return tries
}

// An outline whose long sides are less than cardExtendAspect times its
// short ones is tried extended to a card's proportions (cardRefAspect):
// its long sides to that of its short ones, or its short sides to that of
// its long ones (a part across the card's width), at one end, the other, or
// both.
const cardExtendAspect = 1.25

// cardExtensions returns the outline q extended to a whole card
// (cardExtendAspect), none if q is in a card's proportions.
func cardExtensions(q [4]geom.Point) [][4]geom.Point {
	a, b := geom.SideMeans(q)
	if a <= 0 || b <= 0 || max(a, b) >= cardExtendAspect*min(a, b) {
		return nil
	}
	var out [][4]geom.Point
	// Sides 12 and 30 (length b) grow to cardRefAspect·a, or sides 01
	// and 23 (length a) to cardRefAspect·b.
	for _, c := range []struct {
		along bool // grow along sides 12 and 30
		f     float64
	}{{true, cardRefAspect*a/b - 1}, {false, cardRefAspect*b/a - 1}} {
		for _, at := range []float64{0, 0.5, 1} { // the share added before the outline's start
			out = append(out, geom.ExtendQuad(q, c.along, c.f, at))
		}
	}
	return out
}

// dropStrayStickers keeps one sticker per card among the marker readings
// out (r.reads in the same order; onCard: whether each one's card outline
// was found): a weaker read whose centre lies on the card of another (a
// panel of card art that happened to decode) goes; so does a weaker one of
// a very different size right next to another marker (within a card's
// length of it) when that one's card outline was not found. The markers
// kept whose card outline was not found are r.loose.
func (r *Reader) dropStrayStickers(out []Reading, onCard []bool) []Reading {
	keep := make([]Reading, 0, len(out))
	r.loose = r.loose[:0]
	for i, rd := range out {
		drop := false
		mi := r.reads[i].Marker
		for j, o := range out {
			if j == i || o.Confidence <= rd.Confidence {
				continue
			}
			mj := r.reads[j].Marker
			if onCard[j] && geom.InQuad(mi.Center, o.Corners) && !geom.InQuad(mj.Center, rd.Corners) {
				drop = true
				break
			}
			ratio := mi.Side / max(1, mj.Side)
			if geom.Dist(mi.Center, mj.Center) < cardStickerReach*mj.Side && (ratio > cardStickerSizeRatio || ratio < 1/cardStickerSizeRatio) {
				drop = true
				break
			}
		}
		if !drop {
			keep = append(keep, rd)
			if !onCard[i] {
				r.loose = append(r.loose, mi)
			}
		}
	}
	return keep
}

// cardLearnedRead is the comparison of one outline with the taught cards
// (readLearned), done ahead of the full-resolution sticker search.
type cardLearnedRead struct {
	rd       Reading
	ok, done bool
	m        index.Match
}

// taught reports whether the outline was taken for a taught card.
func (l cardLearnedRead) taught() bool { return l.done && l.rd.ID != Unknown }

// cardLearnedReads are the reads of a frame's outlines, by index.
type cardLearnedReads []cardLearnedRead

// onTaught reports whether p lies on an outline taken for a taught card.
func (ls cardLearnedReads) onTaught(p geom.Point, outlines []outline.Candidate) bool {
	for i, l := range ls {
		if l.taught() && geom.InQuad(p, outlines[i].Q) {
			return true
		}
	}
	return false
}

// readAt reports whether p lies on a card read (taken for a taught card,
// reported) in ls.
func (ls cardLearnedReads) readAt(p geom.Point) bool {
	for _, l := range ls {
		if l.taught() && l.ok && geom.InQuad(p, l.rd.Corners) {
			return true
		}
	}
	return false
}

// stickerIn reports whether a sticker read so far (r.reads) lies in q.
func (r *Reader) stickerIn(q [4]geom.Point) bool {
	for _, m := range r.reads {
		if geom.InQuad(m.Marker.Center, q) {
			return true
		}
	}
	return false
}

// preReadOutlines compares the outlines that hold no sticker read so far
// (r.reads) with the taught cards.
func (r *Reader) preReadOutlines(colour gocv.Mat, outlines []outline.Candidate) (cardLearnedReads, error) {
	ls := slices.Grow(r.learned[:0], len(outlines))[:len(outlines)]
	clear(ls)
	r.learned = ls
	ix := r.opts.Index
	if ix == nil || ix.Len() == 0 {
		return ls, nil
	}
	for i, o := range outlines {
		if r.refUsed && i < len(r.ref.pre) {
			ls[i] = r.ref.pre[i] // read with the reference already
			continue
		}
		if r.stickerIn(o.Q) {
			continue
		}
		if r.refUsed && ls.readAt(geom.QuadCentre(o.Q)) {
			// On a card read already: a reading of it would be that
			// card again or dropped (dropStrayReadings).
			ls[i] = cardLearnedRead{rd: Reading{ID: Unknown}, done: true}
			continue
		}
		var qr *cardQuickRead // a blob's outline read quickly (settlePending)
		if p := &r.ref; r.refUsed && i >= p.pendingFrom && i-p.pendingFrom < len(p.pending) && p.pending[i-p.pendingFrom].q.Q == o.Q {
			qr = &p.pending[i-p.pendingFrom].quick
		}
		rd, ok, m, err := r.readLearnedOn(colour, o, false, qr)
		if err != nil {
			return nil, err
		}
		ls[i] = cardLearnedRead{rd: rd, ok: ok, done: true, m: m}
	}
	return ls, nil
}

// readOutlines reads the card outlines not used by a sticker against the
// taught cards (learned: those compared already) and appends what they
// show to out; missed are the outlines that came near a taught card but
// matched none, for the keypoint search.
func (r *Reader) readOutlines(colour gocv.Mat, outlines []outline.Candidate, used []bool, learned cardLearnedReads, out []Reading) ([]Reading, []cardKeyMiss, error) {
	bounds := image.Rect(0, 0, colour.Cols(), colour.Rows())
	var missed []cardKeyMiss
	for i, o := range outlines {
		if used[i] {
			continue
		}
		l := learned[i]
		if !l.done {
			var err error
			if l.rd, l.ok, l.m, err = r.readLearned(colour, o); err != nil {
				return nil, nil, err
			}
		}
		rd, ok, m := l.rd, l.ok, l.m
		if rd.ID == Unknown && m.ID != "" {
			at := -1
			if ok {
				at = len(out)
			}
			missed = append(missed, cardKeyMiss{o: o, m: m, at: at})
		}
		if !ok {
			continue
		}
		rd.Box = rd.Box.Intersect(bounds)
		out = append(out, rd)
	}
	return out, missed, nil
}

// cardLikely reports whether an outline that matched nothing is still
// surely a card (to be reported as unknown): a strong, refined outline.
func cardLikely(o outline.Candidate) bool {
	return o.Refined
}

// cardOrderFrom turns the card outline q so that its first corner is the
// card's top-left as the sticker sees it (stickers are stuck upright): the
// corner farthest up and left in the marker's own coordinates.
func cardOrderFrom(q, marker [4]geom.Point) [4]geom.Point {
	var src [4][2]float64
	for k, p := range marker {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	h, ok := geom.HomographyOf(src, [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}})
	best, bk := math.Inf(1), 0
	for k := range 4 {
		d := geom.Dist(q[k], marker[0])
		if ok {
			u, v := h.Apply(float64(q[k].X), float64(q[k].Y))
			d = u + v
		}
		if d < best {
			best, bk = d, k
		}
	}
	var out [4]geom.Point
	for k := range 4 {
		out[k] = q[(k+bk)%4]
	}
	return out
}

// cardMergeRects clips the rectangles to bounds and merges overlapping
// ones, so that no pixel is searched twice.
func cardMergeRects(rs []image.Rectangle, bounds image.Rectangle) []image.Rectangle {
	var out []image.Rectangle
	for _, r := range rs {
		r = r.Intersect(bounds)
		if r.Empty() {
			continue
		}
		out = append(out, r)
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(out) && !merged; i++ {
			for j := i + 1; j < len(out); j++ {
				if out[i].Overlaps(out[j]) {
					out[i] = out[i].Union(out[j])
					out = append(out[:j], out[j+1:]...)
					merged = true
					break
				}
			}
		}
	}
	return out
}

// cardOnlyBlobs reports whether the places of rs that overlap roi all lie in
// rs[blobs[0]:blobs[1]].
func cardOnlyBlobs(roi image.Rectangle, rs []image.Rectangle, blobs [2]int) bool {
	for i, x := range rs {
		if (i < blobs[0] || i >= blobs[1]) && x.Overlaps(roi) {
			return false
		}
	}
	return true
}

// Watcher reads the cards in each frame and reports the ones shown: a
// [Reader] feeding a [Tracker]. It is what a live loop calls once
// per frame; not safe for concurrent use.
type Watcher struct {
	Reader  *Reader
	Tracker *Tracker
	// last holds the cards read in the frame last observed.
	last []Reading
}

// NewWatcher returns a watcher reading with r and tracking with cfg.
func NewWatcher(r *Reader, cfg TrackerConfig) *Watcher {
	return &Watcher{Reader: r, Tracker: NewTracker(cfg)}
}

// Observe reads frame (its index and image) and returns the cards shown as
// of it.
func (w *Watcher) Observe(frame int, img gocv.Mat) ([]Shown, error) {
	cards, err := w.Reader.ReadCards(img)
	w.last = cards
	if err != nil {
		return nil, err
	}
	return w.Tracker.Observe(frame, cards)
}

// InView returns the cards read in the frame last observed (for drawing
// them on a preview).
func (w *Watcher) InView() []Reading { return w.last }

// Shown is Observe returning only the content ids of the cards shown.
func (w *Watcher) Shown(frame int, img gocv.Mat) ([]string, error) {
	evs, err := w.Observe(frame, img)
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.Card.ID
	}
	return ids, nil
}

// cardStickerFits reports whether outline q can be the card the sticker m
// is on: the whole marker inside it, clear of its edges by a third of the
// marker (the quiet zone and a margin), its sides square to the marker's,
// the card from 2 to 6.5 marker sides wide and at most 8.5 long (a sticker
// is at least a sixth of its card's width) and its sides no more than 1.9
// times apart.
func cardStickerFits(m marker.Marker, q [4]geom.Point) bool {
	if !geom.QuadInQuad(m.Corners, q) {
		return false
	}
	// Stickers are stuck square to the card: every side of the card runs
	// within 20° of a side of the marker.
	ma := math.Atan2(float64(m.Corners[1].Y-m.Corners[0].Y), float64(m.Corners[1].X-m.Corners[0].X))
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		l := geom.Dist(a, b)
		if l == 0 {
			return false
		}
		turn := math.Mod(math.Atan2(float64(b.Y-a.Y), float64(b.X-a.X))-ma+4*math.Pi, math.Pi/2)
		if min(turn, math.Pi/2-turn) > 20*math.Pi/180 {
			return false
		}
		// Distance of the marker's centre from side k.
		d := math.Abs(float64(b.X-a.X)*float64(m.Center.Y-a.Y)-float64(b.Y-a.Y)*float64(m.Center.X-a.X)) / l
		if d < 0.5*m.Side+m.Side/3 {
			return false
		}
	}
	l0, l1 := geom.SideMeans(q)
	short, long := min(l0, l1), max(l0, l1)
	return short >= 2*m.Side && short <= 6.5*m.Side && long <= 8.5*m.Side && long <= 1.9*short
}

// cardRetryArea is the largest place (px²) the retry passes search.
const cardRetryArea = 140 * 140

// cardStickered is a card whose sticker was read: its outline and the
// marker's.
type cardStickered struct{ card, marker [4]geom.Point }

// stickerCards appends to out the re-fitted outlines that a sticker read so
// far (r.reads) fits (cardStickerFits): cards whose sticker is read. A card
// carries one sticker; what else looks like a marker on it, away from the
// sticker, is card art (a stray sticker, dropped, or a wrong one), so the
// full-resolution and retry searches leave it alone (cardOffSticker).
func (r *Reader) stickerCards(outlines []outline.Candidate, out []cardStickered) []cardStickered {
	for _, o := range outlines {
		if !o.Refined {
			continue
		}
		for _, m := range r.reads {
			if cardStickerFits(m.Marker, o.Q) {
				out = append(out, cardStickered{o.Q, m.Marker.Corners})
				break
			}
		}
	}
	return out
}

// cardOffSticker reports whether p lies on one of the cards cs but not on
// its sticker (where a second look may read the sticker better).
func cardOffSticker(p geom.Point, cs []cardStickered) bool {
	for _, c := range cs {
		if geom.InQuad(p, c.card) && !geom.InQuad(p, c.marker) {
			return true
		}
	}
	return false
}

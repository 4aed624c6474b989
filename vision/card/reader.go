package card

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

type readingJSON struct {
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
	return json.Marshal(readingJSON{
		ID: r.ID, Marker: r.Marker, Dictionary: r.Dictionary, Method: r.Method,
		Box: [4]int{r.Box.Min.X, r.Box.Min.Y, r.Box.Max.X, r.Box.Max.Y}, Confidence: math.Round(r.Confidence*1000) / 1000,
	})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Reading) UnmarshalJSON(data []byte) error {
	var j readingJSON
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
	// times a plain reading; for single pictures (frame_keys.go).
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
	frame   *frameKeys      // the frame-wide keypoint search, made when first needed
	dist    *index.Distinct // the taught keypoints cards share, made when first needed
	grey    gocv.Mat
	half    gocv.Mat
	bgr     gocv.Mat // colour copy of a grey or BGRA input
	reads   []marker.Sticker
	learned learnedReads // preReadOutlines', reused across frames
	rois    []image.Rectangle
	retry   []image.Rectangle
	// firstKeyer takes keyer's first pyramid level alone (confirmAt's
	// first look).
	firstKeyer *index.Keyer
	// stickered are the cards whose sticker was read (stickerCards).
	stickered []stickered
	onCard    []bool          // stickerReadings': out[i] has its card's outline
	loose     []marker.Marker // dropStrayStickers': the stickers kept whose card's outline was not found
	ref       refState        // the empty table (ref.go)
	refUsed   bool            // this frame was compared with ref
	fits      int             // outlines fitted to their card this frame (fitToCard)
	// fitFailed are the outlines fitted in vain this frame, fitLast in the
	// last one.
	fitFailed, fitLast []fitTried
	fitCanvas          gocv.Mat    // fitToCard's place around an outline
	size               image.Point // of the frames read
	closed             bool
	// trace, when set, sees every outline's best match (tests).
	trace func(box image.Rectangle, m index.Match)
	// readNow are the outlines read in vain this frame, readLast in the
	// last one; confirmNow and confirmLast the matches confirmed by
	// keypoints (still.go).
	readNow, readLast       []readStill
	confirmNow, confirmLast []confirmStill
	// stickerNow and stickerLast are the places searched in vain for
	// stickers at full resolution (still.go).
	stickerNow, stickerLast []stickerStill
	// followed are the cards followed from the last frame read (in full
	// or partly), followRun the frames followed or partly followed since
	// the last read in full, kept the indices in followed of those found
	// again this frame (follow.go).
	followed  []followTrack
	followRun int
	kept      []int
	// followSamples are startFollowing's points and samples.
	followSamples followSamples
	partly        bool // the last frame was partly followed
	// times, when set, adds up where the time goes (timeCardsForTest).
	times *times
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
		keyer: index.NewKeyer(), firstKeyer: index.NewFirstLevelKeyer(), fitCanvas: gocv.NewMat(), grey: gocv.NewMat(), half: gocv.NewMat(), bgr: gocv.NewMat(), ref: newRef()}
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
	// from it (ref.go).
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
	// else what they do not make is read (follow.go).
	kept, open, followed := r.follow(g, minW)
	r.partly = followed && len(open) > 0
	if followed && !r.partly {
		r.times.lap("cards followed")
		sortReadings(kept)
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
	sortReadings(out)
	r.startFollowing(g, out)
	r.followRun = run
	return out, nil
}

// sortReadings sorts readings in rows, top to bottom, each left to
// right.
func sortReadings(out []Reading) {
	slices.SortStableFunc(out, func(a, b Reading) int {
		ay, by := (a.Box.Min.Y+a.Box.Max.Y)/2, (b.Box.Min.Y+b.Box.Max.Y)/2
		// Rows of cards: centres less than half a card apart are one row.
		if d := ay - by; d < -a.Box.Dy()/2 || d > a.Box.Dy()/2 {
			return d
		}
		return a.Box.Min.X - b.Box.Min.X
	})
}

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

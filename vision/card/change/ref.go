package change

import (
	"image"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// The comparison with the reference.
const (
	// Shrink is the factor the frame and the reference are shrunk
	// by for the comparison.
	Shrink = 4
	// cardRefLevel is the largest channel difference (shrunk frame) at
	// which a pixel counts as changed.
	cardRefLevel = 20
	// cardRefMaxShare is the share of the frame that may differ from the
	// reference for it to be used.
	cardRefMaxShare = 0.5
	// A shadow darkens the table's channels by about one factor: at least
	// cardRefShadowMin, the factors less than cardRefShadowSpread apart.
	cardRefShadowMin    = 0.3
	cardRefShadowSpread = 0.12
	// A pixel that fails that test is still a shadow's when the 3×3
	// pixels around it (the shrunk frame's: 12×12 of the camera's) pass
	// it on their means, and each is darker than the table's by more than
	// cardRefShadowNearDark over its three channels, their factors less
	// than cardRefShadowNearRange apart (shadowNearRef). A soft shadow
	// on a dark table fails the test of each pixel on the camera's noise
	// (felt's red channel is about 30: noise of 2.5 there moves its factor
	// by 0.08), and the shadow then joins the card's blob, which the
	// outline finder and the keypoint search must then read. A sticker's squares, a card's
	// art or its edge in the 3×3 fail the range or the darkening.
	cardRefShadowNearRange = 0.25
	cardRefShadowNearDark  = 6
	// An outline matching no taught card is a shadow, not an unknown card,
	// when its pixels are the table's darkened by about one factor
	// (shadowIn): each channel's factor (against the unchanged pixels') at
	// least cardRefShadowMin and at most shadowMax, the three less
	// than cardRefShadowSpread apart, and the pixels off that darkened
	// table by at most shadowFit of its level (root mean square).
	// Training scenes of untaught cards with the empty table, the outlines
	// reported unknown and at least card.refUnknownChanged of them changed:
	// 24 of the 27 on no card are such shadows, none of the 1,150 on a
	// card; a card's own pixels are off the table's by 0.3 and more.
	shadowMax = 0.97
	shadowFit = 0.2
	// cleanShare is the least share of its quadrilateral a blob fills
	// for the blob to be a card alone, whose outline the blob gives (the
	// outline finder does not search it).
	cleanShare = 0.8
	// partCleanShare is cleanShare for a blob's part with the skin
	// taken out (a thumb over the card takes a bite out of it, and so do
	// skin-coloured parts of its art at its edge).
	partCleanShare = 0.6
)

// Ref is a reference of the empty table and what differs from it
// in the frame last compared, with its buffers.
// Ref is a picture of the empty table, shrunk by Shrink, and what differs
// from it in the frame last compared (Changed): the changed pixels (Mask),
// their blobs (FindBlobs) and the clean parts of blobs that hold a hand
// (FindParts). Its exported fields are for the card reader, which reads
// against it; it is not safe for concurrent use.
type Ref struct {
	Small      gocv.Mat    // the reference shrunk (BGR; Has: set)
	Cur, Mask  gocv.Mat    // the frame shrunk (ShrinkTo), its changed pixels (Changed)
	Conv       gocv.Mat    // a BGRA or grey reference converted
	Kernel     gocv.Mat    // 5×5: closes and opens Mask
	up         gocv.Mat    // a place of mask at full resolution
	Size       image.Point // of the frames the reference is for
	Has        bool        // Small holds a reference
	Blobs      []Blob      // the changed regions (FindBlobs)
	Parts      []Blob      // clean parts of blobs that are not, their skin taken out
	part       gocv.Mat    // a blob's place of mask, skin taken out
	partRaw    gocv.Mat    // c.part before the opening
	skin       gocv.Mat    // c.part's skin-coloured pixels
	labels     gocv.Mat    // their connected parts
	rim        []bool      // by label: the part reaches the blob's rim
	kernel3    gocv.Mat    // 3×3: the hand's rim
	partKernel gocv.Mat    // closes a part's gaps
	RawMask    gocv.Mat    // Mask before its closing and opening
	near       gocv.Mat    // a place's rawMask dilated (keepNearChanged)
	nearKernel gocv.Mat    // near's dilation: Near each way
	nearRow    []uint8     // keepNearChanged's row of near spread to the picture's columns
	nearCol    []int32     // keepNearChanged's column of near by a pixel's
	// KeepNear is KeepNearChanged bound once by the card reader: set as
	// the sticker search's and the outline finder's filter it allocates
	// nothing per frame.
	KeepNear func(bin []uint8, cols, rows int, origin image.Point, scale float64)
	// tableGain is each channel's factor from the reference to the frame
	// over the unchanged pixels (shadowIn; set when tableGainOK).
	tableGain   [3]float64
	tableGainOK bool
}

// Blob is one changed region: its box (full resolution), its
// changed area (full-resolution pixels) and its smallest enclosing
// rectangle (full resolution).
// Blob is a region of the frame that differs from the reference: its box,
// area and smallest enclosing rectangle (full-resolution pixels).
type Blob struct {
	Box  image.Rectangle
	Area float64
	Rect [4]geom.Point
	// Quad is the quadrilateral around it (when HasQuad); Clean when the
	// blob fills it (a card alone: no hand, no other card touching it).
	Quad           [4]geom.Point
	HasQuad, Clean bool
	// Rest is a blob's changed area once the hand is taken out, Read the
	// area of its parts read as cards (the reader's); Parent is a part's
	// blob.
	Rest, Read float64
	Parent     int
	// ReadAt is 1 + the index of a part's reading as a card among the
	// reader's first readings (0: none).
	ReadAt int
}

// NewRef returns a reference without a picture (Has false); Close
// releases it.
func NewRef() Ref {
	c := Ref{Small: gocv.NewMat(), Cur: gocv.NewMat(), Mask: gocv.NewMat(), Conv: gocv.NewMat(),
		Kernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(5, 5)), up: gocv.NewMat(),
		part: gocv.NewMat(), partRaw: gocv.NewMat(), skin: gocv.NewMat(), labels: gocv.NewMat(), kernel3: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)), partKernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(9, 9)),
		RawMask: gocv.NewMat(), near: gocv.NewMat(), nearKernel: gocv.GetStructuringElement(gocv.MorphRect, image.Pt(2*Near+1, 2*Near+1))}
	return c
}

// Close releases the reference's buffers.
func (c *Ref) Close() {
	for _, m := range []*gocv.Mat{&c.Small, &c.Cur, &c.Mask, &c.Conv, &c.Kernel, &c.up, &c.part, &c.partRaw, &c.skin, &c.labels, &c.kernel3, &c.partKernel, &c.RawMask, &c.near, &c.nearKernel} {
		m.Close()
	}
}

// ShrinkTo shrinks src by Shrink into dst (linear
// interpolation), rounding the sides up.
func ShrinkTo(src gocv.Mat, dst *gocv.Mat) {
	w, h := (src.Cols()+Shrink-1)/Shrink, (src.Rows()+Shrink-1)/Shrink
	gocv.Resize(src, dst, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
}

package index

import (
	"errors"
	"fmt"

	"gocv.io/x/gocv"
)

// orb is OpenCV's ORB (gocv) with the card keyers' parameters. It
// checks the images it is given, so that a wrong one is an error rather
// than an OpenCV exception, and keeps its descriptor buffer from call to
// call. It is not safe for concurrent use.
type orb struct {
	orb    gocv.ORB
	cfg    orbConfig
	made   bool
	closed bool
	desc   []byte
}

// orbConfig holds the parameters of newOrb.
type orbConfig struct {
	features, levels, edge, patch, fast int
	scale                               float32
}

// newOrb is gocv.NewORBWithParams(features, scale, levels, edge, 0, 2,
// ORBScoreTypeHarris, patch, fast), made by the first call that needs it.
func newOrb(features int, scale float32, levels, edge, patch, fast int) *orb {
	return &orb{cfg: orbConfig{features: features, scale: scale, levels: levels, edge: edge, patch: patch, fast: fast}}
}

// open makes the ORB if it is not made yet.
func (o *orb) open() error {
	if o.closed {
		return errors.New("index: ORB is closed")
	}
	if !o.made {
		c := o.cfg
		o.orb = gocv.NewORBWithParams(c.features, c.scale, c.levels, c.edge, 0, 2, gocv.ORBScoreTypeHarris, c.patch, c.fast)
		o.made = true
	}
	return nil
}

func (o *orb) close() {
	o.closed = true
	if o.made {
		o.orb.Close()
		o.made = false
	}
}

// detectAndCompute returns the keypoints of img (8-bit grey) where mask
// (empty: everywhere; else 8-bit, img's size) is not zero and their
// descriptors, 32 bytes each; the descriptors are o's, valid until its next
// call.
func (o *orb) detectAndCompute(img, mask gocv.Mat) ([]gocv.KeyPoint, []byte, error) {
	if err := o.open(); err != nil {
		return nil, nil, err
	}
	if img.Empty() || img.Type() != gocv.MatTypeCV8UC1 {
		return nil, nil, fmt.Errorf("index: ORB keypoints: image type %v, want 8-bit grey", img.Type())
	}
	if !mask.Empty() && (mask.Type() != gocv.MatTypeCV8UC1 || mask.Rows() != img.Rows() || mask.Cols() != img.Cols()) {
		return nil, nil, fmt.Errorf("index: ORB keypoints: mask %d×%d of type %v, want 8-bit %d×%d",
			mask.Cols(), mask.Rows(), mask.Type(), img.Cols(), img.Rows())
	}
	kps, desc := o.orb.DetectAndCompute(img, mask)
	defer desc.Close()
	if len(kps) == 0 {
		return kps, o.desc[:0], nil
	}
	if desc.Rows() != len(kps) || desc.Cols() != 32 || desc.Type() != gocv.MatTypeCV8U {
		return nil, nil, fmt.Errorf("index: ORB keypoints: %d descriptors of %d bytes (type %v) for %d keypoints",
			desc.Rows(), desc.Cols(), desc.Type(), len(kps))
	}
	b, err := desc.DataPtrUint8()
	if err != nil {
		return nil, nil, fmt.Errorf("index: ORB descriptors: %w", err)
	}
	o.desc = append(o.desc[:0], b[:32*len(kps)]...)
	return kps, o.desc, nil
}

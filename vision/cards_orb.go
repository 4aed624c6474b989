package vision

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include <stdlib.h>
#include "aruco.h"
*/
import "C"

import (
	"errors"
	"unsafe"

	"gocv.io/x/gocv"
)

// cardOrb is OpenCV's ORB computed by tablecam (aruco.cpp, tc_orb_detect):
// the same keypoints and the same descriptor bytes as gocv's
// DetectAndCompute (TestCardOrbAsOpenCV), in about a third of its time on
// a card's picture (BenchmarkCardOrb). A region of a larger Mat is left to
// OpenCV's ORB. It keeps its buffers and is not safe for concurrent use.
type cardOrb struct {
	p      *C.TcOrb
	cfg    cardOrbConfig
	closed bool
	owns   bool // the keypoints and descriptors are computed here (else by OpenCV's ORB)
	kp     []float32
	desc   []byte
	kps    []gocv.KeyPoint
}

// cardOrbConfig holds the parameters of newCardOrb.
type cardOrbConfig struct {
	features, levels, edge, patch, fast int
	scale                               float32
	own                                 bool
}

// newCardOrb is gocv.NewORBWithParams(features, scale, levels, edge, 0, 2,
// ORBScoreTypeHarris, patch, fast); own false leaves the keypoints and
// descriptors to OpenCV's ORB (a test's reference). The native ORB is made
// by the first call that needs it, so that its one failure (an allocation)
// is that call's error.
func newCardOrb(features int, scale float32, levels, edge, patch, fast int, own bool) *cardOrb {
	return &cardOrb{cfg: cardOrbConfig{features: features, scale: scale, levels: levels, edge: edge, patch: patch, fast: fast, own: own}}
}

// open makes the native ORB if it is not made yet.
func (o *cardOrb) open() error {
	if o.closed {
		return errors.New("vision: ORB is closed")
	}
	if o.p != nil {
		return nil
	}
	c := o.cfg
	var cerr *C.char
	var owns C.int
	ownc := C.int(0)
	if c.own {
		ownc = 1
	}
	p := C.tc_orb_new(C.int(c.features), C.float(c.scale), C.int(c.levels), C.int(c.edge), C.int(c.patch), C.int(c.fast), ownc, &owns, &cerr)
	if p == nil {
		return arucoError("create ORB", cerr)
	}
	o.p, o.owns = p, owns != 0
	return nil
}

func (o *cardOrb) close() {
	o.closed = true
	if o.p != nil {
		C.tc_orb_free(o.p)
		o.p = nil
	}
}

// detectAndCompute returns the keypoints of img (8-bit grey) where mask
// (empty: everywhere) is not zero and their descriptors, 32 bytes each; both
// are o's, valid until its next call.
func (o *cardOrb) detectAndCompute(img, mask gocv.Mat) ([]gocv.KeyPoint, []byte, error) {
	if err := o.open(); err != nil {
		return nil, nil, err
	}
	var cerr *C.char
	n := int(C.tc_orb_detect(o.p, unsafe.Pointer(img.Ptr()), unsafe.Pointer(mask.Ptr()), &cerr))
	if n < 0 {
		return nil, nil, arucoError("ORB keypoints", cerr)
	}
	if n == 0 {
		return o.kps[:0], o.desc[:0], nil
	}
	if cap(o.kp) < 6*n {
		o.kp, o.desc, o.kps = make([]float32, 6*n), make([]byte, 32*n), make([]gocv.KeyPoint, n)
	}
	o.kp, o.desc, o.kps = o.kp[:6*n], o.desc[:32*n], o.kps[:n]
	C.tc_orb_copy(o.p, (*C.float)(unsafe.Pointer(&o.kp[0])), (*C.uint8_t)(unsafe.Pointer(&o.desc[0])), C.int(n))
	for i := range n {
		k := o.kp[6*i:]
		o.kps[i] = gocv.KeyPoint{X: float64(k[0]), Y: float64(k[1]), Size: float64(k[2]), Angle: float64(k[3]), Response: float64(k[4]), Octave: int(k[5]), ClassID: -1}
	}
	return o.kps, o.desc, nil
}

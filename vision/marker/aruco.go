package marker

// ArUco markers through a small binding of our own (aruco.cpp): gocv's
// contrib package does not build against Debian's OpenCV.

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include <stdlib.h>
#include "aruco.h"
*/
import "C"

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unsafe"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Dict is one of OpenCV's predefined ArUco dictionaries. Its value is
// OpenCV's PREDEFINED_DICTIONARY_NAME, so the zero value is DICT_4X4_50.
type Dict int

// The predefined dictionaries. NxN is the number of data bits per side; the
// number after it is how many ids the dictionary holds. Fewer bits read
// better on small markers; fewer ids keep the ids further apart (fewer
// misreads).
const (
	Dict4X4_50 Dict = iota
	Dict4X4_100
	Dict4X4_250
	Dict4X4_1000
	Dict5X5_50
	Dict5X5_100
	Dict5X5_250
	Dict5X5_1000
	Dict6X6_50
	Dict6X6_100
	Dict6X6_250
	Dict6X6_1000
	Dict7X7_50
	Dict7X7_100
	Dict7X7_250
	Dict7X7_1000
	DictArucoOriginal
	DictAprilTag16h5
	DictAprilTag25h9
	DictAprilTag36h10
	DictAprilTag36h11
)

// markerDicts lists the dictionaries in OpenCV's order: name, ids, bits.
// TestMarkerDictTable checks it against OpenCV.
var markerDicts = [...]struct {
	name string
	size int
	bits int
}{
	{"DICT_4X4_50", 50, 4},
	{"DICT_4X4_100", 100, 4},
	{"DICT_4X4_250", 250, 4},
	{"DICT_4X4_1000", 1000, 4},
	{"DICT_5X5_50", 50, 5},
	{"DICT_5X5_100", 100, 5},
	{"DICT_5X5_250", 250, 5},
	{"DICT_5X5_1000", 1000, 5},
	{"DICT_6X6_50", 50, 6},
	{"DICT_6X6_100", 100, 6},
	{"DICT_6X6_250", 250, 6},
	{"DICT_6X6_1000", 1000, 6},
	{"DICT_7X7_50", 50, 7},
	{"DICT_7X7_100", 100, 7},
	{"DICT_7X7_250", 250, 7},
	{"DICT_7X7_1000", 1000, 7},
	{"DICT_ARUCO_ORIGINAL", 1024, 5},
	{"DICT_APRILTAG_16h5", 30, 4},
	{"DICT_APRILTAG_25h9", 35, 5},
	{"DICT_APRILTAG_36h10", 2320, 6},
	{"DICT_APRILTAG_36h11", 587, 6},
}

// ParseDict returns the dictionary with OpenCV's name, such as
// "DICT_4X4_250" or "DICT_ARUCO_ORIGINAL". Case and the "DICT_" prefix are
// optional ("4x4_250" works too).
func ParseDict(name string) (Dict, error) {
	key := strings.ToUpper(strings.TrimSpace(name))
	if !strings.HasPrefix(key, "DICT_") {
		key = "DICT_" + key
	}
	for i, d := range markerDicts {
		if strings.ToUpper(d.name) == key {
			return Dict(i), nil
		}
	}
	return 0, fmt.Errorf("marker: unknown ArUco dictionary %q (want e.g. DICT_4X4_50, DICT_5X5_100, DICT_ARUCO_ORIGINAL)", name)
}

// Valid reports whether d is one of the predefined dictionaries.
func (d Dict) Valid() bool { return d >= 0 && int(d) < len(markerDicts) }

// String returns OpenCV's name of the dictionary, e.g. "DICT_4X4_50".
func (d Dict) String() string {
	if !d.Valid() {
		return fmt.Sprintf("Dict(%d)", int(d))
	}
	return markerDicts[d].name
}

// Size returns the number of ids in the dictionary: valid ids are 0 to
// Size()-1. It is 0 for an invalid Dict.
func (d Dict) Size() int {
	if !d.Valid() {
		return 0
	}
	return markerDicts[d].size
}

// Bits returns the number of data bits per marker side (4 for DICT_4X4_*).
// A printed marker is Bits()+2 modules wide: the data plus a black border of
// one module on each side.
func (d Dict) Bits() int {
	if !d.Valid() {
		return 0
	}
	return markerDicts[d].bits
}

// CheckID returns an error unless d is valid and id one of its ids.
func (d Dict) CheckID(id int) error {
	if !d.Valid() {
		return fmt.Errorf("marker: invalid marker dictionary %v", d)
	}
	if id < 0 || id >= d.Size() {
		return fmt.Errorf("marker: marker id %d out of range for %v (0..%d)", id, d, d.Size()-1)
	}
	return nil
}

// Marker is an ArUco marker found in an image.
type Marker struct {
	// ID is the marker's id in the detector's dictionary.
	ID int
	// Corners are the corners of the marker's black square in full-image
	// pixels, clockwise on screen, starting with the corner that is the
	// marker's top-left when upright (so the marker's rotation is the angle
	// of Corners[1]-Corners[0]).
	Corners [4]geom.Point
	// Center is the mean of the corners.
	Center geom.Point
	// Side is the mean side length in pixels.
	Side float64
}

// Angle returns the marker's in-image rotation in degrees, [0, 360), 0 when
// upright and growing clockwise on screen.
func (m Marker) Angle() float64 {
	dx := float64(m.Corners[1].X - m.Corners[0].X)
	dy := float64(m.Corners[1].Y - m.Corners[0].Y)
	a := math.Atan2(dy, dx) * 180 / math.Pi
	if a < 0 {
		a += 360
	}
	return a
}

// Options configures a [Detector]. Zero fields take the
// defaults.
type Options struct {
	// Scale, in (0, 1], shrinks the grey image before the search (area
	// interpolation); corners are mapped back to full-resolution pixels.
	// 0.5 costs a fraction of the full-resolution search
	// (BenchmarkMarkerDetect720p) and finds the same markers down to 30 px
	// sides; it misses some smaller ones (about a quarter at 20 px), which
	// Scale 1 still reads. Default 1.
	Scale float64
	// RefineSubpix refines every corner with cornerSubPix on the
	// full-resolution grey image (window kept inside one module), which
	// brings corners found at a reduced Scale back to sub-pixel accuracy.
	RefineSubpix bool
	// MinSide drops markers whose mean side is shorter than MinSide
	// full-resolution pixels (the search skips contours too short for
	// them). Default 0: anything OpenCV finds.
	MinSide float64
}

// Detector finds ArUco markers of one dictionary in frames. It keeps
// its buffers between frames and is not safe for concurrent use; use one
// detector per goroutine. Close releases its C++ objects.
type Detector struct {
	p       *C.TcArucoDetector
	dict    Dict
	opts    Options
	ids     []C.int
	corners []C.float
	contig  gocv.Mat // copy of non-continuous input (e.g. a Region)
	hasCopy bool
	cerr    *C.char // error message from C++, kept here so Detect does not allocate
}

// NewDetector returns a detector for markers of d.
func NewDetector(d Dict, opts Options) (*Detector, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("marker: invalid marker dictionary %v", d)
	}
	if opts.Scale == 0 {
		opts.Scale = 1
	}
	if !(opts.Scale > 0 && opts.Scale <= 1) {
		return nil, fmt.Errorf("marker: marker detector scale %v not in (0, 1]", opts.Scale)
	}
	if opts.MinSide < 0 || math.IsNaN(opts.MinSide) || math.IsInf(opts.MinSide, 0) {
		return nil, fmt.Errorf("marker: marker detector MinSide %v must be a non-negative number", opts.MinSide)
	}
	var cerr *C.char
	refine := C.int(0)
	if opts.RefineSubpix {
		refine = 1
	}
	p := C.tc_aruco_detector_new(C.int(d), C.double(opts.Scale), refine, C.double(opts.MinSide), &cerr)
	if p == nil {
		return nil, arucoError("create marker detector", cerr)
	}
	const initialCap = 16
	return &Detector{
		p:       p,
		dict:    d,
		opts:    opts,
		ids:     make([]C.int, initialCap),
		corners: make([]C.float, 8*initialCap),
	}, nil
}

// Dict returns the detector's dictionary.
func (md *Detector) Dict() Dict { return md.dict }

// Options returns the detector's options, defaults filled in.
func (md *Detector) Options() Options { return md.opts }

// Detect returns the markers in img (8-bit BGR, BGRA or grey), ordered by ID
// and then left to right. The image is only read during the call. Detect
// returns an error, never panics, for an empty or unsupported image.
func (md *Detector) Detect(img gocv.Mat) ([]Marker, error) {
	if md.p == nil {
		return nil, errors.New("marker: marker detector is closed")
	}
	if img.Empty() {
		return nil, errors.New("marker: detect markers: empty image")
	}
	switch img.Type() {
	case gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
	default:
		return nil, fmt.Errorf("marker: detect markers: image type %v, want 8-bit grey, BGR or BGRA", img.Type())
	}
	if !img.IsContinuous() {
		// A Region of a larger Mat: copy it into a buffer kept for the next
		// frame (CopyTo reuses it while the size stays the same).
		if !md.hasCopy {
			md.contig = gocv.NewMat()
			md.hasCopy = true
		}
		img.CopyTo(&md.contig)
		img = md.contig
	}
	data, err := img.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("marker: detect markers: %w", err)
	}
	rows, cols, step := img.Rows(), img.Cols(), img.Step()
	rowBytes := cols * img.ElemSize()
	if rows <= 0 || cols <= 0 || step < rowBytes || len(data) < step*(rows-1)+rowBytes {
		return nil, fmt.Errorf("marker: detect markers: inconsistent image buffer (%dx%d, step %d, %d bytes)", cols, rows, step, len(data))
	}

	md.cerr = nil
	n := C.tc_aruco_detect(md.p, (*C.uint8_t)(unsafe.Pointer(&data[0])), C.int(rows), C.int(cols), C.int(img.Type()), C.size_t(step),
		&md.ids[0], &md.corners[0], C.int(len(md.ids)), &md.cerr)
	if n < 0 {
		err := arucoError("detect markers", md.cerr)
		md.cerr = nil
		return nil, err
	}
	if int(n) > len(md.ids) {
		md.ids = make([]C.int, n)
		md.corners = make([]C.float, 8*n)
		n = C.tc_aruco_results(md.p, &md.ids[0], &md.corners[0], C.int(len(md.ids)))
	}
	if n == 0 {
		return nil, nil
	}
	markers := make([]Marker, n)
	for i := range markers {
		m := &markers[i]
		m.ID = int(md.ids[i])
		var cx, cy float64
		for k := range 4 {
			m.Corners[k] = geom.Point{X: float32(md.corners[8*i+2*k]), Y: float32(md.corners[8*i+2*k+1])}
			cx += float64(m.Corners[k].X) / 4
			cy += float64(m.Corners[k].Y) / 4
		}
		for k := range 4 {
			a, b := m.Corners[k], m.Corners[(k+1)%4]
			m.Side += math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)) / 4
		}
		m.Center = geom.Point{X: float32(cx), Y: float32(cy)}
	}
	slices.SortStableFunc(markers, func(a, b Marker) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Center.X, b.Center.X))
	})
	return markers, nil
}

// Close releases the detector. Closing twice is harmless; Detect fails
// after Close.
func (md *Detector) Close() error {
	if md.p != nil {
		C.tc_aruco_detector_free(md.p)
		md.p = nil
	}
	if md.hasCopy {
		md.contig.Close()
		md.hasCopy = false
	}
	return nil
}

// QuietZone returns the width in pixels of the white quiet zone that
// Generate puts around a marker sidePx wide: one module, rounded up.
func QuietZone(d Dict, sidePx int) int {
	modules := d.Bits() + 2
	return (sidePx + modules - 1) / modules
}

// Generate returns marker id of d as an 8-bit grey image: the black
// square sidePx wide inside a white quiet zone QuietZone(d, sidePx)
// wide on every side. Without the quiet zone, art touching the marker
// stops it from being read. The caller closes the Mat. sidePx must allow at
// least one pixel per module (Bits()+2); sides that are a multiple of
// Bits()+2 give equal modules.
func Generate(d Dict, id, sidePx int) (gocv.Mat, error) {
	if err := d.CheckID(id); err != nil {
		return gocv.Mat{}, err
	}
	if sidePx < d.Bits()+2 || sidePx > 10000 {
		return gocv.Mat{}, fmt.Errorf("marker: marker side %d px not in %d..10000 for %v", sidePx, d.Bits()+2, d)
	}
	q := QuietZone(d, sidePx)
	n := sidePx + 2*q
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), n, n, gocv.MatTypeCV8UC1)
	if err := DrawAt(&m, d, id, sidePx, q, q); err != nil {
		m.Close()
		return gocv.Mat{}, err
	}
	return m, nil
}

// DrawAt draws the marker (no quiet zone) with its top-left corner at
// (x, y) into the continuous 8-bit grey Mat dst.
func DrawAt(dst *gocv.Mat, d Dict, id, sidePx, x, y int) error {
	if err := d.CheckID(id); err != nil {
		return err
	}
	if dst.Type() != gocv.MatTypeCV8UC1 {
		return errors.New("marker: draw marker: destination is not 8-bit grey")
	}
	data, err := dst.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("marker: draw marker: %w", err)
	}
	rows, cols, step := dst.Rows(), dst.Cols(), dst.Step()
	if rows <= 0 || cols <= 0 || step < cols || len(data) < step*(rows-1)+cols {
		return errors.New("marker: draw marker: invalid destination")
	}
	var cerr *C.char
	if C.tc_aruco_draw(C.int(d), C.int(id), C.int(sidePx), (*C.uint8_t)(unsafe.Pointer(&data[0])),
		C.int(rows), C.int(cols), C.size_t(step), C.int(x), C.int(y), &cerr) != 0 {
		return arucoError("draw marker", cerr)
	}
	return nil
}

// arucoError turns a message from aruco.cpp into an error and frees it.
func arucoError(op string, cerr *C.char) error {
	if cerr == nil {
		return fmt.Errorf("marker: %s: failed", op)
	}
	msg := C.GoString(cerr)
	C.tc_aruco_free_error(cerr)
	return fmt.Errorf("marker: %s: %s", op, strings.TrimSpace(msg))
}

// arucoDictInfo asks OpenCV for a dictionary's size and bits (tests).
func arucoDictInfo(d Dict) (size, bits int, err error) {
	var n, b C.int
	var cerr *C.char
	if C.tc_aruco_dict_info(C.int(d), &n, &b, &cerr) != 0 {
		return 0, 0, arucoError("dictionary info", cerr)
	}
	return int(n), int(b), nil
}

// arucoLiveObjects counts aruco.cpp's live heap objects (tests).
func arucoLiveObjects() int { return int(C.tc_aruco_live_objects()) }

// cHeapInUse returns the bytes malloc has handed out and not taken back,
// OpenCV's included, or -1 if unknown (tests).
func cHeapInUse() int64 { return int64(C.tc_aruco_malloc_in_use()) }

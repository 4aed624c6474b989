package outline

// The edge map of the outline finder in one call to edges.cpp
// (tc_canny_busy): a busy table needs a second Canny pass at higher
// thresholds, and both passes share the image's gradients instead of
// computing them twice.

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include <stdlib.h>
#include "edges.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"gocv.io/x/gocv"
)

// edgesOf writes the Canny edges of src (continuous, 8-bit, grey or BGR)
// to f.edges at f.lo and f.hi; when more than maxEdgeShare of the
// pixels are edges (a plaid, a printed mat floods the map), the edges at
// twice those thresholds, so that only the stronger edges are followed.
// Whether the last image was busy only orders the passes (f.busy): a
// busy table stays busy from frame to frame, and its edges at the higher
// thresholds alone often decide it.
func (f *Finder) edgesOf(src gocv.Mat) error {
	rows, cols, ch := src.Rows(), src.Cols(), src.Channels()
	gt := gocv.MatTypeCV16SC1
	switch src.Type() {
	case gocv.MatTypeCV8UC1:
	case gocv.MatTypeCV8UC3:
		gt = gocv.MatTypeCV16SC3
	default:
		return errors.New("outline: edges: want an 8-bit grey or BGR image")
	}
	if src.Empty() || !src.IsContinuous() {
		return errors.New("outline: edges: want a non-empty continuous image")
	}
	ensureMat(&f.dx, rows, cols, gt)
	ensureMat(&f.dy, rows, cols, gt)
	ensureMat(&f.edges, rows, cols, gocv.MatTypeCV8UC1)
	s, err := src.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("outline: edges: image: %w", err)
	}
	dx, err := f.dx.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("outline: edges: x gradient: %w", err)
	}
	dy, err := f.dy.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("outline: edges: y gradient: %w", err)
	}
	e, err := f.edges.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("outline: edges: edge map: %w", err)
	}
	if len(s) < rows*cols*ch || len(dx) < 2*rows*cols*ch || len(dy) < 2*rows*cols*ch || len(e) < rows*cols {
		return errors.New("outline: edges: short image buffer")
	}
	var busy, busyFirst C.int
	if f.busy {
		busyFirst = 1
	}
	var cerr *C.char
	if C.tc_canny_busy((*C.uint8_t)(unsafe.Pointer(&s[0])), C.int(rows), C.int(cols), C.int(ch), C.size_t(src.Step()),
		(*C.int16_t)(unsafe.Pointer(&dx[0])), (*C.int16_t)(unsafe.Pointer(&dy[0])), C.size_t(f.dx.Step()),
		(*C.uint8_t)(unsafe.Pointer(&e[0])), C.size_t(f.edges.Step()), C.double(f.lo), C.double(f.hi),
		C.double(maxEdgeShare), busyFirst, &busy, &cerr) != 0 {
		return cError("edges", cerr)
	}
	f.busy = busy != 0
	return nil
}

// ensureMat makes *m a rows×cols Mat of type t, reallocating only when
// it is not one already.
func ensureMat(m *gocv.Mat, rows, cols int, t gocv.MatType) {
	if m.Rows() == rows && m.Cols() == cols && m.Type() == t && m.IsContinuous() {
		return
	}
	m.Close()
	*m = gocv.NewMatWithSize(rows, cols, t)
}

// edgePolys are the polygons of an edge map's contours (find): xy holds
// the vertices as x, y pairs, n each polygon's vertex count, in order.
type edgePolys struct {
	xy, n []int32
}

// find approximates (closed Douglas–Peucker, epsilon eps) every contour of
// the edge map edges whose bounding box's longer side is at least
// minExtent, in one call to edges.cpp: gocv hands each contour, point and
// approximation across cgo with a call of its own.
func (p *edgePolys) find(edges gocv.Mat, minExtent, eps float64) error {
	if edges.Type() != gocv.MatTypeCV8UC1 || edges.Empty() {
		return errors.New("outline: edge polygons: want a non-empty 8-bit edge map")
	}
	data, err := edges.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("outline: edge polygons: %w", err)
	}
	rows, cols, step := edges.Rows(), edges.Cols(), edges.Step()
	if step < cols || len(data) < step*(rows-1)+cols {
		return errors.New("outline: edge polygons: inconsistent image buffer")
	}
	p.n, p.xy = p.n[:cap(p.n)], p.xy[:cap(p.xy)]
	if len(p.n) == 0 {
		p.reserve(1024, 8192)
	}
	for {
		var np, npt C.int
		var cerr *C.char
		if C.tc_edge_polys((*C.uint8_t)(unsafe.Pointer(&data[0])), C.int(rows), C.int(cols), C.size_t(step), C.double(minExtent), C.double(eps),
			(*C.int)(unsafe.Pointer(&p.xy[0])), C.int(len(p.xy)), (*C.int)(unsafe.Pointer(&p.n[0])), C.int(len(p.n)), &np, &npt, &cerr) != 0 {
			return cError("edge polygons", cerr)
		}
		if int(np) <= len(p.n) && 2*int(npt) <= len(p.xy) {
			p.n, p.xy = p.n[:np], p.xy[:2*npt]
			return nil
		}
		// Rare: grow and search again.
		p.reserve(2*int(np), 2*int(npt))
	}
}

// reserve makes room for n polygons of pts vertices in all.
func (p *edgePolys) reserve(n, pts int) {
	p.n = make([]int32, max(n, 1))
	p.xy = make([]int32, 2*max(pts, 1))
}

// cError turns a message from edges.cpp into an error and frees
// it.
func cError(op string, cerr *C.char) error {
	if cerr == nil {
		return fmt.Errorf("outline: %s: failed", op)
	}
	msg := C.GoString(cerr)
	C.tc_free_error(cerr)
	return fmt.Errorf("outline: %s: %s", op, strings.TrimSpace(msg))
}

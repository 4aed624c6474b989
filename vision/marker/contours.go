package marker

// The contour search of the marker scanner in one call to aruco.cpp
// (tc_dark_polys): gocv's FindContours hands every contour across cgo and
// each of its points, sizes and approximations costs a call of its own,
// which on a textured table is a large share of the marker search.

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include <stdlib.h>
#include "aruco.h"
*/
import "C"

import (
	"errors"
	"image"
	"math"
	"unsafe"

	"gocv.io/x/gocv"
)

// darkPolys runs tc_dark_polys (vec: tc_dark_polys_vec, the reference it
// is tested against) on the binary image data into b.polys and b.blobs,
// growing them when they are too small, and returns how many it wrote.
func (b *contourBufs) darkPolys(data []byte, rows, cols, step int, minPerim, maxPerim float64, wantBlobs C.int, blobMin, blobMax C.double, cut C.int, vec bool) (int, int, error) {
	if b.polys == nil {
		b.reserve(256)
	}
	var np, nb C.int
	for {
		var cerr *C.char
		px, r, c, st := (*C.uint8_t)(unsafe.Pointer(&data[0])), C.int(rows), C.int(cols), C.size_t(step)
		var rc C.int
		if vec {
			rc = C.tc_dark_polys_vec(px, r, c, st, C.double(minPerim), C.double(maxPerim), wantBlobs, blobMin, blobMax, cut,
				&b.polys[0], C.int(len(b.polys)), &np, &b.blobs[0], C.int(len(b.blobs)/4), &nb, &cerr)
		} else {
			rc = C.tc_dark_polys(px, r, c, st, C.double(minPerim), C.double(maxPerim), wantBlobs, blobMin, blobMax, cut,
				&b.polys[0], C.int(len(b.polys)), &np, &b.blobs[0], C.int(len(b.blobs)/4), &nb, &cerr)
		}
		if rc != 0 {
			return 0, 0, arucoError("dark quads", cerr)
		}
		if int(np) <= len(b.polys) && int(nb) <= len(b.blobs)/4 {
			return int(np), int(nb), nil
		}
		// Rare: grow and search again.
		b.reserve(2 * max(int(np), int(nb)))
	}
}

// contourBufs are the buffers of cardFindDarkQuads.
type contourBufs struct {
	polys []C.TcDarkPoly
	blobs []C.int
}

// cardFindDarkQuads finds the outlines of convex quadrilateral regions in
// the binary image bin (255 = inside), scaled by 1/scale into
// full-resolution image coordinates and offset by origin. The corners are
// moved half a pixel outwards, from the region's boundary pixels to its
// edge. Sides shorter than minSide or longer than maxSide full-resolution
// pixels are skipped.
//
// Blobs (dark regions of about a small marker's size, blob[0] to blob[1]
// full-resolution pixels, squarish, whatever their outline) are added to
// *blobs, in full-resolution pixels, when blobs is not nil: where a small
// marker may be that is too small to show its outline at this scale.
//
// With cut set, an outline of five to eight corners whose convex hull is a
// quadrilateral, or one with a corner or two cut off (a black border that
// glare washed out in part), gives that quadrilateral too.
func (b *contourBufs) findDarkQuads(bin gocv.Mat, scale float64, origin image.Point, minSide, maxSide float64, out []Candidate,
	blobs *[]image.Rectangle, blob [2]float64, cut bool) ([]Candidate, error) {
	if bin.Type() != gocv.MatTypeCV8UC1 || bin.Empty() {
		return out, errors.New("marker: dark quads: want a non-empty 8-bit binary image")
	}
	data, err := bin.DataPtrUint8()
	if err != nil {
		return out, err
	}
	rows, cols, step := bin.Rows(), bin.Cols(), bin.Step()
	if step < cols || len(data) < step*(rows-1)+cols {
		return out, errors.New("marker: dark quads: inconsistent image buffer")
	}
	minPerim := 4 * minSide * scale * 0.8
	maxPerim := 4 * maxSide * scale * 1.3
	wantBlobs := C.int(0)
	if blobs != nil {
		wantBlobs = 1
	}
	cutC := C.int(0)
	if cut {
		cutC = 1
	}
	np, nb, err := b.darkPolys(data, rows, cols, step, minPerim, maxPerim, wantBlobs, C.double(blob[0]*scale), C.double(blob[1]*scale), cutC, false)
	if err != nil {
		return out, err
	}
	if blobs != nil {
		for i := range nb {
			x, y, w, h := float64(b.blobs[4*i]), float64(b.blobs[4*i+1]), float64(b.blobs[4*i+2]), float64(b.blobs[4*i+3])
			full := image.Rect(int(x/scale), int(y/scale), int(math.Ceil((x+w)/scale)), int(math.Ceil((y+h)/scale)))
			*blobs = append(*blobs, full.Add(origin))
		}
	}
	var last [4][2]float64
	for i := range np {
		p := &b.polys[i]
		n := int(p.n)
		var pts [8][2]float64
		for k := range min(n, 8) {
			pts[k] = [2]float64{float64(p.x[k]), float64(p.y[k])}
		}
		switch p.kind {
		case 0:
			copy(last[:], pts[:4])
			out = addDarkQuad(out, last, false, scale, origin, minSide, maxSide)
		case 1:
			out = addCutQuad(out, pts[:n], last, scale, origin, minSide, maxSide)
		case 2:
			out = addCutQuad(out, pts[:n], [4][2]float64{}, scale, origin, minSide, maxSide)
		}
	}
	return out, nil
}

// reserve makes room for n polygons and n blobs.
func (b *contourBufs) reserve(n int) {
	n = max(n, 1)
	b.polys = make([]C.TcDarkPoly, n)
	b.blobs = make([]C.int, 4*n)
}

// cInt and cDouble are C.int and C.double for the tests (which cannot
// use cgo themselves).
type (
	cInt    = C.int
	cDouble = C.double
)

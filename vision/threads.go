package vision

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "aruco.h"
*/
import "C"

// SetOpenCVThreads sets how many threads OpenCV's own parallel loops
// (resizing, blurring, colour conversions, warps of whole pictures) use:
// 1 runs them on the calling thread, 0 restores OpenCV's default (one per
// core). OpenCV keeps it for the whole process, so the CLI sets it once at
// start (vision.opencv_threads). A card reading does many small calls; on
// the 2-core test machine, one thread took 1–5% less CPU per new 720p
// frame than OpenCV's pool (the sum of each frame's least CPU time over
// 7 rounds, 3 runs alternated), which hands each call out and waits.
func SetOpenCVThreads(n int) {
	C.tc_set_threads(C.int(max(0, n)))
}

// OpenCVThreads returns the threads OpenCV's parallel loops use now.
func OpenCVThreads() int {
	return int(C.tc_threads())
}

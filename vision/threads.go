package vision

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "threads.h"
*/
import "C"

// SetOpenCVThreads sets how many threads OpenCV's own parallel loops
// (resizing, blurring, colour conversions, warps of whole pictures) use:
// 1 runs them on the calling thread, 0 restores OpenCV's default (one per
// core). OpenCV keeps it for the whole process, so the CLI sets it once at
// start (vision.opencv_threads). A card reading does many small calls, and
// OpenCV's pool hands each one out and waits for it, so one thread costs
// less CPU per frame than the pool (TestCardsNewFrameCPU with -card-cpu
// measures it; docs/figures.md has the live pipeline with both).
func SetOpenCVThreads(n int) {
	C.tc_set_threads(C.int(max(0, n)))
}

// OpenCVThreads returns the threads OpenCV's parallel loops use now.
func OpenCVThreads() int {
	return int(C.tc_threads())
}

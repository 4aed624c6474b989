package vision_test

import (
	"testing"

	"tablecam/vision"
)

// TestSetOpenCVThreads: the setting reaches OpenCV and can be undone.
func TestSetOpenCVThreads(t *testing.T) {
	before := vision.OpenCVThreads()
	t.Cleanup(func() { vision.SetOpenCVThreads(before) })
	vision.SetOpenCVThreads(1)
	if got := vision.OpenCVThreads(); got != 1 {
		t.Fatalf("after SetOpenCVThreads(1): %d threads", got)
	}
	vision.SetOpenCVThreads(2)
	if got := vision.OpenCVThreads(); got != 2 {
		t.Fatalf("after SetOpenCVThreads(2): %d threads", got)
	}
	vision.SetOpenCVThreads(-3) // as 0: OpenCV's default
	if got := vision.OpenCVThreads(); got < 1 {
		t.Fatalf("after SetOpenCVThreads(-3): %d threads", got)
	}
}

// benchOneThread runs OpenCV's parallel loops on one thread for benchmark
// b, as the CLI does by default (vision.opencv_threads: 1), and restores
// the setting after it.
func benchOneThread(b *testing.B) {
	before := vision.OpenCVThreads()
	vision.SetOpenCVThreads(1)
	b.Cleanup(func() { vision.SetOpenCVThreads(before) })
}

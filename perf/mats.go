//go:build !matprofile

package perf

// liveMats is -1 without the matprofile build tag (gocv does not count).
func liveMats() int { return -1 }

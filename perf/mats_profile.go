//go:build matprofile

package perf

import "gocv.io/x/gocv"

// liveMats is the number of gocv Mats not yet closed.
func liveMats() int { return gocv.MatProfile.Count() }

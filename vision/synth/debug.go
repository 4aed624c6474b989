package synth

import (
	"fmt"

	"gocv.io/x/gocv"
)

// WritePNG writes m to path as a PNG, for debugging.
func WritePNG(path string, m gocv.Mat) error {
	if m.Empty() {
		return fmt.Errorf("synth: write %s: empty image", path)
	}
	if !gocv.IMWriteWithParams(path, m, []int{gocv.IMWritePngCompression, 1}) {
		return fmt.Errorf("synth: write %s failed", path)
	}
	return nil
}

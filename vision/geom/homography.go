package geom

import "math"

// Homography is a 3×3 projective transform of the plane, rows first.
type Homography [9]float64

// Apply maps (x, y) through h.
func (h *Homography) Apply(x, y float64) (float64, float64) {
	w := h[6]*x + h[7]*y + h[8]
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
}

// HomographyOf returns the homography mapping src[i] to dst[i], the exact
// four-point solution; false when the points are degenerate.
func HomographyOf(src, dst [4][2]float64) (Homography, bool) {
	var a [8][9]float64
	for i := range 4 {
		x, y, u, v := src[i][0], src[i][1], dst[i][0], dst[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	h, ok := solve8(&a)
	if !ok {
		return Homography{}, false
	}
	for _, v := range h {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Homography{}, false
		}
	}
	return h, true
}

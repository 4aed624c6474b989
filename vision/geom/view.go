package geom

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// View is a borrowed view of a continuous 8-bit grey image, or of a BGR
// one (Channels 3, from ColourView: Diff then takes the largest step of the
// three channels, so that edges between colours of equal brightness count).
// It samples the image bilinearly at real positions, pixel centres at
// integers, clamped to the border.
type View struct {
	Pix      []byte
	W, H     int
	Channels int // 0 or 1: grey; 3: BGR
}

// ColourView returns a view of a continuous 8-bit BGR image.
func ColourView(m gocv.Mat) (View, error) {
	if m.Type() != gocv.MatTypeCV8UC3 || !m.IsContinuous() {
		return View{}, fmt.Errorf("geom: want a continuous 8-bit BGR image")
	}
	d, err := m.DataPtrUint8()
	if err != nil {
		return View{}, err
	}
	w, h := m.Cols(), m.Rows()
	if len(d) < 3*w*h {
		return View{}, fmt.Errorf("geom: short BGR image")
	}
	return View{Pix: d, W: w, H: h, Channels: 3}, nil
}

// Diff is the step in brightness between (x0, y0) and (x1, y1): the
// absolute difference of the grey samples, or for a BGR view the largest
// of the three channels'.
func (g View) Diff(x0, y0, x1, y1 float64) float64 {
	if g.Channels != 3 {
		return math.Abs(g.At(x1, y1) - g.At(x0, y0))
	}
	a, b := g.At3(x0, y0), g.At3(x1, y1)
	return max(math.Abs(a[0]-b[0]), max(math.Abs(a[1]-b[1]), math.Abs(a[2]-b[2])))
}

// Sample is At3 for a BGR view and the grey value three times for a grey
// one.
func (g View) Sample(x, y float64) [3]float64 {
	if g.Channels == 3 {
		return g.At3(x, y)
	}
	v := g.At(x, y)
	return [3]float64{v, v, v}
}

// At3 samples a BGR view at (x, y).
func (g View) At3(x, y float64) [3]float64 {
	x = max(0, min(float64(g.W-1), x))
	y = max(0, min(float64(g.H-1), y))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, g.W-1), min(y0+1, g.H-1)
	fx, fy := x-float64(x0), y-float64(y0)
	w00, w01, w10, w11 := (1-fx)*(1-fy), fx*(1-fy), (1-fx)*fy, fx*fy
	// One bounds check per pixel, not per channel.
	p00, p01 := (*[3]uint8)(g.Pix[3*(y0*g.W+x0):]), (*[3]uint8)(g.Pix[3*(y0*g.W+x1):])
	p10, p11 := (*[3]uint8)(g.Pix[3*(y1*g.W+x0):]), (*[3]uint8)(g.Pix[3*(y1*g.W+x1):])
	var out [3]float64
	for c := range 3 {
		out[c] = float64(p00[c])*w00 + float64(p01[c])*w01 + float64(p10[c])*w10 + float64(p11[c])*w11
	}
	return out
}

// GreyView returns a view of a continuous 8-bit grey image.
func GreyView(m gocv.Mat) (View, error) {
	if m.Type() != gocv.MatTypeCV8UC1 || !m.IsContinuous() {
		return View{}, fmt.Errorf("geom: want a continuous 8-bit grey image")
	}
	d, err := m.DataPtrUint8()
	if err != nil {
		return View{}, err
	}
	w, h := m.Cols(), m.Rows()
	if len(d) < w*h {
		return View{}, fmt.Errorf("geom: short grey image")
	}
	return View{Pix: d, W: w, H: h}, nil
}

// At samples the image at (x, y); a BGR view gives the mean of its
// channels.
func (g View) At(x, y float64) float64 {
	if g.Channels == 3 {
		v := g.At3(x, y)
		return (v[0] + v[1] + v[2]) / 3
	}
	return g.At1(x, y)
}

// Whole reports whether g's pixels cover its size (a view C may read),
// and its channels (1 or 3).
func (g View) Whole() (cn int, ok bool) {
	cn = 1
	if g.Channels == 3 {
		cn = 3
	}
	return cn, g.W > 0 && g.H > 0 && len(g.Pix) >= cn*g.W*g.H
}

// At1 is At for a grey view.
func (g View) At1(x, y float64) float64 {
	x = max(0, min(float64(g.W-1), x))
	y = max(0, min(float64(g.H-1), y))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, g.W-1), min(y0+1, g.H-1)
	fx, fy := x-float64(x0), y-float64(y0)
	r0, r1 := g.Pix[y0*g.W:], g.Pix[y1*g.W:]
	a := float64(r0[x0])*(1-fx) + float64(r0[x1])*fx
	b := float64(r1[x0])*(1-fx) + float64(r1[x1])*fx
	return a*(1-fy) + b*fy
}

// Skin reports whether the BGR pixel px is skin-coloured (or a warm
// table's shadow): red over green over blue, clearly.
func Skin(px []byte) bool {
	return int(px[2]) > int(px[1])+4 && int(px[1]) >= int(px[0]) && int(px[2]) > int(px[0])+20
}

package dice

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"tablecam/vision/dnn"
)

// Finder input: the frame is scaled to fit finderW x finderH (keeping its
// aspect) and padded with grey; the model's outputs are a quarter of that.
const (
	finderW      = 640
	finderH      = 384
	finderStride = 4
	finderPad    = 114
)

// DefaultFindThreshold is the least heatmap score a die top is kept at.
const DefaultFindThreshold = 0.3

// maxFound bounds the dice reported from one frame.
const maxFound = 64

// Found is a die top marked by the finder, in frame pixels.
type Found struct {
	Box    image.Rectangle
	Center image.Point
	// Score is the finder's confidence in [0, 1].
	Score float64
}

// finder runs the finder model; its buffers are reused across frames.
type finder struct {
	net    *dnn.Net
	thresh float64
	input  []float32
}

func newFinder(net *dnn.Net) *finder {
	return &finder{net: net, thresh: DefaultFindThreshold, input: make([]float32, 3*finderW*finderH)}
}

// letterbox is how a frame maps onto the finder's input.
type letterbox struct {
	scale  float64
	x0, y0 int
}

// prepare scales frame into the finder's input tensor (RGB, 0..1, NCHW).
func (f *finder) prepare(frame gocv.Mat) (letterbox, error) {
	w, h := frame.Cols(), frame.Rows()
	if w <= 0 || h <= 0 || frame.Channels() != 3 {
		return letterbox{}, fmt.Errorf("dice: frame %dx%d with %d channels, want a colour picture", w, h, frame.Channels())
	}
	s := math.Min(float64(finderW)/float64(w), float64(finderH)/float64(h))
	nw, nh := int(math.Round(float64(w)*s)), int(math.Round(float64(h)*s))
	nw, nh = max(1, min(nw, finderW)), max(1, min(nh, finderH))
	lb := letterbox{scale: s, x0: (finderW - nw) / 2, y0: (finderH - nh) / 2}
	interp := gocv.InterpolationLinear
	if s < 1 {
		interp = gocv.InterpolationArea
	}
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(frame, &small, image.Pt(nw, nh), 0, 0, interp)
	padded := gocv.NewMat()
	defer padded.Close()
	gocv.CopyMakeBorder(small, &padded, lb.y0, finderH-nh-lb.y0, lb.x0, finderW-nw-lb.x0, gocv.BorderConstant,
		color.RGBA{R: finderPad, G: finderPad, B: finderPad, A: 255})
	fillInput(f.input, padded)
	return lb, nil
}

// fillInput writes a BGR uint8 picture into dst as RGB planes in 0..1.
func fillInput(dst []float32, m gocv.Mat) {
	w, h := m.Cols(), m.Rows()
	px, _ := m.DataPtrUint8()
	plane := w * h
	step := m.Step()
	for y := range h {
		row := px[y*step:]
		for x := range w {
			i := y*w + x
			dst[i] = float32(row[3*x+2]) / 255
			dst[plane+i] = float32(row[3*x+1]) / 255
			dst[2*plane+i] = float32(row[3*x]) / 255
		}
	}
}

// find returns the die tops in frame, best first.
func (f *finder) find(frame gocv.Mat) ([]Found, error) {
	lb, err := f.prepare(frame)
	if err != nil {
		return nil, err
	}
	outs, err := f.net.Run(dnn.Tensor{Shape: []int{1, 3, finderH, finderW}, Data: f.input})
	if err != nil {
		return nil, err
	}
	heat, box := outs[0], outs[1]
	gw, gh := finderW/finderStride, finderH/finderStride
	if heat.Len() != gw*gh || box.Len() != 4*gw*gh {
		return nil, fmt.Errorf("dice: finder %s gave outputs of shape %v and %v, want [1 1 %d %d] and [1 4 %d %d]",
			f.net.Name(), heat.Shape, box.Shape, gh, gw, gh, gw)
	}
	return decode(heat.Data, box.Data, gw, gh, f.thresh, lb, frame.Cols(), frame.Rows()), nil
}

// decode turns the heatmap's local maxima over thresh into boxes in frame
// pixels. box holds per cell the log of the box's width and height in
// cells and the centre's offset within the cell.
func decode(heat, box []float32, gw, gh int, thresh float64, lb letterbox, fw, fh int) []Found {
	plane := gw * gh
	var out []Found
	for y := range gh {
		for x := range gw {
			v := heat[y*gw+x]
			if float64(v) <= thresh || !isPeak(heat, gw, gh, x, y) {
				continue
			}
			i := y*gw + x
			w := math.Exp(float64(box[i])) * finderStride
			h := math.Exp(float64(box[plane+i])) * finderStride
			cx := (float64(x) + float64(box[2*plane+i])) * finderStride
			cy := (float64(y) + float64(box[3*plane+i])) * finderStride
			// Back from the letterbox to the frame.
			cx, cy = (cx-float64(lb.x0))/lb.scale, (cy-float64(lb.y0))/lb.scale
			w, h = w/lb.scale, h/lb.scale
			r := image.Rect(int(cx-w/2), int(cy-h/2), int(math.Ceil(cx+w/2)), int(math.Ceil(cy+h/2))).
				Intersect(image.Rect(0, 0, fw, fh))
			if r.Empty() {
				continue
			}
			out = append(out, Found{Box: r, Center: image.Pt(int(cx), int(cy)), Score: float64(v)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	out = suppressInside(out)
	if len(out) > maxFound {
		out = out[:maxFound]
	}
	return out
}

// suppressInside drops, from marks sorted best first, each mark whose
// centre lies in the box of a better mark kept before it when that mark's
// centre lies in its box too (two marks of one die) or its box is less
// than half as large (a pip or a corner of a large die). Dice lying side
// by side keep their marks: neither centre lies in the other's box.
func suppressInside(marks []Found) []Found {
	kept := marks[:0]
	for _, m := range marks {
		drop := false
		for _, k := range kept {
			if !m.Center.In(k.Box) {
				continue
			}
			if k.Center.In(m.Box) || 2*area(m.Box) < area(k.Box) {
				drop = true
				break
			}
		}
		if !drop {
			kept = append(kept, m)
		}
	}
	return kept
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }

// isPeak reports whether cell (x, y) is the largest of its 3x3
// neighbourhood; of equal neighbours only the first in reading order wins,
// so that a plateau gives one die.
func isPeak(heat []float32, gw, gh, x, y int) bool {
	v := heat[y*gw+x]
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			nx, ny := x+dx, y+dy
			if (dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= gw || ny >= gh {
				continue
			}
			n := heat[ny*gw+nx]
			if n > v || (n == v && (dy < 0 || (dy == 0 && dx < 0))) {
				return false
			}
		}
	}
	return true
}

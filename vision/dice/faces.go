package dice

import (
	"fmt"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"tablecam/vision/dnn"
)

// The face reader sees a faceSide x faceSide view around a found die: its
// box grown by faceGrow, so that a box a little off still holds the whole
// top face.
const (
	faceSide = 48
	faceGrow = 1.25
	// faceValues are the six pip faces of a d6, 1 to 6; the model's last
	// class, after them, is a view that is no die's top face (a pip of a
	// large die, a side face, the table).
	faceValues  = 6
	faceClasses = faceValues + 1
)

// Face is the reading of one die's top face.
type Face struct {
	// Value is the face read, 1 to 6 for a d6; 0 when the view is no die's
	// top face.
	Value int
	// Confidence is the reader's probability for Value (for 0: that the
	// view is no die's top face).
	Confidence float64
	// Probs holds the probability of each face, Probs[0] for 1, and last
	// the probability that the view is no die's top face.
	Probs []float64
	// Embedding is the face's unit-length descriptor: faces alike are near.
	Embedding []float32
}

// noTop is the probability that the view is no die's top face.
func (f Face) noTop() float64 {
	if len(f.Probs) == 0 {
		return 0
	}
	return f.Probs[len(f.Probs)-1]
}

type faceNet struct {
	net *dnn.Net
	// turns is how many quarter turns of the view are read and averaged
	// (1 to 4): a die has no up, and views the model reads alike at every
	// turn are the ones it reads surely.
	turns int
	// input holds the view and its turns, one after the other.
	input []float32
}

func newFaceNet(net *dnn.Net) *faceNet {
	n := 3 * faceSide * faceSide
	return &faceNet{net: net, turns: 4, input: make([]float32, 4*n)}
}

// quarterTurn writes src turned by a quarter (each of its three planes)
// into dst.
func quarterTurn(dst, src []float32) {
	const s = faceSide
	for c := range 3 {
		o := c * s * s
		for y := range s {
			for x := range s {
				dst[o+x*s+(s-1-y)] = src[o+y*s+x]
			}
		}
	}
}

// view writes the die's view into the input tensor.
func (r *faceNet) view(frame gocv.Mat, f Found) error {
	w, h := float64(f.Box.Dx()), float64(f.Box.Dy())
	if w <= 0 || h <= 0 {
		return fmt.Errorf("dice: empty box %v", f.Box)
	}
	side := math.Max(w, h) * faceGrow
	s := faceSide / side
	cx := float64(f.Box.Min.X) + w/2
	cy := float64(f.Box.Min.Y) + h/2
	m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
	defer m.Close()
	m.SetDoubleAt(0, 0, s)
	m.SetDoubleAt(0, 2, faceSide/2-s*cx)
	m.SetDoubleAt(1, 1, s)
	m.SetDoubleAt(1, 2, faceSide/2-s*cy)
	interp := gocv.InterpolationLinear
	if s < 1 {
		interp = gocv.InterpolationArea
	}
	out := gocv.NewMat()
	defer out.Close()
	gocv.WarpAffineWithParams(frame, &out, m, imagePt(faceSide, faceSide), interp, gocv.BorderReplicate, color.RGBA{})
	fillInput(r.input, out)
	return nil
}

// read names the face of the die f in frame.
func (r *faceNet) read(frame gocv.Mat, f Found) (Face, error) {
	if err := r.view(frame, f); err != nil {
		return Face{}, err
	}
	// The turns go through the model as one batch: one call's overhead
	// instead of one per turn.
	n := faceSide * faceSide * 3
	batch := r.input[:r.turns*n]
	for t := 1; t < r.turns; t++ {
		quarterTurn(batch[t*n:(t+1)*n], batch[(t-1)*n:t*n])
	}
	outs, err := r.net.Run(dnn.Tensor{Shape: []int{r.turns, 3, faceSide, faceSide}, Data: batch})
	if err != nil {
		return Face{}, err
	}
	logits, e := outs[0], outs[1]
	if logits.Len() != r.turns*faceClasses || e.Len() == 0 || e.Len()%r.turns != 0 {
		return Face{}, fmt.Errorf("dice: face reader %s gave outputs of shape %v and %v for %d views, want [%d %d] and [%d N]",
			r.net.Name(), logits.Shape, e.Shape, r.turns, r.turns, faceClasses, r.turns)
	}
	dim := e.Len() / r.turns
	probs := make([]float64, faceClasses)
	emb := make([]float32, dim)
	for t := range r.turns {
		for i, p := range softmax(logits.Data[t*faceClasses : (t+1)*faceClasses]) {
			probs[i] += p / float64(r.turns)
		}
		for i, v := range unit(e.Data[t*dim : (t+1)*dim]) {
			emb[i] += v
		}
	}
	best := 0
	for i, p := range probs {
		if p > probs[best] {
			best = i
		}
	}
	value := best + 1
	if best == faceValues {
		value = 0
	}
	return Face{Value: value, Confidence: probs[best], Probs: probs, Embedding: unit(emb)}, nil
}

func softmax(z []float32) []float64 {
	m := math.Inf(-1)
	for _, v := range z {
		m = math.Max(m, float64(v))
	}
	out := make([]float64, len(z))
	sum := 0.0
	for i, v := range z {
		out[i] = math.Exp(float64(v) - m)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// unit returns v scaled to length 1 (the model leaves it unnormalised).
func unit(v []float32) []float32 {
	n := 0.0
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	if n == 0 {
		return out
	}
	k := 1 / math.Sqrt(n)
	for i, x := range v {
		out[i] = float32(float64(x) * k)
	}
	return out
}

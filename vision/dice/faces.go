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
	// faceClasses are the six pip faces of a d6, 1 to 6.
	faceClasses = 6
)

// Face is the reading of one die's top face.
type Face struct {
	// Value is the face read, 1 to 6 for a d6.
	Value int
	// Confidence is the reader's probability for Value.
	Confidence float64
	// Probs holds the probability of each face, Probs[0] for 1.
	Probs []float64
	// Embedding is the face's unit-length descriptor: faces alike are near.
	Embedding []float32
}

type faceNet struct {
	net   *dnn.Net
	input []float32
}

func newFaceNet(net *dnn.Net) *faceNet {
	return &faceNet{net: net, input: make([]float32, 3*faceSide*faceSide)}
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
	outs, err := r.net.Run(dnn.Tensor{Shape: []int{1, 3, faceSide, faceSide}, Data: r.input})
	if err != nil {
		return Face{}, err
	}
	logits, emb := outs[0], outs[1]
	if logits.Len() != faceClasses || emb.Len() == 0 {
		return Face{}, fmt.Errorf("dice: face reader %s gave outputs of shape %v and %v", r.net.Name(), logits.Shape, emb.Shape)
	}
	probs := softmax(logits.Data)
	best := 0
	for i, p := range probs {
		if p > probs[best] {
			best = i
		}
	}
	return Face{Value: best + 1, Confidence: probs[best], Probs: probs, Embedding: unit(emb.Data)}, nil
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

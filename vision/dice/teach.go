package dice

import (
	"fmt"
	"math"
)

// A taught die set is read by prototypes: each face the group taught is
// the mean of its pictures' embeddings, and a view is read as the taught
// face whose prototype is nearest (cosine similarity). Nothing is
// retrained; a new die needs only a few pictures per face.

// Teaching defaults. PrototypeScale is the scale the face model's
// embedding was trained with: softmax(scale · cosine) over the taught faces
// is its confidence. MinSimilarity is the least cosine similarity to the
// nearest prototype at which a view is taken for a taught face at all: a
// view unlike every taught face is no face of the set.
const (
	PrototypeScale = 16.0
	MinSimilarity  = 0.5
)

// TaughtFace is one face of a taught set.
type TaughtFace struct {
	Face  string
	Value int
	// Proto is the unit-length mean of the face's pictures' embeddings.
	Proto []float32
	// Views is how many pictures the prototype was made from.
	Views int
	sum   []float64
}

// Taught is a die set taught by pictures of its faces.
type Taught struct {
	Set   string
	Faces []TaughtFace
	// Scale and MinSim set how a view is read (see PrototypeScale and
	// MinSimilarity).
	Scale, MinSim float64
}

// NewTaught starts teaching the set with the default scale and floor.
func NewTaught(set string) *Taught {
	return &Taught{Set: set, Scale: PrototypeScale, MinSim: MinSimilarity}
}

// Add teaches one picture of a face: emb is the embedding the face reader
// gave the die's view (Face.Embedding).
func (t *Taught) Add(face string, value int, emb []float32) error {
	if len(emb) == 0 {
		return fmt.Errorf("dice: teach %s %s: no embedding", t.Set, face)
	}
	i := -1
	for k := range t.Faces {
		if t.Faces[k].Face == face {
			i = k
		}
	}
	if i < 0 {
		t.Faces = append(t.Faces, TaughtFace{Face: face, Value: value, sum: make([]float64, len(emb))})
		i = len(t.Faces) - 1
	}
	f := &t.Faces[i]
	if len(f.sum) != len(emb) {
		return fmt.Errorf("dice: teach %s %s: an embedding of %d values, the face has %d", t.Set, face, len(emb), len(f.sum))
	}
	for k, v := range emb {
		f.sum[k] += float64(v)
	}
	f.Views++
	p := make([]float32, len(emb))
	for k, v := range f.sum {
		p[k] = float32(v)
	}
	f.Proto = unit(p)
	return nil
}

// TaughtReading is a view read against a taught set.
type TaughtReading struct {
	// Face and Value are the nearest taught face; Face is "" when the view
	// is like no taught face.
	Face  string
	Value int
	// Confidence is softmax(Scale · similarity) of the nearest face over
	// all taught faces: low when two faces are about as near.
	Confidence float64
	// Similarity is the cosine similarity to the nearest prototype.
	Similarity float64
}

// Read names the taught face nearest to the unit embedding emb.
func (t *Taught) Read(emb []float32) TaughtReading {
	if len(t.Faces) == 0 {
		return TaughtReading{}
	}
	sims := make([]float64, len(t.Faces))
	best := 0
	for i, f := range t.Faces {
		s := 0.0
		for k := range min(len(emb), len(f.Proto)) {
			s += float64(emb[k]) * float64(f.Proto[k])
		}
		sims[i] = s
		if s > sims[best] {
			best = i
		}
	}
	sum := 0.0
	for _, s := range sims {
		sum += math.Exp(t.Scale * (s - sims[best]))
	}
	r := TaughtReading{Confidence: 1 / sum, Similarity: sims[best]}
	if sims[best] < t.MinSim {
		r.Confidence = 0
		return r
	}
	r.Face, r.Value = t.Faces[best].Face, t.Faces[best].Value
	return r
}

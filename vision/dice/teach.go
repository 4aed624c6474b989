package dice

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"
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
	// Model is the face model whose embeddings the prototypes are made of
	// (Reader.FacesModel): another model's embedding is another space.
	Model string
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
	_, r := readPool([]*Taught{t}, emb)
	return r
}

// readPool reads emb against the faces of every set as one pool (the
// confidence weighs each face against all of them) and returns the set of
// the nearest face. The first set's Scale and MinSim apply.
func readPool(sets []*Taught, emb []float32) (*Taught, TaughtReading) {
	var bestSet *Taught
	var bestFace *TaughtFace
	best := math.Inf(-1)
	var sims []float64
	for _, t := range sets {
		for i := range t.Faces {
			f := &t.Faces[i]
			s := 0.0
			for k := range min(len(emb), len(f.Proto)) {
				s += float64(emb[k]) * float64(f.Proto[k])
			}
			sims = append(sims, s)
			if s > best {
				best, bestSet, bestFace = s, t, f
			}
		}
	}
	if bestFace == nil {
		return nil, TaughtReading{}
	}
	scale, floor := sets[0].Scale, sets[0].MinSim
	sum := 0.0
	for _, s := range sims {
		sum += math.Exp(scale * (s - best))
	}
	r := TaughtReading{Confidence: 1 / sum, Similarity: best}
	if best < floor {
		r.Confidence = 0
		return nil, r
	}
	r.Face, r.Value = bestFace.Face, bestFace.Value
	return bestSet, r
}

// TaughtDie is a die of a frame read against taught sets.
type TaughtDie struct {
	Set, Face string
	Value     int
	Center    image.Point
	Box       image.Rectangle
	// Confidence and Similarity as in TaughtReading; Sure is false when
	// the group must confirm the reading.
	Confidence, Similarity float64
	Sure                   bool
}

// ReadTaught finds the dice of a frame and reads each against the taught
// sets as one pool of faces; a mark the face model takes for no die's top
// face (see DefaultNoTopFace), or like no taught face, is dropped. A set
// taught with another face model is an error.
func (r *Reader) ReadTaught(frame gocv.Mat, sets []*Taught) ([]TaughtDie, error) {
	if len(sets) == 0 {
		return nil, errors.New("dice: no taught sets to read")
	}
	for _, t := range sets {
		if t.Model != r.facesSum {
			return nil, fmt.Errorf("dice: the set %s was taught with another face model: teach it again (tablecam learn dice --reader learned)", t.Set)
		}
	}
	found, err := r.Find(frame)
	if err != nil {
		return nil, err
	}
	var out []TaughtDie
	for _, f := range found {
		face, err := r.Face(frame, f)
		if err != nil {
			return nil, err
		}
		if face.noTop() >= r.noTop {
			continue // a side face, the table, a shadow
		}
		t, tr := readPool(sets, face.Embedding)
		if t == nil {
			continue
		}
		out = append(out, TaughtDie{Set: t.Set, Face: tr.Face, Value: tr.Value, Center: f.Center, Box: f.Box,
			Confidence: tr.Confidence, Similarity: tr.Similarity, Sure: tr.Confidence >= r.minConf})
	}
	return out, nil
}

// taughtFile is a taught set on disk: the sums of the views' embeddings,
// so that more pictures can be added later.
type taughtFile struct {
	Version int              `json:"version"`
	Set     string           `json:"set"`
	Model   string           `json:"model"`
	Scale   float64          `json:"scale"`
	MinSim  float64          `json:"min_similarity"`
	Faces   []taughtFaceFile `json:"faces"`
}

type taughtFaceFile struct {
	Face  string    `json:"face"`
	Value int       `json:"value,omitempty"`
	Views int       `json:"views"`
	Sum   []float64 `json:"sum"`
}

// Bounds of a taught set's file.
const (
	maxTaughtFaces = 256
	maxTaughtDim   = 1024
	maxTaughtBytes = 16 << 20
)

// Save writes the taught set to path, whole or not at all.
func (t *Taught) Save(path string) error {
	f := taughtFile{Version: 1, Set: t.Set, Model: t.Model, Scale: t.Scale, MinSim: t.MinSim}
	for _, tf := range t.Faces {
		f.Faces = append(f.Faces, taughtFaceFile{tf.Face, tf.Value, tf.Views, tf.sum})
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return fmt.Errorf("dice: save taught set %s: %w", t.Set, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("dice: save taught set %s: %w", t.Set, err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("dice: save taught set %s: %w", t.Set, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("dice: save taught set %s: %w", t.Set, err)
	}
	return nil
}

// LoadTaught reads a taught set that Save wrote.
func LoadTaught(path string) (*Taught, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("dice: taught set: %w", err)
	}
	if fi.Size() > maxTaughtBytes {
		return nil, fmt.Errorf("dice: taught set %s: %d bytes, more than %d", path, fi.Size(), maxTaughtBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dice: taught set: %w", err)
	}
	var f taughtFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("dice: taught set %s: %w (teach it again: tablecam learn dice --reader learned)", path, err)
	}
	bad := func(why string, a ...any) error {
		return fmt.Errorf("dice: taught set %s: %s (teach it again: tablecam learn dice --reader learned)", path, fmt.Sprintf(why, a...))
	}
	switch {
	case f.Version != 1:
		return nil, bad("version %d, want 1", f.Version)
	case f.Set == "":
		return nil, bad("no set name")
	case len(f.Faces) == 0 || len(f.Faces) > maxTaughtFaces:
		return nil, bad("%d faces, want 1 to %d", len(f.Faces), maxTaughtFaces)
	case f.Scale <= 0 || f.MinSim < -1 || f.MinSim > 1:
		return nil, bad("scale %g and least similarity %g out of range", f.Scale, f.MinSim)
	}
	t := &Taught{Set: f.Set, Model: f.Model, Scale: f.Scale, MinSim: f.MinSim}
	dim := len(f.Faces[0].Sum)
	for _, ff := range f.Faces {
		if ff.Face == "" || ff.Views <= 0 || len(ff.Sum) != dim || dim == 0 || dim > maxTaughtDim {
			return nil, bad("face %q: %d views, %d values (want a name, views and %d values)", ff.Face, ff.Views, len(ff.Sum), dim)
		}
		p := make([]float32, dim)
		for k, v := range ff.Sum {
			p[k] = float32(v)
		}
		t.Faces = append(t.Faces, TaughtFace{Face: ff.Face, Value: ff.Value, Views: ff.Views, sum: ff.Sum, Proto: unit(p)})
	}
	return t, nil
}

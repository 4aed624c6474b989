package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"

	"tablecam/vision/dnn"
)

// Model files in a model directory.
const (
	FinderFile = "finder.onnx"
	FacesFile  = "faces.onnx"
	// EmbedFile is the optional embedding model of taught faces.
	EmbedFile = "embed.onnx"
)

// Reader finds dice in frames and reads their faces. It is not safe for
// concurrent use.
type Reader struct {
	finder *finder
	faces  *faceNet
	// embed, when the reader has an embedding model, gives Face.Embedding
	// in place of the face model: a network trained for taught faces alone.
	embed   *faceNet
	minConf float64
	// noTop is the face model's probability that a view is no die's top
	// face at which ReadTaught drops the mark.
	noTop float64
	// facesSum is the SHA-256 of the face model's file: taught prototypes
	// hold it, since another model's embedding is another space.
	facesSum string
}

// FacesModel is the SHA-256 (hex) of the model whose embedding the
// reader's taught faces are compared in: the embedding model, or without
// one the face model.
func (r *Reader) FacesModel() string { return r.facesSum }

// DefaultNoTopFace is the face model's probability that a view is no
// die's top face (a side face, the table, a shadow) at which ReadTaught
// drops a mark. The face model learns what a top face is from d6 pips; a
// taught set's faces look like none of them, so it takes more than the
// likeliest class to drop one.
const DefaultNoTopFace = 0.8

// SetNoTopFace sets the probability of no top face at which ReadTaught
// drops a mark (1: never).
func (r *Reader) SetNoTopFace(p float64) { r.noTop = p }

// DefaultMinConfidence is the face confidence below which ReadDice reports
// a reading as not sure.
const DefaultMinConfidence = 0.9

// LoadReader reads the models in dir.
func LoadReader(dir string) (*Reader, error) {
	fn, err := loadModel(filepath.Join(dir, FinderFile), "heat", "box")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, FacesFile)
	fc, err := loadModel(path, "logits", "embedding")
	if err != nil {
		fn.Close()
		return nil, err
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		fn.Close()
		fc.Close()
		return nil, fmt.Errorf("dice: %w", err)
	}
	r := newReader(fn, fc, sha256Hex(raw))
	epath := filepath.Join(dir, EmbedFile)
	if raw, err := os.ReadFile(epath); err == nil {
		en, err := loadModel(epath, "logits", "embedding")
		if err != nil {
			r.Close()
			return nil, err
		}
		r.embed, r.facesSum = newFaceNet(en), sha256Hex(raw)
	}
	return r, nil
}

// newReader is the reader of a finder and a face model, with the default
// settings; facesSum is the face model's SHA-256 in hex.
func newReader(fn, fc *dnn.Net, facesSum string) *Reader {
	return &Reader{finder: newFinder(fn), faces: newFaceNet(fc), minConf: DefaultMinConfidence, noTop: DefaultNoTopFace, facesSum: facesSum}
}

func loadModel(path string, outputs ...string) (*dnn.Net, error) {
	net, err := dnn.Load(path, outputs...)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("dice: the model %s is missing: restore it with `git checkout -- %s`, or train it again with `make train`", path, path)
	}
	if err != nil {
		return nil, fmt.Errorf("dice: %w (restore the file with `git checkout -- %s`, or train it again with `make train`)", err, path)
	}
	return net, nil
}

// Close frees the models.
func (r *Reader) Close() error {
	r.finder.net.Close()
	r.faces.net.Close()
	if r.embed != nil {
		r.embed.net.Close()
	}
	return nil
}

// SetFindThreshold sets the least score a die top is reported at.
func (r *Reader) SetFindThreshold(t float64) { r.finder.thresh = t }

// SetMinConfidence sets the face confidence below which ReadDice reports a
// reading as not sure.
func (r *Reader) SetMinConfidence(c float64) { r.minConf = c }

// SetTurns sets how many quarter turns of each die's view the face reader
// reads and averages (1 to 4; 4 by default).
func (r *Reader) SetTurns(n int) { r.faces.turns = max(1, min(n, 4)) }

// Find marks the die tops in a BGR frame, best first.
func (r *Reader) Find(frame gocv.Mat) ([]Found, error) { return r.finder.find(frame) }

// Face reads the face of a die that Find marked.
func (r *Reader) Face(frame gocv.Mat, f Found) (Face, error) {
	face, err := r.faces.read(frame, f)
	if err != nil || r.embed == nil {
		return face, err
	}
	e, err := r.embed.read(frame, f)
	if err != nil {
		return Face{}, err
	}
	face.Embedding = e.Embedding
	return face, nil
}

func imagePt(x, y int) image.Point { return image.Pt(x, y) }

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

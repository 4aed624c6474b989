package dice

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strings"

	"tablecam/vision/dnn"
)

// The models built into the program, and their checksums as `make train`
// wrote them (models/SHA256SUMS, sha256sum's format).
//
//go:embed models/*.onnx models/SHA256SUMS
var builtIn embed.FS

// NewReader loads the models built into the program. A model whose bytes
// do not match its checksum is an error that names it and how to get it
// back.
func NewReader() (*Reader, error) {
	files := map[string][]byte{}
	for _, name := range []string{FinderFile, FacesFile, EmbedFile} {
		if b, err := builtIn.ReadFile("models/" + name); err == nil {
			files[name] = b
		}
	}
	sums, err := builtIn.ReadFile("models/SHA256SUMS")
	if err != nil {
		return nil, fmt.Errorf("dice: the built-in models have no checksums: %w", err)
	}
	return newReaderFrom(files, sums)
}

func newReaderFrom(files map[string][]byte, sums []byte) (*Reader, error) {
	want := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(strings.TrimSpace(sc.Text()), "  ")
		if ok {
			want[strings.TrimPrefix(name, "*")] = sum
		}
	}
	names := []string{FinderFile, FacesFile}
	if _, ok := files[EmbedFile]; ok {
		names = append(names, EmbedFile)
	}
	for _, name := range names {
		got := sha256.Sum256(files[name])
		if w, ok := want[name]; !ok || w != hex.EncodeToString(got[:]) {
			path := "vision/dice/models/" + name
			return nil, fmt.Errorf("dice: the model %s is damaged (its checksum is not the one in models/SHA256SUMS): restore it with `git checkout -- %s`, or train the models again with `make train`", path, path)
		}
	}
	fn, err := dnn.LoadBytes("vision/dice/models/"+FinderFile, files[FinderFile], "heat", "box")
	if err != nil {
		return nil, err
	}
	fc, err := dnn.LoadBytes("vision/dice/models/"+FacesFile, files[FacesFile], "logits", "embedding")
	if err != nil {
		fn.Close()
		return nil, err
	}
	r := newReader(fn, fc, sha256Hex(files[FacesFile]))
	if b, ok := files[EmbedFile]; ok {
		en, err := dnn.LoadBytes("vision/dice/models/"+EmbedFile, b, "logits", "embedding")
		if err != nil {
			r.Close()
			return nil, err
		}
		r.embed, r.facesSum = newFaceNet(en), sha256Hex(b)
	}
	return r, nil
}

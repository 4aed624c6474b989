package dice

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gocv.io/x/gocv"
)

// Bounds of a teaching folder.
const (
	MaxTeachFaces    = 64
	MaxTeachPictures = 50
)

// isTeachPicture says whether a file's name is of a picture teaching reads.
func isTeachPicture(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg":
		return true
	}
	return false
}

// TeachCheck is how well a taught set reads its own pictures back, each
// read against prototypes made of the other pictures (leave one out).
type TeachCheck struct {
	Pictures, Right, Sure int
	// Misread lists "face/picture: read as other" for the pictures read
	// wrong.
	Misread []string
}

// TeachFolder teaches set from dir/<face>/ pictures: each picture shows
// one die of that face (a camera frame, or a crop around the die). values
// gives a face's number (a d10's "0" reads 10); a face not in it reads 0.
// A picture whose die the finder does not mark is read as a crop: the
// whole picture is the die. read decodes a picture file (frame.ReadImage
// bounds its size); progress hears what was skipped.
func TeachFolder(r *Reader, set, dir string, values map[string]int, read func(path string) (gocv.Mat, error), progress func(string)) (*Taught, TeachCheck, error) {
	say := func(format string, a ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, a...))
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, TeachCheck{}, fmt.Errorf("dice: teach %s: %w", set, err)
	}
	var faces []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			faces = append(faces, e.Name())
		}
	}
	sort.Strings(faces)
	switch {
	case len(faces) == 0:
		return nil, TeachCheck{}, fmt.Errorf("dice: teach %s: %s has no face folders (want %s/<face>/*.png)", set, dir, dir)
	case len(faces) > MaxTeachFaces:
		return nil, TeachCheck{}, fmt.Errorf("dice: teach %s: %s has %d face folders; a die has at most %d faces", set, dir, len(faces), MaxTeachFaces)
	}
	t := NewTaught(set)
	t.Model = r.facesSum
	type view struct {
		face, name string
		emb        []float32
	}
	var views []view
	for _, face := range faces {
		files, err := os.ReadDir(filepath.Join(dir, face))
		if err != nil {
			return nil, TeachCheck{}, fmt.Errorf("dice: teach %s: %w", set, err)
		}
		var pics []string
		for _, f := range files {
			if !f.IsDir() && isTeachPicture(f.Name()) {
				pics = append(pics, f.Name())
			}
		}
		if len(pics) > MaxTeachPictures {
			return nil, TeachCheck{}, fmt.Errorf("dice: teach %s: %s holds %d pictures; teaching reads at most %d of a face (5 are enough)", set, filepath.Join(dir, face), len(pics), MaxTeachPictures)
		}
		n := 0
		for _, name := range pics {
			path := filepath.Join(dir, face, name)
			emb, err := teachView(r, read, path)
			if err != nil {
				say("%s: %s: skipped: %v", face, name, err)
				continue
			}
			if err := t.Add(face, values[face], emb); err != nil {
				return nil, TeachCheck{}, err
			}
			views = append(views, view{face, name, emb})
			n++
		}
		if n == 0 {
			return nil, TeachCheck{}, fmt.Errorf("dice: teach %s: %s: no readable picture (reads .png, .jpg, .jpeg)", set, filepath.Join(dir, face))
		}
	}
	// Leave one out: each picture against the others' prototypes.
	var check TeachCheck
	for i, v := range views {
		o := NewTaught(set)
		for j, w := range views {
			if j != i {
				if err := o.Add(w.face, values[w.face], w.emb); err != nil {
					return nil, TeachCheck{}, err
				}
			}
		}
		check.Pictures++
		got := o.Read(v.emb)
		switch {
		case got.Face == v.face:
			check.Right++
			if got.Confidence >= r.minConf {
				check.Sure++
			}
		default:
			check.Misread = append(check.Misread, fmt.Sprintf("%s/%s: read as %q", v.face, v.name, got.Face))
		}
	}
	return t, check, nil
}

// teachView is the embedding of the one die of a teaching picture: the
// finder's best mark, or the whole picture when it marks none.
func teachView(r *Reader, read func(string) (gocv.Mat, error), path string) ([]float32, error) {
	img, err := read(path)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	found, err := r.Find(img)
	if err != nil {
		return nil, err
	}
	f := Found{Box: image.Rect(0, 0, img.Cols(), img.Rows()), Center: image.Pt(img.Cols()/2, img.Rows()/2)}
	if len(found) > 0 {
		f = found[0]
		for _, g := range found[1:] {
			if g.Score > f.Score {
				f = g
			}
		}
	} else {
		// A crop: the die fills the picture, and the reader's view grows
		// a box by faceGrow, so the box is the picture shrunk by as much.
		w, h := float64(img.Cols())/faceGrow, float64(img.Rows())/faceGrow
		f.Box = image.Rect(f.Center.X-int(w/2), f.Center.Y-int(h/2), f.Center.X+int(w/2), f.Center.Y+int(h/2))
	}
	face, err := r.Face(img, f)
	if err != nil {
		return nil, err
	}
	return face.Embedding, nil
}

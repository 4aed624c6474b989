package dice

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Photo is a labelled real photograph of dice (YOLO labels: whole-die
// boxes, normalised to the picture, class k for the value k+1).
type Photo struct {
	Path   string
	Rig    string // how it was taken: cup, table, tray, phone, webcam
	Source string // the source photo; augmented copies share it
	Split  string // train or val
	Dice   []LabelledDie
}

// LabelledDie is one labelled die: its value and its box in 0..1.
type LabelledDie struct {
	Value        int
	CX, CY, W, H float64
}

// heldOutRigs are rigs no model trains on: they measure a camera the
// models never saw (train/data.py holds the same rule).
var heldOutRigs = map[string]bool{"webcam": true, "phone": true}

var fiveDigits = regexp.MustCompile(`^\d{5}$`)

// RigOf names the rig of a source photo of a dataset (rune55 or matteo).
func RigOf(dataset, source string) string {
	switch {
	case dataset == "matteo":
		return "webcam"
	case fiveDigits.MatchString(source):
		return "cup"
	case strings.HasPrefix(source, "PXL_"):
		return "tray"
	case strings.HasPrefix(source, "IMG_"):
		return "phone"
	}
	return "table"
}

// SplitOf puts a source photo in train or val: held-out rigs whole, and
// one source in five of the others by a hash of its name.
func SplitOf(rig, source string) string {
	if heldOutRigs[rig] {
		return "val"
	}
	if sha256.Sum256([]byte(source))[0]%5 == 0 {
		return "val"
	}
	return "train"
}

// RealPhotos lists the labelled photos under root (the dice-real folder
// of the shared data: rune55/*/images with rune55/*/labels, and matteo).
func RealPhotos(root string) ([]Photo, error) {
	var out []Photo
	imgs, err := filepath.Glob(filepath.Join(root, "rune55", "*", "images", "*.jpg"))
	if err != nil {
		return nil, err
	}
	sort.Strings(imgs)
	for _, img := range imgs {
		lab := filepath.Join(filepath.Dir(filepath.Dir(img)), "labels", strings.TrimSuffix(filepath.Base(img), ".jpg")+".txt")
		dice, err := readLabels(lab)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		src, _, _ := strings.Cut(filepath.Base(img), "_jpg")
		rig := RigOf("rune55", src)
		out = append(out, Photo{Path: img, Rig: rig, Source: src, Split: SplitOf(rig, src), Dice: dice})
	}
	imgs, err = filepath.Glob(filepath.Join(root, "matteo", "*.jpg"))
	if err != nil {
		return nil, err
	}
	sort.Strings(imgs)
	for _, img := range imgs {
		dice, err := readLabels(strings.TrimSuffix(img, ".jpg") + ".txt")
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Photo{Path: img, Rig: "webcam", Source: "matteo", Split: "val", Dice: dice})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no labelled photos under %s", root)
	}
	return out, nil
}

// readLabels reads a YOLO label file.
func readLabels(path string) ([]LabelledDie, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []LabelledDie
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		p := strings.Fields(sc.Text())
		if len(p) == 0 {
			continue
		}
		if len(p) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 fields, got %d", path, n, len(p))
		}
		var v [5]float64
		for i, s := range p {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			v[i] = x
		}
		out = append(out, LabelledDie{Value: int(v[0]) + 1, CX: v[1], CY: v[2], W: v[3], H: v[4]})
	}
	return out, sc.Err()
}

// LabelledDir lists the photos of a folder of NAME.jpg with NAME.txt
// labels, whose names start with their rig and a dash (cup-00004.jpg), as
// the regression photos in testdata/real are kept.
func LabelledDir(dir string) ([]Photo, error) {
	imgs, err := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if err != nil {
		return nil, err
	}
	sort.Strings(imgs)
	var out []Photo
	for _, img := range imgs {
		dice, err := readLabels(strings.TrimSuffix(img, ".jpg") + ".txt")
		if err != nil {
			return nil, err
		}
		rig, _, _ := strings.Cut(filepath.Base(img), "-")
		out = append(out, Photo{Path: img, Rig: rig, Source: filepath.Base(img), Split: "val", Dice: dice})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no labelled photos in %s", dir)
	}
	return out, nil
}

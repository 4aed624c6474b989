package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/dice"
	"tablecam/vision/learned"
)

// learnedPath is where a set taught to the learned reader lives under the
// data directory.
func learnedPath(dataDir, set string) string {
	return filepath.Join(dataDir, "profiles", "learned", set+".json")
}

// learnedReader is the learned reader with the sets it reads: the taught
// sets named, or with none the built-in d6 pips.
type learnedReader struct {
	r *dice.Reader
	// read reads the dice of a picture.
	read func(gocv.Mat) ([]vision.Die, error)
}

// newLearnedReader loads the learned reader and, for each of sets, the set
// taught to it (tablecam learn dice --reader learned).
func (a *app) newLearnedReader(c *models.Content, sets []string) (*learnedReader, error) {
	r, err := dice.NewReader()
	if err != nil {
		return nil, err
	}
	var taught []*dice.Taught
	for _, s := range sets {
		t, err := dice.LoadTaught(learnedPath(a.cfg.DataDir, s))
		if errors.Is(err, os.ErrNotExist) {
			r.Close()
			return nil, errors.New(a.catalog().T("learnedNotTaught", s, s))
		}
		if err != nil {
			r.Close()
			return nil, err
		}
		taught = append(taught, t)
	}
	return &learnedReader{r: r, read: learned.Dice(r, taught, c)}, nil
}

// playLearnedReader is the learned reader of play for the face sets the
// camera looks for: the sets taught to it, or d6 alone (not taught) by the
// built-in pip classes.
func (a *app) playLearnedReader(c *models.Content, sets []string) (*learnedReader, error) {
	if len(sets) == 1 && sets[0] == "d6" {
		if _, err := os.Stat(learnedPath(a.cfg.DataDir, "d6")); errors.Is(err, os.ErrNotExist) {
			return a.newLearnedReader(c, nil)
		}
	}
	return a.newLearnedReader(c, sets)
}

func (lr *learnedReader) Close() error { return lr.r.Close() }

// teachLearned teaches set to the learned reader from dir/<face>/ pictures
// and stores it in the data directory. A set of the content pack takes
// only its own face ids.
func (a *app) teachLearned(w io.Writer, c *models.Content, set, dir string) error {
	if set == "" || strings.ContainsAny(set, `/\`) || set == "." || set == ".." {
		return errors.New(a.catalog().T("learnedBadSet", set))
	}
	cat := a.catalog()
	values := map[string]int{}
	fs, known := c.FaceSet(set)
	if known {
		for _, f := range fs.Faces {
			values[f.ID] = f.Value
		}
	}
	r, err := dice.NewReader()
	if err != nil {
		return err
	}
	defer r.Close()
	t, check, err := dice.TeachFolder(r, set, dir, values, frame.ReadImage, func(s string) { fmt.Fprintln(w, s) })
	if err != nil {
		return err
	}
	if known {
		var unknown []string
		for _, f := range t.Faces {
			if _, ok := fs.Face(f.Face); !ok {
				unknown = append(unknown, f.Face)
			}
		}
		if len(unknown) > 0 {
			return errors.New(cat.T("learnedUnknownFaces", set, dir, strings.Join(unknown, ", "), strings.Join(fs.FaceIDs(), ", ")))
		}
	}
	path := learnedPath(a.cfg.DataDir, set)
	if err := t.Save(path); err != nil {
		return err
	}
	fmt.Fprint(w, cat.T("learnedTaught", set, cat.Count(len(t.Faces), "faces"), check.Pictures, path))
	fmt.Fprint(w, cat.T("learnedCheck", check.Right, check.Pictures, check.Sure))
	for _, m := range check.Misread {
		fmt.Fprintf(w, "  %s\n", m)
	}
	if check.Right < check.Pictures {
		fmt.Fprint(w, cat.T("selfCheckLow"))
	}
	return nil
}

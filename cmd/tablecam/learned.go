package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gocv.io/x/gocv"

	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/dice"
)

// learnedPath is where a set taught to the learned reader lives under the
// data directory.
func learnedPath(dataDir, set string) string {
	return filepath.Join(dataDir, "profiles", "learned", set+".json")
}

// learnedReader is the learned reader with the sets it reads: the taught
// sets named, or with none the built-in d6 pips.
type learnedReader struct {
	r      *dice.Reader
	taught []*dice.Taught
	c      *models.Content
}

// newLearnedReader loads the learned reader and, for each of sets, the set
// taught to it (tablecam learn dice --reader learned).
func (a *app) newLearnedReader(c *models.Content, sets []string) (*learnedReader, error) {
	r, err := dice.NewReader()
	if err != nil {
		return nil, err
	}
	lr := &learnedReader{r: r, c: c}
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
		lr.taught = append(lr.taught, t)
	}
	return lr, nil
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

// read reads the dice of a picture.
func (lr *learnedReader) read(img gocv.Mat) ([]vision.Die, error) {
	if len(lr.taught) == 0 {
		return readLearned(lr.r, img)
	}
	ds, err := lr.r.ReadTaught(img, lr.taught)
	if err != nil {
		return nil, err
	}
	out := make([]vision.Die, 0, len(ds))
	for _, d := range ds {
		die := vision.Die{Set: d.Set, Face: d.Face, Value: d.Value, Box: d.Box, Center: d.Center,
			Confidence: d.Confidence, Uncertain: !d.Sure}
		if fs, ok := lr.c.FaceSet(d.Set); ok {
			if f, ok := fs.Face(d.Face); ok {
				die.Regions, die.Hits, die.Hurt = f.Regions, f.Hits, f.Hurt
			}
		}
		out = append(out, die)
	}
	return out, nil
}

// readLearned reads the d6 pips in a picture with the learned reader's
// built-in classes.
func readLearned(r *dice.Reader, img gocv.Mat) ([]vision.Die, error) {
	rs, err := r.ReadDice(img)
	if err != nil {
		return nil, err
	}
	out := make([]vision.Die, 0, len(rs))
	for _, d := range rs {
		out = append(out, vision.Die{Set: "d6", Face: strconv.Itoa(d.Value), Value: d.Value, Box: d.Box,
			Center: d.Center, Confidence: d.Confidence, Uncertain: !d.Sure})
	}
	return out, nil
}

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
	t, check, err := dice.TeachFolder(r, set, dir, values, vision.ReadImage, func(s string) { fmt.Fprintln(w, s) })
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

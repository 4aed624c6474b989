package index

import (
	"errors"
	"fmt"
	"image"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// imageExts are the picture files TeachFolder reads.
var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".bmp": true, ".tif": true, ".tiff": true, ".webp": true}

// Bounds of what TeachFolder reads, so that a wrong folder (a photo
// library) is refused at once instead of filling the memory.
const (
	// MaxTeachCards is the most cards taught at once.
	MaxTeachCards = 5000
	// MaxTeachPictures is the most pictures read of one card.
	MaxTeachPictures = 200
)

// extList is imageExts sorted, for messages.
func extList() string { return strings.Join(slices.Sorted(maps.Keys(imageExts)), ", ") }

// TeachFolder builds an index from example photos: dir holds one folder per
// card, named by the card's content id (dir/activation-3/, dir/goal-2/),
// with photos of the card in it: whole camera frames showing that one card
// on the table, or crops of the card (a crop is a picture whose largest
// card outline, if any, covers more than a third of it; the whole picture
// is taken as the card). Symbolic links to folders and to photos are
// followed. Two to five photos from the camera in its place work best.
// progress, if not nil, receives a line per card and per photo that could
// not be used (unreadable, or larger than the size limit). A card without
// any usable photo is left out; an error is returned when no card could be
// taught.
func TeachFolder(dir string, progress func(string)) (*Index, error) {
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	ids, badLinks, err := frame.Subfolders(dir)
	if err != nil {
		return nil, fmt.Errorf("index: teach cards: %w", err)
	}
	for _, err := range badLinks {
		say("skipped %v", err)
	}
	if len(ids) > MaxTeachCards {
		return nil, fmt.Errorf("index: teach cards: %s has %d card folders; teaching takes at most %d", dir, len(ids), MaxTeachCards)
	}
	t, err := newTeacher()
	if err != nil {
		return nil, err
	}
	defer t.close()
	ix := &Index{}
	for _, id := range ids {
		if err := checkID(id); err != nil {
			say("%s: skipped: %v", id, err)
			continue
		}
		files, badLinks, err := frame.PictureFiles(filepath.Join(dir, id), imageExts)
		if err != nil {
			return nil, fmt.Errorf("index: teach cards: %w", err)
		}
		for _, err := range badLinks {
			say("%s: skipped %v", id, err)
		}
		if len(files) > MaxTeachPictures {
			return nil, fmt.Errorf("index: teach cards: %s holds %d pictures; teaching reads at most %d of a card (two to five are enough)", filepath.Join(dir, id), len(files), MaxTeachPictures)
		}
		var imgs []gocv.Mat
		var names []string
		for _, path := range files {
			img, err := frame.ReadImage(path)
			if err != nil {
				say("%s: %s: skipped: %s", id, filepath.Base(path), strings.TrimPrefix(err.Error(), "read image: "+path+": "))
				continue
			}
			imgs = append(imgs, img)
			names = append(names, filepath.Base(path))
		}
		used, errs := t.teach(ix, id, imgs)
		for i, err := range errs {
			if err != nil {
				say("%s: %s: %v", id, names[i], err)
			}
		}
		for _, m := range imgs {
			m.Close()
		}
		switch {
		case len(files) == 0:
			say("%s: no pictures (want %s)", id, extList())
		case used == 0:
			say("%s: none of %d pictures could be used", id, len(files))
		default:
			say("%s: taught from %d of %d pictures", id, used, len(files))
		}
	}
	if len(ix.entries) == 0 {
		return nil, fmt.Errorf("index: teach cards: no card could be taught from %s (want one folder per card id with its photos: %s)", dir, extList())
	}
	return ix, nil
}

// checkID validates a card id used as a folder name.
func checkID(id string) error {
	switch {
	case id == "" || id == Unknown:
		return fmt.Errorf("%q is not a usable card id", id)
	case len(id) > 64:
		return errors.New("id longer than 64 characters")
	case strings.ContainsAny(id, " \t\n/\\\"'"):
		return errors.New("id with spaces, quotes or slashes")
	}
	return nil
}

// teacher finds the card in a teaching photo and describes it.
type teacher struct {
	finder *outline.Finder
	desc   *Describer
	keyer  *Keyer
	grey   gocv.Mat
	half   gocv.Mat
}

func newTeacher() (*teacher, error) {
	return &teacher{finder: outline.NewFinder(), desc: NewDescriber(), keyer: NewKeyer(), grey: gocv.NewMat(), half: gocv.NewMat()}, nil
}

func (t *teacher) close() {
	t.keyer.Close()
	t.finder.Close()
	t.desc.Close()
	t.grey.Close()
	t.half.Close()
}

// teachCandidates is how many outlines per picture take part in
// choosing the card's outline across its pictures.
const teachCandidates = 5

// teach adds card id to ix from its pictures and returns how many were used
// and, per picture, why it was not.
func (t *teacher) teach(ix *Index, id string, imgs []gocv.Mat) (int, []error) {
	errs := make([]error, len(imgs))
	type cand struct {
		d     [2][4]Desc // as found and grown
		q     [4]geom.Point
		score float64
		whole bool // by the keypoints common to the pictures
	}
	var per [][]cand
	var which []int // picture index of per[k]
	common := t.commonKeys(imgs)
	for i, img := range imgs {
		if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
			errs[i] = errors.New("not an 8-bit BGR picture")
			continue
		}
		qs, err := t.cardOutlines(img)
		if err != nil {
			errs[i] = err
			continue
		}
		var cs []cand
		for _, q := range teachDoubled(qs, image.Pt(img.Cols(), img.Rows())) {
			var c cand
			c.score, c.q = q.Score, q.Q
			ok := true
			for g, grow := range []float64{0, GrowInner} {
				if t.desc.Rectify(img, q.Q, grow) != nil || t.desc.Describe(&c.d[g]) != nil {
					ok = false
					break
				}
			}
			if ok {
				c.whole, _ = commonWhole(c.q, common[i])
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			errs[i] = errors.New("no card outline found (show the card whole, against the table)")
			continue
		}
		// Only the whole outlines, by the keypoints common to the
		// pictures, when there are any (index/teach_common.go).
		if slices.ContainsFunc(cs, func(c cand) bool { return c.whole }) {
			cs = slices.DeleteFunc(cs, func(c cand) bool { return !c.whole })
		}
		per = append(per, cs)
		which = append(which, i)
	}
	if len(per) == 0 {
		return 0, errs
	}
	// Choose one outline per picture: the best outline alone when there is
	// one picture; otherwise the choice whose outlines look most alike
	// (the card is the same in every picture; a wrong outline — a panel of
	// the card, a square of the table — is not).
	pick := make([]int, len(per))
	if len(per) > 1 {
		dist := func(a, b *cand) float64 {
			best := math.Inf(1)
			for ga := range 2 {
				for gb := range 2 {
					for r := range 4 {
						best = math.Min(best, distance(&a.d[ga][r], &b.d[gb][0]))
					}
				}
			}
			return best
		}
		// Greedy from every first choice: each further picture takes its
		// outline nearest to those chosen so far.
		bestCost := math.Inf(1)
		for c0 := range per[0] {
			choice := make([]int, len(per))
			choice[0] = c0
			cost := 0.0
			for k := 1; k < len(per); k++ {
				bc, bd := 0, math.Inf(1)
				for ci := range per[k] {
					d := 0.0
					for j := range k {
						d += dist(&per[k][ci], &per[j][choice[j]])
					}
					if d < bd {
						bc, bd = ci, d
					}
				}
				choice[k] = bc
				cost += bd
			}
			if cost < bestCost {
				bestCost, pick = cost, choice
			}
		}
	}
	// The card's top-left corner is the one nearest the top-left of the
	// first picture (cards are taught held upright).
	first := per[0][pick[0]].q
	tl, best := 0, math.Inf(1)
	for k, p := range first {
		if v := float64(p.X + p.Y); v < best {
			tl, best = k, v
		}
	}
	for k, c := range per {
		rot := ix.add(id, &c[pick[k]].d[0], &c[pick[k]].d[1], (4-tl)%4)
		// The keypoints of the card as stored: turned rot×90° clockwise,
		// its top-left corner was the outline's corner (4-rot)%4.
		q := c[pick[k]].q
		var turned [4]geom.Point
		for j := range 4 {
			turned[j] = q[(j+4-rot)%4]
		}
		// Each example's keypoints (keysOf gives the first one's, keysAll
		// all). Without keypoints (a degenerate outline) the example still
		// serves the outline matcher.
		// Keypoints or views of which none were found are kept as none
		// (nil), as they are saved and loaded.
		if keys, err := t.keyer.Teach(imgs[which[k]], turned); err == nil {
			if len(keys.Desc) > 0 {
				ix.entries[len(ix.entries)-2].Keys = keys
			}
			if views, err := t.keyer.teachViews(imgs[which[k]], turned, keys.W, keys.H); err == nil && len(views.Desc) > 0 {
				ix.entries[len(ix.entries)-2].views = views
			}
		}
	}
	return len(per), errs
}

// teachDoubled returns the outlines qs followed by each one doubled
// across its width at either end: half a card, cut along its middle (a
// dark card's art panel over its text panel, on a dark table), is in a
// card's proportions too. The choice across pictures takes the doubled
// outline where the card is whole in another picture. A doubled outline
// must lie in the picture (size) but for teachDoubledOut of its
// sides: the card is shown whole, and a crop (the whole picture the card)
// doubled would be half the picture's border fill, alike in every picture
// of a card whose art repeats (a chessboard).
func teachDoubled(qs []outline.Candidate, size image.Point) []outline.Candidate {
	out := slices.Clone(qs)
	mx, my := teachDoubledOut*float32(size.X), teachDoubledOut*float32(size.Y)
	for _, c := range qs {
		for _, q := range Doubled(c.Q) {
			in := true
			for _, p := range q {
				in = in && p.X >= -0.5-mx && p.Y >= -0.5-my && p.X <= float32(size.X)-0.5+mx && p.Y <= float32(size.Y)-0.5+my
			}
			if !in {
				continue
			}
			d := c
			d.Q = q
			d.Area = 2 * c.Area
			out = append(out, d)
		}
	}
	return out
}

// teachDoubledOut is the share of a teaching picture's sides a doubled
// outline may stick out of it.
const teachDoubledOut = 0.02

// Doubled returns outline q with its shorter sides doubled, at one end
// and at the other: the whole card when q is half of it cut across its
// length (an art panel meeting a text panel across the middle, or a card
// half hidden or half shaded), which is in a card's proportions too.
func Doubled(q [4]geom.Point) [2][4]geom.Point {
	a, b := geom.SideMeans(q)
	return [2][4]geom.Point{geom.ExtendQuad(q, b < a, 1, 0), geom.ExtendQuad(q, b < a, 1, 1)}
}

// cardOutlines returns the candidate outlines of the one card in a teaching
// picture, best first: the best card outlines found in it that cover at
// most 60% of the picture. A picture without one whose sides are in a
// card's proportions (long/short 1.2–1.7) is a crop: the whole picture is
// the card.
func (t *teacher) cardOutlines(img gocv.Mat) ([]outline.Candidate, error) {
	w, h := img.Cols(), img.Rows()
	if w < 16 || h < 16 {
		return nil, fmt.Errorf("picture of %d×%d pixels is too small", w, h)
	}
	whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: float32(w) - 0.5, Y: -0.5}, {X: float32(w) - 0.5, Y: float32(h) - 0.5}, {X: -0.5, Y: float32(h) - 0.5}}
	if !img.IsContinuous() {
		img = img.Clone()
		defer img.Close()
	}
	g, err := geom.ColourView(img)
	if err != nil {
		return nil, err
	}
	hw, hh := max(8, (w+1)/2), max(8, (h+1)/2)
	gocv.Resize(img, &t.half, image.Pt(hw, hh), 0, 0, gocv.InterpolationArea)
	minW := math.Max(24, 0.04*float64(min(w, h)))
	var out []outline.Candidate
	if c, ok := outline.Segment(t.finder, t.half, float64(hw)/float64(w), g, minW, float64(max(w, h))); ok && c.Area <= 0.6*float64(w*h) {
		out = append(out, c)
	}
	found, err := t.finder.Find(t.half, float64(hw)/float64(w), g, minW, float64(max(w, h)))
	if err != nil {
		return nil, err
	}
	for _, c := range found {
		if c.Area <= 0.6*float64(w*h) && len(out) < teachCandidates {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	aspect := float64(max(w, h)) / float64(min(w, h))
	if aspect >= 1.2 && aspect <= 1.7 {
		return []outline.Candidate{{Q: whole, Area: float64(w * h), Score: 1}}, nil
	}
	return nil, errors.New("no card outline found (show the card whole, against the table)")
}

// New returns an empty index; add cards with AddExample.
func New() *Index { return &Index{} }

// AddExample teaches card id from one picture (8-bit BGR): a camera frame
// showing that one card, or a crop of it, as for TeachFolder. Teach with all
// the pictures of a card at once when you have several: the card's outline
// is then chosen to agree across them.
func (ix *Index) AddExample(id string, img gocv.Mat) error {
	return ix.Teach(id, img)
}

// Teach teaches card id from pictures of it (8-bit BGR), as TeachFolder does
// with a card's folder: in each picture the card outline is chosen that
// agrees best with the outlines chosen in the others. It fails only when no
// picture could be used.
func (ix *Index) Teach(id string, imgs ...gocv.Mat) error {
	if err := checkID(id); err != nil {
		return fmt.Errorf("index: teach card: %w", err)
	}
	t, err := newTeacher()
	if err != nil {
		return err
	}
	defer t.close()
	used, errs := t.teach(ix, id, imgs)
	if used == 0 {
		for _, e := range errs {
			if e != nil {
				return fmt.Errorf("index: teach card %s: %w", id, e)
			}
		}
		return fmt.Errorf("index: teach card %s: no picture", id)
	}
	return nil
}

package vision

// Teaching: a face set's look is learned from a few pictures of each face.
// Each picture is a frame with exactly one die of the set on the table, or
// a crop around the die. The die is found without knowing its colours: in a
// frame, by its difference to the table (a reference frame of the empty
// table when one is given, otherwise the frame smoothed with a median
// filter far larger than a die, which removes the die); in a crop, by its
// difference to the colour at the crop's edge. The examples' top faces are
// then aligned to each other (each one's quadrilateral adjusted to fit the
// other examples of its face best) and stored as small crops with their
// body colours. A leave-one-out self-check reads every example with the
// others and names the face each one is most easily confused with.

import (
	"errors"
	"fmt"
	"image"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"tablecam/frame"

	"gocv.io/x/gocv"

	"tablecam/models"
)

// TeachExample is one picture of a face.
type TeachExample struct {
	// Face is the face id the die shows.
	Face string
	// Image is a frame with exactly one die of the set, or a crop around
	// the die (8-bit BGR; the caller keeps it).
	Image gocv.Mat
	// Background, when not empty, is the same view without the die (the
	// caller keeps it); it makes finding the die sure on any table.
	Background gocv.Mat
	// Name says where the picture came from (a file), for messages.
	Name string
}

// TeachOptions configures teaching. Zero fields take the defaults.
type TeachOptions struct {
	// Dice gives the die size limits for whole frames (DiceConfig
	// defaults).
	Dice DiceConfig
	// Threshold is the profile's confidence threshold (default
	// DefaultDiceThreshold).
	Threshold float64
	// Source is stored in the profile (where the examples came from).
	Source string
	// SkipBad leaves out the pictures in which no single die is found
	// (each face must keep one) instead of failing.
	SkipBad bool
}

// DiceSelfCheck is how well a profile reads its own examples, each one
// read with the others only (leave one out).
type DiceSelfCheck struct {
	// Faces has one entry per face, in the set's order.
	Faces []FaceSelfCheck
	// Examples and Correct count all examples and those read right;
	// Uncertain counts those read with too little confidence.
	Examples, Correct, Uncertain int
}

// FaceSelfCheck is the self-check of one face.
type FaceSelfCheck struct {
	Face string
	// Examples and Correct count its examples and those read as it.
	Examples, Correct int
	// Confusable is the other face most like it, Margin the smallest
	// score margin of its examples over that face (higher is safer).
	Confusable string
	Margin     float64
}

// Accuracy returns Correct/Examples (1 with no examples).
func (s DiceSelfCheck) Accuracy() float64 {
	if s.Examples == 0 {
		return 1
	}
	return float64(s.Correct) / float64(s.Examples)
}

// String renders the self-check as a few lines of text.
func (s DiceSelfCheck) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "self-check: %d of %d examples read right (%.1f%%), %d uncertain\n", s.Correct, s.Examples, 100*s.Accuracy(), s.Uncertain)
	for _, f := range s.Faces {
		fmt.Fprintf(&b, "  %-10s %d/%d", f.Face, f.Correct, f.Examples)
		if f.Confusable != "" {
			fmt.Fprintf(&b, "  closest: %s (margin %.2f)", f.Confusable, f.Margin)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TeachDiceProfile learns the look of face set set from examples (at
// least one per face). custom marks a set that is not in the content
// pack. progress, if not nil, receives a line per step.
func TeachDiceProfile(set models.FaceSet, custom bool, examples []TeachExample, opt TeachOptions, progress func(string)) (*DiceProfile, DiceSelfCheck, error) {
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	if set.ID == "" || len(set.Faces) == 0 {
		return nil, DiceSelfCheck{}, errors.New("vision: teach dice: face set without id or faces")
	}
	count := map[string]int{}
	for _, e := range examples {
		if _, ok := set.Face(e.Face); !ok {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice %q: %s: face %q is not one of %s", set.ID, e.Name, e.Face, strings.Join(set.FaceIDs(), ", "))
		}
		count[e.Face]++
	}
	var missing []string
	for _, f := range set.Faces {
		if count[f.ID] == 0 {
			missing = append(missing, f.ID)
		}
	}
	if len(missing) > 0 {
		return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice %q: no example of face %s", set.ID, strings.Join(missing, ", "))
	}
	cfg := opt.Dice.withDefaults()
	f := newDieFinder(cfg)
	defer f.close()
	p := &DiceProfile{Version: DiceProfileVersion, Set: set, Custom: custom, Source: opt.Source, Threshold: opt.Threshold}
	if p.Threshold <= 0 {
		p.Threshold = DefaultDiceThreshold
	}
	type found struct {
		im   dieImage
		rect dieRect
	}
	type pending struct {
		idx   int
		rects []dieRect
		err   error
	}
	var errs []string
	var finds []found
	var amb []pending
	accept := func(i int, im dieImage, r dieRect, how string) {
		e := examples[i]
		finds = append(finds, found{im, r})
		say("%d/%d %s: face %s, die of %.0f px at (%.0f, %.0f)%s", i+1, len(examples), e.Name, e.Face, 2*math.Sqrt(r.HU*r.HV), r.C.X, r.C.Y, how)
		crop := make([]byte, 3*exampleCrop*exampleCrop)
		extractCrop(im, r, crop)
		p.Examples = append(p.Examples, DieExample{Face: e.Face, From: e.Name, Crop: crop})
	}
	reject := func(i int, err error) {
		e := examples[i]
		say("%d/%d %s: %v", i+1, len(examples), e.Name, err)
		if !opt.SkipBad {
			errs = append(errs, fmt.Sprintf("%s: %v", e.Name, err))
		}
	}
	for i, e := range examples {
		r, err := f.findOne(e, cfg)
		var ae *ambiguousError
		switch {
		case errors.As(err, &ae):
			amb = append(amb, pending{i, ae.rects, err})
		case errors.Is(err, errNoDie):
			amb = append(amb, pending{i, nil, err})
		case err != nil:
			reject(i, err)
		default:
			im, _ := viewBGR(e.Image)
			accept(i, im, r, "")
		}
	}
	// Pictures with several die-like things (a busy table): the die is the
	// one that looks most like the other pictures of its face.
	if len(amb) > 0 && len(p.Examples) > 0 {
		p.Body = bodyColours(p.Examples)
		r, err := newFaceReaderPartial(p, set)
		if err != nil {
			return nil, DiceSelfCheck{}, err
		}
		var ps patchScratch
		for _, a := range amb {
			e := examples[a.idx]
			fi, ok := r.faceIdx[e.Face]
			if !ok || len(r.augByFace[fi]) == 0 {
				reject(a.idx, a.err)
				continue
			}
			im, _ := viewBGR(e.Image)
			// Also look for things of the colours the accepted pictures
			// show.
			if len(p.Body) > 0 {
				more, err := f.findByColour(e, cfg, p.Body)
				if err != nil {
					return nil, DiceSelfCheck{}, err
				}
				a.rects = append(a.rects, more...)
			}
			a.rects = dedupeRects(a.rects)
			best, second, bi := -2.0, -2.0, -1
			for k, rc := range a.rects {
				extractPatch(im, rc.corners(), r.margin, true, &ps.patch)
				ps.queryFeatures()
				sc := r.scoreFace(&ps, fi)
				if r.body != nil && !r.matchesBody(&ps.patch) {
					sc -= 0.5
				}
				if sc > best {
					best, second, bi = sc, best, k
				} else if sc > second {
					second = sc
				}
			}
			if bi >= 0 && best > 0.5 && best-second > 0.1 {
				accept(a.idx, im, a.rects[bi], fmt.Sprintf(" (of %d die-like things, the most like the other pictures)", len(a.rects)))
			} else {
				reject(a.idx, a.err)
			}
		}
	} else {
		for _, a := range amb {
			reject(a.idx, a.err)
		}
	}
	if len(errs) > 0 {
		more := ""
		if len(errs) > 5 {
			more = fmt.Sprintf(" (and %d more)", len(errs)-5)
			errs = errs[:5]
		}
		return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice %q: %s%s", set.ID, strings.Join(errs, "; "), more)
	}
	have := map[string]bool{}
	for _, e := range p.Examples {
		have[e.Face] = true
	}
	for _, fc := range set.Faces {
		if !have[fc.ID] {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice %q: no die found in any picture of face %q", set.ID, fc.ID)
		}
	}
	// Align the examples of each face to each other: a lit side taken for
	// part of the top face in one picture is cut away by fitting it to the
	// others.
	for pass := 0; pass < 2; pass++ {
		r, err := newFaceReader(p, set)
		if err != nil {
			return nil, DiceSelfCheck{}, err
		}
		moved := 0
		var ps patchScratch
		for i := range p.Examples {
			fd := &finds[i]
			nr, ok := r.alignExample(fd.im, fd.rect, i, &ps)
			if ok {
				fd.rect = nr
				extractCrop(fd.im, nr, p.Examples[i].Crop)
				moved++
			}
		}
		say("alignment pass %d: %d of %d examples adjusted", pass+1, moved, len(p.Examples))
		if moved == 0 {
			break
		}
	}
	p.Body = bodyColours(p.Examples)
	sc, err := selfCheck(p, set)
	if err != nil {
		return nil, DiceSelfCheck{}, err
	}
	say("%s", strings.TrimRight(sc.String(), "\n"))
	return p, sc, nil
}

// findOne finds the single die of a teaching example.
func (f *dieFinder) findOne(e TeachExample, cfg DiceConfig) (dieRect, error) {
	img := e.Image
	if img.Empty() || img.Type() != gocv.MatTypeCV8UC3 {
		return dieRect{}, errors.New("not a readable colour image")
	}
	if img.Cols() < 16 || img.Rows() < 16 {
		return dieRect{}, fmt.Errorf("image %dx%d too small", img.Cols(), img.Rows())
	}
	if !img.IsContinuous() {
		c := img.Clone()
		defer c.Close()
		img = c
	}
	im, err := viewBGR(img)
	if err != nil {
		return dieRect{}, err
	}
	W, H := im.w, im.h
	lim := topLimits{minSide: cfg.MinSide * float64(W), maxSide: cfg.MaxSide * float64(W)}
	crop := 4*lim.maxSide > float64(min(W, H)) || W < 240
	ws := f.workSize(W, H)
	var bg gocv.Mat
	switch {
	case !e.Background.Empty() && e.Background.Cols() == W && e.Background.Rows() == H && e.Background.Type() == gocv.MatTypeCV8UC3:
		bg = e.Background.Clone()
	case crop:
		// The colour at the crop's edge stands for the table.
		lim = topLimits{minSide: 0.25 * float64(min(W, H)), maxSide: 1.02 * float64(min(W, H))}
		bg = gocv.NewMatWithSize(H, W, gocv.MatTypeCV8UC3)
		c := edgeColour(im)
		bg.SetTo(gocv.NewScalar(c[0], c[1], c[2], 0))
	default:
		// The table without the die: a median far larger than a die.
		small := gocv.NewMat()
		resizeTo(img, &small, ws)
		k := int(2.6*lim.maxSide*float64(ws.X)/float64(W)) | 1
		k = max(7, min(k, 2*(min(ws.X, ws.Y)/2)-1))
		med := gocv.NewMat()
		gocv.MedianBlur(small, &med, k)
		small.Close()
		bg = gocv.NewMat()
		gocv.Resize(med, &bg, image.Pt(W, H), 0, 0, gocv.InterpolationLinear)
		med.Close()
	}
	err = f.setBackground(bg)
	bg.Close()
	if err != nil {
		return dieRect{}, err
	}
	defer func() { f.hasRef = false }()
	cands, _, err := f.find(img, im, nil, lim, false)
	if err != nil {
		return dieRect{}, err
	}
	if len(cands) == 0 && crop {
		// A crop on a busy table: the die is in the middle; find what has
		// the middle's colour.
		f.hasRef = false
		c := centreColour(im)
		body := []DieColour{colourOf(c[0], c[1], c[2])}
		if cands, _, err = f.find(img, im, body, lim, false); err != nil {
			return dieRect{}, err
		}
	}
	if len(cands) == 0 && crop {
		// A tight crop: the die is all there is.
		if cands, _, err = f.find(img, im, nil, lim, true); err != nil {
			return dieRect{}, err
		}
	}
	switch len(cands) {
	case 0:
		return dieRect{}, errNoDie
	case 1:
		return cands[0].rect, nil
	}
	// Several candidates: take the clearly most die-like one (largest top
	// of a plausible size), else give up.
	slices.SortFunc(cands, func(a, b dieCandidate) int {
		return cmpFloat(b.rect.HU*b.rect.HV, a.rect.HU*a.rect.HV)
	})
	if cands[1].rect.HU*cands[1].rect.HV < 0.4*cands[0].rect.HU*cands[0].rect.HV {
		return cands[0].rect, nil
	}
	amb := &ambiguousError{}
	for _, c := range cands {
		amb.rects = append(amb.rects, c.rect)
	}
	return dieRect{}, amb
}

// dedupeRects drops rectangles centred within half a side of an earlier
// one (the same die found twice).
func dedupeRects(rs []dieRect) []dieRect {
	var out []dieRect
	for _, r := range rs {
		dup := false
		for _, o := range out {
			if r.C.sub(o.C).len() < 0.5*math.Min(2*math.Min(r.HU, r.HV), 2*math.Min(o.HU, o.HV)) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}

// errNoDie reports a teaching picture without a die.
var errNoDie = errors.New("no die found")

// findByColour returns the top faces of the things in e's picture whose
// colour is one of bodies.
func (f *dieFinder) findByColour(e TeachExample, cfg DiceConfig, bodies []DieColour) ([]dieRect, error) {
	img := e.Image
	if !img.IsContinuous() {
		c := img.Clone()
		defer c.Close()
		img = c
	}
	im, err := viewBGR(img)
	if err != nil {
		return nil, err
	}
	lim := topLimits{minSide: cfg.MinSide * float64(im.w), maxSide: cfg.MaxSide * float64(im.w)}
	if 4*lim.maxSide > float64(min(im.w, im.h)) || im.w < 240 {
		lim = topLimits{minSide: 0.25 * float64(min(im.w, im.h)), maxSide: 1.02 * float64(min(im.w, im.h))}
	}
	f.hasRef = false
	cands, _, err := f.find(img, im, bodies, lim, false)
	if err != nil {
		return nil, err
	}
	var out []dieRect
	for _, c := range cands {
		out = append(out, c.rect)
	}
	return out, nil
}

// ambiguousError reports several dice where one was wanted.
type ambiguousError struct{ rects []dieRect }

func (e *ambiguousError) Error() string {
	var where []string
	for _, r := range e.rects {
		where = append(where, fmt.Sprintf("(%.0f, %.0f)", r.C.X, r.C.Y))
	}
	return fmt.Sprintf("%d dice found at %s, want exactly one", len(e.rects), strings.Join(where, ", "))
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// edgeColour is the per-channel median of the image's outermost pixels.
func edgeColour(im dieImage) [3]float64 {
	var ch [3][]byte
	add := func(x, y int) {
		i := 3 * (y*im.w + x)
		for c := 0; c < 3; c++ {
			ch[c] = append(ch[c], im.pix[i+c])
		}
	}
	for x := 0; x < im.w; x++ {
		add(x, 0)
		add(x, im.h-1)
	}
	for y := 1; y < im.h-1; y++ {
		add(0, y)
		add(im.w-1, y)
	}
	var out [3]float64
	for c := 0; c < 3; c++ {
		slices.Sort(ch[c])
		out[c] = float64(ch[c][len(ch[c])/2])
	}
	return out
}

// centreColour is the per-channel median of the middle fifth of the image.
func centreColour(im dieImage) [3]float64 {
	var ch [3][]byte
	for y := 2 * im.h / 5; y < 3*im.h/5; y++ {
		for x := 2 * im.w / 5; x < 3*im.w/5; x++ {
			i := 3 * (y*im.w + x)
			for c := 0; c < 3; c++ {
				ch[c] = append(ch[c], im.pix[i+c])
			}
		}
	}
	var out [3]float64
	for c := 0; c < 3; c++ {
		if len(ch[c]) == 0 {
			return out
		}
		slices.Sort(ch[c])
		out[c] = float64(ch[c][len(ch[c])/2])
	}
	return out
}

// extractCrop samples the square around rect, 1/exampleFace times its
// size, into crop (exampleCrop² BGR pixels).
func extractCrop(im dieImage, rect dieRect, crop []byte) {
	r := rect
	r.HU /= exampleFace
	r.HV /= exampleFace
	q := r.corners()
	hm := squareToQuad(q)
	side := 2 * math.Sqrt(r.HU*r.HV)
	k := max(1, min(4, int(math.Ceil(side/exampleCrop))))
	n := exampleCrop
	step := 1 / float64(n)
	sub := step / float64(k)
	inv := 1 / float32(k*k)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			var sb, sg, sr float32
			for j := 0; j < k; j++ {
				v := float64(y)*step + (float64(j)+0.5)*sub
				for i := 0; i < k; i++ {
					u := float64(x)*step + (float64(i)+0.5)*sub
					b, g, r := im.sample(hm.apply(u, v))
					sb += b
					sg += g
					sr += r
				}
			}
			o := 3 * (y*n + x)
			crop[o] = byte(min(255, sb*inv+0.5))
			crop[o+1] = byte(min(255, sg*inv+0.5))
			crop[o+2] = byte(min(255, sr*inv+0.5))
		}
	}
}

// alignExample adjusts example i's rectangle in its image to fit the other
// examples of its face best; ok is false when it did not get clearly
// better.
func (r *faceReader) alignExample(im dieImage, rect dieRect, i int, ps *patchScratch) (dieRect, bool) {
	var nr dieRect
	var before, after float64
	f := r.baseFace[i]
	r.withoutExample(i, func() {
		extractPatch(im, rect.corners(), r.margin, true, &ps.patch)
		ps.queryFeatures()
		nr, after = r.refineFor(im, rect, f, ps)
		before = r.scoreFace(ps, f)
	})
	return nr, after > before+0.02
}

// scoreFace returns face f's best score for the query in ps.
func (r *faceReader) scoreFace(ps *patchScratch, f int) float64 {
	best := float32(-2)
	for _, t := range r.augByFace[f] {
		for q := 0; q < 4; q++ {
			best = max(best, dotFeat(&ps.feat[q], &r.aug[t]))
		}
	}
	return float64(best)
}

// withoutExample runs fn with the templates of example i left out.
func (r *faceReader) withoutExample(i int, fn func()) {
	saveB, saveBF, saveBy := r.base, r.baseFace, r.augByFace
	defer func() { r.base, r.baseFace, r.augByFace = saveB, saveBF, saveBy }()
	na := 1 + len(augmentations)
	r.base = slices.Delete(slices.Clone(saveB), i, i+1)
	r.baseFace = slices.Delete(slices.Clone(saveBF), i, i+1)
	by := make([][]int, len(saveBy))
	for f, ts := range saveBy {
		for _, t := range ts {
			if t/na != i {
				by[f] = append(by[f], t)
			}
		}
	}
	r.augByFace = by
	fn()
}

// bodyColours returns the distinct body colours of the examples that are
// not white, grey or black (see exampleColours).
func bodyColours(ex []DieExample) []DieColour { return exampleColours(ex, false) }

// exampleColours returns the distinct body colours of the examples: the
// median colour of each face. White, grey and black are left out unless
// neutral is set: any table can be that colour, so such dice are not
// found by their colour and need the reference frame; their colour still
// tells them from a die of another colour with the same faces.
func exampleColours(ex []DieExample, neutral bool) []DieColour {
	var out []DieColour
	var ch [3][]byte
	lo := int(exampleCrop * (1 - exampleFace) / 2)
	hi := exampleCrop - lo
	for _, e := range ex {
		for c := range ch {
			ch[c] = ch[c][:0]
		}
		for y := lo; y < hi; y++ {
			for x := lo; x < hi; x++ {
				i := 3 * (y*exampleCrop + x)
				for c := 0; c < 3; c++ {
					ch[c] = append(ch[c], e.Crop[i+c])
				}
			}
		}
		var m [3]float64
		for c := 0; c < 3; c++ {
			slices.Sort(ch[c])
			m[c] = float64(ch[c][len(ch[c])/2])
		}
		col := colourOf(m[0], m[1], m[2])
		if !neutral && math.Hypot(col.RG, col.YB) < 0.25 {
			continue
		}
		dup := false
		for _, o := range out {
			if math.Hypot(o.RG-col.RG, o.YB-col.YB) < 0.08 && math.Abs(math.Log(o.Value/col.Value)) < 0.3 {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, col)
		}
	}
	return out
}

// selfCheck reads every example of p with the others (leave one out).
func selfCheck(p *DiceProfile, set models.FaceSet) (DiceSelfCheck, error) {
	r, err := newFaceReader(p, set)
	if err != nil {
		return DiceSelfCheck{}, err
	}
	var sc DiceSelfCheck
	per := make([]FaceSelfCheck, len(r.faces))
	conf := make([]map[int]float64, len(r.faces)) // face → other face → smallest margin
	for i, f := range r.faces {
		per[i].Face = f
		per[i].Margin = math.Inf(1)
		conf[i] = map[int]float64{}
	}
	var ps patchScratch
	im := dieImage{w: exampleCrop, h: exampleCrop}
	for i, e := range p.Examples {
		im.pix = e.Crop
		extractPatch(im, exampleQuad(diePt{}, 1, 0), r.margin, false, &ps.patch)
		ps.queryFeatures()
		m := r.matchSkip(ps.clone(), i)
		want := r.faceIdx[e.Face]
		fc := &per[want]
		fc.Examples++
		sc.Examples++
		if m.face == want {
			fc.Correct++
			sc.Correct++
			if m.confidence() < r.threshold {
				sc.Uncertain++
			}
			if m.second >= 0 && m.margin < fc.Margin {
				fc.Margin, fc.Confusable = m.margin, r.faces[m.second]
			}
		} else {
			sc.Uncertain += 0
			fc.Margin, fc.Confusable = math.Min(fc.Margin, -m.margin), r.faces[m.face]
		}
	}
	for i := range per {
		if math.IsInf(per[i].Margin, 1) {
			per[i].Margin = 0
		}
	}
	sc.Faces = per
	return sc, nil
}

func (ps *patchScratch) clone() *patchScratch {
	c := &patchScratch{patch: ps.patch, feat: ps.feat}
	return c
}

// matchSkip is match leaving out the templates of example skip (-1: none).
func (r *faceReader) matchSkip(ps *patchScratch, skip int) faceMatch {
	if skip < 0 {
		return r.match(ps)
	}
	var m faceMatch
	r.withoutExample(skip, func() { m = r.match(ps) })
	return m
}

// TeachDice teaches face set set from the pictures in dir: dir/<face-id>/
// holds the pictures of each face (PNG or JPEG: frames with exactly one die
// of the set, or crops around it); an optional dir/background.png (or .jpg)
// is the table without dice, for the frames of its size. A set of the
// content pack must get pictures of exactly its faces; any other name
// creates a custom set with the directories' names as face ids (numeric
// when they all are numbers). The caller saves the profile (Save to
// ProfileDir(dataDir, set)).
func TeachDice(c *models.Content, set string, dir string, progress func(string)) (*DiceProfile, DiceSelfCheck, error) {
	if set == "" || strings.ContainsAny(set, `/\`) || set == "." || set == ".." {
		return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: bad set name %q", set)
	}
	say := func(format string, args ...any) {
		if progress != nil {
			progress(fmt.Sprintf(format, args...))
		}
	}
	faceDirs, badLinks, err := frame.Subfolders(dir)
	if err != nil {
		return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: %w", err)
	}
	for _, err := range badLinks {
		say("skipped %v", err)
	}
	var bgFile string
	if files, _, err := frame.PictureFiles(dir, frame.ImageExts()); err == nil {
		for _, f := range files {
			name := filepath.Base(f)
			if strings.EqualFold(strings.TrimSuffix(name, filepath.Ext(name)), "background") {
				bgFile = f
			}
		}
	}
	if len(faceDirs) == 0 {
		return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: %s has no face directories (want %s/<face-id>/*.png)", dir, dir)
	}
	if len(faceDirs) > MaxTeachFaces {
		return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: %s has %d face directories; a die has at most %d faces", dir, len(faceDirs), MaxTeachFaces)
	}
	var fs models.FaceSet
	custom := false
	if c != nil {
		if cs, ok := c.FaceSet(set); ok {
			fs = cs
		}
	}
	if fs.ID == "" {
		custom = true
		fs = customFaceSet(set, faceDirs)
	} else {
		var unknown []string
		for _, d := range faceDirs {
			if _, ok := fs.Face(d); !ok {
				unknown = append(unknown, d)
			}
		}
		if len(unknown) > 0 {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice %q: %s: no such face %s (faces: %s)", set, dir, strings.Join(unknown, ", "), strings.Join(fs.FaceIDs(), ", "))
		}
	}
	bg := gocv.NewMat()
	defer bg.Close()
	if bgFile != "" {
		m, err := frame.ReadImage(bgFile)
		if err != nil {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: background: %w", err)
		}
		bg.Close()
		bg = m
	}
	var examples []TeachExample
	defer func() {
		for _, e := range examples {
			e.Image.Close()
		}
	}()
	for _, fd := range faceDirs {
		files, badLinks, err := frame.PictureFiles(filepath.Join(dir, fd), frame.ImageExts())
		if err != nil {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: %w", err)
		}
		for _, err := range badLinks {
			say("%s: skipped %v", fd, err)
		}
		if len(files) > MaxTeachPictures {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: %s holds %d pictures; teaching reads at most %d of a face (5 are enough)", filepath.Join(dir, fd), len(files), MaxTeachPictures)
		}
		read := 0
		for _, path := range files {
			m, err := frame.ReadImage(path)
			if err != nil {
				// One unreadable or oversized picture costs itself.
				say("%s: %s: skipped: %s", fd, filepath.Base(path), strings.TrimPrefix(err.Error(), "read image: "+path+": "))
				continue
			}
			read++
			examples = append(examples, TeachExample{Face: fd, Image: m, Background: bg, Name: path})
		}
		if read == 0 {
			return nil, DiceSelfCheck{}, fmt.Errorf("vision: teach dice: %s: no readable picture (reads %s files)", filepath.Join(dir, fd), frame.ExtList(frame.ImageExts()))
		}
	}
	if progress != nil {
		kind := "face set of the content pack"
		if custom {
			kind = "new custom face set"
		}
		progress(fmt.Sprintf("teaching %q (%s): %d pictures of %d faces", set, kind, len(examples), len(faceDirs)))
	}
	return TeachDiceProfile(fs, custom, examples, TeachOptions{Source: dir}, progress)
}

// Bounds of what teaching reads, so that a wrong folder (a photo library)
// is refused at once instead of filling the memory.
const (
	// MaxTeachFaces is the most faces a taught die has.
	MaxTeachFaces = 100
	// MaxTeachPictures is the most pictures read of one face.
	MaxTeachPictures = 200
)

// customFaceSet makes a face set from face ids: numeric (in number order)
// when every id is a number, symbols (in name order) otherwise.
func customFaceSet(id string, faces []string) models.FaceSet {
	fs := models.FaceSet{ID: id, Name: id, Kind: models.KindNumeric}
	nums := map[string]int{}
	for _, f := range faces {
		n, err := strconv.Atoi(f)
		if err != nil {
			fs.Kind = models.KindSymbol
			break
		}
		nums[f] = n
	}
	ids := slices.Clone(faces)
	if fs.Kind == models.KindNumeric {
		sort.Slice(ids, func(i, j int) bool { return nums[ids[i]] < nums[ids[j]] })
	} else {
		sort.Strings(ids)
	}
	for _, f := range ids {
		face := models.Face{ID: f, Label: f}
		if fs.Kind == models.KindNumeric {
			face.Value = nums[f]
		}
		fs.Faces = append(fs.Faces, face)
	}
	return fs
}

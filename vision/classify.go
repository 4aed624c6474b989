package vision

// Reading a die's face: the top face is warped to an upright 32×32 patch,
// shrunk to 16×16 features (luma and two opponent colour channels, centred,
// unit norm as one vector so that a flat colour channel weighs little) and
// compared by normalised cross-correlation with the profile's examples at
// the four quarter turns, each example resampled with small shifts, turns
// and scale changes. The best face's score, and its margin over the best
// other face, give the confidence. A die read with little confidence gets a
// second look: its quadrilateral is adjusted (each side moved in or out,
// small turns) to fit the best faces' examples better — that cuts away a
// lit side taken for part of the top face. d6 faces are also counted by
// their pips ([countPips]); the two readings must agree.

import (
	"fmt"
	"math"
	"slices"

	"tablecam/models"
	"tablecam/vision/internal/fdot"
)

// Patch and feature geometry.
const (
	facePatchSize = 32
	featSide      = facePatchSize / 2
	featLen       = 3 * featSide * featSide
	// facePatchMargin is the part of the face's side left out on each edge
	// of the patch: rounded corners and rim, which show the table when the
	// face is found a little too large.
	facePatchMargin = 0.04
	// featChroma weighs the colour channels against luma.
	featChroma = 2
)

// facePatch is a top face warped upright, 8-bit BGR.
type facePatch [3 * facePatchSize * facePatchSize]byte

// featVec is a face's feature vector.
type featVec [featLen]float32

// extractPatch warps quad q of im (corners in order around the face) to a
// patch, leaving out margin of the side on each edge. With super set,
// faces larger than the patch are averaged over sub-samples.
func extractPatch(im dieImage, q [4]diePt, margin float64, super bool, out *facePatch) {
	k := 1
	if super {
		side := (q[1].sub(q[0]).len() + q[2].sub(q[1]).len() + q[3].sub(q[2]).len() + q[0].sub(q[3]).len()) / 4
		k = max(1, min(4, int(math.Ceil(side*(1-2*margin)/facePatchSize))))
	}
	hm := squareToQuad(q)
	n := facePatchSize
	step := (1 - 2*margin) / float64(n)
	sub := step / float64(k)
	inv := 1 / float32(k*k)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			var sb, sg, sr float32
			for j := 0; j < k; j++ {
				v := margin + float64(y)*step + (float64(j)+0.5)*sub
				for i := 0; i < k; i++ {
					u := margin + float64(x)*step + (float64(i)+0.5)*sub
					b, g, r := im.sample(hm.apply(u, v))
					sb += b
					sg += g
					sr += r
				}
			}
			o := 3 * (y*n + x)
			out[o] = byte(min(255, sb*inv+0.5))
			out[o+1] = byte(min(255, sg*inv+0.5))
			out[o+2] = byte(min(255, sr*inv+0.5))
		}
	}
}

// features computes the patch's feature vector: the patch averaged 2×2;
// luma, red-green and yellow-blue, each centred on its mean; the whole
// vector scaled to unit norm (zero for a flat patch).
func (p *facePatch) features(dst *featVec) {
	const n = featSide * featSide
	var m [3]float32
	for y := 0; y < featSide; y++ {
		for x := 0; x < featSide; x++ {
			var b, g, r float32
			for _, o := range [4]int{0, 1, facePatchSize, facePatchSize + 1} {
				i := 3 * ((2*y)*facePatchSize + 2*x + o)
				b += float32(p[i])
				g += float32(p[i+1])
				r += float32(p[i+2])
			}
			l := 0.114*b + 0.587*g + 0.299*r
			c1 := featChroma * 0.5 * (r - g)
			c2 := featChroma * 0.5 * ((r+g)*0.5 - b)
			i := y*featSide + x
			dst[i], dst[n+i], dst[2*n+i] = l, c1, c2
			m[0] += l
			m[1] += c1
			m[2] += c2
		}
	}
	var ss float64
	for c := 0; c < 3; c++ {
		mc := m[c] / n
		for i := c * n; i < (c+1)*n; i++ {
			dst[i] -= mc
			ss += float64(dst[i]) * float64(dst[i])
		}
	}
	if ss < 1e-3 {
		clear(dst[:])
		return
	}
	k := float32(1 / math.Sqrt(ss))
	for i := range dst {
		dst[i] *= k
	}
}

// sampleFeatures computes features straight from the frame, one sample
// per feature pixel: a cheaper, slightly noisier version of extractPatch
// and features, for fitting the quadrilateral.
func sampleFeatures(im dieImage, q [4]diePt, margin float64, dst *featVec) {
	const n = featSide * featSide
	hm := squareToQuad(q)
	step := (1 - 2*margin) / featSide
	var m [3]float32
	for y := 0; y < featSide; y++ {
		v := margin + (float64(y)+0.5)*step
		for x := 0; x < featSide; x++ {
			b, g, r := im.sample(hm.apply(margin+(float64(x)+0.5)*step, v))
			l := 0.114*b + 0.587*g + 0.299*r
			c1 := featChroma * 0.5 * (r - g)
			c2 := featChroma * 0.5 * ((r+g)*0.5 - b)
			i := y*featSide + x
			dst[i], dst[n+i], dst[2*n+i] = l, c1, c2
			m[0] += l
			m[1] += c1
			m[2] += c2
		}
	}
	normalizeFeat(dst, m)
}

// normalizeFeat centres each channel of dst on its mean (channel sums in
// m) and scales the vector to unit norm.
func normalizeFeat(dst *featVec, m [3]float32) {
	const n = featSide * featSide
	var ss float64
	for c := 0; c < 3; c++ {
		mc := m[c] / n
		for i := c * n; i < (c+1)*n; i++ {
			dst[i] -= mc
			ss += float64(dst[i]) * float64(dst[i])
		}
	}
	if ss < 1e-3 {
		clear(dst[:])
		return
	}
	k := float32(1 / math.Sqrt(ss))
	for i := range dst {
		dst[i] *= k
	}
}

// applyGamma maps every channel value v to 255·(v/255)^g.
func (p *facePatch) applyGamma(g float64) {
	var lut [256]byte
	for i := range lut {
		lut[i] = byte(math.Round(255 * math.Pow(float64(i)/255, g)))
	}
	for i, v := range p {
		p[i] = lut[v]
	}
}

// contrast is the patch's colour spread (the standard deviations of luma
// and of the two opponent colours, combined) over its mean luma, in the
// inner 80% of the face: about 0 for a blank face, whatever the light.
func (p *facePatch) contrast() float64 {
	var s, ss [3]float64
	n := 0
	lo, hi := facePatchSize/10, facePatchSize-facePatchSize/10
	for y := lo; y < hi; y++ {
		for x := lo; x < hi; x++ {
			i := 3 * (y*facePatchSize + x)
			b, g, r := float64(p[i]), float64(p[i+1]), float64(p[i+2])
			v := [3]float64{0.114*b + 0.587*g + 0.299*r, 0.5 * (r - g), 0.5 * ((r+g)/2 - b)}
			for c := range v {
				s[c] += v[c]
				ss[c] += v[c] * v[c]
			}
			n++
		}
	}
	var tv float64
	for c := range s {
		m := s[c] / float64(n)
		tv += math.Max(0, ss[c]/float64(n)-m*m)
	}
	return math.Sqrt(tv) / math.Max(s[0]/float64(n), 8)
}

// flatContrast is the contrast below which a face counts as blank.
const flatContrast = 0.08

// rotFeat writes src turned by 90° clockwise to dst.
func rotFeat(dst, src *featVec) {
	const n = featSide * featSide
	for c := 0; c < 3; c++ {
		s, d := src[c*n:(c+1)*n], dst[c*n:(c+1)*n]
		for y := 0; y < featSide; y++ {
			for x := 0; x < featSide; x++ {
				d[x*featSide+(featSide-1-y)] = s[y*featSide+x]
			}
		}
	}
}

func dotFeat(a, b *featVec) float32 { return fdot.Dot(a[:], b[:]) }

// dotsWith sets out[i] to the dot product of q with vec(i), for every i
// below len(out): four products at a time, each as fdot.Dot computes it.
func dotsWith(q []float32, out []float32, vec func(i int) []float32) {
	var a [4][]float32
	for i := 0; i < len(out); i += 4 {
		k := min(4, len(out)-i)
		for j := range a {
			a[j] = vec(i + min(j, k-1))
		}
		s := fdot.Dot4(&a, q)
		copy(out[i:i+k], s[:k])
	}
}

// growFloat32s returns b resized to n (contents undefined).
func growFloat32s(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// patchScratch holds the buffers for reading one die.
type patchScratch struct {
	patch facePatch
	feat  [4]featVec // the query at 0, 90, 180, 270° clockwise
	best  []float32  // per face
	rot   []int      // per face
	tpl   []*featVec // per face: the template that scored best
	dots  []float32  // scores of templates, in the order matched
	// memo: the matches of the query as it is, latest last (nmemo of
	// them).
	memo  []matchMemo
	nmemo int
}

// matchMemo is a reader's match of a query and the per-face state it
// left in the patchScratch.
type matchMemo struct {
	r    *faceReader
	m    faceMatch
	best []float32
	rot  []int
	tpl  []*featVec
}

// queryFeatures fills ps.feat from ps.patch.
func (ps *patchScratch) queryFeatures() {
	ps.patch.features(&ps.feat[0])
	for r := 1; r < 4; r++ {
		rotFeat(&ps.feat[r], &ps.feat[r-1])
	}
	ps.nmemo = 0
}

// remember notes r's match m of the query in ps (see recall).
func (ps *patchScratch) remember(r *faceReader, m faceMatch) {
	if ps.nmemo == len(ps.memo) {
		ps.memo = append(ps.memo, matchMemo{})
	}
	e := &ps.memo[ps.nmemo]
	ps.nmemo++
	nf := len(r.faces)
	e.r, e.m = r, m
	e.best = append(e.best[:0], ps.best[:nf]...)
	e.rot = append(e.rot[:0], ps.rot[:nf]...)
	e.tpl = append(e.tpl[:0], ps.tpl[:nf]...)
}

// recall returns r's latest match of the query as it is, and puts its
// per-face state back in ps as r.match(ps) would leave it; ok is false
// when r has not matched it.
func (ps *patchScratch) recall(r *faceReader) (faceMatch, bool) {
	for i := ps.nmemo - 1; i >= 0; i-- {
		if e := &ps.memo[i]; e.r == r {
			copy(ps.best, e.best)
			copy(ps.rot, e.rot)
			copy(ps.tpl, e.tpl)
			return e.m, true
		}
	}
	return faceMatch{}, false
}

// faceReader reads the faces of one face set.
type faceReader struct {
	set       models.FaceSet
	faces     []string
	faceIdx   map[string]int
	threshold float64
	pips      bool // a d6: faces are also counted by their pips
	values    []int
	// base holds one template per example (the crop as taught), aug the
	// resampled variants; baseFace and augFace their faces.
	base, aug         []featVec
	baseFace, augFace []int
	augByFace         [][]int
	// flat marks the blank faces (their examples show no art), flatFace is
	// the only blank face or -1.
	flat     []bool
	flatFace int
	// faintArt is the median contrast of the examples of the face with
	// the faintest art (0: no face has art).
	faintArt float64
	// body holds the profile's body colours (p.Body: none for white, grey
	// or black dice, whose colour any table may have), tones the body
	// colours of its examples, neutral ones too: body says whether a patch
	// may be a die of the set at all, tones which of two sets whose faces
	// look alike a die belongs to.
	body, tones []DieColour
	// margin is the part of the face's side its patches leave out on each
	// edge: facePatchMargin, or more for numerals (the middle of the face
	// holds all of their art, sampled finer).
	margin float64
	// marginScale is the margin of a clear reading (0: 0.2).
	marginScale float64
	// num reads numerals by the numeral itself (numeric sets but d6).
	num *numeralReader
}

// numeralMarginScale is the margin over the best other face that counts
// as clear for numerals: numerals share most of their strokes.
const numeralMarginScale = 0.1

// numeralMargin is the patch margin of numeric faces other than pips.
const numeralMargin = 0.27

// exampleQuad is the face's quadrilateral in an example crop.
func exampleQuad(shift diePt, scale, turn float64) [4]diePt {
	c := diePt{exampleCrop / 2, exampleCrop / 2}.add(shift)
	h := exampleCrop * exampleFace / 2 * scale
	u := diePt{math.Cos(turn), math.Sin(turn)}
	r := dieRect{C: c, U: u, HU: h, HV: h}
	return r.corners()
}

// augmentations are the resamplings of each example: shift (pixels of the
// crop), scale and turn (radians).
// gamma changes the contrast curve, as a brighter or dimmer light that
// saturates or crushes part of the range does.
var augmentations = []struct {
	shift       diePt
	scale, turn float64
	gamma       float64
}{
	{diePt{1, 0}, 1, 0, 1}, {diePt{-1, 0}, 1, 0, 1}, {diePt{0, 1}, 1, 0, 1}, {diePt{0, -1}, 1, 0, 1},
	{diePt{}, 0.95, 0, 1}, {diePt{}, 1.05, 0, 1},
	{diePt{}, 1, 0.06, 1}, {diePt{}, 1, -0.06, 1},
	{diePt{}, 1, 0, 0.6}, {diePt{}, 1, 0, 1.6},
}

func newFaceReader(p *DiceProfile, fs models.FaceSet) (*faceReader, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return newFaceReaderPartial(p, fs)
}

// newFaceReaderPartial is newFaceReader for a profile that may lack some
// faces' examples (while teaching).
func newFaceReaderPartial(p *DiceProfile, fs models.FaceSet) (*faceReader, error) {
	r := &faceReader{set: fs, faceIdx: map[string]int{}, threshold: p.Threshold, body: p.Body, tones: exampleColours(p.Examples, true)}
	if r.threshold <= 0 {
		r.threshold = DefaultDiceThreshold
	}
	for _, f := range fs.Faces {
		r.faceIdx[f.ID] = len(r.faces)
		r.faces = append(r.faces, f.ID)
		v, _ := models.NumericValue(fs, f.ID)
		r.values = append(r.values, v)
	}
	r.pips = isPipSet(fs)
	r.margin = facePatchMargin
	if fs.Kind == models.KindNumeric && !r.pips {
		r.margin = numeralMargin
		r.marginScale = numeralMarginScale
	}
	r.augByFace = make([][]int, len(r.faces))
	contrasts := make([][]float64, len(r.faces))
	var patch facePatch
	for i, e := range p.Examples {
		fi, ok := r.faceIdx[e.Face]
		if !ok {
			return nil, fmt.Errorf("vision: dice profile %q: example %d: face %q is not in the content's set", p.Set.ID, i, e.Face)
		}
		im := dieImage{w: exampleCrop, h: exampleCrop, pix: e.Crop}
		var fv featVec
		extractPatch(im, exampleQuad(diePt{}, 1, 0), facePatchMargin, false, &patch)
		contrasts[fi] = append(contrasts[fi], patch.contrast())
		if r.margin != facePatchMargin {
			extractPatch(im, exampleQuad(diePt{}, 1, 0), r.margin, false, &patch)
		}
		patch.features(&fv)
		r.base = append(r.base, fv)
		r.baseFace = append(r.baseFace, fi)
		r.aug = append(r.aug, fv)
		r.augFace = append(r.augFace, fi)
		r.augByFace[fi] = append(r.augByFace[fi], len(r.aug)-1)
		for _, a := range augmentations {
			extractPatch(im, exampleQuad(a.shift, a.scale, a.turn), r.margin, false, &patch)
			if a.gamma != 1 {
				patch.applyGamma(a.gamma)
			}
			patch.features(&fv)
			r.aug = append(r.aug, fv)
			r.augFace = append(r.augFace, fi)
			r.augByFace[fi] = append(r.augByFace[fi], len(r.aug)-1)
		}
	}
	if fs.Kind == models.KindNumeric && !r.pips {
		r.num = newNumeralReader(p, r.faceIdx, len(r.faces))
	}
	r.flat = make([]bool, len(r.faces))
	r.flatFace = -1
	nflat := 0
	for f, cs := range contrasts {
		slices.Sort(cs)
		if len(cs) == 0 {
			continue
		}
		if c := cs[len(cs)/2]; c < flatContrast {
			r.flat[f] = true
			r.flatFace = f
			nflat++
		} else if r.faintArt == 0 || c < r.faintArt {
			r.faintArt = c
		}
	}
	if nflat != 1 {
		r.flatFace = -1
	}
	return r, nil
}

// isPipSet reports whether a face set is a standard d6 (faces valued 1 … 6).
func isPipSet(fs models.FaceSet) bool {
	if fs.Kind != models.KindNumeric || len(fs.Faces) != 6 {
		return false
	}
	seen := 0
	for _, f := range fs.Faces {
		v, ok := models.NumericValue(fs, f.ID)
		if !ok || v < 1 || v > 6 || seen&(1<<v) != 0 {
			return false
		}
		seen |= 1 << v
	}
	return true
}

// faceMatch is how well a query matches a face set.
type faceMatch struct {
	face   int     // best face
	rot    int     // quarter turns clockwise that bring the query upright
	score  float64 // best face's score (normalised cross-correlation)
	second int     // best other face
	margin float64 // score minus the best other face's score
	scale  float64 // the margin that counts as clear (0: 0.2)
}

// match scores the query in ps against the reader's examples: the base
// templates pick the three best faces, whose resampled templates decide.
func (r *faceReader) match(ps *patchScratch) faceMatch {
	nf := len(r.faces)
	if cap(ps.best) < nf {
		ps.best = make([]float32, nf)
		ps.rot = make([]int, nf)
		ps.tpl = make([]*featVec, nf)
	}
	best, rot, tpl := ps.best[:nf], ps.rot[:nf], ps.tpl[:nf]
	for i := range best {
		best[i], tpl[i] = -2, nil
	}
	qs := [4][]float32{ps.feat[0][:], ps.feat[1][:], ps.feat[2][:], ps.feat[3][:]}
	for t := range r.base {
		f := r.baseFace[t]
		s4 := fdot.Dot4(&qs, r.base[t][:])
		for q, s := range s4 {
			if s > best[f] {
				best[f], rot[f], tpl[f] = s, q, &r.base[t]
			}
		}
	}
	var topBuf [3]int
	top := topFaces(topBuf[:0], best, 3)
	for _, f := range top {
		q := rot[f]
		ts := r.augByFace[f]
		ps.dots = growFloat32s(ps.dots, len(ts))
		dotsWith(ps.feat[q][:], ps.dots, func(i int) []float32 { return r.aug[ts[i]][:] })
		for i, t := range ts {
			if s := ps.dots[i]; s > best[f] {
				best[f], tpl[f] = s, &r.aug[t]
			}
		}
	}
	m := faceMatch{face: -1, second: -1, scale: r.marginScale}
	for f, s := range best {
		switch {
		case m.face < 0 || s > best[m.face]:
			m.second, m.face = m.face, f
		case m.second < 0 || s > best[m.second]:
			m.second = f
		}
	}
	m.rot = rot[m.face]
	m.score = float64(best[m.face])
	if m.second >= 0 {
		m.margin = m.score - float64(best[m.second])
	} else {
		m.margin = m.score
	}
	ps.remember(r, m)
	return m
}

// conflict measures how much of the query speaks for the best other face
// m.second rather than for m.face, where the two faces' best templates
// differ: the face's side of the patch (4×4 blocks of the 16×16 features,
// each template turned to the query's frame) that the other face fits
// best, by how much it fits better, over the block where the face fits
// best by most. Two faces that share most of their art (a dot, and a dot
// with a bolt) are told apart by a block or two: a reading whose strongest
// block speaks for the other face as loudly as any speaks for it is not
// sure, whatever the overall score.
func (r *faceReader) conflict(ps *patchScratch, m faceMatch, tmp *[3]featVec) float64 {
	if m.face < 0 || m.second < 0 || ps.tpl[m.face] == nil || ps.tpl[m.second] == nil {
		return 0
	}
	turn := func(dst *featVec, src *featVec, k int) {
		*dst = *src
		for range (4 - k) % 4 {
			rotFeat(&tmp[2], dst)
			*dst = tmp[2]
		}
	}
	turn(&tmp[0], ps.tpl[m.face], ps.rot[m.face])
	turn(&tmp[1], ps.tpl[m.second], ps.rot[m.second])
	const n = featSide * featSide
	const blk = 4
	var d [featSide / blk * featSide / blk]float64
	q := &ps.feat[0]
	for c := 0; c < 3; c++ {
		for y := 0; y < featSide; y++ {
			for x := 0; x < featSide; x++ {
				i := c*n + y*featSide + x
				ea := q[i] - tmp[0][i]
				eb := q[i] - tmp[1][i]
				d[(y/blk)*(featSide/blk)+x/blk] += float64(eb*eb - ea*ea)
			}
		}
	}
	favA, favB := 0.0, 0.0
	for _, v := range d {
		favA, favB = math.Max(favA, v), math.Max(favB, -v)
	}
	return favB / math.Max(favA, 1e-6)
}

// maxConflict is the conflict from which a reading is not sure. Chosen on
// training scenes (vats and assist, 200 per condition, with a reference):
// it makes 0.1–0.2% of right readings uncertain and catches 8 of 14 wrong
// ones reported as certain (a dot read as a dot with a faint bolt).
const maxConflict = 0.5

// doubtful reports whether the reading of face of the patch in ps, a
// symbol face read whole, is not sure after all:
//   - the query's conflict with the best other face (see conflict) reaches
//     maxConflict;
//   - face is a blank face but the patch shows as much contrast as the
//     examples of the face with the faintest art: art is there, part of it
//     outside the face as found. On training scenes (assist, JPEG 60 and
//     dim light) most confident misreadings were such: a face found too
//     small or shifted, read as blank with a high score.
func (r *faceReader) doubtful(ps *patchScratch, face int, tmp *[3]featVec) bool {
	if r.flat[face] && r.faintArt > 0 && ps.patch.contrast() >= r.faintArt {
		return true
	}
	// ps holds the patch read; r's best templates are those of r's match
	// of it (other sets' readers may have matched it since).
	m, ok := ps.recall(r)
	if !ok {
		m = r.match(ps)
	}
	return m.face == face && r.conflict(ps, m, tmp) >= maxConflict
}

// topFaces appends the indices of the k largest scores to out[:0] (a
// caller's array keeps it off the heap).
func topFaces(out []int, s []float32, k int) []int {
	out = out[:0]
	for len(out) < k && len(out) < len(s) {
		bi := -1
		for i, v := range s {
			taken := false
			for _, o := range out {
				taken = taken || o == i
			}
			if !taken && (bi < 0 || v > s[bi]) {
				bi = i
			}
		}
		out = append(out, bi)
	}
	return out
}

// confidence maps a match to [0, 1]: a clear margin over the best other
// face and a good score.
func (m faceMatch) confidence() float64 {
	sc := m.scale
	if sc <= 0 {
		sc = 0.2
	}
	a := clamp01(m.margin / sc)
	b := clamp01((m.score - 0.3) / 0.3)
	return a * b
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// refineFor adjusts the top face's rectangle to fit the examples of face f
// best: each side moves in by up to a quarter of the side (a lit side taken
// for top) or out by a tenth, and the rectangle turns by up to 6°. It
// returns the rectangle and face f's score there. ps holds the query's
// features on entry.
func (r *faceReader) refineFor(im dieImage, rect dieRect, f int, ps *patchScratch) (dieRect, float64) {
	// The face's best template, turned to match the query as extracted.
	bs, bt, bq := float32(-2), -1, 0
	qs := [4][]float32{ps.feat[0][:], ps.feat[1][:], ps.feat[2][:], ps.feat[3][:]}
	for _, t := range r.augByFace[f] {
		s4 := fdot.Dot4(&qs, r.aug[t][:])
		for q, s := range s4 {
			if s > bs {
				bs, bt, bq = s, t, q
			}
		}
	}
	if bt < 0 {
		return rect, -2
	}
	// The query turned by bq matches t: t turned back by bq matches the
	// query as it is.
	tmpl := r.aug[bt]
	var tmp featVec
	for range (4 - bq) % 4 {
		rotFeat(&tmp, &tmpl)
		tmpl = tmp
	}
	var fv featVec
	score := func(rc dieRect) float64 {
		sampleFeatures(im, rc.corners(), r.margin, &fv)
		return float64(dotFeat(&fv, &tmpl))
	}
	side := 2 * math.Sqrt(rect.HU*rect.HV)
	// State: the four sides' inward offsets and the turn.
	type state struct {
		off  [4]float64 // +U, -U, +V, -V sides, inward
		turn float64
	}
	build := func(st state) dieRect {
		a := st.turn
		u := rect.U.rotate(a)
		v := diePt{-u.Y, u.X}
		n := rect
		n.U = u
		n.HU = rect.HU - (st.off[0]+st.off[1])/2
		n.HV = rect.HV - (st.off[2]+st.off[3])/2
		n.C = rect.C.add(u.scale((st.off[1] - st.off[0]) / 2)).add(v.scale((st.off[3] - st.off[2]) / 2))
		return n
	}
	valid := func(st state) bool {
		for _, o := range st.off {
			if o < -0.1*side || o > 0.25*side {
				return false
			}
		}
		return math.Abs(st.turn) <= 0.105
	}
	var cur state
	curS := score(rect)
	for _, step := range []float64{0.08 * side, 0.04 * side, 0.02 * side} {
		for range 3 {
			improved := false
			for k := 0; k < 10; k++ {
				for _, sg := range []float64{1, -1} {
					n := cur
					if k < 8 {
						if k/4 == 1 {
							continue
						}
						n.off[k%4] += sg * step
					} else {
						if k == 9 {
							continue
						}
						n.turn += sg * step / side
					}
					if !valid(n) {
						continue
					}
					if s := score(build(n)); s > curS+1e-4 {
						cur, curS, improved = n, s, true
					}
				}
			}
			if !improved {
				break
			}
		}
	}
	return build(cur), curS
}

// readDieOnce reads candidate cand with every face set and returns the die
// it shows; ok is false when it is no die of these sets.
func (d *DiceDetector) readDieOnce(im dieImage, cand dieCandidate) (Die, bool) {
	ps := &d.ps
	rect := cand.rect
	extractPatch(im, rect.corners(), facePatchMargin, true, &ps.patch)
	ps.queryFeatures()
	var br *faceReader
	var bm faceMatch
	var ru *faceReader // the set of the best other score
	var rm faceMatch
	if c := ps.patch.contrast(); c < flatContrast {
		// A blank face: cross-correlation of a flat patch is noise. It is
		// the blank face of the one set that has one whose body colour it
		// shows (or of the only set with a blank face). A second look's
		// face must show a numeral.
		if cand.again {
			return Die{}, false
		}
		return d.readBlank(im, c, rect, cand)
	}
	for _, r := range d.readers {
		q := ps
		if r.margin != facePatchMargin {
			q = &d.ps2
			extractPatch(im, rect.corners(), r.margin, true, &q.patch)
			q.queryFeatures()
		}
		m := r.match(q)
		if m.face >= 0 && r.flat[m.face] {
			// A face with art read as a blank one: trust it little.
			m.margin *= 0.5
		}
		switch {
		case br == nil:
			br, bm = r, m
		case m.score > bm.score:
			ru, rm = br, bm
			br, bm = r, m
		case ru == nil || m.score > rm.score:
			ru, rm = r, m
		}
	}
	sure := true
	if ru != nil {
		br, bm, sure = pickSet(&d.ps.patch, br, bm, ru, rm)
	}
	if br.margin != facePatchMargin {
		if len(d.readers) > 1 {
			extractPatch(im, rect.corners(), br.margin, true, &d.ps2.patch)
			d.ps2.queryFeatures()
			br.match(&d.ps2)
		}
		ps = &d.ps2
	}
	if bm.score < minDieScore || cand.again && br.num == nil {
		return Die{}, false
	}
	if bm.confidence() < refineBelow && bm.score >= 0.4 {
		rect, bm = d.refit(im, rect, br, bm, ps)
	}
	if bm.score < minDieScore {
		return Die{}, false
	}
	conf := bm.confidence()
	face := bm.face
	if br.pips {
		face, conf = d.pipConfidence(im, rect, br, face, conf, &ps.patch)
	}
	if br.num != nil {
		face, conf, rect = br.readNumeral(im, rect, face)
	} else if br.margin != facePatchMargin && conf >= br.threshold && !d.steady(im, rect, br, face) {
		conf = math.Min(conf, 0.5*br.threshold)
	}
	if !br.pips && br.margin == facePatchMargin && conf >= br.threshold {
		if br.doubtful(ps, face, &d.turned) {
			conf = math.Min(conf, 0.5*br.threshold)
		}
	}
	if !sure {
		conf = math.Min(conf, 0.5*br.threshold)
	}
	if br.num == nil && !rect.squareEnough() {
		// A cube's top is about square: a face read on an oblong (a
		// second look's fit to a part of a face, or to a pattern of the
		// table) is not sure. (A d10's face is a kite: its numeral is
		// checked on its own, see readNumeral.)
		conf = math.Min(conf, 0.5*br.threshold)
	}
	if need := d.noRefEdges(br, face); !d.hasRef && need > 0 && edgedSides(im, rect, need) < need {
		// Without a reference frame a part of the table of a die's colour
		// can look like a face; a die's top is bounded by straight edges.
		// Without them the reading must be confirmed.
		conf = math.Min(conf, 0.5*br.threshold)
	}
	return br.die(face, conf, rect, bm.rot, cand), true
}

// refit is readDieOnce's second look at a reading bm of set br on rect
// that is not confident (ps holds its patch): the quadrilateral is fitted
// to each of the three best faces in turn, and the faces compete with
// their best fits. It returns the winner's rectangle and match; a winner
// that does not read as itself there comes back with no margin.
func (d *DiceDetector) refit(im dieImage, rect dieRect, br *faceReader, bm faceMatch, ps *patchScratch) (dieRect, faceMatch) {
	// ps's per-face scores must be br's (another set's reader may have
	// matched the patch since).
	if _, ok := ps.recall(br); !ok {
		br.match(ps)
	}
	var topBuf [3]int
	best := topFaces(topBuf[:0], ps.best[:len(br.faces)], 3)
	var fits [3]struct {
		rect  dieRect
		score float64
	}
	for i, f := range best {
		fits[i].rect, fits[i].score = br.refineFor(im, rect, f, ps)
	}
	wi := 0
	for i := range best {
		if fits[i].score > fits[wi].score {
			wi = i
		}
	}
	second := -2.0
	for i := range best {
		if i != wi {
			second = math.Max(second, fits[i].score)
		}
	}
	extractPatch(im, fits[wi].rect.corners(), br.margin, true, &ps.patch)
	ps.queryFeatures()
	m := br.match(ps)
	if m.face != best[wi] {
		bm.margin = 0
		return rect, bm
	}
	// The refitted face must also win a fair margin over the other faces'
	// own best fits, and must not have cut off a part of the face.
	m.margin = math.Min(m.margin, fits[wi].score-second)
	if cutsFace(im, rect, fits[wi].rect, ps.patch.median()) {
		m.margin = 0
	}
	return fits[wi].rect, m
}

// cutsFace reports whether the second look's fit to, moving a side of the
// face from in by a tenth of its side or more, left out a strip of the
// face's own body colour (body, BGR): a second look may cut off a lit side
// of the die or its shadow, not a part of its top (a 2h-hurt's lightning
// cut off reads as a 2h).
func cutsFace(im dieImage, from, to dieRect, body [3]byte) bool {
	side := 2 * math.Sqrt(to.HU*to.HV)
	tol := math.Max(10, 0.1*float64(max(body[0], body[1], body[2])))
	u, v := to.U, to.v()
	off := from.C.sub(to.C)
	for _, sd := range [4]struct {
		n, t           diePt
		h, hFrom, half float64
	}{
		{u, v, to.HU, from.HU, to.HV}, {u.scale(-1), v, to.HU, from.HU, to.HV},
		{v, u, to.HV, from.HV, to.HU}, {v.scale(-1), u, to.HV, from.HV, to.HU},
	} {
		cut := off.dot(sd.n) + sd.hFrom - sd.h
		if cut < 0.1*side {
			continue
		}
		const ns = 12
		same := 0
		for i := range ns {
			t := (float64(i)/(ns-1)*1.2 - 0.6) * sd.half
			b, g, r := im.sample(to.C.add(sd.n.scale(sd.h + cut/2)).add(sd.t.scale(t)))
			dist := math.Max(math.Abs(float64(b)-float64(body[0])), math.Max(math.Abs(float64(g)-float64(body[1])), math.Abs(float64(r)-float64(body[2]))))
			if dist <= tol {
				same++
			}
		}
		if same >= ns*6/10 {
			return true
		}
	}
	return false
}

// pipConfidence weighs a d6 reading (face of set br with confidence conf
// on rect, patch p) against the count of its pips and returns the face
// and confidence.
func (d *DiceDetector) pipConfidence(im dieImage, rect dieRect, br *faceReader, face int, conf float64, p *facePatch) (int, float64) {
	n, pconf := countPips(p)
	switch {
	case n == 1 && br.values[face] == n && (pconf >= 0.5 || math.Min(conf, pconf) >= br.threshold) && !d.lonePip(im, rect, p):
		// Both agree, but the pip has others like it around: a part
		// of a face (one pip of it reads as a one), however clean its
		// count (a reading unsure anyway is not looked at again).
		conf = math.Min(math.Max(conf, pconf), 0.9*br.threshold)
	case n == 2 && br.values[face] == n && pconf >= 0.5 && !d.hasRef && d.partOfFace(im, rect, p):
		// Without a reference: two pips of a larger face.
		conf = math.Min(math.Max(conf, pconf), 0.9*br.threshold)
	case n >= 1 && n <= 6 && br.values[face] == n && pconf >= 0.5:
		conf = math.Max(conf, math.Min(pconf, 1))
	case n >= 1 && n <= 6 && br.values[face] == n:
		// The count agrees but the pips do not sit where a d6 puts
		// them: a part of a face, or a side taken for the top.
		conf = math.Min(conf, pconf)
	case n >= 1 && n <= 6:
		// The two readings disagree: trust neither.
		for i, v := range br.values {
			if v == n && pconf > 0.9 && conf < 0.2 {
				face = i
			}
		}
		conf = math.Min(conf, 0.5) * 0.5
	default:
		// No count: a d6 is read by its pips too, so this reading is
		// not sure.
		conf = math.Min(conf*0.5, 0.9*br.threshold)
	}
	return face, conf
}

// steady reports whether face, read by set br's templates with a numeral
// margin, is still read when the face rect is taken a little smaller,
// larger or shifted (a face found too large or cut shows part of a
// numeral, which may look like another).
func (d *DiceDetector) steady(im dieImage, rect dieRect, br *faceReader, face int) bool {
	q := &d.ps2
	for _, v := range [...]struct{ k, du, dv float64 }{{0.88, 0, 0}, {1.12, 0, 0}, {1, 0.08, 0.08}, {1, -0.08, -0.08}} {
		r := rect
		r.HU, r.HV = rect.HU*v.k, rect.HV*v.k
		r.C = rect.C.add(rect.U.scale(v.du * 2 * rect.HU)).add(rect.v().scale(v.dv * 2 * rect.HV))
		extractPatch(im, r.corners(), br.margin, true, &q.patch)
		q.queryFeatures()
		if m := br.match(q); m.face != face {
			return false
		}
	}
	return true
}

// readBlank reads a candidate whose face shows no art. Without a reference
// frame a patch of table of a die's colour looks the same: there the face
// must also be bounded by a straight edge on all four sides.
func (d *DiceDetector) readBlank(im dieImage, contrast float64, rect dieRect, cand dieCandidate) (Die, bool) {
	if !d.hasRef && !edgedAllRound(im, rect) {
		return Die{}, false
	}
	// A flat patch is the blank face of a set only in that set's body
	// colour: a finger, a card's back or a bare spot of the table is flat
	// too (a hand passing over the dice must not leave blank dice behind).
	// Of several sets with a blank face (a grey, a yellow and a red die
	// with no symbol), the die is the one whose body colour lies nearest.
	m := d.ps.patch.median()
	var br, ru *faceReader
	db, du := math.Inf(1), math.Inf(1)
	for _, r := range d.readers {
		if r.flatFace < 0 || !r.matchesBody(&d.ps.patch) {
			continue
		}
		switch dist := r.toneDist(m); {
		case br == nil || dist < db:
			br, db, ru, du = r, dist, br, db
		case ru == nil || dist < du:
			ru, du = r, dist
		}
	}
	if br == nil {
		return Die{}, false
	}
	conf := clamp01((flatContrast - contrast) / (0.5 * flatContrast))
	if !rect.squareEnough() || cand.darkTop || ru != nil && du < bodyFits {
		// An oblong flat patch: a part of a face (see readDieOnce), as a
		// top found in the hull of its ink may be. Or the die's colour is
		// another set's body colour too.
		conf = math.Min(conf, 0.5*br.threshold)
	}
	return br.die(br.flatFace, conf, rect, 0, cand), true
}

// edgedAllRound reports whether each side of rect lies on a straight,
// consistent edge (within two pixels).
func edgedAllRound(im dieImage, rect dieRect) bool { return edgedSides(im, rect, 4) == 4 }

// edgedSides counts the sides of rect bounded by a straight edge (see
// edgedAllRound), stopping once need are found or fewer than need can be.
func edgedSides(im dieImage, rect dieRect, need int) int {
	side := 2 * math.Sqrt(rect.HU*rect.HV)
	b, g, r := im.sample(rect.C)
	minEdge := math.Max(10, 0.12*float64(0.114*b+0.587*g+0.299*r))
	u, v := rect.U, rect.v()
	n := 0
	for i, sd := range [4]struct {
		n, t    diePt
		h, half float64
	}{
		{u, v, rect.HU, rect.HV}, {u.scale(-1), v, rect.HU, rect.HV},
		{v, u, rect.HV, rect.HU}, {v.scale(-1), u, rect.HV, rect.HU},
	} {
		if n >= need || n+4-i < need {
			break
		}
		best := 0.0
		for d := sd.h - 2 - 0.08*side; d <= sd.h+2; d += 0.5 {
			best = math.Max(best, lineEdge(im, rect.C, sd.n, sd.t, d, sd.half))
		}
		if best >= minEdge {
			n++
		}
	}
	return n
}

// lineEdge is the strength of a straight edge across normal n at distance
// d from c, along t over 70% of half-length half: the luma step that a
// quarter of the samples still reach, with the sign most have.
func lineEdge(im dieImage, c, n, t diePt, d, half float64) float64 {
	const ns = 14
	var gs [ns]float64
	mean := 0.0
	for i := range ns {
		tt := (float64(i)/(ns-1)*1.4 - 0.7) * half
		p := c.add(n.scale(d)).add(t.scale(tt))
		b1, g1, r1 := im.sample(p.add(n))
		b0, g0, r0 := im.sample(p.sub(n))
		gs[i] = float64((0.114*b1 + 0.587*g1 + 0.299*r1) - (0.114*b0 + 0.587*g0 + 0.299*r0))
		mean += gs[i]
	}
	if mean < 0 {
		for i := range gs {
			gs[i] = -gs[i]
		}
	}
	s := gs[:]
	slices.Sort(s)
	return s[ns/4]
}

// matchesBody reports whether the patch's median colour is one of the
// set's body colours.
func (r *faceReader) matchesBody(p *facePatch) bool {
	return r.bodyDist(p.median()) < bodyFits
}

// median returns the patch's median colour (BGR).
func (p *facePatch) median() [3]byte {
	const n = facePatchSize * facePatchSize
	var hist [3][256]int
	for i := 0; i < n; i++ {
		hist[0][p[3*i]]++
		hist[1][p[3*i+1]]++
		hist[2][p[3*i+2]]++
	}
	var m [3]byte
	for c := range hist {
		// The value sorting would put at n/2.
		acc := 0
		for v, k := range hist[c] {
			if acc += k; acc > n/2 {
				m[c] = byte(v)
				break
			}
		}
	}
	return m
}

// bodyDist is the distance (see DieColour.dist) of colour m (BGR) to the
// nearest of the set's body colours; 0 when the set has none.
func (r *faceReader) bodyDist(m [3]byte) float64 {
	if len(r.body) == 0 {
		return 0
	}
	d := math.Inf(1)
	for _, b := range r.body {
		d = math.Min(d, b.dist(m[0], m[1], m[2]))
	}
	return d
}

// toneDist is the distance (see DieColour.dist) of colour m (BGR) to the
// nearest of the set's tones; 0 when the set has none.
func (r *faceReader) toneDist(m [3]byte) float64 {
	if len(r.tones) == 0 {
		return 0
	}
	d := math.Inf(1)
	for _, b := range r.tones {
		d = math.Min(d, b.dist(m[0], m[1], m[2]))
	}
	return d
}

// pickSet chooses between the best reading bm of set br and the best
// reading rm of another set ru (rm.score ≤ bm.score). When the other set's
// best face is not clearly worse, by the margin that makes a reading sure
// within a set, the two sets' faces look alike (a V.A.T.S. "1h" and a d6
// "1" are both one dot; a combat die's symbol in grey and in yellow): the
// die's colour (patch p's median) decides. The set whose colours lie nearer
// wins; the reading is sure only when the die's colour is none of the
// loser's. The colours are the sets' body colours; when a set keeps none
// (white, grey and black bodies are not kept, see bodyColours) both sets
// are compared by their tones, which keep them: a set without a body
// colour has no distance 0 to every die, so it does not take the faces of
// every coloured set whose faces look like its own.
func pickSet(p *facePatch, br *faceReader, bm faceMatch, ru *faceReader, rm faceMatch) (*faceReader, faceMatch, bool) {
	cross := bm
	cross.margin = bm.score - rm.score
	if cross.confidence() >= br.threshold {
		return br, bm, true
	}
	m := p.median()
	dist := (*faceReader).bodyDist
	if (len(br.body) == 0 || len(ru.body) == 0) && len(br.tones) > 0 && len(ru.tones) > 0 {
		dist = (*faceReader).toneDist
	}
	db, du := dist(br, m), dist(ru, m)
	if du < db {
		br, bm, ru, rm, db, du = ru, rm, br, bm, du, db
	}
	return br, bm, du >= bodyFits
}

// Limits of reading.
const (
	// minDieScore is the score below which a candidate is not a die of any
	// set looked for.
	minDieScore = 0.3
)

// refineBelow is the confidence below which a die gets a second look.
const refineBelow = 0.75

// die builds the reading of face fi.
func (r *faceReader) die(fi int, conf float64, rect dieRect, rot int, c dieCandidate) Die {
	f := r.set.Faces[fi]
	d := Die{
		Set:        r.set.ID,
		Face:       f.ID,
		Value:      r.values[fi],
		Regions:    append([]string(nil), f.Regions...),
		Hits:       f.Hits,
		Hurt:       f.Hurt,
		Confidence: conf,
		Uncertain:  conf < r.threshold,
	}
	if r.set.Kind != models.KindNumeric {
		d.Value = 0
	}
	var minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range rect.corners() {
		minX, minY = math.Min(minX, p.X), math.Min(minY, p.Y)
		maxX, maxY = math.Max(maxX, p.X), math.Max(maxY, p.Y)
	}
	d.Box.Min.X, d.Box.Min.Y = int(math.Floor(minX)), int(math.Floor(minY))
	d.Box.Max.X, d.Box.Max.Y = int(math.Ceil(maxX)), int(math.Ceil(maxY))
	d.Center.X, d.Center.Y = int(rect.C.X), int(rect.C.Y)
	d.side = 2 * math.Sqrt(rect.HU*rect.HV)
	// The patch was matched turned by rot quarter turns clockwise: the art
	// is turned that much counter-clockwise from the rectangle's axis, as
	// far as the examples were upright (taught pictures have no "up": the
	// angle is sure modulo 90°).
	a := rect.angle()*180/math.Pi - 90*float64(rot)
	d.Angle = math.Mod(a+720, 360)
	return d
}

package card

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
	"tablecam/vision/card/index"
	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// cardsHandScene draws a grey table (ref), and on it (frame) a light card
// with dark art and an orange square in its middle, turned by angle
// degrees, and, when hand, a skin-coloured hand beyond its top edge with
// the thumb over that edge. It returns the card's corners.
func cardsHandScene(frame, ref *gocv.Mat, angle float64, hand bool) [4]geom.Point {
	*ref = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 120, 115, 0), 720, 1280, gocv.MatTypeCV8UC3)
	*frame = ref.Clone()
	c := [2]float64{640, 400}
	a := angle * math.Pi / 180
	at := func(u, v float64) image.Point { // card coordinates, centre 0
		return image.Pt(int(math.Round(c[0]+u*math.Cos(a)-v*math.Sin(a))), int(math.Round(c[1]+u*math.Sin(a)+v*math.Cos(a))))
	}
	poly := func(col color.RGBA, uv ...[2]float64) {
		pts := make([]image.Point, len(uv))
		for i, p := range uv {
			pts[i] = at(p[0], p[1])
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		defer pv.Close()
		gocv.FillPoly(frame, pv, col)
	}
	const w, h = 90.0, 126.0 // half sizes
	var q [4]geom.Point
	for k, p := range [4][2]float64{{-w, -h}, {w, -h}, {w, h}, {-w, h}} {
		pt := at(p[0], p[1])
		q[k] = geom.Point{X: float32(pt.X), Y: float32(pt.Y)}
	}
	poly(color.RGBA{235, 230, 220, 0}, [2]float64{-w, -h}, [2]float64{w, -h}, [2]float64{w, h}, [2]float64{-w, h})
	poly(color.RGBA{40, 50, 90, 0}, [2]float64{-w + 12, -h + 30}, [2]float64{w - 12, -h + 30}, [2]float64{w - 12, 20}, [2]float64{-w + 12, 20})
	poly(color.RGBA{225, 140, 90, 0}, [2]float64{-30, -40}, [2]float64{30, -40}, [2]float64{30, 10}, [2]float64{-30, 10})
	if hand {
		skin := color.RGBA{200, 140, 110, 0}
		poly(skin, [2]float64{10, -h - 170}, [2]float64{90, -h - 120}, [2]float64{70, -h - 10}, [2]float64{-20, -h - 10}, [2]float64{-40, -h - 100})
		poly(skin, [2]float64{-15, -h - 20}, [2]float64{15, -h - 20}, [2]float64{15, -h + 45}, [2]float64{-15, -h + 45})
	}
	return q
}

// A card held with the thumb over its edge and the hand behind it makes one
// changed blob with the hand, no card's shape; with the skin-coloured
// pixels that reach the blob's rim taken out (not the orange art inside
// the card), what is left is the card: a part whose quadrilateral is the
// card's outline. A card alone makes a clean blob and no part.
func TestCardRefHandTakenOut(t *testing.T) {
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, angle := range []float64{0, 20, -35} {
		for _, hand := range []bool{true, false} {
			var frame, ref gocv.Mat
			q := cardsHandScene(&frame, &ref, angle, hand)
			if err := r.SetBackground(ref); err != nil {
				t.Fatal(err)
			}
			ok, err := r.refPlaces(frame, 40)
			frame.Close()
			ref.Close()
			if err != nil || !ok {
				t.Fatalf("refPlaces: %v %v", ok, err)
			}
			if len(r.ref.Blobs) != 1 || r.ref.Blobs[0].Clean == hand {
				t.Fatalf("angle %v, hand %v: %d blobs (want one, clean without the hand)", angle, hand, len(r.ref.Blobs))
			}
			if !hand {
				if len(r.ref.Parts) != 0 {
					t.Errorf("angle %v, no hand: %d parts, want none", angle, len(r.ref.Parts))
				}
				continue
			}
			best := math.Inf(1)
			for _, p := range r.ref.Parts {
				best = min(best, outline.AltDistance(p.Quad, outline.Candidate{Q: q}))
			}
			if best > 12 {
				t.Errorf("angle %v: no part within 12 px of the card %v (nearest %.1f px; parts %v)", angle, q, best, r.ref.Parts)
			}
		}
	}
}

// With the reference, an "unknown" outline that is mostly the table (a
// card's shadow next to it) is no card and is dropped; one over a card
// matching no taught card stays, and so does a card read; an unknown
// outline on a card read is that card seen off and is dropped, and so is
// the less sure of two readings of one card over each other.
func TestCardStrayUnknownDropped(t *testing.T) {
	ref := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 120, 115, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer ref.Close()
	frame := ref.Clone()
	defer frame.Close()
	fill := func(r image.Rectangle, c color.RGBA) {
		reg := frame.Region(r)
		defer reg.Close()
		reg.SetTo(gocv.NewScalar(float64(c.B), float64(c.G), float64(c.R), 0))
	}
	// The shadow: the table darker by the same factor in every channel.
	fill(image.Rect(560, 240, 760, 480), color.RGBA{69, 72, 66, 0})
	card, read := image.Rect(400, 200, 580, 452), image.Rect(900, 200, 1080, 452)
	for _, c := range []image.Rectangle{card, read} {
		fill(c, color.RGBA{235, 230, 220, 0})
		fill(image.Rect(c.Min.X+12, c.Min.Y+30, c.Max.X-12, c.Min.Y+140), color.RGBA{40, 50, 90, 0})
	}
	r, err := NewReader(Options{Index: index.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.SetBackground(ref); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ReadCards(frame); err != nil {
		t.Fatal(err)
	}
	if !r.refUsed {
		t.Fatal("the reference was not used")
	}
	quad := func(b image.Rectangle) [4]geom.Point {
		x0, y0, x1, y1 := float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X), float32(b.Max.Y)
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	reading := func(id string, b image.Rectangle) Reading {
		return Reading{ID: id, Method: MethodLearned, Box: b, Corners: quad(b)}
	}
	shadow := image.Rect(600, 250, 755, 475)
	onRead := image.Rect(950, 260, 1100, 420) // its centre on the card read
	sure, twice := reading("goal-1", read), reading("goal-1", image.Rect(880, 190, 1090, 470))
	sure.Confidence, twice.Confidence = 0.9, 0.6
	out := []Reading{
		reading(Unknown, card),
		reading(Unknown, shadow),
		twice,
		sure,
		reading(Unknown, onRead),
	}
	if c := r.ref.ChangedIn(quad(shadow)); c > 0.1 {
		t.Errorf("shadow: %.2f of it changed, want about 0", c)
	}
	if c := r.ref.ChangedIn(quad(card)); c < 0.9 {
		t.Errorf("card: %.2f of it changed, want about 1", c)
	}
	got := r.dropStrayReadings(out)
	if len(got) != 2 || got[0].Box != card || got[1].ID != "goal-1" || got[1].Confidence != 0.9 {
		t.Errorf("kept %+v, want the unknown card and goal-1 read surely", got)
	}
}

// TestCardRefSearchable checks which blobs the keypoint search takes: not
// a card read and the hand holding it, nor a hand alone; a card with the
// hand holding it; another card lying in the blob of a card read; not
// what is left beyond the rim of a card read when it is less than a card
// or a shadow (refRestMin).
func TestCardRefSearchable(t *testing.T) {
	const card = 2195.0 // the smallest card's area at 720p
	for _, c := range []struct {
		name             string
		free, skin, area float64
		want             bool
		rest             float64 // free-skin when 0
		shadow           bool
	}{
		{"nothing read", 20 * card, 2 * card, 20 * card, true, 0, false},
		{"a card held, nothing read", 20 * card, 9 * card, 24 * card, true, 0, false},
		{"a card read, the hand left", 6 * card, 5 * card, 30 * card, false, 0, false},
		{"a hand alone", 8 * card, 8 * card, 8 * card, false, 0, false},
		{"a card read and a sliver of another", 3 * card, 0.5 * card, 30 * card, false, 0, false},
		// Training scene 862031 (glare): a card read (taught-003), another
		// (taught-014) against it and the thumb over that one: 37% of the
		// blob free, 5.4 cards of it not skin-coloured.
		{"another card in the blob of a card read", 36096, 24288, 96664, true, 0, false},
		{"as much free, mostly the hand", 36096, 30000, 96664, false, 0, false},
		{"a card held, nothing read, but a shadow", 20 * card, 9 * card, 24 * card, false, 0, true},
		{"a card read, its rim and a sliver left", 10 * card, 1 * card, 20 * card, false, 0.9 * card, false},
		{"a card read, a card left beyond its rim", 10 * card, 1 * card, 20 * card, true, 1.1 * card, false},
	} {
		l := blobLeft{free: c.free, skin: c.skin, rest: c.rest, shadow: c.shadow}
		if c.rest == 0 {
			l.rest = c.free - c.skin
		}
		if got := refSearchable(l, c.area, card); got != c.want {
			t.Errorf("%s: searched %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCardLearnedReadAt: an outline is on a card read when a reading of a
// taught card, reported, holds its centre; not on an unknown outline, a
// taught card's reading not reported, nor outside.
func TestCardLearnedReadAt(t *testing.T) {
	card := [4]geom.Point{{X: 100, Y: 100}, {X: 200, Y: 100}, {X: 200, Y: 240}, {X: 100, Y: 240}}
	read := func(id string, ok bool) learnedRead {
		return learnedRead{rd: Reading{ID: id, Corners: card}, ok: ok, done: true}
	}
	for _, c := range []struct {
		name string
		ls   learnedReads
		p    geom.Point
		want bool
	}{
		{"on a card read", learnedReads{read("taught-1", true)}, geom.Point{X: 150, Y: 170}, true},
		{"beside it", learnedReads{read("taught-1", true)}, geom.Point{X: 250, Y: 170}, false},
		{"on an unknown outline", learnedReads{read(Unknown, true)}, geom.Point{X: 150, Y: 170}, false},
		{"on a card not reported", learnedReads{read("taught-1", false)}, geom.Point{X: 150, Y: 170}, false},
		{"on an outline not compared", learnedReads{{rd: Reading{ID: "taught-1", Corners: card}, ok: true}}, geom.Point{X: 150, Y: 170}, false},
		{"none", nil, geom.Point{X: 150, Y: 170}, false},
	} {
		if got := c.ls.readAt(c.p); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// cardsRefReader returns a reader (no cards taught) that has compared
// frame with the empty table ref (refPlaces); the caller closes it.
func cardsRefReader(t *testing.T, frame, ref gocv.Mat) *Reader {
	t.Helper()
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetBackground(ref); err != nil {
		r.Close()
		t.Fatal(err)
	}
	if r.refUsed, err = r.refPlaces(frame, 40); err != nil || !r.refUsed {
		r.Close()
		t.Fatalf("refPlaces: %v %v", r.refUsed, err)
	}
	return r
}

// TestCardRefShadowIn: with noise on the frame (so that most of its
// shadow's pixels fail the test of each pixel), the table darkened by one
// factor is a shadow; a card with art, the table as it is, the table
// tinted (its channels by different factors) and the table darkened
// below cardRefShadowMin are not.
func TestCardRefShadowIn(t *testing.T) {
	var frame, ref gocv.Mat
	card := cardsHandScene(&frame, &ref, 20, false)
	defer frame.Close()
	defer ref.Close()
	scale := func(r image.Rectangle, b, g, rd float64) [4]geom.Point {
		reg := frame.Region(r)
		defer reg.Close()
		ch := gocv.Split(reg)
		for k, f := range []float64{b, g, rd} {
			ch[k].ConvertToWithParams(&ch[k], gocv.MatTypeCV8U, float32(f), 0)
		}
		gocv.Merge(ch, &reg)
		for _, c := range ch {
			c.Close()
		}
		x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X-1), float32(r.Max.Y-1)
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	shadow := scale(image.Rect(900, 300, 1060, 520), 0.8, 0.8, 0.8)
	tinted := scale(image.Rect(100, 300, 260, 520), 0.9, 0.75, 0.6)
	dark := scale(image.Rect(100, 40, 260, 260), 0.2, 0.2, 0.2)
	plain := [4]geom.Point{{X: 900, Y: 40}, {X: 1060, Y: 40}, {X: 1060, Y: 260}, {X: 900, Y: 260}}
	cardsAddNoise(&frame, 24, 1)
	r := cardsRefReader(t, frame, ref)
	defer r.Close()
	// Most of that shadow is left out of the mask already (the pixels
	// around each: change.shadowNearRef); an outline is taken for a shadow
	// where it did not (the noise is stronger, the shadow smaller), marked
	// here.
	if c := r.ref.ChangedIn(shadow); c > 0.2 {
		t.Errorf("shadow: %.2f of it changed, want at most 0.2 (cardRefShadowNear)", c)
	}
	changedForTest(t, r, shadow, card, tinted, dark)
	for _, tc := range []struct {
		name   string
		q      [4]geom.Point
		shadow bool
	}{
		{"table darkened by 0.8", shadow, true},
		{"card", card, false},
		{"table", plain, false},
		{"table tinted", tinted, false},
		{"table darkened by 0.2", dark, false},
	} {
		if got := r.ref.ShadowIn(tc.q); got != tc.shadow {
			t.Errorf("%s: shadow %v, want %v", tc.name, got, tc.shadow)
		}
	}
}

// cardsAddNoise adds Gaussian noise of sigma grey levels to the 8-bit BGR
// frame (clipped where it meets 0: about 24 levels of it are drawn above
// and taken off again), drawn from a generator seeded with seed: OpenCV's
// RandN draws from a generator per thread, whose state depends on which
// thread the test ran on and what it drew before, so that a test's noise
// (and at times its outcome) changed from run to run.
func cardsAddNoise(frame *gocv.Mat, sigma float64, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x6e6f697365))
	pix := make([]byte, 3*frame.Rows()*frame.Cols())
	for i := range pix {
		pix[i] = uint8(min(255, max(0, math.Round(24+rng.NormFloat64()*sigma))))
	}
	noise, err := gocv.NewMatFromBytes(frame.Rows(), frame.Cols(), gocv.MatTypeCV8UC3, pix)
	if err != nil {
		panic(err)
	}
	defer noise.Close()
	mean := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(24, 24, 24, 0), frame.Rows(), frame.Cols(), gocv.MatTypeCV8UC3)
	defer mean.Close()
	gocv.Add(*frame, noise, frame)
	gocv.Subtract(*frame, mean, frame)
}

// TestCardOneUnknown: of two unknown outlines of one card, one stays.
// Without the reference the larger (the card, not its art panel); with
// it, the card rather than the card with the table around it, and the
// card rather than its panel. A taught card's reading and an unknown
// outline apart stay as they are.
func TestCardOneUnknown(t *testing.T) {
	quad := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	unknown := func(q [4]geom.Point) Reading {
		return Reading{ID: Unknown, Method: MethodLearned, Corners: q, Box: geom.QuadBox(q), Confidence: 0.8}
	}
	r := &Reader{}
	card, panel, apart := quad(100, 100, 280, 352), quad(112, 130, 268, 240), quad(500, 100, 680, 352)
	taught := Reading{ID: "goal-1", Method: MethodLearned, Corners: quad(120, 120, 300, 372), Confidence: 0.9}
	got := r.oneUnknown([]Reading{unknown(panel), taught, unknown(card), unknown(apart)})
	if len(got) != 3 || got[0].ID != "goal-1" || got[1].Corners != card || got[2].Corners != apart {
		t.Errorf("without the reference: kept %+v, want the taught card, the card (not its panel) and the card apart", got)
	}

	// With the reference: a card held by a hand, read as unknown twice.
	var frame, ref gocv.Mat
	q := cardsHandScene(&frame, &ref, 0, true)
	defer frame.Close()
	defer ref.Close()
	rr := cardsRefReader(t, frame, ref)
	defer rr.Close()
	box := geom.QuadBox(q)
	// The card and the table around it (and the hand's edge).
	around := quad(float32(box.Min.X)-90, float32(box.Min.Y)-60, float32(box.Max.X)+90, float32(box.Max.Y)+60)
	inner := quad(float32(box.Min.X)+12, float32(box.Min.Y)+30, float32(box.Max.X)-12, float32(box.Min.Y)+140)
	for _, pair := range [][2][4]geom.Point{{q, around}, {around, q}, {inner, q}} {
		got := rr.oneUnknown([]Reading{unknown(pair[0]), unknown(pair[1])})
		if len(got) != 1 || got[0].Corners != q {
			t.Errorf("with the reference: kept %+v, want the card %v alone (around it %.2f changed; panel %.2f)", got, q,
				rr.ref.ChangedAdded(around, q), rr.ref.ChangedAdded(q, inner))
		}
	}
}

// A blob's outline read quickly as no card is read in full at the end,
// after the outline finder's (settlePending): one read as a taught card
// stays, and the finder's outlines and blob rectangles on it go, as they
// would not have been looked for had the blob been read at once; one read
// as nothing goes, as before, but a part's near a taught card, which stays
// for the keypoint search without being reported.
func TestCardSettlePending(t *testing.T) {
	r := &Reader{refUsed: true}
	rect := func(x0, y0, x1, y1 float32) outline.Candidate {
		return outline.Candidate{Q: [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}}
	}
	taught := func(o outline.Candidate, id string) learnedRead {
		return learnedRead{rd: Reading{ID: id, Corners: o.Q}, ok: true, done: true, m: index.Match{ID: id}}
	}
	unknown := func(o outline.Candidate, m index.Match) learnedRead {
		return learnedRead{rd: Reading{ID: Unknown, Corners: o.Q}, ok: true, done: true, m: m}
	}
	sure := rect(0, 0, 100, 140)
	onCard := rect(305, 5, 395, 135)    // the finder's outline of the pending card
	elsewhere := rect(600, 0, 700, 140) // the finder's outline of another card
	rectOn := rect(290, -10, 410, 150)  // a blob's rectangle around the pending card
	card := rect(300, 0, 400, 140)      // pending, read as a taught card
	nothing := rect(900, 0, 1000, 140)  // pending, read as nothing
	near := rect(900, 300, 1000, 440)   // a pending part, near a taught card
	far := rect(600, 300, 700, 440)     // a pending part, far from any
	nearM := index.Match{ID: "taught-9", Dist: 0.5, Second: 1.5}
	farM := index.Match{ID: "taught-8", Dist: 1.2, Second: 1.3}
	r.ref.pre = []learnedRead{taught(sure, "taught-1")}
	r.ref.pending = []refPending{{q: card}, {q: nothing}, {q: near, part: true}, {q: far, part: true}}
	r.ref.pendingFrom = 4
	frame := func() ([]outline.Candidate, learnedReads) {
		return []outline.Candidate{sure, onCard, elsewhere, rectOn, card, nothing, near, far},
			learnedReads{taught(sure, "taught-1"), unknown(onCard, index.Match{}), taught(elsewhere, "taught-2"), unknown(rectOn, index.Match{}),
				taught(card, "taught-3"), unknown(nothing, index.Match{}), unknown(near, nearM), unknown(far, farM)}
	}
	outlines, learned := r.settlePending(frame())
	want := []outline.Candidate{sure, elsewhere, card, near}
	if len(outlines) != len(want) || len(learned) != len(want) {
		t.Fatalf("%d outlines, %d readings; want %d: %v", len(outlines), len(learned), len(want), outlines)
	}
	for i := range want {
		if outlines[i].Q != want[i].Q || learned[i].rd.Corners != want[i].Q {
			t.Errorf("outline %d: %v (read %v), want %v", i, outlines[i].Q, learned[i].rd.Corners, want[i].Q)
		}
	}
	if !learned[2].ok || learned[2].rd.ID != "taught-3" {
		t.Errorf("the pending card: %+v, want taught-3 reported", learned[2])
	}
	if learned[3].ok || learned[3].m.ID != "taught-9" {
		t.Errorf("the part near a card: %+v, want kept unreported with its match", learned[3])
	}
	// Without the reference (its pending outlines are the last frame's)
	// nothing is dropped.
	r.refUsed = false
	all, _ := frame()
	if o2, l2 := r.settlePending(frame()); len(o2) != len(all) || len(l2) != len(all) {
		t.Errorf("without the reference: %d outlines, want %d", len(o2), len(all))
	}
}

// The sticker search's thresholded picture of a place keeps its dark
// pixels within change.Near changed-mask pixels (a square's reach) of what
// changed against the empty table (before the mask's opening) and loses
// the others (the table's pattern), at half resolution and at full.
func TestCardKeepNearChanged(t *testing.T) {
	c := newRef()
	defer c.close()
	c.RawMask.Close()
	c.RawMask = gocv.NewMatWithSize(180, 320, gocv.MatTypeCV8U)
	changed := image.Rect(110, 55, 120, 65) // mask pixels: full resolution 440–480, 220–260
	reg := c.RawMask.Region(changed)
	reg.SetTo(gocv.NewScalar(255, 0, 0, 0))
	reg.Close()
	dist := func(mx, my int) int { // a square's reach from changed
		dx := max(changed.Min.X-mx, mx-(changed.Max.X-1), 0)
		dy := max(changed.Min.Y-my, my-(changed.Max.Y-1), 0)
		return max(dx, dy)
	}
	for _, tc := range []struct {
		name   string
		origin image.Point
		w, h   int
		scale  float64
	}{
		{"half resolution", image.Pt(400, 200), 200, 160, 0.5},
		{"full resolution", image.Pt(420, 210), 90, 70, 1},
		{"at the frame's corner", image.Pt(0, 0), 64, 48, 0.5},
	} {
		cols, rows := int(float64(tc.w)*tc.scale), int(float64(tc.h)*tc.scale)
		// Dark pixels in runs of 5 and light ones in runs of 12 (the
		// search skips 8 light pixels at a time).
		bin := make([]uint8, cols*rows)
		dark := func(i int) bool { return i%17 < 5 }
		for i := range bin {
			if dark(i) {
				bin[i] = 255
			}
		}
		c.KeepNearChanged(bin, cols, rows, tc.origin, tc.scale)
		kept, lost := 0, 0
		for y := range rows {
			for x := range cols {
				fx := tc.origin.X + int((float64(x)+0.5)/tc.scale)
				fy := tc.origin.Y + int((float64(y)+0.5)/tc.scale)
				near := dist(fx/change.Shrink, fy/change.Shrink) <= change.Near
				want := near && dark(y*cols+x)
				if got := bin[y*cols+x] != 0; got != want {
					t.Fatalf("%s: pixel (%d, %d) (full %d, %d) kept %v, want %v", tc.name, x, y, fx, fy, got, want)
				}
				switch {
				case want:
					kept++
				case dark(y*cols + x):
					lost++
				}
			}
		}
		if tc.origin.X > 0 && (kept == 0 || lost == 0) {
			t.Errorf("%s: %d kept, %d lost: the test sees no edge", tc.name, kept, lost)
		}
	}
}

// With the reference, a clean blob (a card alone, read) or a blob's part
// read as a card (the hand taken out) holding one sticker read is that
// sticker's card for the full-resolution and retry searches: a candidate
// on it off the sticker is card art. A blob with a hand (not clean), a part
// not read or a blob with two stickers is not.
func TestCardStickeredBlobs(t *testing.T) {
	rect := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	mark := func(id int, q [4]geom.Point) marker.Sticker {
		return marker.Sticker{Marker: marker.Marker{ID: id, Corners: q, Center: geom.QuadCentre(q)}}
	}
	r := &Reader{refUsed: true}
	r.ref.Blobs = []change.Blob{
		{Quad: rect(100, 100, 210, 260), HasQuad: true, Clean: true},  // one sticker
		{Quad: rect(400, 100, 510, 260), HasQuad: true, Clean: true},  // two
		{Quad: rect(700, 100, 810, 260), HasQuad: true},               // a hand: not clean
		{Quad: rect(900, 100, 1010, 260), HasQuad: true, Clean: true}, // none
	}
	r.reads = []marker.Sticker{
		mark(1, rect(170, 220, 195, 245)),
		mark(2, rect(420, 120, 445, 145)), mark(3, rect(470, 220, 495, 245)),
		mark(4, rect(770, 220, 795, 245)),
	}
	// Parts of the blob with the hand: the card read (readAt), and one
	// not read.
	r.ref.Parts = []change.Blob{
		{Quad: rect(700, 180, 810, 260), HasQuad: true, ReadAt: 1},
		{Quad: rect(700, 100, 810, 180), HasQuad: true},
	}
	r.reads = append(r.reads, mark(5, rect(720, 120, 745, 145)))
	got := r.stickeredBlobs(nil)
	if len(got) != 2 || got[0].card != r.ref.Blobs[0].Quad || got[0].marker != r.reads[0].Marker.Corners ||
		got[1].card != r.ref.Parts[0].Quad || got[1].marker != r.reads[3].Marker.Corners {
		t.Fatalf("stickered blobs %v, want the first blob with marker 1 and the part read with marker 4", got)
	}
	if !offSticker(geom.Point{X: 130, Y: 130}, got) || offSticker(geom.Point{X: 182, Y: 232}, got) || offSticker(geom.Point{X: 430, Y: 130}, got) {
		t.Errorf("off the sticker on its card: art; on the sticker or another card: not")
	}
	// Without the reference, none.
	r.refUsed = false
	if got := r.stickeredBlobs(nil); len(got) != 0 {
		t.Errorf("without the reference: %v", got)
	}
}

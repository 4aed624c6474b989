package index

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// testFace draws a card face of w×h: random shapes on a light ground.
func testFace(t *testing.T, seed uint64, w, h int) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(225, 230, 235, 0), h, w, gocv.MatTypeCV8UC3)
	rng := rand.New(rand.NewPCG(seed, 7))
	col := func() color.RGBA {
		return color.RGBA{uint8(rng.IntN(200)), uint8(rng.IntN(200)), uint8(rng.IntN(200)), 255}
	}
	for range 40 {
		p := image.Pt(rng.IntN(w), rng.IntN(h))
		switch rng.IntN(3) {
		case 0:
			gocv.Circle(&m, p, 4+rng.IntN(w/8), col(), -1)
		case 1:
			gocv.Rectangle(&m, image.Rectangle{p, p.Add(image.Pt(4+rng.IntN(w/5), 4+rng.IntN(h/5)))}, col(), 2+rng.IntN(4))
		default:
			gocv.PutText(&m, "Kx7", p, gocv.FontHersheySimplex, 0.8+rng.Float64(), col(), 2)
		}
	}
	return m
}

// TestCardKeysLocate teaches a card's keypoints from a straight view and
// finds the card turned, smaller and in perspective on a busy frame: the
// outline comes back within a few pixels.
func TestCardKeysLocate(t *testing.T) {
	face := testFace(t, 3, 300, 420)
	defer face.Close()
	k := NewKeyer()
	defer k.Close()
	ks, err := k.Teach(face, [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}})
	if err != nil || len(ks.Desc) < 50 || ks.W != KeyW || ks.H != cardKeyH {
		t.Fatalf("taught %d keypoints (%v)", len(ks.Desc), err)
	}
	// Another card's keypoints compete.
	other := testFace(t, 4, 300, 420)
	defer other.Close()
	ko, err := k.Teach(other, [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}})
	if err != nil {
		t.Fatal(err)
	}
	// The frame: clutter, and the card 120 px wide turned by 30° with some
	// perspective.
	frame := testFace(t, 9, 1280, 720)
	defer frame.Close()
	want := [4]geom.Point{{X: 600, Y: 200}, {X: 704, Y: 260}, {X: 620, Y: 400}, {X: 505, Y: 335}}
	pasteFace(t, face, &frame, want)
	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(frame, &grey, gocv.ColorBGRToGray)
	// The place around a wrong outline (the card's upper half).
	place := geom.QuadBox([4]geom.Point{want[0], want[1], {X: 662, Y: 330}, {X: 552, Y: 268}}).Inset(-60)
	found, err := k.Locate(grey, place, 120, []*Keys{ko, ks})
	if err != nil || len(found) == 0 {
		t.Fatalf("not found (%v)", err)
	}
	worst := 0.0
	for i := range 4 {
		worst = math.Max(worst, geom.Dist(found[0].Q[i], want[i]))
	}
	if worst > 4 {
		t.Errorf("found %v with %d keypoints, want %v (%.1f px off)", found[0].Q, found[0].Inliers, want, worst)
	}
	// A place without the card finds nothing.
	if found, _ := k.Locate(grey, image.Rect(900, 300, 1200, 700), 120, []*Keys{ks}); len(found) != 0 {
		t.Errorf("found the card at %v where it is not", found[0].Q)
	}
}

// TestCardKeyViews: a card seen by a camera tilted 45° (squashed to 0.7
// along one direction) finds its card in the hashed index clearly more
// often with the tilted views' keypoints than with the upright ones alone,
// and other cards' keypoints not more often.
func TestCardKeyViews(t *testing.T) {
	k := NewKeyer()
	defer k.Close()
	upright := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}}
	with, without := New(), New()
	var d Desc
	d.fineNorm = 1
	faces := make([]gocv.Mat, 12)
	for i := range faces {
		faces[i] = testFace(t, uint64(60+i), 300, 420)
		defer faces[i].Close()
		ks, err := k.Teach(faces[i], upright)
		if err != nil {
			t.Fatal(err)
		}
		views, err := k.teachViews(faces[i], upright, ks.W, ks.H)
		if err != nil {
			t.Fatal(err)
		}
		if len(views.Desc) < viewDirs*viewKeys/2 {
			t.Fatalf("card %d: %d view keypoints", i, len(views.Desc))
		}
		id := fmt.Sprintf("card-%02d", i)
		with.entries = append(with.entries, Entry{ID: id, Desc: d, Keys: ks, views: views})
		without.entries = append(without.entries, Entry{ID: id, Desc: d, Keys: ks})
	}
	hw, hu := NewKeyHash(with), NewKeyHash(without)
	// Each card seen tilted along a direction between the views' (22.5° off
	// the nearest), turned, the size it is taught at (96 px wide).
	votes := func(h *KeyHash, i int, seen gocv.Mat) (own, other int) {
		grey := gocv.NewMat()
		defer grey.Close()
		gocv.CvtColor(seen, &grey, gocv.ColorBGRToGray)
		if err := k.detect(grey, keyPlace); err != nil {
			t.Fatal(err)
		}
		for qi := range k.QDesc {
			switch j := h.nearest(&k.QDesc[qi], 1); {
			case j < 0:
			case h.Cards[h.Card[j]].ID == fmt.Sprintf("card-%02d", i):
				own++
			default:
				other++
			}
		}
		return own, other
	}
	ownW, ownU, otherW, otherU := 0, 0, 0, 0
	for i, f := range faces {
		phi := math.Pi/8 + float64(i)*math.Pi/6
		c, s := math.Cos(phi), math.Sin(phi)
		const tilt, scale = 0.7, 96.0 / 300
		a := [4]float64{scale * (c*c*tilt + s*s), scale * (c*s*tilt - c*s), scale * (c*s*tilt - c*s), scale * (s*s*tilt + c*c)}
		var dst [4][2]float64
		for j, p := range upright {
			x, y := float64(p.X)+0.5, float64(p.Y)+0.5
			dst[j] = [2]float64{200 + a[0]*x + a[1]*y, 200 + a[2]*x + a[3]*y}
		}
		seen := gocv.NewMat()
		hm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
		if !WarpQuad(f, &seen, hm, upright, dst, image.Pt(600, 600)) {
			t.Fatal("warp")
		}
		hm.Close()
		ow, xw := votes(hw, i, seen)
		ou, xu := votes(hu, i, seen)
		seen.Close()
		ownW, ownU, otherW, otherU = ownW+ow, ownU+ou, otherW+xw, otherU+xu
	}
	// Other cards' keypoints (spread over 11 cards; a card's own gather on
	// it) are not found more often for the views.
	if ownW < 3*ownU/2 || 10*otherW > 11*otherU {
		t.Errorf("tilted cards: %d keypoints of their own card found with the views, %d without; of other cards %d and %d", ownW, ownU, otherW, otherU)
	}
	t.Logf("tilted cards: %d keypoints of their own card found with the views, %d without; of other cards %d and %d", ownW, ownU, otherW, otherU)
}

// TestCardKeysSaved: an index's keypoints survive Save and Load.
func TestCardKeysSaved(t *testing.T) {
	face := testFace(t, 5, 300, 420)
	defer face.Close()
	k := NewKeyer()
	defer k.Close()
	ks, err := k.Teach(face, [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}})
	if err != nil {
		t.Fatal(err)
	}
	views, err := k.teachViews(face, [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}}, ks.W, ks.H)
	if err != nil {
		t.Fatal(err)
	}
	ix := New()
	var d Desc
	d.fineNorm = 1
	ix.entries = []Entry{{ID: "goal-1", Desc: d, Keys: ks, views: views}, {ID: "goal-1", Desc: d}}
	dir := filepath.Join(t.TempDir(), "cards")
	if err := ix.Save(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.entries) != 2 || back.entries[1].Keys != nil || !reflect.DeepEqual(back.entries[0].Keys, ks) || !reflect.DeepEqual(back.entries[0].views, views) {
		t.Errorf("keypoints not kept: %d entries", len(back.entries))
	}
	if got := back.KeysOf("goal-1", nil); len(got) != 1 {
		t.Errorf("keysOf: %d", len(got))
	}
}

// TestCardKeyHash: the hashed index finds the taught keypoint a slightly
// different descriptor comes from (most of the time: it is a hash), and
// takes an unrelated descriptor for none.
func TestCardKeyHash(t *testing.T) {
	k := NewKeyer()
	defer k.Close()
	ix := New()
	var d Desc
	d.fineNorm = 1
	for i := range 12 {
		face := testFace(t, uint64(20+i), 300, 420)
		ks, err := k.Teach(face, [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}})
		face.Close()
		if err != nil {
			t.Fatal(err)
		}
		id := "card-" + string(rune('a'+i))
		ix.entries = append(ix.entries, Entry{ID: id, Desc: d, Keys: ks}, Entry{ID: id, Desc: d})
	}
	h := NewKeyHash(ix)
	if len(h.Cards) != 12 || len(h.Desc) < 12*50 {
		t.Fatalf("hashed %d cards, %d keypoints", len(h.Cards), len(h.Desc))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	found, wrong, falseHits := 0, 0, 0
	for i := range h.Desc {
		q := h.Desc[i]
		for range 10 { // 10 of 256 bits differ
			b := rng.IntN(256)
			q[b/64] ^= 1 << (b % 64)
		}
		switch j := h.nearest(&q, 1); {
		case j < 0:
		case h.Card[j] == h.Card[i] && h.Pt[j] == h.Pt[i]:
			found++
		default:
			wrong++
		}
		var r [4]uint64
		for w := range r {
			r[w] = rng.Uint64()
		}
		if h.nearest(&r, 1) >= 0 {
			falseHits++
		}
	}
	n := len(h.Desc)
	if found < n*3/5 || wrong > n/50 || falseHits > n/100 {
		t.Errorf("of %d keypoints with 10 bits changed: %d found, %d taken for another; %d of %d random descriptors matched", n, found, wrong, falseHits, n)
	}
}

// randomKeys are n keypoints of a w×h card with random descriptors, a
// quarter of them alike (a card's plain patches crowd a few buckets).
func randomKeys(rng *rand.Rand, w, h, n int) *Keys {
	k := &Keys{W: w, H: h}
	for range n {
		var d [4]uint64
		for j := range d {
			d[j] = rng.Uint64()
		}
		if rng.IntN(4) == 0 {
			d = [4]uint64{0xff00ff00, 0, ^uint64(0), 1 << uint(rng.IntN(3))}
		}
		k.Desc = append(k.Desc, d)
		k.Pts = append(k.Pts, geom.Point{X: float32(rng.IntN(w)), Y: float32(rng.IntN(h))})
	}
	return k
}

// BenchmarkCardKeyHash builds the keypoint hash of 100 cards taught from 3
// examples of 400 keypoints and 320 in their views (216,000 keypoints, as
// many as the evaluation's 100 taught cards): what a reader's first search
// by keypoints, and its first after a card is taught, waits for.
func BenchmarkCardKeyHash(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	ix := New()
	for i := range 100 {
		for range 3 {
			ix.entries = append(ix.entries, Entry{ID: fmt.Sprintf("card-%03d", i),
				Keys: randomKeys(rng, KeyW, cardKeyH, 400), views: randomKeys(rng, KeyW, cardKeyH, 320)})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		NewKeyHash(ix)
	}
}

// TestCardKeyHashFiled checks NewKeyHash's arrays against their
// definition: the keypoints of every card's examples and then of their
// views, cards in order, those of examples taught the other way round than
// the card's first left out; and in each table, bucket b holds the
// keypoints whose key is b, in their order.
func TestCardKeyHashFiled(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := func(w, h, n int) *Keys { return randomKeys(rng, w, h, n) }
	ix := New()
	for i := range 40 {
		e := Entry{ID: fmt.Sprintf("card-%02d", (i*7)%12)} // a card's examples apart
		switch i % 5 {
		case 0: // no keypoints
		case 1:
			e.Keys, e.views = keys(120, 166, 50+rng.IntN(50)), keys(120, 166, rng.IntN(30))
		case 2: // the other way round (kept where it is a card's first)
			e.Keys, e.views = keys(166, 120, 40), keys(166, 120, 10)
		default:
			e.Keys = keys(120, 166, 60)
		}
		ix.entries = append(ix.entries, e)
	}
	h := NewKeyHash(ix)

	var desc [][4]uint64
	var card []int32
	var pt []geom.Point
	var ids []string
	for _, id := range ix.Cards() {
		var first *Keys
		for _, e := range ix.entries {
			if e.ID == id && e.Keys != nil && len(e.Keys.Desc) > 0 {
				first = e.Keys
				break
			}
		}
		if first == nil {
			continue
		}
		ids = append(ids, id)
		for _, views := range []bool{false, true} {
			for _, e := range ix.entries {
				k := e.Keys
				if views {
					k = e.views
				}
				if e.ID != id || k == nil || k.W != first.W || k.H != first.H {
					continue
				}
				desc = append(desc, k.Desc...)
				pt = append(pt, k.Pts...)
				for range k.Desc {
					card = append(card, int32(len(ids)-1))
				}
			}
		}
	}
	if len(ids) != len(h.Cards) {
		t.Fatalf("%d cards hashed, want %d", len(h.Cards), len(ids))
	}
	for c, id := range ids {
		if h.Cards[c].ID != id {
			t.Fatalf("card %d is %s, want %s", c, h.Cards[c].ID, id)
		}
	}
	if !slices.Equal(h.Desc, desc) || !slices.Equal(h.Card, card) || !slices.Equal(h.Pt, pt) {
		t.Fatalf("%d keypoints hashed (cards %d, points %d), want %d", len(h.Desc), len(h.Card), len(h.Pt), len(desc))
	}
	for tb := range frameTables {
		want := make([][]int32, 1<<frameBits)
		for i := range desc {
			k := h.key(tb, &desc[i])
			want[k] = append(want[k], int32(i))
		}
		if len(h.start[tb]) != 1<<frameBits+1 || h.start[tb][0] != 0 {
			t.Fatalf("table %d: %d starts, the first %d", tb, len(h.start[tb]), h.start[tb][0])
		}
		for b, w := range want {
			if got := h.items[tb][h.start[tb][b]:h.start[tb][b+1]]; !slices.Equal(got, w) {
				t.Fatalf("table %d, bucket %d: %v, want %v", tb, b, got, w)
			}
		}
	}
}

// TestCardKeyHashExamples: every example of a card is hashed, and a
// keypoint of a card taught twice (the same look in both examples) is found
// for its card (at its place in either example, or at another place of
// the card's that looks alike), seldom for another card.
func TestCardKeyHashExamples(t *testing.T) {
	k := NewKeyer()
	defer k.Close()
	ix := New()
	var d Desc
	d.fineNorm = 1
	one := 0
	for i := range 12 {
		face := testFace(t, uint64(40+i), 300, 420)
		ks, err := k.Teach(face, [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}})
		face.Close()
		if err != nil {
			t.Fatal(err)
		}
		id := "card-" + string(rune('a'+i))
		twin := &Keys{W: ks.W, H: ks.H, Pts: slices.Clone(ks.Pts), Desc: slices.Clone(ks.Desc)}
		ix.entries = append(ix.entries, Entry{ID: id, Desc: d, Keys: ks}, Entry{ID: id, Desc: d, Keys: twin})
		one += len(ks.Desc)
	}
	h := NewKeyHash(ix)
	if len(h.Cards) != 12 || len(h.Desc) != 2*one {
		t.Fatalf("hashed %d cards, %d keypoints; want 12 and both examples' %d", len(h.Cards), len(h.Desc), 2*one)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	found, wrong := 0, 0
	for i := range h.Desc {
		q := h.Desc[i]
		for range 10 {
			b := rng.IntN(256)
			q[b/64] ^= 1 << (b % 64)
		}
		switch j := h.nearest(&q, 1); {
		case j < 0:
		case h.Card[j] == h.Card[i]:
			found++
		default:
			wrong++
		}
	}
	// With no ratio test, a keypoint whose own buckets are all crowded
	// (twice as full here: every keypoint is taught twice) takes another
	// card's within keyMaxDist: the frame search's homography sorts
	// those out.
	n := len(h.Desc)
	if found < n*3/5 || wrong > n/20 {
		t.Errorf("of %d keypoints with 10 bits changed: %d found, %d taken for another card", n, found, wrong)
	}
	t.Logf("of %d keypoints with 10 bits changed: %d found for their card, %d for another card", n, found, wrong)
}

// TestCardKeyHashNoRatio: without the ratio test (a blob's search) the
// nearest taught keypoint is returned even where another card's comes
// nearly as near (8 and 9 bits off), as keypoints of a card among hundreds
// often do; with it (the whole frame's) such keypoints are dropped.
func TestCardKeyHashNoRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	flip := func(d [4]uint64, n int, skip map[int]bool) ([4]uint64, map[int]bool) {
		used := map[int]bool{}
		for len(used) < n {
			b := rng.IntN(256)
			if skip[b] || used[b] {
				continue
			}
			used[b] = true
			d[b/64] ^= 1 << (b % 64)
		}
		return d, used
	}
	const n = 400
	own := &Keys{W: 96, H: 134}
	rival := &Keys{W: 96, H: 134}
	queries := make([][4]uint64, n)
	for i := range n {
		var d [4]uint64
		for w := range d {
			d[w] = rng.Uint64()
		}
		q, off := flip(d, 8, nil)
		r, _ := flip(q, 9, off)
		queries[i] = q
		p := geom.Point{X: float32(i % 96), Y: float32(i / 96)}
		own.Pts, own.Desc = append(own.Pts, p), append(own.Desc, d)
		rival.Pts, rival.Desc = append(rival.Pts, p), append(rival.Desc, r)
	}
	var d Desc
	d.fineNorm = 1
	ix := New()
	ix.entries = []Entry{{ID: "own", Desc: d, Keys: own}, {ID: "rival", Desc: d, Keys: rival}}
	h := NewKeyHash(ix)
	found, wrong := 0, 0
	for i := range queries {
		switch j := h.nearest(&queries[i], 1); {
		case j < 0:
		case h.Cards[h.Card[j]].ID == "own" && h.Pt[j] == own.Pts[i]:
			found++
		default:
			wrong++
		}
	}
	if found < n*3/5 || wrong > n/20 {
		t.Errorf("of %d keypoints 8 bits off their card's and 9 off another's: %d found, %d taken for another", n, found, wrong)
	}
	// With the ratio test (the whole-frame search) they are dropped.
	kept := 0
	for i := range queries {
		if h.nearest(&queries[i], KeyRatio) >= 0 {
			kept++
		}
	}
	if kept > n/20 {
		t.Errorf("with the ratio test %d of %d kept, want them dropped", kept, n)
	}
}

// keysAtPose is a keyer, the keypoints taught of a card (ks) and of
// another (ko), a grey frame (800×600, clutter) showing the card 150 px
// wide, turned and in perspective, and its corners there (the card's
// top-left first). The Mats are closed when t ends.
func keysAtPose(t *testing.T) (k *Keyer, ks, ko *Keys, grey gocv.Mat, at [4]geom.Point) {
	t.Helper()
	whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}}
	k = NewKeyer()
	t.Cleanup(k.Close)
	face := testFace(t, 3, 300, 420)
	defer face.Close()
	ks, err := k.Teach(face, whole)
	if err != nil {
		t.Fatal(err)
	}
	other := testFace(t, 4, 300, 420)
	defer other.Close()
	ko, err = k.Teach(other, whole)
	if err != nil {
		t.Fatal(err)
	}
	frame := testFace(t, 9, 800, 600)
	defer frame.Close()
	at = [4]geom.Point{{X: 300, Y: 150}, {X: 440, Y: 200}, {X: 400, Y: 410}, {X: 250, Y: 360}}
	pasteFace(t, face, &frame, at)
	grey = gocv.NewMat()
	t.Cleanup(func() { grey.Close() })
	gocv.CvtColor(frame, &grey, gocv.ColorBGRToGray)
	return k, ks, ko, grey, at
}

// TestCardKeyHashNearestAll: the nearest taught keypoints found in C
// (tc_key_nearest) are nearest's, query by query, with and without the
// ratio test: on keypoints a few bits off a taught one, on random ones, on
// taught ones themselves, and on plain ones whose buckets are crowded.
func TestCardKeyHashNearestAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	ix := New()
	var d Desc
	d.fineNorm = 1
	var taught [][4]uint64
	for c := range 40 {
		ks := &Keys{W: 96, H: 134}
		for i := range 300 {
			var k [4]uint64
			for w := range k {
				k[w] = rng.Uint64()
			}
			if c >= 20 {
				// A rival of card c-20: its keypoints a few bits off
				// (a nearest of another card near the nearest).
				k = taught[(c-20)*300+i]
				for range 2 + rng.IntN(10) {
					b := rng.IntN(256)
					k[b/64] ^= 1 << (b % 64)
				}
			}
			if i%10 == 0 {
				k = [4]uint64{} // a plain patch: many cards have it
			}
			ks.Pts = append(ks.Pts, geom.Point{X: float32(i % 96), Y: float32(i / 96)})
			ks.Desc = append(ks.Desc, k)
			taught = append(taught, k)
		}
		ix.entries = append(ix.entries, Entry{ID: fmt.Sprintf("card-%d", c), Desc: d, Keys: ks})
	}
	h := NewKeyHash(ix)
	if h.crowded >= 400 {
		t.Fatalf("no bucket crowded (%d a bucket)", h.crowded)
	}
	var qs [][4]uint64
	for i := range 3000 {
		q := taught[rng.IntN(len(taught))]
		switch i % 4 {
		case 0: // a few bits off
			for range 1 + rng.IntN(12) {
				b := rng.IntN(256)
				q[b/64] ^= 1 << (b % 64)
			}
		case 1: // anything
			for w := range q {
				q[w] = rng.Uint64()
			}
		case 2: // nearly plain
			q = [4]uint64{1 << rng.IntN(64)}
		}
		qs = append(qs, q)
	}
	for _, ratio := range []float64{1, KeyRatio} {
		all := slices.Clone(h.NearestAll(qs, ratio))
		got := 0
		for j := range qs {
			want := h.nearest(&qs[j], ratio)
			if int(all[j]) != want {
				t.Fatalf("ratio %v, query %d: %d in C, %d in Go", ratio, j, all[j], want)
			}
			if want >= 0 {
				got++
			}
		}
		if got < len(qs)/4 || got == len(qs) {
			t.Errorf("ratio %v: %d of %d queries found a keypoint: not the mix wanted", ratio, got, len(qs))
		}
	}
	if n := len(h.NearestAll(nil, 1)); n != 0 {
		t.Errorf("no query: %d answers", n)
	}
}

// pasteFace draws the card face onto frame with its corners (the
// face's top-left first) at at.
func pasteFace(t *testing.T, face gocv.Mat, frame *gocv.Mat, at [4]geom.Point) {
	t.Helper()
	w, h := float64(face.Cols()), float64(face.Rows())
	var src, dst [4][2]float64
	for i, p := range [4][2]float64{{-0.5, -0.5}, {w - 0.5, -0.5}, {w - 0.5, h - 0.5}, {-0.5, h - 0.5}} {
		src[i], dst[i] = p, [2]float64{float64(at[i].X), float64(at[i].Y)}
	}
	hh, ok := geom.HomographyOf(src, dst)
	if !ok {
		t.Fatal("homography")
	}
	hm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hm.Close()
	for i := range 9 {
		hm.SetDoubleAt(i/3, i%3, hh[i])
	}
	gocv.WarpPerspectiveWithParams(face, frame, hm, image.Pt(frame.Cols(), frame.Rows()), gocv.InterpolationLinear, gocv.BorderTransparent, color.RGBA{})
}

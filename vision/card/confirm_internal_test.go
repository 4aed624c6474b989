package card

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/index"
	"tablecam/vision/geom"
)

// TestCardRefConfirms: with the reference, a match that is not clear
// stands only where its card's keypoints are found at the pose the
// outline and the match's turn give (by its best example); a clear one
// stands as it is; one a little beyond the match decision stands when its
// card's keypoints are found there.
func TestCardRefConfirms(t *testing.T) {
	k := index.NewKeyer()
	defer k.Close()
	whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}}
	teach := func(seed uint64) *index.Keys {
		face := confirmTestFace(t, seed, 300, 420)
		defer face.Close()
		ks, err := k.Teach(face, whole)
		if err != nil {
			t.Fatal(err)
		}
		return ks
	}
	// "shown" has two examples, its first one off (another face): its
	// best example counts.
	ix := index.New()
	for _, e := range []index.Entry{{ID: "shown", Keys: teach(5)}, {ID: "other", Keys: teach(4)}, {ID: "shown", Keys: teach(3)}} {
		ix.AddEntry(e)
	}
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The frame: clutter, and card "shown" 120 px wide, turned.
	frame := confirmTestFace(t, 9, 1280, 720)
	defer frame.Close()
	face := confirmTestFace(t, 3, 300, 420)
	defer face.Close()
	at := [4]geom.Point{{X: 600, Y: 200}, {X: 704, Y: 260}, {X: 620, Y: 400}, {X: 505, Y: 335}}
	confirmPasteFace(t, face, &frame, at)
	gocv.CvtColor(frame, &r.grey, gocv.ColorBGRToGray)
	away := geom.ShiftQuad(at, 450, 0)
	for _, c := range []struct {
		name string
		q    [4]geom.Point
		m    index.Match
		want bool
	}{
		{"its card's keypoints there", at, index.Match{ID: "shown", Dist: 0.3, Second: 1}, true},
		{"another card's keypoints", at, index.Match{ID: "other", Dist: 0.3, Second: 1}, false},
		{"its keypoints elsewhere", away, index.Match{ID: "shown", Dist: 0.3, Second: 1}, false},
		{"its card turned", at, index.Match{ID: "shown", Dist: 0.3, Second: 1, Rot: 1}, false},
		{"its card upside down", at, index.Match{ID: "shown", Dist: 0.3, Second: 1, Rot: 2}, false},
		{"a clear match", away, index.Match{ID: "other", Dist: 0.1, Second: 1}, true},
		{"near, its card's keypoints there", at, index.Match{ID: "shown", Dist: 0.5, Second: 1.2}, true},
		{"near, another card's keypoints", at, index.Match{ID: "other", Dist: 0.5, Second: 1.2}, false},
		{"too far", at, index.Match{ID: "shown", Dist: 0.7, Second: 1.5}, false},
	} {
		got, err := r.refConfirms(c.q, c.m)
		if err != nil || got != c.want {
			t.Errorf("%s: confirmed %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}

// TestCardKeyFoundConfirmedAtPose: with the reference, a card its keypoints
// found (want) whose face comes near it but not within the match decision
// stands when its keypoints are found at the pose; not for another card
// than the keypoints chose, nor without the reference.
func TestCardKeyFoundConfirmedAtPose(t *testing.T) {
	ix := index.New()
	whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}}
	k := index.NewKeyer()
	defer k.Close()
	dr := index.NewDescriber()
	defer dr.Close()
	for _, c := range []struct {
		id   string
		seed uint64
	}{{"shown", 3}, {"other", 4}} {
		face := confirmTestFace(t, c.seed, 300, 420)
		err := dr.Rectify(face, whole, 0)
		var ds [4]index.Desc
		if err == nil {
			err = dr.Describe(&ds)
		}
		var ks *index.Keys
		if err == nil {
			ks, err = k.Teach(face, whole)
		}
		face.Close()
		if err != nil {
			t.Fatal(err)
		}
		ix.AddEntry(index.Entry{ID: c.id, Desc: ds[0], Keys: ks})
	}
	table := confirmTestFace(t, 9, 1280, 720)
	defer table.Close()
	frame := table.Clone()
	defer frame.Close()
	face := confirmTestFace(t, 3, 300, 420)
	defer face.Close()
	at := [4]geom.Point{{X: 600, Y: 200}, {X: 704, Y: 260}, {X: 620, Y: 400}, {X: 505, Y: 335}}
	confirmPasteFace(t, face, &frame, at)
	for _, ref := range []bool{true, false} {
		r, err := NewReader(Options{Index: ix})
		if err != nil {
			t.Fatal(err)
		}
		if ref {
			if err := r.SetBackground(table); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.ReadCards(frame); err != nil {
			t.Fatal(err)
		}
		if r.refUsed != ref {
			t.Fatalf("reference used %v, want %v", r.refUsed, ref)
		}
		// The face matches its card well; a strict threshold makes it a
		// near miss.
		if err := r.desc.Rectify(frame, at, 0); err != nil {
			t.Fatal(err)
		}
		var desc [4]index.Desc
		if err := r.desc.Describe(&desc); err != nil {
			t.Fatal(err)
		}
		m := ix.Match(&desc)
		d := m.Dist
		if m.ID != "shown" || d > refBandDist/2 {
			t.Fatalf("the face matches %s at %.3f", m.ID, d)
		}
		ix.Threshold = d / 2
		for _, want := range []string{"shown", "other"} {
			rd, ok, err := r.matchOutline(frame, at, want, 0)
			if err != nil {
				t.Fatal(err)
			}
			if exp := ref && want == "shown"; ok != exp || ok && rd.ID != "shown" {
				t.Errorf("reference %v, keypoints chose %s (face %.3f away): read %v %q, want %v", ref, want, d, ok, rd.ID, exp)
			}
		}
		ix.Threshold = 0
		r.Close()
	}
}

// TestCardKeysVerifyAt: the verification at a known pose finds most of a
// card's taught keypoints where the card is, and few of another card's, or
// of the card itself at a pose off by a turn or by a quarter of its width.
func TestCardKeysVerifyAt(t *testing.T) {
	k, ks, ko, grey, at := confirmKeysAtPose(t)
	turned := [4]geom.Point{at[1], at[2], at[3], at[0]}
	for _, c := range []struct {
		name    string
		corners [4]geom.Point
		keys    []*index.Keys
		found   bool
	}{
		{"the card at its pose", at, []*index.Keys{ks}, true},
		{"its best example", at, []*index.Keys{ko, ks}, true},
		{"another card", at, []*index.Keys{ko}, false},
		{"the card turned", turned, []*index.Keys{ks}, false},
		{"the card a quarter off", geom.ShiftQuad(at, 40, 0), []*index.Keys{ks}, false},
	} {
		v, err := k.VerifyAt(grey, c.corners, c.keys, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		share := float64(v.Found) / float64(max(1, v.Taught))
		if got := v.Found >= refBandFound && share >= refBandShare; got != c.found {
			t.Errorf("%s: %d of %d taught keypoints found (%d pairs, %d inliers), want found %v", c.name, v.Found, v.Taught, v.Pairs, v.Inliers, c.found)
		}
	}
	// A pose that puts keypoints nowhere (a degenerate fit) finds none.
	for _, p := range [][2]float64{{math.Inf(1), 50}, {50, math.Inf(-1)}, {math.NaN(), 50}, {-1e9, 1e9}} {
		if i, d := k.Closest(&ks.Desc[0], p[0], p[1], index.VerifyReach); i >= 0 || d <= 256 {
			t.Errorf("closest to %v: keypoint %d at %d bits", p, i, d)
		}
	}
}

// TestCardVerifyUntil: the verification stopped at the first example that
// stands (when the best would stand too) decides as the whole one does:
// on the card, another card, the card a quarter off, with an occluder's
// blocks left out, and with a later example of many more keypoints (whose
// share the first's found would not make: verified to the end).
func TestCardVerifyUntil(t *testing.T) {
	k, ks, ko, grey, at := confirmKeysAtPose(t)
	// ks with each keypoint eight times: the first example's found make
	// an eighth of its share.
	big := &index.Keys{W: ks.W, H: ks.H}
	for range 8 {
		big.Pts = append(big.Pts, ks.Pts...)
		big.Desc = append(big.Desc, ks.Desc...)
	}
	// ks with 30 of its keypoints twice: more found than the first
	// example's, a share the first's found make.
	more := &index.Keys{W: ks.W, H: ks.H, Pts: append(slices.Clone(ks.Pts), ks.Pts[:30]...), Desc: append(slices.Clone(ks.Desc), ks.Desc[:30]...)}
	var skip index.Mask
	for i := range skip {
		skip[i] = i%index.ChromN < 2 // the card's left columns hidden
	}
	enough := index.Enough{Found: refMinFound, Share: refMinShare}
	stopped := 0
	for _, c := range []struct {
		name    string
		corners [4]geom.Point
		keys    []*index.Keys
		skip    *index.Mask
	}{
		{"the card, its example first", at, []*index.Keys{ks, ko}, nil},
		{"the card, its example last", at, []*index.Keys{ko, ks}, nil},
		{"the card, twice", at, []*index.Keys{ks, ks}, nil},
		{"the card, a larger example after", at, []*index.Keys{ks, big}, nil},
		{"the card, a little larger example after", at, []*index.Keys{ks, more}, nil},
		{"the card, occluded", at, []*index.Keys{ks, ks}, &skip},
		{"another card", at, []*index.Keys{ko, ko}, nil},
		{"the card a quarter off", geom.ShiftQuad(at, 40, 0), []*index.Keys{ks, ks}, nil},
	} {
		all, err := k.VerifyAt(grey, c.corners, c.keys, c.skip, nil)
		if err != nil {
			t.Fatal(err)
		}
		until, err := k.VerifyUntil(grey, c.corners, c.keys, c.skip, nil, enough)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := enough.Stands(until), refVerified(true, all); got != want {
			t.Errorf("%s: stands %v stopped early (%d of %d found), %v verified to the end (%d of %d)", c.name, got, until.Found, until.Taught, want, all.Found, all.Taught)
		}
		first, err := k.VerifyAt(grey, c.corners, c.keys[:1], c.skip, nil)
		if err != nil {
			t.Fatal(err)
		}
		if until != all {
			stopped++
			if until != first {
				t.Errorf("%s: stopped at %+v, not at the first example's %+v", c.name, until, first)
			}
		}
		if c.name == "the card, a larger example after" && until != all {
			t.Errorf("%s: stopped at the first example (%d of %d found) though the larger one's share would be %.2f", c.name, until.Found, until.Taught, float64(until.Found)/float64(len(big.Pts)))
		}
	}
	if stopped == 0 {
		t.Error("no verification stopped early (the card, a little larger example after)")
	}
}

// confirmTestFace draws a card face of w×h: random shapes on a light ground.
func confirmTestFace(t *testing.T, seed uint64, w, h int) gocv.Mat {
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

// confirmPasteFace draws the card face onto frame with its corners (the
// face's top-left first) at at.
func confirmPasteFace(t *testing.T, face gocv.Mat, frame *gocv.Mat, at [4]geom.Point) {
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

// confirmKeysAtPose is a keyer, the keypoints taught of a card (ks) and of
// another (ko), a grey frame (800×600, clutter) showing the card 150 px
// wide, turned and in perspective, and its corners there (the card's
// top-left first). The Mats are closed when t ends.
func confirmKeysAtPose(t *testing.T) (k *index.Keyer, ks, ko *index.Keys, grey gocv.Mat, at [4]geom.Point) {
	t.Helper()
	whole := [4]geom.Point{{X: -0.5, Y: -0.5}, {X: 299.5, Y: -0.5}, {X: 299.5, Y: 419.5}, {X: -0.5, Y: 419.5}}
	k = index.NewKeyer()
	t.Cleanup(k.Close)
	face := confirmTestFace(t, 3, 300, 420)
	defer face.Close()
	ks, err := k.Teach(face, whole)
	if err != nil {
		t.Fatal(err)
	}
	other := confirmTestFace(t, 4, 300, 420)
	defer other.Close()
	ko, err = k.Teach(other, whole)
	if err != nil {
		t.Fatal(err)
	}
	frame := confirmTestFace(t, 9, 800, 600)
	defer frame.Close()
	at = [4]geom.Point{{X: 300, Y: 150}, {X: 440, Y: 200}, {X: 400, Y: 410}, {X: 250, Y: 360}}
	confirmPasteFace(t, face, &frame, at)
	grey = gocv.NewMat()
	t.Cleanup(func() { grey.Close() })
	gocv.CvtColor(frame, &grey, gocv.ColorBGRToGray)
	return k, ks, ko, grey, at
}

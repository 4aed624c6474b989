package card

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/change"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// TestCardFollowOnChanged: a card is followed only while it lies on what
// changed against the empty table. A textured card on a plain table is
// read (unknown: nothing is taught) and followed into the next frame; with
// the reference made the frame itself (the card now part of the table: a
// card taken away from over its own picture would look the same), the
// card's picture is where it was, but it is not followed, nor looked for
// again.
func TestCardFollowOnChanged(t *testing.T) {
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	// The card: blocks of 10 px in random greys, 150×210 px at (500, 250).
	var blocks [21][15]uint8
	for y := range blocks {
		for x := range blocks[y] {
			blocks[y][x] = uint8(40 + rng.IntN(180))
		}
	}
	frame := func(card bool) gocv.Mat {
		img, px := frameForTest(t)
		for y := range 720 {
			for x := range 1280 {
				v := 120 + rng.NormFloat64()
				if card && x >= 500 && x < 650 && y >= 250 && y < 460 {
					v = float64(blocks[(y-250)/10][(x-500)/10]) + rng.NormFloat64()
				}
				i := 3 * (y*1280 + x)
				px[i], px[i+1], px[i+2] = uint8(v), uint8(v), uint8(v)
			}
		}
		return img
	}
	if err := r.SetBackground(frame(false)); err != nil {
		t.Fatal(err)
	}
	read := func(img gocv.Mat) []Reading {
		t.Helper()
		out, err := r.ReadCards(img)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := read(frame(true)); len(out) != 1 || r.followRun != 0 {
		t.Fatalf("first frame: read %v, followed %v; want the card, read in full", out, r.followRun > 0)
	}
	if out := read(frame(true)); len(out) != 1 || r.followRun != 1 {
		t.Fatalf("second frame: read %v, followed %v; want the card followed", out, r.followRun > 0)
	}
	// The reference becomes the frame: nothing changed against it, and
	// nothing is left to read (the card is not followed; nothing else
	// is).
	img := frame(true)
	change.ShrinkTo(img, &r.ref.Small)
	if out := read(img); len(out) != 0 {
		t.Errorf("the card on the unchanged table was followed: %v", out)
	}
	if len(r.followed) != 0 {
		t.Errorf("the card taken away (for the reader) is still looked for: %d cards followed", len(r.followed))
	}
}

// TestCardUnshaded: beside a card followed, the table darkened by a
// factor that changes across it (a soft shadow, 0.35 to 0.8 over 240 px)
// fails the one-factor shadow test as a whole but is a shadow tile by
// tile: under one smallest card is unshaded and the frame may be followed.
// A card lying in that shadow is unshaded, more than one smallest card.
func TestCardUnshaded(t *testing.T) {
	var frame, ref gocv.Mat
	card := cardsHandScene(&frame, &ref, 20, false)
	defer frame.Close()
	defer ref.Close()
	const x0, x1, y0, y1 = 720, 960, 260, 540
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			f := 0.35 + 0.45*float64(x-x0)/float64(x1-x0)
			for k := range 3 {
				v := frame.GetUCharAt(y, 3*x+k)
				frame.SetUCharAt(y, 3*x+k, uint8(math.Round(f*float64(v))))
			}
		}
	}
	// Noise as a camera's, so that most of the shadow's pixels fail the
	// test of each pixel (changed) as TestCardRefShadowIn's do. The
	// pixels around each pass it (change.shadowNearRef), which leaves this
	// shadow out of the mask; the mask is set by hand to the card and the
	// shadow, as where the noise is stronger (the card's blob then holds
	// its shadow, which blobFreeOf sees).
	cardsAddNoise(&frame, 12, 1)
	shadow := [4]geom.Point{{X: x0, Y: y0}, {X: x1 - 1, Y: y0}, {X: x1 - 1, Y: y1 - 1}, {X: x0, Y: y1 - 1}}
	other := frame.Clone()
	defer other.Close()
	at := image.Rect(800, 330, 880, 440)
	gocv.Rectangle(&other, at, color.RGBA{60, 180, 200, 0}, -1)
	gocv.Rectangle(&other, at.Inset(15), color.RGBA{200, 40, 40, 0}, -1)
	minW, _ := (&Reader{}).cardWidths(1280, 720)
	cardArea := minW * minW * refAspect
	read := []Reading{{ID: "x", Method: MethodLearned, Corners: card, Box: geom.QuadBox(card)}}
	left := func(img gocv.Mat) blobLeft {
		t.Helper()
		r := cardsRefReader(t, img, ref)
		defer r.Close()
		changedForTest(t, r, card, shadow)
		r.ref.FindBlobs(refMinBlob * minW * minW * refAspect)
		for _, b := range r.ref.Blobs {
			if image.Pt(840, 400).In(b.Box) {
				return r.blobFreeOf(b, read, true)
			}
		}
		t.Fatal("no blob holds the shadow")
		return blobLeft{}
	}
	l := left(frame)
	t.Logf("shadow alone: rest %.1f unshaded %.2f shadow %v", l.rest/cardArea, l.unshaded/cardArea, l.shadow)
	if l.rest < 4*cardArea || l.shadow {
		t.Fatalf("shadow alone: rest %.1f smallest cards, one-factor shadow %v; want at least 4 and false (the test shows nothing)", l.rest/cardArea, l.shadow)
	}
	if l.unshaded >= followRest*cardArea {
		t.Errorf("shadow alone: %.2f smallest cards unshaded, want under %v", l.unshaded/cardArea, followRest)
	}
	if l := left(other); l.unshaded < followRest*cardArea || l.shadow {
		t.Errorf("a card in the shadow: %.2f smallest cards unshaded (one-factor shadow %v), want at least %v", l.unshaded/cardArea, l.shadow, followRest)
	}
}

// TestCardKeepFollowed: of the cards kept in a partly followed frame, one
// read again where its place was read (its centre on a reading, or its
// sticker's marker read near it) is not added twice; the others are, with
// their stickers' reads for following; an unknown reading on a card kept
// is dropped, one elsewhere stays; a card with the same sticker far off is
// another card.
func TestCardKeepFollowed(t *testing.T) {
	rect := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	reading := func(id string, method string, marker int, q [4]geom.Point) Reading {
		rd := Reading{ID: id, Method: method, Corners: q, Box: geom.QuadBox(q)}
		if marker >= 0 {
			rd.Marker = &marker
		}
		return rd
	}
	r := &Reader{}
	var kept []Reading
	follow := func(rd Reading) {
		t := followTrack{rd: rd}
		if rd.Marker != nil {
			t.marker = &marker.Sticker{Marker: marker.Marker{ID: *rd.Marker}}
			t.now = *t.marker
		}
		r.kept = append(r.kept, len(r.followed))
		r.followed = append(r.followed, t)
		kept = append(kept, rd)
	}
	follow(reading("taught-1", MethodLearned, -1, rect(100, 100, 200, 240)))   // covered by a reading
	follow(reading("robot-1", MethodMarker, 17, rect(300, 100, 400, 240)))     // its marker read near it
	follow(reading("taught-2", MethodLearned, -1, rect(500, 100, 600, 240)))   // an unknown reading on it
	follow(reading("activation-3", MethodMarker, 2, rect(700, 100, 800, 240))) // kept
	out := []Reading{
		reading("taught-1", MethodLearned, -1, rect(110, 105, 210, 245)),
		reading("robot-1", MethodMarker, 17, rect(380, 200, 395, 215)),     // the marker alone
		reading(Unknown, MethodLearned, -1, rect(520, 120, 580, 200)),      // on taught-2
		reading(Unknown, MethodLearned, -1, rect(900, 400, 980, 500)),      // elsewhere
		reading("activation-3", MethodMarker, 2, rect(100, 600, 115, 615)), // the same sticker far off
	}
	got := r.keepFollowed(out, kept)
	var ids []string
	for _, rd := range got {
		ids = append(ids, fmt.Sprintf("%s@%d,%d", rd.ID, rd.Box.Min.X, rd.Box.Min.Y))
	}
	want := []string{"taught-1@110,105", "robot-1@380,200", "unknown@900,400", "activation-3@100,600", "taught-2@500,100", "activation-3@700,100"}
	if !slices.Equal(ids, want) {
		t.Errorf("kept %v, want %v", ids, want)
	}
	if len(r.reads) != 1 || r.reads[0].Marker.ID != 2 {
		t.Errorf("stickers' reads %v, want the kept sticker's (2)", r.reads)
	}
}

// TestCardAtAndBox: atAndBox gives g.at and boxAt's values exactly,
// inside a grey picture, at its border and beyond it (clamped), at whole
// and half pixels and anywhere between.
func TestCardAtAndBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 1))
	const w, h = 37, 23
	pix := make([]byte, w*h)
	for i := range pix {
		pix[i] = byte(rng.IntN(256))
	}
	g := geom.View{Pix: pix, W: w, H: h}
	for i := range 200000 {
		x, y := rng.Float64()*(w+6)-3, rng.Float64()*(h+6)-3
		if i%5 == 0 {
			x, y = math.Round(2*x)/2, math.Round(2*y)/2
		}
		px, box := atAndBox(g, x, y)
		if wp, wb := g.At(x, y), boxAt(g, x, y); px != wp || box != wb {
			t.Fatalf("at (%v, %v): %v and %v, want %v and %v", x, y, px, box, wp, wb)
		}
	}
}

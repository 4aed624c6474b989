package vision

import (
	"image"
	"image/color"
	"math"
	"reflect"
	"slices"
	"tablecam/vision/geom"
	"testing"

	"gocv.io/x/gocv"
)

func TestCardCodebook(t *testing.T) {
	for _, d := range []MarkerDict{Dict4X4_50, Dict4X4_250, Dict5X5_100, Dict6X6_250} {
		cb, err := newCardCodebook(d)
		if err != nil {
			t.Fatal(err)
		}
		if len(cb.codes) != 4*d.Size() || cb.minDist < 1 {
			t.Errorf("%v: %d codes, min distance %d", d, len(cb.codes), cb.minDist)
		}
		t.Logf("%v: least distance between codes %d", d, cb.minDist)
	}
}

// TestCardDecodeRotations: a marker drawn at each of four rotations decodes
// to its id with the corners in the order OpenCV's detector reports them.
func TestCardDecodeRotations(t *testing.T) {
	d := Dict4X4_250
	cb, err := newCardCodebook(d)
	if err != nil {
		t.Fatal(err)
	}
	md, err := NewMarkerDetector(d, MarkerOptions{RefineSubpix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	var sc cardDecodeScratch
	for _, id := range []int{0, 7, 123, 249} {
		for rot := range 4 {
			mk, err := GenerateMarker(d, id, 60)
			if err != nil {
				t.Fatal(err)
			}
			canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 0, 0, 0), 200, 200, gocv.MatTypeCV8UC1)
			roi := canvas.Region(image.Rect(50, 40, 50+mk.Cols(), 40+mk.Rows()))
			mk.CopyTo(&roi)
			roi.Close()
			mk.Close()
			for range rot {
				gocv.Rotate(canvas, &canvas, gocv.Rotate90Clockwise)
			}
			want, err := md.Detect(canvas)
			if err != nil || len(want) != 1 || want[0].ID != id {
				t.Fatalf("id %d rot %d: OpenCV found %+v, %v", id, rot, want, err)
			}
			g, err := geom.GreyView(canvas)
			if err != nil {
				t.Fatal(err)
			}
			// Hand the decoder the corners starting anywhere.
			var q [4]geom.Point
			for k := range 4 {
				q[k] = want[0].Corners[(k+rot+1)%4]
			}
			got, ok := cb.decode(g, q, cardDefaultLimits, &sc)
			if !ok || got.marker.ID != id {
				t.Errorf("id %d rot %d: decoded %+v, %v", id, rot, got.marker, ok)
			} else {
				for k := range 4 {
					if cardPointDist(got.marker.Corners[k], want[0].Corners[k]) > 0.01 {
						t.Errorf("id %d rot %d: corner %d %v, OpenCV %v", id, rot, k, got.marker.Corners[k], want[0].Corners[k])
					}
				}
				if got.conf < 0.9 {
					t.Errorf("id %d rot %d: confidence %.2f", id, rot, got.conf)
				}
			}
			// The scanner finds it without help.
			s, err := newCardMarkerScanner(d)
			if err != nil {
				t.Fatal(err)
			}
			found, err := s.scan(canvas, g, image.Rect(0, 0, 200, 200), cardPassFull, 15, 150, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.close()
			if len(found) != 1 || found[0].marker.ID != id || cardPointDist(found[0].marker.Corners[0], want[0].Corners[0]) > 0.5 ||
				math.Abs(found[0].marker.Side-want[0].Side) > 0.5 {
				t.Errorf("id %d rot %d: scan found %+v, want %+v", id, rot, found, want[0])
			}
			canvas.Close()
		}
	}
}

func cardPointDist(a, b geom.Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// BenchmarkCardCodebook builds the DICT_4X4_250 codebook, which every
// card reader does once.
func BenchmarkCardCodebook(b *testing.B) {
	for b.Loop() {
		if _, err := newCardCodebook(Dict4X4_250); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCardScanSkipsUnread checks that candidates which failed on a picture
// are not read again there (until forget) and that this changes nothing:
// the passes of a frame read the same markers and leave the same failed
// candidates as passes that read every candidate.
func TestCardScanSkipsUnread(t *testing.T) {
	d := Dict4X4_250
	mk, err := GenerateMarker(d, 42, 48)
	if err != nil {
		t.Fatal(err)
	}
	defer mk.Close()
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 0, 0, 0), 240, 320, gocv.MatTypeCV8UC1)
	defer canvas.Close()
	roi := canvas.Region(image.Rect(30, 40, 30+mk.Cols(), 40+mk.Rows()))
	mk.CopyTo(&roi)
	roi.Close()
	// Dark squares that are no marker: a plain one and one with a light
	// cross (both dark and bright inside).
	for _, r := range []image.Rectangle{image.Rect(150, 40, 194, 84), image.Rect(230, 120, 280, 170), image.Rect(120, 150, 166, 196)} {
		gocv.Rectangle(&canvas, r, color.RGBA{A: 255}, -1)
	}
	gocv.Rectangle(&canvas, image.Rect(246, 136, 264, 154), color.RGBA{R: 220, G: 220, B: 220, A: 255}, -1)
	g, err := geom.GreyView(canvas)
	if err != nil {
		t.Fatal(err)
	}
	passes := append([]cardScanPass{cardPassFull}, cardPassRetry[:]...)
	all := image.Rect(0, 0, 320, 240)
	type result struct {
		reads  []cardMarkerRead
		failed []cardQuadCandidate
	}
	run := func(forgetEach bool) ([]result, int) {
		s, err := newCardMarkerScanner(d)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		var out []result
		for _, p := range passes {
			if forgetEach {
				s.forget(geom.View{})
			}
			reads, err := s.scan(canvas, g, all, p, 15, 150, nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, result{reads, slices.Clone(s.failed)})
		}
		return out, len(s.unread)
	}
	want, _ := run(true)
	got, unread := run(false)
	// Some candidate of a later pass has the corners of one that failed
	// before: it was skipped.
	seen, again := map[cardQuadKey]bool{}, 0
	for _, r := range got {
		for _, c := range r.failed {
			if seen[cardKeyOf(c.q)] {
				again++
			}
			seen[cardKeyOf(c.q)] = true
		}
	}
	if unread == 0 || again == 0 {
		t.Fatalf("%d candidates failed, %d again: the test picture shows nothing to skip", unread, again)
	}
	for i := range passes {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("pass %d: skipping the unread candidates gave %+v, reading them %+v", i, got[i], want[i])
		}
	}
	if len(want[0].reads) != 1 || want[0].reads[0].marker.ID != 42 {
		t.Errorf("full pass read %+v, want marker 42", want[0].reads)
	}
}

// TestCardStickerCards checks which places the sticker search leaves
// alone: those on a card whose sticker is read, off the sticker; not the
// sticker itself, not other cards, not a card outline the sticker does not
// fit.
func TestCardStickerCards(t *testing.T) {
	sq := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	mq := sq(130, 140, 160, 170)
	r := &CardReader{reads: []cardMarkerRead{{marker: Marker{ID: 5, Corners: mq, Center: geom.Point{X: 145, Y: 155}, Side: 30}}}}
	outlines := []cardQuadCandidate{
		{q: sq(100, 100, 220, 270), refined: true}, // the sticker's card
		{q: sq(300, 100, 420, 270), refined: true}, // another card
		{q: sq(120, 130, 170, 180), refined: true}, // the sticker's quiet zone: too small a card
	}
	cs := r.stickerCards(outlines, nil)
	if len(cs) != 1 || cs[0].card != outlines[0].q || cs[0].marker != mq {
		t.Fatalf("stickered cards %+v, want the first outline", cs)
	}
	for _, tc := range []struct {
		p    geom.Point
		skip bool
	}{{geom.Point{X: 190, Y: 240}, true}, {geom.Point{X: 145, Y: 155}, false}, {geom.Point{X: 350, Y: 200}, false}, {geom.Point{X: 50, Y: 50}, false}} {
		if got := cardOffSticker(tc.p, cs); got != tc.skip {
			t.Errorf("%v: left alone %v, want %v", tc.p, got, tc.skip)
		}
	}
	outlines[0].refined = false
	if cs := r.stickerCards(outlines, nil); len(cs) != 0 {
		t.Errorf("an outline not re-fitted taken for the sticker's card: %+v", cs)
	}
}

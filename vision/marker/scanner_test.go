package marker

import (
	"image"
	"image/color"
	"math"
	"reflect"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

func TestCardCodebook(t *testing.T) {
	for _, d := range []Dict{Dict4X4_50, Dict4X4_250, Dict5X5_100, Dict6X6_250} {
		cb, err := newCodebook(d)
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
	cb, err := newCodebook(d)
	if err != nil {
		t.Fatal(err)
	}
	md, err := NewDetector(d, Options{RefineSubpix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	var sc decodeScratch
	for _, id := range []int{0, 7, 123, 249} {
		for rot := range 4 {
			mk, err := Generate(d, id, 60)
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
			got, ok := cb.decode(g, q, defaultLimits, &sc)
			if !ok || got.Marker.ID != id {
				t.Errorf("id %d rot %d: decoded %+v, %v", id, rot, got.Marker, ok)
			} else {
				for k := range 4 {
					if pointDist(got.Marker.Corners[k], want[0].Corners[k]) > 0.01 {
						t.Errorf("id %d rot %d: corner %d %v, OpenCV %v", id, rot, k, got.Marker.Corners[k], want[0].Corners[k])
					}
				}
				if got.Conf < 0.9 {
					t.Errorf("id %d rot %d: confidence %.2f", id, rot, got.Conf)
				}
			}
			// The scanner finds it without help.
			s, err := NewScanner(d)
			if err != nil {
				t.Fatal(err)
			}
			found, err := s.Scan(canvas, g, image.Rect(0, 0, 200, 200), PassFull, 15, 150, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			if len(found) != 1 || found[0].Marker.ID != id || pointDist(found[0].Marker.Corners[0], want[0].Corners[0]) > 0.5 ||
				math.Abs(found[0].Marker.Side-want[0].Side) > 0.5 {
				t.Errorf("id %d rot %d: scan found %+v, want %+v", id, rot, found, want[0])
			}
			canvas.Close()
		}
	}
}

// BenchmarkCardCodebook builds the DICT_4X4_250 codebook, which every
// card reader does once.
func BenchmarkCardCodebook(b *testing.B) {
	for b.Loop() {
		if _, err := newCodebook(Dict4X4_250); err != nil {
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
	mk, err := Generate(d, 42, 48)
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
	passes := append([]Pass{PassFull}, PassRetry[:]...)
	all := image.Rect(0, 0, 320, 240)
	type result struct {
		reads  []Sticker
		failed []Candidate
	}
	run := func(forgetEach bool) ([]result, int) {
		s, err := NewScanner(d)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var out []result
		for _, p := range passes {
			if forgetEach {
				s.Forget(geom.View{})
			}
			reads, err := s.Scan(canvas, g, all, p, 15, 150, nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, result{reads, slices.Clone(s.Failed)})
		}
		return out, len(s.unread)
	}
	want, _ := run(true)
	got, unread := run(false)
	// Some candidate of a later pass has the corners of one that failed
	// before: it was skipped.
	seen, again := map[quadKey]bool{}, 0
	for _, r := range got {
		for _, c := range r.failed {
			if seen[keyOf(c.Q)] {
				again++
			}
			seen[keyOf(c.Q)] = true
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
	if len(want[0].reads) != 1 || want[0].reads[0].Marker.ID != 42 {
		t.Errorf("full pass read %+v, want marker 42", want[0].reads)
	}
}

package vision

import (
	"image"
	"math"
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
			g, err := cardGreyOf(canvas)
			if err != nil {
				t.Fatal(err)
			}
			// Hand the decoder the corners starting anywhere.
			var q [4]Point2f
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

func cardPointDist(a, b Point2f) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// BenchmarkCardCodebook builds the DICT_4X4_250 codebook, which every
// card reader does once.
func BenchmarkCardCodebook(b *testing.B) {
	for b.Loop() {
		if _, err := newCardCodebook(Dict4X4_250); err != nil {
			b.Fatal(err)
		}
	}
}

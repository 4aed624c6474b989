package card

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// TestCardRefNoisyShadowLeftOut: on a dark green table (felt) with a
// camera's noise in the frame and in the empty table alike, the soft
// shadow of a card held over it is left out of what changed, though its
// dark red channel's noise makes most of its pixels fail the test of each
// pixel; the card beside it, its sticker's black and white squares and a
// dark band of art across it stay changed. So the card makes a blob of
// its own, clean, with its outline, which is read at once, rather than
// one with its shadow, which the outline finder searches.
func TestCardRefNoisyShadowLeftOut(t *testing.T) {
	table := gocv.NewScalar(84, 103, 36, 0) // BGR
	ref := gocv.NewMatWithSizeFromScalar(table, 720, 1280, gocv.MatTypeCV8UC3)
	defer ref.Close()
	frame := ref.Clone()
	defer frame.Close()
	// The shadow: the table darkened by 0.7, its edges soft, up and left
	// of the card and under it.
	shade := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 720, 1280, gocv.MatTypeCV32FC3)
	defer shade.Close()
	gocv.Rectangle(&shade, image.Rect(560, 240, 760, 500), color.RGBA{179, 179, 179, 0}, -1)
	gocv.GaussianBlur(shade, &shade, image.Pt(0, 0), 12, 12, gocv.BorderReplicate)
	shade.DivideFloat(255)
	f32 := gocv.NewMat()
	defer f32.Close()
	frame.ConvertTo(&f32, gocv.MatTypeCV32FC3)
	gocv.Multiply(f32, shade, &f32)
	f32.ConvertTo(&frame, gocv.MatTypeCV8UC3)
	card := image.Rect(620, 300, 800, 552)
	gocv.Rectangle(&frame, card, color.RGBA{225, 228, 232, 0}, -1)
	gocv.Rectangle(&frame, image.Rect(640, 440, 780, 480), color.RGBA{30, 50, 40, 0}, -1) // dark art
	sticker := image.Rect(740, 310, 790, 360)
	for y := 0; y < 5; y++ {
		for x := 0; x < 5; x++ {
			c := color.RGBA{20, 20, 20, 0}
			if (x+y)%2 == 0 && x > 0 && y > 0 && x < 4 && y < 4 {
				c = color.RGBA{245, 245, 245, 0}
			}
			gocv.Rectangle(&frame, image.Rect(sticker.Min.X+10*x, sticker.Min.Y+10*y, sticker.Min.X+10*x+10, sticker.Min.Y+10*y+10), c, -1)
		}
	}
	cardsAddNoise(&frame, 7, 1)
	cardsAddNoise(&ref, 7, 2)
	r := cardsRefReader(t, frame, ref)
	defer r.Close()
	quad := func(b image.Rectangle) [4]geom.Point {
		x0, y0, x1, y1 := float32(b.Min.X), float32(b.Min.Y), float32(b.Max.X-1), float32(b.Max.Y-1)
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	shadow := quad(image.Rect(572, 252, 612, 480)) // left of the card, inside the shadow's soft edge
	if got := r.ref.ChangedIn(shadow); got > 0.05 {
		t.Errorf("shadow: %.2f of it changed, want at most 0.05", got)
	}
	for name, b := range map[string]image.Rectangle{"card": card, "sticker": sticker, "dark art": image.Rect(640, 440, 780, 480)} {
		if got := r.ref.ChangedIn(quad(b)); got < 0.9 {
			t.Errorf("%s: %.2f of it changed, want at least 0.9", name, got)
		}
	}
	if len(r.ref.Blobs) != 1 || !r.ref.Blobs[0].Clean {
		t.Fatalf("%d blobs (want one, clean): %+v", len(r.ref.Blobs), r.ref.Blobs)
	}
	if d := outline.AltDistance(r.ref.Blobs[0].Quad, outline.Candidate{Q: quad(card)}); d > 12 {
		t.Errorf("the blob's outline %v is %.1f px from the card's", r.ref.Blobs[0].Quad, d)
	}
}

// A card with only a thumb over its edge makes a blob that nearly fills
// its quadrilateral (clean); when its outline does not read as a card (an
// untaught card here, or the thumb spoils the outline), the thumb is taken
// out as a hand's and the card is a part of the blob, read as one, before
// the outline finder would search the place.
func TestCardRefThumbOnCleanBlob(t *testing.T) {
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, angle := range []float64{0, 25} {
		var frame, ref gocv.Mat
		q := cardsHandScene(&frame, &ref, angle, false)
		// The thumb: 30 px wide, 20 px beyond the card's top edge and 45
		// over it (card coordinates, the card 180×252 about its centre).
		a := angle * math.Pi / 180
		var pts []image.Point
		for _, p := range [4][2]float64{{-15, -146}, {15, -146}, {15, -81}, {-15, -81}} {
			pts = append(pts, image.Pt(int(math.Round(640+p[0]*math.Cos(a)-p[1]*math.Sin(a))), int(math.Round(400+p[0]*math.Sin(a)+p[1]*math.Cos(a)))))
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		gocv.FillPoly(&frame, pv, color.RGBA{200, 140, 110, 0})
		pv.Close()
		if err := r.SetBackground(ref); err != nil {
			t.Fatal(err)
		}
		if _, err := r.ReadCards(frame); err != nil {
			t.Fatal(err)
		}
		frame.Close()
		ref.Close()
		if len(r.ref.Blobs) != 1 || r.ref.Blobs[0].Rest <= 0 {
			t.Fatalf("angle %v: %d blobs, want one with the thumb taken out: %+v", angle, len(r.ref.Blobs), r.ref.Blobs)
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

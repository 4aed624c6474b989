package live_test

import (
	"context"
	"image"
	"path/filepath"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
)

// The dashboard gets the frame as the camera saw it and, beside it, a label
// per die read (its box clipped to the frame, its face or number, doubted
// dice marked) and a note while a hand is in view: the page draws them in
// its own type, so nothing is drawn into the picture.
func TestPreviewIsThePlainFrameWithLabels(t *testing.T) {
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cat, _ := tracker.NewCatalog("en")
	sess, err := tracker.OpenSession(context.Background(), st, c, cat, "", "live")
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 320, 240
	plain := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 128, 128, 0), h, w, gocv.MatTypeCV8UC3)
	defer plain.Close()
	list := make([]gocv.Mat, 6)
	for i := range list {
		list[i] = plain
	}
	dice := []vision.Die{
		{Set: "vats", Face: "arms", Box: image.Rect(40, 50, 90, 100)},
		{Set: "vats", Face: "head", Uncertain: true, Box: image.Rect(300, 200, 340, 260)},
		{Set: "d10", Face: "0", Value: 10, Box: image.Rect(100, 100, 130, 130)},
		{Set: "vats", Face: "legs", Box: image.Rect(400, 10, 430, 40)},
	}
	reads := 0
	read := func(gocv.Mat) (vision.Reading, error) {
		reads++
		// A hand over the table in the first two frames.
		return vision.Reading{Dice: dice, Occluded: reads <= 2}, nil
	}
	var got []live.PreviewFrame
	_, err = live.Run(context.Background(), live.Options{
		Source: &frames{mats: list}, Dice: read, Session: sess, Announce: &recorder{},
		Preview: func(p live.PreviewFrame) { got = append(got, p) }, PreviewFPS: 1e9,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(list) {
		t.Fatalf("%d preview frames for %d frames", len(got), len(list))
	}
	read3 := []live.Label{
		{Box: image.Rect(40, 50, 90, 100), Text: "arms", Kind: live.LabelDie},
		{Box: image.Rect(300, 200, 320, 240), Text: "head", Kind: live.LabelUncertain},
		{Box: image.Rect(100, 100, 130, 130), Text: "10", Kind: live.LabelDie},
	}
	withHand := append(slices.Clone(read3), live.Label{Text: "hand in view", Kind: live.LabelNote})
	for i, p := range got {
		want := read3
		if i < 2 {
			want = withHand
		}
		if p.Width != w || p.Height != h || !slices.Equal(p.Labels, want) {
			t.Errorf("preview %d: %dx%d %+v, want %dx%d %+v", i, p.Width, p.Height, p.Labels, w, h, want)
		}
		img, err := gocv.IMDecode(p.JPEG, gocv.IMReadColor)
		if err != nil {
			t.Fatalf("preview %d: %v", i, err)
		}
		if img.Cols() != w || img.Rows() != h {
			t.Errorf("preview %d is %dx%d, labelled as %dx%d", i, img.Cols(), img.Rows(), w, h)
		}
		if d := maxDiff(t, img, plain); d > 6 {
			t.Errorf("preview %d differs from the camera's frame by up to %d levels: something is drawn in it", i, d)
		}
		img.Close()
	}
}

// maxDiff is the largest difference of a channel between a and b.
func maxDiff(t *testing.T, a, b gocv.Mat) int {
	t.Helper()
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(a, b, &diff)
	flat := diff.Reshape(1, 0)
	defer flat.Close()
	_, hi, _, _ := gocv.MinMaxLoc(flat)
	return int(hi)
}

package card

import (
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/synth"
)

// A card brought in beside cards lying still: cardsAddedFrames.
const (
	cardsAddedMoves = 8   // frames in which it slides in
	cardsAddedStill = 4   // frames it then trembles in place
	cardsAddedStep  = 25  // px it slides a frame
	cardsAddedFrom  = 200 // px from its place it comes from
)

// cardsAddedFrames are the frames of cardsHeldScene(bg, seed)'s four cards
// as a live camera sees a card brought in beside the others: every card
// trembles as in cardsHeldFrames; the second (a taught one) is not there
// in the first frame, slides in from cardsAddedFrom px away (towards the
// frame's middle) by cardsAddedStep px a frame for cardsAddedMoves frames,
// and trembles in place for cardsAddedStill more. The empty table is the
// last Mat; each frame's truth is returned; the caller closes the Mats.
func cardsAddedFrames(t testing.TB, bg synth.Background, seed int64) ([]gocv.Mat, [][]synth.CardTruth) {
	t.Helper()
	s, rng := cardsHeldScene(bg, seed)
	place := s.Cards[1].Center
	dir := 1
	if place.X > 640 {
		dir = -1
	}
	var out []gocv.Mat
	var truths [][]synth.CardTruth
	for k := range 1 + cardsAddedMoves + cardsAddedStill {
		f := s
		switch {
		case k == 0:
			f.Cards = append(append([]synth.CardSpec(nil), s.Cards[:1]...), s.Cards[2:]...)
		case k <= cardsAddedMoves:
			f.Cards = append([]synth.CardSpec(nil), s.Cards...)
			f.Cards[1].Center = place.Add(image.Pt(dir*(cardsAddedFrom-cardsAddedStep*k), 0))
		}
		m, truth := cardsHeldRender(t, f, rng)
		out, truths = append(out, m), append(truths, truth)
		cardsTremble(&s, rng)
		place = s.Cards[1].Center
	}
	e, err := synth.RenderCardSceneEmpty(s)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, e), truths
}

// TestCardsAddedEveryFrame reads cardsAddedFrames in turn with the empty
// table, on the busiest tables: each frame reads every card in it, where
// it is in that frame, and nothing else; the frames in which the card
// slides in are partly followed (the three others followed, the new one's
// place read), and the next ones followed.
func TestCardsAddedEveryFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and reads 26 frames")
	}
	seed := cardsTrembleSeed + 6 // not one of the benchmark's
	cardsReadEveryFrame(t, seed, cardsAddedFrames, func(i int, r *Reader, what string) {
		switch {
		case i >= 1 && i <= cardsAddedMoves && !r.partlyFollowedForTest():
			t.Errorf("%s: the card sliding in, not partly followed", what)
		case i > cardsAddedMoves && i < followFrames && !r.followedForTest():
			t.Errorf("%s: the card in place, not followed", what)
		}
	})
}

// BenchmarkReadCards720pAdded reads, with the empty table as the reference,
// cardsAddedFrames' frames in turn for 3 scenes per table: cpu-ms/op is
// ReadCards' CPU time per frame in which the card slides in beside the
// three others, the others not counted.
func BenchmarkReadCards720pAdded(b *testing.B) {
	cardsBenchLive(b, func(tb testing.TB, bg synth.Background) ([]cardsStep, []gocv.Mat) {
		var steps []cardsStep
		var mats []gocv.Mat
		for k := range int64(3) {
			ms, _ := cardsAddedFrames(tb, bg, cardsTrembleSeed+k)
			mats = append(mats, ms...)
			for i := range len(ms) - 1 {
				s := cardsStep{frame: ms[i], counted: i >= 1 && i <= cardsAddedMoves}
				if i == 0 {
					s.bg = &ms[len(ms)-1]
				}
				steps = append(steps, s)
			}
		}
		return steps, mats
	})
}

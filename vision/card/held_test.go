package card

import (
	"fmt"
	"image"
	"maps"
	"math/rand/v2"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tablecam/vision/synth"
)

// cardsHeldK is the number of frames of a scene cardsHeldFrames renders.
const cardsHeldK = 8

// cardsHeldFrames are cardsHeldK frames of four cards held over table bg
// (BenchmarkReadCards720pNew's kind: two taught among 100, one of them
// with the hand holding it, two with stickers) as a live camera sees them:
// from one frame to the next each card moves by up to 2 px and turns by
// up to 0.6° (a hand's tremble), and the sensor's noise is new (σ 2 grey
// levels). The empty table is the last Mat, and each frame's truth is
// returned; the caller closes the Mats.
func cardsHeldFrames(t testing.TB, bg synth.Background, seed int64) ([]gocv.Mat, [][]synth.CardTruth) {
	t.Helper()
	s, rng := cardsHeldScene(bg, seed)
	var out []gocv.Mat
	var truths [][]synth.CardTruth
	for range cardsHeldK {
		m, truth := cardsHeldRender(t, s, rng)
		out, truths = append(out, m), append(truths, truth)
		cardsTremble(&s, rng)
	}
	e, err := synth.RenderCardSceneEmpty(s)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, e), truths
}

// cardsTremble moves every card of s by up to 2 px and turns it by up to
// 0.6° (a hand's tremble).
func cardsTremble(s *synth.CardScene, rng *rand.Rand) {
	for i := range s.Cards {
		c := &s.Cards[i]
		c.Center = c.Center.Add(image.Pt(rng.IntN(5)-2, rng.IntN(5)-2))
		c.Angle += rng.Float64()*1.2 - 0.6
	}
}

// cardsHeldScene is the first frame's scene of cardsHeldFrames(bg, seed)
// (its cards placed apart, the first one held) and the random source the
// frames go on with.
func cardsHeldScene(bg synth.Background, seed int64) (synth.CardScene, *rand.Rand) {
	rng := rand.New(rand.NewPCG(uint64(seed), 71))
	a, b := seed*7%100, (seed*7+50)%100
	s := cardsBenchScene(seed, bg, a, b)
	s.Noise = 0 // the frames' own noise (cardsHeldRender)
	centres := [4][2]float64{{300, 190}, {940, 190}, {300, 510}, {940, 510}}
	rng.Shuffle(4, func(i, j int) { centres[i], centres[j] = centres[j], centres[i] })
	for i := range s.Cards {
		c := &s.Cards[i]
		c.Center = image.Pt(int(centres[i][0]+rng.Float64()*120-60), int(centres[i][1]+rng.Float64()*60-30))
		c.Angle, c.FixAngle = rng.Float64()*360, true
		c.Tilt = float64(rng.IntN(31))
		if c.Width == 0 {
			c.Width = 120 + rng.Float64()*50
		}
		c.Finger = i == 0
	}
	return s, rng
}

// cardsHeldRender renders scene s with new sensor noise (σ 2 grey levels)
// from rng; the caller closes the Mat.
func cardsHeldRender(t testing.TB, s synth.CardScene, rng *rand.Rand) (gocv.Mat, []synth.CardTruth) {
	t.Helper()
	m, truth, err := synth.RenderCardScene(s)
	if err != nil {
		t.Fatal(err)
	}
	px, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	for i, v := range px {
		px[i] = uint8(min(255, max(0, float64(v)+2*rng.NormFloat64()+0.5)))
	}
	return m, truth
}

// cardsHeldOrder is the live order cardsHeldFrames' frames are read in:
// forth and back, 0 1 … K-1 K-2 … 1 (each frame the last one moved a
// little).
func cardsHeldOrder() []int {
	var order []int
	for i := range cardsHeldK {
		order = append(order, i)
	}
	for i := cardsHeldK - 2; i > 0; i-- {
		order = append(order, i)
	}
	return order
}

// BenchmarkReadCards720pHeld reads, with the empty table as the
// reference, cardsHeldFrames' frames in a live order (forth and back, each
// frame the last one moved a little), for 3 scenes per table in turn:
// cpu-ms/op is ReadCards' CPU time per frame, the first frame of each
// scene (new cards) not counted.
func BenchmarkReadCards720pHeld(b *testing.B) {
	cardsBenchLive(b, func(tb testing.TB, bg synth.Background) ([]cardsStep, []gocv.Mat) {
		return cardsReadSteps(tb, bg, true)
	})
}

// cardsBenchLive runs a live benchmark on every table: a reader of 100
// taught cards reads the steps of steps(bg) (cardsBenchSteps), whose Mats
// are closed after.
func cardsBenchLive(b *testing.B, steps func(testing.TB, synth.Background) ([]cardsStep, []gocv.Mat)) {
	benchOneThread(b)
	ix, _ := cardsTeachAll(b, 100, 2)
	for _, bg := range synth.Backgrounds() {
		b.Run(string(bg), func(b *testing.B) {
			r, err := NewReader(Options{Index: ix})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			st, mats := steps(b, bg)
			defer func() {
				for _, m := range mats {
					m.Close()
				}
			}()
			cardsBenchSteps(b, r, st)
		})
	}
}

// cardsBenchSteps reads steps with r in turn, each scene's empty table set
// first, once through (what the reader keeps is built) and then as long as
// b runs: cpu-ms/op is ReadCards' CPU time per counted step.
func cardsBenchSteps(b *testing.B, r *Reader, steps []cardsStep) {
	read := func(s cardsStep) time.Duration {
		if s.bg != nil { // a new scene: its empty table
			if err := r.SetBackground(*s.bg); err != nil {
				b.Fatal(err)
			}
		}
		c0 := cardsCPU()
		if _, err := r.ReadCards(s.frame); err != nil {
			b.Fatal(err)
		}
		return cardsCPU() - c0
	}
	for _, s := range steps {
		read(s)
	}
	var cpu time.Duration
	n, i := 0, 0
	for b.Loop() {
		s := steps[i%len(steps)]
		if d := read(s); s.counted {
			cpu += d
			n++
		}
		i++
	}
	b.ReportMetric(float64(cpu)/1e6/float64(max(1, n)), "cpu-ms/op")
}

// TestCardsHeldEveryFrame reads cardsHeldFrames' trembling frames in turn
// with the empty table, on the busiest tables: each frame reads both
// taught cards and both stickers (what a reader keeps from the last frame
// must follow the cards, not stand in for them), and no taught card where
// there is none, each where its card is in that frame.
func TestCardsHeldEveryFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("renders and reads 16 frames")
	}
	cardsReadEveryFrame(t, cardsTrembleSeed, cardsHeldFrames, nil)
}

// cardsReadEveryFrame renders the frames of scene seed on the busiest
// tables (felt, cloth) with frames (cardsHeldFrames' kind: four cards,
// two taught among 100 and two stickers; the empty table last) and reads
// them in turn with the empty table: each frame must read every card in
// it (by its truth: a card not in a frame is not wanted there), each where
// its card is in that frame, and nothing else; check, when set, looks at
// the reader after each frame.
func cardsReadEveryFrame(t *testing.T, seed int64, frames func(testing.TB, synth.Background, int64) ([]gocv.Mat, [][]synth.CardTruth), check func(i int, r *Reader, what string)) {
	t.Helper()
	ix, _ := cardsTeachAll(t, 100, 2)
	a, b := seed*7%100, (seed*7+50)%100
	for _, bg := range []synth.Background{synth.BackgroundFelt, synth.BackgroundCloth} {
		r, err := NewReader(Options{Index: ix})
		if err != nil {
			t.Fatal(err)
		}
		ms, truths := frames(t, bg, seed)
		if err := r.SetBackground(ms[len(ms)-1]); err != nil {
			t.Fatal(err)
		}
		for i := range len(ms) - 1 {
			what := fmt.Sprintf("%s, frame %d", bg, i)
			got, err := r.ReadCards(ms[i])
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{}
			for _, tr := range truths[i] {
				switch {
				case tr.Art == a || tr.Art == b:
					want[cardsID(tr.Art)]++
				case tr.Marker >= 0:
					want[fmt.Sprint("marker ", tr.Marker)]++
				}
			}
			if len(want) < 3 {
				t.Fatalf("%s: the truth holds %v, not the scene's cards", what, want)
			}
			if seen := cardsReadKeys(t, what, got, truths[i]); !maps.Equal(seen, want) {
				t.Errorf("%s: read %v, want %v", what, seen, want)
			}
			if check != nil {
				check(i, r, what)
			}
		}
		for _, m := range ms {
			m.Close()
		}
		r.Close()
	}
}

package card

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// TestCardsNewFrameBreakdown (-card-breakdown new) shows where the
// time of BenchmarkReadCards720pNew's frames goes, with the reference: each
// table's 12 frames of four new cards are read -card-rounds times
// (default 4) and every part of the reading is timed (wall time: the
// reading runs on one thread). Parts indented run inside the part above
// them ("compared with the taught cards" inside several); "n" is how
// often a part ran per frame. The frames' own times come first: the median,
// the mean and the slowest frame (the largest of each frame's median over
// the rounds), with the timers' cost in them. -card-breakdown held times
// BenchmarkReadCards720pHeld's frames instead (cards held in a trembling
// hand, read in a live order; the first frame of each scene not counted).
func TestCardsNewFrameBreakdown(t *testing.T) {
	env := *cardBreakdown
	if env == "" {
		t.Skip("-args -card-breakdown new times the parts of a new frame's reading (held: of held cards')")
	}
	if env != "new" && env != "held" {
		t.Fatalf("-card-breakdown %q: want new or held", env)
	}
	rounds := positiveOr(*cardRounds, 4)
	ix, _ := cardsTeachAll(t, 100, 2)
	type part struct {
		ms, n float64
	}
	tables := synth.Backgrounds()
	parts := map[string][]part{}
	// Per table: the median frame, the mean frame and the slowest frame
	// (the largest of each frame's median over the rounds).
	medians := make([]float64, len(tables))
	means := make([]float64, len(tables))
	slowest := make([]float64, len(tables))
	nfs := 0.0 // frames counted a table
	for ti, bg := range tables {
		r, err := NewReader(Options{Index: ix})
		if err != nil {
			t.Fatal(err)
		}
		steps, mats := cardsReadSteps(t, bg, env == "held")
		read := func(s cardsStep) time.Duration {
			t.Helper()
			if s.bg != nil {
				if err := r.SetBackground(*s.bg); err != nil {
					t.Fatal(err)
				}
			}
			t0 := time.Now()
			if _, err := r.ReadCards(s.frame); err != nil {
				t.Fatal(err)
			}
			return time.Since(t0)
		}
		// The first readings build what the reader keeps (the keypoint
		// hash), as the benchmark's do.
		for _, s := range steps {
			read(s)
		}
		r.timeCardsForTest(true)
		var frameMS []float64
		byFrame := make([][]float64, len(steps))
		sum := map[string]part{}
		for range rounds {
			for si, s := range steps {
				dt := read(s)
				d, n := r.cardTimesForTest()
				if !s.counted {
					continue
				}
				frameMS = append(frameMS, float64(dt)/1e6)
				byFrame[si] = append(byFrame[si], float64(dt)/1e6)
				for k, v := range d {
					p := sum[k]
					p.ms += float64(v) / 1e6
					p.n += float64(n[k])
					sum[k] = p
				}
			}
		}
		nf := float64(len(frameMS))
		nfs = nf
		for k, p := range sum {
			if parts[k] == nil {
				parts[k] = make([]part, len(tables))
			}
			parts[k][ti] = part{p.ms / nf, p.n / nf}
		}
		for _, v := range frameMS {
			means[ti] += v / nf
		}
		slices.Sort(frameMS)
		medians[ti] = frameMS[len(frameMS)/2]
		for _, f := range byFrame {
			if len(f) == 0 {
				continue
			}
			slices.Sort(f)
			slowest[ti] = max(slowest[ti], f[len(f)/2])
		}
		for _, m := range mats {
			m.Close()
		}
		r.Close()
	}
	// The laps in the reading's order, each followed by the parts inside
	// it; parts not named here last.
	order := []string{
		"reference", "stickers, half resolution",
		"outlines", "  blobs alone outlined", "  blobs' parts outlined", "  outline finder",
		"outlines compared", "stickers, full resolution", "outlines read",
		"keypoint searches", "  outlines near a taught card searched for its keypoints", "  blobs searched for every card's keypoints",
		"  compared with the taught cards", "    outlines tried", "      one outline compared", "    outline fitted", "    compared without occluders", "    confirmed by keypoints",
	}
	rest := slices.Sorted(maps.Keys(parts))
	rest = slices.DeleteFunc(rest, func(k string) bool { return slices.Contains(order, k) })
	order = append(order, rest...)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "ms per frame (n: per frame)\t")
	for _, bg := range tables {
		fmt.Fprintf(tw, "%s\t", bg)
	}
	fmt.Fprintln(tw)
	for _, row := range []struct {
		name string
		ms   []float64
	}{{"median frame", medians}, {"mean frame", means}, {"slowest frame (its median)", slowest}} {
		fmt.Fprintf(tw, "%s\t", row.name)
		for ti := range tables {
			fmt.Fprintf(tw, "%.1f\t", row.ms[ti])
		}
		fmt.Fprintln(tw)
	}
	for _, k := range order {
		fmt.Fprintf(tw, "%s\t", k)
		for ti := range tables {
			p := parts[k]
			if p == nil {
				fmt.Fprint(tw, "-\t")
				continue
			}
			if strings.HasPrefix(k, " ") {
				fmt.Fprintf(tw, "%.2f (n %.1f)\t", p[ti].ms, p[ti].n)
			} else {
				fmt.Fprintf(tw, "%.2f\t", p[ti].ms)
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	what := "new"
	if env == "held" {
		what = "held in a trembling hand"
	}
	t.Logf("%.0f frames a table, 4 cards each (2 taught among 100, 2 stickers; %s), with the reference:\n%s", nfs, what, b.String())
}

// cardsStep is one frame TestCardsNewFrameBreakdown and
// BenchmarkReadCards720pHeld read: the empty table set first when bg is not
// nil; counted, whether its time counts.
type cardsStep struct {
	frame   gocv.Mat
	bg      *gocv.Mat
	counted bool
}

// cardsReadSteps are the frames read on table bg, BenchmarkReadCards720pNew's
// or (held) BenchmarkReadCards720pHeld's (3 scenes in cardsHeldOrder, the
// first frame of each, new cards, not counted) in their order, and the Mats
// to close.
func cardsReadSteps(t testing.TB, bg synth.Background, held bool) ([]cardsStep, []gocv.Mat) {
	t.Helper()
	var steps []cardsStep
	if !held {
		frames, empties := cardsBenchFrames(t, bg)
		for i := range frames {
			steps = append(steps, cardsStep{frame: frames[i], bg: &empties[i], counted: true})
		}
		return steps, append(frames, empties...)
	}
	var mats []gocv.Mat
	for k := range int64(3) {
		ms, _ := cardsHeldFrames(t, bg, cardsTrembleSeed+k)
		mats = append(mats, ms...)
		for _, i := range cardsHeldOrder() {
			s := cardsStep{frame: ms[i], counted: i != 0}
			if i == 0 {
				s.bg = &ms[len(ms)-1]
			}
			steps = append(steps, s)
		}
	}
	return steps, mats
}

// cardsBenchFrames renders BenchmarkReadCards720pNew's 12 frames on table
// bg and their empty tables (cardsBenchNewSeed on); the caller closes them.
func cardsBenchFrames(t testing.TB, bg synth.Background) (frames, empties []gocv.Mat) {
	t.Helper()
	const k = 12
	for i := range k {
		seed := cardsBenchNewSeed + int64(i)
		s := cardsBenchScene(seed, bg, seed*7%100, (seed*7+50)%100)
		m, _, err := synth.RenderCardScene(s)
		if err != nil {
			t.Fatal(err)
		}
		e, err := synth.RenderCardSceneEmpty(s)
		if err != nil {
			m.Close()
			t.Fatal(err)
		}
		frames, empties = append(frames, m), append(empties, e)
	}
	return frames, empties
}

// TestCardsNewFrameCPU (-card-cpu) measures
// BenchmarkReadCards720pNew's frames with the reference as that benchmark
// does (ReadCards' CPU time of all threads, OpenCV's loops on one thread,
// the 12 frames of a table in the benchmark's order) over
// -card-rounds rounds (default 12), and gives per table the mean
// over the frames of each frame's least and of each frame's median CPU
// time, the median, mean and 95th percentile of all the readings, and the
// slowest frame's median. The
// least is the steadiest figure on a busy machine (noise only adds); the
// tables' frames alternate round by round, so a slow stretch of the
// machine falls on every table.
func TestCardsNewFrameCPU(t *testing.T) {
	if !*cardCPU {
		t.Skip("-args -card-cpu measures the CPU time of BenchmarkReadCards720pNew's frames per frame")
	}
	before := vision.OpenCVThreads()
	vision.SetOpenCVThreads(1)
	t.Cleanup(func() { vision.SetOpenCVThreads(before) })
	rounds := positiveOr(*cardRounds, 12)
	ix, _ := cardsTeachAll(t, 100, 2)
	tables := synth.Backgrounds()
	readers := make([]*Reader, len(tables))
	steps := make([][]cardsStep, len(tables))
	for ti, bg := range tables {
		r, err := NewReader(Options{Index: ix})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		readers[ti] = r
		s, mats := cardsReadSteps(t, bg, false)
		defer func() {
			for _, m := range mats {
				m.Close()
			}
		}()
		steps[ti] = s
	}
	read := func(r *Reader, s cardsStep) float64 {
		t.Helper()
		if err := r.SetBackground(*s.bg); err != nil {
			t.Fatal(err)
		}
		c0 := cardsCPU()
		_, err := r.ReadCards(s.frame)
		dt := cardsCPU() - c0
		if err != nil {
			t.Fatal(err)
		}
		return float64(dt) / 1e6
	}
	// cpu[table][frame]: that frame's readings, one a round.
	cpu := make([][][]float64, len(tables))
	for ti := range tables {
		cpu[ti] = make([][]float64, len(steps[ti]))
		for _, s := range steps[ti] { // the first readings build what the reader keeps
			read(readers[ti], s)
		}
	}
	for range rounds {
		for ti := range tables {
			for si, s := range steps[ti] {
				cpu[ti][si] = append(cpu[ti][si], read(readers[ti], s))
			}
		}
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "ms per frame\teach frame's least\teach frame's median\tall readings' median\tmean\t95th percentile\tslowest frame's median\t")
	for ti, bg := range tables {
		var least, median, mean, slowest float64
		var all []float64
		nf := float64(len(cpu[ti]))
		for _, f := range cpu[ti] {
			for _, v := range f {
				mean += v / nf / float64(len(f))
			}
			all = append(all, f...)
			slices.Sort(f)
			least += f[0] / nf
			median += f[len(f)/2] / nf
			slowest = max(slowest, f[len(f)/2])
		}
		slices.Sort(all)
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.1f\t%.1f\t\n", bg, least, median, all[len(all)/2], mean, all[len(all)*95/100], slowest)
	}
	tw.Flush()
	t.Logf("BenchmarkReadCards720pNew's frames with the reference, CPU time, %d rounds:\n%s", rounds, b.String())
}

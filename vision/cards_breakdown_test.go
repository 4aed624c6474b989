package vision_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// TestCardsNewFrameBreakdown (TABLECAM_CARD_BREAKDOWN=1) shows where the
// time of BenchmarkReadCards720pNew's frames goes, with the reference: each
// table's 12 frames of four new cards are read TABLECAM_CARD_ROUNDS times
// (default 4) and every part of the reading is timed (wall time: the
// reading runs on one thread). Parts indented run inside the part above
// them ("compared with the taught cards" inside several); "n" is how
// often a part ran per frame.
func TestCardsNewFrameBreakdown(t *testing.T) {
	if os.Getenv("TABLECAM_CARD_BREAKDOWN") == "" {
		t.Skip("TABLECAM_CARD_BREAKDOWN=1 times the parts of a new frame's reading")
	}
	rounds := cardsEnvInt("TABLECAM_CARD_ROUNDS", 4)
	ix, _ := cardsTeachAll(t, 100, 2)
	type part struct {
		ms, n float64
	}
	tables := synth.Backgrounds()
	parts := map[string][]part{}
	totals := make([]float64, len(tables))
	for ti, bg := range tables {
		r, err := vision.NewCardReader(vision.CardReaderOptions{Index: ix})
		if err != nil {
			t.Fatal(err)
		}
		frames, empties := cardsBenchFrames(t, bg)
		// The first readings build what the reader keeps (the keypoint
		// hash), as the benchmark's do.
		for i := range frames {
			if err := r.SetBackground(empties[i]); err != nil {
				t.Fatal(err)
			}
			if _, err := r.ReadCards(frames[i]); err != nil {
				t.Fatal(err)
			}
		}
		r.TimeCardsForTest(true)
		var frameMS []float64
		sum := map[string]part{}
		for range rounds {
			for i := range frames {
				if err := r.SetBackground(empties[i]); err != nil {
					t.Fatal(err)
				}
				t0 := time.Now()
				if _, err := r.ReadCards(frames[i]); err != nil {
					t.Fatal(err)
				}
				frameMS = append(frameMS, float64(time.Since(t0))/1e6)
				d, n := r.CardTimesForTest()
				for k, v := range d {
					p := sum[k]
					p.ms += float64(v) / 1e6
					p.n += float64(n[k])
					sum[k] = p
				}
			}
		}
		nf := float64(len(frameMS))
		for k, p := range sum {
			if parts[k] == nil {
				parts[k] = make([]part, len(tables))
			}
			parts[k][ti] = part{p.ms / nf, p.n / nf}
		}
		slices.Sort(frameMS)
		totals[ti] = frameMS[len(frameMS)/2]
		for i := range frames {
			frames[i].Close()
			empties[i].Close()
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
		"  compared with the taught cards", "    outlines tried", "    outline fitted", "    compared without occluders", "    confirmed by keypoints",
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
	fmt.Fprint(tw, "\nmedian frame\t")
	for ti := range tables {
		fmt.Fprintf(tw, "%.1f\t", totals[ti])
	}
	fmt.Fprintln(tw)
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
	t.Logf("%d frames a table, 4 cards each (2 taught among 100, 2 stickers), with the reference:\n%s", rounds*12, b.String())
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

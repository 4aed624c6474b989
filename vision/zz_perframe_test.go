package vision_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"tablecam/vision"
	"tablecam/vision/synth"
)

func TestZZPerFrame(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	ix, _ := cardsTeachAll(t, 100, 2)
	for _, bg := range synth.Backgrounds() {
		r, _ := vision.NewCardReader(vision.CardReaderOptions{Index: ix})
		steps, _ := cardsReadSteps(t, bg, os.Getenv("ZZ") == "held")
		read := func(s cardsStep) (time.Duration, int) {
			if s.bg != nil {
				r.SetBackground(*s.bg)
			}
			t0 := time.Now()
			out, _ := r.ReadCards(s.frame)
			return time.Since(t0), len(out)
		}
		for _, s := range steps {
			read(s)
		}
		r.TimeCardsForTest(true)
		var b strings.Builder
		for i, s := range steps {
			var best time.Duration = 1 << 62
			var parts map[string]time.Duration
			var ns map[string]int
			for range 3 {
				dt, _ := read(s)
				d, n := r.CardTimesForTest()
				if dt < best {
					best, parts, ns = dt, d, n
				}
			}
			keys := []string{}
			for k := range parts {
				if parts[k] > 500*time.Microsecond {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			fmt.Fprintf(&b, "%s %2d %5.1f |", bg, i, float64(best)/1e6)
			for _, k := range keys {
				fmt.Fprintf(&b, " %s=%.1f/%d", strings.TrimSpace(k), float64(parts[k])/1e6, ns[k])
			}
			b.WriteString("\n")
		}
		t.Log("\n" + b.String())
	}
}

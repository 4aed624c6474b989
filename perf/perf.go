// Package perf measures the live pipeline as a group runs it: a recorded
// 30 fps table video played at its frame rate (as a camera delivers it)
// through the camera pipeline (decode, motion, dice detector, settle
// detection, card reader) into a tracker session and the announcers. It
// reports the latency from the frame where the dice stop to the
// announcement (and to the voice engine starting), the CPU share, and the
// resident memory over time.
package perf

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"tablecam/announce"
	"tablecam/frame"
	"tablecam/live"
	"tablecam/models"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/rolls"
)

// Options configure a measurement.
type Options struct {
	// Video is the recorded scene; Settles are its frames at which the dice
	// came to rest (truth), Rolls the number of rolls filmed.
	Video   string
	Settles []int
	Rolls   int
	// Loops plays the video this many times in a row (default 1, at most
	// MaxLoops), into one session: a long session is many loops.
	Loops int
	// Unpaced plays frames as fast as they are processed instead of at the
	// video's frame rate (for memory over a long simulated session; the
	// latency and CPU share then mean nothing).
	Unpaced bool
	// NewDice returns the dice reader for a loop (and its release).
	NewDice func() (vision.DiceReader, func(), error)
	// NewCards returns the card reader for a loop (optional).
	NewCards func() live.CardReader
	// Session receives the events, Announce the announcements.
	Session  *tracker.Session
	Announce announce.Announcer
	// VoiceStarts delivers, per announcement seq, when the voice engine
	// started speaking it (optional; see announce.VoiceOptions.Started).
	VoiceStarts *Starts
	// Roll configures settle detection.
	Roll rolls.Config
	// Before, if set, runs before each loop (e.g. sets up a new game so the
	// loop's events apply).
	Before func(ctx context.Context, loop int) error
	// Progress, if set, hears a line per loop.
	Progress func(string)
}

// Starts collects when the voice started each announcement; safe for
// concurrent use.
type Starts struct {
	mu sync.Mutex
	at map[int64]time.Time
}

// Started records the first start of an announcement of seq.
func (s *Starts) Started(a models.Announcement, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at == nil {
		s.at = map[int64]time.Time{}
	}
	if _, ok := s.at[a.Seq]; !ok && a.Seq != 0 {
		s.at[a.Seq] = t
	}
}

func (s *Starts) get(seq int64) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.at[seq]
	return t, ok
}

// Sample is the resident memory after some frames.
type Sample struct {
	Frames int
	Wall   time.Duration
	RSS    int64 // bytes
	Mats   int   // live gocv Mats (only with the matprofile build tag; else -1)
}

// Report is what a measurement found.
type Report struct {
	Frames, Skipped int
	Rolls, Expected int
	Cards           int
	// Applied and Rejected count the camera's events the tracker took and
	// refused.
	Applied, Rejected int
	Wall, CPU         time.Duration
	Cores             int
	// ToAnnounce is, per camera roll, the time from the delivery of the
	// frame the dice stopped in to the announcement handed to the
	// announcers; ToVoice to the voice engine starting on it.
	ToAnnounce, ToVoice []time.Duration
	// Frames to decide: per roll, decided frame − settle frame.
	SettleFrames []int
	// Pairs are, per roll, the settle frame and the frame it was decided on.
	Pairs  [][2]int
	Memory []Sample
}

// CPUShare is the CPU time over the wall time, as a share of all cores.
func (r Report) CPUShare() float64 {
	if r.Wall <= 0 || r.Cores <= 0 {
		return 0
	}
	return float64(r.CPU) / float64(r.Wall) / float64(r.Cores)
}

// MaxLoops bounds Options.Loops: a day of play is about 5,000 loops.
const MaxLoops = 5000

// Validate checks the options a user gives (0 loops means 1).
func (o Options) Validate() error {
	if o.Loops < 0 || o.Loops > MaxLoops {
		return fmt.Errorf("loops must be 1 … %d, got %d", MaxLoops, o.Loops)
	}
	return nil
}

// Run plays the video opts.Loops times and measures.
func Run(ctx context.Context, o Options) (Report, error) {
	if err := o.Validate(); err != nil {
		return Report{}, err
	}
	if o.Loops == 0 {
		o.Loops = 1
	}
	rep := Report{Cores: runtime.NumCPU()}
	cpu0 := cpuTime()
	t0 := time.Now()
	rep.Memory = append(rep.Memory, sample(0, 0))
	for loop := range o.Loops {
		if o.Before != nil {
			if err := o.Before(ctx, loop); err != nil {
				return rep, err
			}
		}
		v, err := frame.OpenVideoFile(o.Video)
		if err != nil {
			return rep, err
		}
		var src frame.Source = v
		var paced *frame.PacedSource
		if !o.Unpaced {
			paced = frame.Paced(v, nil)
			src = paced
		}
		read, done, err := o.NewDice()
		if err != nil {
			v.Close()
			return rep, err
		}
		var cards live.CardReader
		if o.NewCards != nil {
			cards = o.NewCards()
		}
		st, err := live.Run(ctx, live.Options{Source: src, Dice: read, Cards: cards, Session: o.Session,
			Announce: o.Announce, Roll: o.Roll})
		done()
		rep.Skipped += v.Skipped()
		v.Close()
		if err != nil {
			return rep, err
		}
		rep.Frames += st.Frames
		rep.Rolls += st.Rolls
		rep.Cards += st.Cards
		rep.Applied += len(st.Applied)
		rep.Rejected += st.Rejected
		rep.Expected += o.Rolls
		for _, a := range st.Applied {
			if a.Type != tracker.EvRoll {
				continue
			}
			// The roll's settle is the last one at or before the frame it
			// was decided on, or up to earlyFrames after it: the last
			// frames of a tumble move by less than a pixel, so the dice
			// may look still (and the roll be decided) a little before
			// the renderer's exact stop.
			const earlyFrames = 5
			stop := -1
			for _, f := range o.Settles {
				if f <= a.Frame+earlyFrames {
					stop = f
				}
			}
			if stop < 0 {
				continue
			}
			rep.SettleFrames = append(rep.SettleFrames, a.Frame-stop)
			rep.Pairs = append(rep.Pairs, [2]int{stop, a.Frame})
			if paced == nil {
				continue
			}
			if t, ok := paced.Delivered(stop); ok {
				rep.ToAnnounce = append(rep.ToAnnounce, a.Announced.Sub(t))
				if o.VoiceStarts != nil {
					if vt, ok := o.VoiceStarts.get(a.Seq); ok {
						rep.ToVoice = append(rep.ToVoice, vt.Sub(t))
					}
				}
			}
		}
		rep.Memory = append(rep.Memory, sample(rep.Frames, time.Since(t0)))
		if o.Progress != nil {
			m := rep.Memory[len(rep.Memory)-1]
			o.Progress(fmt.Sprintf("loop %d/%d: %d frames, %d rolls, RSS %.1f MiB", loop+1, o.Loops, rep.Frames, rep.Rolls, float64(m.RSS)/(1<<20)))
		}
		if ctx.Err() != nil {
			break
		}
	}
	rep.Wall = time.Since(t0)
	rep.CPU = cpuTime() - cpu0
	return rep, nil
}

func sample(frames int, wall time.Duration) Sample {
	return Sample{Frames: frames, Wall: wall, RSS: RSS(), Mats: liveMats()}
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// RSS returns the process's resident set size in bytes (0 if unknown).
func RSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// Quantile returns the q-quantile (0 … 1) of xs (nearest rank), the zero
// value for none.
func Quantile[T cmp.Ordered](xs []T, q float64) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// MemoryGrowth compares the median RSS of the last third of the samples
// with that of the second third (the first third is warm-up): the growth
// per 1,000 frames in bytes.
func (r Report) MemoryGrowth() float64 {
	n := len(r.Memory)
	if n < 6 {
		return 0
	}
	mid := r.Memory[n/3 : 2*n/3]
	last := r.Memory[2*n/3:]
	med := func(s []Sample) (float64, float64) {
		rs := make([]int64, len(s))
		fs := make([]int, len(s))
		for i, x := range s {
			rs[i], fs[i] = x.RSS, x.Frames
		}
		slices.Sort(rs)
		slices.Sort(fs)
		return float64(rs[len(rs)/2]), float64(fs[len(fs)/2])
	}
	r1, f1 := med(mid)
	r2, f2 := med(last)
	if f2 <= f1 {
		return 0
	}
	return (r2 - r1) / (f2 - f1) * 1000
}

// String is the report as the bench command prints it.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "frames %d (skipped %d), rolls %d of %d filmed, cards %d; events applied %d, refused %d\n", r.Frames, r.Skipped, r.Rolls, r.Expected, r.Cards, r.Applied, r.Rejected)
	fmt.Fprintf(&b, "wall %.1f s, CPU %.1f s: %.1f%% of %d cores (%.1f ms CPU per frame)\n", r.Wall.Seconds(), r.CPU.Seconds(),
		100*r.CPUShare(), r.Cores, float64(r.CPU.Microseconds())/1000/float64(max(1, r.Frames)))
	if len(r.SettleFrames) > 0 {
		fmt.Fprintf(&b, "settle: roll decided %d frames after the dice stopped (median), p95 %d\n", Quantile(r.SettleFrames, 0.5), Quantile(r.SettleFrames, 0.95))
	}
	if len(r.ToAnnounce) > 0 {
		fmt.Fprintf(&b, "dice stop -> announcement: median %.0f ms, p95 %.0f ms (%d rolls)\n", ms(Quantile(r.ToAnnounce, 0.5)), ms(Quantile(r.ToAnnounce, 0.95)), len(r.ToAnnounce))
	}
	if len(r.ToVoice) > 0 {
		fmt.Fprintf(&b, "dice stop -> voice engine started: median %.0f ms, p95 %.0f ms\n", ms(Quantile(r.ToVoice, 0.5)), ms(Quantile(r.ToVoice, 0.95)))
	}
	if n := len(r.Memory); n > 0 {
		var peak int64
		for _, m := range r.Memory {
			peak = max(peak, m.RSS)
		}
		fmt.Fprintf(&b, "RSS: start %.1f MiB, end %.1f MiB, peak %.1f MiB; growth %.1f KiB per 1000 frames (last third vs second third)\n",
			mib(r.Memory[0].RSS), mib(r.Memory[n-1].RSS), mib(peak), r.MemoryGrowth()/1024)
		if r.Memory[n-1].Mats >= 0 {
			fmt.Fprintf(&b, "live gocv Mats: start %d, end %d\n", r.Memory[0].Mats, r.Memory[n-1].Mats)
		}
	}
	return b.String()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
func mib(b int64) float64        { return float64(b) / (1 << 20) }

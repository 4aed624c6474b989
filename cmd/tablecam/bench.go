package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tablecam/announce"
	"tablecam/config"
	"tablecam/demo"
	"tablecam/live"
	"tablecam/perf"
	"tablecam/tracker"
	"tablecam/vision"
	"tablecam/vision/card"
	"tablecam/vision/rolls"
)

func (a *app) benchCmd() *cobra.Command {
	var loops int
	var unpaced bool
	var voice string
	var keep string
	cmd := &cobra.Command{
		Use:   "bench [--loops N] [--unpaced]",
		Short: "Measure the live pipeline on the recorded demo scene: latency, CPU share, memory",
		Long: `Measure the live pipeline as a group runs it: the demo's table scene is written as
a 30 fps 720p MJPG video, then played at its frame rate (as a camera delivers it)
through the camera pipeline into a session and the announcers. Reports the time
from the frame the dice stopped in to the announcement (and to the voice engine
starting, with --voice), the CPU share of all cores, and the resident memory
after every loop. --loops N plays it N times into one session (a 30-minute session
is about 100 loops); --unpaced processes frames as fast as possible (memory only).
With --vision-dice-reader learned the learned reader reads the dice (vats and
assist taught to it with tablecam learn dice --reader learned).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := (perf.Options{Loops: loops}).Validate(); err != nil {
				return fmt.Errorf("--loops: %w", err)
			}
			if voice != "on" && voice != "off" {
				return fmt.Errorf("--voice must be on or off, got %q", voice)
			}
			ctx := cmd.Context()
			errw := cmd.ErrOrStderr()
			c, err := a.content()
			if err != nil {
				return err
			}
			tmp, err := os.MkdirTemp("", "tablecam-bench-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			markers, err := a.markerMap(a.cfg.Vision.Markers)
			if err != nil {
				return err
			}
			video := filepath.Join(tmp, "demo.avi")
			if keep != "" {
				video = keep
			}
			cat := a.catalog()
			fmt.Fprint(errw, cat.T("benchRender", video))
			rec, err := demo.WriteVideo(ctx, c, markers, video)
			if err != nil {
				return err
			}
			s, done, err := a.scratchSession(ctx, c, "bench")
			if err != nil {
				return err
			}
			defer done()
			sets := []string{"vats", "assist"}
			det, err := a.diceDetector(c, sets, errw)
			if err != nil {
				return err
			}
			defer det.Close()
			var learned *learnedReader
			if a.cfg.Vision.DiceReader == config.DiceReaderLearned {
				if learned, err = a.playLearnedReader(c, sets); err != nil {
					return err
				}
				defer learned.Close()
			}
			cr, err := a.cardReader(false)
			if err != nil {
				return err
			}
			defer cr.Close()
			starts := &perf.Starts{}
			var out announce.Multi
			if voice == "on" {
				v := announce.NewVoice(announce.VoiceOptions{Engine: a.cfg.Voice.Engine, Rate: a.cfg.Voice.Rate, Voices: a.cfg.Voice.Voices(),
					Logger: a.log, Notice: a.notice, WAVDir: filepath.Join(tmp, "wav"), QueueSize: 64, Started: starts.Started})
				defer v.Close()
				out = append(out, v)
			}
			rep, err := perf.Run(ctx, perf.Options{
				Video: video, Settles: rec.Settles, Rolls: rec.Rolls, Loops: loops, Unpaced: unpaced,
				NewDice: func() (vision.DiceReader, func(), error) {
					r := newBackgroundReader(det, cr, learned)
					return r.Read, func() { r.Close() }, nil
				},
				NewCards: func() live.CardReader {
					return card.NewWatcher(cr, card.TrackerConfig{StableFrames: a.cfg.Vision.CardFrames})
				},
				Session: s, Announce: out, VoiceStarts: starts,
				Roll:     rolls.Config{SettleFrames: a.cfg.Vision.SettleFrames},
				Progress: func(line string) { fmt.Fprintln(errw, sayLines(cat, line)) },
				// Each loop is a new game set up as in the demo; the camera
				// does the rest.
				Before: func(ctx context.Context, _ int) error {
					for _, line := range demo.Script()[0].Lines {
						ev, ok, err := tracker.ParseLine(c, line)
						if err != nil || !ok {
							return fmt.Errorf("bench setup %q: %v", line, err)
						}
						if _, err := s.Submit(ctx, ev); err != nil {
							return fmt.Errorf("bench setup %q: %w", line, err)
						}
					}
					return nil
				},
			})
			if err != nil {
				return err
			}
			a.log.Debug("bench rolls (settle frame, decided frame)", "pairs", rep.Pairs, "settles", rec.Settles)
			fmt.Fprint(cmd.OutOrStdout(), cat.T("benchScene", cat.Count(rec.Frames, "frames"), demo.Width, demo.Height, rec.FPS, cat.Count(rec.Rolls, "rolls")))
			fmt.Fprint(cmd.OutOrStdout(), benchReport(cat, rep))
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&loops, "loops", 1, "play the recorded scene this many times into one session")
	f.BoolVar(&unpaced, "unpaced", false, "process frames as fast as possible (memory figures only)")
	f.StringVar(&voice, "voice", "on", "on: speak the announcements (to WAV files) and time the voice engine's start; off: do not")
	f.StringVar(&keep, "video", "", "write the recorded scene to this file (kept) instead of a temporary one")
	return cmd
}

// benchReport says a bench report in the catalog's language, the figures
// as perf.Report.String gives them.
func benchReport(cat *tracker.Catalog, r perf.Report) string {
	var b strings.Builder
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	b.WriteString(cat.T("benchCounts", r.Frames, r.Skipped, r.Rolls, r.Expected, r.Cards, r.Applied, r.Rejected))
	b.WriteString(cat.T("benchCPU", r.Wall.Seconds(), r.CPU.Seconds(), 100*r.CPUShare(), r.Cores, float64(r.CPU.Microseconds())/1000/float64(max(1, r.Frames))))
	if len(r.SettleFrames) > 0 {
		b.WriteString(cat.T("benchSettle", perf.Quantile(r.SettleFrames, 0.5), perf.Quantile(r.SettleFrames, 0.95)))
	}
	if len(r.ToAnnounce) > 0 {
		b.WriteString(cat.T("benchAnnounce", ms(perf.Quantile(r.ToAnnounce, 0.5)), ms(perf.Quantile(r.ToAnnounce, 0.95)), len(r.ToAnnounce)))
	}
	if len(r.ToVoice) > 0 {
		b.WriteString(cat.T("benchVoice", ms(perf.Quantile(r.ToVoice, 0.5)), ms(perf.Quantile(r.ToVoice, 0.95))))
	}
	if n := len(r.Memory); n > 0 {
		var peak int64
		for _, m := range r.Memory {
			peak = max(peak, m.RSS)
		}
		b.WriteString(cat.T("benchRSS", mib(r.Memory[0].RSS), mib(r.Memory[n-1].RSS), mib(peak), r.MemoryGrowth()/1024))
		if r.Memory[n-1].Mats >= 0 {
			b.WriteString(cat.T("benchMats", r.Memory[0].Mats, r.Memory[n-1].Mats))
		}
	}
	return b.String()
}

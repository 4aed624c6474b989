package vision_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"tablecam/frame"
	"tablecam/models"
	"tablecam/vision"
	"tablecam/vision/background"
	"tablecam/vision/motion"
	"tablecam/vision/rolls"
	"tablecam/vision/synth"
)

// pipeBenchCPU is the CPU time the process used so far (user + system).
func pipeBenchCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pipeBenchSource plays a rendered sequence over and over, keeping the
// rendering out of the benchmark's time and CPU count.
type pipeBenchSource struct {
	b      *testing.B
	seq    *synth.Sequence
	next   int
	render time.Duration // CPU spent rendering
}

func (s *pipeBenchSource) Read(ctx context.Context) (frame.Frame, error) {
	s.b.StopTimer()
	defer s.b.StartTimer()
	c0 := pipeBenchCPU()
	i := s.next % s.seq.Len()
	img, _, err := s.seq.Frame(i)
	s.render += pipeBenchCPU() - c0
	if err != nil {
		return frame.Frame{}, err
	}
	f := frame.Frame{Mat: img, Index: s.next}
	s.next++
	return f, nil
}

func (s *pipeBenchSource) Close() error { return nil }

// BenchmarkPipelineFrame720p runs the whole per-frame path — Motion, the
// DiceDetector behind a background.Reader (which learns the empty table in
// the first frames), the rolls.Tracker — over 1280×720 rolling sequences
// with 3 … 6 dice (V.A.T.S., assist, d6): an empty table, a throw, still
// frames, a reroll, a hand passing. cpu-ms/frame is the CPU time of the
// path alone (rendering excluded; OpenCV's loops on one thread as the CLI runs them, every thread counted); read-% is
// the share of frames the detector ran on (the quiet ones).
//
//	go test -run '^$' -bench BenchmarkPipelineFrame720p -benchtime 600x ./vision/
func BenchmarkPipelineFrame720p(b *testing.B) {
	benchOneThread(b)
	c, profs := diceDefaultProfiles(b, "vats", "assist", "d6")
	for nd := 3; nd <= 6; nd++ {
		b.Run(fmt.Sprintf("dice%d", nd), func(b *testing.B) {
			pipeBench(b, c, profs, nd)
		})
	}
}

func pipeBench(b *testing.B, c *models.Content, profs []*vision.DiceProfile, nd int) {
	sc := synth.Scene{Seed: synth.EvalSeedMin + 3_950_000 + int64(nd), Width: 1280, Height: 720, Noise: 2,
		Background: synth.Backgrounds()[nd%6], JPEGQuality: 85}
	for k := range nd {
		sc.Dice = append(sc.Dice, synth.DieSpec{Set: []string{"vats", "vats", "vats", "assist", "d6", "d6"}[k]})
	}
	seq, err := synth.NewSequence(c, synth.SequenceSpec{Scene: sc, Script: []synth.Step{
		{Kind: synth.StepWait, Frames: 20}, {Kind: synth.StepThrow}, {Kind: synth.StepWait, Frames: 30},
		{Kind: synth.StepReroll, Die: 0}, {Kind: synth.StepWait, Frames: 30},
		{Kind: synth.StepHandPass}, {Kind: synth.StepWait, Frames: 20},
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer seq.Close()
	det, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
	if err != nil {
		b.Fatal(err)
	}
	defer det.Close()
	bg := background.New(det, background.Config{})
	defer bg.Close()
	m := motion.New(motion.Config{})
	defer m.Close()
	src := &pipeBenchSource{b: b, seq: seq}
	p := rolls.NewPipeline(src, m, bg.Read, rolls.NewTracker(rolls.Config{}))
	ctx := context.Background()
	reads, nRolls := 0, 0
	b.ResetTimer()
	start := pipeBenchCPU()
	for range b.N {
		s, err := p.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if s.ReadErr != nil {
			b.Fatal(s.ReadErr)
		}
		if s.Read {
			reads++
		}
		for _, e := range s.Events {
			if _, ok := e.(rolls.Roll); ok {
				nRolls++
			}
		}
		s.Frame.Close()
	}
	b.StopTimer()
	cpu := pipeBenchCPU() - start - src.render
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/frame")
	b.ReportMetric(100*float64(reads)/float64(b.N), "read-%")
	if b.N >= seq.Len() && nRolls == 0 {
		b.Errorf("no roll over %d frames of a sequence of %d", b.N, seq.Len())
	}
}

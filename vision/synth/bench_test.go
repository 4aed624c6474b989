package synth

import (
	"context"
	"syscall"
	"testing"
	"time"

	"tablecam/models"
)

// cpuTime is the CPU time (user + system, all threads) used by the process
// so far. Benchmarks report it per operation as cpu-ms/op: on a shared,
// loaded machine it is a steadier measure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func benchContent(b *testing.B) *models.Content {
	b.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkRender720p renders a 1280×720 scene with five dice (three
// V.A.T.S., an assist die and a d6) on wood with shadows, a normal light.
func BenchmarkRender720p(b *testing.B) {
	c := benchContent(b)
	spec := Scene{Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}, {Set: "d6"}}}
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for i := 0; i < b.N; i++ {
		spec.Seed = int64(i)
		m, _, err := Render(c, spec)
		if err != nil {
			b.Fatal(err)
		}
		m.Close()
	}
}

// BenchmarkRender720pFull is BenchmarkRender720p with every option on:
// tilt, uneven warm light, glare, a hand, blur, noise and JPEG.
func BenchmarkRender720pFull(b *testing.B) {
	c := benchContent(b)
	spec := Scene{
		Dice:       []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}, {Set: "d6"}, {Set: "d20"}},
		Background: BackgroundPlaymat, Tilt: 20, Lighting: Lighting{Level: 0.7, Temperature: -0.5, Gradient: 0.5, Glare: 0.6},
		Hand: Hand{Present: true}, Blur: 1, Noise: 4, JPEGQuality: 80,
	}
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for i := 0; i < b.N; i++ {
		spec.Seed = int64(i)
		m, _, err := Render(c, spec)
		if err != nil {
			b.Fatal(err)
		}
		m.Close()
	}
}

// BenchmarkSequenceFrame720p reads the frames of a throw-and-reroll
// sequence (noise on) and reports the time per frame.
func BenchmarkSequenceFrame720p(b *testing.B) {
	c := benchContent(b)
	spec := SequenceSpec{
		Scene:  Scene{Seed: 3, Noise: 3, Dice: []DieSpec{{Set: "vats"}, {Set: "vats"}, {Set: "vats"}, {Set: "assist"}}},
		Script: []Step{{Kind: StepThrow}, {Kind: StepWait, Frames: 10}, {Kind: StepReroll, Die: 2}, {Kind: StepWait, Frames: 10}},
	}
	seq, err := NewSequence(c, spec)
	if err != nil {
		b.Fatal(err)
	}
	defer seq.Close()
	ctx := context.Background()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for i := 0; i < b.N; i++ {
		f, err := seq.Read(ctx)
		if err != nil {
			seq.Rewind()
			f, err = seq.Read(ctx)
			if err != nil {
				b.Fatal(err)
			}
		}
		f.Close()
	}
}

package vision_test

import (
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// diceCPU is the CPU time the process used so far (user + system): on a
// shared machine a steadier measure than wall time.
func diceCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReadDice720p reads 1280×720 frames with 3 … 6 dice (V.A.T.S.,
// assist and d6 on every table) with the V.A.T.S., assist and d6 profiles,
// with and without a reference frame. One goroutine, OpenCV's loops on one
// thread as the CLI runs them (cpu-ms/op counts every thread).
//
//	go test -run '^$' -bench BenchmarkReadDice720p -benchtime 200x ./vision/
func BenchmarkReadDice720p(b *testing.B) {
	benchOneThread(b)
	c, profs := diceDefaultProfiles(b, "vats", "assist", "d6")
	const n = 24
	var imgs, bgs []gocv.Mat
	defer func() {
		for i := range imgs {
			imgs[i].Close()
			bgs[i].Close()
		}
	}()
	for i := range n {
		sc := synth.Scene{Seed: synth.EvalSeedMin + 90000 + int64(i), Noise: 2, Background: synth.Backgrounds()[i%6]}
		for k := range 3 + i%4 {
			sc.Dice = append(sc.Dice, synth.DieSpec{Set: []string{"vats", "vats", "vats", "assist", "d6", "d6"}[k]})
		}
		img, bg, _ := diceRender(b, c, sc)
		imgs = append(imgs, img)
		bgs = append(bgs, bg)
	}
	for _, ref := range []bool{true, false} {
		name := "noref"
		if ref {
			name = "ref"
		}
		b.Run(name, func(b *testing.B) {
			dets := make([]*vision.DiceDetector, n)
			for i := range dets {
				d, err := vision.NewDiceDetector(c, profs, vision.DiceConfig{})
				if err != nil {
					b.Fatal(err)
				}
				defer d.Close()
				if ref {
					d.SetBackground(bgs[i])
				}
				dets[i] = d
			}
			b.ResetTimer()
			start := diceCPU()
			for i := 0; i < b.N; i++ {
				if _, err := dets[i%n].Read(imgs[i%n]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(diceCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

package demo

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/models"
	"tablecam/vision/marker"
	"tablecam/vision/synth"
)

// Recording is the truth about the demo written as one video.
type Recording struct {
	// Frames is the number of frames, FPS their rate.
	Frames int
	FPS    int
	// Settles are the frames at which all dice came to rest (after a throw,
	// a reroll, or a hand passing), in order.
	Settles []int
	// Rolls is the number of throws and rerolls filmed: the roll events a
	// perfect reader emits.
	Rolls int
	// Cards are the frames at which a card is first held up.
	Cards []int
}

// WriteVideo renders every camera segment of the demo (the dice and the
// card, without the typed steps) into one MJPG .avi at 30 fps: the
// recorded table scene the latency and load figures are measured on.
func WriteVideo(ctx context.Context, c *models.Content, m *marker.Map, path string) (Recording, error) {
	vw, err := gocv.VideoWriterFile(path, "MJPG", 30, Width, Height, true)
	if err != nil {
		return Recording{}, fmt.Errorf("demo video %s: %w", path, err)
	}
	if !vw.IsOpened() {
		vw.Close()
		return Recording{}, fmt.Errorf("demo video %s: OpenCV cannot write MJPG .avi files", path)
	}
	rec := Recording{FPS: 30}
	write := func(src frame.Source) error {
		for {
			f, err := src.Read(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			err = vw.Write(f.Mat)
			f.Close()
			if err != nil {
				return err
			}
			rec.Frames++
		}
	}
	for i, st := range Script() {
		switch {
		case st.Dice != nil:
			seq, err := synth.NewSequence(c, *st.Dice)
			if err != nil {
				vw.Close()
				return rec, fmt.Errorf("demo step %d: %w", i+1, err)
			}
			off := rec.Frames
			for _, f := range seq.Settles() {
				rec.Settles = append(rec.Settles, off+f)
			}
			for _, s := range st.Dice.Script {
				if s.Kind == synth.StepThrow || s.Kind == synth.StepReroll {
					rec.Rolls++
				}
			}
			err = write(seq)
			seq.Close()
			if err != nil {
				vw.Close()
				return rec, fmt.Errorf("demo step %d: %w", i+1, err)
			}
		case st.Card != "":
			src, err := newCardSource(c, m, st.Card, Seed+int64(100+i))
			if err != nil {
				vw.Close()
				return rec, fmt.Errorf("demo step %d: %w", i+1, err)
			}
			rec.Cards = append(rec.Cards, rec.Frames+cardFrom)
			err = write(src)
			src.Close()
			if err != nil {
				vw.Close()
				return rec, fmt.Errorf("demo step %d: %w", i+1, err)
			}
		}
	}
	if err := vw.Close(); err != nil {
		return rec, fmt.Errorf("demo video %s: %w", path, err)
	}
	return rec, nil
}

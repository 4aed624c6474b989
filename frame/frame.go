package frame

import (
	"context"
	"errors"
	"image"
	"time"

	"gocv.io/x/gocv"
)

// Frame is one picture from a Source.
type Frame struct {
	// Mat is the picture, 8-bit BGR. The frame owns it: Close releases it.
	Mat gocv.Mat
	// Index counts the frames a source delivered, from 0.
	Index int
	// Time is the frame's time since the start of the stream.
	Time time.Duration
	// Name says where the frame came from when it has a name of its own
	// (ImageDir: the file's path); "" otherwise.
	Name string
}

// Close releases the frame's Mat. Closing a frame twice is harmless.
func (f *Frame) Close() error {
	return f.Mat.Close()
}

// Source yields frames.
type Source interface {
	// Read returns the next frame, which the caller must Close; io.EOF at
	// the end of the stream; ctx.Err() when ctx is done.
	Read(ctx context.Context) (Frame, error)
	// Close releases the source; Read returns ErrClosed after it.
	Close() error
}

// ErrClosed is returned by Read after Close.
var ErrClosed = errors.New("vision: source is closed")

// Downscale returns a stage that shrinks every frame of src wider than
// maxWidth to maxWidth pixels, keeping the aspect ratio (area interpolation).
// Narrower frames pass through untouched; maxWidth <= 0 passes everything
// through. Closing the stage closes src.
func Downscale(src Source, maxWidth int) Source {
	return &downscale{src: src, maxWidth: maxWidth}
}

type downscale struct {
	src      Source
	maxWidth int
}

func (d *downscale) Read(ctx context.Context) (Frame, error) {
	f, err := d.src.Read(ctx)
	if err != nil {
		return f, err
	}
	w, h := f.Mat.Cols(), f.Mat.Rows()
	if d.maxWidth <= 0 || w <= d.maxWidth || h <= 0 {
		return f, nil
	}
	newH := max(1, int(float64(h)*float64(d.maxWidth)/float64(w)+0.5))
	small := gocv.NewMat()
	gocv.Resize(f.Mat, &small, image.Pt(d.maxWidth, newH), 0, 0, gocv.InterpolationArea)
	f.Mat.Close()
	f.Mat = small
	return f, nil
}

func (d *downscale) Close() error { return d.src.Close() }

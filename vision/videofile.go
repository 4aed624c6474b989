package vision

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"gocv.io/x/gocv"
)

// VideoFile is a Source reading a video file through OpenCV's FFmpeg backend
// (MJPG .avi, mp4v and H.264 .mp4 are known to work).
type VideoFile struct {
	path     string
	vc       *gocv.VideoCapture
	index    int
	interval time.Duration
	eof      bool
}

// OpenVideoFile opens the video file at path. Errors name the path; a
// missing file's error wraps fs.ErrNotExist.
func OpenVideoFile(path string) (*VideoFile, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("vision: video file: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("vision: video file %s is a directory", path)
	}
	vc, err := gocv.VideoCaptureFileWithAPI(path, gocv.VideoCaptureFFmpeg)
	if err != nil || !vc.IsOpened() {
		if vc != nil {
			vc.Close()
		}
		return nil, fmt.Errorf("vision: video file %s: OpenCV cannot open it (not a video, or a codec FFmpeg lacks)", path)
	}
	fps := vc.Get(gocv.VideoCaptureFPS)
	if fps <= 0 || fps > 1000 {
		fps = 30
	}
	return &VideoFile{path: path, vc: vc, interval: time.Duration(float64(time.Second) / fps)}, nil
}

// FPS returns the frame rate the frame times are spaced by (the file's, or
// 30 when the file does not say).
func (v *VideoFile) FPS() float64 { return float64(time.Second) / float64(v.interval) }

// Read returns the next frame, io.EOF after the last one. Frame times are
// the frame index divided by the frame rate.
func (v *VideoFile) Read(ctx context.Context) (Frame, error) {
	if v.vc == nil {
		return Frame{}, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return Frame{}, err
	}
	if v.eof {
		return Frame{}, io.EOF
	}
	mat := gocv.NewMat()
	if !v.vc.Read(&mat) || mat.Empty() {
		mat.Close()
		v.eof = true
		return Frame{}, io.EOF
	}
	f := Frame{Mat: mat, Index: v.index, Time: time.Duration(v.index) * v.interval}
	v.index++
	return f, nil
}

// Close releases the video file.
func (v *VideoFile) Close() error {
	if v.vc == nil {
		return nil
	}
	err := v.vc.Close()
	v.vc = nil
	return err
}

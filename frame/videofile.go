package frame

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
	// count is the file's frame count (0 when it does not say); skipped
	// counts the frames that could not be decoded.
	count   int
	skipped int
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
	count := int(vc.Get(gocv.VideoCaptureFrameCount))
	if count < 0 || count > 1<<30 {
		count = 0
	}
	return &VideoFile{path: path, vc: vc, interval: time.Duration(float64(time.Second) / fps), count: count}, nil
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
	// A frame that cannot be decoded is skipped and counted. The file ends
	// when a read fails with no frames left by its frame count, or after
	// maxBadFrames failures in a row (a truncated file: the frames its
	// header promised but that are missing count as skipped).
	const maxBadFrames = 30
	for bad := 0; ; bad++ {
		if bad > 0 && (v.count == 0 || v.index >= v.count || bad >= maxBadFrames) {
			if v.count > v.index {
				v.skipped += v.count - v.index
			}
			v.eof = true
			return Frame{}, io.EOF
		}
		mat := gocv.NewMat()
		ok := v.vc.Read(&mat)
		if ok && !mat.Empty() && mat.Type() == gocv.MatTypeCV8UC3 && mat.Cols() <= maxImageSide && mat.Rows() <= maxImageSide {
			f := Frame{Mat: mat, Index: v.index, Time: time.Duration(v.index) * v.interval}
			v.index++
			return f, nil
		}
		mat.Close()
		if v.count > v.index {
			// The file says more frames follow: skip this one.
			v.skipped++
			v.index++
		}
		if err := ctx.Err(); err != nil {
			return Frame{}, err
		}
	}
}

// Skipped returns the number of frames that could not be decoded so far.
func (v *VideoFile) Skipped() int { return v.skipped }

// Close releases the video file.
func (v *VideoFile) Close() error {
	if v.vc == nil {
		return nil
	}
	err := v.vc.Close()
	v.vc = nil
	return err
}

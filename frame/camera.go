package frame

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"gocv.io/x/gocv"
)

// Defaults of [Camera]'s limits.
const (
	// DefaultMaxFailures is the number of failed or unusable camera reads in
	// a row after which [Camera.Read] gives up with [ErrCameraLost].
	DefaultMaxFailures = 30
	// DefaultMaxSilence is how long [Camera.Read] keeps trying after the
	// last good frame before it gives up with [ErrCameraLost] (a hung
	// camera makes each read wait for OpenCV's timeout).
	DefaultMaxSilence = 5 * time.Second
)

// ErrCameraLost is matched (errors.Is) by the error [Camera.Read] returns
// once the camera stopped delivering frames; the error is a
// *[CameraLostError]. Call [Camera.Reopen], with a pause between tries.
var ErrCameraLost = errors.New("vision: camera lost")

// CameraLostError says why a camera was given up on.
type CameraLostError struct {
	// Device is the device as given to OpenCamera.
	Device string
	// Failures is the number of failed reads in a row.
	Failures int
	// Silence is the time since the last good frame (or since opening).
	Silence time.Duration
	// Unplugged is set when the device node disappeared.
	Unplugged bool
}

// Error says which camera was lost and why.
func (e *CameraLostError) Error() string {
	if e.Unplugged {
		return fmt.Sprintf("vision: camera %q lost: the device disappeared (unplugged?)", e.Device)
	}
	return fmt.Sprintf("vision: camera %q lost: %d reads in a row failed, no frame for %v", e.Device, e.Failures, e.Silence.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrCameraLost) true.
func (e *CameraLostError) Is(target error) bool { return target == ErrCameraLost }

// noCameraHint ends the errors of a camera that cannot be opened.
const noCameraHint = `check the cable, list cameras with "ls /dev/video*", pick one with --camera-device, or run "tablecam play --demo"`

// grabber is the part of gocv.VideoCapture a Camera uses; tests fake it.
type grabber interface {
	Read(m *gocv.Mat) bool
	Close() error
}

// Camera is a Source reading a live camera through OpenCV (V4L2 on Linux).
// A frame that arrives empty, of another size than the first, or in an
// unusable format is skipped and counted by Skipped. Frame times are
// measured from the first frame. Read blocks in OpenCV until the camera
// delivers a frame or fails; ctx is checked between reads.
type Camera struct {
	device   string
	devDir   string // folder of the device nodes (/dev)
	path     string // device node checked for unplugging; "" for none
	open     func() (grabber, error)
	vc       grabber
	w, h     int     // frame size the camera reported; 0 if it did not
	fw, fh   int     // size of the first usable frame; 0 until then
	fps      float64 // rate the camera reported
	index    int
	start    time.Time
	lastGood time.Time // last good frame, or when opened
	now      func() time.Time
	skipped  atomic.Int64
	failures int
	lost     error
	closed   bool

	// MaxFailures is the number of failed reads in a row after which Read
	// returns ErrCameraLost; 0 means DefaultMaxFailures.
	MaxFailures int
	// MaxSilence is how long after the last good frame a failed read makes
	// Read return ErrCameraLost; 0 means DefaultMaxSilence.
	MaxSilence time.Duration
}

// OpenCamera opens a camera. device is an index ("0", the camera at
// /dev/video0), a device path ("/dev/video2", "/dev/v4l/by-id/…"), or a
// stream URL (containing "://", e.g. a phone camera app's). width, height
// and fps are requested from the camera (0 leaves its default); it picks
// its nearest mode, which [Camera.Size] and [Camera.FPS] report. Motion
// JPEG is requested, which most USB cameras need for 720p at 30 fps.
//
// A camera that does not exist gives an error wrapping fs.ErrNotExist that
// names the device and says what to try.
func OpenCamera(device string, width, height, fps int) (*Camera, error) {
	return openCamera("/dev", device, width, height, fps)
}

// openCamera is OpenCamera with the folder of the device nodes given.
func openCamera(devDir, device string, width, height, fps int) (*Camera, error) {
	fail := func(format string, args ...any) (*Camera, error) {
		return nil, fmt.Errorf("vision: open camera %q: "+format, append([]any{device}, args...)...)
	}
	if width < 0 || height < 0 || fps < 0 || width > maxImageSide || height > maxImageSide || fps > 1000 {
		return fail("cannot ask for %dx%d at %d fps", width, height, fps)
	}
	linux := runtime.GOOS == "linux"
	var (
		open func() (*gocv.VideoCapture, error)
		path string
	)
	switch d := strings.TrimSpace(device); {
	case d == "":
		return fail("no device given: want an index such as 0 or a path such as /dev/video2")
	case strings.Contains(d, "://"):
		open = func() (*gocv.VideoCapture, error) { return gocv.VideoCaptureFileWithAPI(d, gocv.VideoCaptureAny) }
	case isDigits(d):
		idx, err := strconv.Atoi(d)
		if err != nil || idx > 9999 {
			return fail("device index out of range")
		}
		if linux {
			path = filepath.Join(devDir, "video"+strconv.Itoa(idx))
		}
		open = func() (*gocv.VideoCapture, error) {
			if linux {
				return gocv.VideoCaptureDeviceWithAPI(idx, gocv.VideoCaptureV4L2)
			}
			return gocv.VideoCaptureDevice(idx)
		}
	case strings.ContainsRune(d, '/') || strings.ContainsRune(d, filepath.Separator):
		path = d
		open = func() (*gocv.VideoCapture, error) {
			api := gocv.VideoCaptureAny
			if linux {
				api = gocv.VideoCaptureV4L2
			}
			return gocv.VideoCaptureFileWithAPI(d, api)
		}
	default:
		return fail("want an index such as 0, a path such as /dev/video2, or a stream URL")
	}
	if path != "" {
		if err := checkDeviceNode(devDir, path); err != nil {
			return fail("%w", err)
		}
	}
	c := &Camera{device: device, devDir: devDir, path: path, now: time.Now}
	c.open = func() (grabber, error) {
		vc, err := open()
		if err != nil || !vc.IsOpened() {
			if vc != nil {
				vc.Close()
			}
			return nil, errors.New("OpenCV cannot capture from it: " + captureHint(path))
		}
		if width > 0 && height > 0 {
			vc.Set(gocv.VideoCaptureFOURCC, vc.ToCodec("MJPG"))
		}
		if width > 0 {
			vc.Set(gocv.VideoCaptureFrameWidth, float64(width))
		}
		if height > 0 {
			vc.Set(gocv.VideoCaptureFrameHeight, float64(height))
		}
		if fps > 0 {
			vc.Set(gocv.VideoCaptureFPS, float64(fps))
		}
		c.w = int(vc.Get(gocv.VideoCaptureFrameWidth))
		c.h = int(vc.Get(gocv.VideoCaptureFrameHeight))
		if c.w <= 0 || c.h <= 0 || c.w > maxImageSide || c.h > maxImageSide {
			c.w, c.h = 0, 0
		}
		c.fw, c.fh = 0, 0 // the first frame fixes the size again
		c.fps = vc.Get(gocv.VideoCaptureFPS)
		return vc, nil
	}
	vc, err := c.open()
	if err != nil {
		return fail("%w", err)
	}
	c.vc = vc
	c.lastGood = c.now()
	return c, nil
}

// checkDeviceNode checks that path is a device node before OpenCV tries it,
// so that the error can say precisely what is wrong.
func checkDeviceNode(devDir, path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		found := listVideoNodes(devDir)
		if len(found) == 0 {
			return &causeError{fs.ErrNotExist, fmt.Sprintf("no such device %s, and no camera is connected (no %s): %s",
				path, filepath.Join(devDir, "video*"), noCameraHint)}
		}
		return &causeError{fs.ErrNotExist, fmt.Sprintf("no such device %s (found %s): %s", path, strings.Join(found, ", "), noCameraHint)}
	}
	if err != nil {
		return fmt.Errorf("%w: %s", err, noCameraHint)
	}
	if runtime.GOOS != "linux" {
		return nil
	}
	if fi.Mode()&fs.ModeCharDevice == 0 {
		return fmt.Errorf("%s is not a camera device: %s", path, noCameraHint)
	}
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrPermission) {
		return &causeError{fs.ErrPermission, fmt.Sprintf("%s: permission denied: add yourself to the \"video\" group (sudo usermod -aG video $USER, then log in again)", path)}
	}
	if err != nil {
		return fmt.Errorf("%w: %s", err, noCameraHint)
	}
	f.Close()
	return nil
}

// causeError is an error with its own message that matches a cause (such
// as fs.ErrNotExist) with errors.Is without repeating the cause's text.
type causeError struct {
	cause error
	msg   string
}

func (e *causeError) Error() string { return e.msg }
func (e *causeError) Unwrap() error { return e.cause }

// listVideoNodes returns the video* entries of devDir, sorted.
func listVideoNodes(devDir string) []string {
	found, _ := filepath.Glob(filepath.Join(devDir, "video*"))
	slices.Sort(found)
	return found
}

// captureHint says why OpenCV might fail on an existing device node.
func captureHint(path string) string {
	if path == "" {
		return "check the address and that the stream is running, or run \"tablecam play --demo\""
	}
	return "it may be in use by another program, or be a camera's metadata node " +
		"(cameras often add two /dev/video nodes: try the next number); " + noCameraHint
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// Device returns the device as given to OpenCamera.
func (c *Camera) Device() string { return c.device }

// Size returns the frame size the camera delivers (after it chose its
// nearest mode): the first frame's, or before it the size the camera
// reported (0, 0 if it did not).
func (c *Camera) Size() (width, height int) {
	if c.fw > 0 {
		return c.fw, c.fh
	}
	return c.w, c.h
}

// FPS returns the frame rate the camera reported (0 when it did not say).
func (c *Camera) FPS() float64 { return c.fps }

// Skipped returns how many reads failed or gave an unusable frame so far.
// It is safe to call from any goroutine.
func (c *Camera) Skipped() int { return int(c.skipped.Load()) }

// Read returns the next good frame. After MaxFailures failed reads in a
// row, a failed read MaxSilence after the last good frame, or at once when
// the device node disappears, it returns a
// *CameraLostError (errors.Is(err, ErrCameraLost)), and keeps returning it
// until Reopen succeeds.
func (c *Camera) Read(ctx context.Context) (Frame, error) {
	if c.closed {
		return Frame{}, ErrClosed
	}
	if c.lost != nil {
		return Frame{}, c.lost
	}
	limit, silence := c.MaxFailures, c.MaxSilence
	if limit <= 0 {
		limit = DefaultMaxFailures
	}
	if silence <= 0 {
		silence = DefaultMaxSilence
	}
	mat := gocv.NewMat()
	for {
		if err := ctx.Err(); err != nil {
			mat.Close()
			return Frame{}, err
		}
		if c.vc.Read(&mat) && c.usable(&mat) {
			c.failures = 0
			t := c.now()
			c.lastGood = t
			if c.index == 0 {
				c.start = t
			}
			f := Frame{Mat: mat, Index: c.index, Time: t.Sub(c.start)}
			c.index++
			return f, nil
		}
		c.skipped.Add(1)
		c.failures++
		gone := false
		if c.path != "" {
			_, err := os.Stat(c.path)
			gone = errors.Is(err, fs.ErrNotExist)
		}
		quiet := c.now().Sub(c.lastGood)
		if gone || c.failures >= limit || quiet >= silence {
			mat.Close()
			c.lost = &CameraLostError{Device: c.device, Failures: c.failures, Silence: quiet, Unplugged: gone}
			return Frame{}, c.lost
		}
	}
}

// usable reports whether m is a frame to deliver, converting grey and BGRA
// frames to BGR in place. The first usable frame after opening fixes the
// size; frames of another size are unusable.
func (c *Camera) usable(m *gocv.Mat) bool {
	if m.Empty() || m.Cols() <= 0 || m.Rows() <= 0 {
		return false
	}
	switch m.Type() {
	case gocv.MatTypeCV8UC3:
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(*m, m, gocv.ColorGrayToBGR)
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(*m, m, gocv.ColorBGRAToBGR)
	default:
		return false
	}
	if c.fw == 0 {
		c.fw, c.fh = m.Cols(), m.Rows()
	}
	return m.Cols() == c.fw && m.Rows() == c.fh
}

// Reopen closes the camera's connection and opens the device again with
// the same requests, for use after ErrCameraLost (wait between tries, e.g.
// doubling from 0.5 s up to 5 s). Frame indices, times and Skipped go on
// from where they were.
func (c *Camera) Reopen() error {
	if c.closed {
		return ErrClosed
	}
	if c.vc != nil {
		c.vc.Close()
		c.vc = nil
	}
	if c.path != "" {
		if err := checkDeviceNode(c.devDir, c.path); err != nil {
			return fmt.Errorf("vision: reopen camera %q: %w", c.device, err)
		}
	}
	vc, err := c.open()
	if err != nil {
		return fmt.Errorf("vision: reopen camera %q: %w", c.device, err)
	}
	c.vc, c.lost, c.failures, c.lastGood = vc, nil, 0, c.now()
	return nil
}

// Close releases the camera; Read returns ErrClosed after it. Closing twice
// is harmless.
func (c *Camera) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	if c.vc != nil {
		c.vc.Close()
		c.vc = nil
	}
	return nil
}

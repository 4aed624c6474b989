package frame

import (
	"context"
	"errors"
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

func TestOpenCameraMissingDeviceSaysWhatToTry(t *testing.T) {
	hints := []string{`"ls /dev/video*"`, "--camera-device", `"tablecam play --demo"`, "check the cable"}
	check := func(t *testing.T, err error, wants ...string) {
		t.Helper()
		if err == nil {
			t.Fatal("no error")
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("error does not wrap fs.ErrNotExist: %v", err)
		}
		for _, w := range append(wants, hints...) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not contain %q", err, w)
			}
		}
	}

	dev := t.TempDir()
	_, err := openCamera(dev, "0", 1280, 720, 30)
	check(t, err, `open camera "0"`, "no such device "+filepath.Join(dev, "video0"), "no camera is connected")

	// With other cameras present, the error lists them.
	for _, n := range []string{"video3", "video2"} {
		os.WriteFile(filepath.Join(dev, n), nil, 0o644)
	}
	_, err = openCamera(dev, "1", 1280, 720, 30)
	check(t, err, `open camera "1"`, "found "+filepath.Join(dev, "video2")+", "+filepath.Join(dev, "video3"))

	_, err = openCamera(dev, "/dev/v4l/by-id/no-such-camera", 0, 0, 0)
	check(t, err, `open camera "/dev/v4l/by-id/no-such-camera"`, "no such device /dev/v4l/by-id/no-such-camera")

	// On this machine, through the public function.
	if _, err := os.Stat("/dev/video0"); err == nil {
		t.Skip("this machine has a camera")
	}
	_, err = OpenCamera("0", 1280, 720, 30)
	check(t, err, `open camera "0": no such device /dev/video0`)
	t.Logf("the message: %v", err)
}

func TestOpenCameraBadDevices(t *testing.T) {
	dev := t.TempDir()
	regular := filepath.Join(dev, "video0")
	os.WriteFile(regular, []byte("not a camera"), 0o644)
	cases := []struct {
		device   string
		w, h, fp int
		want     string
	}{
		{"", 0, 0, 0, "no device given"},
		{"  ", 0, 0, 0, "no device given"},
		{"front", 0, 0, 0, "want an index such as 0"},
		{"-1", 0, 0, 0, "want an index such as 0"},
		{"99999999999999999999", 0, 0, 0, "out of range"},
		{"0", -1, 720, 30, "cannot ask for -1x720"},
		{"0", 1280, 720, 5000, "at 5000 fps"},
		{"0", 100000, 720, 30, "cannot ask for"},
		{regular, 0, 0, 0, "is not a camera device"},
		{"0", 0, 0, 0, "is not a camera device"},
	}
	for _, c := range cases {
		cam, err := openCamera(dev, c.device, c.w, c.h, c.fp)
		if err == nil {
			cam.Close()
			t.Errorf("%q: no error", c.device)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "open camera") {
			t.Errorf("%q %dx%d@%d: %v, want %q", c.device, c.w, c.h, c.fp, err, c.want)
		}
	}
}

func TestOpenCameraNotACaptureDevice(t *testing.T) {
	// /dev/null is a character device that OpenCV's V4L2 backend rejects.
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	cam, err := OpenCamera("/dev/null", 640, 480, 30)
	if err == nil {
		cam.Close()
		t.Fatal("opened /dev/null as a camera")
	}
	if !strings.Contains(err.Error(), "OpenCV cannot capture from it") || !strings.Contains(err.Error(), "try the next number") {
		t.Errorf("error %v", err)
	}
}

// fakeGrabber plays a script of reads: "ok" a good 64×48 frame, "empty" an
// empty one, "fail" a failed read, "big" a frame of another size, "grey" a
// grey frame.
type fakeGrabber struct {
	script []string
	i      int
	closed bool
}

func (g *fakeGrabber) Read(m *gocv.Mat) bool {
	step := "fail"
	if g.i < len(g.script) {
		step = g.script[g.i]
	}
	g.i++
	var src gocv.Mat
	switch step {
	case "ok":
		src = scene(64, 48, color.RGBA{G: 90, A: 255})
	case "big":
		src = scene(80, 48, color.RGBA{G: 90, A: 255})
	case "grey":
		src = gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC1)
	case "empty":
		return true
	default:
		return false
	}
	src.CopyTo(m)
	src.Close()
	return true
}

func (g *fakeGrabber) Close() error { g.closed = true; return nil }

func fakeCamera(script ...string) (*Camera, *fakeGrabber) {
	g := &fakeGrabber{script: script}
	// The clock advances 40 ms per read, as with a 25 fps camera.
	t0 := time.Unix(1000, 0)
	c := &Camera{device: "fake", vc: g, now: func() time.Time { return t0.Add(time.Duration(g.i) * 40 * time.Millisecond) }}
	c.open = func() (grabber, error) { return g, nil }
	return c, g
}

func TestCameraSkipsBadFramesAndReportsLoss(t *testing.T) {
	c, g := fakeCamera("ok", "empty", "fail", "ok", "big", "grey", "ok")
	c.MaxFailures = 4
	ctx := context.Background()
	wantTime := []time.Duration{0, 120 * time.Millisecond, 200 * time.Millisecond, 240 * time.Millisecond}
	for i, wantSkipped := range []int{0, 2, 3, 3} {
		f, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		if f.Index != i || f.Time != wantTime[i] || f.Mat.Cols() != 64 || f.Mat.Type() != gocv.MatTypeCV8UC3 {
			t.Errorf("frame %d: index %d time %v %dx%d type %v", i, f.Index, f.Time, f.Mat.Cols(), f.Mat.Rows(), f.Mat.Type())
		}
		f.Close()
		if c.Skipped() != wantSkipped {
			t.Errorf("after frame %d: skipped %d, want %d", i, c.Skipped(), wantSkipped)
		}
	}
	if w, h := c.Size(); w != 64 || h != 48 {
		t.Errorf("size %dx%d", w, h)
	}

	// The script is over: every read fails from now on.
	_, err := c.Read(ctx)
	var lost *CameraLostError
	if !errors.Is(err, ErrCameraLost) || !errors.As(err, &lost) || lost.Failures != 4 || lost.Unplugged || lost.Device != "fake" {
		t.Fatalf("after 4 failures: %v (%+v)", err, lost)
	}
	if _, err2 := c.Read(ctx); err2 != err {
		t.Errorf("read after the loss: %v", err2)
	}

	// Reopen: frames go on where they were.
	g.script = append(g.script, make([]string, 4)...)
	g.script = append(g.script, "ok")
	g.i = len(g.script) - 1
	if err := c.Reopen(); err != nil {
		t.Fatal(err)
	}
	f, err := c.Read(ctx)
	if err != nil || f.Index != 4 {
		t.Fatalf("after Reopen: frame %d, %v", f.Index, err)
	}
	f.Close()

	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Read(ctx2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled read: %v", err)
	}
	c.Close()
	c.Close()
	if !g.closed {
		t.Error("Close did not close the capture")
	}
	if _, err := c.Read(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
	if err := c.Reopen(); !errors.Is(err, ErrClosed) {
		t.Errorf("Reopen after Close: %v", err)
	}
}

func TestCameraHungIsLostAfterSilence(t *testing.T) {
	c, _ := fakeCamera("ok", "fail", "fail", "fail", "fail")
	c.MaxFailures = 100
	c.MaxSilence = 2 * time.Second
	clock := time.Unix(1000, 0)
	c.now = func() time.Time { clock = clock.Add(700 * time.Millisecond); return clock } // each read waits
	f, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = c.Read(context.Background())
	var lost *CameraLostError
	if !errors.As(err, &lost) || lost.Failures != 3 || lost.Silence != 2100*time.Millisecond {
		t.Errorf("hung camera: %v (%+v)", err, lost)
	}
	c.Close()
}

func TestCameraUnpluggedIsLostAtOnce(t *testing.T) {
	node := filepath.Join(t.TempDir(), "video0")
	os.WriteFile(node, nil, 0o644)
	c, _ := fakeCamera("ok")
	c.path = node
	f, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Remove(node)
	_, err = c.Read(context.Background())
	var lost *CameraLostError
	if !errors.As(err, &lost) || !lost.Unplugged || lost.Failures != 1 || !strings.Contains(err.Error(), "unplugged") {
		t.Errorf("unplugged: %v", err)
	}
	c.devDir = filepath.Dir(node)
	if err := c.Reopen(); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "reopen camera") {
		t.Errorf("Reopen while unplugged: %v", err)
	}
	c.Close()
}

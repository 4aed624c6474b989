package frame

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// scene returns a w×h image of one colour with a white rectangle, like a die
// on a table; the caller closes it.
func scene(w, h int, bg color.RGBA) gocv.Mat {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(bg.B), float64(bg.G), float64(bg.R), 0), h, w, gocv.MatTypeCV8UC3)
	gocv.Rectangle(&m, image.Rect(w/4, h/4, w/2, h/2), color.RGBA{255, 255, 255, 255}, -1)
	return m
}

func writeImage(t testing.TB, path string, w, h int, bg color.RGBA) {
	t.Helper()
	m := scene(w, h, bg)
	defer m.Close()
	if !gocv.IMWrite(path, m) {
		t.Fatalf("IMWrite %s failed", path)
	}
}

// bgr returns the colour of the pixel at (x, y).
func bgr(m gocv.Mat, x, y int) [3]uint8 {
	v := m.GetVecbAt(y, x)
	return [3]uint8{v[0], v[1], v[2]}
}

var colours = []color.RGBA{{200, 0, 0, 255}, {0, 200, 0, 255}, {0, 0, 200, 255}, {90, 60, 30, 255}}

func readAll(t *testing.T, src Source) []Frame {
	t.Helper()
	var frames []Frame
	for {
		f, err := src.Read(context.Background())
		if errors.Is(err, io.EOF) {
			return frames
		}
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
}

func TestImageDirReadsInNameOrderAndSkipsCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	// Written out of order; read back in name order.
	for _, i := range []int{2, 0, 3, 1} {
		ext := []string{".png", ".jpg", ".bmp", ".PNG"}[i]
		writeImage(t, filepath.Join(dir, fmt.Sprintf("frame-%02d%s", i*2, ext)), 64, 48, colours[i])
	}
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(rand.N(256))
	}
	os.WriteFile(filepath.Join(dir, "frame-01.png"), junk, 0o644)                              // random bytes
	os.WriteFile(filepath.Join(dir, "frame-03.png"), nil, 0o644)                               // empty
	os.WriteFile(filepath.Join(dir, "frame-05.bmp"), hugeBMPHeader(3_000_000, 10), 0o644)      // would abort OpenCV
	os.WriteFile(filepath.Join(dir, "frame-07.png"), []byte("\x89PNG\r\n\x1a\nbroken"), 0o644) // truncated
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not an image"), 0o644)               // ignored
	os.Mkdir(filepath.Join(dir, "sub.png"), 0o755)                                             // ignored

	src, err := OpenImageDir(dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Len() != 8 {
		t.Errorf("Len = %d, want 8 image files", src.Len())
	}
	frames := readAll(t, src)
	defer func() {
		for i := range frames {
			frames[i].Close()
		}
	}()
	if len(frames) != 4 {
		t.Fatalf("read %d frames, want 4", len(frames))
	}
	if src.Skipped() != 4 {
		t.Errorf("Skipped = %d, want 4", src.Skipped())
	}
	for i, f := range frames {
		c := colours[i]
		want := [3]uint8{c.B, c.G, c.R}
		got := bgr(f.Mat, 2, 2)
		for k := range 3 { // JPEG is lossy
			if d := int(got[k]) - int(want[k]); d < -6 || d > 6 {
				t.Errorf("frame %d (%s): background %v, want %v", i, f.Name, got, want)
				break
			}
		}
		if white := bgr(f.Mat, 20, 15); white[0] < 240 || white[1] < 240 || white[2] < 240 {
			t.Errorf("frame %d: rectangle %v, want white", i, white)
		}
		if f.Index != i || f.Time != time.Duration(i)*100*time.Millisecond || f.Mat.Cols() != 64 || f.Mat.Rows() != 48 || f.Mat.Channels() != 3 {
			t.Errorf("frame %d: index %d time %v size %dx%dx%d", i, f.Index, f.Time, f.Mat.Cols(), f.Mat.Rows(), f.Mat.Channels())
		}
		if !strings.HasPrefix(filepath.Base(f.Name), fmt.Sprintf("frame-%02d", i*2)) {
			t.Errorf("frame %d came from %s", i, f.Name)
		}
	}
	if _, err := src.Read(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("read after the end: %v, want io.EOF", err)
	}
	src.Close()
	if _, err := src.Read(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
}

// hugeBMPHeader is a BMP header claiming a w×h picture.
func hugeBMPHeader(w, h uint32) []byte {
	b := make([]byte, 154)
	copy(b, "BM")
	binary.LittleEndian.PutUint32(b[2:], uint32(len(b)))
	binary.LittleEndian.PutUint32(b[10:], 54)
	binary.LittleEndian.PutUint32(b[14:], 40)
	binary.LittleEndian.PutUint32(b[18:], w)
	binary.LittleEndian.PutUint32(b[22:], h)
	binary.LittleEndian.PutUint16(b[26:], 1)
	binary.LittleEndian.PutUint16(b[28:], 24)
	return b
}

func TestImageDirErrors(t *testing.T) {
	if _, err := OpenImageDir(filepath.Join(t.TempDir(), "missing"), 0); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing folder: %v", err)
	}
	dir := t.TempDir()
	writeImage(t, filepath.Join(dir, "a.png"), 8, 8, colours[0])
	src, err := OpenImageDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := src.Read(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled read: %v", err)
	}
	// An empty folder is an error (TestImageDirLinksAndNothingReadable).
	if _, err := OpenImageDir(t.TempDir(), 0); err == nil {
		t.Error("empty folder opened")
	}
}

// writeVideo writes an MJPG .avi of n frames of w×h at fps.
func writeVideo(t testing.TB, path string, n, w, h int, fps float64) {
	t.Helper()
	vw, err := gocv.VideoWriterFile(path, "MJPG", fps, w, h, true)
	if err != nil {
		t.Fatal(err)
	}
	defer vw.Close()
	for i := range n {
		m := scene(w, h, colours[i%len(colours)])
		err := vw.Write(m)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestVideoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "roll.avi")
	writeVideo(t, path, 12, 160, 120, 25)
	src, err := OpenVideoFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.FPS() != 25 {
		t.Errorf("FPS = %v, want 25", src.FPS())
	}
	frames := readAll(t, src)
	if len(frames) != 12 {
		t.Errorf("read %d frames, want 12", len(frames))
	}
	for i := range frames {
		f := &frames[i]
		if f.Index != i || f.Time != time.Duration(i)*40*time.Millisecond || f.Mat.Cols() != 160 || f.Mat.Rows() != 120 {
			t.Errorf("frame %d: index %d time %v size %dx%d", i, f.Index, f.Time, f.Mat.Cols(), f.Mat.Rows())
		}
		if c := colours[i%len(colours)]; bgr(f.Mat, 2, 2)[2] < c.R/2 {
			t.Errorf("frame %d: colour %v, want about %v", i, bgr(f.Mat, 2, 2), c)
		}
		f.Close()
	}
	if _, err := src.Read(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("read after the end: %v", err)
	}
	src.Close()
	if _, err := src.Read(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
}

func TestVideoFileErrorsNameThePath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-game.avi")
	_, err := OpenVideoFile(missing)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	notVideo := filepath.Join(t.TempDir(), "notes.avi")
	os.WriteFile(notVideo, []byte("not a video"), 0o644)
	if _, err := OpenVideoFile(notVideo); err == nil || !strings.Contains(err.Error(), notVideo) {
		t.Errorf("not a video: %v", err)
	}
}

// fakeSource yields n frames of the given size.
type fakeSource struct {
	n, w, h int
	i       int
	closed  bool
}

func (s *fakeSource) Read(ctx context.Context) (Frame, error) {
	if s.i >= s.n {
		return Frame{}, io.EOF
	}
	f := Frame{Mat: scene(s.w, s.h, colours[0]), Index: s.i, Time: time.Duration(s.i) * time.Second}
	s.i++
	return f, nil
}

func (s *fakeSource) Close() error { s.closed = true; return nil }

func TestDownscale(t *testing.T) {
	cases := []struct{ w, h, max, wantW, wantH int }{
		{640, 480, 320, 320, 240},
		{1280, 720, 640, 640, 360},
		{100, 75, 320, 100, 75}, // narrower: untouched
		{333, 101, 100, 100, 30},
		{4000, 1, 100, 100, 1},
		{640, 480, 0, 640, 480}, // disabled
	}
	for _, c := range cases {
		fake := &fakeSource{n: 2, w: c.w, h: c.h}
		src := Downscale(fake, c.max)
		frames := readAll(t, src)
		if len(frames) != 2 {
			t.Fatalf("%+v: %d frames", c, len(frames))
		}
		for i := range frames {
			f := &frames[i]
			if f.Mat.Cols() != c.wantW || f.Mat.Rows() != c.wantH || f.Index != i || f.Time != time.Duration(i)*time.Second {
				t.Errorf("%+v: frame %d is %dx%d index %d time %v", c, i, f.Mat.Cols(), f.Mat.Rows(), f.Index, f.Time)
			}
			f.Close()
		}
		src.Close()
		if !fake.closed {
			t.Errorf("%+v: Close did not close the source", c)
		}
	}
}

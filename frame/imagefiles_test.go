package frame

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hugePNG is a valid PNG of a few hundred bytes whose header (IHDR, its
// CRC made right) declares w×h pixels: a 4×4 picture's PNG with the size
// patched.
func hugePNG(t testing.TB, w, h uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	// Signature (8), IHDR's length (4) and type (4), its 13 bytes of
	// data (width, height first), then its CRC over type and data.
	if string(b[12:16]) != "IHDR" {
		t.Fatal("no IHDR")
	}
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// TestReadImageFileSizeLimits: a picture whose header declares more than
// the limits (PNG, BMP, TIFF, WebP) is an error naming the file and the
// limit, wrapping ErrImageTooLarge, before anything is decoded; a PNG of
// 32000×32000 in 800 bytes made OpenCV abort the process.
func TestReadImageFileSizeLimits(t *testing.T) {
	dir := t.TempDir()
	tiff := func(w, h uint32) []byte {
		b := []byte("II*\x00\x08\x00\x00\x00\x02\x00")
		for _, e := range [][2]uint32{{256, w}, {257, h}} {
			b = binary.LittleEndian.AppendUint16(b, uint16(e[0]))
			b = binary.LittleEndian.AppendUint16(b, 4) // LONG
			b = binary.LittleEndian.AppendUint32(b, 1)
			b = binary.LittleEndian.AppendUint32(b, e[1])
		}
		return append(b, 0, 0, 0, 0)
	}
	webp := func(w, h uint32) []byte {
		b := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00")
		w, h = w-1, h-1
		return append(b, byte(w), byte(w>>8), byte(w>>16), byte(h), byte(h>>8), byte(h>>16))
	}
	pngPath := filepath.Join(dir, "huge.png")
	for name, data := range map[string][]byte{
		"huge.png": hugePNG(t, 32000, 32000), "wide.png": hugePNG(t, 1<<20+1, 1), "big.bmp": hugeBMPHeader(20000, 20000),
		"huge.tif": tiff(32000, 32000), "huge.webp": webp(40000, 100),
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := readImageFile(path)
		if err == nil {
			m.Close()
		}
		if !errors.Is(err, ErrImageTooLarge) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "16384") {
			t.Errorf("%s (%d bytes): %v", name, len(data), err)
		}
	}
	if len(hugePNG(t, 32000, 32000)) > 1000 {
		t.Errorf("the huge PNG has %d bytes", len(hugePNG(t, 32000, 32000)))
	}
	if _, err := ReadImage(pngPath); !errors.Is(err, ErrImageTooLarge) {
		t.Errorf("ReadImage: %v", err)
	}
	// Sizes within the limits pass the header check; a real picture reads.
	for _, data := range [][]byte{tiff(640, 480), webp(640, 480), hugePNG(t, 16384, 4096)} {
		if err := checkImageHeader(data); err != nil {
			t.Errorf("%q…: %v", data[:4], err)
		}
	}
	ok := filepath.Join(dir, "ok.png")
	writeImage(t, ok, 20, 10, colours[0])
	m, err := readImageFile(ok)
	if err != nil || m.Cols() != 20 || m.Rows() != 10 {
		t.Errorf("a 20×10 picture: %v", err)
	}
	m.Close()
}

// TestImageDirLinksAndNothingReadable: a folder of symbolic links to
// pictures plays them; a link to a folder is not a picture; a link to
// nothing and an oversized picture are skipped and told to OnSkip; a
// folder without pictures, or with none readable, is an error naming the
// folder and the extensions read.
func TestImageDirLinksAndNothingReadable(t *testing.T) {
	real, dir := t.TempDir(), t.TempDir()
	for i := range 2 {
		p := filepath.Join(real, []string{"a.png", "b.jpg"}[i])
		writeImage(t, p, 32, 24, colours[i])
		if err := os.Symlink(p, filepath.Join(dir, []string{"f1.png", "f2.jpg"}[i])); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(real, "huge.png"), hugePNG(t, 32000, 32000), 0o644)
	os.Symlink(filepath.Join(real, "huge.png"), filepath.Join(dir, "f3.png"))
	os.Symlink(filepath.Join(real, "gone.png"), filepath.Join(dir, "f4.png"))
	os.Symlink(real, filepath.Join(dir, "f5.png"))
	src, err := OpenImageDir(dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	var skips []string
	src.OnSkip = func(err error) { skips = append(skips, err.Error()) }
	frames := readAll(t, src)
	for i := range frames {
		frames[i].Close()
	}
	if len(frames) != 2 || !strings.HasSuffix(frames[0].Name, "f1.png") || !strings.HasSuffix(frames[1].Name, "f2.jpg") {
		t.Errorf("read %d frames", len(frames))
	}
	text := strings.Join(skips, "\n")
	if src.Skipped() != 2 || !strings.Contains(text, "f3.png: 32000×32000 pixels: too large") || !strings.Contains(text, "f4.png") {
		t.Errorf("skipped %d:\n%s", src.Skipped(), text)
	}

	empty := t.TempDir()
	os.Mkdir(filepath.Join(empty, "sub.png"), 0o755)
	os.WriteFile(filepath.Join(empty, "notes.txt"), nil, 0o644)
	if _, err := OpenImageDir(empty, 0); err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), ".jpg") {
		t.Errorf("folder without pictures: %v", err)
	}
	broken := t.TempDir()
	os.WriteFile(filepath.Join(broken, "a.png"), []byte("not a png"), 0o644)
	os.WriteFile(filepath.Join(broken, "b.png"), hugePNG(t, 32000, 32000), 0o644)
	src, err = OpenImageDir(broken, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Read(context.Background()); err == nil || errors.Is(err, io.EOF) || !strings.Contains(err.Error(), broken) || !strings.Contains(err.Error(), "none of its 2 pictures") {
		t.Errorf("folder of unreadable pictures: %v", err)
	}
}

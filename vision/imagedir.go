package vision

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"gocv.io/x/gocv"
)

// Limits on the images ImageDir decodes. OpenCV aborts the whole process
// (an uncatchable C++ exception) on an image header claiming more than
// 2^20 pixels in a row, so headers are checked in Go before OpenCV sees them.
const (
	maxImageSide   = 16384
	maxImagePixels = 1 << 26
	maxImageBytes  = 256 << 20
)

// imageExts are the file names ImageDir reads; other files are ignored.
var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".bmp": true}

// ImageDir is a Source reading the PNG, JPEG and BMP files of a folder in
// name order (so number them with leading zeros: frame-0001.png). A file
// that cannot be decoded is skipped and counted by Skipped. Frame times are
// spaced as if the files were shot at a fixed frame rate.
type ImageDir struct {
	files    []string
	next     int
	index    int
	interval time.Duration
	skipped  atomic.Int64
	closed   bool
}

// OpenImageDir lists the image files of dir (.png, .jpg, .jpeg, .bmp, any
// case; subfolders and other files are ignored). fps spaces the frame times;
// fps <= 0 means 30.
func OpenImageDir(dir string, fps float64) (*ImageDir, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("vision: image folder: %w", err)
	}
	if fps <= 0 {
		fps = 30
	}
	d := &ImageDir{interval: time.Duration(float64(time.Second) / fps)}
	for _, e := range entries { // ReadDir sorts by name
		if e.Type().IsRegular() && imageExts[strings.ToLower(filepath.Ext(e.Name()))] {
			d.files = append(d.files, filepath.Join(dir, e.Name()))
		}
	}
	return d, nil
}

// Len returns the number of image files found, including any that will be skipped.
func (d *ImageDir) Len() int { return len(d.files) }

// Skipped returns how many files could not be decoded so far. It is safe to
// call from any goroutine.
func (d *ImageDir) Skipped() int { return int(d.skipped.Load()) }

// Read returns the next image that decodes, io.EOF after the last one.
func (d *ImageDir) Read(ctx context.Context) (Frame, error) {
	for {
		if d.closed {
			return Frame{}, ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return Frame{}, err
		}
		if d.next >= len(d.files) {
			return Frame{}, io.EOF
		}
		path := d.files[d.next]
		d.next++
		mat, ok := decodeImage(path)
		if !ok {
			d.skipped.Add(1)
			continue
		}
		f := Frame{Mat: mat, Index: d.index, Time: time.Duration(d.index) * d.interval, Name: path}
		d.index++
		return f, nil
	}
}

// Close stops the source.
func (d *ImageDir) Close() error {
	d.closed = true
	return nil
}

// decodeImage reads an image file as 8-bit BGR. It returns false for a file
// that is unreadable, not PNG, JPEG or BMP, corrupt, or too large.
func decodeImage(path string) (gocv.Mat, bool) {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 || fi.Size() > maxImageBytes {
		return gocv.Mat{}, false
	}
	data, err := os.ReadFile(path)
	if err != nil || !headerOK(data) {
		return gocv.Mat{}, false
	}
	mat, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil {
		return gocv.Mat{}, false
	}
	if mat.Empty() {
		mat.Close()
		return gocv.Mat{}, false
	}
	return mat, true
}

// headerOK reports whether data starts like a PNG, JPEG or BMP image whose
// size OpenCV can decode without aborting.
func headerOK(data []byte) bool {
	var cfg image.Config
	var err error
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	case bytes.HasPrefix(data, []byte("BM")):
		cfg, err = bmpConfig(data)
	default:
		return false
	}
	if err != nil {
		return false
	}
	w, h := int64(cfg.Width), int64(cfg.Height)
	return w > 0 && h > 0 && w <= maxImageSide && h <= maxImageSide && w*h <= maxImagePixels
}

// bmpConfig reads the size from a BMP header the way OpenCV's BMP decoder
// does (12-byte core header or a 40-byte-or-longer info header).
func bmpConfig(data []byte) (image.Config, error) {
	if len(data) < 26 {
		return image.Config{}, io.ErrUnexpectedEOF
	}
	switch size := binary.LittleEndian.Uint32(data[14:18]); {
	case size == 12:
		w := int16(binary.LittleEndian.Uint16(data[18:20]))
		h := int16(binary.LittleEndian.Uint16(data[20:22]))
		return image.Config{Width: int(w), Height: abs(int(h))}, nil
	case size >= 40 && size <= 124:
		w := int32(binary.LittleEndian.Uint32(data[18:22]))
		h := int32(binary.LittleEndian.Uint32(data[22:26]))
		return image.Config{Width: int(w), Height: abs(int(h))}, nil
	}
	return image.Config{}, fmt.Errorf("unknown BMP header")
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

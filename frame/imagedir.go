package frame

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"gocv.io/x/gocv"
)

// Limits on the pictures read from files. OpenCV aborts the whole process
// (an uncatchable C++ exception) on an image header claiming more than
// 2^20 pixels in a row, and decoding a header's claim of 32000×32000 takes
// gigabytes, so headers are checked in Go before anything is decoded
// (readImageFile).
const (
	maxImageSide   = 16384
	maxImagePixels = 1 << 26
	maxImageBytes  = 256 << 20
)

// ErrImageTooLarge is wrapped by the error for a picture whose header
// declares more pixels than this program decodes.
var ErrImageTooLarge = fmt.Errorf("too large (at most %d px a side and %d pixels)", maxImageSide, maxImagePixels)

// ImageExts returns the extensions of the picture files ImageDir reads
// (other files are ignored), for [PictureFiles]; the map is the caller's.
func ImageExts() map[string]bool {
	return map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".bmp": true}
}

// ExtList is exts' names sorted and joined, for messages.
func ExtList(exts map[string]bool) string {
	var out []string
	for e := range exts {
		out = append(out, e)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// ImageDir is a Source reading the PNG, JPEG and BMP files of a folder in
// name order (so number them with leading zeros: frame-0001.png); symbolic
// links to such files are read as the files. A file that cannot be decoded
// is skipped, counted by Skipped and told to OnSkip, as is a link to no
// file. Frame times are
// spaced as if the files were shot at a fixed frame rate.
type ImageDir struct {
	// OnSkip, when set before the first Read, hears of each file skipped
	// and why (the error names the file).
	OnSkip   func(error)
	dir      string
	files    []string
	badLinks []error // links to no file, told to OnSkip at the first Read
	next     int
	index    int
	interval time.Duration
	skipped  atomic.Int64
	closed   bool
}

// OpenImageDir lists the image files of dir (.png, .jpg, .jpeg, .bmp, any
// case, or symbolic links to them; subfolders and other files are
// ignored). A folder without any is an error. fps spaces the frame times;
// fps <= 0 means 30.
func OpenImageDir(dir string, fps float64) (*ImageDir, error) {
	files, links, err := PictureFiles(dir, ImageExts())
	if err != nil {
		return nil, fmt.Errorf("vision: image folder: %w", err)
	}
	if len(files) == 0 {
		msg := fmt.Sprintf("vision: image folder %s: no pictures (reads %s files)", dir, ExtList(ImageExts()))
		if len(links) > 0 {
			msg += "; " + errors.Join(links...).Error()
		}
		return nil, errors.New(msg)
	}
	if fps <= 0 {
		fps = 30
	}
	d := &ImageDir{dir: dir, files: files, badLinks: links, interval: time.Duration(float64(time.Second) / fps)}
	return d, nil
}

// PictureFiles lists the files of dir whose extension (any case) is in
// exts, in name order, following symbolic links: a link to a file is
// listed under its own name. Links that lead nowhere (to nothing, in a
// cycle, to a folder) are not listed; the first two are returned in bad,
// each naming the link.
func PictureFiles(dir string, exts map[string]bool) (files []string, bad []error, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries { // ReadDir sorts by name
		if !exts[strings.ToLower(filepath.Ext(e.Name()))] {
			continue
		}
		path := filepath.Join(dir, e.Name())
		regular := e.Type().IsRegular()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(path)
			if err != nil {
				bad = append(bad, fmt.Errorf("%s: a link that leads to no file: %w", path, err))
				continue
			}
			regular = fi.Mode().IsRegular()
		}
		if regular {
			files = append(files, path)
		}
	}
	return files, bad, nil
}

// Subfolders lists the folders of dir, not hidden ones, in name order,
// following symbolic links: a link to a folder is listed under its own
// name. Only the folders themselves are listed, never their contents, so
// that a link cycle (a folder linking to itself or to its parent) cannot
// make the listing endless. Links that lead nowhere (to nothing, in a
// cycle) are returned in bad, each naming the link.
func Subfolders(dir string) (names []string, bad []error, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(filepath.Join(dir, e.Name()))
			if err != nil {
				bad = append(bad, fmt.Errorf("%s: a link that leads nowhere: %w", filepath.Join(dir, e.Name()), err))
				continue
			}
			isDir = fi.IsDir()
		}
		if isDir {
			names = append(names, e.Name())
		}
	}
	return names, bad, nil
}

// Len returns the number of image files found, including any that will be skipped.
func (d *ImageDir) Len() int { return len(d.files) }

// Skipped returns how many files could not be decoded so far. It is safe to
// call from any goroutine.
func (d *ImageDir) Skipped() int { return int(d.skipped.Load()) }

// Read returns the next image that decodes, io.EOF after the last one. When
// none of the folder's pictures could be read, the end is an error that
// says so instead of io.EOF.
func (d *ImageDir) Read(ctx context.Context) (Frame, error) {
	for _, err := range d.badLinks {
		d.skipped.Add(1)
		if d.OnSkip != nil {
			d.OnSkip(err)
		}
	}
	d.badLinks = nil
	for {
		if d.closed {
			return Frame{}, ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return Frame{}, err
		}
		if d.next >= len(d.files) {
			if d.index == 0 {
				return Frame{}, fmt.Errorf("vision: image folder %s: none of its %d pictures could be read (reads %s files)", d.dir, len(d.files), ExtList(ImageExts()))
			}
			return Frame{}, io.EOF
		}
		path := d.files[d.next]
		d.next++
		mat, err := readImageFile(path)
		if err != nil {
			d.skipped.Add(1)
			if d.OnSkip != nil {
				d.OnSkip(err)
			}
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

// readImageFile reads a picture file (PNG, JPEG, BMP, TIFF or WebP) as
// 8-bit BGR after checking the size its header declares (ReadImageBytes):
// every picture a user gives is read through it. The error names the file
// and wraps ErrBadImage (unreadable, not such a picture, corrupt),
// ErrImageTooLarge or the file system's error.
func readImageFile(path string) (gocv.Mat, error) {
	data, err := ReadImageBytes(path)
	if err != nil {
		return gocv.Mat{}, err
	}
	mat, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, ErrBadImage)
	}
	if mat.Empty() {
		mat.Close()
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, ErrBadImage)
	}
	return mat, nil
}

// ReadImageBytes reads a picture file whose header declares a size within
// the limits (checkImageHeader), not decoded: the check every picture
// file goes through before it is decoded, for readers that decode it
// themselves. Errors are as readImageFile's.
func ReadImageBytes(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrBadImage)
	}
	if fi.Size() > maxImageBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than %d: %w", path, fi.Size(), maxImageBytes, ErrImageTooLarge)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := checkImageHeader(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// checkImageHeader checks that data starts like a PNG, JPEG, BMP, TIFF or
// WebP image whose declared size OpenCV can decode without aborting and
// within the limits: an error wrapping ErrBadImage or ErrImageTooLarge
// otherwise.
func checkImageHeader(data []byte) error {
	w, h, err := imageHeaderSize(data)
	if err != nil {
		return ErrBadImage
	}
	return checkImageSize(w, h)
}

// checkImageSize checks a declared size against the limits.
func checkImageSize(w, h int64) error {
	if w <= 0 || h <= 0 {
		return ErrBadImage
	}
	if w > maxImageSide || h > maxImageSide || w*h > maxImagePixels {
		return fmt.Errorf("%d×%d pixels: %w", w, h, ErrImageTooLarge)
	}
	return nil
}

// imageHeaderSize reads the size a PNG, JPEG, BMP, TIFF or WebP header
// declares.
func imageHeaderSize(data []byte) (w, h int64, err error) {
	var cfg image.Config
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	case bytes.HasPrefix(data, []byte("BM")):
		cfg, err = bmpConfig(data)
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return tiffSize(data)
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return webpSize(data)
	default:
		return 0, 0, ErrBadImage
	}
	return int64(cfg.Width), int64(cfg.Height), err
}

// tiffSize reads the width and height tags of a TIFF's first image (the
// one OpenCV reads).
func tiffSize(data []byte) (w, h int64, err error) {
	var bo binary.ByteOrder = binary.LittleEndian
	if data[0] == 'M' {
		bo = binary.BigEndian
	}
	if len(data) < 8 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	off := int64(bo.Uint32(data[4:]))
	if off < 8 || off+2 > int64(len(data)) {
		return 0, 0, io.ErrUnexpectedEOF
	}
	n := int64(bo.Uint16(data[off:]))
	for i := range n {
		e := off + 2 + 12*i
		if e+12 > int64(len(data)) {
			return 0, 0, io.ErrUnexpectedEOF
		}
		tag, typ := bo.Uint16(data[e:]), bo.Uint16(data[e+2:])
		var v int64
		switch typ {
		case 3: // SHORT
			v = int64(bo.Uint16(data[e+8:]))
		case 4: // LONG
			v = int64(bo.Uint32(data[e+8:]))
		default:
			continue
		}
		switch tag {
		case 256:
			w = v
		case 257:
			h = v
		}
	}
	if w == 0 || h == 0 {
		return 0, 0, errors.New("TIFF without a size")
	}
	return w, h, nil
}

// webpSize reads the size of a WebP's first chunk: VP8 (lossy), VP8L
// (lossless) or VP8X (extended: the canvas).
func webpSize(data []byte) (w, h int64, err error) {
	if len(data) < 30 {
		return 0, 0, io.ErrUnexpectedEOF
	}
	le := binary.LittleEndian
	switch string(data[12:16]) {
	case "VP8 ":
		if data[23] != 0x9d || data[24] != 0x01 || data[25] != 0x2a {
			return 0, 0, errors.New("bad VP8 frame")
		}
		return int64(le.Uint16(data[26:]) & 0x3fff), int64(le.Uint16(data[28:]) & 0x3fff), nil
	case "VP8L":
		if data[20] != 0x2f {
			return 0, 0, errors.New("bad VP8L signature")
		}
		b := le.Uint32(data[21:])
		return int64(b&0x3fff) + 1, int64(b>>14&0x3fff) + 1, nil
	case "VP8X":
		u24 := func(b []byte) int64 { return int64(b[0]) | int64(b[1])<<8 | int64(b[2])<<16 }
		return u24(data[24:]) + 1, u24(data[27:]) + 1, nil
	}
	return 0, 0, errors.New("unknown WebP chunk")
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

// ErrBadImage is returned by ReadImage for a file that is not a readable
// PNG, JPEG, BMP, TIFF or WebP picture.
var ErrBadImage = errors.New("not a readable PNG, JPEG, BMP, TIFF or WebP image")

// ReadImage reads a picture file as an 8-bit BGR Mat (close it). A missing,
// empty, truncated or corrupt file is an error wrapping ErrBadImage (or the
// file system's error), one whose header declares too many pixels an
// error wrapping ErrImageTooLarge; never a crash.
func ReadImage(path string) (gocv.Mat, error) {
	m, err := readImageFile(path)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("read image: %w", err)
	}
	return m, nil
}

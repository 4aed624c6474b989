package tracker

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes bounds a line of an events file or of the manual prompt
// (without its line end). No command comes near it.
const MaxLineBytes = 64 << 10

// ErrLineTooLong is returned (wrapped) by LineReader.Next for a line longer
// than its bound; test for it with errors.Is.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads lines of text, numbering them from 1, and holds at most
// its bound of one line in memory: a longer line is skipped to its end and
// reported as ErrLineTooLong, and the next line is read normally.
type LineReader struct {
	r   *bufio.Reader
	max int
	n   int
	buf []byte
}

// NewLineReader reads lines of at most MaxLineBytes from r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReader(r), max: MaxLineBytes}
}

// Next returns the next line without its line end ("\n" or "\r\n") and its
// number. At the end of the input it returns io.EOF. A line longer than the
// bound returns an error wrapping ErrLineTooLong, with the line's number;
// reading can go on with the next line. Other read errors are returned as
// they are.
func (l *LineReader) Next() (line string, n int, err error) {
	l.buf = l.buf[:0]
	size := 0
	for {
		frag, err := l.r.ReadSlice('\n')
		size += len(frag)
		if size <= l.max+2 { // room for "\r\n"
			l.buf = append(l.buf, frag...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil, errors.Is(err, io.EOF) && size > 0: // the last line may have no line end
			return l.finish(size)
		case errors.Is(err, io.EOF):
			return "", l.n, io.EOF
		default:
			return "", l.n, err
		}
	}
}

// finish numbers the line in buf (size bytes in all, line end included).
func (l *LineReader) finish(size int) (string, int, error) {
	l.n++
	b := l.buf
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
		size--
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
			size--
		}
	}
	if size > l.max {
		return "", l.n, fmt.Errorf("%w: %d bytes, at most %d", ErrLineTooLong, size, l.max)
	}
	return string(b), l.n, nil
}

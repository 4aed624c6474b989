package tracker

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// repeatReader yields n bytes of b, without holding them.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// A line longer than the bound is an error for that line alone, with its
// number; the lines after it are read, and the reader holds no more than
// the bound of the long line.
func TestLineReaderSkipsLongLines(t *testing.T) {
	in := io.MultiReader(
		strings.NewReader("first\r\n"+strings.Repeat("a", MaxLineBytes)+"\n"),
		&repeatReader{'x', 50 << 20}, // line 3: 50 MiB
		strings.NewReader("\nafter\n"+strings.Repeat("b", MaxLineBytes+1)+"\nlast"),
	)
	lr := NewLineReader(in)
	type got struct {
		line string
		n    int
		long bool
	}
	var lines []got
	for {
		line, n, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			t.Fatalf("line %d: %v", n, err)
		}
		if c := cap(lr.buf); c > 2*MaxLineBytes+8192 {
			t.Fatalf("line %d: the reader holds %d bytes", n, c)
		}
		if len(line) > 10 {
			line = line[:10] + "…"
		}
		lines = append(lines, got{line, n, err != nil})
	}
	want := []got{{"first", 1, false}, {strings.Repeat("a", 10) + "…", 2, false}, {"", 3, true}, {"after", 4, false}, {"", 5, true}, {"last", 6, false}}
	if len(lines) != len(want) {
		t.Fatalf("lines %v, want %v", lines, want)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %v, want %v", i+1, lines[i], want[i])
		}
	}
}

// ParseFile reports every bad line with its number, a too long one too
// (bufio.Scanner stopped at it with "token too long" and no number).
func TestParseFileReportsEveryBadLineWithItsNumber(t *testing.T) {
	c := testContent(t)
	src := "setup commonwealth loyal railroad survivors alice\n" +
		"goal " + strings.Repeat("x", 2<<20) + "\n" +
		"flip\n" +
		"goal\n"
	evs, err := ParseFile(c, "f.events", strings.NewReader(src))
	if err == nil {
		t.Fatalf("no error; %d events", len(evs))
	}
	for _, want := range []string{"f.events:2: line too long", "f.events:3: flip: unknown command"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if !errors.Is(err, ErrLineTooLong) {
		t.Errorf("error %v is not ErrLineTooLong", err)
	}
}

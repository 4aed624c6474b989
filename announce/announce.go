// Package announce delivers tablecam's announcements: as text lines on a
// console, as JSON lines for other programs, and spoken aloud through
// espeak-ng. An [Announcer] receives [models.Announcement] values; [Multi]
// fans one announcement out to several announcers.
package announce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"tablecam/models"
)

// Announcer delivers announcements. Announce must not block its caller for
// long; implementations are safe for concurrent use.
type Announcer interface {
	// Announce delivers a. A cancelled ctx stops the delivery of a.
	Announce(ctx context.Context, a models.Announcement) error
	// Close releases the announcer; Announce must not be called after it.
	Close() error
}

// ErrClosed is returned by Announce after Close.
var ErrClosed = errors.New("announce: announcer is closed")

// Console writes each announcement's text as one line, optionally prefixed
// with its kind ("[test.result] 2 hits"). Runs of white space in the text,
// line breaks included, become one space; announcements without text are
// skipped.
type Console struct {
	mu       sync.Mutex
	w        io.Writer
	withKind bool
	closed   bool
}

// NewConsole returns a Console writing to w; withKind adds the "[kind] " prefix.
func NewConsole(w io.Writer, withKind bool) *Console {
	return &Console{w: w, withKind: withKind}
}

// Announce writes a's text line.
func (c *Console) Announce(ctx context.Context, a models.Announcement) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	text := strings.Join(strings.Fields(a.Text), " ")
	if text == "" {
		return nil
	}
	if c.withKind && a.Kind != "" {
		text = "[" + a.Kind + "] " + text
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	if _, err := io.WriteString(c.w, text+"\n"); err != nil {
		return fmt.Errorf("announce: console: %w", err)
	}
	return nil
}

// Close stops the console; it does not close the writer.
func (c *Console) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	return nil
}

// JSONLines writes each announcement as one JSON object on its own line.
// Keys come in a fixed order: seq, kind, text, lang, data (data's own keys
// sorted); HTML characters are not escaped.
type JSONLines struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

// NewJSONLines returns a JSONLines writing to w.
func NewJSONLines(w io.Writer) *JSONLines { return &JSONLines{w: w} }

// Announce writes a as one JSON line, or nothing when a cannot be encoded.
func (j *JSONLines) Announce(ctx context.Context, a models.Announcement) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return fmt.Errorf("announce: json %q: %w", a.Kind, err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return ErrClosed
	}
	if _, err := j.w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("announce: json: %w", err)
	}
	return nil
}

// Close stops the announcer; it does not close the writer.
func (j *JSONLines) Close() error {
	j.mu.Lock()
	j.closed = true
	j.mu.Unlock()
	return nil
}

// Multi fans each announcement out to all of its announcers in order. One
// failing announcer does not stop the others; their errors are joined.
type Multi []Announcer

// Announce delivers a to every announcer.
func (m Multi) Announce(ctx context.Context, a models.Announcement) error {
	var errs []error
	for _, an := range m {
		if err := an.Announce(ctx, a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Close closes every announcer.
func (m Multi) Close() error {
	var errs []error
	for _, an := range m {
		if err := an.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

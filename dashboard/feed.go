package dashboard

import "sync"

// FrameLabel is one thing the camera recognised in a frame: a box in the
// frame's pixels and its text. The page draws the boxes and their labels
// over the live view in its own type, so that the labels stay readable
// however small the frame is shown; a frame stored with labels is the
// plain camera picture.
type FrameLabel struct {
	X    int    `json:"x"`
	Y    int    `json:"y"`
	W    int    `json:"w"`
	H    int    `json:"h"`
	Text string `json:"text"`
	// Kind colours the label: "die", "uncertain" (a reading the recogniser
	// doubts), "card", or "note" (a remark about the whole frame, e.g. a
	// hand in view; its box may be empty).
	Kind string `json:"kind,omitempty"`
}

// FrameLabels is the labels of one frame: what GET /api/labels returns.
type FrameLabels struct {
	// Seq is the sequence number of the frame the labels belong to.
	Seq uint64 `json:"seq"`
	// Width and Height are the frame's size in pixels (the labels' space).
	Width  int          `json:"width"`
	Height int          `json:"height"`
	Labels []FrameLabel `json:"labels"`
}

// LabeledFeed is optionally implemented by a FrameFeed whose frames come
// with labels for the page to draw (FrameBuffer does).
type LabeledFeed interface {
	// Labels returns the labels of the newest frame; ok is false when the
	// frames carry none (their text, if any, is drawn into the picture).
	Labels() (l FrameLabels, ok bool)
}

// FrameBuffer is a ready-made FrameFeed: the camera pipeline stores each
// frame (JPEG) with PutLabeled, the plain picture and its labels, or with
// Put, a picture with its text drawn in, and sets the status; the dashboard
// reads the latest. Its zero value is ready to use; it is safe for
// concurrent use.
type FrameBuffer struct {
	mu      sync.Mutex
	jpeg    []byte
	seq     uint64
	status  string
	labeled bool
	labels  FrameLabels
}

// Put stores a new frame. The buffer keeps jpeg; the caller must not change
// it afterwards.
func (b *FrameBuffer) Put(jpeg []byte) {
	b.mu.Lock()
	b.jpeg = jpeg
	b.seq++
	b.labeled = false
	b.labels = FrameLabels{}
	b.mu.Unlock()
}

// PutLabeled stores a new frame of width×height pixels with the labels the
// page draws over it. The buffer keeps jpeg and labels; the caller must not
// change them afterwards.
func (b *FrameBuffer) PutLabeled(jpeg []byte, width, height int, labels []FrameLabel) {
	b.mu.Lock()
	b.jpeg = jpeg
	b.seq++
	b.labeled = true
	if labels == nil {
		labels = []FrameLabel{}
	}
	b.labels = FrameLabels{Seq: b.seq, Width: width, Height: height, Labels: labels}
	b.mu.Unlock()
}

// SetStatus sets the camera status ("" when all is well, e.g. "camera
// lost, retrying").
func (b *FrameBuffer) SetStatus(status string) {
	b.mu.Lock()
	b.status = status
	b.mu.Unlock()
}

// Latest returns the newest frame and its sequence number (1 for the first).
func (b *FrameBuffer) Latest() ([]byte, uint64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.jpeg, b.seq, b.jpeg != nil
}

// Labels returns the labels of the newest frame; ok is false when it was
// stored with Put (or there is none).
func (b *FrameBuffer) Labels() (FrameLabels, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.labels, b.labeled
}

// Status returns the camera status.
func (b *FrameBuffer) Status() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

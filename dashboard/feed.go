package dashboard

import "sync"

// FrameBuffer is a ready-made FrameFeed: the camera pipeline Puts each
// annotated frame (JPEG) and sets the status; the dashboard reads the
// latest. Its zero value is ready to use; it is safe for concurrent use.
type FrameBuffer struct {
	mu     sync.Mutex
	jpeg   []byte
	seq    uint64
	status string
}

// Put stores a new frame. The buffer keeps jpeg; the caller must not change
// it afterwards.
func (b *FrameBuffer) Put(jpeg []byte) {
	b.mu.Lock()
	b.jpeg = jpeg
	b.seq++
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

// Status returns the camera status.
func (b *FrameBuffer) Status() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

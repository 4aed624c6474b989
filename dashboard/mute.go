package dashboard

import (
	"context"
	"sync/atomic"

	"tablecam/announce"
	"tablecam/models"
)

// MuteSwitch wraps an announcer (the voice) so the dashboard can silence
// it: while muted, announcements are dropped, not queued. Pass its SetMuted
// as Options.Mute. Safe for concurrent use.
type MuteSwitch struct {
	next  announce.Announcer
	muted atomic.Bool
}

// NewMuteSwitch returns a switch in front of next, not muted.
func NewMuteSwitch(next announce.Announcer) *MuteSwitch { return &MuteSwitch{next: next} }

// SetMuted mutes (true) or unmutes the announcer.
func (m *MuteSwitch) SetMuted(muted bool) { m.muted.Store(muted) }

// Muted reports whether the announcer is muted.
func (m *MuteSwitch) Muted() bool { return m.muted.Load() }

// Announce passes a on unless muted.
func (m *MuteSwitch) Announce(ctx context.Context, a models.Announcement) error {
	if m.muted.Load() {
		return nil
	}
	return m.next.Announce(ctx, a)
}

// Flush waits for the wrapped announcer's queue when it has one (the voice).
func (m *MuteSwitch) Flush(ctx context.Context) error {
	if f, ok := m.next.(interface{ Flush(context.Context) error }); ok {
		return f.Flush(ctx)
	}
	return nil
}

// Close closes the wrapped announcer.
func (m *MuteSwitch) Close() error { return m.next.Close() }

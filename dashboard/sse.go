package dashboard

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// clientBuffer is the number of messages a browser may fall behind before
// it is disconnected (it resyncs with a full state when it reconnects).
const clientBuffer = 64

// hub fans SSE messages out to the connected browsers.
type hub struct {
	mu      sync.Mutex
	clients map[*client]struct{}
	nextID  uint64
}

// client is one connected event stream.
type client struct {
	ch   chan []byte   // formatted SSE messages
	gone chan struct{} // closed when the hub dropped the client
}

func newHub() *hub { return &hub{clients: map[*client]struct{}{}} }

// add registers a new client.
func (h *hub) add() *client {
	c := &client{ch: make(chan []byte, clientBuffer), gone: make(chan struct{})}
	h.mu.Lock()
	h.clients[c] = struct{}{}
	h.mu.Unlock()
	return c
}

// remove unregisters c (idempotent).
func (h *hub) remove(c *client) {
	h.mu.Lock()
	if _, ok := h.clients[c]; ok {
		delete(h.clients, c)
		close(c.gone)
	}
	h.mu.Unlock()
}

func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// frame formats one SSE message with the next id.
func (h *hub) frame(event string, data []byte) []byte {
	h.nextID++
	b := make([]byte, 0, len(data)+len(event)+40)
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, h.nextID, 10)
	b = append(b, "\nevent: "...)
	b = append(b, event...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}

// send queues a message for one client (dropping it when its queue is full).
func (h *hub) send(c *client, event string, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.deliver(c, h.frame(event, data))
}

// deliver queues msg for c or drops c; h.mu must be held.
func (h *hub) deliver(c *client, msg []byte) {
	if _, ok := h.clients[c]; !ok {
		return
	}
	select {
	case c.ch <- msg:
	default:
		delete(h.clients, c)
		close(c.gone)
	}
}

// broadcast queues a message for every client without blocking; a client
// whose queue is full is dropped.
func (h *hub) broadcast(event string, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	msg := h.frame(event, data)
	for c := range h.clients {
		h.deliver(c, msg)
	}
}

// handleEvents streams Server-Sent Events: the full state first, then every
// announcement and state change, with a comment ping against idle proxies.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	if !s.openStream(w) {
		return
	}
	defer s.closeStream()
	rc := http.NewResponseController(w)
	// Under the publish lock the full state is queued first: every later
	// message is newer than it, every earlier one is part of it.
	s.pubMu.Lock()
	c := s.hub.add()
	first, err := json.Marshal(s.snapshot(true))
	if err == nil {
		s.hub.send(c, "state", first)
	}
	s.pubMu.Unlock()
	defer s.hub.remove(c)
	if err != nil {
		s.log.Error("encode state", "err", err)
		writeError(w, http.StatusInternalServerError, "cannot encode the state")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 2000\n\n")) {
		return
	}
	s.log.Debug("event stream opened", "remote", r.RemoteAddr, "clients", s.hub.count())
	ping := time.NewTicker(pingInterval)
	defer ping.Stop()
	for {
		select {
		case b := <-c.ch:
			if !write(b) {
				return
			}
		case <-ping.C:
			if !write([]byte(": ping\n\n")) {
				return
			}
		case <-c.gone:
			s.log.Warn("event stream too slow; disconnected", "remote", r.RemoteAddr)
			return
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		}
	}
}

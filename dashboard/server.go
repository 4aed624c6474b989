package dashboard

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tablecam/announce"
	"tablecam/models"
	"tablecam/tracker"
)

//go:embed assets
var assets embed.FS

// DefaultAddr is where the dashboard listens when Options.Addr is empty.
const DefaultAddr = "127.0.0.1:8080"

// Defaults of the Options limits.
const (
	// DefaultHistory is the number of announcements kept for new pages.
	DefaultHistory = 200
	// DefaultMaxFPS caps the MJPEG stream's frame rate.
	DefaultMaxFPS = 10
	// DefaultMaxStreams is the most event and camera streams open at once:
	// a table has a few screens, and each stream holds a goroutine and a
	// message queue for as long as it is open.
	DefaultMaxStreams = 32
	// DefaultReadTimeout is how long a client may take to send a whole
	// request, body included; a body trickled slower is cut off.
	DefaultReadTimeout = 30 * time.Second
)

// Internal limits.
const (
	shutdownTimeout = 5 * time.Second
	watchInterval   = time.Second
	pingInterval    = 15 * time.Second
	writeTimeout    = 10 * time.Second
	maxBody         = 4 << 10
	maxLine         = 1000
)

// Header names of the API.
const (
	// HeaderRequest must be present on every POST (any value).
	HeaderRequest = "X-Tablecam-Request"
	// HeaderToken may carry the access token instead of the cookie.
	HeaderToken = "X-Tablecam-Token"
)

// FrameFeed is the live camera view: the newest frame as JPEG (a
// LabeledFeed also gives what was recognised in it, which the page draws
// over the frame). Latest must be safe for concurrent
// use and cheap; the returned bytes must not be changed afterwards.
type FrameFeed interface {
	// Latest returns the newest frame and its sequence number (which grows
	// with every new frame); ok is false while there is none.
	Latest() (jpeg []byte, seq uint64, ok bool)
}

// FeedStatus is optionally implemented by a FrameFeed to say how the camera
// is doing, e.g. "camera lost, retrying"; "" means all is well.
type FeedStatus interface {
	Status() string
}

// Options configure a dashboard Server.
type Options struct {
	// Session is the game session the dashboard shows and drives (required).
	Session *tracker.Session
	// Content is the content pack the session was opened with (required).
	Content *models.Content
	// Addr is the host:port to listen on (default DefaultAddr). A
	// non-loopback address requires a token.
	Addr string
	// Token is the access token; "" generates a random one when Addr is not
	// a loopback address. A token given for a loopback address is enforced.
	Token string
	// Frames is the live camera view (nil: no camera panel).
	Frames FrameFeed
	// FramesDir is the directory of stored frames that roll records refer
	// to (RollRecord.Frame: a path relative to it); "" serves none.
	FramesDir string
	// Lang is the language of the page's labels and names ("en", "de";
	// default "en").
	Lang string
	// Output also receives the announcements of commands given on the
	// dashboard (console, voice). It must not contain this server's own
	// Announcer, which receives them anyway. nil: browsers only.
	Output announce.Announcer
	// Mute switches the voice off (true) or on; nil hides the control. It
	// is called from HTTP handlers (see MuteSwitch).
	Mute func(muted bool)
	// Muted is the voice's state at start.
	Muted bool
	// Logger receives the server's log (default slog.Default()).
	Logger *slog.Logger
	// History is the number of announcements kept for new pages (default
	// DefaultHistory).
	History int
	// MaxFPS caps the MJPEG stream's frame rate (default DefaultMaxFPS).
	MaxFPS int
	// MaxStreams bounds the open event and camera streams together
	// (default DefaultMaxStreams); one more is answered 503.
	MaxStreams int
	// ReadTimeout bounds the time to read a request (default
	// DefaultReadTimeout); open streams are not cut by it.
	ReadTimeout time.Duration
	// Now returns the time (default time.Now).
	Now func() time.Time
}

// Server is the dashboard's HTTP server. Create it with New, then call
// Serve; Announcer feeds it the announcements.
type Server struct {
	opts     Options
	view     view
	log      *slog.Logger
	ln       net.Listener
	token    string
	loopback bool
	url      string
	cookie   string
	handler  http.Handler
	hub      *hub
	ann      *announcer
	static   fs.FS
	index    []byte

	state    atomic.Int32  // 0 new, 1 serving, 2 done
	version  atomic.Uint64 // snapshots built
	stopping chan struct{}
	stopOnce sync.Once
	// streams holds a token for each open event or camera stream.
	streams chan struct{}

	mu      sync.Mutex // guards muted, history, lastEvents, lastStatus
	muted   bool
	history []LogEntry // oldest first
	// lastEvents and lastStatus are what the last push showed.
	lastEvents int
	lastStatus string
	pubMu      sync.Mutex // orders publishes
}

// New checks the options, binds the listening socket (so a busy port fails
// at once) and returns the server. Call Serve to answer requests, or Close
// to release the socket.
func New(o Options) (*Server, error) {
	if o.Session == nil {
		return nil, errors.New("dashboard: no session")
	}
	if o.Content == nil {
		return nil, errors.New("dashboard: no content")
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.Lang == "" {
		o.Lang = "en"
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.History <= 0 {
		o.History = DefaultHistory
	}
	if o.MaxFPS <= 0 {
		o.MaxFPS = DefaultMaxFPS
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = DefaultMaxStreams
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: address %q: %w", o.Addr, err)
	}
	s := &Server{opts: o, log: o.Logger.With("component", "dashboard"), token: o.Token,
		loopback: isLoopbackHost(host), hub: newHub(), stopping: make(chan struct{}), muted: o.Muted,
		streams: make(chan struct{}, o.MaxStreams)}
	s.view = view{c: o.Content.Localized(o.Lang), framesDir: o.FramesDir}
	if !s.loopback && s.token == "" {
		if s.token, err = newToken(); err != nil {
			return nil, err
		}
	}
	s.static, err = fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("dashboard: embedded assets: %w", err)
	}
	if s.index, err = fs.ReadFile(s.static, "index.html"); err != nil {
		return nil, fmt.Errorf("dashboard: embedded page: %w", err)
	}
	s.ann = &announcer{s: s}
	// A resumed session shows what was said before: the latest
	// announcements and the log come back.
	for _, a := range o.Session.Recent(o.History) {
		s.history = append(s.history, LogEntry{Announcement: a, FrameURL: s.frameForSeq(a.Seq)})
	}
	s.handler = s.routes()
	s.ln, err = net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: listen on %s: %w", o.Addr, err)
	}
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	s.cookie = "tablecam-token-" + port
	s.url = "http://" + net.JoinHostPort(advertisedHost(host), port) + "/"
	if s.token != "" {
		s.url += "?token=" + url.QueryEscape(s.token)
	}
	return s, nil
}

// newToken makes a random URL-safe access token (128 bits).
func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("dashboard: make a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// isLoopbackHost reports whether a listen host is a loopback address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// advertisedHost is the host to print in the URL: the listen host, or for
// an unspecified address (all interfaces) the first non-loopback IPv4
// address of the machine.
func advertisedHost(host string) string {
	ip := net.ParseIP(host)
	if host != "" && (ip == nil || !ip.IsUnspecified()) {
		return host
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil && !n.IP.IsLinkLocalUnicast() {
				return n.IP.String()
			}
		}
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "localhost"
}

// URL is the address to open, with the token when one is required:
// http://HOST:PORT/?token=... (the CLI prints it at start-up).
func (s *Server) URL() string { return s.url }

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Handler returns the dashboard's HTTP handler (security checks included),
// for tests and for mounting it in another server.
func (s *Server) Handler() http.Handler { return s.handler }

// Announcer returns the announcer that logs each announcement and pushes it
// with a fresh state snapshot to every connected browser. It never blocks
// on a slow browser: one that falls behind is disconnected and resyncs when
// it reconnects.
func (s *Server) Announcer() announce.Announcer { return s.ann }

// Serve answers requests until ctx is cancelled, then shuts down
// gracefully (open event streams are ended, requests in flight get a few
// seconds) and returns nil. It returns an error when the server fails.
func (s *Server) Serve(ctx context.Context) error {
	if !s.state.CompareAndSwap(0, 1) {
		return errors.New("dashboard: Serve called twice or after Close")
	}
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.opts.ReadTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.ln) }()
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go s.watch(watchCtx)
	s.log.Info("dashboard serving", "addr", s.ln.Addr().String(), "token", s.token != "")
	select {
	case err := <-errc:
		s.stop()
		s.state.Store(2)
		return fmt.Errorf("dashboard: serve: %w", err)
	case <-ctx.Done():
	}
	s.stop()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	s.state.Store(2)
	if err != nil {
		return fmt.Errorf("dashboard: shutdown: %w", err)
	}
	s.log.Info("dashboard stopped")
	return nil
}

// Close releases the listening socket of a server that is not serving (a
// serving server stops when Serve's context ends). Closing twice is harmless.
func (s *Server) Close() error {
	s.stop()
	if s.state.CompareAndSwap(0, 2) {
		if err := s.ln.Close(); err != nil {
			return fmt.Errorf("dashboard: close: %w", err)
		}
	}
	return nil
}

// stop ends the event and camera streams.
func (s *Server) stop() { s.stopOnce.Do(func() { close(s.stopping) }) }

// watch pushes a fresh state when the session or the camera status changed
// without an announcement (a safety net: announcements push at once).
func (s *Server) watch(ctx context.Context) {
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.stopping:
			return
		case <-t.C:
		}
		n := len(s.opts.Session.Events())
		status := s.cameraStatus()
		s.mu.Lock()
		changed := n != s.lastEvents || status != s.lastStatus
		s.mu.Unlock()
		if changed && s.hub.count() > 0 {
			s.pushState()
		}
	}
}

func (s *Server) cameraStatus() string {
	if st, ok := s.opts.Frames.(FeedStatus); ok {
		return st.Status()
	}
	return ""
}

// snapshot builds the current Snapshot; withLog adds the announcement log.
func (s *Server) snapshot(withLog bool) Snapshot {
	sess := s.opts.Session
	events := sess.Events()
	g := sess.Game()
	snap := s.view.snapshot(g, events)
	if g.Started && g.Kind != "" {
		snap.Game = &GameView{ID: g.Kind, Name: tracker.GameName(g.Kind), State: sess.Summary(), Controls: g.Suggested(s.opts.Content)}
	}
	snap.Version = s.version.Add(1)
	snap.Session = sess.ID()
	snap.Lang = s.opts.Lang
	snap.Time = s.opts.Now()
	snap.CanMute = s.opts.Mute != nil
	if s.opts.Frames != nil {
		snap.Camera.Available = true
		snap.Camera.Status = s.cameraStatus()
		_, snap.Camera.Labels = s.opts.Frames.(LabeledFeed)
		if _, seq, ok := s.opts.Frames.Latest(); ok {
			snap.Camera.Seq = seq
		}
	}
	s.mu.Lock()
	snap.Muted = s.muted
	s.lastEvents, s.lastStatus = len(events), snap.Camera.Status
	if withLog {
		snap.Log = make([]LogEntry, 0, len(s.history))
		for i := len(s.history) - 1; i >= 0; i-- {
			snap.Log = append(snap.Log, s.history[i])
		}
	}
	s.mu.Unlock()
	return snap
}

// publish logs an announcement and pushes it with a fresh snapshot.
func (s *Server) publish(a models.Announcement) error {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	e := LogEntry{Announcement: a, At: s.opts.Now()}
	if a.Seq > 0 {
		e.FrameURL = s.frameForSeq(a.Seq)
	}
	s.mu.Lock()
	s.history = append(s.history, e)
	if over := len(s.history) - s.opts.History; over > 0 {
		s.history = append(s.history[:0:0], s.history[over:]...)
	}
	s.mu.Unlock()
	msg := struct {
		Announcement LogEntry `json:"announcement"`
		State        Snapshot `json:"state"`
	}{e, s.snapshot(false)}
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("dashboard: encode announcement %q: %w", a.Kind, err)
	}
	s.hub.broadcast("announce", b)
	return nil
}

// pushState sends a fresh snapshot to every browser.
func (s *Server) pushState() {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	b, err := json.Marshal(s.snapshot(false))
	if err != nil {
		s.log.Error("encode state", "err", err)
		return
	}
	s.hub.broadcast("state", b)
}

// frameForSeq is the frame URL of the reading with sequence number seq.
func (s *Server) frameForSeq(seq int64) string {
	if s.opts.FramesDir == "" {
		return ""
	}
	for _, r := range s.opts.Session.Game().Rolls {
		if r.Seq == seq {
			return frameURL(s.opts.FramesDir, r.Frame)
		}
	}
	return ""
}

// announcer is the Server's announce.Announcer.
type announcer struct {
	s      *Server
	closed atomic.Bool
}

// Announce logs a and pushes it to the browsers.
func (a *announcer) Announce(ctx context.Context, an models.Announcement) error {
	if a.closed.Load() {
		return announce.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return a.s.publish(an)
}

// Close stops the announcer; the server keeps serving.
func (a *announcer) Close() error {
	a.closed.Store(true)
	return nil
}

// writeJSON writes v as JSON with status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeError writes {"error": msg}.
func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// readJSON decodes a small JSON body into v.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad request body: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("bad request body: more than one JSON value")
	}
	return nil
}

// openStream takes a stream slot, or answers 503 and returns false when
// all are taken. The caller releases the slot with closeStream.
func (s *Server) openStream(w http.ResponseWriter) bool {
	select {
	case s.streams <- struct{}{}:
	default:
		s.log.Warn("too many open streams", "max", cap(s.streams))
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d dashboard streams are open already, the most allowed; close a dashboard page and reload", cap(s.streams)))
		return false
	}
	return true
}

// closeStream releases a slot taken by openStream.
func (s *Server) closeStream() { <-s.streams }

package dashboard

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"tablecam/models"
	"tablecam/tracker"
)

// commandTimeout bounds one command's Submit and announcements.
const commandTimeout = 15 * time.Second

// contentSecurityPolicy allows only the dashboard's own assets.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// routes builds the handler: security checks around the endpoints.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleIndex)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(s.static)))
	mux.HandleFunc("GET /api/state", s.handleState)
	mux.HandleFunc("GET /api/events", s.handleEvents)
	mux.HandleFunc("POST /api/command", s.handleCommand)
	mux.HandleFunc("POST /api/mute", s.handleMute)
	mux.HandleFunc("GET /api/frame.jpg", s.handleFrame)
	mux.HandleFunc("GET /api/labels", s.handleLabels)
	mux.HandleFunc("GET /api/stream.mjpeg", s.handleStream)
	mux.HandleFunc("GET /frames/{path...}", s.handleStoredFrame)
	return s.secure(mux)
}

// secure wraps h with the security headers, the Host check, the token check
// and the cross-origin POST check.
func (s *Server) secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		if s.token == "" && !loopbackRequestHost(r.Host) {
			// Without a token only loopback names may reach the server,
			// which defeats DNS rebinding.
			s.log.Warn("request for a foreign host refused", "host", r.Host, "remote", r.RemoteAddr)
			http.Error(w, "tablecam dashboard: this address is not allowed; open http://127.0.0.1 or http://localhost", http.StatusMisdirectedRequest)
			return
		}
		if s.token != "" && !s.authorize(w, r) {
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := checkSameOrigin(r); err != nil {
				s.log.Warn("cross-origin request refused", "method", r.Method, "path", r.URL.Path, "err", err)
				writeError(w, http.StatusForbidden, err.Error())
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// authorize checks the token from the query, header or cookie. A valid
// query token sets the cookie; for the page it also redirects to the same
// address without the token, so it leaves the address bar.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) bool {
	if q := r.URL.Query().Get("token"); q != "" && s.tokenOK(q) {
		http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode, MaxAge: 30 * 24 * 3600})
		if r.Method == http.MethodGet && r.URL.Path == "/" {
			u := *r.URL
			v := u.Query()
			v.Del("token")
			u.RawQuery = v.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return false
		}
		return true
	}
	if t := r.Header.Get(HeaderToken); t != "" && s.tokenOK(t) {
		return true
	}
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.tokenOK(t) {
		return true
	}
	if c, err := r.Cookie(s.cookie); err == nil && s.tokenOK(c.Value) {
		return true
	}
	s.log.Warn("request without a valid token refused", "path", r.URL.Path, "remote", r.RemoteAddr)
	w.Header().Set("WWW-Authenticate", `Bearer realm="tablecam"`)
	http.Error(w, "tablecam dashboard: a token is required; open the address tablecam printed at start-up (it ends in ?token=...)", http.StatusUnauthorized)
	return false
}

func (s *Server) tokenOK(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

// loopbackRequestHost reports whether a request's Host names the loopback
// interface (localhost, 127.0.0.0/8, ::1), with or without a port.
func loopbackRequestHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return isLoopbackHost(host) || strings.HasSuffix(strings.ToLower(host), ".localhost")
}

// checkSameOrigin refuses requests that a foreign web page could send: the
// custom request header must be present, a body must be JSON, and Origin
// (or else Referer) must name this server.
func checkSameOrigin(r *http.Request) error {
	if r.Header.Get(HeaderRequest) == "" {
		return fmt.Errorf("missing %s header", HeaderRequest)
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return fmt.Errorf("content type %q: want application/json", ct)
		}
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if o == "null" || err != nil || !strings.EqualFold(u.Host, r.Host) {
			return fmt.Errorf("cross-origin request from %q refused", o)
		}
		return nil
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		u, err := url.Parse(ref)
		if err != nil || !strings.EqualFold(u.Host, r.Host) {
			return fmt.Errorf("cross-origin request (referer %q) refused", ref)
		}
	}
	return nil
}

func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(s.index)
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.snapshot(true))
}

// commandRequest is the body of POST /api/command.
type commandRequest struct {
	Line string `json:"line"`
}

// commandResponse is the answer of POST /api/command.
type commandResponse struct {
	Announcements []models.Announcement `json:"announcements"`
	State         Snapshot              `json:"state"`
}

// handleCommand parses one tracker command line, submits it, announces the
// result (Output and the browsers) and answers with the new state.
func (s *Server) handleCommand(w http.ResponseWriter, r *http.Request) {
	var req commandRequest
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	line := strings.TrimSpace(req.Line)
	switch {
	case line == "":
		writeError(w, http.StatusBadRequest, "empty command")
		return
	case len(line) > maxLine || strings.ContainsAny(line, "\r\n"):
		writeError(w, http.StatusBadRequest, "a command is one line of at most 1000 bytes")
		return
	}
	ev, ok, err := tracker.ParseLine(s.opts.Content, line)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "empty command")
		return
	}
	// A browser that goes away must not cut a command in half.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), commandTimeout)
	defer cancel()
	as, err := s.opts.Session.Submit(ctx, ev)
	if err != nil {
		s.log.Info("dashboard command refused", "line", line, "err", err)
		writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf("%s: %v", ev.Type, err))
		return
	}
	s.log.Info("dashboard command", "line", line, "announcements", len(as))
	for _, a := range as {
		if s.opts.Output != nil {
			if err := s.opts.Output.Announce(ctx, a); err != nil {
				s.log.Warn("announce", "kind", a.Kind, "err", err)
			}
		}
		if err := s.publish(a); err != nil {
			s.log.Error("publish", "kind", a.Kind, "err", err)
		}
	}
	if len(as) == 0 {
		s.pushState()
	}
	if as == nil {
		as = []models.Announcement{}
	}
	writeJSON(w, http.StatusOK, commandResponse{Announcements: as, State: s.snapshot(false)})
}

// muteRequest is the body of POST /api/mute.
type muteRequest struct {
	Muted bool `json:"muted"`
}

func (s *Server) handleMute(w http.ResponseWriter, r *http.Request) {
	if s.opts.Mute == nil {
		writeError(w, http.StatusNotFound, "this tablecam has no voice to mute")
		return
	}
	var req muteRequest
	if err := readJSON(w, r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.opts.Mute(req.Muted)
	s.mu.Lock()
	s.muted = req.Muted
	s.mu.Unlock()
	s.log.Info("voice muted from the dashboard", "muted", req.Muted)
	s.pushState()
	writeJSON(w, http.StatusOK, muteRequest{Muted: req.Muted})
}

// handleFrame serves the latest camera frame.
func (s *Server) handleFrame(w http.ResponseWriter, r *http.Request) {
	if s.opts.Frames == nil {
		http.Error(w, "no camera", http.StatusNotFound)
		return
	}
	jpeg, seq, ok := s.opts.Frames.Latest()
	w.Header().Set("Cache-Control", "no-store")
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("X-Frame-Seq", strconv.FormatUint(seq, 10))
	w.Header().Set("Content-Length", strconv.Itoa(len(jpeg)))
	_, _ = w.Write(jpeg)
}

// handleLabels serves the labels of the latest camera frame, which the
// page draws over the live view.
func (s *Server) handleLabels(w http.ResponseWriter, r *http.Request) {
	lf, ok := s.opts.Frames.(LabeledFeed)
	if !ok {
		http.Error(w, "no camera labels", http.StatusNotFound)
		return
	}
	l, ok := lf.Labels()
	if !ok {
		l = FrameLabels{Labels: []FrameLabel{}}
	}
	writeJSON(w, http.StatusOK, l)
}

// mjpegBoundary separates the parts of the MJPEG stream.
const mjpegBoundary = "tablecamframe"

// handleStream serves the camera as MJPEG (multipart/x-mixed-replace),
// sending each new frame once, at most MaxFPS per second.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	if s.opts.Frames == nil {
		http.Error(w, "no camera", http.StatusNotFound)
		return
	}
	if !s.openStream(w) {
		return
	}
	defer s.closeStream()
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "multipart/x-mixed-replace; boundary="+mjpegBoundary)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	t := time.NewTicker(time.Second / time.Duration(s.opts.MaxFPS))
	defer t.Stop()
	if rc.Flush() != nil {
		return
	}
	// Each part ends with the next boundary, so a browser can show a frame
	// as soon as it arrives. The first frame goes out twice: Chromium shows
	// an image inserted by script only from the second part on, and a
	// frozen camera would otherwise never appear.
	writePart := func(jpeg []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		head := fmt.Sprintf("Content-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", len(jpeg))
		if _, err := io.WriteString(w, head); err != nil {
			return false
		}
		if _, err := w.Write(jpeg); err != nil {
			return false
		}
		_, err := io.WriteString(w, "\r\n--"+mjpegBoundary+"\r\n")
		return err == nil
	}
	if _, err := io.WriteString(w, "--"+mjpegBoundary+"\r\n"); err != nil {
		return
	}
	var last uint64
	sent := false
	for {
		if jpeg, seq, ok := s.opts.Frames.Latest(); ok && (!sent || seq != last) {
			if !writePart(jpeg) || (!sent && !writePart(jpeg)) || rc.Flush() != nil {
				return
			}
			last, sent = seq, true
		}
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		}
	}
}

// frameType is the content type of the stored frame files the dashboard
// serves, by extension.
func frameType(ext string) (string, bool) {
	switch strings.ToLower(ext) {
	case ".jpg", ".jpeg":
		return "image/jpeg", true
	case ".png":
		return "image/png", true
	}
	return "", false
}

// handleStoredFrame serves one file under FramesDir, read-only. The path
// must be clean and relative, and os.Root refuses anything (symbolic links
// included) that leaves the directory.
func (s *Server) handleStoredFrame(w http.ResponseWriter, r *http.Request) {
	if s.opts.FramesDir == "" {
		http.NotFound(w, r)
		return
	}
	p := r.PathValue("path")
	ctype, ok := frameType(path.Ext(p))
	if !ok || !validFramePath(p) {
		s.log.Warn("stored frame path refused", "path", p, "remote", r.RemoteAddr)
		http.Error(w, "no such frame", http.StatusNotFound)
		return
	}
	root, err := os.OpenRoot(s.opts.FramesDir)
	if err != nil {
		s.log.Warn("frames directory", "err", err)
		http.Error(w, "no such frame", http.StatusNotFound)
		return
	}
	defer root.Close()
	f, err := root.Open(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("stored frame refused", "path", p, "err", err)
		}
		http.Error(w, "no such frame", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.Error(w, "no such frame", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	http.ServeContent(w, r, path.Base(p), fi.ModTime(), f)
}

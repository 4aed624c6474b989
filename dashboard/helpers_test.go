package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tablecam/models"
	"tablecam/tracker"
)

// wonScript is the scripted game the tests replay.
var wonScript = filepath.Join("..", "testdata", "games", "won.events")

func testContent(t testing.TB) *models.Content {
	t.Helper()
	c, err := models.DefaultContent()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newSession opens a fresh session in a temporary store.
func newSession(t testing.TB, c *models.Content) *tracker.Session {
	t.Helper()
	st, err := tracker.OpenStore(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cat, err := tracker.NewCatalog("en")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tracker.OpenSession(context.Background(), st, c, cat, "", "test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// submitScript parses and submits script (command lines) and returns the
// announcements.
func submitScript(t testing.TB, c *models.Content, s *tracker.Session, script string) []models.Announcement {
	t.Helper()
	evs, err := tracker.ParseFile(c, "script", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	var out []models.Announcement
	for _, ev := range evs {
		as, err := s.Submit(context.Background(), ev)
		if err != nil {
			t.Fatalf("submit %+v: %v", ev, err)
		}
		out = append(out, as...)
	}
	return out
}

// wonUntil returns the lines of won.events before the first line starting
// with stop ("" = all).
func wonUntil(t testing.TB, stop string) string {
	t.Helper()
	b, err := os.ReadFile(wonScript)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if stop != "" && strings.HasPrefix(strings.TrimSpace(l), stop) {
			break
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// newServer makes a server on a random loopback port, closed at cleanup.
func newServer(t testing.TB, o Options) *Server {
	t.Helper()
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Logger == nil {
		o.Logger = quietLogger()
	}
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// serve runs srv until the test ends and returns its base URL.
func serve(t testing.TB, srv *Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after cancel")
		}
	})
	return "http://" + srv.Addr().String()
}

// do runs one request through the handler; the Host defaults to loopback.
func do(t testing.TB, h http.Handler, method, target, body string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	req.Host = "127.0.0.1:8080"
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(HeaderRequest, "1")
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func decodeSnapshot(t testing.TB, b []byte) Snapshot {
	t.Helper()
	var s Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("decode snapshot: %v\n%s", err, b)
	}
	return s
}

func survivor(t testing.TB, s Snapshot, id string) Survivor {
	t.Helper()
	for _, v := range s.Survivors {
		if v.ID == id {
			return v
		}
	}
	t.Fatalf("no survivor %q in %+v", id, s.Survivors)
	return Survivor{}
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	ID, Event, Data string
}

// readEvent reads the next event (skipping comments and retry lines).
func readEvent(r *bufio.Reader) (sseEvent, error) {
	var ev sseEvent
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			if ev.Event != "" || ev.Data != "" {
				return ev, nil
			}
		case strings.HasPrefix(line, ":"), strings.HasPrefix(line, "retry:"):
		case strings.HasPrefix(line, "id: "):
			ev.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.Data += line[6:]
		}
	}
}

package dashboard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"tablecam/models"
)

// At most MaxStreams event and camera streams are open at once; one more
// is refused with 503 and a sentence, and a closed stream frees its slot.
func TestStreamsAreCapped(t *testing.T) {
	c := testContent(t)
	feed := &FrameBuffer{}
	feed.Put([]byte("\xff\xd8jpeg"))
	srv := newServer(t, Options{Session: newSession(t, c), Content: c, Frames: feed, MaxStreams: 3})
	base := serve(t, srv)
	open := func(path string) (*http.Response, context.CancelFunc) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		return resp, cancel
	}
	var cancels []context.CancelFunc
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	for _, path := range []string{"/api/events", "/api/events", "/api/stream.mjpeg"} {
		resp, cancel := open(path)
		cancels = append(cancels, cancel)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", path, resp.Status)
		}
	}
	for _, path := range []string{"/api/events", "/api/stream.mjpeg"} {
		resp, cancel := open(path)
		body, _ := io.ReadAll(resp.Body)
		cancel()
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "3 dashboard streams are open") {
			t.Errorf("%s past the cap: %s %s", path, resp.Status, body)
		}
	}
	// Closing one stream frees its slot (the server notices the close
	// when its next write or read fails, so this waits for it).
	cancels[0]()
	deadline := time.Now().Add(20 * time.Second)
	for {
		srv.Announcer().Announce(context.Background(), models.Announcement{Kind: "test.nudge", Text: "x", Lang: "en"})
		resp, cancel := open("/api/events")
		if resp.StatusCode == http.StatusOK {
			cancels = append(cancels, cancel)
			break
		}
		cancel()
		if time.Now().After(deadline) {
			t.Fatal("the closed stream's slot was never freed")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A request body trickled in is cut off after ReadTimeout, while an event
// stream, which has read its request, stays open past it.
func TestReadTimeoutCutsTrickledBodyNotStreams(t *testing.T) {
	c := testContent(t)
	srv := newServer(t, Options{Session: newSession(t, c), Content: c, ReadTimeout: 300 * time.Millisecond})
	base := serve(t, srv)
	addr := strings.TrimPrefix(base, "http://")

	resp, err := http.Get(base + "/api/events")
	must(t, err)
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if _, err := readEvent(r); err != nil {
		t.Fatal(err)
	}

	conn, err := net.Dial("tcp", addr)
	must(t, err)
	defer conn.Close()
	const bodyLen = 200
	fmt.Fprintf(conn, "POST /api/command HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%s: 1\r\nContent-Length: %d\r\n\r\n", addr, HeaderRequest, bodyLen)
	cut := false
	for i := 0; i < bodyLen; i++ {
		if _, err := conn.Write([]byte(" ")); err != nil {
			cut = true
			break
		}
		// A read that finds the connection closed tells that it was cut.
		_ = conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		var b [512]byte
		if n, err := conn.Read(b[:]); n > 0 || (err != nil && !isTimeout(err)) {
			cut = true
			break
		}
	}
	if !cut {
		t.Errorf("a body trickled over %d × 50 ms was read to its end; ReadTimeout is 300 ms", bodyLen)
	}

	// The stream opened before, now open for more than twice the read
	// timeout, is still delivering.
	time.Sleep(300 * time.Millisecond)
	must(t, srv.Announcer().Announce(context.Background(), models.Announcement{Seq: 7, Kind: "test.alive", Text: "still here", Lang: "en"}))
	for {
		ev, err := readEvent(r)
		if err != nil {
			t.Fatalf("the event stream ended after the read timeout: %v", err)
		}
		if ev.Event == "announce" && strings.Contains(ev.Data, "still here") {
			break
		}
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A dashboard started on a resumed session shows what was announced
// before: the log holds the session's latest announcements, newest first,
// as the game now reads them.
func TestResumedSessionKeepsItsAnnouncements(t *testing.T) {
	c := testContent(t)
	s := newSession(t, c)
	said := submitScript(t, c, s, wonUntil(t, "correct"))
	if len(said) < 5 {
		t.Fatalf("the script said %d things", len(said))
	}
	srv := newServer(t, Options{Session: s, Content: c, History: 4})
	log := srv.snapshot(true).Log
	if len(log) != 4 {
		t.Fatalf("log of %d entries, want 4", len(log))
	}
	for i, e := range log {
		want := said[len(said)-1-i]
		if e.Text != want.Text || e.Seq != want.Seq {
			t.Errorf("log[%d] = %d %q, want %d %q", i, e.Seq, e.Text, want.Seq, want.Text)
		}
		if !e.At.IsZero() {
			t.Errorf("log[%d] has a time it cannot know: %v", i, e.At)
		}
	}
}

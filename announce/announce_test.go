package announce

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"tablecam/models"
)

var (
	_ Announcer = (*Console)(nil)
	_ Announcer = (*JSONLines)(nil)
	_ Announcer = (*Voice)(nil)
	_ Announcer = Multi(nil)
)

func TestConsole(t *testing.T) {
	var buf bytes.Buffer
	plain, kinded := NewConsole(&buf, false), NewConsole(&buf, true)
	ctx := context.Background()
	a := models.Announcement{Kind: "test.result", Text: "2 hits —\ndifficulty 2 passed", Lang: "en"}
	for _, c := range []*Console{plain, kinded} {
		if err := c.Announce(ctx, a); err != nil {
			t.Fatal(err)
		}
		if err := c.Announce(ctx, models.Announcement{Kind: "silent"}); err != nil {
			t.Fatal(err)
		}
	}
	want := "2 hits — difficulty 2 passed\n[test.result] 2 hits — difficulty 2 passed\n"
	if buf.String() != want {
		t.Errorf("console wrote %q, want %q", buf.String(), want)
	}
	plain.Close()
	if err := plain.Announce(ctx, a); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := kinded.Announce(cancelled, a); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: %v", err)
	}
}

func TestJSONLinesIsDeterministic(t *testing.T) {
	var buf bytes.Buffer
	j := NewJSONLines(&buf)
	a := models.Announcement{Seq: 7, Kind: "activation.enemy", Text: "Radscorpion <attacks> Nate", Lang: "en",
		Data: map[string]any{"zeta": 1, "alpha": []int{1, 2}, "mid": map[string]any{"b": true, "a": "x"}}}
	for range 2 {
		if err := j.Announce(context.Background(), a); err != nil {
			t.Fatal(err)
		}
	}
	line := `{"seq":7,"kind":"activation.enemy","text":"Radscorpion <attacks> Nate","lang":"en","data":{"alpha":[1,2],"mid":{"a":"x","b":true},"zeta":1}}` + "\n"
	if buf.String() != line+line {
		t.Errorf("got %q\nwant %q", buf.String(), line+line)
	}

	buf.Reset()
	bad := models.Announcement{Kind: "bad", Data: map[string]any{"x": math.NaN()}}
	if err := j.Announce(context.Background(), bad); err == nil || buf.Len() != 0 {
		t.Errorf("unencodable announcement: err %v, wrote %q", err, buf.String())
	}
}

type failing struct{ closed bool }

func (f *failing) Announce(context.Context, models.Announcement) error { return errors.New("boom") }
func (f *failing) Close() error                                        { f.closed = true; return errors.New("close boom") }

func TestMultiKeepsGoing(t *testing.T) {
	var a, b bytes.Buffer
	f := &failing{}
	m := Multi{NewConsole(&a, false), f, NewConsole(&b, false)}
	err := m.Announce(context.Background(), models.Announcement{Text: "hello"})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Multi error = %v", err)
	}
	if a.String() != "hello\n" || b.String() != "hello\n" {
		t.Errorf("announcers after the failing one did not run: %q %q", a.String(), b.String())
	}
	if err := m.Close(); err == nil || !f.closed {
		t.Errorf("Close: %v, closed %v", err, f.closed)
	}
}

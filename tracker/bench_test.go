package tracker

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// benchStreams caches generated streams by length (generation folds the
// log for every undo, redo and correction, so it is done once).
var benchStreams struct {
	sync.Mutex
	m map[int]*streamGen
}

func benchStream(b *testing.B, n int) *streamGen {
	b.Helper()
	benchStreams.Lock()
	defer benchStreams.Unlock()
	if g, ok := benchStreams.m[n]; ok {
		return g
	}
	start := time.Now()
	g := generateStream(testContent(b), 20250314, n, benchMix, false)
	b.Logf("generated %d events in %v: %v", n, time.Since(start).Round(time.Millisecond), streamStats(g.evs))
	if benchStreams.m == nil {
		benchStreams.m = map[int]*streamGen{}
	}
	benchStreams.m[n] = g
	return g
}

// BenchmarkReplay10k folds 10,000 generated valid events (setup, tests,
// fights, rerolls, cards, rounds, adjustments, a few undos, redos and
// corrections) from an empty game: the cost of resuming a long session.
func BenchmarkReplay10k(b *testing.B) {
	const n = 10_000
	c := testContent(b)
	g := benchStream(b, n)
	logged := loggedStream(g.evs)
	if got, want := canonJSON(Replay(c, logged)), canonJSON(g.sim.game); got != want {
		b.Fatal("the replay differs from the generator's live state")
	}
	b.ReportAllocs()
	for b.Loop() {
		if gm := Replay(c, logged); !gm.Started {
			b.Fatal("not started")
		}
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/n, "ns/event")
	b.ReportMetric(n/(perOp/1e9), "events/s")
}

// BenchmarkSubmit submits one event per op through a Session on a real
// store: validation, the durable (fsynced) append, and applying it (undo,
// redo and corrections refold the log). The generated 2,000-event stream is
// replayed into a fresh store each time it runs out (untimed).
func BenchmarkSubmit(b *testing.B) {
	const n = 2000
	c := testContent(b)
	g := benchStream(b, n)
	cat, err := NewCatalog("en")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	dir := b.TempDir()
	var (
		st    *Store
		s     *Session
		i     int
		round int
	)
	open := func() {
		if st != nil {
			st.Close()
		}
		round++
		var err error
		if st, err = OpenStore(filepath.Join(dir, fmt.Sprintf("bench-%d.db", round))); err != nil {
			b.Fatal(err)
		}
		if s, err = OpenSession(ctx, st, c, cat, "", "bench"); err != nil {
			b.Fatal(err)
		}
		i = 0
	}
	open()
	defer func() { st.Close() }()
	b.ReportAllocs()
	for b.Loop() {
		if i == len(g.evs) {
			b.StopTimer()
			open()
			b.StartTimer()
		}
		if _, err := s.Submit(ctx, g.evs[i]); err != nil {
			b.Fatalf("event %d %q: %v", i+1, g.lines[i], err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// longGame writes an events file of n events: the won and lost games of
// testdata/games played one after the other (each setup starts a new game
// once the last one is over), with each correction's target moved to the
// same roll of its copy. Every line is an event the tracker accepts, so the
// sequence numbers are the event counts.
func longGame(tb testing.TB, n int) string {
	tb.Helper()
	var games [][]string
	for _, name := range []string{"won", "lost"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "games", name+".events"))
		if err != nil {
			tb.Fatal(err)
		}
		var lines []string
		for _, l := range strings.Split(string(raw), "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				lines = append(lines, t)
			}
		}
		games = append(games, lines)
	}
	var b strings.Builder
	written, offset := 0, 0
	for g := 0; written < n; g++ {
		lines := games[g%len(games)]
		for _, l := range lines {
			if written == n {
				break
			}
			if f := strings.Fields(l); f[0] == "correct" {
				target, err := strconv.Atoi(f[1])
				if err != nil {
					tb.Fatalf("correct line %q: %v", l, err)
				}
				f[1] = strconv.Itoa(target + offset)
				l = strings.Join(f, " ")
			}
			b.WriteString(l + "\n")
			written++
		}
		offset += len(lines)
	}
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("long-%d.events", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// benchmarkReplay runs `tablecam replay --json` on an events file of n
// events and reports the time per event, which stays the same as n grows
// when replaying is linear.
func benchmarkReplay(b *testing.B, n int) {
	events := longGame(b, n)
	b.Setenv("TABLECAM_DATA_DIR", b.TempDir())
	b.Setenv("TABLECAM_VOICE_ENABLED", "false")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		root := newRoot()
		var errb bytes.Buffer
		root.SetOut(io.Discard)
		root.SetErr(&errb)
		root.SetIn(strings.NewReader(""))
		root.SetArgs([]string{"replay", "--json", "--events", events})
		if err := root.Execute(); err != nil {
			b.Fatalf("replay: %v\n%.2000s", err, errb.String())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
}

func BenchmarkReplay10k(b *testing.B) { benchmarkReplay(b, 10_000) }
func BenchmarkReplay50k(b *testing.B) { benchmarkReplay(b, 50_000) }

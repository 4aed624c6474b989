package card

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tablecam/vision"
	"tablecam/vision/synth"
)

// cardsDigestSeed is the first training seed of TestCardsReadingDigest's
// scenes (taught: + 1000·condition + k; untaught: + 90 000 + k; the
// benchmark's kind of scene with stickers: + 95 000 + k).
const cardsDigestSeed = synth.TrainSeedMin + 800_000

// TestCardsReadingDigest reads training scenes (taught cards per condition
// of the evaluation, untaught cards, the benchmark's kind of scenes with
// stickers), with and without the empty table, and compares one hash over
// every reading (id, method, box, corners, confidence to 1e-6) with the
// hash checked into testdata/reading-digest.txt for that scene set. A
// change meant only to make reading faster must leave the hash as it is;
// a change that reads differently on purpose says so and writes the new
// hash:
//
//	go test ./vision/card -run 'TestCardsReadingDigest$' -args -update
//
// The default set (a few taught cards, one scene per condition) is small
// enough for make test; -digest-cards 100 -digest-scenes 16 is the larger
// set, checked in under its own line. -digest-dump FILE writes every
// reading to FILE, one a line, to find which changed.
func TestCardsReadingDigest(t *testing.T) {
	per, n := *digestScenes, *digestCards
	if per < 1 || n < 1 {
		t.Fatalf("-digest-scenes %d -digest-cards %d: want positive numbers", per, n)
	}
	// OpenCV's parallel loops may split sums differently with another
	// thread count; one thread reads the same on every machine's core count.
	before := vision.OpenCVThreads()
	vision.SetOpenCVThreads(1)
	t.Cleanup(func() { vision.SetOpenCVThreads(before) })
	ix, teachSeeds := cardsTeachAll(t, n, 3)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var dump *os.File
	if p := *digestDump; p != "" {
		if dump, err = os.Create(p); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := dump.Close(); err != nil {
				t.Error(err)
			}
		}()
	}
	h := sha256.New()
	put := func(v int64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	var seeds []int64
	var cpu [2]time.Duration
	frames := 0
	read := func(s synth.CardScene, ref bool) ([]Reading, []synth.CardTruth) {
		m, truth, err := synth.RenderCardScene(s)
		defer m.Close()
		if err != nil {
			return nil, nil
		}
		got, dt, err := cardsRead(r, s, m, ref)
		if err != nil {
			t.Fatal(err)
		}
		if ref {
			cpu[1] += dt
			frames++
		} else {
			cpu[0] += dt
		}
		put(s.Seed)
		put(int64(len(got)))
		for _, g := range got {
			if dump != nil {
				fmt.Fprintf(dump, "%d ref=%v %s %s %v %v %.6f\n", s.Seed, ref, g.ID, g.Method, g.Box, g.Corners, g.Confidence)
			}
			h.Write([]byte(g.ID + "\x00" + g.Method + "\x00" + g.Dictionary + "\x00" + g.Kind + "\x00"))
			if g.Marker != nil {
				put(int64(*g.Marker))
			}
			put(int64(g.Box.Min.X))
			put(int64(g.Box.Min.Y))
			put(int64(g.Box.Max.X))
			put(int64(g.Box.Max.Y))
			put(int64(math.Round(g.Confidence * 1e6)))
			for _, c := range g.Corners {
				put(int64(math.Round(float64(c.X) * 1e3)))
				put(int64(math.Round(float64(c.Y) * 1e3)))
			}
		}
		return got, truth
	}
	want := func(tr synth.CardTruth) string { return cardsID(tr.Art) }
	for _, ref := range []bool{true, false} {
		var taught, untaught cardsScore
		falseIDs := 0
		for ci, c := range cardsLearnedConds() {
			for k := range per {
				seed := cardsDigestSeed + int64(ci)*1000 + int64(k)
				seeds = append(seeds, seed)
				s := cardsLearnedScene(seed, n, true, 0)
				c.set(&s)
				got, truth := read(s, ref)
				taught.add(cardsMatch(got, truth, want))
			}
		}
		for k := range 4 * per {
			seed := cardsDigestSeed + 90_000 + int64(k)
			seeds = append(seeds, seed)
			s := cardsLearnedScene(seed, n, false, cardsUntaughtCalib)
			got, truth := read(s, ref)
			untaught.add(cardsMatch(got, truth, func(synth.CardTruth) string { return Unknown }))
			for _, g := range got {
				if g.ID != Unknown && g.Method == MethodLearned {
					falseIDs++
				}
			}
		}
		for k := range per {
			seed := cardsDigestSeed + 95_000 + int64(k)
			seeds = append(seeds, seed)
			bgs := synth.Backgrounds()
			read(cardsBenchScene(seed, bgs[k%len(bgs)], seed*7%int64(n), (seed*7+50)%int64(n)), ref)
		}
		t.Logf("%s: taught cards %d: right %d, unknown %d, wrong %d, no outline %d; untaught cards %d: false-ID %d, unknown %d",
			cardsRefName(ref), taught.cards, taught.right, taught.unknown, taught.wrong, taught.missed, untaught.cards, falseIDs, untaught.right)
	}
	cardsCheckSeeds(t, append(teachSeeds, seeds...), nil)
	t.Logf("%d frames a reference; cpu ms/frame: ref %.1f, no-ref %.1f", frames,
		float64(cpu[1])/1e6/float64(max(1, frames)), float64(cpu[0])/1e6/float64(max(1, frames)))
	got := fmt.Sprintf("%x", h.Sum(nil)[:12])
	key := fmt.Sprintf("cards=%d scenes=%d", n, per)
	if *updateDigest {
		if err := writeDigest(digestFile, key, got); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: digest %s written to %s", key, got, digestFile)
		return
	}
	checked, err := readDigest(digestFile, key)
	if err != nil {
		t.Fatalf("%v (go test ./vision/card -run 'TestCardsReadingDigest$' -args -update writes it)", err)
	}
	if got != checked {
		t.Errorf("%s: reading digest %s, checked in %s: a reading changed (-digest-dump FILE lists them; -update checks in the new digest when the change is meant)", key, got, checked)
	}
}

// digestFile holds one line per scene set: the set's key and its digest.
var digestFile = filepath.Join("testdata", "reading-digest.txt")

// readDigest returns the digest checked in for key.
func readDigest(path, key string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading digest: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, ": "); ok && k == key && !strings.HasPrefix(line, "#") {
			return strings.TrimSpace(v), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("reading digest %s: %w", path, err)
	}
	return "", fmt.Errorf("reading digest %s: no line for %q", path, key)
}

// writeDigest sets key's digest in path, keeping the other lines.
func writeDigest(path, key, digest string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("reading digest: %w", err)
	}
	var lines []string
	set := false
	for _, line := range strings.Split(strings.TrimRight(string(old), "\n"), "\n") {
		if k, _, ok := strings.Cut(line, ": "); ok && k == key {
			line, set = key+": "+digest, true
		}
		if line != "" || len(lines) > 0 {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		lines = append(lines, digestHeader)
	}
	if !set {
		lines = append(lines, key+": "+digest)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("reading digest: %w", err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("reading digest: %w", err)
	}
	return nil
}

const digestHeader = "# TestCardsReadingDigest: one hash over every card reading of a scene set.\n" +
	"# A reading meant to change: go test ./vision/card -run 'TestCardsReadingDigest$' -args -update\n" +
	"# (with -digest-cards N -digest-scenes K for another set)."

var (
	updateDigest = flag.Bool("update", false, "TestCardsReadingDigest: write the digest of this run's readings to testdata/reading-digest.txt instead of comparing")
	digestScenes = flag.Int("digest-scenes", 2, "TestCardsReadingDigest: scenes per condition")
	digestCards  = flag.Int("digest-cards", 16, "TestCardsReadingDigest: cards taught")
	digestDump   = flag.String("digest-dump", "", "TestCardsReadingDigest: also write every reading to this file, one a line")
)

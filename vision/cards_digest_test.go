package vision_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
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
// of the evaluation, untaught cards, the benchmark's scenes with stickers),
// with and without the empty table, and logs one hash over every reading
// (id, method, box, corners, confidence to 1e-6) with the right / unknown /
// wrong counts. A change meant only to make reading faster must leave the
// hash as it was. TABLECAM_CARD_DIGEST=1 runs it (TABLECAM_CARD_DIGEST=n:
// n scenes per condition, default 16); TABLECAM_CARD_DIGEST_DUMP=FILE also
// writes the readings to FILE.
func TestCardsReadingDigest(t *testing.T) {
	env := os.Getenv("TABLECAM_CARD_DIGEST")
	if env == "" {
		t.Skip("TABLECAM_CARD_DIGEST=1 runs the digest of readings")
	}
	per := 16
	if n, err := strconv.Atoi(env); err == nil && n > 1 {
		per = n
	}
	ix, teachSeeds := cardsTeachAll(t, 100, 3)
	r, err := vision.NewCardReader(vision.CardReaderOptions{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// TABLECAM_CARD_DIGEST_DUMP=FILE writes every reading to FILE, one a
	// line, to find which changed.
	var dump *os.File
	if p := os.Getenv("TABLECAM_CARD_DIGEST_DUMP"); p != "" {
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
	read := func(s synth.CardScene, ref bool) ([]vision.CardReading, []synth.CardTruth) {
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
				s := cardsLearnedScene(seed, 100, true, 0)
				c.set(&s)
				got, truth := read(s, ref)
				taught.add(cardsMatch(got, truth, want))
			}
		}
		for k := range 4 * per {
			seed := cardsDigestSeed + 90_000 + int64(k)
			seeds = append(seeds, seed)
			s := cardsLearnedScene(seed, 100, false, cardsUntaughtCalib)
			got, truth := read(s, ref)
			untaught.add(cardsMatch(got, truth, func(synth.CardTruth) string { return vision.CardUnknown }))
			for _, g := range got {
				if g.ID != vision.CardUnknown && g.Method == vision.CardMethodLearned {
					falseIDs++
				}
			}
		}
		for k := range per {
			seed := cardsDigestSeed + 95_000 + int64(k)
			seeds = append(seeds, seed)
			bgs := synth.Backgrounds()
			read(cardsBenchScene(seed, bgs[k%len(bgs)], seed*7%100, (seed*7+50)%100), ref)
		}
		t.Logf("%s: taught cards %d: right %d, unknown %d, wrong %d, no outline %d; untaught cards %d: false-ID %d, unknown %d",
			cardsRefName(ref), taught.cards, taught.right, taught.unknown, taught.wrong, taught.missed, untaught.cards, falseIDs, untaught.right)
	}
	cardsCheckSeeds(t, append(teachSeeds, seeds...), nil)
	t.Logf("%d frames a reference; cpu ms/frame: ref %.1f, no-ref %.1f", frames,
		float64(cpu[1])/1e6/float64(max(1, frames)), float64(cpu[0])/1e6/float64(max(1, frames)))
	t.Logf("digest %x", h.Sum(nil)[:12])
	fmt.Fprintf(os.Stderr, "CARD DIGEST %x\n", h.Sum(nil)[:12])
}

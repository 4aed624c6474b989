package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// roundTripPicture draws a card on a table, w×h (lying when w > h),
// with shapes on it (none when blank), the picture turned by a small
// random angle about the card.
func roundTripPicture(rng *rand.Rand, w, h int, blank bool) gocv.Mat {
	table := gocv.NewScalar(float64(20+rng.IntN(60)), float64(60+rng.IntN(80)), float64(20+rng.IntN(60)), 0)
	m := gocv.NewMatWithSizeFromScalar(table, 420, 520, gocv.MatTypeCV8UC3)
	x0, y0 := 260-w/2+rng.IntN(41)-20, 210-h/2+rng.IntN(41)-20
	gocv.Rectangle(&m, image.Rect(x0, y0, x0+w, y0+h), color.RGBA{uint8(200 + rng.IntN(50)), uint8(200 + rng.IntN(50)), uint8(200 + rng.IntN(50)), 0}, -1)
	if !blank {
		for range 25 {
			p := image.Pt(x0+8+rng.IntN(w-40), y0+8+rng.IntN(h-40))
			c := color.RGBA{uint8(rng.IntN(200)), uint8(rng.IntN(200)), uint8(rng.IntN(200)), 0}
			switch rng.IntN(3) {
			case 0:
				gocv.Circle(&m, p.Add(image.Pt(8, 8)), 3+rng.IntN(8), c, -1)
			case 1:
				gocv.Rectangle(&m, image.Rectangle{p, p.Add(image.Pt(4+rng.IntN(24), 4+rng.IntN(24)))}, c, 2)
			default:
				gocv.PutText(&m, "K7", p.Add(image.Pt(0, 20)), gocv.FontHersheySimplex, 0.6, c, 2)
			}
		}
	}
	rot := gocv.GetRotationMatrix2D(image.Pt(x0+w/2, y0+h/2), rng.Float64()*30-15, 1)
	defer rot.Close()
	out := gocv.NewMat()
	gocv.WarpAffineWithParams(m, &out, rot, image.Pt(m.Cols(), m.Rows()), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{uint8(table.Val3), uint8(table.Val2), uint8(table.Val1), 0})
	m.Close()
	return out
}

// roundTripIndex teaches n varied cards: upright and lying (every
// second), busy and blank (every fifth: no keypoints are found on them),
// each from one to three pictures.
func roundTripIndex(t *testing.T, seed uint64, n int) *Index {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 38))
	ix := New()
	for c := range n {
		w := 120 + rng.IntN(60)
		h := w * 7 / 5
		if c%2 == 1 {
			w, h = h, w
		}
		var imgs []gocv.Mat
		for range 1 + rng.IntN(3) {
			imgs = append(imgs, roundTripPicture(rng, w, h, c%5 == 0))
		}
		err := ix.Teach(fmt.Sprintf("card-%02d", c), imgs...)
		for _, m := range imgs {
			m.Close()
		}
		if err != nil {
			t.Fatalf("card %d: %v", c, err)
		}
	}
	return ix
}

// TestCardIndexRoundTrip: an index as teaching leaves it is what
// Load reads back from Save: every entry (descriptor, grown,
// keypoints and views, block energies), the hashes, threshold and ratio.
// The cards taught vary: upright and lying, busy and blank (no keypoints),
// one to three pictures each, placed and turned at random; among them are
// lying examples without keypoints, which the reader once misread.
func TestCardIndexRoundTrip(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		ix := roundTripIndex(t, seed, 30)
		ix.Threshold, ix.Ratio = 0.3, 0.8
		lying, none := 0, 0
		for i := range ix.entries {
			e := &ix.entries[i]
			if e.Keys != nil && e.Keys.W > e.Keys.H {
				lying++
			}
			if !e.Grown && (e.Keys == nil || len(e.Keys.Desc) == 0) {
				none++
			}
		}
		if lying == 0 || none == 0 {
			t.Fatalf("seed %d: %d lying examples, %d without keypoints: the cards do not vary enough", seed, lying, none)
		}
		back := indexReloaded(t, ix)
		if back.Threshold != ix.Threshold || back.Ratio != ix.Ratio || !reflect.DeepEqual(back.hashes, ix.hashes) {
			t.Errorf("seed %d: threshold %v ratio %v, %d hashes; want %v %v %d", seed, back.Threshold, back.Ratio, len(back.hashes), ix.Threshold, ix.Ratio, len(ix.hashes))
		}
		if len(back.entries) != len(ix.entries) {
			t.Fatalf("seed %d: %d entries back of %d", seed, len(back.entries), len(ix.entries))
		}
		for i := range ix.entries {
			if !reflect.DeepEqual(back.entries[i], ix.entries[i]) {
				t.Errorf("seed %d: entry %d (%s) differs after loading", seed, i, ix.entries[i].ID)
			}
		}
	}
}

// indexRecords returns the offsets of the records of descriptors.bin
// (version 5) in data.
func indexRecords(t *testing.T, data []byte) []int {
	t.Helper()
	var offs []int
	off := len(indexMagic) + 16
	for off < len(data) {
		offs = append(offs, off)
		off += 8 + int(binary.LittleEndian.Uint32(data[off:]))
	}
	if off != len(data) {
		t.Fatalf("records end at %d of %d bytes", off, len(data))
	}
	return offs
}

// TestCardIndexDamagedEntries: a damaged entry of a saved index costs that
// entry: the others load and read, and the error (a
// *DamagedError, with the index) names the card that lost it.
// A record whose length is damaged costs it and those after it, no more.
func TestCardIndexDamagedEntries(t *testing.T) {
	ix := roundTripIndex(t, 3, 6)
	dir := t.TempDir()
	if err := ix.Save(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, indexData)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	offs := indexRecords(t, good)
	if len(offs) != len(ix.entries) {
		t.Fatalf("%d records for %d entries", len(offs), len(ix.entries))
	}
	// The id of the entry damaged.
	k := 5
	victim := ix.entries[k].ID
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		lost   int // entries lost
		cards  []string
	}{
		{"a flipped byte in a keypoint", func(b []byte) []byte { b[offs[k+1]-20] ^= 0x40; return b }, 1, []string{victim}},
		{"a flipped byte, checksum made right (a bad keypoint count)", func(b []byte) []byte {
			// The keypoints' count of entry k, after flags, id, hash,
			// norm, fine grey and chroma.
			p := offs[k] + 8 + 1 + 2 + len(victim) + 8 + 4 + fineD + 4*chromD
			binary.LittleEndian.PutUint16(b[p:], 4000)
			binary.LittleEndian.PutUint32(b[offs[k]+4:], crc32.ChecksumIEEE(b[offs[k]+8:offs[k+1]]))
			return b
		}, 1, []string{victim}},
		{"a damaged length", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[offs[k]:], 1<<30); return b },
			len(offs) - k, nil},
		{"cut short", func(b []byte) []byte { return b[:offs[k]+100] }, len(offs) - k, nil},
	} {
		if err := os.WriteFile(path, tc.damage(bytes.Clone(good)), 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := Load(dir)
		var dmg *DamagedError
		if !errors.As(err, &dmg) || back == nil {
			t.Fatalf("%s: %v (index %v)", tc.name, err, back != nil)
		}
		if dmg.Lost != tc.lost || dmg.Total != len(offs) || len(back.entries) != len(offs)-tc.lost || len(back.hashes) != len(back.entries) {
			t.Errorf("%s: lost %d of %d, %d entries back; want %d lost", tc.name, dmg.Lost, dmg.Total, len(back.entries), tc.lost)
		}
		// The entries kept are the taught ones, in order.
		want := append(append([]Entry(nil), ix.entries[:k]...), ix.entries[k+tc.lost:]...)
		if !reflect.DeepEqual(back.entries, want) {
			t.Errorf("%s: the entries kept differ from the taught ones", tc.name)
		}
		// The cards that lost entries are named, in the error's text too.
		lostCards := map[string]bool{}
		for _, e := range ix.entries[k : k+tc.lost] {
			lostCards[e.ID] = true
		}
		if len(dmg.Cards) != len(lostCards) {
			t.Errorf("%s: cards named %v, want %d", tc.name, dmg.Cards, len(lostCards))
		}
		for _, c := range dmg.Cards {
			if !lostCards[c.ID] || !strings.Contains(err.Error(), c.ID) {
				t.Errorf("%s: card %s named (%v)", tc.name, c.ID, err)
			}
		}
		for _, id := range tc.cards {
			if !strings.Contains(err.Error(), id) {
				t.Errorf("%s: %v does not name %s", tc.name, err, id)
			}
		}
	}
	// Every entry damaged: no index, the error says so.
	bad := bytes.Clone(good)
	for _, o := range offs {
		bad[o+4] ^= 1
	}
	os.WriteFile(path, bad, 0o644)
	if back, err := Load(dir); back != nil || err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("all damaged: %v, %v", back != nil, err)
	}
}

// writeUnframed writes ix as version 4 wrote it: the entries one after
// the other, and keypoints of which none were found written as their count
// 0 followed by the card's size.
func writeUnframed(t *testing.T, dir string, ix *Index) {
	t.Helper()
	if err := ix.Save(dir); err != nil {
		t.Fatal(err)
	}
	man, err := os.ReadFile(filepath.Join(dir, indexManifest))
	if err != nil {
		t.Fatal(err)
	}
	man = bytes.Replace(man, []byte(fmt.Sprintf(`"version": %d`, Version)), []byte(`"version": 4`), 1)
	var buf bytes.Buffer
	buf.WriteString(indexMagic)
	binary.Write(&buf, binary.LittleEndian, [4]uint32{4, uint32(len(ix.entries)), fineD, chromD})
	keys := func(ks *Keys) {
		if ks != nil && len(ks.Desc) == 0 {
			binary.Write(&buf, binary.LittleEndian, [3]uint16{0, uint16(ks.W), uint16(ks.H)})
			return
		}
		writeKeys(&buf, ks)
	}
	for _, e := range ix.entries {
		binary.Write(&buf, binary.LittleEndian, uint16(len(e.ID)))
		buf.WriteString(e.ID)
		binary.Write(&buf, binary.LittleEndian, e.Desc.hash)
		binary.Write(&buf, binary.LittleEndian, e.Desc.fineNorm)
		binary.Write(&buf, binary.LittleEndian, e.Desc.fine[:])
		binary.Write(&buf, binary.LittleEndian, e.Desc.chroma[:])
		keys(e.Keys)
		keys(e.views)
	}
	os.WriteFile(filepath.Join(dir, indexData), buf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, indexManifest), man, 0o644)
}

// TestCardIndexUnframed: an index saved by version 4 (entries unframed)
// still loads, its examples without keypoints too (written with the card's
// size after the count 0, upright and lying); damaged in the middle, the
// entries before the damage load and the cards after it are named.
func TestCardIndexUnframed(t *testing.T) {
	ix := roundTripIndex(t, 4, 10)
	// Examples whose keypoints and views were taken but none found, as
	// version 4's teaching kept them.
	empty := 0
	for i := range ix.entries {
		if e := &ix.entries[i]; !e.Grown && e.Keys == nil {
			w, h := KeyW, cardKeyH
			if empty%2 == 1 {
				w, h = h, w
			}
			e.Keys, e.views = &Keys{W: w, H: h}, &Keys{W: w, H: h}
			empty++
		}
	}
	if empty < 2 {
		t.Fatalf("%d examples without keypoints", empty)
	}
	dir := t.TempDir()
	writeUnframed(t, dir, ix)
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Loaded, keypoints of which none were found are none (nil).
	for i := range ix.entries {
		e := &ix.entries[i]
		if e.Keys != nil && len(e.Keys.Desc) == 0 {
			e.Keys = nil
		}
		if e.views != nil && len(e.views.Desc) == 0 {
			e.views = nil
		}
	}
	if !reflect.DeepEqual(back.entries, ix.entries) || !reflect.DeepEqual(back.hashes, ix.hashes) {
		t.Errorf("version 4 index: entries differ after loading")
	}
	// Damaged: the entries before the damage load.
	path := filepath.Join(dir, indexData)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)/2], 0o644)
	back, err = Load(dir)
	var dmg *DamagedError
	if !errors.As(err, &dmg) || back == nil || len(back.entries) == 0 || len(back.entries) >= len(ix.entries) ||
		!reflect.DeepEqual(back.entries, ix.entries[:len(back.entries)]) || len(dmg.Cards) == 0 {
		t.Fatalf("half a version 4 index: %v", err)
	}
	if last := ix.entries[len(ix.entries)-1].ID; !strings.Contains(err.Error(), last) {
		t.Errorf("half a version 4 index: %v does not name %s", err, last)
	}
}

package index

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"tablecam/vision/geom"
)

// Saved index files: index.json, a readable manifest, and descriptors.bin,
// the entries. descriptors.bin is the magic, a header of four uint32
// (format version, entries, fineD, chromD) and the entries, little
// endian. From version 5 each entry is a record of its own: its length
// (uint32), the CRC-32 (IEEE) of its bytes, then a flags byte (bit 0:
// grown) and the entry, so that a damaged entry costs that entry only: the
// next record starts where the length says. Version 4 wrote the entries
// one after the other, unframed, grown being every second one; it is still
// read.
const (
	indexManifest = "index.json"
	indexData     = "descriptors.bin"
	indexMagic    = "TCCARDS1"
	// indexUnframed is the last version without records.
	indexUnframed = 4
	// indexMaxRecord bounds a record's length: an entry is its
	// descriptor (under 5 KB) and at most 2 × 4 × keyTeach keypoints
	// of 40 bytes.
	indexMaxRecord = 1 << 20
	// indexMaxEntries bounds the entries of an index.
	indexMaxEntries = 1 << 20
)

// indexFile is the manifest of a saved index.
type indexFile struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	Descriptor string    `json:"descriptor"`
	Threshold  float64   `json:"threshold"`
	Ratio      float64   `json:"ratio"`
	Saved      time.Time `json:"saved"`
	Examples   int       `json:"examples"`
	Cards      []struct {
		ID       string `json:"id"`
		Examples int    `json:"examples"`
	} `json:"cards"`
}

// DamagedError is what Load returns, with the index of
// the entries it could read, when descriptors.bin is damaged in places:
// the cards that lost examples are named so that they can be taught
// again; the other cards read as taught.
type DamagedError struct {
	Dir string
	// Reasons are what was wrong, one per damaged place (a record's
	// number and why).
	Reasons []string
	// Lost is how many of Total entries could not be read.
	Lost, Total int
	// Cards are the cards that lost entries (from the manifest), sorted,
	// with how many each lost.
	Cards []Loss
}

// Loss is a card that lost entries of a damaged index.
type Loss struct {
	ID         string
	Lost, Kept int
}

// Error says which cards were lost and what to do.
func (e *DamagedError) Error() string {
	var cards []string
	for _, c := range e.Cards {
		cards = append(cards, fmt.Sprintf("%s (%d of %d entries lost)", c.ID, c.Lost, c.Lost+c.Kept))
	}
	msg := fmt.Sprintf("index: load card index %s: %s is damaged (%s): %d of %d entries could not be read",
		e.Dir, indexData, strings.Join(e.Reasons, "; "), e.Lost, e.Total)
	if len(cards) > 0 {
		msg += "; teach these cards again: " + strings.Join(cards, ", ")
	}
	return msg
}

// Save writes the index into dir (created if needed): index.json, a
// readable manifest, and descriptors.bin. The data directory's place for it
// is profiles/cards/.
func (ix *Index) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("index: save card index: %w", err)
	}
	man := indexFile{Format: "tablecam-card-index", Version: Version, Descriptor: descriptorName,
		Threshold: ix.Threshold, Ratio: ix.Ratio, Saved: time.Now().UTC().Truncate(time.Second), Examples: len(ix.entries)}
	count := map[string]int{}
	for _, e := range ix.entries {
		count[e.ID]++
	}
	for _, id := range ix.Cards() {
		man.Cards = append(man.Cards, struct {
			ID       string `json:"id"`
			Examples int    `json:"examples"`
		}{id, count[id]})
	}
	js, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return fmt.Errorf("index: save card index: %w", err)
	}
	var buf, rec bytes.Buffer
	buf.WriteString(indexMagic)
	le := binary.LittleEndian
	binary.Write(&buf, le, [4]uint32{Version, uint32(len(ix.entries)), fineD, chromD})
	for i := range ix.entries {
		e := &ix.entries[i]
		if err := checkID(e.ID); err != nil {
			return fmt.Errorf("index: save card index: entry %d: %w", i, err)
		}
		rec.Reset()
		var flags byte
		if e.Grown {
			flags |= 1
		}
		rec.WriteByte(flags)
		writeEntry(&rec, e)
		binary.Write(&buf, le, [2]uint32{uint32(rec.Len()), crc32.ChecksumIEEE(rec.Bytes())})
		buf.Write(rec.Bytes())
	}
	// Data first, manifest last: a manifest always describes its data.
	if err := writeFile(filepath.Join(dir, indexData), buf.Bytes()); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, indexManifest), append(js, '\n'))
}

// writeEntry writes an entry without its flags: its id (uint16 length,
// bytes), hash, fine norm, fine grey, chroma, keypoints and views.
func writeEntry(buf *bytes.Buffer, e *Entry) {
	le := binary.LittleEndian
	binary.Write(buf, le, uint16(len(e.ID)))
	buf.WriteString(e.ID)
	binary.Write(buf, le, e.Desc.hash)
	binary.Write(buf, le, e.Desc.fineNorm)
	binary.Write(buf, le, e.Desc.fine[:])
	binary.Write(buf, le, e.Desc.chroma[:])
	writeKeys(buf, e.Keys)
	writeKeys(buf, e.views)
}

// writeKeys writes an example's keypoints: their count (0: none, and
// nothing more), the upright card's size, then per keypoint x, y (float32)
// and the descriptor (4 uint64).
func writeKeys(buf *bytes.Buffer, ks *Keys) {
	le := binary.LittleEndian
	if ks == nil || len(ks.Desc) == 0 {
		binary.Write(buf, le, uint16(0))
		return
	}
	binary.Write(buf, le, uint16(len(ks.Desc)))
	binary.Write(buf, le, [2]uint16{uint16(ks.W), uint16(ks.H)})
	for i, d := range ks.Desc {
		binary.Write(buf, le, [2]float32{ks.Pts[i].X, ks.Pts[i].Y})
		binary.Write(buf, le, d)
	}
}

// writeFile writes data to path through a temporary file and a rename.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("index: save card index: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("index: save card index: %w", err)
	}
	return nil
}

// Load reads an index saved with Save from dir. An index of another
// version is refused with an error that says to teach the cards again.
//
// When descriptors.bin is damaged in places, Load returns the
// index of the entries it could read together with a
// *DamagedError naming the cards that lost entries: the caller
// reports it and goes on with the rest. Only when no entry could be read
// is the index nil.
func Load(dir string) (*Index, error) {
	js, err := os.ReadFile(filepath.Join(dir, indexManifest))
	if err != nil {
		return nil, fmt.Errorf("index: load card index: %w", err)
	}
	var man indexFile
	if err := json.Unmarshal(js, &man); err != nil {
		return nil, fmt.Errorf("index: load card index %s: %w", filepath.Join(dir, indexManifest), err)
	}
	if man.Format != "tablecam-card-index" {
		return nil, fmt.Errorf("index: load card index %s: not a card index (format %q)", dir, man.Format)
	}
	if (man.Version != Version && man.Version != indexUnframed) || man.Descriptor != descriptorName {
		return nil, fmt.Errorf("index: load card index %s: version %d (%s), this tablecam reads version %d (%s): teach the cards again",
			dir, man.Version, man.Descriptor, Version, descriptorName)
	}
	if man.Threshold < 0 || man.Ratio < 0 || math.IsNaN(man.Threshold) || math.IsNaN(man.Ratio) {
		return nil, fmt.Errorf("index: load card index %s: bad threshold or ratio", dir)
	}
	f, err := os.Open(filepath.Join(dir, indexData))
	if err != nil {
		return nil, fmt.Errorf("index: load card index: %w", err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	bad := func(what string) error {
		return fmt.Errorf("index: load card index %s: %s is damaged (%s)", dir, indexData, what)
	}
	magic := make([]byte, len(indexMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != indexMagic {
		return nil, bad("no header")
	}
	le := binary.LittleEndian
	var hdr [4]uint32
	if err := binary.Read(r, le, &hdr); err != nil {
		return nil, bad("short header")
	}
	if int(hdr[0]) != man.Version || hdr[2] != fineD || hdr[3] != chromD {
		return nil, bad("wrong version or sizes")
	}
	if int(hdr[1]) != man.Examples || hdr[1] > indexMaxEntries {
		return nil, bad(fmt.Sprintf("%d entries, manifest says %d", hdr[1], man.Examples))
	}
	n := int(hdr[1])
	ix := &Index{Threshold: man.Threshold, Ratio: man.Ratio, entries: make([]Entry, 0, n)}
	var reasons []string
	if man.Version == indexUnframed {
		if err := readUnframed(r, ix, n); err != nil {
			reasons = append(reasons, err.Error())
		}
	} else {
		reasons = readRecords(r, ix, n)
	}
	if len(reasons) == 0 {
		if _, err := r.ReadByte(); err != io.EOF {
			reasons = append(reasons, "trailing data")
		}
	}
	for i := range ix.entries {
		ix.hashes = append(ix.hashes, ix.entries[i].Desc.hash)
	}
	if len(reasons) == 0 {
		return ix, nil
	}
	damage := &DamagedError{Dir: dir, Reasons: reasons, Lost: n - len(ix.entries), Total: n}
	kept := map[string]int{}
	for _, e := range ix.entries {
		kept[e.ID]++
	}
	for _, c := range man.Cards {
		if c.Examples > kept[c.ID] {
			damage.Cards = append(damage.Cards, Loss{ID: c.ID, Lost: c.Examples - kept[c.ID], Kept: kept[c.ID]})
		}
	}
	sort.Slice(damage.Cards, func(i, j int) bool { return damage.Cards[i].ID < damage.Cards[j].ID })
	if len(ix.entries) == 0 {
		return nil, damage
	}
	return ix, damage
}

// readRecords reads n records (version 5 on) into ix: a record whose
// checksum or contents are wrong is left out and its reason returned; a
// record whose length cannot be read ends the reading (the records after it
// cannot be found).
func readRecords(r *bufio.Reader, ix *Index, n int) []string {
	var reasons []string
	le := binary.LittleEndian
	var payload []byte
	pr := bufio.NewReader(nil)
	for i := range n {
		var frame [2]uint32
		if err := binary.Read(r, le, &frame); err != nil {
			return append(reasons, fmt.Sprintf("entries %d to %d missing", i+1, n))
		}
		if frame[0] < 1 || frame[0] > indexMaxRecord {
			return append(reasons, fmt.Sprintf("entry %d: length %d, entries %d to %d unreadable", i+1, frame[0], i+1, n))
		}
		payload = slices.Grow(payload[:0], int(frame[0]))[:frame[0]]
		if _, err := io.ReadFull(r, payload); err != nil {
			return append(reasons, fmt.Sprintf("entries %d to %d missing", i+1, n))
		}
		if crc32.ChecksumIEEE(payload) != frame[1] {
			reasons = append(reasons, fmt.Sprintf("entry %d: checksum", i+1))
			continue
		}
		br := bytes.NewReader(payload[1:])
		pr.Reset(br)
		e, err := readEntry(pr, false)
		if err == nil {
			if _, end := pr.ReadByte(); end != io.EOF {
				err = errors.New("longer than its contents")
			}
		}
		if err != nil {
			reasons = append(reasons, fmt.Sprintf("entry %d: %v", i+1, err))
			continue
		}
		e.Grown = payload[0]&1 != 0
		ix.entries = append(ix.entries, e)
	}
	return reasons
}

// readUnframed reads the n entries of a version 4 index into ix. An
// entry that cannot be read ends the reading: nothing says where the next
// one starts.
func readUnframed(r *bufio.Reader, ix *Index, n int) error {
	for i := range n {
		e, err := readEntry(r, true)
		if err != nil {
			return fmt.Errorf("entry %d: %v, entries %d to %d unreadable", i+1, err, i+1, n)
		}
		e.Grown = i%2 == 1 // saved in add's pairs: as found, grown
		ix.entries = append(ix.entries, e)
	}
	return nil
}

// readEntry reads what writeEntry writes. unframed: an index of
// version 4, whose writer gave an example with no keypoints found the
// card's size after the count 0 (readKeys).
func readEntry(r *bufio.Reader, unframed bool) (Entry, error) {
	le := binary.LittleEndian
	var e Entry
	var n uint16
	if err := binary.Read(r, le, &n); err != nil || n == 0 || n > 64 {
		return e, errors.New("bad card id")
	}
	id := make([]byte, n)
	if _, err := io.ReadFull(r, id); err != nil {
		return e, errors.New("short card id")
	}
	e.ID = string(id)
	if err := checkID(e.ID); err != nil {
		return e, fmt.Errorf("card id: %w", err)
	}
	if err := binary.Read(r, le, &e.Desc.hash); err != nil {
		return e, errors.New("short data")
	}
	if err := binary.Read(r, le, &e.Desc.fineNorm); err != nil {
		return e, errors.New("short data")
	}
	if err := binary.Read(r, le, e.Desc.fine[:]); err != nil {
		return e, errors.New("short data")
	}
	if err := binary.Read(r, le, e.Desc.chroma[:]); err != nil {
		return e, errors.New("short data")
	}
	if !(e.Desc.fineNorm > 0) || math.IsInf(float64(e.Desc.fineNorm), 0) {
		return e, errors.New("bad norm")
	}
	for _, v := range e.Desc.chroma {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return e, errors.New("not a number in the data")
		}
	}
	var err error
	if e.Keys, err = readKeys(r, unframed); err != nil {
		return e, err
	}
	if e.views, err = readKeys(r, unframed); err != nil {
		return e, err
	}
	e.setBlockEnergy()
	return e, nil
}

// isKeySize reports whether b (4 bytes) is a card size of keypoints,
// upright or lying.
func isKeySize(b []byte) bool {
	w, h := binary.LittleEndian.Uint16(b), binary.LittleEndian.Uint16(b[2:])
	return w == KeyW && h == cardKeyH || w == cardKeyH && h == KeyW
}

// readKeys reads what writeKeys writes (nil for none). unframed:
// version 4's writer followed the count 0 of an example with no keypoints
// found by the card's size; it is skipped. Nothing else can follow a
// count 0 with those four bytes: an entry without keypoints has no views
// either (teach takes the views only where it took keypoints), so its
// keypoints' count 0 is followed by its views' count 0; the views are
// followed by the next entry's id length, at most 64, and a card side is
// 96 or 134.
func readKeys(r *bufio.Reader, unframed bool) (*Keys, error) {
	le := binary.LittleEndian
	var n uint16
	if err := binary.Read(r, le, &n); err != nil {
		return nil, fmt.Errorf("short keypoints: %w", err)
	}
	if n == 0 {
		if b, err := r.Peek(4); unframed && err == nil && isKeySize(b) {
			r.Discard(4)
		}
		return nil, nil
	}
	var size [2]uint16
	if err := binary.Read(r, le, &size); err != nil {
		return nil, fmt.Errorf("short keypoints: %w", err)
	}
	if n > 4*keyTeach || size != [2]uint16{KeyW, cardKeyH} && size != [2]uint16{cardKeyH, KeyW} {
		return nil, fmt.Errorf("bad keypoints (%d of a %dx%d card)", n, size[0], size[1])
	}
	ks := &Keys{W: int(size[0]), H: int(size[1]), Pts: make([]geom.Point, n), Desc: make([][4]uint64, n)}
	for i := range ks.Desc {
		var p [2]float32
		if err := binary.Read(r, le, &p); err != nil {
			return nil, fmt.Errorf("short keypoints: %w", err)
		}
		if !(p[0] >= -1 && p[0] <= float32(ks.W) && p[1] >= -1 && p[1] <= float32(ks.H)) {
			return nil, errors.New("keypoint outside the card")
		}
		ks.Pts[i] = geom.Point{X: p[0], Y: p[1]}
		if err := binary.Read(r, le, &ks.Desc[i]); err != nil {
			return nil, fmt.Errorf("short keypoints: %w", err)
		}
	}
	return ks, nil
}

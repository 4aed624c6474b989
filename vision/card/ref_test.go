package card

import (
	"image"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/synth"
)

// cardsRefScene renders a training scene of taught cards and its empty
// table.
func cardsRefScene(t *testing.T, seed int64, n int, bg synth.Background) (synth.CardScene, gocv.Mat, gocv.Mat, []synth.CardTruth) {
	t.Helper()
	s := cardsLearnedScene(seed, n, true, 0)
	if bg != "" {
		s.Background = bg
	}
	m, truth, err := synth.RenderCardScene(s)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	e, err := synth.RenderCardSceneEmpty(s)
	if err != nil {
		m.Close()
		e.Close()
		t.Fatal(err)
	}
	return s, m, e, truth
}

func TestCardReaderSetBackground(t *testing.T) {
	ix, _ := cardsTeachAll(t, 4, 2)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, m, e, _ := cardsRefScene(t, cardsCalibSeed+80_000, 4, synth.BackgroundWood)
	defer m.Close()
	defer e.Close()

	tiny := gocv.NewMatWithSize(16, 16, gocv.MatTypeCV8UC3)
	defer tiny.Close()
	float := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV32F)
	defer float.Close()
	for name, bad := range map[string]gocv.Mat{"16×16": tiny, "float": float} {
		if err := r.SetBackground(bad); err == nil || r.HasBackground() {
			t.Errorf("SetBackground(%s): err %v, has %v; want an error and no reference", name, err, r.HasBackground())
		}
	}
	// No reference: the readings are the plain reader's, also after a
	// reference was set and removed.
	plain, err := r.ReadCards(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetBackground(e); err != nil || !r.HasBackground() {
		t.Fatalf("SetBackground(empty table): %v, has %v", err, r.HasBackground())
	}
	none := gocv.NewMat()
	defer none.Close()
	if err := r.SetBackground(none); err != nil || r.HasBackground() {
		t.Fatalf("SetBackground(empty Mat): %v, has %v; want the reference removed", err, r.HasBackground())
	}
	again, err := r.ReadCards(m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(plain, again, func(a, b Reading) bool { return a.ID == b.ID && a.Box == b.Box && a.Corners == b.Corners }) {
		t.Errorf("readings without a reference changed after one was removed:\n%v\n%v", plain, again)
	}
	// A reference of another size than the frames read is refused.
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(e, &small, image.Pt(640, 360), 0, 0, gocv.InterpolationArea)
	if err := r.SetBackground(small); err == nil || r.HasBackground() {
		t.Errorf("a 640×360 reference for 1280×720 frames: err %v, has %v; want an error", err, r.HasBackground())
	}
	// Grey and BGRA references are taken; a frame of another size is read
	// without the reference, which is dropped.
	for _, code := range []gocv.ColorConversionCode{gocv.ColorBGRToGray, gocv.ColorBGRToBGRA} {
		c := gocv.NewMat()
		gocv.CvtColor(e, &c, code)
		err := r.SetBackground(c)
		c.Close()
		if err != nil || !r.HasBackground() {
			t.Fatalf("SetBackground(%v): %v", code, err)
		}
	}
	crop := m.Region(image.Rect(0, 0, 960, 720))
	defer crop.Close()
	if _, err := r.ReadCards(crop); err != nil {
		t.Fatal(err)
	}
	if r.HasBackground() {
		t.Error("a 1280×720 reference kept for a 960×720 frame")
	}
}

// On busy tables (cloth, playmat; training scenes) the empty table finds
// taught cards the plain reader misses, and reads none wrong.
func TestCardReaderReferenceOnBusyTables(t *testing.T) {
	const n = 16
	ix, _ := cardsTeachAll(t, n, 3)
	r, err := NewReader(Options{Index: ix})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := func(tr synth.CardTruth) string { return cardsID(tr.Art) }
	var plain, ref cardsScore
	rescued := 0
	for k := range int64(12) {
		bg := []synth.Background{synth.BackgroundCloth, synth.BackgroundPlaymat}[k%2]
		s := cardsLearnedScene(cardsCalibSeed+81_000+k, n, true, 0)
		s.Background = bg
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			t.Fatal(err)
		}
		got0, _, err := cardsRead(r, s, m, false)
		if err != nil {
			t.Fatal(err)
		}
		got1, _, err := cardsRead(r, s, m, true)
		if err != nil {
			t.Fatal(err)
		}
		m.Close()
		for _, tr := range truth {
			one := []synth.CardTruth{tr}
			a, b := cardsMatch(got0, one, want), cardsMatch(got1, one, want)
			plain.add(a)
			ref.add(b)
			if a.right == 0 && b.right == 1 {
				rescued++
			}
		}
	}
	t.Logf("busy tables, %d taught cards: plain %d of %d right, with the empty table %d (%d found only with it), wrong %d / %d",
		plain.cards, plain.right, plain.cards, ref.right, rescued, plain.wrong, ref.wrong)
	if rescued < 3 || ref.right < plain.right+3 {
		t.Errorf("the empty table rescued %d cards (%d right, plain %d); want at least 3 more", rescued, ref.right, plain.right)
	}
	if ref.wrong > 0 {
		t.Errorf("with the empty table %d cards read as another card", ref.wrong)
	}
}

// TestCardReaderShadowsNotCards reads, with the empty table, training
// scenes whose cards are held over the table (their shadows beside them)
// and seen through a tilted, noisy camera: a shadow's outline is no
// unknown card (shadowIn). At most 3 readings on no card among 40 frames:
// 0 with shadowIn, 14 without.
func TestCardReaderShadowsNotCards(t *testing.T) {
	cards, _, off := cardsStickerScenesStrays(t, cardsShadowSeed, cardsUntaughtCalib, false, func(s *synth.CardScene) { s.Tilt, s.Noise = 25, 8 })
	t.Logf("%d cards: %d readings on no card", cards, off)
	if cards < 120 || off > 3 {
		t.Errorf("%d readings on no card among %d cards in 40 frames, want at most 3", off, cards)
	}
}

// TestCardReaderHeldStickerReadOnce reads, with the empty table, training
// scenes of stickered cards held by a thumb: a card whose sticker is read
// is not also reported as an unknown card (the part of it beside the
// thumb, when its outline was not found: dropStrayReadings' loose
// stickers). At most 5 such second readings among 156 cards: 3 with the
// loose stickers, 13 without.
func TestCardReaderHeldStickerReadOnce(t *testing.T) {
	cards, twice, _ := cardsStickerScenesStrays(t, cardsHeldSeed, cardsUntaughtCalib+200, true, func(*synth.CardScene) {})
	t.Logf("%d held stickered cards: %d also read as unknown", cards, twice)
	if cards < 120 || twice > 5 {
		t.Errorf("%d of %d held stickered cards also read as unknown, want at most 5", twice, cards)
	}
}

// cardsStickerScenesStrays reads 40 training scenes (seeds from seed) of
// four stickered cards (untaught art from art; held by a thumb when
// finger), set changing each, with the empty table and no cards taught,
// and returns the cards shown and cardsLearnedStrays' counts over them.
func cardsStickerScenesStrays(t *testing.T, seed, art int64, finger bool, set func(*synth.CardScene)) (cards, twice, off int) {
	t.Helper()
	r, err := NewReader(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for k := range int64(40) {
		var cs []synth.CardSpec
		for j := range int64(4) {
			cs = append(cs, synth.CardSpec{Art: art + k*4 + j, Sticker: true, Marker: int((k*4 + j) % 48), Finger: finger})
		}
		s := synth.RandomCardScene(seed+k, cs)
		set(&s)
		m, truth, err := synth.RenderCardScene(s)
		if err != nil {
			m.Close()
			continue
		}
		got, _, err := cardsRead(r, s, m, true)
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		cards += len(truth)
		tw, o := cardsLearnedStrays(got, truth)
		twice, off = twice+tw, off+o
	}
	return cards, twice, off
}

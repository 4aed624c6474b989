package card

import (
	"testing"

	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

// TestCardStickerOutlineSpansTwo: an outline found around two cards that
// lie side by side holds both stickers; it is neither sticker's card (a
// card carries one), so neither reading takes its corners and the weaker
// sticker is not dropped as a stray on the stronger one's card. An outline
// holding one sticker (and a much smaller read of card art) is its card.
func TestCardStickerOutlineSpansTwo(t *testing.T) {
	sq := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	mk := func(id int, x0, y0, side float32) marker.Sticker {
		q := sq(x0, y0, x0+side, y0+side)
		return marker.Sticker{Marker: marker.FromQuad(q, id, 0), Conf: 0.5 + float64(id)/1000}
	}
	r := &Reader{markers: marker.DefaultMap(), reads: []marker.Sticker{mk(37, 120, 140, 30), mk(220, 250, 150, 26)}}
	both := outline.Candidate{Q: sq(90, 100, 330, 280), Refined: true} // spans the two cards
	if !stickerFits(r.reads[0].Marker, both.Q) {
		t.Fatal("the outline around the two cards does not fit the first sticker: the test shows nothing")
	}
	out, _ := r.stickerReadings([]outline.Candidate{both}, 640, 480)
	out = r.dropStrayStickers(out, r.onCard)
	if len(out) != 2 || out[0].Corners == both.Q || out[1].Corners == both.Q {
		t.Fatalf("readings %+v: want both stickers, neither with the outline around the two cards", out)
	}
	if len(r.loose) != 2 || r.loose[0] != r.reads[0].Marker || r.loose[1] != r.reads[1].Marker {
		t.Errorf("loose stickers %+v: want both (neither card outlined)", r.loose)
	}
	// One sticker and a small stray read (card art a third its size).
	r.reads = []marker.Sticker{mk(37, 120, 140, 30), mk(5, 250, 200, 10)}
	out, _ = r.stickerReadings([]outline.Candidate{both}, 640, 480)
	if len(out) != 2 || out[0].Corners != orderFrom(both.Q, r.reads[0].Marker.Corners) || !r.onCard[0] {
		t.Errorf("readings %+v: want the sticker's card to be the outline", out)
	}
	// The stray goes; the sticker kept has its card's outline, so none is
	// loose (of the two before, both were).
	if out = r.dropStrayStickers(out, r.onCard); len(out) != 1 || len(r.loose) != 0 {
		t.Errorf("readings %+v, loose stickers %+v: want the one sticker, on its card", out, r.loose)
	}
}

// TestCardStickerCards checks which places the sticker search leaves
// alone: those on a card whose sticker is read, off the sticker; not the
// sticker itself, not other cards, not a card outline the sticker does not
// fit.
func TestCardStickerCards(t *testing.T) {
	sq := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	mq := sq(130, 140, 160, 170)
	r := &Reader{reads: []marker.Sticker{{Marker: marker.Marker{ID: 5, Corners: mq, Center: geom.Point{X: 145, Y: 155}, Side: 30}}}}
	outlines := []outline.Candidate{
		{Q: sq(100, 100, 220, 270), Refined: true}, // the sticker's card
		{Q: sq(300, 100, 420, 270), Refined: true}, // another card
		{Q: sq(120, 130, 170, 180), Refined: true}, // the sticker's quiet zone: too small a card
	}
	cs := r.stickerCards(outlines, nil)
	if len(cs) != 1 || cs[0].card != outlines[0].Q || cs[0].marker != mq {
		t.Fatalf("stickered cards %+v, want the first outline", cs)
	}
	for _, tc := range []struct {
		p    geom.Point
		skip bool
	}{{geom.Point{X: 190, Y: 240}, true}, {geom.Point{X: 145, Y: 155}, false}, {geom.Point{X: 350, Y: 200}, false}, {geom.Point{X: 50, Y: 50}, false}} {
		if got := offSticker(tc.p, cs); got != tc.skip {
			t.Errorf("%v: left alone %v, want %v", tc.p, got, tc.skip)
		}
	}
	outlines[0].Refined = false
	if cs := r.stickerCards(outlines, nil); len(cs) != 0 {
		t.Errorf("an outline not re-fitted taken for the sticker's card: %+v", cs)
	}
}

// TestCardDropBesideLooseSticker checks dropStrayReadings' rules for the
// stickers read: an "unknown" outline all of whose corners lie within
// refStickerReach marker sides of a sticker whose card's outline was
// not found (r.loose) is that card without its sticker and goes; one
// reaching farther, a taught card's reading there, and the same outline
// with no loose sticker stay; an unknown outline centred on the card of a
// sticker the map does not name goes (that card is read).
func TestCardDropBesideLooseSticker(t *testing.T) {
	quad := func(x0, y0, x1, y1 float32) [4]geom.Point {
		return [4]geom.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	reading := func(id, method string, q [4]geom.Point) Reading {
		return Reading{ID: id, Method: method, Corners: q, Box: geom.QuadBox(q), Confidence: 0.7}
	}
	// A 20 px marker centred at (300, 300): reach 120 px.
	m := marker.Marker{Side: 20, Center: geom.Point{X: 300, Y: 300}}
	near := quad(220, 230, 380, 380) // farthest corner 113 px away
	far := quad(220, 230, 390, 390)  // (390, 390): 127 px away
	tests := []struct {
		name  string
		loose []marker.Marker
		rd    Reading
		drop  bool
	}{
		{"unknown within reach", []marker.Marker{m}, reading(Unknown, MethodLearned, near), true},
		{"unknown reaching beyond", []marker.Marker{m}, reading(Unknown, MethodLearned, far), false},
		{"taught card within reach", []marker.Marker{m}, reading("goal-1", MethodLearned, near), false},
		{"no loose sticker", nil, reading(Unknown, MethodLearned, near), false},
	}
	for _, tc := range tests {
		r := &Reader{loose: tc.loose}
		got := r.dropStrayReadings([]Reading{tc.rd})
		if dropped := len(got) == 0; dropped != tc.drop {
			t.Errorf("%s: dropped %v, want %v", tc.name, dropped, tc.drop)
		}
	}
	// A sticker the map does not name, its card outlined: an unknown
	// outline centred on that card is the card read again.
	id := 200
	unmapped := reading(Unknown, MethodMarker, quad(600, 100, 710, 255))
	unmapped.Marker = &id
	again := reading(Unknown, MethodLearned, quad(610, 150, 700, 260))
	apart := reading(Unknown, MethodLearned, quad(800, 100, 900, 240))
	r := &Reader{}
	got := r.dropStrayReadings([]Reading{unmapped, again, apart})
	if len(got) != 2 || got[0].Method != MethodMarker || got[1].Corners != apart.Corners {
		t.Errorf("unmapped sticker's card: kept %d readings %v, want the sticker and the unknown card apart", len(got), got)
	}
}

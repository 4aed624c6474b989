package synth

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
	"tablecam/vision/marker"
)

func cardMatBytes(t *testing.T, m gocv.Mat) []byte {
	t.Helper()
	b, err := m.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(b)
}

func TestRenderCardArt(t *testing.T) {
	a, err := RenderCardArt(7, 126, 176)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Cols() != 126 || a.Rows() != 176 || a.Type() != gocv.MatTypeCV8UC3 {
		t.Fatalf("art %dx%d type %v", a.Cols(), a.Rows(), a.Type())
	}
	b, _ := RenderCardArt(7, 126, 176)
	defer b.Close()
	if !bytes.Equal(cardMatBytes(t, a), cardMatBytes(t, b)) {
		t.Error("same seed, different art")
	}
	// Different seeds differ; the same card at another size is the same
	// card (compare at the small size).
	c, _ := RenderCardArt(8, 126, 176)
	defer c.Close()
	big, _ := RenderCardArt(7, 504, 704)
	defer big.Close()
	shrunk := gocv.NewMat()
	defer shrunk.Close()
	gocv.Resize(big, &shrunk, image.Pt(126, 176), 0, 0, gocv.InterpolationArea)
	diff := func(x, y gocv.Mat) float64 {
		d := gocv.NewMat()
		defer d.Close()
		gocv.AbsDiff(x, y, &d)
		s := d.Mean()
		return (s.Val1 + s.Val2 + s.Val3) / 3
	}
	if dd := diff(a, c); dd < 10 {
		t.Errorf("seeds 7 and 8 differ by only %.1f grey levels on average", dd)
	}
	if dd := diff(a, shrunk); dd > 6 {
		t.Errorf("seed 7 at two sizes differs by %.1f grey levels on average", dd)
	}
	for _, sz := range [][2]int{{8, 100}, {100, 5000}, {0, 0}} {
		if m, err := RenderCardArt(1, sz[0], sz[1]); !errors.Is(err, ErrSpec) {
			t.Errorf("size %v: %v", sz, err)
			m.Close()
		}
	}
}

func TestCardFamilies(t *testing.T) {
	count := map[int]int{}
	for s := range int64(2000) {
		f := CardFamily(s)
		if f < 0 || f >= CardFamilies {
			t.Fatalf("family %d", f)
		}
		count[f]++
	}
	if len(count) != CardFamilies {
		t.Errorf("%d of %d families used", len(count), CardFamilies)
	}
	for f, n := range count {
		if n < 15 || n > 75 {
			t.Errorf("family %d: %d of 2000 seeds", f, n)
		}
	}
}

func TestRenderCardScene(t *testing.T) {
	spec := CardScene{
		Seed: 3, Dict: marker.Dict4X4_250, Background: BackgroundFelt,
		Lighting: Lighting{Glare: 0.6, GlareOnDie: true},
		Cards: []CardSpec{
			{Art: 1, Sticker: true, Marker: 5, Width: 120, Tilt: 30, Finger: true},
			{Art: 2, Width: 150, Center: image.Pt(900, 360), Angle: 30},
			{Art: 3, Sticker: true, Marker: 200, StickerAt: 5, Width: 100},
		},
	}
	m, truth, err := RenderCardScene(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Cols() != 1280 || m.Rows() != 720 || len(truth) != 3 {
		t.Fatalf("%dx%d, %d cards", m.Cols(), m.Rows(), len(truth))
	}
	m2, truth2, _ := RenderCardScene(spec)
	defer m2.Close()
	if !bytes.Equal(cardMatBytes(t, m), cardMatBytes(t, m2)) || fmt.Sprint(truth) != fmt.Sprint(truth2) {
		t.Error("same spec, different frame or truth")
	}
	fr := image.Rect(0, 0, 1280, 720)
	for i, tr := range truth {
		if tr.Index != i || tr.Art != spec.Cards[i].Art || tr.Family != CardFamily(tr.Art) {
			t.Errorf("card %d: %+v", i, tr)
		}
		if !tr.Box.In(fr) || tr.Box.Empty() {
			t.Errorf("card %d: box %v", i, tr.Box)
		}
		for _, p := range tr.Corners {
			if !image.Pt(int(p.X), int(p.Y)).In(tr.Box.Inset(-2)) {
				t.Errorf("card %d: corner %v outside its box %v", i, p, tr.Box)
			}
		}
		if spec.Cards[i].Sticker {
			if tr.Marker != spec.Cards[i].Marker || tr.MarkerSide < 10 {
				t.Errorf("card %d: marker %d side %.1f", i, tr.Marker, tr.MarkerSide)
			}
			for _, p := range tr.MarkerCorners {
				if !cardTestInQuad(p, tr.Corners) {
					t.Errorf("card %d: marker corner %v off the card", i, p)
				}
			}
		} else if tr.Marker != -1 {
			t.Errorf("card %d: marker %d without a sticker", i, tr.Marker)
		}
		if tr.Visible <= 0.5 || tr.Visible > 1 {
			t.Errorf("card %d: visible %.2f", i, tr.Visible)
		}
	}
	if !truth[0].Occluded || truth[0].Visible >= 1 || truth[1].Occluded {
		t.Errorf("thumb: card 0 occluded %v visible %.2f, card 1 occluded %v", truth[0].Occluded, truth[0].Visible, truth[1].Occluded)
	}
	// The fixed card sits where it was put, turned as asked; the width is
	// the mean of its short sides (no tilt).
	c := truth[1]
	cx := (c.Corners[0].X + c.Corners[2].X) / 2
	cy := (c.Corners[0].Y + c.Corners[2].Y) / 2
	if math.Abs(float64(cx)-900) > 2 || math.Abs(float64(cy)-360) > 2 || math.Abs(c.Angle-30) > 1 || math.Abs(c.Width-150) > 3 {
		t.Errorf("fixed card: centre (%.1f, %.1f), angle %.1f, width %.1f", cx, cy, c.Angle, c.Width)
	}
	// The stickers read back with OpenCV's detector.
	md, err := marker.NewDetector(marker.Dict4X4_250, marker.Options{RefineSubpix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	got, err := md.Detect(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 2} {
		ok := false
		for _, g := range got {
			if g.ID == truth[i].Marker && cardTestDist(g.Corners[0], truth[i].MarkerCorners[0]) < 1.5 {
				ok = true
			}
		}
		if !ok {
			t.Errorf("sticker of card %d (%d) not found where the truth says: %+v", i, truth[i].Marker, got)
		}
	}
}

func cardTestDist(a, b geom.Point) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}

func cardTestInQuad(p geom.Point, q [4]geom.Point) bool {
	sign := 0.0
	for k := range 4 {
		a, b := q[k], q[(k+1)%4]
		c := float64(b.X-a.X)*float64(p.Y-a.Y) - float64(b.Y-a.Y)*float64(p.X-a.X)
		if sign == 0 {
			sign = c
		} else if c*sign < 0 {
			return false
		}
	}
	return true
}

func TestCardSceneSpecErrors(t *testing.T) {
	for _, s := range []CardScene{
		{Cards: make([]CardSpec, 9)},
		{Cards: []CardSpec{{Sticker: true, Marker: 300}}, Dict: marker.Dict4X4_250},
		{Cards: []CardSpec{{Sticker: true, Marker: 1, StickerSide: 0.9}}},
		{Cards: []CardSpec{{Sticker: true, Marker: 1, StickerAt: 6}}},
		{Cards: []CardSpec{{Width: 10}}},
		{Cards: []CardSpec{{Tilt: 80}}},
		{Cards: []CardSpec{{Angle: math.NaN(), FixAngle: true}}},
		{Cards: []CardSpec{{Center: image.Pt(5000, 10)}}},
		{CardWidth: [2]float64{300, 200}},
		{Tilt: 40},
		{Background: "marble"},
	} {
		if m, _, err := RenderCardScene(s); !errors.Is(err, ErrSpec) {
			t.Errorf("%+v: error %v", s, err)
			m.Close()
		}
	}
	// Too many large cards: no room.
	var big []CardSpec
	for range 8 {
		big = append(big, CardSpec{Width: 320})
	}
	if m, _, err := RenderCardScene(CardScene{Cards: big}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("8 large cards: %v", err)
		m.Close()
	}
}

func TestRandomCardScene(t *testing.T) {
	cards := []CardSpec{{Art: 1}, {Art: 2, Sticker: true, Marker: 9}, {Art: 3, Tilt: 12}}
	a, b := RandomCardScene(42, cards), RandomCardScene(42, cards)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("RandomCardScene is not deterministic")
	}
	if a.Cards[2].Tilt != 12 || !a.Cards[1].Sticker || a.Cards[1].Marker != 9 || a.Dict != marker.Dict4X4_250 {
		t.Errorf("caller's fields changed: %+v", a.Cards)
	}
	// Over many seeds every background, tilts up to 45°, thumbs and glare
	// all occur, and the scenes render.
	bgs := map[Background]bool{}
	thumbs, glare, tilted := 0, 0, 0
	for s := range int64(60) {
		sc := RandomCardScene(s, cards)
		bgs[sc.Background] = true
		for _, c := range sc.Cards {
			if c.Finger {
				thumbs++
			}
			if c.Tilt > 0 {
				tilted++
			}
			if c.Tilt > 45 {
				t.Errorf("tilt %v", c.Tilt)
			}
		}
		if sc.Lighting.Glare > 0 {
			glare++
		}
		if s%10 == 0 {
			m, _, err := RenderCardScene(sc)
			if err != nil {
				t.Fatalf("seed %d: %v", s, err)
			}
			m.Close()
		}
	}
	if len(bgs) != len(Backgrounds()) || thumbs == 0 || glare == 0 || tilted == 0 {
		t.Errorf("backgrounds %v, thumbs %d, glare %d, tilted %d", bgs, thumbs, glare, tilted)
	}
}

// TestWriteCardSamples writes a sheet of card art and sample card scenes
// for a human to look at when SYNTH_SAMPLES names a directory:
// SYNTH_SAMPLES=/tmp/s go test -run WriteCardSamples ./vision/synth/
func TestWriteCardSamples(t *testing.T) {
	dir := os.Getenv("SYNTH_SAMPLES")
	if dir == "" {
		t.Skip("set SYNTH_SAMPLES=/some/dir to write sample renders")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const cw, ch, cols = 180, 252, 8
	var seeds []int64
	for s := range int64(24) {
		seeds = append(seeds, s)
	}
	// Eight cards of one family.
	fam := CardFamily(0)
	for s := int64(100); len(seeds) < 32; s++ {
		if CardFamily(s) == fam {
			seeds = append(seeds, s)
		}
	}
	rows := (len(seeds) + cols - 1) / cols
	sheet := gocv.NewMatWithSize(rows*(ch+8), cols*(cw+8), gocv.MatTypeCV8UC3)
	defer sheet.Close()
	for i, s := range seeds {
		m, err := RenderCardArt(s, cw, ch)
		if err != nil {
			t.Fatal(err)
		}
		x, y := (i%cols)*(cw+8)+4, (i/cols)*(ch+8)+4
		r := sheet.Region(image.Rect(x, y, x+cw, y+ch))
		m.CopyTo(&r)
		r.Close()
		m.Close()
	}
	if err := WritePNG(filepath.Join(dir, "card-art.png"), sheet); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		cards := []CardSpec{
			{Art: int64(i * 4), Sticker: true, Marker: 5 + i},
			{Art: int64(i*4 + 1)},
			{Art: int64(i*4 + 2), Sticker: true, Marker: 100 + i, Finger: true},
			{Art: int64(i*4 + 3), Tilt: 45},
		}
		m, _, err := RenderCardScene(RandomCardScene(int64(i), cards))
		if err != nil {
			t.Fatal(err)
		}
		if err := WritePNG(filepath.Join(dir, fmt.Sprintf("card-scene-%d.png", i)), m); err != nil {
			t.Fatal(err)
		}
		m.Close()
	}
}

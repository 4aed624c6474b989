package outline

import (
	"math"
	"math/rand/v2"
	"testing"

	"tablecam/vision/geom"
)

func testLine(ax, ay, bx, by float64) segLine {
	var l segLine
	n := geom.Dist(geom.Point{X: float32(ax), Y: float32(ay)}, geom.Point{X: float32(bx), Y: float32(by)})
	l.add(ax, ay, bx, by, n)
	l.finish()
	return l
}

func TestCardQuadsFromLines(t *testing.T) {
	// A 60×84 rectangle with its sides drawn short of the corners, one side
	// broken in two (a thumb), plus clutter.
	lines := []segLine{
		testLine(13, 10, 67, 10),
		testLine(70, 14, 70, 40), testLine(70, 55, 70, 90),
		testLine(66, 94, 12, 94),
		testLine(10, 88, 10, 13),
		testLine(100, 0, 100, 200),
	}
	// Merge the broken side as lines() would.
	lines[1].add(70, 55, 70, 90, 35)
	lines[1].finish()
	lines = append(lines[:2], lines[3:]...)
	quads := quadsFromLines(lines, 40, 100)
	if len(quads) == 0 {
		t.Fatal("no quad")
	}
	// The best quad is the rectangle, its corners where its sides' lines
	// cross (past the drawn ends), and it scores above any quad on the
	// clutter line.
	best := quads[0]
	for _, q := range quads[1:] {
		if q.score > best.score {
			best = q
		}
	}
	want := [][2]float32{{10, 10}, {70, 10}, {70, 94}, {10, 94}}
	for _, w := range want {
		found := false
		for _, c := range best.q {
			if math.Abs(float64(c.X-w[0])) <= 1 && math.Abs(float64(c.Y-w[1])) <= 1 {
				found = true
			}
		}
		if !found {
			t.Errorf("best quad %+v (score %.2f): no corner at %v; quads %+v", best.q, best.score, w, quads)
		}
	}
}

func TestCardQuadsFromLinesTilted(t *testing.T) {
	lines := []segLine{
		testLine(158, 268, 194, 201),
		testLine(203, 189, 311, 238),
		testLine(274, 327, 316, 243),
		testLine(159, 271, 269, 327),
	}
	w := 20.0
	quads := quadsFromLines(lines, w, 165)
	if len(quads) != 1 {
		t.Fatalf("%d quads", len(quads))
	}
}

// TestCardStepContinuityFloor checks that the continuity with a floor is
// the continuity itself whenever it reaches the floor, and below the
// floor whenever it does not: quads on and off light rectangles drawn on
// a noisy BGR picture (most fall short, some pass).
func TestCardStepContinuityFloor(t *testing.T) {
	const w, h = 320, 240
	rng := rand.New(rand.NewPCG(7, 77))
	pix := make([]byte, 3*w*h)
	for i := range pix {
		pix[i] = byte(60 + rng.IntN(12))
	}
	var rects [][4]float64
	for range 6 { // light rectangles
		x0, y0 := 10+rng.IntN(200), 10+rng.IntN(130)
		x1, y1 := x0+30+rng.IntN(80), y0+30+rng.IntN(90)
		rects = append(rects, [4]float64{float64(x0), float64(y0), float64(min(x1, w) - 1), float64(min(y1, h) - 1)})
		for y := y0; y < min(y1, h); y++ {
			for x := x0; x < min(x1, w); x++ {
				for c := range 3 {
					pix[3*(y*w+x)+c] = byte(150 + 20*c)
				}
			}
		}
	}
	g := geom.View{Pix: pix, W: w, H: h, Channels: 3}
	pass, short := 0, 0
	for i := range 4000 {
		var q [4]geom.Point
		if i%2 == 0 { // on a rectangle's outline, give or take a few pixels
			r := rects[rng.IntN(len(rects))]
			j := 1 + 6*rng.Float64()
			for k, c := range [4][2]int{{0, 1}, {2, 1}, {2, 3}, {0, 3}} {
				q[k] = geom.Point{X: float32(r[c[0]] + j*(2*rng.Float64()-1)), Y: float32(r[c[1]] + j*(2*rng.Float64()-1))}
			}
		}
		cx, cy := 20+rng.Float64()*280, 20+rng.Float64()*200
		hw, hh, a := 10+rng.Float64()*60, 10+rng.Float64()*60, rng.Float64()*0.3
		for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			x, y := s[0]*hw, s[1]*hh
			if i%2 == 0 {
				break
			}
			q[k] = geom.Point{X: float32(cx + x*math.Cos(a) - y*math.Sin(a) + rng.Float64()), Y: float32(cy + x*math.Sin(a) + y*math.Cos(a) + rng.Float64())}
		}
		full := stepContinuity(g, q, 0)
		got := stepContinuity(g, q, minContinuity)
		switch {
		case full >= minContinuity:
			pass++
			if got != full {
				t.Fatalf("quad %v: %v with the floor, %v without", q, got, full)
			}
		default:
			short++
			if got >= minContinuity || got < full {
				t.Fatalf("quad %v: %v with the floor, %v without: want below the floor, at least the value", q, got, full)
			}
		}
	}
	t.Logf("%d reach the floor, %d fall short", pass, short)
	if pass < 20 || short < 20 {
		t.Fatalf("%d quads reach the floor, %d fall short: the test tries too few of one kind", pass, short)
	}
}

// TestCardLineJoinsInnerEdge: a card's side seen in pieces, on its rim
// against the table and, where the table's pattern hides the rim, on its
// printed frame 2.6 half-resolution pixels inside. The frame's piece
// between two pieces of the rim joins their line (lineNear: with 1.6
// px it did not); a piece twice as far in (the card's art) or far beyond
// the line's pieces does not.
func TestCardLineJoinsInnerEdge(t *testing.T) {
	var l segLine
	l.add(0, 0, 30, 0, 30)
	l.add(50, 0, 80, 0, 30)
	checkJoins(t, &l, []joinCase{
		{"frame 2.6 px in", 32, 2.6, 48, 2.6, true},
		{"frame 2.6 px in, other side", 32, -2.6, 48, -2.6, true},
		{"art 5.2 px in", 32, 5.2, 48, 5.2, false},
		{"on the rim beyond the gap", 140, 0, 160, 0, false},
	})
}

// joinCase is a segment and whether it joins a line.
type joinCase struct {
	name           string
	ax, ay, bx, by float64
	want           bool
}

func checkJoins(t *testing.T, l *segLine, cases []joinCase) {
	t.Helper()
	for _, c := range cases {
		if got := l.joins(c.ax, c.ay, c.bx, c.by); got != c.want {
			t.Errorf("%s: joins %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCardLineJoinsLongPiece: a side shown in pieces longer than the
// breaks between them. The next piece, 36 px long 4 px after a 30 px one,
// joins its line though its far end lies 40 px past the line's pieces,
// beyond the gap of 18 px (both ends within the gap, the rule before,
// refused it); a piece starting beyond the gap does not, nor one that
// leaves the line.
func TestCardLineJoinsLongPiece(t *testing.T) {
	var l segLine
	l.add(0, 0, 30, 0, 30)
	checkJoins(t, &l, []joinCase{
		{"next piece", 34, 1, 70, 1, true},
		{"next piece, drawn the other way", 70, -1, 34, -1, true},
		{"a piece beyond the gap", 52, 0, 90, 0, false},
		{"a piece leaving the line", 34, 1, 70, 8, false},
	})
}

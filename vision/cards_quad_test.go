package vision

import (
	"testing"
)

func cardTestLine(ax, ay, bx, by float64) cardSegLine {
	var l cardSegLine
	n := cardDist(Point2f{float32(ax), float32(ay)}, Point2f{float32(bx), float32(by)})
	l.add(ax, ay, bx, by, n)
	l.finish()
	return l
}

func TestCardQuadsFromLines(t *testing.T) {
	// A 60×84 rectangle with its sides drawn short of the corners, one side
	// broken in two (a thumb), plus clutter.
	lines := []cardSegLine{
		cardTestLine(13, 10, 67, 10),
		cardTestLine(70, 14, 70, 40), cardTestLine(70, 55, 70, 90),
		cardTestLine(66, 94, 12, 94),
		cardTestLine(10, 88, 10, 13),
		cardTestLine(100, 0, 100, 200),
	}
	// Merge the broken side as lines() would.
	lines[1].add(70, 55, 70, 90, 35)
	lines[1].finish()
	lines = append(lines[:2], lines[3:]...)
	quads := cardQuadsFromLines(lines, 40, 100)
	if len(quads) == 0 {
		t.Fatal("no quad")
	}
	t.Logf("%+v", quads)
}

func TestCardQuadsFromLinesTilted(t *testing.T) {
	lines := []cardSegLine{
		cardTestLine(158, 268, 194, 201),
		cardTestLine(203, 189, 311, 238),
		cardTestLine(274, 327, 316, 243),
		cardTestLine(159, 271, 269, 327),
	}
	w := 20.0
	quads := cardQuadsFromLines(lines, w, 165)
	if len(quads) != 1 {
		t.Fatalf("%d quads", len(quads))
	}
}

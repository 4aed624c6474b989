package vision

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// maskOf parses rows of '#' (on) and '.' (off).
func maskOf(rows ...string) ([]bool, int, int) {
	w, h := len(rows[0]), len(rows)
	m := make([]bool, w*h)
	for y, r := range rows {
		for x, c := range r {
			m[y*w+x] = c == '#'
		}
	}
	return m, w, h
}

// labelsOf renders labels as rows of digits ('.' for 0).
func labelsOf(lab []int32, w int) string {
	var b strings.Builder
	for i, l := range lab {
		if i > 0 && i%w == 0 {
			b.WriteByte('/')
		}
		if l == 0 {
			b.WriteByte('.')
		} else {
			b.WriteByte(byte('0' + l))
		}
	}
	return b.String()
}

func TestComponentLabellerShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rows  []string
		conn  connectivity
		want  string
		sizes []int // per label, from 1
	}{
		{"diagonal 4", []string{"#..", ".#.", "..#"}, fourConnected, "1../.2./..3", []int{1, 1, 1}},
		{"diagonal 8", []string{"#..", ".#.", "..#"}, eightConnected, "1../.1./..1", []int{3}},
		// A U: one component whose first pixel comes before a later
		// component's; the arms join only at the bottom.
		{"U and dot 4", []string{"#.#.#", "#.#..", "###.."}, fourConnected, "1.1.2/1.1../111..", []int{7, 1}},
		// Rows must not wrap: the last pixel of a row and the first of
		// the next are not neighbours (their indices are).
		{"no wrap 4", []string{"..#", "#..", "..."}, fourConnected, "..1/2../...", []int{1, 1}},
		{"no wrap 8", []string{"..#", "#..", "..."}, eightConnected, "..1/2../...", []int{1, 1}},
		{"no wrap diagonal 8", []string{"...#", "#...", "...#"}, eightConnected, "...1/2.../...3", []int{1, 1, 1}},
		// Components on every border and corner.
		{"borders 4", []string{"##.##", "#...#", ".....", "#...#", "##.##"}, fourConnected,
			"11.22/1...2/...../3...4/33.44", []int{3, 3, 3, 3}},
		// The largest component is the first of the largest.
		{"largest", []string{"#.##", "....", "##.#"}, fourConnected, "1.22/..../33.4", []int{1, 2, 2, 1}},
		{"full", []string{"###", "###"}, fourConnected, "111/111", []int{6}},
		{"column 8", []string{"#", "#", ".", "#"}, eightConnected, "1/1/./2", []int{2, 1}},
		{"row 4", []string{"##.#"}, fourConnected, "11.2", []int{2, 1}},
		{"empty", []string{"...", "..."}, eightConnected, ".../...", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, w, h := maskOf(tc.rows...)
			lab := make([]int32, w*h)
			for i := range lab {
				lab[i] = 7 // stale labels must be cleared
			}
			var cl componentLabeller
			visited := make([]int, w*h)
			var order []int32
			var sizes []int
			cs := cl.label(m, lab, w, h, tc.conn, func(l int32, i int) {
				visited[i]++
				for int(l) > len(sizes) {
					sizes = append(sizes, 0)
				}
				sizes[l-1]++
				if lab[i] != l {
					t.Errorf("visit of %d with label %d, labelled %d", i, l, lab[i])
				}
				if len(order) == 0 || order[len(order)-1] != l {
					order = append(order, l)
				}
			})
			want := components{n: len(tc.sizes)}
			for i, c := range tc.sizes {
				if c > want.largestCount {
					want.largest, want.largestCount = int32(i+1), c
				}
			}
			if cs != want {
				t.Errorf("%+v, want %+v", cs, want)
			}
			if got := labelsOf(lab, w); got != tc.want {
				t.Errorf("labels %s, want %s", got, tc.want)
			}
			if !slices.Equal(sizes, tc.sizes) {
				t.Errorf("visited sizes %v, want %v", sizes, tc.sizes)
			}
			for i, v := range visited {
				if want := map[bool]int{true: 1, false: 0}[m[i]]; v != want {
					t.Errorf("pixel %d visited %d times, want %d", i, v, want)
				}
			}
			// Each component's pixels are visited together, in label order.
			for i, l := range order {
				if l != int32(i+1) {
					t.Fatalf("components visited in order %v", order)
				}
			}
		})
	}
}

func TestComponentLabellerZeroSize(t *testing.T) {
	var cl componentLabeller
	if cs := cl.label(nil, nil, 0, 0, fourConnected, func(int32, int) { t.Error("visit on an empty grid") }); cs != (components{}) {
		t.Errorf("%+v on an empty grid", cs)
	}
	if n := cl.labelBorder(nil, nil, 0, 0, eightConnected); n != 0 {
		t.Errorf("%d border pixels on an empty grid", n)
	}
}

// referenceLabels labels components by relaxation (every pixel takes the
// least index among its neighbours until nothing changes), then numbers
// them in raster order.
func referenceLabels(m []bool, w, h int, conn connectivity) []int32 {
	root := make([]int, w*h)
	for i := range root {
		root[i] = -1
		if m[i] {
			root[i] = i
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range root {
			if root[i] < 0 {
				continue
			}
			x, y := i%w, i/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					xx, yy := x+dx, y+dy
					if xx < 0 || yy < 0 || xx >= w || yy >= h || conn == fourConnected && dx != 0 && dy != 0 {
						continue
					}
					if r := root[yy*w+xx]; r >= 0 && r < root[i] {
						root[i], changed = r, true
					}
				}
			}
		}
	}
	lab := make([]int32, w*h)
	num := map[int]int32{}
	for i, r := range root {
		if r < 0 {
			continue
		}
		if _, ok := num[r]; !ok {
			num[r] = int32(len(num) + 1)
		}
		lab[i] = num[r]
	}
	return lab
}

func countOf(lab []int32, l int32) int {
	n := 0
	for _, v := range lab {
		if v == l {
			n++
		}
	}
	return n
}

// TestComponentLabellerMatchesReference compares with referenceLabels on
// random masks of many shapes and densities, reusing one labeller (its
// scratch from a larger grid must not leak into a smaller one).
func TestComponentLabellerMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var cl componentLabeller
	for trial := range 400 {
		w, h := 1+rng.IntN(30), 1+rng.IntN(30)
		p := rng.Float64()
		m := make([]bool, w*h)
		for i := range m {
			m[i] = rng.Float64() < p
		}
		for _, conn := range []connectivity{fourConnected, eightConnected} {
			want := referenceLabels(m, w, h, conn)
			lab := make([]int32, w*h)
			cs := cl.label(m, lab, w, h, conn, nil)
			if !slices.Equal(lab, want) {
				t.Fatalf("trial %d (%dx%d, %d-connected): labels\n%s, want\n%s", trial, w, h, conn, labelsOf(lab, w), labelsOf(want, w))
			}
			wantCs := components{n: int(slices.Max(append(want, 0)))}
			for l := 1; l <= wantCs.n; l++ {
				if cnt := countOf(want, int32(l)); cnt > wantCs.largestCount {
					wantCs.largest, wantCs.largestCount = int32(l), cnt
				}
			}
			if cs != wantCs {
				t.Fatalf("trial %d: %+v, want %+v", trial, cs, wantCs)
			}
			// labelBorder: exactly the components touching the border.
			border := map[int32]bool{}
			for i, l := range want {
				if x, y := i%w, i/w; l != 0 && (x == 0 || y == 0 || x == w-1 || y == h-1) {
					border[l] = true
				}
			}
			bl := make([]int32, w*h)
			cnt := cl.labelBorder(m, bl, w, h, conn)
			wantCnt := 0
			for i, l := range want {
				var wl int32
				if border[l] {
					wl = 1
					wantCnt++
				}
				if bl[i] != wl {
					t.Fatalf("trial %d (%dx%d, %d-connected): border labels\n%s, want those of\n%s", trial, w, h, conn, labelsOf(bl, w), labelsOf(want, w))
				}
			}
			if cnt != wantCnt {
				t.Fatalf("trial %d: %d border pixels, want %d", trial, cnt, wantCnt)
			}
		}
	}
}

func TestComponentLabellerBorder(t *testing.T) {
	// A diagonal line from a corner into the grid, a vertical bar from
	// the top edge it touches diagonally, a bar away from the edges.
	m, w, h := maskOf(
		"#..#..",
		".#.#..",
		"..#...",
		"......",
		".##...",
		"......",
	)
	var cl componentLabeller
	lab := make([]int32, w*h)
	for i := range lab {
		lab[i] = 5 // stale labels must be cleared
	}
	want4 := "1..1../...1../....../....../....../......"
	if n := cl.labelBorder(m, lab, w, h, fourConnected); n != 3 || labelsOf(lab, w) != want4 {
		t.Errorf("4-connected: %d pixels reached: %s, want %s", n, labelsOf(lab, w), want4)
	}
	want8 := "1..1../.1.1../..1.../....../....../......"
	if n := cl.labelBorder(m, lab, w, h, eightConnected); n != 5 || labelsOf(lab, w) != want8 {
		t.Errorf("8-connected: %d pixels reached: %s, want %s", n, labelsOf(lab, w), want8)
	}
}

// TestComponentLabellerNoAllocs checks that labelling allocates nothing
// once the labeller's scratch has grown.
func TestComponentLabellerNoAllocs(t *testing.T) {
	m, w, h := maskOf("#.#.#", ".#.#.", "#####", "#...#")
	lab := make([]int32, w*h)
	var cl componentLabeller
	cl.label(m, lab, w, h, fourConnected, nil)
	allocs := testing.AllocsPerRun(20, func() {
		cl.label(m, lab, w, h, fourConnected, nil)
		cl.label(m, lab, w, h, eightConnected, nil)
		cl.labelBorder(m, lab, w, h, fourConnected)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per run", allocs)
	}
}

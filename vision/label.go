package vision

// Connected components of a mask over a grid, by a stack-based flood fill.

// connectivity is which neighbours of a pixel touch it: 4 (left, right, up,
// down) or 8 (the diagonals too).
type connectivity int

const (
	fourConnected  connectivity = 4
	eightConnected connectivity = 8
)

// componentLabeller labels the connected components of masks. Its stack is
// scratch, kept between calls so that labelling allocates nothing once it
// has grown; the label buffer is the caller's.
type componentLabeller struct {
	stack []int32
}

// components sums up a labelling: n components, the first (lowest label)
// of the largest of them and its pixel count (0, 0 without components).
type components struct {
	n            int
	largest      int32
	largestCount int
}

// label writes into lab (w×h, row-major, like mask) the component of every
// pixel: 0 off the mask, else 1, 2, … numbered in the raster order of each
// component's first pixel. visit, when not nil, is called once for every
// pixel of the mask with its label and index, a component's pixels all
// before the next component's (in no particular order within it).
func (cl *componentLabeller) label(mask []bool, lab []int32, w, h int, conn connectivity, visit func(l int32, i int)) components {
	n := w * h
	mask, lab = mask[:n], lab[:n]
	clear(lab)
	var cs components
	for i, in := range mask {
		if !in || lab[i] != 0 {
			continue
		}
		cs.n++
		l := int32(cs.n)
		lab[i] = l
		cl.stack = append(cl.stack[:0], int32(i))
		if cnt := cl.spread(mask, lab, w, h, conn, l, visit); cnt > cs.largestCount {
			cs.largest, cs.largestCount = l, cnt
		}
	}
	return cs
}

// labelBorder sets lab (w×h) to 1 on the pixels of mask connected to the
// grid's border through mask, and to 0 elsewhere. It returns their count.
func (cl *componentLabeller) labelBorder(mask []bool, lab []int32, w, h int, conn connectivity) int {
	n := w * h
	mask, lab = mask[:n], lab[:n]
	clear(lab)
	if n == 0 {
		return 0
	}
	cl.stack = cl.stack[:0]
	seed := func(i int) {
		if mask[i] && lab[i] == 0 {
			lab[i] = 1
			cl.stack = append(cl.stack, int32(i))
		}
	}
	for x := 0; x < w; x++ {
		seed(x)
		seed((h-1)*w + x)
	}
	for y := 0; y < h; y++ {
		seed(y * w)
		seed(y*w + w - 1)
	}
	return cl.spread(mask, lab, w, h, conn, 1, nil)
}

// spread labels l every pixel of mask connected to the pixels on the stack
// (already labelled l) that is not labelled yet, visits the pixels as they
// leave the stack and returns how many left it.
func (cl *componentLabeller) spread(mask []bool, lab []int32, w, h int, conn connectivity, l int32, visit func(l int32, i int)) int {
	stack := cl.stack
	count := 0
	for len(stack) > 0 {
		j := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		count++
		if visit != nil {
			visit(l, j)
		}
		x, y := j%w, j/w
		if conn == fourConnected {
			in := [4]bool{x > 0, x < w-1, y > 0, y < h-1}
			for d, k := range [4]int{j - 1, j + 1, j - w, j + w} {
				if in[d] && mask[k] && lab[k] == 0 {
					lab[k] = l
					stack = append(stack, int32(k))
				}
			}
			continue
		}
		x0, x1 := max(x-1, 0), min(x+1, w-1)
		for yy := max(y-1, 0); yy <= min(y+1, h-1); yy++ {
			for k := yy*w + x0; k <= yy*w+x1; k++ {
				if mask[k] && lab[k] == 0 {
					lab[k] = l
					stack = append(stack, int32(k))
				}
			}
		}
	}
	cl.stack = stack
	return count
}

// growInt32s returns b with length n, reallocated when it is too small
// (its contents are not cleared).
func growInt32s(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n)
	}
	return b[:n]
}

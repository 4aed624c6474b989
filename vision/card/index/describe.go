package index

// Taught cards: cards without a sticker are recognised by their look. A
// card's outline is rectified to a 64×64 square (so that its four possible
// orientations are the four rotations of one image), normalised for the
// light's colour and brightness (grey world), and described by a 64-bit
// DCT hash (the first search: a shortlist of 16 taught examples), its grey
// image with the broadest shading taken away and then smoothed (64×64,
// 8-bit; the smoothing, about σ 2 px, lets an outline found a few pixels
// off still correlate) and an 8×8 layout of two opponent colours (the
// decision). A card is taken for the
// nearest taught card only when it is close enough and clearly closer than
// to any other taught card; otherwise it is "unknown". Each example also
// keeps the ORB keypoints of its card, rectified upright
// (index/keys.go): those of a card's first example find the card
// where its outline was missed; all of them confirm a match at its pose
// (with the reference of the empty table, refConfirms).
//
// The descriptor is chosen over a pHash alone, which tells fewer cards
// apart, and over matching ORB keypoints by brute force, which tells
// about as many apart at a hundred times the cost
// (TestCardsMethodComparison compares the three).

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include "native.h"
*/
import "C"

import (
	"errors"
	"image"
	"image/color"
	"math"
	"slices"
	"unsafe"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

// Canonical card image and descriptor sizes.
const (
	CanonSize = 64        // the rectified card, cardCanon² BGR
	hashN     = 32        // grey image the DCT hash is taken from
	fineN     = CanonSize // grey image compared pixel by pixel (low-cut)
	ChromN    = 8         // colour layout cells per side
	fineD     = fineN * fineN
	chromD    = 2 * ChromN * ChromN
)

// Desc describes one rectified card in one orientation.
type Desc struct {
	hash     uint64
	fine     [fineD]int8     // the low-cut grey, scaled to ±127
	fineNorm float32         // its Euclidean norm (with a floor)
	chroma   [chromD]float32 // two opponent colours per cell
}

// Describer turns rectified cards into descriptors; it keeps its
// buffers and is not safe for concurrent use.
type Describer struct {
	HM           gocv.Mat // 3×3 CV_64F homography
	warp, Canon  gocv.Mat
	grey32       [4][hashN * hashN]float64 // per rotation (tests: dctRows)
	dctC         [8][hashN]float64
	greyScratch  [hashN * hashN]float64 // the Go describe of the tests
	chromScratch [chromD]float64
	grey64       [fineD]float64
	lowcut       [fineD]float64
	smooth       [fineD]float64
	tmp64        [fineD]float64
	occ          [fineD]bool // occluders' pixels (glare, a thumb)
	occTmp       [fineD]bool
	occQueue     []int32
	fine0        [fineD]int8
	dctTmp       [8][hashN]float64
	// turns holds the descriptors of a comparison (the readers' and
	// fitting's), kept here rather than allocated for each (18 KB).
	Turns [4]Desc
}

// NewDescriber returns a describer; Close releases it.
func NewDescriber() *Describer {
	d := &Describer{HM: gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F), warp: gocv.NewMat(), Canon: gocv.NewMat()}
	n := float64(hashN)
	for u := range 8 {
		for x := range hashN {
			d.dctC[u][x] = math.Cos(math.Pi * float64(u) * (float64(x) + 0.5) / n)
		}
	}
	return d
}

// Close releases the describer's buffers.
func (d *Describer) Close() {
	d.HM.Close()
	d.warp.Close()
	d.Canon.Close()
}

// Rectify warps the card with outline q (clockwise, image coordinates)
// from img (8-bit BGR) into d.canon (cardCanon² BGR): q[0] goes to the
// top-left corner. grow enlarges the outline about its centre in the card's
// own coordinates (0.08: 8% more on every side), for outlines found at a
// card's inner frame.
func (d *Describer) Rectify(img gocv.Mat, q [4]geom.Point, grow float64) error {
	side := 0.0
	for k := range 4 {
		side = max(side, geom.Dist(q[k], q[(k+1)%4]))
	}
	// Warp at up to twice the final size and shrink by area: large cards
	// do not alias.
	n := CanonSize
	if side > 2.5*CanonSize {
		n = 2 * CanonSize
	}
	fn := float64(n)
	lo, hi := -grow*fn, (1+grow)*fn
	out := &d.Canon
	if n != CanonSize {
		out = &d.warp
	}
	if !WarpQuad(img, out, d.HM, q, PixelRect(lo, lo, hi, hi), image.Pt(n, n)) {
		return errors.New("index: card outline is degenerate")
	}
	if n != CanonSize {
		gocv.Resize(d.warp, &d.Canon, image.Pt(CanonSize, CanonSize), 0, 0, gocv.InterpolationArea)
	}
	if d.Canon.Rows() != CanonSize || d.Canon.Cols() != CanonSize || d.Canon.Type() != gocv.MatTypeCV8UC3 {
		return errors.New("index: card rectification failed")
	}
	return nil
}

// Describe computes the descriptors of d.canon in its four rotations:
// out[r] is the card turned r×90° clockwise.
func (d *Describer) Describe(out *[4]Desc) error { return d.describeTurns(out[:], true, nil) }

// DescribeUpright computes the descriptor of d.canon as it is, without its
// hash (the comparison with one taught card, fitToCard).
func (d *Describer) DescribeUpright(out *Desc) error {
	return d.describeTurns(unsafe.Slice(out, 1), false, nil)
}

// describeTurns computes the descriptors of d.canon turned r×90°
// clockwise into out[r], with their hashes when hash. With mask (the
// occluded blocks, d.occ their pixels: occluders), the occluded pixels
// count for nothing: they take the mean grey of the rest before the low
// cut, and the fine grey and colour of the masked blocks are 0.
func (d *Describer) describeTurns(out []Desc, hash bool, mask *Mask) error {
	px, err := d.Canon.DataPtrUint8()
	if err != nil || len(px) < 3*CanonSize*CanonSize {
		return errors.New("index: canonical card not continuous")
	}
	// Grey-world normalisation: each channel scaled to a mean of 128.
	// Integer sums: exact, as the float sums of whole numbers below 2⁵³.
	px = px[:3*CanonSize*CanonSize]
	var sum [3]int
	np := float64(CanonSize * CanonSize)
	if mask == nil {
		for i := 0; i+2 < len(px); i += 3 {
			sum[0] += int(px[i])
			sum[1] += int(px[i+1])
			sum[2] += int(px[i+2])
		}
	} else {
		n := 0
		for i, o := range d.occ {
			if !o {
				sum[0] += int(px[3*i])
				sum[1] += int(px[3*i+1])
				sum[2] += int(px[3*i+2])
				n++
			}
		}
		np = float64(max(1, n))
	}
	var gain [3]float64
	for c := range 3 {
		gain[c] = 128 / max(4, float64(sum[c])/np)
	}
	// Grey at full size, at cardHashN² (2×2 blocks), and chroma per cell.
	const blk = CanonSize / hashN
	const cell = CanonSize / ChromN
	g64 := &d.grey64
	ch := &d.chromScratch
	*ch = [chromD]float64{}
	for y := range CanonSize {
		row := (*[3 * CanonSize]uint8)(px[3*y*CanonSize:])
		grow := (*[CanonSize]float64)(g64[y*CanonSize:])
		cc := (*[2 * ChromN]float64)(ch[y/cell*2*ChromN:])
		// A cell's sums in registers, added in the same order.
		for cx := range ChromN {
			c0, c1 := cc[2*cx], cc[2*cx+1]
			for x := cx * cell; x < (cx+1)*cell; x++ {
				b, gg, r := float64(row[3*x])*gain[0], float64(row[3*x+1])*gain[1], float64(row[3*x+2])*gain[2]
				grow[x] = (b + gg + r) / 3
				c0 += r - gg
				c1 += (r+gg)/2 - b
			}
			cc[2*cx], cc[2*cx+1] = c0, c1
		}
	}
	if mask != nil {
		d.fillOccluded()
	}
	g := &d.greyScratch
	if hash {
		for y := range hashN {
			for x := range hashN {
				var s float64
				for dy := range blk {
					for dx := range blk {
						s += g64[(y*blk+dy)*CanonSize+x*blk+dx]
					}
				}
				g[y*hashN+x] = s / (blk * blk)
			}
		}
	}
	for i := range ch {
		ch[i] /= cell * cell
	}
	// Fine grey: the full grey minus its broad blur (the light's gradient
	// goes; shapes, figures and edges stay), scaled to ±127.
	lowCut(g64, &d.lowcut, &d.tmp64)
	// Smoothed, so that an outline a few pixels off still correlates.
	src, dst := &d.lowcut, &d.smooth
	for range smoothPasses {
		boxBlur(src, dst, &d.tmp64, smoothRadius)
		src, dst = dst, src
	}
	if src != &d.lowcut {
		d.lowcut = *src
	}
	kept := fineD
	if mask != nil {
		kept = d.clearMasked(mask)
	}
	fine0 := &d.fine0
	norm, q, fineNorm := d.scaleFine()
	// A floor keeps a nearly blank card from blowing up noise.
	norm = max(math.Sqrt(norm), 2*math.Sqrt(float64(kept)))
	fineNorm = max(math.Sqrt(fineNorm), norm*q)
	for r := range out {
		o := &out[r]
		if hash {
			rg := &d.grey32[r]
			base, sy, sx := rotStrides(r, hashN)
			for y := range hashN {
				for x := range hashN {
					rg[y*hashN+x] = g[base+y*sy+x*sx]
				}
			}
			o.hash = d.dctHash(rg)
		}
		o.fineNorm = float32(fineNorm)
		turnFine(&o.fine, fine0, r)
		base, sy, sx := rotStrides(r, ChromN)
		for cy := range ChromN {
			for cx := range ChromN {
				s := 2 * (base + cy*sy + cx*sx)
				o.chroma[(cy*ChromN+cx)*2] = float32(ch[s])
				o.chroma[(cy*ChromN+cx)*2+1] = float32(ch[s+1])
			}
		}
	}
	return nil
}

// scaleFine scales d.lowcut to ±127 by its largest magnitude, rounded
// (half away from zero) into d.fine0, and returns the sum of squares of
// d.lowcut, the scale and the sum of squares of d.fine0.
func (d *Describer) scaleFine() (norm, q, fineNorm float64) {
	peak := 0.0
	for _, v := range d.lowcut {
		norm += v * v
		peak = max(peak, math.Abs(v))
	}
	q = 127 / max(peak, 1e-9)
	for i, v := range d.lowcut {
		f := int8(math.Round(v * q))
		d.fine0[i] = f
		fineNorm += float64(f) * float64(f)
	}
	return norm, q, fineNorm
}

// dctRows returns C·g into d.dctTmp (C the 8 lowest DCT rows), each
// element's products summed with y ascending.
func (d *Describer) dctRows(g *[hashN * hashN]float64) *[8][hashN]float64 {
	t := &d.dctTmp
	*t = [8][hashN]float64{}
	for u := range 8 {
		for y := range hashN {
			c, row := d.dctC[u][y], (*[hashN]float64)(g[y*hashN:])
			for x := range hashN {
				t[u][x] += c * row[x]
			}
		}
	}
	return t
}

// turnFine writes the fine grey image in turned r×90° clockwise into
// out (rotStrides' pixels), row by row of out, in and out seen as
// fineN×fineN arrays: no bounds checks.
func turnFine(out, in *[fineD]int8, r int) {
	const n = fineN
	o, f := (*[n][n]int8)(unsafe.Pointer(out)), (*[n][n]int8)(unsafe.Pointer(in))
	switch r & 3 {
	case 0:
		*out = *in
	case 1: // out(y, x) = in(n-1-x, y)
		for y := range n {
			row := &o[y]
			for x := range n {
				row[x] = f[(n-1-x)&(n-1)][y]
			}
		}
	case 2: // out(y, x) = in(n-1-y, n-1-x)
		for y := range n {
			row, src := &o[y], &f[(n-1-y)&(n-1)]
			for x := range n {
				row[x] = src[(n-1-x)&(n-1)]
			}
		}
	case 3: // out(y, x) = in(x, n-1-y)
		for y := range n {
			row, c := &o[y], (n-1-y)&(n-1)
			for x := range n {
				row[x] = f[x][c]
			}
		}
	}
}

// rotStrides gives where, in an n×n image stored row by row, the
// pixel lies that lands on (y, x) when the image is turned r×90°
// clockwise: at base + y·sy + x·sx (one turn takes out(y, x) from
// in(n-1-x, y)).
func rotStrides(r, n int) (base, sy, sx int) {
	switch r & 3 {
	case 1:
		return (n - 1) * n, 1, -n
	case 2:
		return n*n - 1, -n, -1
	case 3:
		return n - 1, -1, n
	}
	return 0, n, 1
}

// dctHash is the perceptual hash of a cardHashN² grey image: the signs of
// its 8×8 lowest DCT coefficients but the first, against their median.
func (d *Describer) dctHash(g *[hashN * hashN]float64) uint64 {
	tmp := d.dctRows(g)
	var coef [64]float64
	for u := range 8 {
		for v := range 8 {
			var s float64
			for x := range hashN {
				s += tmp[u][x] * d.dctC[v][x]
			}
			coef[u*8+v] = s
		}
	}
	sorted := coef
	sorted[0] = coef[1] // leave the DC term out of the median
	s := sorted[:]
	slices.Sort(s)
	med := (s[31] + s[32]) / 2
	var h uint64
	for i := 1; i < 64; i++ {
		if coef[i] > med {
			h |= 1 << i
		}
	}
	return h
}

// PixelRect is the rectangle x0 … x1 × y0 … y1 of a picture whose
// pixel centres are at integers (its outline runs along -0.5 … n-0.5),
// clockwise from the top-left corner.
func PixelRect(x0, y0, x1, y1 float64) [4][2]float64 {
	return [4][2]float64{{x0 - 0.5, y0 - 0.5}, {x1 - 0.5, y0 - 0.5}, {x1 - 0.5, y1 - 0.5}, {x0 - 0.5, y1 - 0.5}}
}

// WarpQuad warps the outline q of img onto the corners dst of a
// picture of size sz, written to out; hm (3×3, CV64F) is its scratch.
// False when q is degenerate.
func WarpQuad(img gocv.Mat, out *gocv.Mat, hm gocv.Mat, q [4]geom.Point, dst [4][2]float64, sz image.Point) bool {
	var src [4][2]float64
	for k, p := range q {
		src[k] = [2]float64{float64(p.X), float64(p.Y)}
	}
	h, ok := geom.HomographyOf(src, dst)
	if !ok {
		return false
	}
	for i := range 9 {
		hm.SetDoubleAt(i/3, i%3, h[i])
	}
	gocv.WarpPerspectiveWithParams(img, out, hm, sz, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	return true
}

// distance compares a query descriptor with a taught one: 1 − the
// correlation of their fine grey images, plus a colour term. 0 is equal;
// unrelated cards are near 1 or above.
func distance(q, t *Desc) float64 {
	// An integer sum (exact in any order), vectorised in C: a tenth of
	// the Go loop's time.
	dot := dot(q, t)
	var cd float32
	for i := range q.chroma {
		cd += math.Float32frombits(math.Float32bits(q.chroma[i]-t.chroma[i]) &^ (1 << 31))
	}
	return 1 - float64(dot)/(float64(q.fineNorm)*float64(t.fineNorm)) + chromaWeight*float64(cd)/chromD
}

// dot is the dot product of two fine grey images.
func dot(q, t *Desc) int32 {
	return int32(C.tc_dot_i8((*C.int8_t)(unsafe.Pointer(&q.fine[0])), (*C.int8_t)(unsafe.Pointer(&t.fine[0])), C.int(fineD)))
}

// chromaWeight weighs the colour layout against the grey image: a mean
// opponent-colour difference of 20 (grey levels) costs as much as a
// correlation lower by 0.24.
const chromaWeight = 0.012

// lowCutRadius is the radius of the box blur lowCut takes away.
const lowCutRadius = 8

// lowCut subtracts from the cardFineN² image g its box blur of radius
// lowCutRadius (borders replicated): the light's gradient and the
// broadest areas go, shapes stay.
func lowCut(g, out, tmp *[fineD]float64) {
	boxBlur(g, out, tmp, lowCutRadius)
	for i, v := range g {
		out[i] = v - out[i]
	}
}

// smoothRadius and smoothPasses: the box blur of the fine grey
// image (two passes of radius 2: about σ 2 px of the 64 px card), which
// makes the comparison tolerate outlines a few pixels off.
const (
	smoothRadius = 2
	smoothPasses = 2
)

// boxBlur writes the box blur of radius k of g (borders replicated)
// into out: each row's running sum from the left, divided by 2k+1, into
// tmp, then each column's from the top, divided again.
func boxBlur(g, out, tmp *[fineD]float64, k int) {
	const n = fineN
	clamp := func(v int) int { return max(0, min(n-1, v)) }
	div := float64(2*k + 1)
	for y := range n {
		row, t := (*[n]float64)(g[y*n:]), (*[n]float64)(tmp[y*n:])
		s := 0.0
		for d := -k; d <= k; d++ {
			s += row[clamp(d)]
		}
		for x := range n {
			t[x] = s / div
			s += row[clamp(x+k+1)] - row[clamp(x-k)]
		}
	}
	var s [n]float64
	for d := -k; d <= k; d++ {
		r := (*[n]float64)(tmp[clamp(d)*n:])
		for x := range n {
			s[x] += r[x]
		}
	}
	for y := range n {
		o := (*[n]float64)(out[y*n:])
		rin, rgone := (*[n]float64)(tmp[clamp(y+k+1)*n:]), (*[n]float64)(tmp[clamp(y-k)*n:])
		for x := range n {
			o[x] = s[x] / div
			s[x] += rin[x] - rgone[x]
		}
	}
}

package vision

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// describeTurnsRef is describeTurns as it was in Go before tc_card_grey
// and tc_card_hashes: the reference of TestCardDescribeMatchesGo.
func (d *cardDescriber) describeTurnsRef(out []cardDesc, hash bool, mask *cardMask) error {
	px, err := d.canon.DataPtrUint8()
	if err != nil || len(px) < 3*cardCanon*cardCanon {
		return errors.New("vision: canonical card not continuous")
	}
	// Grey-world normalisation: each channel scaled to a mean of 128.
	// Integer sums: exact, as the float sums of whole numbers below 2⁵³.
	px = px[:3*cardCanon*cardCanon]
	var sum [3]int
	np := float64(cardCanon * cardCanon)
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
	const blk = cardCanon / cardHashN
	const cell = cardCanon / cardChromN
	g64 := &d.grey64
	ch := &d.chromScratch
	*ch = [cardChromD]float64{}
	for y := range cardCanon {
		row := (*[3 * cardCanon]uint8)(px[3*y*cardCanon:])
		grow := (*[cardCanon]float64)(g64[y*cardCanon:])
		cc := (*[2 * cardChromN]float64)(ch[y/cell*2*cardChromN:])
		// A cell's sums in registers, added in the same order.
		for cx := range cardChromN {
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
		for y := range cardHashN {
			for x := range cardHashN {
				var s float64
				for dy := range blk {
					for dx := range blk {
						s += g64[(y*blk+dy)*cardCanon+x*blk+dx]
					}
				}
				g[y*cardHashN+x] = s / (blk * blk)
			}
		}
	}
	for i := range ch {
		ch[i] /= cell * cell
	}
	// Fine grey: the full grey minus its broad blur (the light's gradient
	// goes; shapes, figures and edges stay), scaled to ±127.
	cardLowCut(g64, &d.lowcut, &d.tmp64)
	// Smoothed, so that an outline a few pixels off still correlates.
	src, dst := &d.lowcut, &d.smooth
	for range cardSmoothPasses {
		cardBoxBlur(src, dst, &d.tmp64, cardSmoothRadius)
		src, dst = dst, src
	}
	if src != &d.lowcut {
		d.lowcut = *src
	}
	kept := cardFineD
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
			base, sy, sx := cardRotStrides(r, cardHashN)
			for y := range cardHashN {
				for x := range cardHashN {
					rg[y*cardHashN+x] = g[base+y*sy+x*sx]
				}
			}
			o.hash = d.dctHash(rg)
		}
		o.fineNorm = float32(fineNorm)
		switch r {
		case 0:
			o.fine = *fine0
		case 2:
			for i := range fine0 {
				o.fine[i] = fine0[cardFineD-1-i]
			}
		default:
			base, sy, sx := cardRotStrides(r, cardFineN)
			for y := range cardFineN {
				for x := range cardFineN {
					o.fine[y*cardFineN+x] = fine0[base+y*sy+x*sx]
				}
			}
		}
		base, sy, sx := cardRotStrides(r, cardChromN)
		for cy := range cardChromN {
			for cx := range cardChromN {
				s := 2 * (base + cy*sy + cx*sx)
				o.chroma[(cy*cardChromN+cx)*2] = float32(ch[s])
				o.chroma[(cy*cardChromN+cx)*2+1] = float32(ch[s+1])
			}
		}
	}
	return nil
}

// TestCardDescribeMatchesGo checks that describeTurns (its loops in C)
// gives the descriptors of the Go loops it replaced bit for bit: hashes,
// fine grey, norms and colour, with and without occluded blocks.
func TestCardDescribeMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	d := newCardDescriber()
	defer d.close()
	d.canon.Close()
	d.canon = gocv.NewMatWithSize(cardCanon, cardCanon, gocv.MatTypeCV8UC3)
	px, err := d.canon.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 400 {
		// Noise, smooth gradients, flat and dark cards.
		a, b, c := rng.Float64()*3, rng.Float64()*3, rng.IntN(256)
		for i := range px {
			x, y := float64(i/3%cardCanon), float64(i/3/cardCanon)
			switch trial % 4 {
			case 0:
				px[i] = uint8(rng.IntN(256))
			case 1:
				px[i] = uint8(int(a*x+b*y+float64(c)+8*math.Sin(x*y/50)) & 255)
			case 2:
				px[i] = uint8(c)
			default:
				px[i] = uint8(rng.IntN(1 + c/16))
			}
		}
		var mask *cardMask
		if trial%3 == 1 {
			mask = &cardMask{}
			for b := range mask {
				mask[b] = rng.IntN(5) == 0
			}
			for i := range d.occ {
				bx, by := i%cardCanon/(cardCanon/cardChromN), i/cardCanon/(cardCanon/cardChromN)
				d.occ[i] = mask[by*cardChromN+bx] && rng.IntN(4) != 0
			}
		}
		for _, hash := range []bool{true, false} {
			var got, want [4]cardDesc
			if err := d.describeTurns(got[:], hash, mask); err != nil {
				t.Fatal(err)
			}
			// The doubles on the way too, not only the rounded results.
			g64, low, ch := d.grey64, d.lowcut, d.chromScratch
			if err := d.describeTurnsRef(want[:], hash, mask); err != nil {
				t.Fatal(err)
			}
			if g64 != d.grey64 || low != d.lowcut || ch != d.chromScratch {
				t.Fatalf("trial %d (hash %v, mask %v): grey, low cut or colour differ from the Go loops'", trial, hash, mask != nil)
			}
			if got != want {
				t.Fatalf("trial %d (hash %v, mask %v): descriptors differ from the Go loops'", trial, hash, mask != nil)
			}
		}
	}
}

// TestCardQuadRowSpanMatchesTests checks that cardQuadRowSpan is exactly
// the points of a row that pass cardPointInQuad (so that changedIn counts
// what testing every point counted), for quads of every shape and
// orientation, degenerate ones included.
func TestCardQuadRowSpanMatchesTests(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const s = cardRefShrink
	px := func(x int) float32 { return float32(x*s + s/2) }
	for trial := range 3000 {
		var q [4]Point2f
		cx, cy, r := rng.Float64()*400, rng.Float64()*300, 1+rng.Float64()*200
		for k := range q {
			a := 2*math.Pi*float64(k)/4 + rng.Float64()
			if trial%2 == 0 {
				a = -a // anticlockwise too
			}
			q[k] = Point2f{float32(cx + r*math.Cos(a)*(0.2+rng.Float64())), float32(cy + r*math.Sin(a)*(0.2+rng.Float64()))}
			if trial%5 == 0 {
				q[k].X = float32(int(q[k].X)) // whole pixels, sides along rows
				q[k].Y = float32(int(q[k].Y))
			}
		}
		if trial%7 == 0 {
			q[2] = q[1] // degenerate
		}
		for y := -2; y < 120; y++ {
			py := float32(y*s + s/2)
			x0, x1 := cardQuadRowSpan(q, py, s, -5, 130)
			for x := -5; x < 130; x++ {
				in := cardPointInQuad(Point2f{px(x), py}, q)
				if in != (x >= x0 && x < x1) {
					t.Fatalf("trial %d, quad %v, row %d: point %d in the quad %v, the span is %d…%d", trial, q, y, x, in, x0, x1)
				}
			}
		}
	}
}

// cardMorphRef is cardMorph as it was, pixel by pixel: the reference of
// TestCardMorphMatchesPixels.
func cardMorphRef(src, dst, tmp *[cardFineD]bool, k int, grow bool) {
	const n = cardCanon
	// step 1: along rows; step n: along columns.
	pass := func(src, dst *[cardFineD]bool, step int) {
		for i := range cardFineD {
			pos := (i / step) % n
			v := !grow
			for d := -k; d <= k && v == !grow; d++ {
				p := pos + d
				if p < 0 || p >= n {
					continue
				}
				if src[i+d*step] == grow {
					v = grow
				}
			}
			dst[i] = v
		}
	}
	pass(src, tmp, 1)
	pass(tmp, dst, n)
}

// TestCardMorphMatchesPixels checks the bitwise cardMorph against the
// pixel loop it replaced, eroding and dilating, sparse and dense masks.
func TestCardMorphMatchesPixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	var src, got, want, tmp [cardFineD]bool // tmp: the reference's scratch
	for trial := range 500 {
		p := rng.IntN(10)
		for i := range src {
			src[i] = rng.IntN(10) < p
		}
		for k := range 7 {
			for _, grow := range []bool{false, true} {
				cardMorph(&src, &got, k, grow)
				cardMorphRef(&src, &want, &tmp, k, grow)
				if got != want {
					t.Fatalf("trial %d, radius %d, grow %v: the masks differ", trial, k, grow)
				}
			}
		}
	}
}

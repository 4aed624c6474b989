package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"
)

// sinTable is a sine lookup table over one turn.
type sinTable []float64

func newSinTable() sinTable {
	t := make(sinTable, 4096)
	for i := range t {
		t[i] = math.Sin(float64(i) * 2 * math.Pi / 4096)
	}
	return t
}

// at returns sin(2π·turns).
func (t sinTable) at(turns float64) float64 {
	return t[int(math.Floor(turns*4096))&4095]
}

// grayFromBytes copies w×h bytes into a new 8UC1 Mat.
func grayFromBytes(w, h int, b []byte) (gocv.Mat, error) {
	m := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
	d, err := m.DataPtrUint8()
	if err != nil || len(d) != len(b) {
		m.Close()
		return gocv.NewMat(), fmt.Errorf("synth: cannot fill %dx%d Mat", w, h)
	}
	copy(d, b)
	return m, nil
}

// smoothNoise returns w×h 8UC1 value noise with features about cell pixels
// apart, mean about 128.
func smoothNoise(rng *rand.Rand, w, h, cell int) (gocv.Mat, error) {
	gw, gh := max(2, w/cell+2), max(2, h/cell+2)
	b := make([]byte, gw*gh)
	fillRandom(rng, b)
	g, err := grayFromBytes(gw, gh, b)
	if err != nil {
		return g, err
	}
	defer g.Close()
	out := gocv.NewMat()
	gocv.Resize(g, &out, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
	return out, nil
}

// colorLUT returns a 1×256 8UC3 lookup table running through the stops
// (evenly spaced, linear between them).
func colorLUT(stops ...color.RGBA) (gocv.Mat, error) {
	m := gocv.NewMatWithSize(1, 256, gocv.MatTypeCV8UC3)
	d, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return gocv.NewMat(), err
	}
	for i := range 256 {
		t := float64(i) / 255 * float64(len(stops)-1)
		k := min(int(t), len(stops)-2)
		c := mixColor(stops[k], stops[k+1], t-float64(k))
		d[3*i], d[3*i+1], d[3*i+2] = c.B, c.G, c.R
	}
	return m, nil
}

// colorize maps an 8UC1 structure map through a colour LUT into 8UC3.
func colorize(gray gocv.Mat, stops ...color.RGBA) (gocv.Mat, error) {
	lut, err := colorLUT(stops...)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer lut.Close()
	bgr := gocv.NewMat()
	defer bgr.Close()
	gocv.CvtColor(gray, &bgr, gocv.ColorGrayToBGR)
	out := gocv.NewMat()
	gocv.LUT(bgr, lut, &out)
	return out, nil
}

// layeredNoise returns 128 + Σ weight·(noise-128) over noises of several scales.
func layeredNoise(rng *rand.Rand, w, h int, cells []int, weights []float64) (gocv.Mat, error) {
	acc := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 0, 0, 0), h, w, gocv.MatTypeCV8UC1)
	for i, cell := range cells {
		n, err := smoothNoise(rng, w, h, cell)
		if err != nil {
			acc.Close()
			return gocv.NewMat(), err
		}
		// acc = acc + wt·(n-128).
		wt := weights[i]
		gocv.AddWeighted(acc, 1, n, wt, -128*wt, &acc)
		n.Close()
	}
	return acc, nil
}

// tableBase draws a table surface of w×h pixels at half the final
// resolution (feature sizes are chosen for that); tableGrain adds its grain
// and tableDetail the full-resolution detail after it has been scaled or
// warped into the frame.
func tableBase(kind Background, w, h int, rng *rand.Rand) (gocv.Mat, error) {
	switch kind {
	case BackgroundFelt:
		return feltTable(rng, w, h)
	case BackgroundCloth:
		return clothTable(rng, w, h)
	case BackgroundSlate:
		return slateTable(rng, w, h)
	case BackgroundPaper:
		return paperTable(rng, w, h)
	case BackgroundPlaymat:
		return playmatTable(rng, w, h)
	}
	return woodTable(rng, w, h)
}

// tableGrain adds the surface's grain (noise) to the half-resolution base.
func tableGrain(kind Background, m *gocv.Mat, rng *rand.Rand) error {
	fine := 4.0
	switch kind {
	case BackgroundFelt:
		fine = 11
	case BackgroundCloth:
		fine = 5
	case BackgroundSlate:
		fine = 7
	case BackgroundPaper:
		fine = 3
	}
	buf := gocv.NewMatWithSize(m.Rows(), m.Cols(), gocv.MatTypeCV8UC3)
	defer buf.Close()
	nz := newNoiseTable(rng, fine, m.Cols()*3)
	return nz.apply(m, &buf, rng)
}

// tableDetail adds the full-resolution detail (the cloth's weave) to the
// frame-sized table m.
func tableDetail(kind Background, m *gocv.Mat) error {
	if kind == BackgroundCloth {
		return weave(m)
	}
	return nil
}

// weave modulates the brightness with a small twill pattern.
func weave(m *gocv.Mat) error {
	w, h := m.Cols(), m.Rows()
	tile := gocv.NewMatWithSize(4, 4, gocv.MatTypeCV8UC3)
	defer tile.Close()
	td, err := tile.DataPtrUint8()
	if err != nil {
		return err
	}
	for y := range 4 {
		for x := range 4 {
			v := uint8(205)
			if (x+y)%4 < 2 {
				v = 255
			}
			td[3*(y*4+x)], td[3*(y*4+x)+1], td[3*(y*4+x)+2] = v, v, v
		}
	}
	full := gocv.NewMat()
	defer full.Close()
	gocv.Repeat(tile, h/4+1, w/4+1, &full)
	fr := full.Region(image.Rect(0, 0, w, h))
	defer fr.Close()
	gocv.MultiplyWithParams(*m, fr, m, 1.0/255, -1)
	return nil
}

func woodTable(rng *rand.Rand, w, h int) (gocv.Mat, error) {
	// The grain is computed on a grid 8× coarser along the boards (x) than
	// across them (y), then stretched.
	gw := w/8 + 2
	warp, err := noiseBytes(rng, gw, h, 10, 35)
	if err != nil {
		return gocv.NewMat(), err
	}
	fineWarp, err := noiseBytes(rng, gw, h, 2, 6)
	if err != nil {
		return gocv.NewMat(), err
	}
	streak, err := noiseBytes(rng, gw, h, 3, 1)
	if err != nil {
		return gocv.NewMat(), err
	}
	tone, err := noiseBytes(rng, gw, h, 20, 100)
	if err != nil {
		return gocv.NewMat(), err
	}
	// Ring profile: light early wood, a sharp dark late-wood line.
	prof := make([]float64, 1024)
	for i := range prof {
		f := float64(i) / 1024
		prof[i] = f * f * f
	}
	buf := make([]byte, gw*h)
	plank := math.Max(12, (0.16+0.1*rng.Float64())*float64(max(w, h)))
	off := rng.Float64() * plank
	nPlanks := int(float64(h)/plank) + 4
	type plankT struct{ tone, period, warp, phase float64 }
	planks := make([]plankT, nPlanks)
	for i := range planks {
		planks[i] = plankT{
			tone:   (rng.Float64()*2 - 1) * 18,
			period: 3 + rng.Float64()*7,
			warp:   1 + rng.Float64()*3,
			phase:  rng.Float64(),
		}
	}
	for y := range h {
		pi := int(math.Floor((float64(y)+off)/plank)) + 1
		p := planks[max(0, min(nPlanks-1, pi))]
		for gx := range gw {
			i := y*gw + gx
			ph := float64(y)/p.period + p.phase + p.warp*(float64(warp[i])-128)/128 + 0.25*(float64(fineWarp[i])-128)/128
			f := ph - math.Floor(ph)
			v := 150 + p.tone - 70*prof[int(f*1023)] + 0.25*(float64(streak[i])-128) + 0.2*(float64(tone[i])-128)
			buf[i] = uint8(math.Max(0, math.Min(255, v)))
		}
	}
	g, err := grayFromBytes(gw, h, buf)
	if err != nil {
		return g, err
	}
	defer g.Close()
	full := gocv.NewMat()
	defer full.Close()
	gocv.Resize(g, &full, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
	palettes := [][]color.RGBA{
		{rgb(70, 40, 20), rgb(128, 80, 42), rgb(176, 122, 70)},     // oak
		{rgb(36, 20, 10), rgb(76, 44, 24), rgb(118, 74, 42)},       // walnut
		{rgb(140, 100, 56), rgb(196, 154, 96), rgb(226, 194, 140)}, // pine
		{rgb(90, 40, 24), rgb(140, 70, 40), rgb(180, 110, 70)},     // cherry
	}
	pal := palettes[rng.IntN(len(palettes))]
	out, err := colorize(full, pal...)
	if err != nil {
		return out, err
	}
	// Seams between boards and a few butt joints.
	seam := mixColor(pal[0], pal[1], 0.3)
	for i := range nPlanks {
		y := int(float64(i-1)*plank - off)
		x := rng.IntN(w)
		if y <= 0 || y >= h-1 {
			continue
		}
		gocv.Line(&out, image.Pt(0, y), image.Pt(w-1, y), seam, 1)
		gocv.Line(&out, image.Pt(x, y), image.Pt(x, min(h-1, y+int(plank))), seam, 1)
	}
	return out, nil
}

// noiseBytes returns w×h value noise (bytes) with features about cx by cy
// pixels.
func noiseBytes(rng *rand.Rand, w, h int, cx, cy int) ([]byte, error) {
	gw, gh := max(2, w/max(1, cx)+2), max(2, h/max(1, cy)+2)
	b := make([]byte, gw*gh)
	fillRandom(rng, b)
	g, err := grayFromBytes(gw, gh, b)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	out := gocv.NewMat()
	defer out.Close()
	gocv.Resize(g, &out, image.Pt(w, h), 0, 0, gocv.InterpolationLinear)
	d, err := out.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), d...), nil
}

// fillRandom fills b with uniform random bytes.
func fillRandom(rng *rand.Rand, b []byte) {
	for i := 0; i < len(b); i += 8 {
		v := rng.Uint64()
		for k := 0; k < 8 && i+k < len(b); k++ {
			b[i+k] = uint8(v >> (8 * k))
		}
	}
}

func feltTable(rng *rand.Rand, w, h int) (gocv.Mat, error) {
	g, err := layeredNoise(rng, w, h, []int{max(8, w/6), 12, 2}, []float64{0.25, 0.2, 0.4})
	if err != nil {
		return g, err
	}
	defer g.Close()
	hue := []struct{ dark, mid, light color.RGBA }{
		{rgb(10, 60, 25), rgb(24, 110, 50), rgb(60, 150, 80)},
		{rgb(12, 50, 40), rgb(28, 96, 78), rgb(66, 140, 112)},
	}[rng.IntN(2)]
	return colorize(g, hue.dark, hue.mid, hue.light)
}

func slateTable(rng *rand.Rand, w, h int) (gocv.Mat, error) {
	g, err := layeredNoise(rng, w, h, []int{max(8, w/8), 12, 3}, []float64{0.6, 0.3, 0.2})
	if err != nil {
		return g, err
	}
	defer g.Close()
	return colorize(g, rgb(30, 32, 36), rgb(64, 66, 72), rgb(100, 104, 110))
}

func paperTable(rng *rand.Rand, w, h int) (gocv.Mat, error) {
	g, err := layeredNoise(rng, w, h, []int{max(8, w/6), 15}, []float64{0.25, 0.1})
	if err != nil {
		return g, err
	}
	defer g.Close()
	return colorize(g, rgb(205, 200, 186), rgb(232, 228, 216), rgb(250, 248, 240))
}

func clothTable(rng *rand.Rand, w, h int) (gocv.Mat, error) {
	palette := []color.RGBA{
		hsv(rng.Float64()*360, 0.55+0.3*rng.Float64(), 0.45+0.3*rng.Float64()),
		hsv(rng.Float64()*360, 0.2+0.3*rng.Float64(), 0.75+0.2*rng.Float64()),
		hsv(rng.Float64()*360, 0.6, 0.3+0.3*rng.Float64()),
	}
	stripes := func(n int) []color.RGBA {
		out := make([]color.RGBA, n)
		for i := 0; i < n; {
			c := palette[rng.IntN(len(palette))]
			wd := 2 + rng.IntN(15)
			for k := 0; k < wd && i < n; k, i = k+1, i+1 {
				out[i] = c
			}
		}
		return out
	}
	// The pattern repeats with a period of `rep` pixels in each direction.
	rep := max(8, min(w, h)/4+rng.IntN(max(1, min(w, h)/4)))
	rowC, colC := stripes(rep), stripes(rep)
	row := gocv.NewMatWithSize(1, rep, gocv.MatTypeCV8UC3)
	col := gocv.NewMatWithSize(rep, 1, gocv.MatTypeCV8UC3)
	defer row.Close()
	defer col.Close()
	rd, err1 := row.DataPtrUint8()
	cd, err2 := col.DataPtrUint8()
	if err1 != nil || err2 != nil {
		return gocv.NewMat(), fmt.Errorf("synth: cloth buffers")
	}
	for i := range rep {
		rd[3*i], rd[3*i+1], rd[3*i+2] = colC[i].B, colC[i].G, colC[i].R
		cd[3*i], cd[3*i+1], cd[3*i+2] = rowC[i].B, rowC[i].G, rowC[i].R
	}
	nx, ny := w/rep+1, h/rep+1
	a, b := gocv.NewMat(), gocv.NewMat()
	defer a.Close()
	defer b.Close()
	gocv.Repeat(row, h, nx, &a)
	gocv.Repeat(col, ny, w, &b)
	ar, br := a.Region(image.Rect(0, 0, w, h)), b.Region(image.Rect(0, 0, w, h))
	defer ar.Close()
	defer br.Close()
	out := gocv.NewMat()
	gocv.AddWeighted(ar, 0.5, br, 0.5, 0, &out)
	return out, nil
}

func playmatTable(rng *rand.Rand, w, h int) (gocv.Mat, error) {
	chans := make([]gocv.Mat, 3)
	for i := range chans {
		n, err := smoothNoise(rng, w, h, max(8, w/7))
		if err != nil {
			for _, c := range chans[:i] {
				c.Close()
			}
			return gocv.NewMat(), err
		}
		chans[i] = n
	}
	out := gocv.NewMat()
	gocv.Merge(chans, &out)
	for _, c := range chans {
		c.Close()
	}
	scale := float64(min(w, h))
	for range 70 {
		c := hsv(rng.Float64()*360, 0.4+0.6*rng.Float64(), 0.25+0.75*rng.Float64())
		p := image.Pt(rng.IntN(w), rng.IntN(h))
		switch rng.IntN(5) {
		case 0:
			gocv.Circle(&out, p, int(scale*(0.02+0.12*rng.Float64())), c, -1)
		case 1:
			q := image.Pt(p.X+int(scale*(rng.Float64()-0.5)*0.6), p.Y+int(scale*(rng.Float64()-0.5)*0.6))
			gocv.Line(&out, p, q, c, 1+rng.IntN(max(2, int(scale/60))))
		case 2:
			n := 3 + rng.IntN(4)
			pts := make([]image.Point, n)
			for i := range pts {
				pts[i] = image.Pt(p.X+int(scale*(rng.Float64()-0.5)*0.3), p.Y+int(scale*(rng.Float64()-0.5)*0.3))
			}
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
			gocv.FillPoly(&out, pv, c)
			pv.Close()
		case 3:
			letters := "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
			s := ""
			for range 1 + rng.IntN(6) {
				s += string(letters[rng.IntN(len(letters))])
			}
			gocv.PutTextWithParams(&out, s, p, gocv.FontHersheyComplex, scale/400*(0.5+2*rng.Float64()), c, 1+rng.IntN(2), gocv.LineAA, false)
		default:
			gocv.CircleWithParams(&out, p, int(scale*(0.03+0.1*rng.Float64())), c, 1+rng.IntN(4), gocv.LineAA, 0)
		}
	}
	return out, nil
}

// noiseTable holds Gaussian noise biased by 128, copied row by row from
// random offsets to fill a frame fast.
type noiseTable struct {
	biased []byte
	n      int // usable start offsets
	row    int // bytes per row
}

func newNoiseTable(rng *rand.Rand, sigma float64, rowBytes int) noiseTable {
	n := 1 << 15
	t := noiseTable{biased: make([]byte, n+rowBytes), n: n, row: rowBytes}
	// Sum of eight uniform bytes: close enough to Gaussian, and fast.
	const mean, sd = 8 * 127.5, 209.02 // sqrt(8·(256²-1)/12)
	for i := range t.biased {
		u := rng.Uint64()
		sum := 0
		for k := range 8 {
			sum += int(u >> (8 * k) & 255)
		}
		v := math.Round((float64(sum)-mean)/sd*sigma) + 128
		t.biased[i] = uint8(math.Max(0, math.Min(255, v)))
	}
	return t
}

// apply adds the noise to m (8UC3, continuous, t.row bytes per row) using
// buf (same size) as a buffer.
func (t noiseTable) apply(m, buf *gocv.Mat, rng *rand.Rand) error {
	bd, err := buf.DataPtrUint8()
	if err != nil || len(bd)%t.row != 0 || m.Rows()*m.Cols()*3 != len(bd) || m.Type() != buf.Type() {
		return fmt.Errorf("synth: noise buffer does not match the frame")
	}
	for off := 0; off < len(bd); off += t.row {
		o := rng.IntN(t.n)
		copy(bd[off:off+t.row], t.biased[o:o+t.row])
	}
	// m + (noise+128) - 128, saturated: exact in AddWeighted's arithmetic.
	gocv.AddWeighted(*m, 1, *buf, 1, -128, m)
	return nil
}

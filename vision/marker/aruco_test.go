package marker

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"gocv.io/x/gocv"

	"tablecam/vision/geom"
)

func TestMarkerDictTable(t *testing.T) {
	for d := Dict(0); d.Valid(); d++ {
		size, bits, err := arucoDictInfo(d)
		if err != nil {
			t.Fatal(err)
		}
		if size != d.Size() || bits != d.Bits() {
			t.Errorf("%v: table says %d ids, %d bits; OpenCV says %d, %d", d, d.Size(), d.Bits(), size, bits)
		}
		got, err := ParseDict(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDict(%q) = %v, %v", d.String(), got, err)
		}
	}
	for name, want := range map[string]Dict{
		"DICT_4X4_250": Dict4X4_250, "dict_5x5_100": Dict5X5_100, "6X6_1000": Dict6X6_1000,
		" ARUCO_ORIGINAL ": DictArucoOriginal, "DICT_APRILTAG_36h11": DictAprilTag36h11,
	} {
		if got, err := ParseDict(name); err != nil || got != want {
			t.Errorf("ParseDict(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, name := range []string{"", "DICT_4X4_51", "DICT_", "4X4", "DICT_DICT_4X4_50"} {
		if _, err := ParseDict(name); err == nil {
			t.Errorf("ParseDict(%q) succeeded", name)
		}
	}
	bad := Dict(99)
	if bad.Size() != 0 || bad.String() != "Dict(99)" {
		t.Errorf("invalid dict: Size %d, String %q", bad.Size(), bad.String())
	}
	if Dict4X4_50.Size() != 50 || DictArucoOriginal.Size() != 1024 || Dict(0) != Dict4X4_50 {
		t.Error("wrong sizes or zero value")
	}
}

func TestGenerateMarkerReadsBack(t *testing.T) {
	det := map[Dict]*Detector{}
	defer func() {
		for _, d := range det {
			d.Close()
		}
	}()
	for _, d := range []Dict{Dict4X4_50, Dict4X4_1000, Dict5X5_100, Dict6X6_250, Dict7X7_50, DictArucoOriginal, DictAprilTag36h11} {
		md, err := NewDetector(d, Options{RefineSubpix: true})
		if err != nil {
			t.Fatal(err)
		}
		det[d] = md
		for _, id := range []int{0, 1, d.Size() / 2, d.Size() - 1} {
			side := 12 * (d.Bits() + 2)
			m, err := Generate(d, id, side)
			if err != nil {
				t.Fatal(err)
			}
			q := QuietZone(d, side)
			if m.Rows() != side+2*q || m.Cols() != side+2*q || m.Type() != gocv.MatTypeCV8UC1 {
				t.Fatalf("%v id %d: %dx%d type %v, want %d square grey", d, id, m.Cols(), m.Rows(), m.Type(), side+2*q)
			}
			// Quiet zone white, black border inside it.
			if m.GetUCharAt(q/2, q/2) != 255 || m.GetUCharAt(side+q+q/2, side/2) != 255 ||
				m.GetUCharAt(q+1, q+1) != 0 || m.GetUCharAt(q+side-2, q+side-2) != 0 {
				t.Errorf("%v id %d: quiet zone or border wrong", d, id)
			}
			// On a mid-grey background, slightly off-centre: a surround
			// darker than the quiet zone is what defeats OpenCV's default
			// minMarkerDistanceRate for 6x6 and larger markers.
			canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 0, 0, 0), 400, 400, gocv.MatTypeCV8UC1)
			roi := canvas.Region(image.Rect(101, 93, 101+m.Cols(), 93+m.Rows()))
			m.CopyTo(&roi)
			roi.Close()
			m.Close()
			got, err := md.Detect(canvas)
			canvas.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].ID != id {
				t.Errorf("%v id %d: detected %+v", d, id, got)
				continue
			}
			// The black square spans pixels [x0, x0+side): its geometric
			// corners are half a pixel outside the pixel centres.
			x0, y0 := float32(101+q)-0.5, float32(93+q)-0.5
			want := [4]geom.Point{{X: x0, Y: y0}, {X: x0 + float32(side), Y: y0}, {X: x0 + float32(side), Y: y0 + float32(side)}, {X: x0, Y: y0 + float32(side)}}
			for k := range 4 {
				if pointDist(got[0].Corners[k], want[k]) > 0.6 {
					t.Errorf("%v id %d: corner %d at %v, want %v", d, id, k, got[0].Corners[k], want[k])
				}
			}
			if math.Abs(got[0].Side-float64(side)) > 1 {
				t.Errorf("%v id %d: side %.2f, want %d", d, id, got[0].Side, side)
			}
		}
	}
}

func TestGenerateMarkerErrors(t *testing.T) {
	for _, tc := range []struct {
		d        Dict
		id, side int
	}{
		{Dict4X4_50, 50, 60}, {Dict4X4_50, -1, 60}, {Dict4X4_50, 0, 5}, {Dict4X4_50, 0, 0},
		{Dict(-1), 0, 60}, {Dict(21), 0, 60}, {Dict5X5_1000, 1000, 70}, {Dict4X4_50, 0, 20000},
	} {
		if m, err := Generate(tc.d, tc.id, tc.side); err == nil {
			m.Close()
			t.Errorf("GenerateMarker(%v, %d, %d) succeeded", tc.d, tc.id, tc.side)
		}
	}
	// One pixel per module is the smallest marker.
	m, err := Generate(Dict4X4_50, 49, 6)
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows() != 8 {
		t.Errorf("6 px marker: image %d px, want 8", m.Rows())
	}
	m.Close()
}

func TestMarkerDetectorInputs(t *testing.T) {
	if _, err := NewDetector(Dict(42), Options{}); err == nil {
		t.Error("invalid dictionary accepted")
	}
	for _, o := range []Options{{Scale: 1.5}, {Scale: -0.5}, {Scale: math.NaN()}, {MinSide: -1}, {MinSide: math.Inf(1)}} {
		if md, err := NewDetector(Dict4X4_50, o); err == nil {
			md.Close()
			t.Errorf("options %+v accepted", o)
		}
	}
	md, err := NewDetector(Dict4X4_50, Options{Scale: 0.5, RefineSubpix: true})
	if err != nil {
		t.Fatal(err)
	}
	if md.Options().Scale != 0.5 {
		t.Errorf("options %+v", md.Options())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	frame, truth := renderMarkerScene(rng, Dict4X4_50, markerCond{sides: [2]float64{50, 60}, angle: -1}, []int{3, 7, 11, 42})
	defer frame.Close()
	want := func(name string, got []Marker, off geom.Point) {
		t.Helper()
		if len(got) != len(truth) {
			t.Errorf("%s: %d markers, want %d", name, len(got), len(truth))
			return
		}
		for i, m := range got { // truth is sorted by id, as is got
			c := geom.Point{X: truth[i].center().X - off.X, Y: truth[i].center().Y - off.Y}
			if m.ID != truth[i].id || pointDist(m.Center, c) > 1.5 {
				t.Errorf("%s: marker %d id %d at %v, want id %d at %v", name, i, m.ID, m.Center, truth[i].id, c)
			}
		}
	}
	got, err := md.Detect(frame)
	if err != nil {
		t.Fatal(err)
	}
	want("BGR", got, geom.Point{})

	grey := gocv.NewMat()
	defer grey.Close()
	gocv.CvtColor(frame, &grey, gocv.ColorBGRToGray)
	got, err = md.Detect(grey)
	if err != nil {
		t.Fatal(err)
	}
	want("grey", got, geom.Point{})

	bgra := gocv.NewMat()
	defer bgra.Close()
	gocv.CvtColor(frame, &bgra, gocv.ColorBGRToBGRA)
	got, err = md.Detect(bgra)
	if err != nil {
		t.Fatal(err)
	}
	want("BGRA", got, geom.Point{})

	// A Region is not continuous: coordinates are the region's own.
	roi := frame.Region(image.Rect(3, 5, 1280, 720))
	got, err = md.Detect(roi)
	roi.Close()
	if err != nil {
		t.Fatal(err)
	}
	want("region", got, geom.Point{X: 3, Y: 5})

	// Odd sizes (the half-resolution image is rounded) and tiny images.
	for _, sz := range []image.Point{{1, 1}, {2, 3}, {7, 5}, {1281, 721}} {
		m := gocv.NewMatWithSize(sz.Y, sz.X, gocv.MatTypeCV8UC3)
		if _, err := md.Detect(m); err != nil {
			t.Errorf("%v image: %v", sz, err)
		}
		m.Close()
	}

	empty := gocv.NewMat()
	defer empty.Close()
	if _, err := md.Detect(empty); err == nil {
		t.Error("empty image accepted")
	}
	f32 := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV32F)
	defer f32.Close()
	if _, err := md.Detect(f32); err == nil {
		t.Error("float image accepted")
	}

	// MinSide drops the small markers.
	big, err := NewDetector(Dict4X4_50, Options{Scale: 0.5, MinSide: 70})
	if err != nil {
		t.Fatal(err)
	}
	got, err = big.Detect(frame)
	big.Close()
	if err != nil || len(got) != 0 {
		t.Errorf("MinSide 70 on 50–60 px markers: %d markers, %v", len(got), err)
	}

	md.Close()
	md.Close()
	if _, err := md.Detect(frame); err == nil {
		t.Error("Detect after Close succeeded")
	}
}

// TestMarkerDetectNoLeak runs 2000 detections and checks that neither the
// binding's own objects, nor the C heap (OpenCV's allocations included), nor
// the process's resident memory grow.
func TestMarkerDetectNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	// OpenCV keeps some state per OS thread: stay on one so that only a
	// leak can make the C heap grow.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	live := arucoLiveObjects()
	rng := rand.New(rand.NewPCG(3, 4))
	frame, _ := renderMarkerScene(rng, Dict4X4_50, markerCond{sides: [2]float64{30, 70}, angle: -1}, []int{1, 2, 3, 4})
	defer frame.Close()
	region := frame.Region(image.Rect(0, 0, 1000, 700))
	defer region.Close()
	bad := gocv.NewMatWithSize(10, 10, gocv.MatTypeCV16S)
	defer bad.Close()
	small := gocv.NewMatWithSize(40, 40, gocv.MatTypeCV8UC1)
	defer small.Close()

	md, err := NewDetector(Dict4X4_50, Options{Scale: 0.5, RefineSubpix: true})
	if err != nil {
		t.Fatal(err)
	}
	run := func(n int) {
		for i := range n {
			img := frame
			if i%10 == 9 {
				img = region // the copy path
			}
			got, err := md.Detect(img)
			if err != nil || len(got) < 3 {
				t.Fatalf("detection %d: %d markers, %v", i, len(got), err)
			}
			if i%100 == 0 {
				if _, err := md.Detect(bad); err == nil {
					t.Fatal("16-bit image accepted")
				}
				// An error from C++ (marker outside the image): its
				// message is freed.
				if err := DrawAt(&small, Dict4X4_50, 1, 30, 20, 0); err == nil {
					t.Fatal("marker outside the image accepted")
				}
			}
		}
	}
	run(200) // warm up the buffers and OpenCV's thread pool
	runtime.GC()
	debug.FreeOSMemory()
	rss0, heap0 := procRSS(t), cHeapInUse()
	run(2000)
	runtime.GC()
	debug.FreeOSMemory()
	rss1, heap1 := procRSS(t), cHeapInUse()
	t.Logf("2000 detections: RSS %.1f → %.1f MB (%+.2f MB); C heap in use %d → %d bytes (%+d)",
		float64(rss0)/1e6, float64(rss1)/1e6, float64(rss1-rss0)/1e6, heap0, heap1, heap1-heap0)
	if heap0 >= 0 && heap1-heap0 > 64<<10 { // 32 bytes a detection; a leaked vector or Mat header is more
		t.Errorf("C heap grew by %d bytes over 2000 detections", heap1-heap0)
	}
	if rss1-rss0 > 8<<20 {
		t.Errorf("RSS grew by %.1f MB over 2000 detections", float64(rss1-rss0)/1e6)
	}
	if n := arucoLiveObjects(); n != live+1 {
		t.Errorf("%d live binding objects with one detector open, want %d", n, live+1)
	}
	md.Close()
	for range 100 {
		if _, _, err := arucoDictInfo(Dict(77)); err == nil {
			t.Fatal("invalid dictionary accepted")
		}
	}
	if n := arucoLiveObjects(); n != live {
		t.Errorf("%d live binding objects after Close, want %d", n, live)
	}
}

func procRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// markerCond describes one condition of the synthetic scenes: four cards,
// each with a marker, on a 1280×720 table.
type markerCond struct {
	name       string
	sides      [2]float64 // marker side range, px, before tilt
	angle      float64    // in-plane rotation, degrees; < 0: random
	tilt       float64    // tilt out of the table plane about a random axis, degrees
	blur       float64    // Gaussian blur sigma, px
	gain, bias float64    // brightness: out = gain*in + bias (gain 0: 1)
	noise      float64    // Gaussian noise sigma, grey levels
	glare      int        // 1: a bright blob beside each marker; 2: over its edge
	finger     bool       // a finger over a corner of each card (not the marker)
	min05      float64    // required DICT_4X4_50 hit rate at Scale 0.5
	min1       float64    // required DICT_4X4_50 hit rate at Scale 1
}

type markerTruth struct {
	id      int
	corners [4]geom.Point
}

func (m markerTruth) center() geom.Point {
	var c geom.Point
	for _, p := range m.corners {
		c.X += p.X / 4
		c.Y += p.Y / 4
	}
	return c
}

func (m markerTruth) sideLen() float64 {
	var s float64
	for k := range 4 {
		s += pointDist(m.corners[k], m.corners[(k+1)%4]) / 4
	}
	return s
}

func pointDist(a, b geom.Point) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }

// projection maps card-texture pixels into the frame: the card lies in a
// plane rotated about the view axis, then tilted, and is seen by a pinhole
// camera with a 1000 px focal length.
type projection struct {
	cu, cv, s, u0, v0 float64
	r                 [3][3]float64
}

func (p projection) apply(u, v float64) geom.Point {
	x, y := p.s*(u-p.cu), p.s*(v-p.cv)
	X := p.r[0][0]*x + p.r[0][1]*y
	Y := p.r[1][0]*x + p.r[1][1]*y
	Z := p.r[2][0]*x + p.r[2][1]*y
	const f = 1000.0
	return geom.Point{X: float32(p.u0 + f*X/(f+Z)), Y: float32(p.v0 + f*Y/(f+Z))}
}

func newProjection(cu, cv, s, u0, v0, angle, tilt, axis float64) projection {
	th, ph := angle*math.Pi/180, tilt*math.Pi/180
	rz := [3][3]float64{{math.Cos(th), -math.Sin(th), 0}, {math.Sin(th), math.Cos(th), 0}, {0, 0, 1}}
	// Rodrigues rotation by ph about the in-plane axis (cos axis, sin axis, 0).
	ax, ay := math.Cos(axis), math.Sin(axis)
	c, sn := math.Cos(ph), math.Sin(ph)
	rt := [3][3]float64{
		{c + ax*ax*(1-c), ax * ay * (1 - c), ay * sn},
		{ay * ax * (1 - c), c + ay*ay*(1-c), -ax * sn},
		{-ay * sn, ax * sn, c},
	}
	var r [3][3]float64
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				r[i][j] += rt[i][k] * rz[k][j]
			}
		}
	}
	return projection{cu: cu, cv: cv, s: s, u0: u0, v0: v0, r: r}
}

// renderMarkerCard draws a card carrying the marker: the marker with its quiet
// zone at the top, card art (a coloured panel with circles and white text)
// right up to the quiet zone below it. It returns the BGR card and the
// marker's top-left pixel.
func renderMarkerCard(rng *rand.Rand, d Dict, id int, side int) (gocv.Mat, image.Point) {
	marker, err := Generate(d, id, side)
	if err != nil {
		panic(err)
	}
	defer marker.Close()
	q := QuietZone(d, side)
	pad := side / 4
	w := marker.Cols() + 2*pad
	h := w * 29 / 20
	card := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(238, 242, 245, 0), h, w, gocv.MatTypeCV8UC3)
	gocv.Rectangle(&card, image.Rect(2, 2, w-3, h-3), color.RGBA{60, 40, 30, 255}, max(1, side/40))
	art := image.Rect(pad, pad+marker.Rows(), w-pad, h-pad)
	rndColor := func(n int) color.RGBA {
		return color.RGBA{uint8(rng.IntN(n)), uint8(rng.IntN(n)), uint8(rng.IntN(n)), 255}
	}
	gocv.Rectangle(&card, art, rndColor(200), -1)
	for range 4 {
		c := image.Pt(art.Min.X+rng.IntN(art.Dx()), art.Min.Y+rng.IntN(art.Dy()))
		gocv.Circle(&card, c, 1+rng.IntN(max(2, side/5)), rndColor(256), -1)
	}
	gocv.PutText(&card, "Goblin", image.Pt(art.Min.X+2, art.Max.Y-art.Dy()/3), gocv.FontHersheySimplex,
		float64(side)/120, color.RGBA{250, 250, 250, 255}, max(1, side/60))
	m3 := gocv.NewMat()
	gocv.CvtColor(marker, &m3, gocv.ColorGrayToBGR)
	roi := card.Region(image.Rect(pad, pad, pad+m3.Cols(), pad+m3.Rows()))
	m3.CopyTo(&roi)
	roi.Close()
	m3.Close()
	return card, image.Pt(pad+q, pad+q)
}

// renderMarkerScene draws four cards with markers of d in the four quadrants
// of a 1280×720 table and returns the BGR frame and where the markers are,
// sorted by id.
func renderMarkerScene(rng *rand.Rand, d Dict, c markerCond, ids []int) (gocv.Mat, []markerTruth) {
	const W, H = 1280, 720
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(45, 75, 115, 0), H, W, gocv.MatTypeCV8UC3)
	for range 40 { // wood grain
		y := rng.IntN(H)
		gocv.Line(&frame, image.Pt(0, y), image.Pt(W, y+rng.IntN(40)-20), color.RGBA{90 + uint8(rng.IntN(30)), 60, 35, 255}, 1+rng.IntN(3))
	}
	modules := d.Bits() + 2
	var truth []markerTruth
	var projs []projection
	var cards []image.Point
	for i, id := range ids {
		side := c.sides[0] + rng.Float64()*(c.sides[1]-c.sides[0])
		// Render the card at about twice its size in the frame.
		texSide := modules * max(4, int(math.Ceil(2*side/float64(modules))))
		card, m0 := renderMarkerCard(rng, d, id, texSide)
		angle := c.angle
		if angle < 0 {
			angle = rng.Float64() * 360
		}
		s := side / float64(texSide)
		cw, ch := float64(card.Cols()), float64(card.Rows())
		radius := s * math.Hypot(cw, ch) / 2
		qx, qy := float64(i%2)*W/2+W/4, float64(i/2%2)*H/2+H/4
		jx, jy := max(0, W/4-radius-12), max(0, H/4-radius-12)
		p := newProjection((cw-1)/2, (ch-1)/2, s, qx+(rng.Float64()*2-1)*jx, qy+(rng.Float64()*2-1)*jy,
			angle, c.tilt, rng.Float64()*2*math.Pi)
		// Pixel centres are at integer coordinates: the card's outline is
		// half a pixel outside its corner pixels.
		src := []gocv.Point2f{{X: -0.5, Y: -0.5}, {X: float32(cw) - 0.5, Y: -0.5}, {X: float32(cw) - 0.5, Y: float32(ch) - 0.5}, {X: -0.5, Y: float32(ch) - 0.5}}
		var dst []gocv.Point2f
		for _, q := range src {
			pdfNum := p.apply(float64(q.X), float64(q.Y))
			dst = append(dst, gocv.Point2f{X: pdfNum.X, Y: pdfNum.Y})
		}
		sv, dv := gocv.NewPoint2fVectorFromPoints(src), gocv.NewPoint2fVectorFromPoints(dst)
		hm := gocv.GetPerspectiveTransform2f(sv, dv)
		gocv.WarpPerspectiveWithParams(card, &frame, hm, image.Pt(W, H), gocv.InterpolationLinear, gocv.BorderTransparent, color.RGBA{})
		hm.Close()
		sv.Close()
		dv.Close()
		card.Close()

		x0, y0 := float64(m0.X)-0.5, float64(m0.Y)-0.5
		x1, y1 := x0+float64(texSide), y0+float64(texSide)
		truth = append(truth, markerTruth{id: id, corners: [4]geom.Point{p.apply(x0, y0), p.apply(x1, y0), p.apply(x1, y1), p.apply(x0, y1)}})
		projs = append(projs, p)
		cards = append(cards, image.Pt(int(cw), int(ch)))
	}

	if c.finger {
		for i, p := range projs {
			drawFinger(&frame, p, cards[i], truth)
		}
	}
	if c.glare > 0 {
		blob := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), H, W, gocv.MatTypeCV8UC3)
		for _, m := range truth {
			ctr, side := m.center(), m.sideLen()
			a := rng.Float64() * 2 * math.Pi
			r, off := 0.45*side, 0.6*side // over the marker's edge
			if c.glare == 1 {
				r, off = 0.4*side, 0.5*side+side/float64(modules)+0.4*side // next to the quiet zone
			}
			at := image.Pt(int(float64(ctr.X)+off*math.Cos(a)), int(float64(ctr.Y)+off*math.Sin(a)))
			gocv.Circle(&blob, at, int(r), color.RGBA{150, 150, 150, 255}, -1)
		}
		gocv.GaussianBlur(blob, &blob, image.Pt(0, 0), 6, 6, gocv.BorderDefault)
		gocv.Add(frame, blob, &frame)
		blob.Close()
	}
	if c.gain != 0 || c.bias != 0 {
		g := c.gain
		if g == 0 {
			g = 1
		}
		out := gocv.NewMat()
		frame.ConvertToWithParams(&out, gocv.MatTypeCV8UC3, float32(g), float32(c.bias))
		frame.Close()
		frame = out
	}
	if c.blur > 0 {
		gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), c.blur, c.blur, gocv.BorderDefault)
	}
	if c.noise > 0 {
		// Grey noise from rng (OpenCV's RandN draws from a per-thread
		// generator, which would make the scenes differ between runs).
		pix := make([]byte, W*H)
		for i := range pix {
			pix[i] = uint8(min(255, max(0, 128+math.Round(rng.NormFloat64()*c.noise))))
		}
		grey, err := gocv.NewMatFromBytes(H, W, gocv.MatTypeCV8UC1, pix)
		if err != nil {
			panic(err)
		}
		n := gocv.NewMat()
		gocv.CvtColor(grey, &n, gocv.ColorGrayToBGR)
		gocv.AddWeighted(frame, 1, n, 1, -128, &frame)
		n.Close()
		grey.Close()
	}
	slices.SortFunc(truth, func(a, b markerTruth) int { return a.id - b.id })
	return frame, truth
}

// drawFinger draws a finger reaching over one of the card's bottom corners
// (the marker is at the top), from outside the card, choosing a corner from
// which the finger stays clear of every marker.
func drawFinger(frame *gocv.Mat, p projection, card image.Point, markers []markerTruth) {
	ctr := p.apply(float64(card.X)/2, float64(card.Y)/2)
	for _, u := range []float64{float64(card.X), 0} {
		corner := p.apply(u, float64(card.Y))
		dx, dy := float64(corner.X-ctr.X), float64(corner.Y-ctr.Y)
		l := math.Hypot(dx, dy)
		dx, dy = dx/l, dy/l
		thick := max(14, int(l*0.2))
		tip := geom.Point{X: float32(float64(corner.X) - dx*l*0.2), Y: float32(float64(corner.Y) - dy*l*0.2)}
		base := geom.Point{X: float32(float64(corner.X) + dx*200), Y: float32(float64(corner.Y) + dy*200)}
		clear := true
		for _, m := range markers {
			// Keep the finger off the marker and its quiet zone.
			if segmentPointDist(m.center(), tip, base) < 0.85*m.sideLen()+float64(thick)/2+3 {
				clear = false
			}
		}
		if !clear {
			continue
		}
		ti, bi := image.Pt(int(tip.X), int(tip.Y)), image.Pt(int(base.X), int(base.Y))
		gocv.Line(frame, ti, bi, color.RGBA{150, 105, 80, 255}, thick+4)
		skin := color.RGBA{225, 170, 130, 255}
		gocv.Line(frame, ti, bi, skin, thick)
		gocv.Circle(frame, ti, thick/2, skin, -1)
		return
	}
}

func segmentPointDist(p, a, b geom.Point) float64 {
	ax, ay := float64(b.X-a.X), float64(b.Y-a.Y)
	t := (float64(p.X-a.X)*ax + float64(p.Y-a.Y)*ay) / (ax*ax + ay*ay)
	t = min(1, max(0, t))
	return math.Hypot(float64(a.X)+t*ax-float64(p.X), float64(a.Y)+t*ay-float64(p.Y))
}

// markerScore compares detections with the truth: hits (right id at the
// right place), phantoms (a detection matching no marker) and the corner
// error of the hits.
type markerScore struct {
	markers, hits, phantoms int
	cornerErr               float64 // sum over hits of the mean corner distance
	angleErr                float64 // largest angle error of a hit, degrees
}

func (s *markerScore) add(got []Marker, truth []markerTruth, angle float64) (missed []markerTruth, phantoms []Marker) {
	s.markers += len(truth)
	used := make([]bool, len(truth))
	for _, m := range got {
		match := -1
		for i, tr := range truth {
			if !used[i] && tr.id == m.ID && pointDist(tr.center(), m.Center) < 0.25*tr.sideLen() {
				match = i
				break
			}
		}
		if match < 0 {
			s.phantoms++
			phantoms = append(phantoms, m)
			continue
		}
		used[match] = true
		s.hits++
		var e float64
		for k := range 4 {
			e += pointDist(m.Corners[k], truth[match].corners[k]) / 4
		}
		s.cornerErr += e
		if angle >= 0 {
			d := math.Abs(math.Mod(m.Angle()-angle+540, 360) - 180)
			s.angleErr = max(s.angleErr, d)
		}
	}
	for i, u := range used {
		if !u {
			missed = append(missed, truth[i])
		}
	}
	return missed, phantoms
}

func (s markerScore) rate() float64 { return float64(s.hits) / float64(max(1, s.markers)) }

func (s markerScore) meanErr() float64 { return s.cornerErr / float64(max(1, s.hits)) }

// markerConditions lists the conditions of TestMarkerSyntheticScenes with
// the DICT_4X4_50 hit rates they must reach (a little under what they do).
func markerConditions() []markerCond {
	base := markerCond{sides: [2]float64{30, 80}, angle: -1, min05: 0.95, min1: 0.95}
	with := func(name string, min05, min1 float64, f func(*markerCond)) markerCond {
		c := base
		c.name = name
		if min05 > 0 {
			c.min05, c.min1 = min05, min1
		}
		f(&c)
		return c
	}
	conds := []markerCond{with("baseline 30-80px", 0, 0, func(*markerCond) {})}
	for a := 0; a < 360; a += 15 {
		conds = append(conds, with(fmt.Sprintf("rotation %d°", a), 0, 0, func(c *markerCond) { c.angle = float64(a) }))
	}
	for _, tilt := range []float64{15, 30, 45} {
		conds = append(conds, with(fmt.Sprintf("tilt %.0f°", tilt), 0.9, 0.95, func(c *markerCond) { c.tilt = tilt }))
	}
	for _, side := range []float64{20, 25, 30, 40, 60, 80} {
		min05 := map[float64]float64{20: 0.5, 25: 0.7}[side]
		conds = append(conds, with(fmt.Sprintf("side %.0fpx", side), min05, 0.95, func(c *markerCond) { c.sides = [2]float64{side, side} }))
	}
	conds = append(conds,
		with("blur σ=1", 0, 0, func(c *markerCond) { c.blur = 1 }),
		with("blur σ=2", 0.9, 0.9, func(c *markerCond) { c.blur = 2 }),
		with("blur σ=3", 0.5, 0.6, func(c *markerCond) { c.blur = 3 }),
	)
	return append(conds,
		with("dim ×0.35", 0, 0, func(c *markerCond) { c.gain = 0.35 }),
		with("bright ×1.5+40", 0, 0, func(c *markerCond) { c.gain, c.bias = 1.5, 40 }),
		with("low contrast ×0.4+110", 0, 0, func(c *markerCond) { c.gain, c.bias = 0.4, 110 }),
		with("noise σ=10", 0, 0, func(c *markerCond) { c.noise = 10 }),
		with("glare beside marker", 0, 0, func(c *markerCond) { c.glare = 1 }),
		with("glare over marker edge", 0.25, 0.4, func(c *markerCond) { c.glare = 2 }),
		with("finger on card corner", 0, 0, func(c *markerCond) { c.finger = true }),
		with("mix: tilt 30°+blur 1.5+dim+noise, 20-80px", 0.7, 0.8, func(c *markerCond) {
			c.tilt, c.blur, c.gain, c.noise, c.sides = 30, 1.5, 0.6, 6, [2]float64{20, 80}
		}),
	)
}

// TestMarkerSyntheticScenes reads markers back from synthetic table scenes
// under many conditions, for DICT_4X4_50 and DICT_5X5_100, and logs the hit
// rate per condition.
func TestMarkerSyntheticScenes(t *testing.T) {
	scenes := 8
	if testing.Short() {
		scenes = 2
	}
	type detectors struct{ half, halfRaw, full *Detector }
	newDetectors := func(d Dict) detectors {
		var ds detectors
		for _, x := range []struct {
			md   **Detector
			opts Options
		}{
			{&ds.half, Options{Scale: 0.5, RefineSubpix: true}},
			{&ds.halfRaw, Options{Scale: 0.5}},
			{&ds.full, Options{Scale: 1, RefineSubpix: true}},
		} {
			md, err := NewDetector(d, x.opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { md.Close() })
			*x.md = md
		}
		return ds
	}
	dicts := []Dict{Dict4X4_50, Dict5X5_100}
	dets := []detectors{newDetectors(dicts[0]), newDetectors(dicts[1])}

	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\t\tDICT_4X4_50\t\t\t\t\tDICT_5X5_100\t\t\t")
	fmt.Fprintln(tw, "condition\tmarkers\thit@0.5\thit@1.0\tphantoms\tcorner err raw@0.5\trefined@0.5\trefined@1.0\thit@0.5\thit@1.0\tphantoms\t")
	rng := rand.New(rand.NewPCG(7, 11))
	var tot [2][2]markerScore
	for _, c := range markerConditions() {
		var s [2][3]markerScore // dict × (half, halfRaw, full)
		for di, d := range dicts {
			n := scenes
			if strings.HasPrefix(c.name, "rotation") {
				n = max(1, scenes/2)
			}
			for range n {
				ids := rng.Perm(d.Size())[:4]
				frame, truth := renderMarkerScene(rng, d, c, ids)
				angle := -1.0
				if c.angle >= 0 && c.tilt == 0 {
					angle = c.angle
				}
				for k, md := range []*Detector{dets[di].half, dets[di].halfRaw, dets[di].full} {
					if k == 1 && di > 0 {
						continue // unrefined corners: DICT_4X4_50 only
					}
					got, err := md.Detect(frame)
					if err != nil {
						t.Fatal(err)
					}
					if _, phantoms := s[di][k].add(got, truth, angle); len(phantoms) > 0 && k != 1 {
						t.Logf("%v %s, scale %v: phantoms %+v", d, c.name, md.Options().Scale, phantoms)
					}
				}
				frame.Close()
			}
			tot[di][0].markers += s[di][0].markers
			tot[di][0].hits += s[di][0].hits
			tot[di][0].phantoms += s[di][0].phantoms
			tot[di][1].markers += s[di][2].markers
			tot[di][1].hits += s[di][2].hits
			tot[di][1].phantoms += s[di][2].phantoms
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f%%\t%.0f%%\t%d\t%.2f px\t%.2f px\t%.2f px\t%.0f%%\t%.0f%%\t%d\t\n", c.name, s[0][0].markers,
			100*s[0][0].rate(), 100*s[0][2].rate(), s[0][0].phantoms+s[0][2].phantoms,
			s[0][1].meanErr(), s[0][0].meanErr(), s[0][2].meanErr(),
			100*s[1][0].rate(), 100*s[1][2].rate(), s[1][0].phantoms+s[1][2].phantoms)
		if !testing.Short() && (s[0][0].rate() < c.min05 || s[0][2].rate() < c.min1) {
			t.Errorf("%s: DICT_4X4_50 hit rate %.0f%% at 0.5 (want ≥ %.0f%%), %.0f%% at 1.0 (want ≥ %.0f%%)",
				c.name, 100*s[0][0].rate(), 100*c.min05, 100*s[0][2].rate(), 100*c.min1)
		}
		for di := range dicts {
			if s[di][0].angleErr > 3 || s[di][2].angleErr > 3 {
				t.Errorf("%v %s: angle off by %.1f°", dicts[di], c.name, max(s[di][0].angleErr, s[di][2].angleErr))
			}
		}
	}
	fmt.Fprintf(tw, "all\t%d\t%.1f%%\t%.1f%%\t%d\t\t\t\t%.1f%%\t%.1f%%\t%d\t\n", tot[0][0].markers,
		100*tot[0][0].rate(), 100*tot[0][1].rate(), tot[0][0].phantoms+tot[0][1].phantoms,
		100*tot[1][0].rate(), 100*tot[1][1].rate(), tot[1][0].phantoms+tot[1][1].phantoms)
	tw.Flush()
	// DICT_4X4_50 reads a card's art panel (white text and circles on a
	// dark rectangle) as a marker now and then; DICT_5X5_100 must not.
	if p := tot[0][0].phantoms + tot[0][1].phantoms; p > tot[0][0].markers/50 {
		t.Errorf("DICT_4X4_50: %d phantom markers", p)
	}
	if p := tot[1][0].phantoms + tot[1][1].phantoms; p > 0 {
		t.Errorf("DICT_5X5_100: %d phantom markers", p)
	}
	t.Logf("4 cards per 1280×720 frame, %d frames per condition and dictionary (rotations: %d):\n%s", scenes, max(1, scenes/2), b.String())
}

func benchmarkMarkerDetect(b *testing.B, opts Options) {
	rng := rand.New(rand.NewPCG(5, 6))
	frame, truth := renderMarkerScene(rng, Dict4X4_50, markerCond{sides: [2]float64{40, 60}, angle: -1, blur: 0.8, noise: 4}, []int{4, 8, 15, 16})
	defer frame.Close()
	md, err := NewDetector(Dict4X4_50, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer md.Close()
	for b.Loop() {
		got, err := md.Detect(frame)
		if err != nil || len(got) != len(truth) {
			b.Fatalf("%d markers, %v", len(got), err)
		}
	}
}

// BenchmarkMarkerDetect720p: four 40–60 px DICT_4X4_50 markers in a
// 1280×720 BGR frame with slight blur and camera noise, grey conversion
// included; at half and at full resolution.
func BenchmarkMarkerDetect720p(b *testing.B) {
	b.Run("scale0.5-refine", func(b *testing.B) { benchmarkMarkerDetect(b, Options{Scale: 0.5, RefineSubpix: true}) })
	b.Run("scale0.5", func(b *testing.B) { benchmarkMarkerDetect(b, Options{Scale: 0.5}) })
	b.Run("full-refine", func(b *testing.B) { benchmarkMarkerDetect(b, Options{Scale: 1, RefineSubpix: true}) })
}

package stickers

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/marker"
)

// pdfPage is what the test's PDF reader finds on a page.
type pdfPage struct {
	mediaBox  []float64
	content   string // the content stream, decompressed
	resources string // the page's resource dictionary
	image     string // the name of the image drawn (content: "/name Do")
	w, h      int    // image size
	pix       []byte // decoded grey image, w*h bytes
}

var (
	rePDFRef      = regexp.MustCompile(`/(\w+) (\d+) 0 R`)
	rePDFKids     = regexp.MustCompile(`/Kids \[([0-9 R]*)\]`)
	rePDFCount    = regexp.MustCompile(`/Count (\d+)`)
	rePDFMedia    = regexp.MustCompile(`/MediaBox \[([-0-9. ]+)\]`)
	rePDFInt      = regexp.MustCompile(`/(Width|Height|Length|BitsPerComponent|Predictor|Colors|Columns) (\d+)`)
	rePDFXObjects = regexp.MustCompile(`(?s)/XObject\s*<<(.*?)>>`)
	rePDFDrawn    = regexp.MustCompile(`q ([-0-9.]+) 0 0 ([-0-9.]+) ([-0-9.]+) ([-0-9.]+) cm /(\w+) Do Q`)
)

// pdfObject is an object of a PDF file: its dictionary and, for a stream,
// its data as stored.
type pdfObject struct {
	dict   string
	stream []byte
}

// readPDF checks the structure of a PDF — header, the cross-reference table
// against the objects' real offsets, stream lengths, trailer, page tree —
// and returns its pages with their content streams and images decoded.
func readPDF(t *testing.T, data []byte) []pdfPage {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("%PDF-1.")) {
		t.Fatalf("PDF header %q", data[:min(len(data), 10)])
	}
	if !bytes.HasSuffix(bytes.TrimRight(data, "\n"), []byte("%%EOF")) {
		t.Fatal("PDF does not end with the EOF marker")
	}
	i := bytes.LastIndex(data, []byte("startxref\n"))
	if i < 0 {
		t.Fatal("no startxref")
	}
	xref, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(data[i+len("startxref\n"):])), "%%EOF")))
	if err != nil || xref <= 0 || xref >= len(data) {
		t.Fatalf("startxref %d, %v", xref, err)
	}
	var n int
	if _, err := fmt.Sscanf(string(data[xref:]), "xref\n0 %d\n", &n); err != nil {
		t.Fatalf("xref table at %d: %v", xref, err)
	}
	entries := data[xref+len(fmt.Sprintf("xref\n0 %d\n", n)):]
	objs := map[int]pdfObject{}
	for k := range n {
		e := string(entries[20*k : 20*k+20])
		if k == 0 {
			if !strings.HasPrefix(e, "0000000000 65535 f") {
				t.Fatalf("xref entry 0 %q", e)
			}
			continue
		}
		var off, gen int
		var kind string
		if _, err := fmt.Sscanf(e, "%010d %05d %1s", &off, &gen, &kind); err != nil || kind != "n" {
			t.Fatalf("xref entry %d %q: %v", k, e, err)
		}
		head := fmt.Sprintf("%d 0 obj\n", k)
		if !bytes.HasPrefix(data[off:], []byte(head)) {
			t.Fatalf("xref says object %d is at %d, found %q", k, off, data[off:min(len(data), off+12)])
		}
		body := data[off+len(head):]
		end := bytes.Index(body, []byte("endobj"))
		if end < 0 {
			t.Fatalf("object %d has no endobj", k)
		}
		s := bytes.Index(body, []byte("stream\n"))
		if s < 0 || s > end {
			objs[k] = pdfObject{dict: string(body[:end])}
			continue
		}
		length := -1
		for _, kv := range rePDFInt.FindAllSubmatch(body[:s], -1) {
			if string(kv[1]) == "Length" {
				length, _ = strconv.Atoi(string(kv[2]))
			}
		}
		data := body[s+len("stream\n"):]
		if length < 0 || length > len(data) || !bytes.HasPrefix(bytes.TrimLeft(data[length:], "\r\n"), []byte("endstream")) {
			t.Fatalf("object %d: stream /Length %d does not end at endstream", k, length)
		}
		objs[k] = pdfObject{dict: string(body[:s]), stream: data[:length]}
	}
	trailer := string(entries[20*n:])
	root := rePDFRef.FindStringSubmatch(trailer[strings.Index(trailer, "/Root"):])
	if !strings.HasPrefix(trailer, "trailer") || !strings.Contains(trailer, fmt.Sprintf("/Size %d", n)) || root == nil {
		t.Fatalf("trailer %q", trailer)
	}
	ref := func(dict, key string) pdfObject {
		t.Helper()
		for _, m := range rePDFRef.FindAllStringSubmatch(dict, -1) {
			if m[1] == key {
				num, _ := strconv.Atoi(m[2])
				if o, ok := objs[num]; ok {
					return o
				}
			}
		}
		t.Fatalf("no /%s in %q", key, dict)
		return pdfObject{}
	}
	catalog := objs[atoi(root[2])].dict
	if !strings.Contains(catalog, "/Type /Catalog") {
		t.Fatalf("catalog %q", catalog)
	}
	tree := ref(catalog, "Pages").dict
	kids := rePDFKids.FindStringSubmatch(tree)
	count := rePDFCount.FindStringSubmatch(tree)
	if kids == nil || count == nil {
		t.Fatalf("page tree %q", tree)
	}
	refs := strings.Fields(strings.ReplaceAll(kids[1], "0 R", ""))
	if atoi(count[1]) != len(refs) {
		t.Fatalf("page tree: /Count %s, %d kids", count[1], len(refs))
	}
	var pages []pdfPage
	for _, r := range refs {
		po := objs[atoi(r)].dict
		if !strings.Contains(po, "/Type /Page") {
			t.Fatalf("page object %s: %q", r, po)
		}
		var p pdfPage
		media := rePDFMedia.FindStringSubmatch(po)
		if media == nil {
			media = rePDFMedia.FindStringSubmatch(tree) // inherited
		}
		for _, f := range strings.Fields(media[1]) {
			v, _ := strconv.ParseFloat(f, 64)
			p.mediaBox = append(p.mediaBox, v)
		}
		p.resources = ref(po, "Resources").dict
		p.content = string(pdfStream(t, ref(po, "Contents")))
		drawn := rePDFDrawn.FindStringSubmatch(p.content)
		if drawn == nil {
			t.Fatalf("page %d draws no image:\n%s", len(pages)+1, p.content)
		}
		p.image = drawn[5]
		xo := rePDFXObjects.FindStringSubmatch(p.resources)
		if xo == nil {
			t.Fatalf("page %d: no XObject resources in %q", len(pages)+1, p.resources)
		}
		im := ref(xo[1], p.image)
		if !strings.Contains(im.dict, "/Subtype /Image") || !strings.Contains(im.dict, "/ColorSpace /DeviceGray") ||
			!strings.Contains(im.dict, "/BitsPerComponent 8") {
			t.Fatalf("image %s: %q", p.image, im.dict)
		}
		ints := map[string]int{}
		for _, kv := range rePDFInt.FindAllStringSubmatch(im.dict, -1) {
			ints[kv[1]] = atoi(kv[2])
		}
		p.w, p.h = ints["Width"], ints["Height"]
		raw := pdfStream(t, im)
		switch pred := ints["Predictor"]; {
		case pred == 0 || pred == 1:
			p.pix = raw
		case pred >= 10:
			if ints["Colors"] != 1 || ints["Columns"] != p.w {
				t.Fatalf("image %s: predictor parameters %v", p.image, ints)
			}
			p.pix = pngUnfilter(t, raw, p.w, p.h)
		default:
			t.Fatalf("image %s: predictor %d", p.image, pred)
		}
		if len(p.pix) != p.w*p.h {
			t.Fatalf("image of page %d: %d bytes for %dx%d", len(pages)+1, len(p.pix), p.w, p.h)
		}
		pages = append(pages, p)
	}
	return pages
}

func atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}

// pdfStream returns the data of stream o, inflated when it is FlateDecode.
func pdfStream(t *testing.T, o pdfObject) []byte {
	t.Helper()
	if !strings.Contains(o.dict, "/Filter /FlateDecode") {
		return o.stream
	}
	zr, err := zlib.NewReader(bytes.NewReader(o.stream))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// pngUnfilter undoes the PNG row filters of a w×h 8-bit grey image (PDF
// predictor 10–15: each row a filter byte, then its pixels).
func pngUnfilter(t *testing.T, raw []byte, w, h int) []byte {
	t.Helper()
	if len(raw) != h*(w+1) {
		t.Fatalf("predicted image: %d bytes for %dx%d", len(raw), w, h)
	}
	out := make([]byte, w*h)
	prev := make([]byte, w)
	for y := range h {
		f, in, row := raw[y*(w+1)], raw[y*(w+1)+1:(y+1)*(w+1)], out[y*w:(y+1)*w]
		for x := range w {
			var a, c byte
			if x > 0 {
				a, c = row[x-1], prev[x-1]
			}
			b := prev[x]
			switch f {
			case 0:
				row[x] = in[x]
			case 1:
				row[x] = in[x] + a
			case 2:
				row[x] = in[x] + b
			case 3:
				row[x] = in[x] + byte((int(a)+int(b))/2)
			case 4:
				pa, pb, pc := absInt(int(b)-int(c)), absInt(int(a)-int(c)), absInt(int(a)+int(b)-2*int(c))
				switch {
				case pa <= pb && pa <= pc:
					row[x] = in[x] + a
				case pb <= pc:
					row[x] = in[x] + b
				default:
					row[x] = in[x] + c
				}
			default:
				t.Fatalf("row %d: PNG filter %d", y, f)
			}
		}
		prev = row
	}
	return out
}

func absInt(v int) int { return max(v, -v) }

// pageInkMargin returns the distance in pixels from the page edge to the
// nearest non-white pixel.
func pageInkMargin(pix []byte, w, h int) int {
	best := min(w, h)
	for y := range h {
		row := pix[y*w : (y+1)*w]
		for x, v := range row {
			if v < 250 {
				best = min(best, x, y, w-1-x, h-1-y)
			}
		}
	}
	return best
}

// checkStickerPage detects the markers on a page raster and checks their
// ids, size and quiet zone.
func checkStickerPage(t *testing.T, md *marker.Detector, page gocv.Mat, spec Spec, wantIDs []int) {
	t.Helper()
	got, err := md.Detect(page)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	want := spec.SideMM / 25.4 * float64(spec.DPI)
	for _, m := range got {
		ids = append(ids, m.ID)
		if math.Abs(m.Side-want) > 2 {
			t.Errorf("marker %d: side %.2f px, want %.2f ± 2", m.ID, m.Side, want)
		}
		// The quiet zone, one module wide, is white all round.
		q := int(m.Side / float64(spec.Dict.Bits()+2))
		x0, y0 := int(m.Corners[0].X+0.5), int(m.Corners[0].Y+0.5)
		side := int(m.Side + 0.5)
		ring := image.Rect(x0-q, y0-q, x0+side+q, y0+side+q)
		for _, r := range []image.Rectangle{
			image.Rect(ring.Min.X, ring.Min.Y, ring.Max.X, y0-1), image.Rect(ring.Min.X, y0+side+1, ring.Max.X, ring.Max.Y),
			image.Rect(ring.Min.X, ring.Min.Y, x0-1, ring.Max.Y), image.Rect(x0+side+1, ring.Min.Y, ring.Max.X, ring.Max.Y),
		} {
			roi := page.Region(r)
			lo, _, _, _ := gocv.MinMaxLoc(roi)
			roi.Close()
			if lo < 250 {
				t.Errorf("marker %d: quiet zone %v not white (min %v)", m.ID, r, lo)
			}
		}
	}
	slices.Sort(ids)
	w := slices.Clone(wantIDs)
	slices.Sort(w)
	if !slices.Equal(ids, w) {
		t.Errorf("read ids %v, want %v", ids, w)
	}
}

func TestStickerSheet(t *testing.T) {
	spec := Spec{Dict: marker.Dict4X4_250, SideMM: 15, DPI: 300, Labels: map[int]string{
		0: "Goblin", 1: "Orc chieftain with a very long name", 2: "Würfel", 3: "(x) \\ 100%",
	}}
	for id := range 80 {
		spec.IDs = append(spec.IDs, id)
	}
	perPage, pages, err := spec.Pages()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("A4, 15 mm markers: %d stickers a page, %d pages", perPage, pages)
	if pages != 2 || perPage < 40 {
		t.Fatalf("%d per page, %d pages; want 2 pages", perPage, pages)
	}
	pngData, pdfData, err := Render(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("PNG %d KB, PDF %d KB", len(pngData)/1024, len(pdfData)/1024)
	md, err := marker.NewDetector(spec.Dict, marker.Options{Scale: 0.5, RefineSubpix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	const wA4, hA4 = 2480, 3508 // 210×297 mm at 300 DPI
	margin := int(math.Floor(MarginMM / 25.4 * 300))

	// PNG: page 1 at 300 DPI.
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray)
	if !ok || g.Bounds() != image.Rect(0, 0, wA4, hA4) {
		t.Fatalf("PNG is %T %v, want grey %dx%d", img, img.Bounds(), wA4, hA4)
	}
	if m := pageInkMargin(g.Pix, wA4, hA4); m < margin {
		t.Errorf("PNG: ink %d px from the edge, want ≥ %d", m, margin)
	}
	mat, err := gocv.IMDecode(pngData, gocv.IMReadGrayScale)
	if err != nil {
		t.Fatal(err)
	}
	checkStickerPage(t, md, mat, spec, spec.IDs[:perPage])
	mat.Close()
	if os.Getenv("STICKER_SAMPLE") != "" || testing.Verbose() {
		os.WriteFile("/tmp/stickers-sample.png", pngData, 0o644)
		os.WriteFile("/tmp/stickers-sample.pdf", pdfData, 0o644)
	}

	// PDF: every page, every id.
	pp := readPDF(t, pdfData)
	if len(pp) != 2 {
		t.Fatalf("%d PDF pages, want 2", len(pp))
	}
	for i, p := range pp {
		if !slices.Equal(p.mediaBox, []float64{0, 0, 595.28, 841.89}) {
			t.Errorf("page %d MediaBox %v", i+1, p.mediaBox)
		}
		if p.w != wA4 || p.h != hA4 {
			t.Errorf("page %d image %dx%d", i+1, p.w, p.h)
		}
		// 0.24 pt a pixel: 2480 px = 595.2 pt, 3508 px = 841.92 pt, from
		// the top edge.
		drawn := rePDFDrawn.FindStringSubmatch(p.content)
		for k, want := range []float64{595.2, 841.92, 0, 841.89 - 841.92} {
			if v, _ := strconv.ParseFloat(drawn[k+1], 64); math.Abs(v-want) > 1e-4 {
				t.Errorf("page %d: image drawn by %q, want 72/300 pt a pixel from the top-left corner", i+1, drawn[0])
				break
			}
		}
		if !strings.Contains(p.content, "(Print at 100% \\(no fit-to-page\\). Marker side: 15 mm. Check: this line is 100 mm long) Tj") {
			t.Errorf("page %d: caption missing:\n%s", i+1, p.content)
		}
		line := regexp.MustCompile(`([-0-9.]+) ([-0-9.]+) m ([-0-9.]+) ([-0-9.]+) l S`).FindStringSubmatch(p.content)
		if line == nil {
			t.Fatalf("page %d: no ruler:\n%s", i+1, p.content)
		}
		x0, y0, x1, y1 := atof(line[1]), atof(line[2]), atof(line[3]), atof(line[4])
		if math.Abs(x1-x0-100/25.4*72) > 0.011 || y0 != y1 {
			t.Errorf("page %d: ruler %v %v – %v %v, want 100 mm = 283.46 pt", i+1, x0, y0, x1, y1)
		}
		if !strings.Contains(p.content, fmt.Sprintf("(DICT_4X4_250, page %d of 2) Tj", i+1)) {
			t.Errorf("page %d: page note missing", i+1)
		}
		if i == 0 && !strings.Contains(p.content, "(2 W\xfcrfel) Tj") {
			t.Errorf("page 1: label 2 not in Latin-1:\n%s", p.content)
		}
		if m := pageInkMargin(p.pix, p.w, p.h); m < margin {
			t.Errorf("page %d: ink %d px from the edge, want ≥ %d", i+1, m, margin)
		}
		m, err := gocv.NewMatFromBytes(p.h, p.w, gocv.MatTypeCV8UC1, p.pix)
		if err != nil {
			t.Fatal(err)
		}
		checkStickerPage(t, md, m, spec, spec.IDs[i*perPage:min(len(spec.IDs), (i+1)*perPage)])
		m.Close()
		checkLabelsAreText(t, spec, p, spec.IDs[i*perPage:min(len(spec.IDs), (i+1)*perPage)])
	}
}

// checkLabelsAreText checks that each sticker's label is on the PDF page
// as text (a Tj of Helvetica) and that the page's raster has no ink in the
// label bands: the labels are not pictures of text.
func checkLabelsAreText(t *testing.T, spec Spec, p pdfPage, ids []int) {
	t.Helper()
	if !strings.Contains(p.content, " Tf") || !strings.Contains(p.resources, "/Font") {
		t.Errorf("no text in a font on the page")
	}
	var shown []string
	for _, m := range regexp.MustCompile(`\((.*?[^\\])\) Tj`).FindAllStringSubmatch(p.content, -1) {
		shown = append(shown, m[1])
	}
	for _, id := range ids {
		want := regexp.QuoteMeta(strconv.Itoa(id) + " ")
		if spec.Labels[id] == "" {
			want = regexp.QuoteMeta("#" + strconv.Itoa(id))
		}
		re := regexp.MustCompile("^" + want)
		found := slices.ContainsFunc(shown, re.MatchString)
		if !found {
			t.Errorf("sticker %d: its label is not PDF text; texts: %q", id, shown)
		}
	}
	l, err := spec.layout()
	if err != nil {
		t.Fatal(err)
	}
	for i := range ids {
		x := l.x0 + (i%l.cols)*l.pitchX
		y := l.y0 + (i/l.cols)*l.pitchY + 2*l.quiet + l.side + 1
		for yy := y; yy < y+l.label; yy++ {
			row := p.pix[yy*p.w+x : yy*p.w+x+l.stickerW]
			if j := slices.IndexFunc(row, func(v byte) bool { return v < 250 }); j >= 0 {
				t.Fatalf("sticker %d: ink in the raster's label band at (%d, %d)", ids[i], x+j, yy)
			}
		}
	}
}

func TestStickerSheetLetterAndSizes(t *testing.T) {
	for _, tc := range []struct {
		spec Spec
		w, h int
		box  []float64
	}{
		{Spec{Dict: marker.Dict5X5_100, IDs: []int{7, 7, 99}, SideMM: 25, Paper: "letter", DPI: 200}, 1700, 2200, []float64{0, 0, 612, 792}},
		{Spec{IDs: []int{0, 1, 2, 3}, SideMM: 8}, 2480, 3508, []float64{0, 0, 595.28, 841.89}},
		{Spec{Dict: marker.DictArucoOriginal, IDs: []int{1023}, SideMM: 100, Paper: "Letter", DPI: 150}, 1275, 1650, []float64{0, 0, 612, 792}},
	} {
		t.Run(fmt.Sprintf("%v-%vmm-%s", tc.spec.Dict, tc.spec.SideMM, tc.spec.Paper), func(t *testing.T) {
			pngData, pdfData, err := Render(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			pp := readPDF(t, pdfData)
			if len(pp) != 1 || pp[0].w != tc.w || pp[0].h != tc.h || !slices.Equal(pp[0].mediaBox, tc.box) {
				t.Fatalf("%d pages, image %dx%d, MediaBox %v; want 1 page %dx%d %v", len(pp), pp[0].w, pp[0].h, pp[0].mediaBox, tc.w, tc.h, tc.box)
			}
			spec := tc.spec
			if spec.DPI == 0 {
				spec.DPI = 300
			}
			md, err := marker.NewDetector(spec.Dict, marker.Options{Scale: 0.5, RefineSubpix: true})
			if err != nil {
				t.Fatal(err)
			}
			defer md.Close()
			mat, err := gocv.IMDecode(pngData, gocv.IMReadGrayScale)
			if err != nil {
				t.Fatal(err)
			}
			defer mat.Close()
			if mat.Cols() != tc.w || mat.Rows() != tc.h {
				t.Errorf("PNG %dx%d", mat.Cols(), mat.Rows())
			}
			checkStickerPage(t, md, mat, spec, spec.IDs)
		})
	}
}

func TestStickerSheetErrors(t *testing.T) {
	ok := Spec{Dict: marker.Dict4X4_50, IDs: []int{1, 2}, SideMM: 15}
	if _, _, err := ok.Pages(); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*Spec){
		"no ids":        func(s *Spec) { s.IDs = nil },
		"id too big":    func(s *Spec) { s.IDs = []int{1, 50} },
		"negative id":   func(s *Spec) { s.IDs = []int{-1} },
		"bad dict":      func(s *Spec) { s.Dict = marker.Dict(33) },
		"side 7.9":      func(s *Spec) { s.SideMM = 7.9 },
		"side 101":      func(s *Spec) { s.SideMM = 101 },
		"side NaN":      func(s *Spec) { s.SideMM = math.NaN() },
		"paper A5":      func(s *Spec) { s.Paper = "A5" },
		"dpi 72":        func(s *Spec) { s.DPI = 72 },
		"dpi 1200":      func(s *Spec) { s.DPI = 1200 },
		"negative dpi":  func(s *Spec) { s.DPI = -300 },
		"unset side mm": func(s *Spec) { s.SideMM = 0 },
	} {
		s := ok
		change(&s)
		if _, _, err := Render(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestStickerTextHelpers(t *testing.T) {
	if got := hersheyText("Würfel\tx"); got != "W?rfel x" {
		t.Errorf("hersheyText: %q", got)
	}
	if got := latin1("Würfel ☢\tx"); got != "W\xfcrfel ? x" {
		t.Errorf("latin1: %q", got)
	}
	text, _ := fitLabel("Orc chieftain with a very long name", 1, 2, 200)
	if !strings.Contains(text, "..") || !strings.HasPrefix(text, "Orc") || !strings.HasSuffix(text, "name") || gocv.GetTextSize(text, gocv.FontHersheySimplex, 0.7, 2).X > 200 {
		t.Errorf("fitLabel: %q", text)
	}
	// Labels that share a long start stay apart and carry the marker id
	// when cut to a sticker's width.
	seen := map[string]int{}
	for id := 11; id <= 13; id++ {
		got, _ := fitLabel(stickerLabel(id, fmt.Sprintf("super-mutant-%d", id-10)), 1, 2, 110)
		if !strings.HasPrefix(got, strconv.Itoa(id)+" ") || !strings.HasSuffix(got, strconv.Itoa(id-10)) {
			t.Errorf("sticker %d: label %q lacks its id or level", id, got)
		}
		if prev, ok := seen[got]; ok {
			t.Errorf("stickers %d and %d both read %q", prev, id, got)
		}
		seen[got] = id
	}
	if got := stickerLabel(7, " "); got != "#7" {
		t.Errorf("unlabelled sticker: %q", got)
	}
}

func atof(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

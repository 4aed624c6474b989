package stickers

// Printable sheets of ArUco stickers, as a PNG preview and a PDF written
// here (no PDF library): the markers and cut marks of a page are one grey
// raster at the sheet's DPI, placed at exactly 72/DPI points per pixel, so
// printing at 100% gives markers of exactly SheetSpec.SideMM; the labels,
// the caption and the page note are PDF text in Helvetica, so they print
// sharp and can be searched and copied.

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gocv.io/x/gocv"

	"tablecam/vision/marker"
)

// SheetSpec describes a sheet of marker stickers.
type Spec struct {
	// Dict is the markers' dictionary (zero value: DICT_4X4_50).
	Dict marker.Dict
	// IDs are the markers to print, in order, one sticker each (an id may
	// repeat).
	IDs []int
	// SideMM is the side of a marker's black square, 8–100 mm.
	SideMM float64
	// Paper is "A4" (default) or "Letter".
	Paper string
	// Labels holds the text printed under a marker: the name of the card
	// or token it goes on. Markers without a label get "#id". The PDF
	// prints Latin-1 letters (ä, ö, ü, ß, é); the PNG preview only ASCII.
	// Other characters become '?'. Long labels are shrunk, then cut short.
	Labels map[int]string
	// DPI is the raster resolution, 150–600 (default 300).
	DPI int
}

// Sticker sheet geometry, in millimetres.
const (
	// SheetMarginMM is the least distance from any ink to the paper edge.
	MarginMM = 10.0
	// sheetMinQuietMM is the least quiet zone around a marker on a sticker; it
	// is at least one module wide in any case.
	sheetMinQuietMM  = 2.0
	sheetGutterMM    = 5.0 // between stickers; the cut marks live here
	sheetTickGapMM   = 0.8 // from the sticker's corner to its cut marks
	sheetTickLenMM   = 1.5
	sheetTickWidthMM = 0.2
	sheetLabelCapMM  = 2.2 // label text height (capitals)
	sheetHeaderMM    = 14  // caption and ruler under the top margin
	sheetRulerMM     = 100
)

type sheetPaper struct {
	name       string
	wMM, hMM   float64
	wPt, hPt   float64
	wPtS, hPtS string // as written in the MediaBox
}

var sheetPapers = []sheetPaper{
	{"A4", 210, 297, 595.28, 841.89, "595.28", "841.89"},
	{"Letter", 215.9, 279.4, 612, 792, "612", "792"},
}

// sheetLayout is a SheetSpec worked out in raster pixels.
type sheetLayout struct {
	spec  Spec
	paper sheetPaper
	dpi   float64
	w, h  int // page raster

	side, quiet    int // marker side and quiet zone
	label          int // label band under the bottom quiet zone
	stickerW       int
	stickerH       int
	pitchX, pitchY int
	x0, y0         int // top-left of the first sticker
	cols, rows     int
}

func (l *sheetLayout) px(mm float64) int { return int(math.Round(mm / 25.4 * l.dpi)) }

func (s Spec) layout() (*sheetLayout, error) {
	if !s.Dict.Valid() {
		return nil, fmt.Errorf("vision: sticker sheet: invalid dictionary %v", s.Dict)
	}
	if len(s.IDs) == 0 {
		return nil, errors.New("vision: sticker sheet: no ids")
	}
	for _, id := range s.IDs {
		if err := s.Dict.CheckID(id); err != nil {
			return nil, fmt.Errorf("vision: sticker sheet: %w", err)
		}
	}
	if !(s.SideMM >= 8 && s.SideMM <= 100) {
		return nil, fmt.Errorf("vision: sticker sheet: marker side %v mm not in 8..100 mm", s.SideMM)
	}
	l := &sheetLayout{spec: s}
	switch p := strings.ToLower(strings.TrimSpace(s.Paper)); p {
	case "", "a4":
		l.paper = sheetPapers[0]
	case "letter":
		l.paper = sheetPapers[1]
	default:
		return nil, fmt.Errorf("vision: sticker sheet: paper %q, want A4 or Letter", s.Paper)
	}
	dpi := s.DPI
	if dpi == 0 {
		dpi = 300
	}
	if dpi < 150 || dpi > 600 {
		return nil, fmt.Errorf("vision: sticker sheet: %d DPI not in 150..600", s.DPI)
	}
	l.spec.DPI = dpi
	l.spec.Paper = l.paper.name
	l.dpi = float64(dpi)
	l.w, l.h = l.px(l.paper.wMM), l.px(l.paper.hMM)

	l.side = l.px(s.SideMM)
	l.quiet = max(marker.QuietZone(s.Dict, l.side), l.px(sheetMinQuietMM))
	l.label = l.px(sheetLabelCapMM * 1.9)
	l.stickerW = l.side + 2*l.quiet
	l.stickerH = l.side + 2*l.quiet + l.label
	gutter := l.px(sheetGutterMM)
	l.pitchX, l.pitchY = l.stickerW+gutter, l.stickerH+gutter

	// Cut marks reach tickGap+tickLen beyond a sticker; they stay inside
	// the margins too.
	reach := l.px(sheetTickGapMM + sheetTickLenMM)
	left, right := l.px(MarginMM)+reach, l.w-l.px(MarginMM)-reach
	top, bottom := l.px(MarginMM+sheetHeaderMM)+reach, l.h-l.px(MarginMM)-reach
	l.cols = (right - left + gutter) / l.pitchX
	l.rows = (bottom - top + gutter) / l.pitchY
	if l.cols < 1 || l.rows < 1 {
		return nil, fmt.Errorf("vision: sticker sheet: a %.4g mm sticker (%.1f×%.1f mm with quiet zone and label) does not fit on %s inside %g mm margins",
			s.SideMM, float64(l.stickerW)/l.dpi*25.4, float64(l.stickerH)/l.dpi*25.4, l.paper.name, MarginMM)
	}
	// Centre the grid across the page.
	l.x0 = left + (right-left-(l.cols*l.pitchX-gutter))/2
	l.y0 = top
	return l, nil
}

func (l *sheetLayout) perPage() int { return l.cols * l.rows }

func (l *sheetLayout) pages() int { return (len(l.spec.IDs) + l.perPage() - 1) / l.perPage() }

// Pages returns how many stickers fit on a page and how many pages the
// sheet takes.
func (s Spec) Pages() (perPage, pages int, err error) {
	l, err := s.layout()
	if err != nil {
		return 0, 0, err
	}
	return l.perPage(), l.pages(), nil
}

// StickerSheet renders the stickers of spec: a grid of stickers, each a
// marker exactly SideMM wide, its white quiet zone (one module, at least
// 2 mm), its label under it and thin cut marks at its corners, inside 10 mm
// page margins, on as many pages as needed. Under the top margin each page
// says "Print at 100% (no fit-to-page)" next to a 100 mm ruler to check the
// print scale with.
//
// png is the first page as an 8-bit grey PNG at spec.DPI (a marker is
// SideMM/25.4×DPI pixels wide, rounded to whole pixels); pdf holds all pages,
// each the page raster (FlateDecode) drawn at 72/DPI points per pixel from
// the top-left corner of an A4 or Letter page, with the caption and ruler
// as PDF text and lines and each sticker's label as PDF text.
func Render(spec Spec) (png []byte, pdf []byte, err error) {
	l, err := spec.layout()
	if err != nil {
		return nil, nil, err
	}
	page := gocv.NewMatWithSize(l.h, l.w, gocv.MatTypeCV8UC1)
	defer page.Close()
	var doc pdfDoc
	n := l.pages()
	for p := range n {
		page.SetTo(gocv.NewScalar(255, 0, 0, 0))
		ids := l.spec.IDs[p*l.perPage() : min(len(l.spec.IDs), (p+1)*l.perPage())]
		var placed []sheetPlaced
		for i, id := range ids {
			x := l.x0 + (i%l.cols)*l.pitchX
			y := l.y0 + (i/l.cols)*l.pitchY
			if err := l.drawSticker(&page, x, y, id); err != nil {
				return nil, nil, err
			}
			placed = append(placed, sheetPlaced{x: x, y: y, id: id})
		}
		pix, err := page.DataPtrUint8()
		if err != nil {
			return nil, nil, fmt.Errorf("vision: sticker sheet: %w", err)
		}
		if err := doc.addPage(l, pix, placed, p, n); err != nil {
			return nil, nil, err
		}
		if p == 0 {
			// The PDF writes the labels and the header as text and lines;
			// the PNG has them in the raster.
			for _, s := range placed {
				l.drawLabel(&page, s.x, s.y, s.id)
			}
			l.drawHeader(&page, p, n)
			buf, err := gocv.IMEncode(gocv.PNGFileExt, page)
			if err != nil {
				return nil, nil, fmt.Errorf("vision: sticker sheet: encode PNG: %w", err)
			}
			png = bytes.Clone(buf.GetBytes())
			buf.Close()
			if len(png) == 0 {
				return nil, nil, errors.New("vision: sticker sheet: encode PNG failed")
			}
		}
	}
	return png, doc.finish(), nil
}

var stickerInk = color.RGBA{0, 0, 0, 255}

// sheetPlaced is a sticker on a page: its top-left corner in raster pixels.
type sheetPlaced struct{ x, y, id int }

// drawSticker draws the marker and cut marks of the sticker whose top-left
// corner (the outer corner of its quiet zone) is at (x, y); its label is
// drawLabel's (the PNG) or PDF text (pdfDoc.addPage).
func (l *sheetLayout) drawSticker(page *gocv.Mat, x, y, id int) error {
	if err := marker.DrawAt(page, l.spec.Dict, id, l.side, x+l.quiet, y+l.quiet); err != nil {
		return fmt.Errorf("vision: sticker sheet: %w", err)
	}
	// Cut marks: at each corner, two short ticks on the extensions of the
	// sticker's edges, clear of the sticker itself.
	gap, tl, tw := l.px(sheetTickGapMM), l.px(sheetTickLenMM), max(1, l.px(sheetTickWidthMM))
	x1, y1 := x+l.stickerW-1, y+l.stickerH-1
	for _, c := range [4]struct{ x, y, dx, dy int }{{x, y, -1, -1}, {x1, y, 1, -1}, {x1, y1, 1, 1}, {x, y1, -1, 1}} {
		l.fillRect(page, c.x+c.dx*gap, c.y-tw/2, c.x+c.dx*(gap+tl), c.y-tw/2+tw)
		l.fillRect(page, c.x-tw/2, c.y+c.dy*gap, c.x-tw/2+tw, c.y+c.dy*(gap+tl))
	}
	return nil
}

// drawLabel draws the label of the sticker at (x, y) into the raster,
// centred under its bottom quiet zone.
func (l *sheetLayout) drawLabel(page *gocv.Mat, x, y, id int) {
	text := stickerLabel(id, l.spec.Labels[id])
	capPx := float64(l.px(sheetLabelCapMM))
	base := gocv.GetTextSize("H", gocv.FontHersheySimplex, 1, 1)
	scale := capPx / float64(max(1, base.Y))
	thick := max(1, int(math.Round(capPx/11)))
	text, fitted := fitLabel(hersheyText(text), scale, thick, l.stickerW-l.px(1))
	if fitted < scale {
		thick = max(1, int(math.Round(capPx*fitted/scale/11)))
		scale = fitted
	}
	size := gocv.GetTextSize(text, gocv.FontHersheySimplex, scale, thick)
	bx := x + (l.stickerW-size.X)/2
	by := y + 2*l.quiet + l.side + (l.label+size.Y)/2 - l.px(0.3)
	gocv.PutTextWithParams(page, text, image.Pt(bx, by), gocv.FontHersheySimplex, scale, stickerInk, thick, gocv.LineAA, false)
}

// labelBaseline is the y of the baseline of the label of the sticker at
// row y, in raster pixels, for text whose capitals are capPx high.
func (l *sheetLayout) labelBaseline(y int, capPx float64) float64 {
	return float64(y+2*l.quiet+l.side) + (float64(l.label)+capPx)/2 - float64(l.px(0.3))
}

// fillRect paints the pixels from (xa, ya) up to, not including, (xb, yb)
// (corners in any order) black, clipped to the page.
func (l *sheetLayout) fillRect(page *gocv.Mat, xa, ya, xb, yb int) {
	r := image.Rect(xa, ya, xb, yb).Intersect(image.Rect(0, 0, l.w, l.h))
	if r.Empty() {
		return
	}
	roi := page.Region(r)
	roi.SetTo(gocv.NewScalar(0, 0, 0, 0))
	roi.Close()
}

// stickerLabel is what a sticker says under its marker: the marker id, then
// the map's label. The id keeps labels apart that fitLabel shortens alike,
// and names the sticker in the marker map.
func stickerLabel(id int, label string) string {
	if strings.TrimSpace(label) == "" {
		return "#" + strconv.Itoa(id)
	}
	return strconv.Itoa(id) + " " + label
}

// fitLabel shrinks the text to at most 70% of scale, then cuts runes out of
// its middle, marked "..", so that it is at most width pixels wide: the
// start (the marker id) and the end (a token's level, a card's number) are
// what tell stickers apart.
func fitLabel(text string, scale float64, thick, width int) (string, float64) {
	return fitText(text, scale, float64(width), func(t string, s float64) float64 {
		return float64(gocv.GetTextSize(t, gocv.FontHersheySimplex, s, thick).X)
	})
}

// fitText is fitLabel for any measure of a text's width at a scale.
func fitText(text string, scale, width float64, measure func(string, float64) float64) (string, float64) {
	w := measure(text, scale)
	if w <= width {
		return text, scale
	}
	s := max(scale*0.7, scale*width/w)
	if measure(text, s) <= width {
		return text, s
	}
	r := []rune(text)
	for keep := len(r) - 1; keep > 0; keep-- {
		tail := keep / 2
		head := keep - tail
		t := strings.TrimRight(string(r[:head]), " ") + ".." + strings.TrimLeft(string(r[len(r)-tail:]), " ")
		if measure(t, s) <= width {
			return t, s
		}
	}
	return "", s
}

func hersheyText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 32 || r > 126 {
			if r == '\t' || r == '\n' {
				return ' '
			}
			return '?'
		}
		return r
	}, s)
}

// caption is the line printed under the top margin.
func (l *sheetLayout) caption() string {
	return fmt.Sprintf("Print at 100%% (no fit-to-page). Marker side: %s mm. Check: this line is %d mm long",
		strconv.FormatFloat(l.spec.SideMM, 'f', -1, 64), sheetRulerMM)
}

func (l *sheetLayout) pageNote(page, pages int) string {
	return fmt.Sprintf("%v, page %d of %d", l.spec.Dict, page+1, pages)
}

// Header geometry in mm from the page's top-left corner: caption baseline,
// ruler line, page note.
const (
	sheetCaptionCapMM      = 2.5
	sheetCaptionBaselineMM = MarginMM + 3.5
	sheetRulerYMM          = MarginMM + 9
	sheetRulerTickMM       = 2
)

// drawHeader draws the caption, the ruler and the page note into the raster
// (the PNG); pdfDoc.addPage writes the same as PDF text and lines.
func (l *sheetLayout) drawHeader(page *gocv.Mat, p, n int) {
	capPx := float64(l.px(sheetCaptionCapMM))
	base := gocv.GetTextSize("H", gocv.FontHersheySimplex, 1, 1)
	scale := capPx / float64(base.Y)
	thick := max(1, int(math.Round(capPx/12)))
	x := l.px(MarginMM)
	gocv.PutTextWithParams(page, l.caption(), image.Pt(x, l.px(sheetCaptionBaselineMM)), gocv.FontHersheySimplex, scale, stickerInk, thick, gocv.LineAA, false)
	lw := max(1, l.px(0.25))
	y := l.px(sheetRulerYMM)
	l.fillRect(page, x, y-lw/2, x+l.px(sheetRulerMM), y-lw/2+lw)
	for mm := 0; mm <= sheetRulerMM; mm += 10 {
		tick := l.px(sheetRulerTickMM)
		if mm%50 == 0 {
			tick = l.px(sheetRulerTickMM * 1.6)
		}
		tx := x + l.px(float64(mm))
		if mm == sheetRulerMM {
			tx -= lw // keep the end tick inside the 100 mm
		}
		l.fillRect(page, tx, y-tick, tx+lw, y)
	}
	note := l.pageNote(p, n)
	size := gocv.GetTextSize(note, gocv.FontHersheySimplex, scale, thick)
	gocv.PutTextWithParams(page, note, image.Pt(l.w-l.px(MarginMM)-size.X, y), gocv.FontHersheySimplex, scale, stickerInk, thick, gocv.LineAA, false)
}

// pdfDoc writes a PDF 1.4 file: catalog (1), page tree (2), Helvetica (3),
// then per page its page object, content stream and image.
type pdfDoc struct {
	buf     bytes.Buffer
	offsets []int // byte offset of object i+1
	pages   []int // object numbers of the pages
}

func (d *pdfDoc) begin(n int) {
	if d.buf.Len() == 0 {
		d.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	}
	for len(d.offsets) < n {
		d.offsets = append(d.offsets, 0)
	}
	d.offsets[n-1] = d.buf.Len()
	fmt.Fprintf(&d.buf, "%d 0 obj\n", n)
}

func (d *pdfDoc) end() { d.buf.WriteString("\nendobj\n") }

func (d *pdfDoc) stream(n int, dict string, data []byte) {
	d.begin(n)
	fmt.Fprintf(&d.buf, "<< %s/Length %d >>\nstream\n", dict, len(data))
	d.buf.Write(data)
	d.buf.WriteString("\nendstream")
	d.end()
}

// pdfNum formats a length in points.
func pdfNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// pdfString writes s as a PDF string in WinAnsiEncoding: ASCII and the
// Latin-1 letters (which WinAnsi puts at the same codes) as they are,
// anything else as '?'.
func pdfString(s string) string {
	var b strings.Builder
	b.WriteByte('(')
	for _, r := range s {
		switch {
		case r == '\\' || r == '(' || r == ')':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t' || r == '\n':
			b.WriteByte(' ')
		case r >= 32 && r <= 126:
			b.WriteRune(r)
		case r >= 160 && r <= 255:
			fmt.Fprintf(&b, "\\%03o", r)
		default:
			b.WriteByte('?')
		}
	}
	b.WriteByte(')')
	return b.String()
}

func (d *pdfDoc) addPage(l *sheetLayout, pix []byte, placed []sheetPlaced, p, n int) error {
	if len(pix) < l.w*l.h {
		return errors.New("vision: sticker sheet: short page raster")
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	if _, err := zw.Write(pix[:l.w*l.h]); err != nil {
		return fmt.Errorf("vision: sticker sheet: compress page: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("vision: sticker sheet: compress page: %w", err)
	}

	// 1 px = 72/DPI pt, image anchored at the top-left corner of the page.
	mm := 72 / 25.4
	imgW, imgH := float64(l.w)*72/l.dpi, float64(l.h)*72/l.dpi
	top := l.paper.hPt
	var c strings.Builder
	fmt.Fprintf(&c, "q %s 0 0 %s 0 %s cm /Im1 Do Q\n", pdfNum(imgW), pdfNum(imgH), pdfNum(top-imgH))
	x := MarginMM * mm
	fontSize := sheetCaptionCapMM * mm / 0.718 // Helvetica's cap height is 0.718 em
	fmt.Fprintf(&c, "BT /F1 %s Tf %s %s Td %s Tj ET\n", pdfNum(fontSize), pdfNum(x), pdfNum(top-sheetCaptionBaselineMM*mm), pdfString(l.caption()))
	y := top - sheetRulerYMM*mm
	fmt.Fprintf(&c, "0 G %s w 0 J\n%s %s m %s %s l S\n", pdfNum(0.25*mm), pdfNum(x), pdfNum(y), pdfNum(x+sheetRulerMM*mm), pdfNum(y))
	for t := 0; t <= sheetRulerMM; t += 10 {
		tick := sheetRulerTickMM * mm
		if t%50 == 0 {
			tick *= 1.6
		}
		tx := x + float64(t)*mm
		fmt.Fprintf(&c, "%s %s m %s %s l S\n", pdfNum(tx), pdfNum(y), pdfNum(tx), pdfNum(y+tick))
	}
	note := l.pageNote(p, n)
	noteW := helveticaWidth(note) * fontSize
	fmt.Fprintf(&c, "BT /F1 %s Tf %s %s Td %s Tj ET\n", pdfNum(fontSize), pdfNum(l.paper.wPt-MarginMM*mm-noteW), pdfNum(y), pdfString(note))
	l.pdfLabels(&c, placed)

	first := 4 + 3*len(d.pages)
	d.pages = append(d.pages, first)
	d.begin(first)
	fmt.Fprintf(&d.buf, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R >>",
		l.paper.wPtS, l.paper.hPtS, first+2, first+1)
	d.end()
	d.stream(first+1, "", []byte(c.String()))
	d.stream(first+2, fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode ", l.w, l.h), z.Bytes())
	return nil
}

// pdfLabels writes the labels of the placed stickers as text, each centred
// under its marker and fitted to the sticker's width as fitLabel fits the
// raster's.
func (l *sheetLayout) pdfLabels(c *strings.Builder, placed []sheetPlaced) {
	pt := 72 / l.dpi // points a raster pixel
	size := sheetLabelCapMM * 72 / 25.4 / 0.718
	capPx := float64(l.px(sheetLabelCapMM))
	width := float64(l.stickerW-l.px(1)) * pt
	for _, s := range placed {
		text, fs := fitText(stickerLabel(s.id, l.spec.Labels[s.id]), size, width, func(t string, sz float64) float64 {
			return helveticaWidth(t) * sz
		})
		cx := (float64(s.x) + float64(l.stickerW)/2) * pt
		x := cx - helveticaWidth(text)*fs/2
		y := l.paper.hPt - l.labelBaseline(s.y, capPx)*pt
		fmt.Fprintf(c, "BT /F1 %s Tf %s %s Td %s Tj ET\n", pdfNum(fs), pdfNum(x), pdfNum(y), pdfString(text))
	}
}

func (d *pdfDoc) finish() []byte {
	d.begin(1)
	fmt.Fprintf(&d.buf, "<< /Type /Catalog /Pages 2 0 R >>")
	d.end()
	d.begin(2)
	d.buf.WriteString("<< /Type /Pages /Kids [")
	for i, p := range d.pages {
		if i > 0 {
			d.buf.WriteByte(' ')
		}
		fmt.Fprintf(&d.buf, "%d 0 R", p)
	}
	fmt.Fprintf(&d.buf, "] /Count %d >>", len(d.pages))
	d.end()
	d.begin(3)
	d.buf.WriteString("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	d.end()

	xref := d.buf.Len()
	fmt.Fprintf(&d.buf, "xref\n0 %d\n0000000000 65535 f \n", len(d.offsets)+1)
	for _, off := range d.offsets {
		fmt.Fprintf(&d.buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&d.buf, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(d.offsets)+1, xref)
	return d.buf.Bytes()
}

// helveticaWidth returns the width of s in Helvetica, in em (ASCII; other
// characters count as an average letter).
func helveticaWidth(s string) float64 {
	var w int
	for _, r := range s {
		if r >= 32 && r < 127 {
			w += helveticaWidths[r-32]
		} else {
			w += 556
		}
	}
	return float64(w) / 1000
}

// helveticaWidths are Helvetica's advance widths (1/1000 em) for ASCII 32–126
// from the standard Adobe font metrics.
var helveticaWidths = [95]int{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space ! " # $ % & ' ( ) * + , - . /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0-9 : ; < = > ?
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ A-O
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P-Z [ \ ] ^ _
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` a-o
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p-z { | } ~
}

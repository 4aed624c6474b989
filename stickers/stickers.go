// Package stickers makes the printable sheets of ID stickers that tablecam
// reads on cards and tokens: a PNG preview of the first page and a PDF of
// all pages. On a page the markers and cut marks are one grey raster at the
// sheet's DPI, placed at exactly 72/DPI points per pixel, so printing at
// 100% gives markers of exactly Spec.SideMM; the labels, the caption and the
// page note are PDF text in Helvetica, so they print sharp and can be
// searched and copied.
//
// A sheet of the default marker map's stickers, labelled with what each
// goes on:
//
//	m := marker.DefaultMap()
//	ids := make([]int, 65)
//	for i := range ids {
//		ids[i] = i
//	}
//	png, pdf, err := stickers.Render(stickers.Spec{Dict: m.Dict(), IDs: ids, SideMM: 15, Labels: m.Labels()})
//	if err != nil {
//		return err
//	}
//	// write png and pdf to files
package stickers

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"gocv.io/x/gocv"

	"tablecam/vision/marker"
)

// Spec describes a sheet of marker stickers.
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
	name     string
	wMM, hMM float64
	wPt, hPt float64
}

var sheetPapers = []sheetPaper{
	{"A4", 210, 297, 595.28, 841.89},
	{"Letter", 215.9, 279.4, 612, 792},
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
		return nil, fmt.Errorf("stickers: invalid dictionary %v", s.Dict)
	}
	if len(s.IDs) == 0 {
		return nil, errors.New("stickers: no ids")
	}
	for _, id := range s.IDs {
		if err := s.Dict.CheckID(id); err != nil {
			return nil, fmt.Errorf("stickers: %w", err)
		}
	}
	if !(s.SideMM >= 8 && s.SideMM <= 100) {
		return nil, fmt.Errorf("stickers: marker side %v mm not in 8..100 mm", s.SideMM)
	}
	l := &sheetLayout{spec: s}
	switch p := strings.ToLower(strings.TrimSpace(s.Paper)); p {
	case "", "a4":
		l.paper = sheetPapers[0]
	case "letter":
		l.paper = sheetPapers[1]
	default:
		return nil, fmt.Errorf("stickers: paper %q, want A4 or Letter", s.Paper)
	}
	dpi := s.DPI
	if dpi == 0 {
		dpi = 300
	}
	if dpi < 150 || dpi > 600 {
		return nil, fmt.Errorf("stickers: %d DPI not in 150..600", s.DPI)
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
		return nil, fmt.Errorf("stickers: a %.4g mm sticker (%.1f×%.1f mm with quiet zone and label) does not fit on %s inside %g mm margins",
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

// Render renders the stickers of spec: a grid of stickers, each a
// marker exactly SideMM wide, its white quiet zone (one module, at least
// 2 mm), its label under it and thin cut marks at its corners, inside 10 mm
// page margins, on as many pages as needed. Under the top margin each page
// says "Print at 100% (no fit-to-page)" next to a 100 mm ruler to check the
// print scale with.
//
// png is the first page as an 8-bit grey PNG at spec.DPI (a marker is
// SideMM/25.4×DPI pixels wide, rounded to whole pixels); pdf holds all pages,
// each the page raster (a grey image) drawn at 72/DPI points per pixel from
// the top-left corner of an A4 or Letter page, with the caption and ruler
// as PDF text and lines and each sticker's label as PDF text.
func Render(spec Spec) (png []byte, pdf []byte, err error) {
	l, err := spec.layout()
	if err != nil {
		return nil, nil, err
	}
	page := gocv.NewMatWithSize(l.h, l.w, gocv.MatTypeCV8UC1)
	defer page.Close()
	doc := newSheetPDF(l)
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
		raster, err := encodePNG(page)
		if err != nil {
			return nil, nil, err
		}
		if err := doc.addPage(raster, placed, p, n); err != nil {
			return nil, nil, err
		}
		if p == 0 {
			// The PDF writes the labels and the header as text and lines;
			// the PNG has them in the raster.
			for _, s := range placed {
				l.drawLabel(&page, s.x, s.y, s.id)
			}
			l.drawHeader(&page, p, n)
			if png, err = encodePNG(page); err != nil {
				return nil, nil, err
			}
		}
	}
	if pdf, err = doc.finish(); err != nil {
		return nil, nil, err
	}
	return png, pdf, nil
}

// encodePNG returns the grey page as a PNG.
func encodePNG(page gocv.Mat) ([]byte, error) {
	buf, err := gocv.IMEncode(gocv.PNGFileExt, page)
	if err != nil {
		return nil, fmt.Errorf("stickers: encode PNG: %w", err)
	}
	defer buf.Close()
	png := bytes.Clone(buf.GetBytes())
	if len(png) == 0 {
		return nil, errors.New("stickers: encode PNG failed")
	}
	return png, nil
}

var stickerInk = color.RGBA{0, 0, 0, 255}

// sheetPlaced is a sticker on a page: its top-left corner in raster pixels.
type sheetPlaced struct{ x, y, id int }

// drawSticker draws the marker and cut marks of the sticker whose top-left
// corner (the outer corner of its quiet zone) is at (x, y); its label is
// drawLabel's (the PNG) or PDF text (sheetPDF.addPage).
func (l *sheetLayout) drawSticker(page *gocv.Mat, x, y, id int) error {
	if err := marker.DrawAt(page, l.spec.Dict, id, l.side, x+l.quiet, y+l.quiet); err != nil {
		return fmt.Errorf("stickers: %w", err)
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
// (the PNG); sheetPDF.addPage writes the same as PDF text and lines.
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

// sheetPDF writes the PDF of a sheet: each page its raster (markers and cut
// marks) placed at exactly 72/DPI points per pixel from the page's top-left
// corner, the caption, ruler and page note, and each sticker's label as text
// in Helvetica.
type sheetPDF struct {
	l   *sheetLayout
	pdf *fpdf.Fpdf
}

func newSheetPDF(l *sheetLayout) *sheetPDF {
	pdf := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: l.paper.wPt, Ht: l.paper.hPt}})
	pdf.SetMargins(0, 0, 0)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetCreator("tablecam", true)
	pdf.SetTitle(fmt.Sprintf("ID stickers, %v, %s mm", l.spec.Dict, strconv.FormatFloat(l.spec.SideMM, 'f', -1, 64)), true)
	pdf.SetFont("Helvetica", "", 10)
	return &sheetPDF{l: l, pdf: pdf}
}

// addPage adds page p of n: its raster as a PNG (grey, w×h pixels) and the
// text and lines over it.
func (d *sheetPDF) addPage(raster []byte, placed []sheetPlaced, p, n int) error {
	l, pdf := d.l, d.pdf
	pdf.AddPage()
	name := fmt.Sprintf("page%d", p+1)
	pdf.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(raster))
	pdf.ImageOptions(name, 0, 0, float64(l.w)*72/l.dpi, float64(l.h)*72/l.dpi, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")

	mm := 72 / 25.4
	fontSize := sheetCaptionCapMM * mm / helveticaCap
	pdf.SetFontSize(fontSize)
	x := MarginMM * mm
	pdf.Text(x, sheetCaptionBaselineMM*mm, latin1(l.caption()))
	y := sheetRulerYMM * mm
	pdf.SetDrawColor(0, 0, 0)
	pdf.SetLineWidth(0.25 * mm)
	pdf.SetLineCapStyle("butt")
	pdf.Line(x, y, x+sheetRulerMM*mm, y)
	for t := 0; t <= sheetRulerMM; t += 10 {
		tick := sheetRulerTickMM * mm
		if t%50 == 0 {
			tick *= 1.6
		}
		tx := x + float64(t)*mm
		pdf.Line(tx, y, tx, y-tick)
	}
	note := latin1(l.pageNote(p, n))
	pdf.Text(l.paper.wPt-MarginMM*mm-pdf.GetStringWidth(note), y, note)
	d.labels(placed)
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("stickers: PDF page %d: %w", p+1, err)
	}
	return nil
}

// labels writes the labels of the placed stickers as text, each centred
// under its marker and fitted to the sticker's width as fitLabel fits the
// raster's.
func (d *sheetPDF) labels(placed []sheetPlaced) {
	l, pdf := d.l, d.pdf
	pt := 72 / l.dpi // points a raster pixel
	size := sheetLabelCapMM * 72 / 25.4 / helveticaCap
	capPx := float64(l.px(sheetLabelCapMM))
	width := float64(l.stickerW-l.px(1)) * pt
	widthAt := func(t string, sz float64) float64 {
		pdf.SetFontSize(sz)
		return pdf.GetStringWidth(latin1(t))
	}
	for _, s := range placed {
		text, fs := fitText(stickerLabel(s.id, l.spec.Labels[s.id]), size, width, widthAt)
		w := widthAt(text, fs)
		cx := (float64(s.x) + float64(l.stickerW)/2) * pt
		pdf.Text(cx-w/2, l.labelBaseline(s.y, capPx)*pt, latin1(text))
	}
}

// finish returns the PDF.
func (d *sheetPDF) finish() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("stickers: PDF: %w", err)
	}
	return buf.Bytes(), nil
}

// helveticaCap is Helvetica's cap height in em: text whose capitals are c
// high is set at c/helveticaCap.
const helveticaCap = 0.718

// latin1 is s in the PDF's encoding of the standard fonts (WinAnsi): ASCII
// and the Latin-1 letters (at the same codes) as they are, tabs and line
// breaks as spaces, anything else as '?'.
func latin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b = append(b, ' ')
		case r >= 32 && r <= 126 || r >= 160 && r <= 255:
			b = append(b, byte(r))
		default:
			b = append(b, '?')
		}
	}
	return string(b)
}

package card

// Card and sticker reading on real photographs (issue 4: accuracy on data
// the recognizer never saw, real photos where we can). None of these photos
// is in this repository and none was looked at to tune the reader: they are
// read where a package installed them.
//
//   - gocv's module (gocv.io/x/gocv, Apache-2.0), in the module cache after
//     any build: images/box.png and images/box_in_scene.png (OpenCV's
//     feature-matching sample pair: a photo of a biscuit box, and a photo of
//     that box turned and partly covered among other boxes and a plastic
//     bag), and face.jpg, distortion.jpg, fisheye_sample.jpg,
//     space_shuttle.jpg: photos with no card and no sticker.
//   - Debian's opencv-doc (OpenCV's tutorial and sample images, Apache-2.0
//     AND BSD-3-Clause; a 96 MB download, so `make deps` does not install
//     it): singlemarkersoriginal.jpg (a printed sheet of six DICT_6X6_250
//     markers on a desk, photographed at an angle, with a parcel and a stone
//     beside it), screen_charuco.jpg (a screenshot of a calibration tool
//     showing a webcam photo of a DICT_4X4_250 ChArUco board held in a
//     hand), diamondmarkers.png (three printed ChArUco diamonds on a desk),
//     and the stereo calibration set left01–14.jpg, right01–14.jpg (a
//     chessboard held up in an office). `make eval-real` keeps these in
//     .cache/opencv-doc and runs these tests with -opencv-doc pointing
//     there; an installed opencv-doc is found too.
//
// A test whose photos are missing skips, saying where they come from;
// -eval-real makes that a failure and logs every reading:
//
//	make eval-real
//	go test -run 'TestCardsReal' -v ./vision/card/ -args -eval-real

import (
	"fmt"
	"image"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"gocv.io/x/gocv"

	"tablecam/frame"
	"tablecam/vision/card/index"
	"tablecam/vision/marker"
)

func realEval() bool { return *evalReal }

// realMissing skips the test (fails it under -eval-real).
func realMissing(t *testing.T, format string, args ...any) {
	t.Helper()
	if realEval() {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// realGocvImages returns gocv's images folder in the module cache.
func realGocvImages(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "gocv.io/x/gocv").Output()
	dir := filepath.Join(strings.TrimSpace(string(out)), "images")
	if err != nil || strings.TrimSpace(string(out)) == "" {
		realMissing(t, "real photos: gocv's module folder not found (go list -m gocv.io/x/gocv: %v); the photos are its images/", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "box_in_scene.png")); err != nil {
		realMissing(t, "real photos: %v (gocv's module images/)", err)
	}
	return dir
}

// realDocFile returns the path of opencv-doc's photo name, "" when it is
// not at hand: in -opencv-doc (the photos themselves, or a folder
// opencv-doc's package was extracted into), else where `make eval-real`
// keeps them, else in the installed package.
func realDocFile(name string) string {
	subs := []string{"usr/share/doc/opencv-doc/opencv4/html", "usr/share/doc/opencv-doc/examples/data"}
	var dirs []string
	if d := *opencvDoc; d != "" {
		dirs = append(dirs, d, filepath.Join(d, subs[0]), filepath.Join(d, subs[1]))
	}
	for _, d := range append(dirs, "../../.cache/opencv-doc", "/"+subs[0], "/"+subs[1]) {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return filepath.Join(d, name)
		}
	}
	return ""
}

// realDocPhotos returns the paths of opencv-doc's photos names, skipping
// the test when one is missing.
func realDocPhotos(t *testing.T, names ...string) []string {
	t.Helper()
	var out []string
	for _, n := range names {
		p := realDocFile(n)
		if p == "" {
			realMissing(t, "real photos: OpenCV's tutorial photo %s not found (-opencv-doc %q, /usr/share/doc/opencv-doc): "+
				"run `make eval-real` (it fetches Debian's opencv-doc, 96 MB, and keeps the photos used in .cache/opencv-doc)", n, *opencvDoc)
		}
		out = append(out, p)
	}
	return out
}

// realImage reads a photo as the CLI does (8-bit BGR; grey photos
// converted). The caller closes it.
func realImage(t *testing.T, path string) gocv.Mat {
	t.Helper()
	m, err := frame.ReadImage(path)
	if err != nil {
		t.Fatalf("real photo: %v", err)
	}
	return m
}

// realIoU is the intersection over union of two boxes.
func realIoU(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	ia := float64(in.Dx() * in.Dy())
	u := float64(a.Dx()*a.Dy()+b.Dx()*b.Dy()) - ia
	if u <= 0 {
		return 0
	}
	return ia / u
}

// realBoxTruth finds where the photo card lies in scene, independently of
// the reader: SIFT keypoints (the reader uses ORB), Lowe's ratio test,
// a RANSAC homography; it returns the card's corners mapped into scene and
// the homography's number of inliers. On gocv's box pair it gives the
// corners (119,161) (285,175) (268,299) (89,273) (75 inliers), which lie
// on the box's edges in the photo (checked by drawing them on it; the rice
// box covers the right third of the box and its top-right corner, which
// the homography places where the box's edges meet).
func realBoxTruth(t *testing.T, card, scene gocv.Mat) ([4]image.Point, int) {
	t.Helper()
	sift := gocv.NewSIFT()
	defer sift.Close()
	detect := func(m gocv.Mat) ([]gocv.KeyPoint, gocv.Mat) {
		g := gocv.NewMat()
		defer g.Close()
		gocv.CvtColor(m, &g, gocv.ColorBGRToGray)
		none := gocv.NewMat()
		defer none.Close()
		return sift.DetectAndCompute(g, none)
	}
	kc, dc := detect(card)
	defer dc.Close()
	ks, ds := detect(scene)
	defer ds.Close()
	bf := gocv.NewBFMatcher()
	defer bf.Close()
	var pairs [][2]gocv.KeyPoint
	for _, m := range bf.KnnMatch(dc, ds, 2) {
		if len(m) == 2 && m[0].Distance < 0.75*m[1].Distance {
			pairs = append(pairs, [2]gocv.KeyPoint{kc[m[0].QueryIdx], ks[m[0].TrainIdx]})
		}
	}
	if len(pairs) < 10 {
		t.Fatalf("box truth: %d SIFT matches", len(pairs))
	}
	sm := gocv.NewMatWithSize(len(pairs), 1, gocv.MatTypeCV32FC2)
	defer sm.Close()
	dm := gocv.NewMatWithSize(len(pairs), 1, gocv.MatTypeCV32FC2)
	defer dm.Close()
	for i, p := range pairs {
		sm.SetFloatAt(i, 0, float32(p[0].X))
		sm.SetFloatAt(i, 1, float32(p[0].Y))
		dm.SetFloatAt(i, 0, float32(p[1].X))
		dm.SetFloatAt(i, 1, float32(p[1].Y))
	}
	mask := gocv.NewMat()
	defer mask.Close()
	h := gocv.FindHomography(sm, &dm, gocv.HomograpyMethodRANSAC, 3, &mask, 2000, 0.995)
	defer h.Close()
	if h.Empty() {
		t.Fatal("box truth: no homography")
	}
	var q [4]image.Point
	w, hh := float64(card.Cols()), float64(card.Rows())
	for i, c := range [][2]float64{{0, 0}, {w, 0}, {w, hh}, {0, hh}} {
		x := h.GetDoubleAt(0, 0)*c[0] + h.GetDoubleAt(0, 1)*c[1] + h.GetDoubleAt(0, 2)
		y := h.GetDoubleAt(1, 0)*c[0] + h.GetDoubleAt(1, 1)*c[1] + h.GetDoubleAt(1, 2)
		z := h.GetDoubleAt(2, 0)*c[0] + h.GetDoubleAt(2, 1)*c[1] + h.GetDoubleAt(2, 2)
		q[i] = image.Pt(int(math.Round(x/z)), int(math.Round(y/z)))
	}
	return q, gocv.CountNonZero(mask)
}

// realBounds is the bounding box of q.
func realBounds(q [4]image.Point) image.Rectangle {
	var r image.Rectangle
	for _, p := range q {
		r = r.Union(image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))})
	}
	return r
}

// realReadings formats readings for the tables.
func realReadings(got []Reading) string {
	var s []string
	for _, g := range got {
		id := g.ID
		if g.Marker != nil {
			id = fmt.Sprintf("%s(m%d)", g.ID, *g.Marker)
		}
		s = append(s, fmt.Sprintf("%s %d,%d-%d,%d %.2f", id, g.Box.Min.X, g.Box.Min.Y, g.Box.Max.X, g.Box.Max.Y, g.Confidence))
	}
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, "; ")
}

// realLearned formats the readings by look: the taught cards read, and
// how many outlines were unknown and how many stickers read.
func realLearned(got []Reading) string {
	var s []string
	unknown, stickers := 0, 0
	for _, g := range got {
		switch {
		case g.Method != MethodLearned:
			stickers++
		case g.ID == Unknown:
			unknown++
		default:
			s = append(s, fmt.Sprintf("%s %d,%d-%d,%d %.2f", g.ID, g.Box.Min.X, g.Box.Min.Y, g.Box.Max.X, g.Box.Max.Y, g.Confidence))
		}
	}
	return strings.Join(append(s, fmt.Sprintf("%d unknown, %d stickers", unknown, stickers)), "; ")
}

// realTaught returns the readings of taught cards (by their look).
func realTaught(got []Reading) []Reading {
	var out []Reading
	for _, g := range got {
		if g.Method == MethodLearned && g.ID != Unknown {
			out = append(out, g)
		}
	}
	return out
}

// realRead reads img with a fresh reader with opts.
func realRead(t *testing.T, opts Options, img gocv.Mat) []Reading {
	t.Helper()
	r, err := NewReader(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.ReadCards(img)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func realSearch(whole bool) string {
	if whole {
		return "whole-frame"
	}
	return "plain"
}

// realView is a real photo to read: truth is where the taught card lies in
// it (empty: the card is not in the photo).
type realView struct {
	name  string
	img   gocv.Mat
	truth image.Rectangle
}

// realTally counts readings over views: views showing the card, the card
// read right there, and taught ids read anywhere else (false ids).
type realTally struct{ shown, right, off, falseIDs int }

// realEvalCard reads views with card id taught from the photos teach:
// alone; among 99 synthetic cards taught from training seeds as the
// held-out evaluation teaches them (3 photos each); and, for the views
// showing the card, with only the 99 (the card untaught). Each reading is
// done plainly and with the whole-frame search (tablecam card). A taught
// card's reading is right when it is id and its box has IoU ≥ 0.5 with the
// truth; a reading of id whose box is centred on the card (over a part of
// it) is counted apart; any other reading of a taught card is a false id.
// Asserted: no
// false id among 100 or with the card untaught. It logs the table and
// returns the tallies alone and among 100 (index 0 plain, 1 whole-frame).
func realEvalCard(t *testing.T, id string, teach []gocv.Mat, views []realView, opts Options) (alone, among [2]realTally) {
	t.Helper()
	ixAlone := index.New()
	if err := ixAlone.Teach(id, teach...); err != nil {
		t.Fatal(err)
	}
	ix, seeds := cardsTeachAll(t, 99, 3)
	cardsCheckSeeds(t, seeds, nil)
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "photo	taught	search	card	false ids	readings (taught cards read; unknown outlines, stickers)")
	run := func(name string, ix *index.Index, taught, strict bool, out *[2]realTally) {
		for _, v := range views {
			if !taught && v.truth.Empty() {
				continue
			}
			for w, whole := range []bool{false, true} {
				o := opts
				o.Index, o.SearchWholeFrame = ix, whole
				got := realRead(t, o, v.img)
				verdict := "-"
				switch {
				case v.truth.Empty():
				case taught:
					verdict = "not read"
					out[w].shown++
				default:
					verdict = "untaught"
				}
				falseIDs := 0
				for _, g := range realTaught(got) {
					if iou := realIoU(g.Box, v.truth); taught && g.ID == id && iou >= 0.5 && verdict == "not read" {
						verdict = fmt.Sprintf("right (IoU %.2f, conf %.2f)", iou, g.Confidence)
						out[w].right++
						continue
					}
					if taught && g.ID == id && realCentre(g.Box).In(v.truth) {
						// The card read over a part of it (a chessboard's
						// strip looks like the board): the right card
						// with a wrong outline, not another card.
						out[w].off++
						continue
					}
					falseIDs++
					if strict {
						t.Errorf("%s, %s, %s: %s read at %v (the card: %v)", v.name, name, realSearch(whole), g.ID, g.Box, v.truth)
					}
				}
				out[w].falseIDs += falseIDs
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", v.name, name, realSearch(whole), verdict, falseIDs, realLearned(got))
			}
		}
	}
	var untaught [2]realTally
	run("99 synthetic", ix, false, true, &untaught)
	run(id+" alone", ixAlone, true, false, &alone)
	if err := ix.Teach(id, teach...); err != nil {
		t.Fatal(err)
	}
	run(id+" + 99", ix, true, true, &among)
	tw.Flush()
	t.Logf("%s on real photos:\n%s", id, b.String())
	for w := range 2 {
		t.Logf("%s, %s: alone %d of %d read right (%d more readings of it over a part of it), %d false ids; among 100 %d of %d right (%d over a part), %d false ids", id, realSearch(w == 1),
			alone[w].right, alone[w].shown, alone[w].off, alone[w].falseIDs, among[w].right, among[w].shown, among[w].off, among[w].falseIDs)
	}
	return alone, among
}

// realNegatives are gocv's real photos with no card and no sticker.
var realNegatives = []string{"face.jpg", "distortion.jpg", "fisheye_sample.jpg", "space_shuttle.jpg"}

// realDocNegatives are opencv-doc's photos with no taught card.
var realDocNegatives = []string{"singlemarkersoriginal.jpg", "screen_charuco.jpg", "diamondmarkers.png"}

// realNegativeViews opens the real photos with no taught card at hand:
// gocv's, and opencv-doc's when present (optional here). The caller closes
// them.
func realNegativeViews(t *testing.T, gocvDir string) []realView {
	t.Helper()
	var paths []string
	for _, f := range realNegatives {
		paths = append(paths, filepath.Join(gocvDir, f))
	}
	for _, f := range realDocNegatives {
		if p := realDocFile(f); p != "" {
			paths = append(paths, p)
		}
	}
	if len(paths) == len(realNegatives) {
		t.Log("opencv-doc's photos not found: only gocv's photos without a card read (make eval-real)")
	}
	var out []realView
	for _, p := range paths {
		out = append(out, realView{name: filepath.Base(p), img: realImage(t, p)})
	}
	return out
}

// TestCardsRealBox teaches the box from its photo (box.png, a crop of the
// box face: the whole picture is the card) and reads the scene photo and
// the real photos without it (realEvalCard). Asserted besides: the box
// alone is read over its true place, plainly and with the whole-frame
// search.
func TestCardsRealBox(t *testing.T) {
	dir := realGocvImages(t)
	box := realImage(t, filepath.Join(dir, "box.png"))
	defer box.Close()
	scene := realImage(t, filepath.Join(dir, "box_in_scene.png"))
	defer scene.Close()
	quad, inliers := realBoxTruth(t, box, scene)
	if inliers < 20 {
		t.Fatalf("box truth: %d inliers", inliers)
	}
	t.Logf("box truth (SIFT homography, %d inliers): corners %v, box %v", inliers, quad, realBounds(quad))
	views := append([]realView{{name: "box_in_scene.png", img: scene, truth: realBounds(quad)}}, realNegativeViews(t, dir)...)
	defer func() {
		for _, v := range views[1:] {
			v.img.Close()
		}
	}()
	alone, _ := realEvalCard(t, "box", []gocv.Mat{box}, views, Options{})
	for w, a := range alone {
		if a.right != 1 {
			t.Errorf("box alone, %s: the box is not read over its true place %v", realSearch(w == 1), realBounds(quad))
		}
	}
}

// realMarkers reads img with a sticker-only reader over mm and with the
// reference: our binding's detector (OpenCV's defaults) on the same
// dictionary.
func realMarkers(t *testing.T, mm *marker.Map, img gocv.Mat) (got []Reading, ref []marker.Marker) {
	t.Helper()
	r, err := NewReader(Options{Markers: mm, HideUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err = r.ReadCards(img); err != nil {
		t.Fatal(err)
	}
	md, err := marker.NewDetector(mm.Dict(), marker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer md.Close()
	if ref, err = md.Detect(img); err != nil {
		t.Fatal(err)
	}
	return got, ref
}

// realRefIDs formats the reference's markers.
func realRefIDs(ref []marker.Marker) string {
	var s []string
	for _, m := range ref {
		s = append(s, fmt.Sprintf("%d@%.0f,%.0f", m.ID, m.Center.X, m.Center.Y))
	}
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, " ")
}

// realAllIDs maps ids 0-249 of dictionary dict to content "m-NNN".
func realAllIDs(t *testing.T, dict string) *marker.Map {
	t.Helper()
	mm, err := marker.DefaultMap().Merge("real.yaml",
		[]byte("dictionary: "+dict+"\nreplace: true\nmarkers:\n  - {ids: 0-249, content: \"m-###\", first: 0}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return mm
}

// realScore scores marker readings against truth (marker id → true centre
// in the photo): right when a reading of the id holds its centre.
func realScore(got []Reading, truth map[int]image.Point) (right, wrong int, missed []int) {
	read := map[int]bool{}
	for _, g := range got {
		if g.Marker == nil {
			continue
		}
		c, ok := truth[*g.Marker]
		if ok && c.In(g.Box) {
			right++
			read[*g.Marker] = true
		} else {
			wrong++
		}
	}
	for id := range truth {
		if !read[id] {
			missed = append(missed, id)
		}
	}
	slices.Sort(missed)
	return right, wrong, missed
}

// realCharucoTruth gives the true centre of every marker of the ChArUco
// board in screen_charuco.jpg, from the reference's markers: on that board
// (24 markers, DICT_4X4_250) marker k lies in column k/6, half-row
// (k%6)/3, row k%3 (read off the reference's ids and places), so its
// centre is O + c·A + s·B + r·V; the four vectors are fitted to the
// reference's centres (least squares). The fit must explain them within
// 4 px (markers are 20 px across).
func realCharucoTruth(t *testing.T, ref []marker.Marker) map[int]image.Point {
	t.Helper()
	if len(ref) < 8 {
		t.Fatalf("ChArUco truth: the reference reads %d markers", len(ref))
	}
	a := gocv.NewMatWithSize(len(ref), 4, gocv.MatTypeCV64F)
	defer a.Close()
	b := gocv.NewMatWithSize(len(ref), 2, gocv.MatTypeCV64F)
	defer b.Close()
	basis := func(k int) [4]float64 { return [4]float64{1, float64(k / 6), float64(k % 6 / 3), float64(k % 3)} }
	for i, m := range ref {
		for j, v := range basis(m.ID) {
			a.SetDoubleAt(i, j, v)
		}
		b.SetDoubleAt(i, 0, float64(m.Center.X))
		b.SetDoubleAt(i, 1, float64(m.Center.Y))
	}
	x := gocv.NewMat()
	defer x.Close()
	if !gocv.Solve(a, b, &x, gocv.SolveDecompositionSvd) {
		t.Fatal("ChArUco truth: no fit")
	}
	at := func(k int) (float64, float64) {
		var px, py float64
		for j, v := range basis(k) {
			px += v * x.GetDoubleAt(j, 0)
			py += v * x.GetDoubleAt(j, 1)
		}
		return px, py
	}
	for _, m := range ref {
		if px, py := at(m.ID); math.Hypot(px-float64(m.Center.X), py-float64(m.Center.Y)) > 4 {
			t.Fatalf("ChArUco truth: marker %d at %v, the board's layout puts it at %.0f,%.0f", m.ID, m.Center, px, py)
		}
	}
	truth := map[int]image.Point{}
	for k := range 24 {
		px, py := at(k)
		truth[k] = image.Pt(int(math.Round(px)), int(math.Round(py)))
	}
	return truth
}

// TestCardsRealStickerPhantoms reads real photos holding no sticker of the
// dictionary read: gocv's photos with the default marker map, and (when
// present) opencv-doc's sheet of 6×6 markers and its diamonds with it.
// Asserted: the reader reads no marker that the reference does not also
// read at the same place. Logged: every marker either reads (a marker both
// read on a photo without stickers is a pattern of the scene that OpenCV
// itself takes for one).
func TestCardsRealStickerPhantoms(t *testing.T) {
	dir := realGocvImages(t)
	var paths []string
	for _, f := range append(realNegatives, "box_in_scene.png") {
		paths = append(paths, filepath.Join(dir, f))
	}
	for _, f := range []string{"singlemarkersoriginal.jpg", "diamondmarkers.png"} {
		if p := realDocFile(f); p != "" {
			paths = append(paths, p)
		}
	}
	mm := marker.DefaultMap()
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "photo\treader\treference")
	for _, p := range paths {
		img := realImage(t, p)
		got, ref := realMarkers(t, mm, img)
		img.Close()
		fmt.Fprintf(tw, "%s\t%s\t%s\n", filepath.Base(p), realReadings(got), realRefIDs(ref))
		for _, g := range got {
			if g.Marker == nil {
				continue
			}
			if !slices.ContainsFunc(ref, func(m marker.Marker) bool {
				return m.ID == *g.Marker && image.Pt(int(m.Center.X), int(m.Center.Y)).In(g.Box)
			}) {
				t.Errorf("%s: marker %d (%s) read at %v, where the reference reads none", filepath.Base(p), *g.Marker, g.ID, g.Box)
			}
		}
	}
	tw.Flush()
	t.Logf("markers (%s, default map) on real photos without stickers:\n%s", mm.Dict(), b.String())
}

// TestCardsRealStickers reads OpenCV's tutorial photos of printed markers
// and compares with the truth: the sheet of six DICT_6X6_250 markers
// (ids 23, 40, 62, 98, 124, 203, as the tutorial generates it; the
// reference must read the same), and the ChArUco board of 24 DICT_4X4_250
// markers (truth from the board's layout, realCharucoTruth).
// Asserted: no marker read with a wrong id or at a wrong place; all six of
// the sheet read; on the board at least as many read right as the
// reference reads.
func TestCardsRealStickers(t *testing.T) {
	photos := realDocPhotos(t, "singlemarkersoriginal.jpg", "screen_charuco.jpg")
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "photo\tmarkers\tright\twrong\tmissed\treference right\treadings")
	row := func(name string, got []Reading, ref []marker.Marker, truth map[int]image.Point) (right, refRight int) {
		right, wrong, missed := realScore(got, truth)
		for _, m := range ref {
			if c, ok := truth[m.ID]; ok && math.Hypot(float64(c.X)-float64(m.Center.X), float64(c.Y)-float64(m.Center.Y)) < m.Side/2 {
				refRight++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%v\t%d\t%s\n", name, len(truth), right, wrong, missed, refRight, realReadings(got))
		if wrong > 0 {
			t.Errorf("%s: %d markers read with a wrong id or at a wrong place: %s", name, wrong, realReadings(got))
		}
		return right, refRight
	}

	sheet := realImage(t, photos[0])
	got, ref := realMarkers(t, realAllIDs(t, "DICT_6X6_250"), sheet)
	sheet.Close()
	want := []int{23, 40, 62, 98, 124, 203}
	truth := map[int]image.Point{}
	for _, m := range ref {
		truth[m.ID] = image.Pt(int(m.Center.X), int(m.Center.Y))
	}
	if ids := slices.Sorted(maps.Keys(truth)); !slices.Equal(ids, want) {
		t.Fatalf("singlemarkersoriginal.jpg: the reference reads %v, the tutorial's sheet holds %v", ids, want)
	}
	if right, _ := row("singlemarkersoriginal.jpg (6X6_250)", got, ref, truth); right != len(want) {
		t.Errorf("singlemarkersoriginal.jpg: %d of %d markers read", right, len(want))
	}

	board := realImage(t, photos[1])
	got, ref = realMarkers(t, marker.DefaultMap(), board)
	board.Close()
	if right, refRight := row("screen_charuco.jpg (4X4_250)", got, ref, realCharucoTruth(t, ref)); right < refRight {
		t.Errorf("screen_charuco.jpg: %d markers read right, the reference reads %d", right, refRight)
	}
	tw.Flush()
	t.Logf("printed markers in real photos (reference: OpenCV's detector, default parameters):\n%s", b.String())
}

// realChessboard returns the outer corners of the chessboard pattern (10×7
// squares, 9×6 inner corners) in img: OpenCV's chessboard detector finds the
// inner corners, a homography fitted to all 54 maps the pattern's outer
// corners, clockwise from the one before inner corner 0.
func realChessboard(t *testing.T, name string, img gocv.Mat) [4]gocv.Point2f {
	t.Helper()
	g := gocv.NewMat()
	defer g.Close()
	gocv.CvtColor(img, &g, gocv.ColorBGRToGray)
	corners := gocv.NewMat()
	defer corners.Close()
	if !gocv.FindChessboardCorners(g, image.Pt(9, 6), &corners, gocv.CalibCBAdaptiveThresh|gocv.CalibCBNormalizeImage) {
		t.Fatalf("%s: OpenCV finds no 9×6 chessboard", name)
	}
	grid := gocv.NewMatWithSize(54, 1, gocv.MatTypeCV32FC2)
	defer grid.Close()
	for i := range 54 {
		grid.SetFloatAt(i, 0, float32(i%9))
		grid.SetFloatAt(i, 1, float32(i/9))
	}
	mask := gocv.NewMat()
	defer mask.Close()
	h := gocv.FindHomography(grid, &corners, 0, 3, &mask, 2000, 0.995)
	defer h.Close()
	if h.Empty() {
		t.Fatalf("%s: no homography to the chessboard", name)
	}
	var q [4]gocv.Point2f
	for i, p := range [][2]float64{{-1, -1}, {9, -1}, {9, 6}, {-1, 6}} {
		x := h.GetDoubleAt(0, 0)*p[0] + h.GetDoubleAt(0, 1)*p[1] + h.GetDoubleAt(0, 2)
		y := h.GetDoubleAt(1, 0)*p[0] + h.GetDoubleAt(1, 1)*p[1] + h.GetDoubleAt(1, 2)
		z := h.GetDoubleAt(2, 0)*p[0] + h.GetDoubleAt(2, 1)*p[1] + h.GetDoubleAt(2, 2)
		q[i] = gocv.Point2f{X: float32(x / z), Y: float32(y / z)}
	}
	return q
}

// TestCardsRealChessboard teaches a real card-like object from real photos
// and reads it in 20 other real photos: opencv-doc's stereo calibration
// set (left01–14 and right01–14, no 10: a printed chessboard on a board
// held up in an office, 640×480 grey, turned and tilted up to about 45°,
// partly out of the frame, a hand on its edge). The card is taught from
// crops of left01–03 (the pattern straightened, half a square of margin:
// "crops of the card" as tablecam learn cards takes them); the views are
// left04–14 and right04–14 (right01–03 were taken with left01–03). Truth:
// the bounding box of the pattern's outer corners (realChessboard). The
// board fills 50–75% of these frames' short side, beyond the default card
// widths (up to 45%, a webcam over a table), so the reader gets
// MaxCardWidth 400 px. Asserted: no false id among 100 (realEvalCard);
// the counts read right are logged.
func TestCardsRealChessboard(t *testing.T) {
	var names []string
	for _, side := range []string{"left", "right"} {
		for k := 1; k <= 14; k++ {
			if k != 10 && (side == "left" || k > 3) {
				names = append(names, fmt.Sprintf("%s%02d.jpg", side, k))
			}
		}
	}
	paths := realDocPhotos(t, names...)
	var teach []gocv.Mat
	var views []realView
	defer func() {
		for _, m := range teach {
			m.Close()
		}
		for _, v := range views {
			v.img.Close()
		}
	}()
	const sq = 30 // px per square of the straightened crops
	straight := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: sq / 2, Y: sq / 2}, {X: sq/2 + 10*sq, Y: sq / 2},
		{X: sq/2 + 10*sq, Y: sq/2 + 7*sq}, {X: sq / 2, Y: sq/2 + 7*sq}})
	defer straight.Close()
	for i, p := range paths {
		img := realImage(t, p)
		q := realChessboard(t, names[i], img)
		if i >= 3 {
			var r image.Rectangle
			for _, c := range q {
				pt := image.Pt(int(math.Round(float64(c.X))), int(math.Round(float64(c.Y))))
				if r.Empty() {
					r = image.Rectangle{Min: pt, Max: pt}
				}
				r = r.Union(image.Rectangle{Min: pt, Max: pt.Add(image.Pt(1, 1))})
			}
			views = append(views, realView{name: names[i], img: img, truth: r})
			continue
		}
		src := gocv.NewPoint2fVectorFromPoints(q[:])
		h := gocv.GetPerspectiveTransform2f(src, straight)
		crop := gocv.NewMat()
		gocv.WarpPerspective(img, &crop, h, image.Pt(11*sq, 8*sq))
		teach = append(teach, crop)
		src.Close()
		h.Close()
		img.Close()
	}
	realEvalCard(t, "chessboard", teach, views, Options{MaxCardWidth: 400})
}

// realCentre is the centre of box b.
func realCentre(b image.Rectangle) image.Point {
	return image.Pt((b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2)
}

package change

import (
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tablecam/vision/card/outline"
	"tablecam/vision/geom"
)

// FindBlobs fills c.blobs with the changed regions of c.mask of at least
// minArea full-resolution pixels.
func (c *Ref) FindBlobs(minArea float64) {
	c.Blobs = c.Blobs[:0]
	pv := gocv.FindContours(c.Mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer pv.Close()
	const s = Shrink
	for i := range pv.Size() {
		ct := pv.At(i)
		area := gocv.ContourArea(ct) * s * s
		if area < minArea {
			continue
		}
		c.Blobs = append(c.Blobs, blobOf(geom.ConvexHull(ct.ToPoints()), gocv.BoundingRect(ct), area))
	}
}

// blobOf is the blob of the convex hull hull, bounding box box
// (pixels of the shrunk picture) and area (full-resolution pixels).
func blobOf(hull []image.Point, box image.Rectangle, area float64) Blob {
	const s = Shrink
	b := Blob{Box: image.Rectangle{Min: box.Min.Mul(s), Max: box.Max.Mul(s)}, Area: area, Rect: minRect(hull, s)}
	b.Quad, b.HasQuad = hullQuad(hull, s)
	b.Clean = b.HasQuad && area >= cleanShare*geom.QuadArea(b.Quad)
	return b
}

// FindParts fills c.parts with the clean parts of the blobs that are not
// clean once their skin-coloured pixels are taken out and the rest opened:
// a card and the thumb over its edge or the hand holding it make one blob
// that is no card's shape, the card alone is one. Parts at least minArea
// full-resolution pixels, not on a clean blob or another part.
func (c *Ref) FindParts(minArea float64) error {
	c.Parts = c.Parts[:0]
	for bi := range c.Blobs {
		if c.Blobs[bi].Clean {
			continue
		}
		if err := c.FindPartsOf(bi, minArea); err != nil {
			return err
		}
	}
	return nil
}

// FindPartsOf adds the clean parts of blob bi (not clean) to c.parts
// (findParts).
func (c *Ref) FindPartsOf(bi int, minArea float64) error {
	const s = Shrink
	w := c.Mask.Cols()
	cur, err := c.Cur.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("card reference parts: %w", err)
	}
	b := &c.Blobs[bi]
	sb := image.Rect(b.Box.Min.X/s, b.Box.Min.Y/s, b.Box.Max.X/s, b.Box.Max.Y/s).Intersect(image.Rect(0, 0, w, c.Mask.Rows()))
	reg := c.Mask.Region(sb)
	reg.CopyTo(&c.part)
	reg.Close()
	skin, err := c.takeHand(cur[3*(sb.Min.Y*w+sb.Min.X):], w)
	if err != nil {
		return err
	}
	if skin == 0 {
		return nil // the blob is not a hand and a card
	}
	b.Rest = b.Area - float64(skin*s*s)
	// Opened (a hand's rim cut off), and also closed first (a card
	// like the table in places leaves gaps).
	c.part.CopyTo(&c.partRaw)
	gocv.MorphologyEx(c.part, &c.part, gocv.MorphOpen, c.Kernel)
	c.addParts(sb.Min, bi, minArea)
	gocv.MorphologyEx(c.partRaw, &c.part, gocv.MorphClose, c.partKernel)
	gocv.MorphologyEx(c.part, &c.part, gocv.MorphOpen, c.Kernel)
	c.addParts(sb.Min, bi, minArea)
	return nil
}

// takeHand clears the pixels of c.part (a blob's place of the mask) that
// are skin-coloured in cur (the shrunk frame from the place's top-left
// pixel on, w pixels a row) and connected to the blob's rim: the hand
// reaching in and the thumb over the card's edge, not skin-coloured art
// inside the card. It returns how many it cleared.
func (c *Ref) takeHand(cur []byte, w int) (int, error) {
	pw, ph := c.part.Cols(), c.part.Rows()
	p, err := c.part.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	c.part.CopyTo(&c.skin) // its size and type; every pixel is set below
	sk, err := c.skin.DataPtrUint8()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	any := false
	for y := range ph {
		for x := range pw {
			i := y*pw + x
			sk[i] = 0
			if p[i] != 0 && geom.Skin(cur[3*(y*w+x):]) {
				sk[i] = 255
				any = true
			}
		}
	}
	if !any {
		return 0, nil
	}
	// 16-bit labels: a place of the shrunk frame has fewer pixels.
	n := gocv.ConnectedComponentsWithParams(c.skin, &c.labels, 8, gocv.MatTypeCV16U, gocv.CCL_DEFAULT)
	lb, err := c.labels.DataPtrUint16()
	if err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	c.rim = slices.Grow(c.rim[:0], n)[:n]
	clear(c.rim)
	for y := range ph {
		for x := range pw {
			i := y*pw + x
			if lb[i] == 0 || c.rim[lb[i]] {
				continue
			}
			if x == 0 || y == 0 || x == pw-1 || y == ph-1 || p[i-1] == 0 || p[i+1] == 0 || p[i-pw] == 0 || p[i+pw] == 0 {
				c.rim[lb[i]] = true
			}
		}
	}
	// The hand's rim too: pixels of hand and table mixed, no skin colour.
	cleared := 0
	for i, l := range lb[:pw*ph] {
		sk[i] = 0
		if l != 0 && c.rim[l] {
			sk[i] = 255
			cleared++
		}
	}
	gocv.Dilate(c.skin, &c.skin, c.kernel3)
	if sk, err = c.skin.DataPtrUint8(); err != nil {
		return 0, fmt.Errorf("card reference parts: %w", err)
	}
	for i, v := range sk[:pw*ph] {
		if v != 0 {
			p[i] = 0
		}
	}
	return cleared, nil
}

// addParts adds the clean blobs of c.part (whose top-left pixel is at at
// in the shrunk picture; a place of blob parent) to c.parts.
func (c *Ref) addParts(at image.Point, parent int, minArea float64) {
	const s = Shrink
	pv := gocv.FindContours(c.part, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer pv.Close()
	for i := range pv.Size() {
		ct := pv.At(i)
		area := gocv.ContourArea(ct) * s * s
		if area < minArea {
			continue
		}
		pts := ct.ToPoints()
		for k := range pts {
			pts[k] = pts[k].Add(at)
		}
		b := blobOf(geom.ConvexHull(pts), gocv.BoundingRect(ct).Add(at), area)
		b.Clean = b.HasQuad && area >= partCleanShare*geom.QuadArea(b.Quad)
		if !b.Clean || c.hasPart(b.Quad) {
			continue
		}
		b.Parent = parent
		c.Parts = append(c.Parts, b)
	}
}

// hasPart reports whether the quadrilateral q of a part lies in a clean
// blob's quadrilateral or is one of c.parts (give or take a tenth of its
// size).
func (c *Ref) hasPart(q [4]geom.Point) bool {
	p := geom.QuadCentre(q)
	for _, b := range c.Blobs {
		if b.Clean && geom.InQuad(p, b.Quad) {
			return true
		}
	}
	tol := 0.1 * geom.QuadWidth(q)
	for _, b := range c.Parts {
		if outline.AltDistance(q, outline.Candidate{Q: b.Quad}) < tol {
			return true
		}
	}
	return false
}

// minRect returns the smallest rectangle around the convex polygon
// hull (pixels of a picture shrunk by s), clockwise, in full-resolution
// pixels.
func minRect(hull []image.Point, s float64) [4]geom.Point {
	var out [4]geom.Point
	if len(hull) < 3 {
		return out
	}
	best := math.Inf(1)
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l, dy/l
		lo, hi, lo2, hi2 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			u := float64(p.X)*ux + float64(p.Y)*uy
			v := -float64(p.X)*uy + float64(p.Y)*ux
			lo, hi, lo2, hi2 = min(lo, u), max(hi, u), min(lo2, v), max(hi2, v)
		}
		// A pixel covers ±0.5 around its centre.
		lo, hi, lo2, hi2 = lo-0.5, hi+0.5, lo2-0.5, hi2+0.5
		if area := (hi - lo) * (hi2 - lo2); area < best {
			best = area
			for k, uv := range [4][2]float64{{lo, lo2}, {hi, lo2}, {hi, hi2}, {lo, hi2}} {
				x := uv[0]*ux - uv[1]*uy
				y := uv[0]*uy + uv[1]*ux
				out[k] = geom.Point{X: float32((x+0.5)*s - 0.5), Y: float32((y+0.5)*s - 0.5)}
			}
		}
	}
	if q, ok := outline.NewCandidate(out, 0, math.Inf(1)); ok {
		out = q.Q // clockwise
	}
	return out
}

// hullQuad returns the quadrilateral around the convex polygon hull
// (pixels of a picture shrunk by s) that the fewest pixels outside it
// make: edges are dropped one by one, the one whose neighbours' meeting
// point adds the least area first. Corners in full-resolution pixels,
// clockwise; false when the hull is not four-sided enough.
func hullQuad(hull []image.Point, s float64) ([4]geom.Point, bool) {
	var out [4]geom.Point
	if len(hull) < 4 {
		return out, false
	}
	// Pixel centres to the pixels' outer edges: each vertex moves half a
	// pixel away from the hull's centre along both axes.
	var cx, cy float64
	for _, p := range hull {
		cx += float64(p.X)
		cy += float64(p.Y)
	}
	cx, cy = cx/float64(len(hull)), cy/float64(len(hull))
	pts := make([][2]float64, len(hull))
	for i, p := range hull {
		x, y := float64(p.X), float64(p.Y)
		x += math.Copysign(0.5, x-cx)
		y += math.Copysign(0.5, y-cy)
		pts[i] = [2]float64{x, y}
	}
	for len(pts) > 4 {
		best, bi := math.Inf(1), -1
		var bp [2]float64
		n := len(pts)
		for i := range n {
			// Edge (i, i+1) goes: edges (i-1, i) and (i+1, i+2) meet.
			a, b, c, d := pts[(i+n-1)%n], pts[i], pts[(i+1)%n], pts[(i+2)%n]
			p, ok := geom.LineMeet(a, b, c, d)
			// The meeting point lies beyond b and before c.
			if !ok || (p[0]-b[0])*(b[0]-a[0])+(p[1]-b[1])*(b[1]-a[1]) < 0 || (p[0]-c[0])*(c[0]-d[0])+(p[1]-c[1])*(c[1]-d[1]) < 0 {
				continue
			}
			// The triangle b, p, c added.
			area := math.Abs((p[0]-b[0])*(c[1]-b[1])-(p[1]-b[1])*(c[0]-b[0])) / 2
			if area < best {
				best, bi, bp = area, i, p
			}
		}
		if bi < 0 {
			return out, false
		}
		pts[bi] = bp
		pts = slices.Delete(pts, (bi+1)%n, (bi+1)%n+1)
	}
	for k, p := range pts {
		out[k] = geom.Point{X: float32((p[0]+0.5)*s - 0.5), Y: float32((p[1]+0.5)*s - 0.5)}
	}
	q, ok := outline.NewCandidate(out, 0, math.Inf(1))
	return q.Q, ok
}

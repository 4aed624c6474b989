// Package geom is the plane geometry of the card and sticker readers:
// sub-pixel points and four-cornered outlines in image pixels, the
// homographies between them, convex hulls, fitting lines and quads to
// edges, and RANSAC over point pairs that are mostly stray. A [View]
// samples an 8-bit picture at real positions for them.
//
// Points are float32 pixels with pixel centres at integers; a quad is
// [4]Point, clockwise on screen (y down) unless a function says otherwise.
//
// An outline found roughly, re-fitted to the picture's edges and rectified:
//
//	g, err := geom.ColourView(bgr) // a continuous 8-bit BGR gocv.Mat
//	if err != nil {
//		return err
//	}
//	var f geom.SideFitter
//	q, _, ok := f.Refine(g, rough)
//	if !ok {
//		return nil
//	}
//	var src [4][2]float64
//	for k, p := range q {
//		src[k] = [2]float64{float64(p.X), float64(p.Y)}
//	}
//	h, ok := geom.HomographyOf(src, [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}})
//	u, v := h.Apply(x, y) // (x, y) in the unit square of the outline
//
// Nothing here keeps state between calls except the buffers of a
// [SideFitter] and a [Ransac], which are not safe for concurrent use.
package geom

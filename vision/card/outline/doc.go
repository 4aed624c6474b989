// Package outline finds the outlines of cards in a picture: straight edges
// (colour steps count, not only brightness) at half resolution joined into
// four-sided candidates, best first, each side re-fitted at full resolution
// to the outermost clear edge near it (the card's own edge, not its inner
// frame). Other outlines seen for the same card (its inner frame, the card
// with its shadow) are kept as a candidate's alternatives.
//
// The outlines of the cards in a 720p frame:
//
//	f := outline.NewFinder()
//	defer f.Close()
//	half := gocv.NewMat()
//	defer half.Close()
//	gocv.Resize(frame, &half, image.Pt(640, 360), 0, 0, gocv.InterpolationArea)
//	g, err := geom.ColourView(frame) // frame: continuous 8-bit BGR
//	if err != nil {
//		return err
//	}
//	cands, err := f.Find(half, 0.5, g, 40, 324) // card widths 40–324 px
//	if err != nil {
//		return err
//	}
//	for _, c := range cands {
//		fmt.Println(c.Q, c.Score)
//	}
//
// A Finder keeps buffers and is not safe for concurrent use.
package outline

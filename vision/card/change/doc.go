// Package change compares frames with a picture of the empty table: what
// differs from it is where cards (and hands) are. Frame and reference are
// compared at a quarter of the resolution (Shrink), the largest difference
// of the three colour channels after taking out the frame's overall change
// in exposure; pixels darker than the table by about one factor in every
// channel are shadows, not changes. The changed pixels, closed and opened,
// make blobs; a blob that is a card and the hand holding it gives, with
// its skin-coloured pixels at its rim taken out, parts in a card's shape.
//
// The card reader (tablecam/vision/card) keeps a Ref and reads only where
// the frame changed:
//
//	ref := change.NewRef()
//	defer ref.Close()
//	change.ShrinkTo(empty, &ref.Small) // empty: the table, 8-bit BGR
//	ref.Size, ref.Has = image.Pt(empty.Cols(), empty.Rows()), true
//	change.ShrinkTo(frame, &ref.Cur)
//	if ok, err := ref.Changed(); err != nil || !ok {
//		return err // or the frame changed almost everywhere: read it whole
//	}
//	gocv.MorphologyEx(ref.Mask, &ref.Mask, gocv.MorphClose, ref.Kernel)
//	gocv.MorphologyEx(ref.Mask, &ref.Mask, gocv.MorphOpen, ref.Kernel)
//	ref.FindBlobs(minArea)
//	for _, b := range ref.Blobs {
//		fmt.Println(b.Box, ref.ChangedIn(b.Rect))
//	}
//
// The changed mask is computed in C (changed.cpp), its Go twin is the
// test's reference (ref_test.go).
package change

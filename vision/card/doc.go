// Package card reads the cards shown to the camera: cards with an ArUco
// sticker by their marker (any rotation, strong tilt, small stickers), cards
// without one by comparing their rectified face with the taught cards of an
// [tablecam/vision/card/index.Index]. A [Reader] reads one frame; a
// [Tracker] turns the readings of a stream of frames into "card shown"
// events, and a [Watcher] joins the two for a live loop:
//
//	ix, err := index.Load(dir) // the cards taught with index.TeachFolder
//	if err != nil {
//		return err
//	}
//	r, err := card.NewReader(card.Options{Index: ix})
//	if err != nil {
//		return err
//	}
//	defer r.Close()
//	w := card.NewWatcher(r, card.TrackerConfig{})
//	for i := 0; ; i++ {
//		frame := next() // 8-bit BGR
//		shown, err := w.Observe(i, frame)
//		if err != nil {
//			return err
//		}
//		for _, s := range shown {
//			fmt.Println(s.Card.ID)
//		}
//	}
//
// The reader is an orchestrator over the packages below it: marker (the
// sticker scanner), outline (card outlines), index (taught cards, their
// keypoints) and change (the difference to the empty table).
//
// One frame, in order:
//
//  1. Stickers: dark quadrilaterals of an adaptive threshold at half
//     resolution (a [tablecam/vision/marker.Scanner]), corners refined at full resolution,
//     bits sampled through the quad's homography and matched against the
//     dictionary with per-bit confidence; a black border, a white quiet
//     zone and flat modules are required (card art does not read as a
//     marker). Small markers whose modules blur into each other are read
//     by fitting each code's cells with their neighbours' spill
//     (vision/marker). Where a card or a marker-sized blob was seen
//     but no marker read, the search runs again at full resolution (not
//     on an outline already taken for a taught card, step 3, nor on the
//     blobs inside one: card art).
//     Small places that still read nothing get three other thresholds.
//     A card whose sticker is read is not searched again away from the
//     sticker (offSticker), and a candidate whose corners failed once
//     on a picture is not read again on it.
//     A card carries one sticker: a weaker read on another's card, or of a
//     very different size right next to it, is card art and dropped.
//  2. Card outlines (package outline): straight edges of the colour image
//     (colour steps count, not only brightness) at half resolution joined
//     into quads, each side re-fitted at full resolution to the outermost
//     clear edge near it (the card's own edge, not its inner frame).
//  3. An outline holding a sticker is that sticker's card; every other
//     outline is rectified and compared with the taught cards
//     (package index), trying its alternatives (inner frame, outer edge,
//     shadow, a little smaller and larger) too.
//  4. Where an outline came near a taught card but matched none (found a
//     few pixels off, at the card's inner frame, cut by a thumb), the place
//     around it is searched for the ORB keypoints of its three nearest
//     taught cards (index.Keyer, key_search.go); keypoints agreeing
//     on one homography give the card's outline, which must then match
//     that card like any other outline (untaught cards stay unknown).
//  5. With a picture of the empty table ([Reader.SetBackground], which
//     the live pipeline's [tablecam/vision/background.Reader] hands on), steps 1–4 look only
//     where the frame differs from it and the places no card was read in
//     are searched for keypoints (package change, ref.go). A changed blob in a
//     card's shape (or a part of one, the hand taken out) is an outline of
//     its own, compared quickly first (as found, as an inner frame, its
//     alternatives) and in full only where no other outline was read as a
//     taught card: it is often the card with its shadow or the hand's edge.
//     The sticker search and the outline finder keep only the dark pixels
//     and edges near what changed (the table's pattern around a blob makes
//     no sticker and no card's edge).
//  6. With the reference, the cards read in a frame are followed into the
//     next ones (follow.go): each found near its last place by its
//     picture (a sticker by its marker read again there) is kept, and
//     steps 1–5 run only on the places that changed against the empty
//     table and that the cards kept do not make (none: they do not run);
//     every 10th frame is read in full.
//  7. With SearchWholeFrame (tablecam card: single pictures), the whole
//     frame away from the cards read is searched for the keypoints of
//     every taught card through a hashed index (frame_keys.go); it
//     costs several times a plain reading, so the live loop does not.
//
// The per-condition accuracy lives in docs/figures.md (measured by
// TestCardsEvalMarkers and TestCardsEvalLearned with -eval-full), the cost
// of a frame in BenchmarkReadCards720p and its relatives. The parts that
// cost most are written so that they share work: the edge passes share
// their gradients, reduced to the strongest colour channel once (OpenCV's
// multi-channel Canny path costs most of the edge time), contours are
// approximated in one C++ call, outlines taken for a taught card are not
// searched for stickers again at full resolution, the retry passes skip
// places that are only texture blobs, and the taught-card comparison sums
// in C (tc_dot_i8). TestCardsReadingDigest checks that a change meant to
// make reading cheaper reads every card as before.
package card

// Package index holds the cards taught to tablecam from photos, and
// recognises a card by its look: an outline is rectified to a small square
// (a Describer), described in its four turns, and compared with every
// taught example (Index.Match); the nearest card is taken when it is close
// enough and clearly closer than any other (Index.Accepts). Each example
// also keeps the ORB keypoints of its card (a Keyer), which find a card
// whose outline was missed and confirm a match at its pose; a KeyHash finds
// the nearest taught keypoints of all cards at once.
//
// Teach an index from a folder of photos, one folder per card id, and keep
// it:
//
//	ix, err := index.TeachFolder("my-cards", func(line string) { fmt.Println(line) })
//	if err != nil {
//		return err
//	}
//	if err := ix.Save(dir); err != nil {
//		return err
//	}
//
// and read a card inside an outline q (clockwise, image pixels) of a frame:
//
//	d := index.NewDescriber()
//	defer d.Close()
//	if err := d.Rectify(frame, q, 0); err != nil {
//		return err
//	}
//	var ds [4]index.Desc
//	if err := d.Describe(&ds); err != nil {
//		return err
//	}
//	if m := ix.Match(&ds); ix.Accepts(m) {
//		fmt.Println(m.ID, m.Dist)
//	}
//
// The card reader (tablecam/vision/card) does this for every outline it
// finds. An Index is safe for concurrent reads; Describers and Keyers keep
// buffers and are not safe for concurrent use.
package index

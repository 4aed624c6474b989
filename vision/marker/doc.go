// Package marker reads the ArUco stickers that give cards and tokens an ID,
// and says what each ID stands for.
//
// A [Map] (the embedded default, or one merged from a YAML file with
// [LoadMap]) maps marker ids of one [Dict] to content ids of the game. A
// [Scanner] finds and decodes stickers as the card reader needs them: small,
// blurred, tilted, under glare, searched for only where asked. A [Detector]
// is OpenCV's own ArUco detector, through a small binding of ours (gocv's
// contrib package does not build against Debian's OpenCV). [Generate] draws
// a marker for printing.
//
// The stickers in a picture, by what they stand for:
//
//	m := marker.DefaultMap()
//	s, err := marker.NewScanner(m.Dict())
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	g, err := geom.GreyView(grey) // grey: continuous 8-bit gocv.Mat
//	if err != nil {
//		return err
//	}
//	s.Forget(geom.View{})
//	full := image.Rect(0, 0, grey.Cols(), grey.Rows())
//	found, err := s.Scan(grey, g, full, marker.PassFull, 14, 400, nil)
//	if err != nil {
//		return err
//	}
//	for _, st := range found {
//		if e, ok := m.Lookup(st.Marker.ID); ok {
//			fmt.Println(e.Content, st.Marker.Corners)
//		}
//	}
//
// Scanners and detectors keep buffers and C++ objects: Close them; they are
// not safe for concurrent use.
package marker

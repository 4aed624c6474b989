// Package dice reads dice with learned models: a finder that marks every
// die top in a frame, and a face reader that names the face of each one.
// Both are small ONNX networks trained from scratch (train/, `make train`)
// and run through OpenCV's dnn module; their files are embedded from
// models/, and models/MODELS.md is their model card.
//
// A reader is made once and used for many frames, from one goroutine:
//
//	r, err := dice.NewReader()
//	if err != nil {
//		return err // a damaged model file is named here
//	}
//	defer r.Close()
//	found, err := r.Find(frame) // frame: a BGR gocv.Mat of any size
//	for _, f := range found {
//		face, err := r.Face(frame, f)
//		...
//	}
package dice

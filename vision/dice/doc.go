// Package dice reads dice with learned models: a finder that marks every
// die top in a frame, and a face reader that names the face of each one
// (or sees that a mark is no die's top face: a pip of a large die, a side
// face, the table). Both are small ONNX networks trained from scratch
// (train/, `make train`) and run through OpenCV's dnn module; their files
// are embedded from models/, and models/MODELS.md is their model card.
//
// A reader is made once and used for many frames, from one goroutine:
//
//	r, err := dice.NewReader()
//	if err != nil {
//		return err // a damaged model file is named here
//	}
//	defer r.Close()
//	dice, err := r.ReadDice(frame) // frame: a BGR gocv.Mat of any size
//	for _, d := range dice {
//		fmt.Println(d.Center, d.Value, d.Sure) // an unsure die is asked
//	}
//
// [Reader.Find] and [Reader.Face] are the two steps apart, for a caller
// that wants the boxes, the face probabilities or the embedding.
//
// [EvaluateReal] measures a reader on labelled real photos ([RealPhotos]
// splits them by rig and source photo as the training does), per rig and
// per condition of the die (size, touching, light, sharpness, grey or
// colour picture): `make eval-dice-real`; `make eval-dice-rendered` does
// the same on held-out rendered scenes.
package dice

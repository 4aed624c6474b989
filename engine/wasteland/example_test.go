package wasteland_test

import (
	"fmt"

	"tablecam/engine/wasteland"
)

// An attack that misses by 2, saved by an accuracy token, then open to the
// target's dodge (seed 001 "Genauigkeit", "Ausweichen").
func ExampleApply() {
	die := wasteland.SkillFace{Kind: wasteland.Number, Value: 7}
	r := wasteland.NewAttack(5, die, wasteland.Unit{LUC: 2, Tokens: 2}, wasteland.Unit{LUC: 1, Tokens: 1})
	fmt.Println(wasteland.Legal(r))
	r, res, _ := wasteland.Apply(r, wasteland.Accuracy, true)
	fmt.Println(res.Success, wasteland.Legal(r), r.Tester.Tokens)
	// Output:
	// [{accuracy actor}]
	// true [{dodge target}] 1
}

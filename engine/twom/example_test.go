package twom_test

import (
	"fmt"

	"tablecam/engine/twom"
)

// The noise test while scavenging (seed 004 "Lärmanzeiger setzen").
func ExampleNoiseTest() {
	g, _, _ := twom.NewGame(2, 0, []twom.Character{{Name: "anna", Empathy: 4}, {Name: "bruno", Empathy: 7}})
	for g.Current().ID != twom.StepNoise {
		g, _, _ = twom.Advance(g)
	}
	g, _, _ = twom.ChangeNoise(g, 2)
	fmt.Println(g.Noise, twom.NoiseOdds(g.Noise))
	g, out, _ := twom.NoiseTest(g, 2)
	for _, o := range out {
		fmt.Println(o.Kind, o.Vars)
	}
	fmt.Println(g.Noise)
	// Output:
	// 3 3/10
	// twom.noise_test map[encounter:true noise:3 roll:2]
	// twom.noise map[noise:1]
	// twom.encounter map[]
	// 1
}

package warfare_test

import (
	"fmt"

	"tablecam/engine/warfare"
)

// A melee attack from behind against armour class 2 (seed 002 ch. 4
// "Attacchi in Mischia").
func ExampleMeleeAttack() {
	m := warfare.Melee{Strength: 7, TargetAC: 2, FromBehind: true}
	r, _ := warfare.MeleeAttack(m, 2)
	p := warfare.MeleeOdds(m)
	fmt.Println(r.Total, r.Success, r.KnockDown, p.Hit, p.KnockDown)
	// Output: 3 true true 3/5 1/5
}

package twom

import "tablecam/engine/dice"

// Exact odds of the black-die tests by enumeration of its ten faces.

// NoiseOdds is the chance that a noise test at this noise level starts an
// encounter (seed 004 "Lärmanzeiger setzen").
func NoiseOdds(noise int) dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return v <= noise })
}

// EmpathyOdds is the chance that an empathy test (a kill, or "death walks
// among us") raises the misery of a character with this empathy (seed 004
// "Tod von Feinden", "Der Tod wandelt unter uns").
func EmpathyOdds(empathy int) dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return v <= empathy })
}

// LockpickOdds is the chance that a lockpick opens a locked door (seed 004
// "Schloss knacken").
func LockpickOdds() dice.Ratio {
	return dice.Count(dice.D10Values(), func(v int) bool { return v >= LockpickOpens })
}

// ThirstOdds is the chance that a character without water gains hunger,
// and that it gains misery (seed 004 "Durst").
func ThirstOdds() (hunger, misery dice.Ratio) {
	vals := dice.D10Values()
	return dice.Count(vals, func(v int) bool { return v <= 5 }), dice.Count(vals, func(v int) bool { return v > 5 })
}

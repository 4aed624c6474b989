// Package warfare holds the rules of "Fallout: Warfare" (the free skirmish
// rules, seed 002 in its Italian edition "Fallout: Stato di Guerra") as pure
// functions: the d10 roll-under test, initiative, melee and ranged attacks
// with their modifiers, saves and damage, the environment step, the light
// level, mines, victory points, and the exact odds of each test.
//
// Every test is one d10 rolled under a stat. A modifier is added to the
// roll, so a positive modifier makes the test harder: the target's armour
// class, +1 for cover, +2 in the dark, +1 against a flying target, +4 for
// moving and firing or charging, −1 for a melee attack from behind. The seed
// writes the same penalties as "−2" or "penalità di −4" elsewhere; this
// package always adds the number that makes the test harder. Whatever the
// modifiers, a natural 10 (the face printed 0) fails.
//
//	m := warfare.Melee{Strength: 7, TargetAC: 2, FromBehind: true}
//	r, _ := warfare.MeleeAttack(m, 2)  // 2 + 2 − 1 = 3 ≤ 7: hit, knock-down
//	p := warfare.MeleeOdds(m)          // Hit 3/5, KnockDown 1/5
//
// Readings the seed leaves open, and how this package reads them:
//   - Initiative: the higher total wins ("il vincitore di questo tiro"); a
//     natural 10 is the best initiative roll, since "10 always fails" is a
//     rule of tests, not of this comparison.
//   - The ranged section's "+2 if it is dark" and the light-level section's
//     "−2 in darkness (except Ghouls and Super Mutants)" are one penalty,
//     applied once; dawn and dusk give the same penalty except to Robots,
//     Ghouls and Super Mutants (seed 002 ch. 6 "Livello di Luce").
//   - The melee knock-down is a successful roll of 1 or 2; the ranged
//     knock-down is a successful roll of 1 (seed 002 ch. 4 "Attacchi in
//     Mischia", "Attacchi a Distanza").
//   - Moving and firing (and charging) is "una penalità di −4"; the rules
//     summary writes it "1d10−4". A penalty cannot make the attack easier, so
//     both are read as +4 on the roll (seed 002 ch. 4 "Movimento e Fuoco",
//     "Carica", "Riassunto delle Regole").
//   - An initiative tie with a hero on one side only goes to that side (its
//     hero has the higher Luck).
//   - A weapon's save modifier is added to the target's Endurance roll
//     ("agisce sul tiro del bersaglio"), so the mine's −2 makes the save
//     easier.
//   - A retreated unit is worth half its points; half points are kept, so
//     scores are float64 multiples of 0.5.
package warfare

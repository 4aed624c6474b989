// Package wasteland holds the luck-token rules of Fallout: Wasteland
// Warfare (seed 001, a German translation of the rulebook's luck section)
// and the skill test they modify, as pure functions: which luck uses are
// legal at a moment of a test or an attack, what a flipped token does, and
// the exact odds of a skill test with and without luck.
//
// A Roll is one skill test in progress. The tracker builds it from the
// skill value and the skill die face the camera read, asks Legal which
// tokens may be thrown now, and applies each flip the players show:
//
//	die := wasteland.SkillFace{Kind: wasteland.Number, Value: 7}
//	r := wasteland.NewAttack(5, die, wasteland.Unit{LUC: 2, Tokens: 2}, wasteland.Unit{LUC: 1, Tokens: 1})
//	wasteland.Legal(r)               // [{accuracy attacker}]: 7 > 5 failed
//	r, res, _ := wasteland.Apply(r, wasteland.Accuracy, true)
//	r.Success()                      // true: 7 − 2 = 5 ≤ 5
//	wasteland.Legal(r)               // [{dodge target}]
//
// Assumptions, from rules-other-games.md where the seed is silent:
//   - The skill test passes when the skill die reads at most the skill
//     value; the die is a d20 whose faces are data (numbers, an AP face and
//     a Critical face that both read 1, X faces that always fail). The
//     number of each face is unconfirmed, so odds take the face list.
//   - A luck token is a fair two-sided token: the luck symbol shows with
//     chance 1/2.
//   - A Critical face is a success that no luck changes (seed 001
//     "Ausweichen"), so neither side may throw accuracy or dodge on it.
//   - The extra critical is thrown once the attack roll is final (after
//     every accuracy and dodge token): after Resolve or SetDamage.
//
// The Vault-Tec Simulator variant has no luck tokens: a Roll with Simulator
// set allows none.
package wasteland

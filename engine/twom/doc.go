// Package twom holds the rules of This War of Mine: The Board Game that the
// Journal (seed 004, German) states, as pure functions: the round's phases
// and steps in order with the leader who holds the Journal, the characters'
// status levels, the Dusk thirst and hunger, the Evening tasks and fatigue,
// the noise track and noise test, lockpicking, carrying, the night raid,
// combat dice, the empathy tests, alcohol, and exact odds of the black-die
// tests.
//
// Whatever the Journal leaves to a card or a script (events, encounters,
// exploration, fate and narrative cards, script numbers, the level-4 status
// markers' consequences) is a prompt outcome that names the step, never
// invented rules text. The tracker turns outcomes into announcements:
//
//	g, out, _ := twom.NewGame(3, 0, chars) // chars: the drawn characters
//	// out: the morning event step; every character at hunger 2
//	g, out, _ = twom.Advance(g) // the Journal passes on; day actions step 1
//	...
//	g, out, _ = twom.NoiseTest(g, 2) // noise 3: encounter, noise back to 1
//
// Readings the seed leaves open, and how this package reads them:
//   - Status levels run 0 (no marker) to 4; an increase at level 4 keeps
//     level 4 and prompts the level-4 marker's consequence again, since the
//     marker prints what happens.
//   - The noise track has no upper bound here (the board's track length is
//     not in the seed) and never goes below 1.
//   - The Journal prints an icon after each day action step and after each
//     exploration card that the text lost; only the explicit "NÄCHSTER
//     SPIELER" marks pass the Journal automatically. PassJournal passes it
//     at any other time.
//   - Alcohol may be drunk before or after the fate card; the step list
//     puts it after the narrative card, and Alcohol may be called at any
//     Dawn step.
//   - Combat die faces are data (rules-other-games.md: per-face counts
//     unconfirmed): a face is its number of symbols and at most one mark.
package twom

package tracker

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"tablecam/engine/dice"
	"tablecam/engine/twom"
	"tablecam/engine/warfare"
	"tablecam/models"
)

// CombatOddsRequest is what `tablecam odds --game twom --combat …` asks: a
// combat roll of This War of Mine.
type CombatOddsRequest struct {
	// Die is a combat die's colour (grey, yellow, red) or a weapon, which
	// names its die (seed 004 "Wachen und Waffen"); a colour alone rolls
	// for the colour's weapon without a special face (unarmed, knife,
	// pistol).
	Die string
	// Faces are the die's faces as printed, a face printed twice listed
	// twice; empty: the faces the content lists for the die, each once.
	Faces []string
	// Shots 2 is the assault rifle's two rolls (0 is 1).
	Shots int
	// Enemy: an enemy's roll.
	Enemy bool
	// Strength is the roller's strength: its rerolls (seed 004 "Stärke im
	// Kampf"); 0: the roll alone. An enemy rerolls a roll of 0 wounds
	// automatically; a character's chance of each number of wounds is
	// given for rerolling every roll short of it.
	Strength int
}

// colourWeapons is the weapon a colour alone rolls for.
func colourWeapon(d twom.Die) twom.Weapon {
	switch d {
	case twom.Yellow:
		return twom.Knife
	case twom.Red:
		return twom.Pistol
	}
	return twom.Unarmed
}

// twomCombatOdds writes the exact odds of a combat roll: the distribution
// of wounds (on guard: of damage or wounds cancelled), a kill outright, the
// fate face and an enemy's empty firearm.
func twomCombatOdds(w io.Writer, cat *Catalog, c *models.Content, r CombatOddsRequest) error {
	weapon := twom.Weapon(r.Die)
	die, err := twom.DieFor(weapon)
	if err != nil {
		die = twom.Die(r.Die)
		if !slices.Contains([]twom.Die{twom.Grey, twom.Yellow, twom.Red}, die) {
			return fmt.Errorf("odds --game twom: --combat is a die (grey, yellow, red) or a weapon (%s), got %q", strings.Join(twomWeapons, ", "), r.Die)
		}
		weapon = colourWeapon(die)
	}
	ids, listed := r.Faces, ""
	if len(ids) == 0 {
		if c != nil {
			if g, ok := c.Game(GameTwom); ok {
				if d, ok := g.Die(string(die)); ok {
					ids = d.FaceIDs(c)
				}
			}
		}
		if len(ids) == 0 {
			return fmt.Errorf("odds --game twom: the content lists no faces of the %s die; give them with --combat-faces", die)
		}
		listed = cat.T("oddsCombatListed")
	}
	var faces []twom.CombatFace
	for _, id := range ids {
		f, err := parseCombatFace(strings.TrimSpace(id))
		if err != nil {
			return fmt.Errorf("odds --game twom: --combat-faces: %w", err)
		}
		faces = append(faces, f)
	}
	shots := max(1, r.Shots)
	if r.Strength != 0 && shots != 1 {
		return fmt.Errorf("odds --game twom: --strength with --shots 2: the Journal does not say which of the two rolls a reroll repeats")
	}
	o, err := twom.CombatRollOdds(weapon, faces, shots, r.Enemy)
	if r.Enemy && r.Strength != 0 && err == nil {
		o, err = twom.EnemyRerollOdds(weapon, faces, r.Strength)
	}
	if err != nil {
		return err
	}
	var reach []dice.Ratio
	if !r.Enemy && r.Strength != 0 {
		if reach, err = twom.ReachOdds(weapon, faces, r.Strength); err != nil {
			return err
		}
	}
	who := ""
	if r.Enemy {
		who = cat.T("oddsCombatEnemy")
	}
	if shots == 2 {
		who += cat.T("oddsCombatTwice")
	}
	if r.Enemy && r.Strength != 0 {
		who += cat.T("oddsCombatEnemyRerolls", r.Strength)
	}
	fmt.Fprint(w, cat.T("oddsCombat", cat.T("die."+string(die)), weapon, who, strings.Join(ids, ","), listed))
	for k, p := range o.Wounds {
		fmt.Fprint(w, cat.T("oddsCombatWounds", k, ratio(p)))
	}
	fmt.Fprint(w, cat.T("oddsCombatMarks", ratio(o.Kills), ratio(o.Fate)))
	if r.Enemy && twom.Firearm(weapon) {
		fmt.Fprint(w, cat.T("oddsCombatEmpty", ratio(o.OutOfAmmo)))
	}
	if len(reach) > 0 {
		fmt.Fprint(w, cat.T("oddsCombatReach", r.Strength))
		for k := 1; k < len(reach); k++ {
			fmt.Fprint(w, cat.T("oddsCombatReachLine", k, ratio(reach[k])))
		}
	}
	return nil
}

// warfareMineOdds writes the exact odds of a unit caught by a mine: its
// save and the damage it takes (seed 002 ch. 6 "Far Brillare le Mine").
func warfareMineOdds(w io.Writer, cat *Catalog, endurance int) error {
	if endurance < 1 || endurance > 20 {
		return fmt.Errorf("odds --game warfare: --mine (Endurance) must be 1 … 20, got %d", endurance)
	}
	o := warfare.MineOddsFor(endurance)
	fmt.Fprint(w, cat.T("oddsMine", endurance, warfare.MineSaveMod, ratio(o.Save)))
	for k := 1; k < len(o.Damage); k++ {
		fmt.Fprint(w, cat.T("oddsMineDamage", k, ratio(o.Damage[k])))
	}
	fmt.Fprint(w, cat.T("oddsMineRoll"))
	for k, p := range warfare.MineDamageOdds() {
		if k > 0 {
			fmt.Fprint(w, cat.T("oddsMineRollLine", k, ratio(p)))
		}
	}
	return nil
}

package tracker

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"tablecam/engine/warfare"
)

// WarfareOdds is what `tablecam odds --game warfare` asks beyond a plain
// test: a melee or ranged attack with the seed's modifiers, and the
// initiative roll.
type WarfareOdds struct {
	// Melee is the attacker's Strength, Shoot its Agility (0: not asked).
	Melee, Shoot int
	// AC is the target's armour class.
	AC int
	// Melee modifiers.
	Behind, Charge bool
	// Ranged modifiers; Light is dawn, day, dusk or darkness ("" is day).
	Cover, Flying, Area bool
	Light, Shooter      string
	// Moving: the attack ends a move-and-fire action.
	Moving bool
	// Initiative asks who attacks this turn; LastAttacker (a or b) gets
	// +2, LuckA and LuckB are the sides' best hero Luck for ties (nil: no
	// hero).
	Initiative   bool
	LastAttacker string
	LuckA, LuckB *int
	// Mine is the Endurance of a unit caught by a mine (0: not asked).
	Mine int
}

func (o WarfareOdds) asked() bool { return o.Melee != 0 || o.Shoot != 0 || o.Initiative || o.Mine != 0 }

// warfareOddsReport writes the exact odds of Fallout: Warfare's d10 test,
// attacks and initiative asked for.
func warfareOddsReport(w io.Writer, cat *Catalog, stat, mod int, o WarfareOdds) error {
	if stat == 0 && !o.asked() {
		return fmt.Errorf("odds --game warfare: give --stat N, --melee STRENGTH, --shoot AGILITY, --mine ENDURANCE and/or --initiative")
	}
	if stat != 0 {
		if stat < 1 || stat > 20 {
			return fmt.Errorf("odds --game warfare: --stat must be 1 … 20, got %d", stat)
		}
		if mod < -10 || mod > 10 {
			return fmt.Errorf("mod must be -10 … 10, got %d", mod)
		}
		fmt.Fprint(w, cat.T("oddsWarfareTest", stat, mod, ratio(warfare.TestOdds(stat, mod))))
	}
	if o.Melee != 0 && o.Shoot != 0 {
		return fmt.Errorf("odds --game warfare: a melee attack or a shot, not both")
	}
	if o.Melee != 0 || o.Shoot != 0 {
		if err := warfareAttackOdds(w, cat, o); err != nil {
			return err
		}
	}
	if o.Mine != 0 {
		if err := warfareMineOdds(w, cat, o.Mine); err != nil {
			return err
		}
	}
	if o.Initiative {
		return warfareInitiativeOdds(w, cat, o)
	}
	return nil
}

func warfareAttackOdds(w io.Writer, cat *Catalog, o WarfareOdds) error {
	if o.AC < 0 || o.AC > 10 {
		return fmt.Errorf("odds --game warfare: --ac must be 0 … 10, got %d", o.AC)
	}
	if o.Melee != 0 {
		if o.Melee < 1 || o.Melee > 20 {
			return fmt.Errorf("odds --game warfare: --melee (Strength) must be 1 … 20, got %d", o.Melee)
		}
		if o.Cover || o.Flying || o.Area || o.Light != "" || o.Shooter != "" {
			return fmt.Errorf("odds --game warfare: cover, flying, area, light and shooter count for a shot (--shoot), not a melee attack")
		}
		m := warfare.Melee{Strength: o.Melee, TargetAC: o.AC, FromBehind: o.Behind, Charge: o.Charge, MoveAndFire: o.Moving}
		fmt.Fprint(w, cat.T("oddsMelee", o.Melee, o.AC,
			flagList(o.Behind, cat.T("oddsBehind"), o.Charge, cat.T("oddsCharging"), o.Moving, cat.T("oddsMovingFighting")), m.Mod()))
		writeAttackOdds(w, cat, warfare.MeleeOdds(m), cat.T("oddsKnockMelee"))
		return nil
	}
	if o.Shoot < 1 || o.Shoot > 20 {
		return fmt.Errorf("odds --game warfare: --shoot (Agility) must be 1 … 20, got %d", o.Shoot)
	}
	if o.Behind || o.Charge {
		return fmt.Errorf("odds --game warfare: behind and charge count for a melee attack (--melee), not a shot")
	}
	if o.Light != "" && !slices.Contains(warfareLights, o.Light) {
		return fmt.Errorf("odds --game warfare: --light must be %s, got %q", strings.Join(warfareLights, ", "), o.Light)
	}
	shooters := []string{"robot", "ghoul", "super_mutant"}
	if o.Shooter != "" && !slices.Contains(shooters, o.Shooter) {
		return fmt.Errorf("odds --game warfare: --shooter must be %s, got %q", strings.Join(shooters, ", "), o.Shooter)
	}
	r := warfare.Ranged{Agility: o.Shoot, TargetAC: o.AC, AreaEffect: o.Area, Cover: o.Cover, Flying: o.Flying,
		MoveAndFire: o.Moving, Light: warfareLight(o.Light), Shooter: warfare.Shooter(o.Shooter)}
	light := cat.T("light." + lightName(r.Light))
	if o.Shooter != "" {
		light += cat.T("oddsShooter", o.Shooter)
	}
	fmt.Fprint(w, cat.T("oddsRanged", o.Shoot, o.AC, light,
		flagList(o.Cover, cat.T("oddsCover"), o.Flying, cat.T("oddsFlying"), o.Area, cat.T("oddsArea"), o.Moving, cat.T("oddsMovingFiring")), r.Mod()))
	writeAttackOdds(w, cat, warfare.RangedOdds(r), cat.T("oddsKnockRanged"))
	return nil
}

func writeAttackOdds(w io.Writer, cat *Catalog, a warfare.AttackOdds, knock string) {
	fmt.Fprint(w, cat.T("oddsHit", ratio(a.Hit), ratio(a.KnockDown), knock))
}

// flagList is ", name, name" of the flags set.
func flagList(pairs ...any) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		if on, _ := pairs[i].(bool); on {
			fmt.Fprintf(&b, ", %s", pairs[i+1])
		}
	}
	return b.String()
}

func warfareInitiativeOdds(w io.Writer, cat *Catalog, o WarfareOdds) error {
	var a, b warfare.InitiativeRoll
	switch o.LastAttacker {
	case "":
	case "a":
		a.LastAttacker = true
	case "b":
		b.LastAttacker = true
	default:
		return fmt.Errorf("odds --game warfare: --last-attacker must be a or b, got %q", o.LastAttacker)
	}
	for _, s := range []struct {
		luck *int
		roll *warfare.InitiativeRoll
	}{{o.LuckA, &a}, {o.LuckB, &b}} {
		if s.luck == nil {
			continue
		}
		if *s.luck < 0 || *s.luck > 20 {
			return fmt.Errorf("odds --game warfare: a hero's Luck must be 0 … 20, got %d", *s.luck)
		}
		s.roll.HasHero, s.roll.HeroLuck = true, *s.luck
	}
	pa, pb := warfare.InitiativeOdds(a, b)
	fmt.Fprint(w, cat.T("oddsInitiative", initiativeNote(cat, "a", a), initiativeNote(cat, "b", b), ratio(pa), ratio(pb), ratio(warfare.InitiativeRerollOdds(a, b))))
	return nil
}

func initiativeNote(cat *Catalog, side string, r warfare.InitiativeRoll) string {
	s := ""
	if r.LastAttacker {
		s += cat.T("oddsLastAttacker", side, warfare.LastAttackerBonus)
	}
	if r.HasHero {
		s += cat.T("oddsHeroLuck", side, r.HeroLuck)
	}
	return s
}
